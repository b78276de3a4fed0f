"""``geniusbot adjudicate --language``: the report says every ruling, count, result and note in the
language asked for; the table's own columns (line numbers, seats, what was typed) are data, as the
record writes them. English reads byte for byte as before (``tests/test_adjudicate.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate_text, report_lines
from geniusbot.words import PSEUDO, unsaid

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted([*(ROOT / "tests" / "records").glob("*.txt"), *(ROOT / "geniusbot" / "examples").glob("*.txt")])


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_line_of_a_report_is_said_in_the_pseudo_language(path: Path):
    result = adjudicate_text(path.read_text(encoding="utf-8"))
    typed = sorted(
        {a.text for a in result.actions} | {a.seat for a in result.actions} | {"(dm)"}, key=len, reverse=True
    )
    lines = list(report_lines(result, PSEUDO))
    assert any("⟦Ŕéśúĺţ" in line for line in lines)
    for line in lines:
        rest = unsaid(line)
        for data in typed:
            rest = rest.replace(data, "")
        assert not re.search(r"[A-Za-z]", rest), f"{rest!r} of {line!r} did not come from the catalogue"


def test_a_refusal_in_the_report_is_the_games_message():
    text = (ROOT / "tests" / "records" / "tictacfive-refused.txt").read_text(encoding="utf-8")
    report = "".join(report_lines(adjudicate_text(text), PSEUDO))
    assert "⟦ŕéĵéçţéđ: ⟦Íţ íś ñóţ ýóúŕ ţúŕñ; ŵáíţíñĝ ƒóŕ p1.⟧⟧" in report


def test_a_long_submission_is_cut_in_the_reports_language():
    text = '[Game "tictacfive"]\n\np1: ' + "x" * 100 + "\n"
    report = "".join(report_lines(adjudicate_text(text), PSEUDO))
    assert "⟦" + "x" * 60 + "... (100 çĥáŕáçţéŕś)⟧" in report
