"""Seeded random play, which most checks are made of: a game played by random choice from its
``legal_moves()`` to its end, and the garbled text a player might type."""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Iterator, Mapping

from geniusbot.games import Game, Move

from .failures import expect, where

#: A game ends within this many actions (moves and closed windows) under random play, whatever
#: the seed: the checks, the host's random matches and the practice opponent's play-outs play
#: games to their end.
END_BOUND = 1000
#: The seeds each rule set is played with.
SEEDS = (1, 2, 3)
#: Some phases have millions of legal moves (a choice of five points of a board of 48 per seat);
#: a random move is drawn from the first ones.
LEGAL_CAP = 5000


def random_move(game: Game, rng: random.Random, seat: str | None = None, cap: int = LEGAL_CAP) -> Move:
    """A move drawn at random from the first ``cap`` legal moves of ``seat`` (default: of every
    seat to move); a check fails when there is none."""
    moves = list(itertools.islice(game.legal_moves(seat), cap))
    expect(
        moves,
        f"{seat or ' and '.join(game.to_move())} is to move but legal_moves() gives nothing",
        "legal_moves(seat) yields every legal move of a seat in to_move(); a seat with none is not to move.",
    )
    return rng.choice(moves)


def positions(
    cls: type[Game],
    variant: str,
    seed: int,
    purpose: str,
    *,
    steps: int = END_BOUND,
    cap: int = LEGAL_CAP,
    options: Mapping[str, str] | None = None,
) -> Iterator[Game]:
    """The positions of a seeded random game to its end or ``steps`` actions, each before its
    action (the game itself: a caller that plays on a position plays on a copy). A window with
    nobody to move is closed; the last position yielded is the finished game, if it finished."""
    rng = random.Random(f"{purpose}:{cls.name}:{variant}:{seed}")
    with where("the start"):
        game = cls.new(seed=seed, variant=variant, **dict(options or {}))
    for step in range(steps):
        yield game
        if game.is_over:
            return
        with where(f"action {step + 1}"):
            if not game.to_move():
                expect(
                    game.window() is not None,
                    "the game is not over, nobody is to move and no timed window is open",
                    "a running game names a seat in to_move(), or has a window() for the host to close.",
                )
                game.close_window()
                continue
            game.play(random_move(game, rng, cap=cap))


def garbled(rng: random.Random, texts: list[str]) -> str:
    """Text a player might type: a legal text bent out of shape, or noise."""
    choice = rng.randrange(6)
    if choice == 0 or not texts:
        alphabet = string.ascii_letters + string.digits + " -:;,.!?#{}\"'\\\t" + "éß漢😀"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 14)))
    text = rng.choice(texts)
    if choice == 1:
        return text.upper() if rng.random() < 0.5 else f"  {text.lower()}  "
    if choice == 2:
        return text[: rng.randrange(len(text) + 1)]
    if choice == 3:
        return text + rng.choice(["0", "9", "99", " x", "-", " and move", " and"])
    if choice == 4:
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + rng.choice(string.printable) + text[cut:]
    return " ".join(reversed(text.split()))
