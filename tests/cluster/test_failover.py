"""Failover and rolling restarts: a standby takes a shard over when its owner is killed (SIGKILL)
or stopped, resumes its matches as after a restart (the room is told, the clocks were stopped)
and drains its inbox; a move acknowledged before is never lost, and no timer fires twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.harness import eventually, make_cluster, poll
from tests.cluster.test_dms import ALL_IN
from tests.e2e.botworld import PNG_MAGIC
from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_a_standby_takes_over_a_killed_owners_shard_within_5_seconds(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = await cluster.owners()
            standby = cluster.start("standby", "1", standby=True)
            await poll(lambda: "standby: waiting for shard(s) 1" in standby.text(), 90, "the standby waiting")
            await cluster.commands_ready()
            assert (await cluster.start_match(1, clock="60s")).startswith("Match #1 has started")
            assert (await cluster.start_match(0, clock="60s")).startswith("Match #2 has started")
            board = await cluster.say(1, cluster.alice, "H8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)

            mark = fake.mark()
            one.kill()
            cluster.advance(30)  # the shard is away 30 s by the clocks: given back
            await poll(lambda: "serving shard(s) 1 of 2" in standby.text(), 5, "the standby serving shard 1")
            back = await fake.wait_for_message(
                cluster.rooms[1].room,
                predicate=lambda m: m.content.startswith("The bot is back"),
                since=mark,
                timeout=15,
            )
            assert back.content == (
                "The bot is back after 0:30; the clocks were stopped meanwhile. To move: alice (p1) 1:00."
            )
            await standby.serving(1, since=mark)
            # The match goes on at the standby: the move after is taken, on the board from before.
            board = await cluster.say(1, cluster.alice, "H9")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            # Shard 0 never noticed: its match is where it was, its room told nothing.
            assert not [line for line in cluster.bot_lines(0) if line.startswith("The bot is back")]

            # alice's minute runs out: the standby alone posts the notices and the result, once.
            mark = fake.mark()
            cluster.advance(61)
            await fake.wait_for_message(
                cluster.rooms[1].room, predicate=lambda m: "wins" in m.content, since=mark, timeout=30
            )
            lines = cluster.bot_lines(1)
            assert sum("wins" in line for line in lines) == 1, lines
            notices = [line for line in lines if "s left." in line]
            assert len(notices) == len(set(notices)), lines
            assert await cluster.query("SELECT count(*) FROM actions WHERE match_id = 1 AND kind = 'move'") == 2
            # One heartbeat per shard: the standby's replaced the dead owner's.
            beats = await cluster.query(
                "SELECT count(*) FROM timers WHERE kind = 'heartbeat' AND payload->>'shard' = '1'"
            )
            assert beats == 1
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_dm_for_a_shard_with_no_owner_waits_in_the_inbox_for_the_next_one(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = await cluster.owners()
            await cluster.commands_ready()
            assert (await cluster.start_match(1, **ALL_IN)).startswith("Match #1 has started")
            alice_dm = fake.dm_channel(cluster.alice)
            await fake.wait_for_message(
                alice_dm, predicate=lambda m: m.component("gb:dm:1:p1:pass") is not None, timeout=30
            )
            one.kill()
            sent = await fake.dm(cluster.alice, "pass")
            await poll(lambda: "handed to shard 1" in zero.text(), 30, "the DM handed over")
            assert await cluster.query("SELECT count(*) FROM inbox") == 1
            assert not [m for m in fake.messages(alice_dm) if m.content.startswith("Taken")]
            # The next owner of shard 1 drains it as it starts, and answers alice.
            cluster.start("again", "1")
            taken = await fake.wait_for_message(alice_dm, predicate=lambda m: m.content.startswith("Taken"), timeout=90)
            assert taken.content == "Taken: pass."

            async def drained() -> bool:
                return await cluster.query("SELECT count(*) FROM inbox") == 0

            await eventually(drained, 10, "the row deleted")
            key = f"discord:{sent.id}"
            assert await cluster.query("SELECT count(*) FROM actions WHERE key = $1 AND accepted", key) == 1
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_rolling_restart_of_three_processes_loses_no_acknowledged_move(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url, shard_count=3)
        try:
            owners = [cluster.start(f"p{shard}", str(shard)) for shard in range(3)]
            for shard, process in enumerate(owners):
                await process.serving(shard)
            await cluster.commands_ready()
            for shard in range(3):
                assert (await cluster.start_match(shard, clock="60s")).startswith("Match #")
            for shard in range(3):
                # One at a time: a new process waits as a standby, the old one is stopped
                # (SIGTERM) with alice's move in flight, and the new one takes over.
                room = cluster.rooms[shard].room
                new = cluster.start(f"p{shard}-new", str(shard), standby=True)
                await poll(lambda: "standby: waiting" in new.text(), 90, "the standby waiting")
                mark, before = fake.mark(), len(fake.messages(room))
                await fake.user_says(room, cluster.alice, "H8")
                assert await owners[shard].stop() == 0
                await new.serving(shard, since=mark)
                await fake.wait_for_message(
                    room, predicate=lambda m: m.content.startswith("The bot is back"), since=mark, timeout=30
                )
                acknowledged = [m for m in fake.messages(room)[before:] if m.attachments and "H8" in m.content]
                if not acknowledged:
                    # Not answered: alice sends it again to the new owner, which takes it, or
                    # says it was taken (the old owner committed it, and stopped before the board).
                    await fake.user_says(room, cluster.alice, "H8")
                    again = await fake.wait_for_message(room, timeout=30)
                    assert bool(again.attachments) or again.content == "alice (p1): H8 is taken; choose an empty point."
                board = await cluster.say(shard, cluster.alice, "H9")
                assert "H9" in board.content, board.content
                owners[shard] = new
            for match_id in (1, 2, 3):
                moves = await cluster.query(
                    "SELECT string_agg(text, ' ' ORDER BY seq) FROM actions WHERE match_id = $1 AND kind = 'move' AND accepted",
                    match_id,
                )
                everything = await cluster.query(
                    "SELECT string_agg(kind || ':' || text || ':' || accepted::text, ' | ' ORDER BY seq) FROM actions WHERE match_id = $1",
                    match_id,
                )
                assert moves == "H8 H9", (match_id, moves, everything)
            assert all(p.alive for p in owners)
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_standby_without_shard_ids_takes_over_the_first_shard_that_frees(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = await cluster.owners()
            standby = cluster.start("standby", None, standby=True)
            await poll(lambda: "standby: waiting for any of shard(s) 0, 1" in standby.text(), 90, "the standby waiting")
            await cluster.commands_ready()
            assert (await cluster.start_match(0, clock="60s")).startswith("Match #1 has started")
            mark = fake.mark()
            zero.kill()
            await standby.serving(0, since=mark)
            assert "serving shard(s) 0 of 2" in standby.text()
            await fake.wait_for_message(
                cluster.rooms[0].room,
                predicate=lambda m: m.content.startswith("The bot is back"),
                since=mark,
                timeout=15,
            )
            board = await cluster.say(0, cluster.alice, "H8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            # Shard 1 is still its owner's alone; the standby connected shard 0 only.
            assert one.alive and [s.shard for s in fake.shard_sessions(1)] == [[1, 2]]
            assert not cluster.tracebacks()
        finally:
            await cluster.close()
