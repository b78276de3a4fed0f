"""``geniusbot analyse``: the review of a record file or a stored match, printed, its graph written."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from geniusbot.cli import EXIT_USAGE, main
from tests.cli_support import clean_cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "geniusbot" / "examples"
RECORDS = REPO / "tests" / "records"


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


@pytest.mark.slow
def test_a_record_is_reviewed_and_its_graph_written(tmp_path, capsys):
    graph = tmp_path / "graph.png"
    file = EXAMPLES / "tictacfive.txt"
    assert main(["analyse", str(file), "--playouts", "2", "--candidates", "3", "--graph", str(graph)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Engine review of 18 moves; the moves that threw away the most: move ")
    assert "Hyunmin: J11 missed a forced win by continuous fours: J8 L8 J7 J11 J6." in out
    assert "every forced win by up to 10 forcing moves (continuous fours) is found" in out
    assert out.rstrip().endswith(f"Wrote the graph to {graph}.")
    assert Image.open(graph).size == (640, 240)


@pytest.mark.slow
def test_a_stored_match_is_reviewed_once_over(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    assert main(["import", str(EXAMPLES / "armslength.txt"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["analyse", "--match", "1", "--db", str(db), "--playouts", "1", "--candidates", "2"]) == 0
    assert capsys.readouterr().out.startswith("Engine review of 23 moves")
    assert main(["analyse", "--match", "7", "--db", str(db)]) == EXIT_USAGE
    assert "there is no match #7 in the database" in capsys.readouterr().err
    # A match with no result yet keeps its secrets: no review.
    assert main(["import", str(RECORDS / "tictacfive-unfinished.txt"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["analyse", "--match", "2", "--db", str(db)]) == EXIT_USAGE
    assert "match #2 is still being played; review it once it is over." in capsys.readouterr().err


def test_bad_input_is_refused_with_what_to_do(tmp_path, capsys):
    assert main(["analyse", str(tmp_path / "none.txt")]) == EXIT_USAGE
    assert "cannot read" in capsys.readouterr().err
    assert main(["analyse", str(EXAMPLES / "armslength.txt"), "--db", "x.sqlite3"]) == EXIT_USAGE
    assert "--db goes with --match" in capsys.readouterr().err
    assert main(["analyse", str(EXAMPLES / "armslength.txt"), "--playouts", "0"]) == EXIT_USAGE
    assert "a number from 1 to 1000" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "nosuchgame"]\n', encoding="utf-8")
    assert main(["analyse", str(bad)]) == EXIT_USAGE
    assert "Nothing was reviewed." in capsys.readouterr().err


EVERY_GAME = sorted(EXAMPLES.glob("*.txt")) + [REPO / "examples" / "blackwhite" / "records" / "blackwhite.txt"]


@pytest.mark.slow
@pytest.mark.parametrize("path", EVERY_GAME, ids=lambda p: p.stem)
def test_analyse_reviews_a_record_of_every_game(path, tmp_path, capsys):
    graph = tmp_path / "graph.png"
    assert main(["analyse", str(path), "--playouts", "1", "--candidates", "1", "--graph", str(graph)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Engine review of ") and "Each value is the mover's chance of winning" in out
    assert Image.open(graph).size == (640, 240)
