"""Every game's picture in the pseudo-language: each text drawn on it (the title, the player rows,
the status line, the banner, the labels and legends) comes from a message, so no letter is drawn
outside the brackets. The picture is drawn for real; the test hears every text given to the one
text-drawing function of the toolkit (``render.text.draw_text``), after emptying the caches so
that the backgrounds and sprites with text on them are drawn afresh too. Coordinates and numbers
are drawn as notation, the same in every language, and must look like it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from geniusbot.games import Game, get_game, new_game
from geniusbot.pictures import render_image, renderers
from geniusbot.render import text
from geniusbot.render.fonts import empty_caches
from geniusbot.words import PSEUDO, Words, say

NAMES = {"p1": "alice", "p2": "bob"}
CLOCKS = {"p1": "0:30 +5:00", "p2": "4:59"}
#: What notation looks like: a coordinate letter, a square, a number, a score, a card's "?".
NOTATION = re.compile(r"[A-Z]|[A-Z]?[0-9]+|[0-9.+/ ?-]+")
#: The task games' anomalies, each played alone (they change what the pictures say).
ANOMALIES = {
    "tiles": ("chain", "implode", "landmine", "rainbow", "rectangle-adverse"),
    "decks": ("backup", "darkness", "overshadow", "pick-your-prize", "revolution"),
    "swabbing": ("hook", "linear", "pyramid", "snipe", "unique"),
}


def outside(drawn: str) -> str:
    """What of a drawn line no message said. A line may be a piece of a message (a banner broken
    onto two lines, a text cut with an ellipsis): a closing bracket with no opening one before it
    says the line began inside a message, so only what lies outside every message counts."""
    depth = start = 0
    for char in drawn:
        depth += {"⟦": 1, "⟧": -1}.get(char, 0)
        start = max(start, -depth)
    depth = start
    kept = []
    for char in drawn:
        if char == "⟦":
            depth += 1
        elif char == "⟧":
            depth -= 1
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def test_outside_keeps_what_no_message_said_even_of_a_piece_of_a_line():
    assert outside("⟦ŵíñś⟧ · last") == " · last"
    assert outside("⟦ĥé ŕáñ óúţ") == ""  # the first line of a banner broken in two
    assert outside("óƒ ţíḿé⟧ ⟦ŵíñś⟧ and") == "  and"  # its second line
    assert outside("⟦⟦á⟧ ŵíñś …") == ""  # cut with an ellipsis


def positions(name: str, seed: int, **options: str) -> Iterator[tuple[str, Game]]:
    """The game at its start, twice in the middle and at its end (played by random legal moves,
    ended by a resignation if it runs long): the positions a picture is tested in."""
    rng = random.Random(seed)
    game = new_game(name, seed=seed, **options)
    yield "start", game.copy()
    played: list[Game] = []
    for _ in range(600):
        if game.is_over:
            break
        movers = game.to_move()
        if not movers:
            window = game.window()
            if window is None:
                break
            game.close_window()
            continue
        seat = rng.choice(list(movers))
        move = game.rollout_move(seat, rng) or rng.choice(list(game.legal_moves(seat)))
        game.play(move)
        played.append(game.copy())
    for k in (len(played) // 3, 2 * len(played) // 3):
        if k < len(played) and not played[k].is_over:
            yield f"move {k}", played[k]
    if not game.is_over:
        game.resign(game.to_move()[0] if game.to_move() else "p1")
    assert game.is_over
    yield "ended", game


def heard(view: Mapping[str, Any], *, title: str | None) -> list[tuple[str, bool]]:
    """Every text drawn on the pseudo-language picture of ``view``."""
    empty_caches()
    with text.listening() as drawn:
        image = render_image(view, words=Words(PSEUDO, NAMES), clocks=CLOCKS, title=title)
    assert image.width > 0 and image.height > 0
    return drawn


def assert_all_said(view: Mapping[str, Any], where: str, *, title: str | None) -> None:
    drawn = heard(view, title=title)
    words = [t for t, notation in drawn if not notation]
    assert any("⟦" in t for t in words), f"{where}: no message was drawn at all"
    for t, notation in drawn:
        if notation:
            assert NOTATION.fullmatch(t), f"{where}: {t!r} is drawn as notation but is not"
        else:
            assert not re.search(r"[^\W\d_]", outside(t)), f"{where}: {t!r} has words that no message said"


def cases() -> Iterator[Any]:
    for name in sorted(renderers()):
        for variant in get_game(name).variants:
            yield pytest.param(name, {"variant": variant}, id=f"{name}-{variant}")
        for anomaly in ANOMALIES.get(name, ()):
            yield pytest.param(name, {"anomalies": anomaly}, id=f"{name}-{anomaly}")


def test_every_game_with_a_picture_is_tested():
    assert {"tightwire", "tictacfive", "armslength", "allhands", "tiles", "decks", "swabbing", "blackwhite"} <= set(
        renderers()
    )


@pytest.mark.parametrize(("name", "options"), list(cases()))
def test_every_word_on_the_picture_comes_from_a_message(name: str, options: dict[str, str]) -> None:
    title = Words(PSEUDO)(say("Match #{id}", id=7))
    ended = 0
    for k, (when, game) in enumerate(positions(name, 3, **options)):
        # The room's view with the host's title and with none (the game's own name heads it),
        # and a seat's own view, which shows what only that seat may see.
        assert_all_said(game.view(None), f"{name} {when}", title=title)
        assert_all_said(game.view(None), f"{name} {when}, untitled", title=None)
        seat = ("p1", "p2")[k % 2]
        assert_all_said(game.view(seat), f"{name} {when}, {seat}'s view", title=title)
        if game.is_over:
            ended += 1
            assert game.view(None)["outcome"], "an ended game's picture carries its banner"
    assert ended == 1


def test_a_timed_out_game_says_its_banner_in_the_language():
    ended = []
    for name in sorted(renderers()):
        game = new_game(name, seed=1)
        seat = next(iter(game.to_move()), None)
        if seat is None:
            continue
        game.timeout(seat)
        if not game.is_over:
            continue  # a game whose clock ends a round, not the game
        ended.append(name)
        drawn = [t for t, notation in heard(game.view(None), title=None) if not notation]
        assert any("alice" in t or "bob" in t for t in drawn), f"{name}: no seat named on its picture"
        for t in drawn:
            assert not re.search(r"[^\W\d_]", outside(t)), f"{name}: {t!r} has words that no message said"
    assert {"tightwire", "tictacfive", "armslength", "swabbing"} <= set(ended)
