"""Input that costs too much: every parser reads its input in time and memory that grow with its
length, never with its square; ``geniusbot adjudicate`` of the largest record it reads (1 MiB) stays under 100 MB, and refuses a 20 MB one having read 1 MiB.

Costs are counted, never timed: comparisons made (Deck Swabbing), memory allocated while a line
is read (tracemalloc), and a child process's peak resident memory (``ru_maxrss``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate_text, format_report, json_lines, report_lines, rule_on
from geniusbot.games import GameError, new_game, notation_words
from geniusbot.games.allhands.swabbing import DeckSwabbing
from geniusbot.games.grid import Point
from geniusbot.record import RecordLine, parse_record
from geniusbot.record.file import MAX_RECORD_BYTES

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000


def peak_bytes(work: Callable[[], object]) -> int:
    """The most memory allocated at once while ``work`` runs (its input made beforehand)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        work()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------- Deck Swabbing


def comparisons(monkeypatch: pytest.MonkeyPatch, tiles: int) -> int:
    """How many times two tiles are compared while Deck Swabbing reads a move naming ``tiles`` tiles."""
    count = 0
    tuple_eq = tuple.__eq__

    def counted(self: Point, other: object) -> bool:
        nonlocal count
        count += 1
        return tuple_eq(self, other)

    game = DeckSwabbing.new(seed=1)
    text = "c3 c4 " * (tiles // 2)
    with monkeypatch.context() as patch:
        patch.setattr(Point, "__eq__", counted)
        with pytest.raises(GameError, match="You named C3 twice"):
            game.parse_move(text, game.to_move()[0])
    return count


def test_deck_swabbing_reads_a_long_move_with_comparisons_in_proportion_to_its_tiles(monkeypatch):
    # Naming a tile twice is refused; finding it costs one look per tile, not one per pair of tiles.
    small, large = comparisons(monkeypatch, 2_000), comparisons(monkeypatch, 4_000)
    assert large <= 2 * small + 10, (small, large)
    assert large <= 2 * 4_000


def test_the_words_of_a_long_text_are_found_in_memory_in_proportion_to_its_length():
    # The host tells a move from table talk by these words; a token of many joined parts
    # ("a-a-a-...") costs its length, not a record per part.
    text = "a-" * MB
    peak = peak_bytes(lambda: notation_words(text))
    assert peak < 8 * len(text), f"{peak / MB:.0f} MB for a {len(text) / MB:.0f} MB text"
    assert notation_words("Use all-in, then H8 and B5-C3 -it's 1st") == ["use", "all-in", "then", "and", "it's"]


# --------------------------------------------------------------------------- the record


def test_a_long_header_value_is_read_in_memory_in_proportion_to_its_length():
    value = 'a \\" b ' * (2 * MB // 7)
    text = '[Game "tictacfive"]\n[Event "' + value + '"]\np1: H8\n'
    peak = peak_bytes(lambda: parse_record(text))
    assert peak < 8 * len(text), f"{peak / MB:.0f} MB for a {len(text) / MB:.0f} MB record"
    assert parse_record(text).header("Event") == value.replace('\\"', '"')


def test_a_long_move_line_is_ruled_on_in_memory_in_proportion_to_its_length():
    text = "H8 " * (2 * MB // 3)
    game = new_game("tictacfive")
    peak = peak_bytes(lambda: rule_on(game, RecordLine(1, "p1", False, text)))
    assert peak < 8 * len(text), f"{peak / MB:.0f} MB for a {len(text) / MB:.0f} MB line"


def test_a_long_host_line_is_ruled_on_in_memory_in_proportion_to_its_length():
    text = "timeout p1 " + "xy " * MB
    game = new_game("tictacfive")
    peak = peak_bytes(lambda: rule_on(game, RecordLine(1, "host", False, text)))
    assert peak < 8 * len(text)
    assert not game.is_over


def test_the_dm_mark_of_a_seat_is_read_as_before():
    lines = parse_record(
        "p1 (dm): a\nP2(DM):b\np1 ( Dm ) : c\np1 ((dm): d\nAlice (dm) x: e\n(dm): f\np1 (dmx): g\n"
    ).lines
    assert [(line.seat, line.private) for line in lines] == [
        ("p1", True),
        ("p2", True),
        ("p1", True),
        ("p1 (", True),
        ("Alice (dm) x", False),
        ("", True),
        ("p1 (dmx)", False),
    ]


# --------------------------------------------------------------------------- the report and --json


def test_the_json_output_written_in_pieces_is_the_json_of_the_whole():
    for name in ("tictacfive.txt", "tiles.txt", "allhands.txt"):
        result = adjudicate_text((ROOT / "geniusbot" / "examples" / name).read_text(encoding="utf-8"))
        assert "".join(json_lines(result)) == json.dumps(result.to_dict(), ensure_ascii=False)
        assert "".join(report_lines(result)) == format_report(result)
    empty = adjudicate_text('[Game "tictacfive"]\n')
    assert "".join(json_lines(empty)) == json.dumps(empty.to_dict(), ensure_ascii=False)


def test_the_report_cuts_a_long_submission_and_says_how_long_it_was():
    long = "H8 " * 1000
    report = format_report(adjudicate_text(f'[Game "tictacfive"]\np1: {long}\np1: H8\n'))
    row = next(line for line in report.splitlines() if line.lstrip().startswith("2 "))
    assert f"{long[:60]}... (2,999 characters)" in row
    # The short row's ruling starts where the cut row's does: no row is padded to the long one.
    ok = next(line for line in report.splitlines() if line.lstrip().startswith("3 "))
    assert ok.endswith("OK") and len(ok) < 120


# --------------------------------------------------------------------------- adjudicate of 20 MB

#: The child's own peak: Linux's VmHWM, the high-water mark of the process's memory since its
#: exec. (``ru_maxrss`` is no good here: Linux carries it over from the parent through fork and
#: exec, so a child of a large test worker starts with the worker's peak.)
CHILD = (
    "import resource, sys\n"
    "from geniusbot.cli import main\n"
    "code = main(['adjudicate', *sys.argv[1:]])\n"
    "try:\n"
    "    status = open('/proc/self/status').read().splitlines()\n"
    "    peak = int(next(l for l in status if l.startswith('VmHWM:')).split()[1])\n"
    "except OSError:\n"
    "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "sys.stderr.write(f'peak={peak}\\n')\n"
    "sys.exit(code)\n"
)

RECORDS = {
    "header": lambda size: '[Game "tictacfive"]\n[Event "' + "x" * size + '"]\np1: H8\n',
    "move line": lambda size: '[Game "tictacfive"]\np1: ' + "H8 " * (size // 3) + "\n",
    "seat": lambda size: '[Game "tictacfive"]\np1' + " " * size + "x: H8\n",
}


def _adjudicate_peak(path: Path, output: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``geniusbot adjudicate path`` in a child process: how it ended and its peak memory (KB)."""
    args = [str(path), *(["--json"] if output == "--json" else [])]
    # The bound on time is a generous one, for a parser whose cost would grow with the square of
    # the input (a long seat read by a pattern that tries every start: hours), not a timing.
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        check=False,
    )
    peak_kb = int(next(line for line in done.stderr.splitlines() if line.startswith("peak=")).removeprefix("peak="))
    return done, peak_kb


@pytest.mark.slow
@pytest.mark.parametrize("output", ["--json", "report"])
@pytest.mark.parametrize("kind", list(RECORDS))
def test_adjudicate_of_the_largest_record_peaks_under_100_mb(tmp_path, kind, output):
    path = tmp_path / "record.txt"
    path.write_text(RECORDS[kind](MAX_RECORD_BYTES - 100), encoding="utf-8")
    done, peak_kb = _adjudicate_peak(path, output)
    assert done.returncode in (0, 1), done.stderr[-2000:]  # ruled on (1: a line refused), not refused unread
    assert peak_kb < 100 * 1024, f"{kind}, {output}: peak {peak_kb / 1024:.0f} MB"


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(RECORDS))
def test_adjudicate_of_a_20_mb_record_refuses_it_having_read_one_mib(tmp_path, kind):
    path = tmp_path / "record.txt"
    path.write_text(RECORDS[kind](20 * MB), encoding="utf-8")
    done, peak_kb = _adjudicate_peak(path, "report")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "is 19 MiB; a record file may be at most 1024 KiB (1 MiB)." in done.stderr
    assert peak_kb < 100 * 1024, f"{kind}: peak {peak_kb / 1024:.0f} MB"
