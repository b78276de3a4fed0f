"""The engine review: every move of a match scored, the worst marked, a better move named."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.analysis import Effort, review
from geniusbot.analysis.graph import graph_png
from geniusbot.analysis.said import graph_said, lines
from geniusbot.archive.steps import from_record
from geniusbot.games import registry
from geniusbot.words import Words

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "geniusbot" / "examples"
#: One record of every registered game (the plug-in's in its own folder).
RECORDS = sorted(EXAMPLES.glob("*.txt")) + [ROOT / "examples" / "blackwhite" / "records" / "blackwhite.txt"]
QUICK = Effort(candidates=3, playouts=2)


def _steps(path: Path):
    return from_record(path.read_bytes(), path.name)


def _by_move(reviewed, text):
    return next(m for m in reviewed.moves if m.move == text)


@pytest.mark.slow
def test_the_missed_wins_of_the_example_are_marked_with_the_winning_line():
    steps = _steps(EXAMPLES / "tictacfive.txt")
    reviewed = review(steps.start, steps.actions, QUICK)
    # p1's J11: J8 was a four and a three (allowed), then J7 an open four.
    j11 = _by_move(reviewed, "J11")
    assert j11.missed is not None and j11.missed.moves == ("J8", "L8", "J7", "J11", "J6")
    assert j11.best == "J8" and j11.best_value == 1.0
    # p2's J12 blocked, where G7 (G7 to G10, both ends open) won at once; and it left p1 the win.
    j12 = _by_move(reviewed, "J12")
    assert j12.missed is not None and j12.missed.first == "G7"
    assert j12.allowed is not None and j12.exact and j12.played == 0.0
    marked = {m.move for m in reviewed.marked_moves()}
    assert {"J11", "J12"} <= marked
    # The last move won: p1 is ahead for sure.
    assert reviewed.graph[-1] == 1.0 and reviewed.final == 1.0
    assert len(reviewed.graph) == len(reviewed.moves) + 1


@pytest.mark.slow
def test_the_review_is_the_same_every_time():
    steps = _steps(EXAMPLES / "armslength.txt")
    first = review(steps.start, steps.actions, QUICK)
    again = review(steps.start, steps.actions, QUICK)
    assert first == again


@pytest.mark.slow
def test_progress_is_told_after_every_move():
    steps = _steps(EXAMPLES / "threadsoffate.txt")
    told: list[tuple[int, int]] = []
    reviewed = review(steps.start, steps.actions, QUICK, progress=lambda done, total: told.append((done, total)))
    assert told == [(n, len(reviewed.moves)) for n in range(1, len(reviewed.moves) + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_record_of_every_game_is_reviewed(path):
    steps = _steps(path)
    reviewed = review(steps.start, steps.actions, Effort(candidates=2, playouts=1, tactics=False))
    seated = [a for a in steps.actions if a.kind in ("move", "private")]
    assert len(reviewed.moves) == len(seated)
    assert all(-1.0 <= v <= 1.0 for v in reviewed.graph)
    assert all(0.0 <= m.loss <= 1.0 for m in reviewed.moves)
    words = Words("en", steps.names)
    assert all(words(line) for line in lines(reviewed))
    picture = Image.open(io.BytesIO(graph_png(reviewed, "en", steps.names)))
    assert picture.size == (640, 240)


def test_every_game_has_a_record_here():
    games = {from_record(p.read_bytes(), p.name).game for p in RECORDS}
    assert games == set(registry())


@pytest.mark.slow
def test_the_graph_and_its_words():
    steps = _steps(EXAMPLES / "tictacfive.txt")
    reviewed = review(steps.start, steps.actions, Effort(candidates=2, playouts=1))
    words = Words("en", steps.names)
    said = words(graph_said(reviewed))
    assert "Hyunmin" in said and "marked moves" in said
    text = "\n".join(words(line) for line in lines(reviewed))
    assert "missed a forced win by continuous fours: J8 L8 J7 J11 J6" in text
    assert "exact" in text
