"""The replay page and the GIF carry the engine review: the graph, and each marked move's line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.analysis import Effort, review
from geniusbot.archive.gif import make_gif
from geniusbot.archive.page import page_of
from geniusbot.archive.page_steps import record_steps
from geniusbot.archive.review_page import review_parts
from geniusbot.archive.steps import from_record
from geniusbot.cli import main
from geniusbot.record import parse_record
from geniusbot.words import Words
from tests.cli_support import clean_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "geniusbot" / "examples" / "tictacfive.txt"
QUICK = Effort(candidates=2, playouts=1)


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


@pytest.fixture(scope="module")
def reviewed():
    steps = from_record(EXAMPLE.read_bytes(), EXAMPLE.name)
    steps.review = review(steps.start, steps.actions, QUICK)
    return steps


@pytest.mark.slow
def test_the_page_shows_the_graph_and_marks_the_moves(reviewed):
    words = Words("en", reviewed.names)
    page = page_of(
        record_steps(parse_record(EXAMPLE.read_text(encoding="utf-8"))), review_parts(reviewed.review, words)
    )
    assert '<section id="review"' in page and 'src="data:image/png;base64,' in page
    assert "A graph of Hyunmin&#x27;s advantage after each of 18 moves" in page
    # The mark sits in the move list, inside the entry of the step it judges.
    entry = page.split('<li data-step="14">', 1)[1].split("</li>", 1)[0]
    assert (
        '<p class="mark">Move 14, Hyunmin: J11 missed a forced win by continuous fours: J8 L8 J7 J11 J6.</p>' in entry
    )
    assert page.count('<p class="mark">') == len(reviewed.review.marked)


@pytest.mark.slow
def test_the_gif_opens_with_the_graph_and_captions_the_marks(reviewed):
    (part,) = make_gif(reviewed)
    gif = Image.open(io.BytesIO(part.data))
    assert gif.n_frames == len(reviewed) + 1  # the graph, then every step
    plain = from_record(EXAMPLE.read_bytes(), EXAMPLE.name)
    (without,) = make_gif(plain)
    assert Image.open(io.BytesIO(without.data)).n_frames == len(plain)
    assert gif.size == Image.open(io.BytesIO(without.data)).size


@pytest.mark.slow
def test_replay_review_writes_both(tmp_path, capsys):
    record = tmp_path / "short.txt"
    # The first moves of the example: the review is quick.
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    record.write_text("\n".join(lines[:22]) + "\n", encoding="utf-8")
    assert main(["replay", str(record), "--html", str(tmp_path / "r.html"), "--review"]) == 0
    assert '<section id="review"' in (tmp_path / "r.html").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record), "--gif", str(tmp_path / "r.gif"), "--review"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Wrote {tmp_path / 'r.gif'}: the review's graph, then ")
    assert Image.open(tmp_path / "r.gif").n_frames == int(out.split("then ")[1].split()[0]) + 1


@pytest.mark.slow
def test_replay_review_reads_a_record_from_standard_input_once(tmp_path, monkeypatch):
    # The review and the page read the one record standard input holds (it can be read once).
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    stdin = io.BytesIO(("\n".join(lines[:22]) + "\n").encode("utf-8"))
    monkeypatch.setattr("sys.stdin", type("Stdin", (), {"buffer": stdin})())
    assert main(["replay", "-", "--html", str(tmp_path / "r.html"), "--review"]) == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<section id="review"' in page and 'data-step="5"' in page
