"""A writer killed mid-stream (SIGKILL) loses nothing it had acknowledged, on both databases."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from geniusbot.storage import Store

REPO = Path(__file__).resolve().parents[2]

WRITER = """
import asyncio, sys
from geniusbot.storage import NewAction, SeatInfo, Store

async def main(url):
    store = await Store.open(url, migrate=False)
    match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={"n": 0}, channel_id=None)
    print("match", match.id, flush=True)
    version = 0
    while True:
        committed = await store.commit_action(
            match.id, version, NewAction("move", f"m{version + 1}", seat="p1"), state={"n": version + 1}
        )
        version = committed.version
        # Acknowledged only now, after commit_action returned.
        print("ack", committed.seq, committed.version, flush=True)

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.slow
async def test_a_killed_writer_loses_no_acknowledged_action(db_url: str):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, db_url, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    match_id = None
    acked: list[tuple[int, int]] = []
    try:
        while len(acked) < 40:
            line = (await asyncio.wait_for(child.stdout.readline(), 60)).decode().split()
            assert line, (await child.stderr.read()).decode()
            if line[0] == "match":
                match_id = int(line[1])
            else:
                acked.append((int(line[1]), int(line[2])))
    finally:
        child.send_signal(signal.SIGKILL)  # no cleanup, no rollback, mid-transaction or not
        await child.wait()
    # The writer went on while the acknowledgements above were read: every ack it printed before
    # the kill counts (it is still in the pipe), so the bound below is against its very last one.
    for rest in (await child.stdout.read()).decode().splitlines():
        words = rest.split()
        if len(words) == 3 and words[0] == "ack":
            acked.append((int(words[1]), int(words[2])))

    store = await Store.open(db_url, migrate=False)
    try:
        match = await store.get_match(match_id)
        log = await store.actions(match_id)
    finally:
        await store.close()
    _last_seq, last_version = acked[-1]
    assert match.version >= last_version  # at most one unacknowledged commit more
    assert match.version - last_version <= 1
    assert [a.seq for a in log] == list(range(1, match.version + 1))  # contiguous, nothing half-written
    assert [a.text for a in log] == [f"m{n}" for n in range(1, match.version + 1)]
    assert match.state == {"n": match.version}  # the snapshot matches the log
