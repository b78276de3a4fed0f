"""Two consoles on one database: two real ``geniusbot play`` processes over one SQLite file, as
two terminals on the default ``console.sqlite3``. Each serves the match it plays and nothing
else: a match left with ``quit`` keeps its clocks stopped however long another console runs
beside it (its clock rows, its deletions and its heartbeat are its own), and the console left
running prints nothing of the other match.

Time is the consoles' test-only time file, moved by the test (never slept for).
"""

from __future__ import annotations

import pytest

from tests.host.consoleproc import T0, Console, set_time, wait_for_heartbeat

pytestmark = pytest.mark.slow


def test_a_match_left_with_quit_keeps_its_clocks_stopped_while_another_console_runs(tmp_path):
    db = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    t = T0
    set_time(tmp_path, t)
    other = Console(tmp_path, ["tightwire", "--seed", "2", "--clock", "60s", "--db", db])
    other.expect(lambda line: line.startswith("Type a move"))

    mine = Console(tmp_path, ["tictacfive", "--seed", "1", "--clock", "10s", "--db", db])
    mine.expect(lambda line: line.startswith("Type a move"))
    mine.move("p1", "H8")
    mine.quit()  # p1 places its second opening stone next, 10 s on its clock, stopped meanwhile

    # A minute passes with the other console alive all along (its heartbeat written every 5 s).
    for _ in range(12):
        t += 5
        set_time(tmp_path, t)
        wait_for_heartbeat(tmp_path, t)

    mine = Console(tmp_path, ["tictacfive", "--db", db])
    mine.expect(lambda line: line.startswith("Resuming match #2"))
    back = mine.expect(lambda line: "back after" in line)
    assert back.startswith("Match #2 is back after 1:00; the clocks were stopped meanwhile."), back
    mine.send("status")
    status = mine.expect(lambda line: line.startswith("Match #2: "))
    assert "To move: p1. Clocks: p1 0:10, p2 0:10." in status, status
    mine.move("p1", "H9")
    mine.quit()
    assert not any("ran out of time" in line for line in mine.seen), mine.seen

    # The other console printed nothing of match #2 (no deletion, no clock of its), and its own
    # match's clock ran all that minute.
    other.send("status")
    status = other.expect(lambda line: line.startswith("Match #1: "))
    other.quit()
    assert not any("deleted" in line or "#2" in line for line in other.seen), other.seen
    assert "ran out of time" in " ".join(other.seen) or "Clocks: p1 0:00" in status, other.seen
