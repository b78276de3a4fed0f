"""``geniusbot play GAME --vs bot``: a whole match against the practice opponent through a real
process, for every game and rule set it plays. The test plays p1 with random legal moves, reading
the position from the console's database (the test may see it all; the opponent does not)."""

from __future__ import annotations

import json
import os
import queue
import random
import re
import sqlite3
import subprocess
import sys
import threading

import pytest

from geniusbot.games import load

from .positions import CASES, case_id

pytestmark = pytest.mark.slow


def _state(db: str) -> tuple[int, dict] | None:
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            row = connection.execute("select version, state from matches order by id desc limit 1").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else (row[0], json.loads(row[1]))


#: How many times a match is exported while it goes on (after each of p1's first moves).
EXPORTS = 8

_RECORD_LINE = re.compile(r"^(\[|p\d|host:|#|$)")


def _live_exports(said: list[str]) -> list[list[str]]:
    """The exports printed while the match went on (``[Result "*"]``), each its lines."""
    records, current = [], None
    for line in said:
        if line.startswith("[Game "):
            current = [line]
            records.append(current)
        elif current is not None and _RECORD_LINE.match(line.rstrip("\n")):
            current.append(line)
        else:
            current = None
    return [r for r in records if any(line.startswith('[Result "*"]') for line in r)]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_whole_console_match_against_the_practice_opponent(case, tmp_path):
    name, variant, options = case
    db = str(tmp_path / "console.sqlite3")
    args = [sys.executable, "-m", "geniusbot", "play", name, "--vs", "bot", "--level", "easy", "--seed", "5"]
    args += ["--db", db, "--clock", "none"] + (["--variant", variant] if variant else [])
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    env = dict(os.environ, GENIUSBOT_DATA_DIR=str(tmp_path))
    child = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout or ()], daemon=True).start()
    assert child.stdin is not None
    rng, said, seen, exports = random.Random(5), [], -1, 0
    try:
        for _ in range(20000):
            current = _state(db)
            if current is None or current[0] == seen:
                said.append(lines.get(timeout=120))  # the console says something when it acts
                continue
            seen, data = current
            game = load(data)
            if game.is_over:
                break
            if "p1" in game.to_move():
                move = game.rollout_move("p1", rng) or rng.choice(list(game.legal_moves("p1")))
                dm = " (dm)" if game.is_private(move) else ""
                child.stdin.write(f"p1{dm}: {move.text()}\n")
                exports += 1
                if exports <= EXPORTS:
                    child.stdin.write("export\n")  # the record so far, as the keyboard may read it
            elif not game.to_move():
                child.stdin.write("close window\n")
            else:
                said.append(lines.get(timeout=120))  # the practice opponent's turn
                continue
            child.stdin.flush()
        assert game.is_over, "".join(said[-30:])
        child.stdin.write("quit\n")
        child.stdin.flush()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
    while not lines.empty():
        said.append(lines.get())
    text = "".join(said)
    assert "ok p2 (bot):" in text
    # Nothing is sent privately to the opponent's seat, so nothing of it is printed at the keyboard.
    assert not [line for line in said if line.startswith("[to p2 only]")]
    # Nor does an export of the match still going on show one of the opponent's private lines.
    live = _live_exports(said)
    assert live, text[-3000:]
    for record in live:
        assert not [line for line in record if line.startswith("p2 (dm):")], "".join(record)
    players = sqlite3.connect(db).execute("select display_name from seats where seat = 'p2'").fetchall()
    assert players == [("bot",)]
    # The stored match says it was practice, against the opponent at easy in p2.
    marked = sqlite3.connect(db).execute("select practice_seat, practice_level from matches").fetchall()
    assert marked == [("p2", "easy")]


async def test_a_practice_match_resumes_with_its_own_opponent_whatever_is_asked(tmp_path):
    # The stored match keeps the opponent's seat and level: resumed without --vs bot, or with
    # another seat, the opponent is the one it had; a match between two seats gets none.
    import io
    from datetime import UTC, datetime

    from geniusbot.console import run_console
    from tests.manualtime import ManualTime

    async def play(*, bot, new=False, lines="quit\n"):
        out = io.StringIO()
        code = await run_console(
            "tictacfive",
            db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
            stdin=io.StringIO(lines),
            out=out,
            time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
            seed=1,
            bot=bot,
            new=new,
        )
        assert code == 0, out.getvalue()
        return out.getvalue()

    assert "The practice opponent (easy) plays p1." in await play(bot=("p1", "easy"))
    assert "The practice opponent (easy) plays p1." in await play(bot=None)
    assert "The practice opponent (easy) plays p1." in await play(bot=("p2", "hard"))
    people = await play(bot=None, new=True)
    assert "practice opponent" not in people
    asked = await play(bot=("p2", "normal"))
    assert "is between two seats at this keyboard, so --vs bot is left out" in asked
    assert "The practice opponent" not in asked
