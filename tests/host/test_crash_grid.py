"""Crash tests of the memory grid: the console host of Tile Decklaration in a real subprocess,
killed with SIGKILL in the gaps around posting the grid, or inside its memorize window, and
restarted over the same database (SQLite and PostgreSQL).

The kill points are the test-only ``GENIUSBOT_TEST_KILL_AT`` boundaries
(:data:`geniusbot.host.deadlines.KILL_AT_ENV`): the process kills itself right after a timed
message's intent is written (nothing posted), or right after the message is posted (its id not
yet written). Time is injected through ``GENIUSBOT_TEST_TIME_FILE``, so the test moves the
clock by writing a number, never by sleeping.

A grid posted before a crash must go at its 30 s of wall time (at once on the return when that
moment has passed), with the memorize window: it never outlives its window by more than the
time the bot was down, and play goes on when it is gone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from geniusbot.storage import Store
from tests.host.consoleproc import T0, Console, set_time, wait_for_heartbeat

EARLIER = "(deleted: a message from an earlier run)"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def tiles(tmp: Path, db: str, kill_at: str | None = None) -> Console:
    """A Tile Decklaration console over ``db``."""
    return Console(tmp, ["tiles", "--seed", "1", "--db", db], kill_at=kill_at)


def database(request: pytest.FixtureRequest, backend: str, tmp: Path) -> str:
    if backend == "postgres":
        return request.getfixturevalue("postgres_db_url")
    return f"sqlite+aiosqlite:///{tmp / 'console.db'}"


async def still_to_delete(url: str) -> list:
    store = await Store.open(url, migrate=False)
    try:
        return await store.messages_to_delete()
    finally:
        await store.close()


#: Each gap: the kill point, how many timed messages were (or may have been) posted by then, a
#: line the console printed before dying (if any), and how long the bot stays down. The grid's
#: timed messages are, in order: the opening line, the board's picture (no caption here), the
#: text board.
GAPS = [
    ("message-intent:1", 1, None, 10),
    ("message-posted:1", 1, "Memorize the grid: it is shown for 30 seconds", 45),
    ("message-posted:3", 3, "0 tiles declared.", 10),
]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("kill_at", "posted", "printed", "down"), GAPS)
async def test_a_grid_posted_just_before_a_crash_goes_at_its_time(
    request, tmp_path, backend, kill_at, posted, printed, down
):
    db = database(request, backend, tmp_path)
    set_time(tmp_path, T0)
    first = tiles(tmp_path, db, kill_at=kill_at)
    output = first.died()
    if printed is not None:
        assert any(line.startswith(printed) for line in output), output
    else:
        assert not any(line.startswith("Memorize the grid") for line in output), output

    set_time(tmp_path, T0 + down)
    second = tiles(tmp_path, db)
    second.expect(lambda line: line.startswith("Resuming match #1"))
    back = second.expect(lambda line: line.startswith("Match #1 is back after"))
    before_back = second.seen[:-1]
    if down < 30:
        # Inside the window: its time ran on, the grid still goes at T0 + 30.
        assert back.endswith("but not the window's time (what it shows stayed on show): it closes in 20 s."), back
        assert EARLIER not in before_back
        set_time(tmp_path, T0 + 30)
        second.expect(lambda line: line == "Memorizing is over: the grid is hidden.")
        # The earlier run's messages, and the board this run showed again (picture, text).
        while len(deletions(second)) < posted + 2:
            second.expect(lambda line: line.startswith("(deleted: "))
    else:
        # Its time passed while the bot was down: the grid went first, then the window closed.
        assert before_back.count(EARLIER) == posted, before_back
        assert back.endswith("its time ran out meanwhile, so it closes now."), back
        second.expect(lambda line: line == "Memorizing is over: the grid is hidden.")
    second.send("p1: red")  # play goes on once the grid is gone
    second.expect(lambda line: line.startswith("ok p1: "))
    second.quit()
    assert deletions(second).count(EARLIER) == posted  # each message of the earlier run, once
    assert await still_to_delete(db) == []


def deletions(console: Console) -> list[str]:
    return [line for line in console.seen if line.startswith("(deleted: ")]


@pytest.mark.slow
async def test_a_restart_inside_the_memorize_window_ends_it_when_the_grid_goes(tmp_path):
    db = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    set_time(tmp_path, T0)
    first = tiles(tmp_path, db)
    first.expect(lambda line: line.startswith("Match #1: Tile Decklaration"))
    first.expect(lambda line: line.startswith("No move is taken right now"))  # the grid is up
    set_time(tmp_path, T0 + 8)
    wait_for_heartbeat(tmp_path, T0 + 8)
    first.kill()  # 8 s into the window

    set_time(tmp_path, T0 + 18)  # back 10 s later
    second = tiles(tmp_path, db)
    back = second.expect(lambda line: line.startswith("Match #1 is back after"))
    assert back == (
        "Match #1 is back after 0:10; the clocks were stopped meanwhile, but not the window's time "
        "(what it shows stayed on show): it closes in 12 s."
    )
    second.expect(lambda line: line == "Memorize the grid: it is hidden in 12 s.")  # the board again
    second.expect(lambda line: line.startswith("No move is taken right now"))
    set_time(tmp_path, T0 + 30)  # the grid's 30 s of wall time: it goes, and the window with it
    second.expect(lambda line: line == "Memorizing is over: the grid is hidden.")
    while len(deletions(second)) < 3 + 2:  # the first run's three, the board shown again
        second.expect(lambda line: line.startswith("(deleted: "))
    assert deletions(second).count(EARLIER) == 3
    set_time(tmp_path, T0 + 31)
    second.send("p1: red")
    second.expect(lambda line: line.startswith("ok p1: "))
    assert not [line for line in second.seen if "The grid is on show" in line]
    second.quit()
    assert await still_to_delete(db) == []
