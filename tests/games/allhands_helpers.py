"""Helpers for the All Hands On Deck tests: make a match, let a chosen seat win a play, play at random."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from geniusbot.games import GameError, new_game, other_seat
from geniusbot.games.allhands.final import AllHandsOnDeck
from geniusbot.games.allhands.tiles import TILES, Mines
from geniusbot.games.grid import Point


def make(seed: int = 1, **options: str) -> AllHandsOnDeck:
    """A new match (an empty option is left out, as a record leaves out an empty header)."""
    game = new_game("allhands", seed=seed, **{k: v for k, v in options.items() if v})
    assert isinstance(game, AllHandsOnDeck)
    return game


def send(game: AllHandsOnDeck, seat: str, text: str, *, private: bool = False):
    """Submit ``text`` for ``seat``; the events."""
    return game.submit(text, seat, private=private)[1]


def _decks_move(game: AllHandsOnDeck, seat: str) -> str:
    task = game.task
    if task.phase == "create":
        for text in ("create 5", "create 1", "create none"):
            try:
                task.parse_move(text, seat, private=True)
                return text
            except GameError:
                continue
    hand = task.hands[seat]
    return f"play {' '.join(map(str, hand))}" if hand else "play none"


def _tiles_call(game: AllHandsOnDeck, seat: str):
    """A first call that does not lose the caller at once (Chain may leave a colour with no tile)."""
    for move in game.legal_moves(seat):
        trial = game.copy()
        trial.play(move)
        if trial.play_no == game.play_no and not trial.task.is_over:
            return move
    raise AssertionError("no safe call")


def win_task(game: AllHandsOnDeck, winner: str) -> list:
    """Play the current task so that ``winner`` wins it: the loser lets its clock run out (Tile
    Decklaration, Deck Swabbing: it loses; Dueling Decks: it submits nothing) while the winner
    makes a safe call, creates and plays a 5, or colours any pair. Returns the events."""
    assert game.phase == "task", game.phase
    loser = other_seat(winner)
    play_no = game.play_no
    events = []
    while not game.is_over and game.play_no == play_no:
        movers = game.to_move()
        if not movers:
            events += game.close_window()
        elif loser in movers:
            events += game.timeout(loser)
        elif game.current_task == "decks":
            events += send(game, winner, _decks_move(game, winner), private=True)
        elif game.current_task == "tiles":
            if game.task.phase == "landmines":
                events += game.timeout(winner)
            else:
                events += game.play(_tiles_call(game, winner))
        else:
            move = next(game.legal_moves(winner))
            events += game.play(move)
    return events


def skip_selection(game: AllHandsOnDeck, rng: random.Random | None = None) -> list:
    """Pass every Override question, make the bans (the first open anomaly, or at random) and
    keep every All-In, up to the start of the task."""
    events = []
    while not game.is_over and game.phase != "task":
        seat = game.to_move()[0]
        if game.phase == "override":
            events += send(game, seat, "pass")
        elif game.phase == "ban":
            anomaly = rng.choice(game.pool) if rng else game.pool[0]
            events += send(game, seat, f"ban {anomaly}")
        else:
            events += send(game, seat, "pass", private=True)
    return events


def play_to(game: AllHandsOnDeck, play_no: int, winners) -> None:
    """Play on until play ``play_no`` opens, the winners of the plays on the way taken in turn
    from ``winners`` (a string such as ``"p1 p2 p1"`` or a list)."""
    order = winners.split() if isinstance(winners, str) else list(winners)
    order = iter(order)
    while game.play_no < play_no and not game.is_over:
        skip_selection(game)
        win_task(game, next(order))


def random_move(game: AllHandsOnDeck, rng: random.Random, *, blunder: float = 0.2):
    """A random legal move of a seat to move: ``("move", move)``, ``("timeout", seat)`` or
    ``("window", None)``. Tile Decklaration is mostly played with a perfect memory, so that its
    plays run long enough to reach landmines and rectangles; landmines are drawn, not listed."""
    movers = game.to_move()
    if not movers:
        return "window", None
    seat = rng.choice(movers)
    if rng.random() < 0.02 and game.clock_running(seat):  # only a running clock runs out
        return "timeout", seat
    task = game.task if game.phase == "task" else None
    if task is not None and game.current_task == "tiles":
        move = tiles_step(task, seat, rng, remembers=lambda: rng.random() > blunder)
        if move is not None:
            return "move", move
    moves = list(itertools.islice(game.legal_moves(seat), 3000))
    return "move", rng.choice(moves)


def tiles_step(task, seat: str, rng: random.Random, *, remembers: Callable[[], bool]):
    """A Tile Decklaration move for ``seat`` that keeps the play going, or ``None`` to pick any
    legal move: drawn landmines (too many sets to list), and, when ``remembers()``, a declaration
    from a perfect memory (a tile of the called colour, not named before, next to the last one
    under Chain)."""
    if task.phase == "landmines":
        tiles = sorted(rng.sample(list(TILES), 5), key=lambda p: (p.col, p.row))
        return Mines(seat, tuple(str(p) for p in tiles))
    if task.phase == "declare" and remembers():
        named = {d["tile"] for d in task.declared}
        anchor = task.chain_from()
        good = [
            m
            for m in task.legal_moves(seat)
            if m.tile not in named
            and task.grid[_pt(m.tile)] == task.called
            and (anchor is None or max(abs(_pt(m.tile).col - anchor.col), abs(_pt(m.tile).row - anchor.row)) <= 1)
        ]
        if good:
            return rng.choice(good)
    return None


def _pt(text: str) -> Point:
    return Point(ord(text[0]) - ord("A"), int(text[1:]) - 1)


def step(game: AllHandsOnDeck, rng: random.Random, *, blunder: float = 0.2):
    """Make one random step; returns ``(kind, seat, text, private, events)``."""
    kind, what = random_move(game, rng, blunder=blunder)
    if kind == "window":
        return "window", None, "close window", False, game.close_window()
    if kind == "timeout":
        return "timeout", what, f"timeout {what}", False, game.timeout(what)
    private = game.is_private(what)
    return "move", what.seat, what.text(), private, game.play(what)
