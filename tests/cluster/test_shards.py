"""Several ``geniusbot run`` processes on one PostgreSQL database and one Discord, each serving its
shards: a match belongs to the process of its guild's shard, which alone takes its moves and
delivers its timers; a second process told to serve a shard already served waits as a standby."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.harness import BotProcess, make_cluster, poll
from tests.e2e.botworld import PNG_MAGIC
from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_each_process_hosts_the_matches_of_its_shard_and_fires_their_timers_once(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = await cluster.owners()
            await cluster.commands_ready()
            assert (await cluster.start_match(0, clock="60s")).startswith("Match #")
            assert (await cluster.start_match(1, clock="60s")).startswith("Match #")
            for shard in (0, 1):
                board = await cluster.say(shard, cluster.alice, "H8")
                assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            # alice's minute runs out in both rooms: each owner posts each notice once.
            mark = fake.mark()
            cluster.advance(61)
            for shard in (0, 1):
                await fake.wait_for_message(
                    cluster.rooms[shard].room, predicate=lambda m: "wins" in m.content, since=mark, timeout=30
                )
            for shard in (0, 1):
                lines = cluster.bot_lines(shard)
                assert sum("wins" in line for line in lines) == 1, lines
                notices = [line for line in lines if "s left." in line]
                assert len(notices) == len(set(notices)), lines
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_second_process_for_a_served_shard_waits_as_a_standby(postgres_db_url: str, tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            one = cluster.start("one", "1")
            await one.serving(1)
            again = cluster.start("again", "0,1")
            await poll(lambda: "standby: waiting for shard(s) 0, 1" in again.text(), 90, "the second process waiting")
            assert "shard(s) 1 of 2 are served by another bot process on this database" in again.text(), again.text()
            # It holds nothing while it waits: shard 0 is free for a process of its own.
            zero = cluster.start("zero", "0")
            await zero.serving(0)
            assert one.alive and zero.alive and again.alive
            # Both owners stop: it takes both shards at once.
            mark = fake.mark()
            assert await one.stop() == 0
            assert await zero.stop() == 0
            await poll(lambda: "serving shard(s) 0,1 of 2" in again.text(), 30, "the second process serving")
            await again.serving(0, since=mark)
            await again.serving(1, since=mark)
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_process_whose_lock_connection_dies_stops_at_once(postgres_db_url: str, tmp_path: Path) -> None:

    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            one = cluster.start("one", "1")
            await one.serving(1)
            ended = await cluster.end_sessions("geniusbot#% lock shards 1 of 2")
            assert ended == 1
            assert await one.exited(timeout=30) == 2
            assert "lost the locks of shard(s) 1 of 2: the lock connection closed" in one.text()
            assert "stopped at once" in one.text()
        finally:
            await cluster.close()


async def test_processes_that_would_split_the_guilds_differently_never_run_together(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            one = cluster.start("one", "1")
            await one.serving(1)
            # Shard 2 of 3 holds no lock of the two-shard layout, but shares guilds with it.
            three = cluster.start("three", "2", count=3)
            assert await three.exited() == 2
            assert "another bot process runs on this database with SHARD_COUNT=2" in three.text(), three.text()
            # A process without shard settings would serve every match, shard 1's too.
            alone = cluster.start("alone", None, count=None)
            assert await alone.exited() == 2
            assert "with SHARD_COUNT=2, and this one has no SHARD_COUNT" in alone.text(), alone.text()
            assert one.alive
        finally:
            await cluster.close()


async def sole(process: BotProcess) -> None:
    """Wait until ``process`` (no shard settings) holds its database's lock and has identified."""
    fake = process.cluster.fake

    def ready() -> bool:
        if not process.alive:
            raise AssertionError(f"{process.name} ended with {process.process.returncode}:\n{process.text()}")
        identified = any(s.connection is not None and s.seq > 1 for s in fake.shard_sessions(0))
        return "serving every match of this database" in process.text() and identified

    await poll(ready, 90, f"{process.name} serving every match")


async def test_two_processes_without_shard_settings_never_run_on_one_database(
    postgres_db_url: str, tmp_path: Path
) -> None:
    # Both would serve every match: the second refuses, and starts once the first has stopped.

    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url, shard_count=1)
        try:
            first = cluster.start("first", None, count=None)
            await sole(first)
            # Its lock connection cut (as by a restart of the server): it takes the lock again.
            ended = await cluster.end_sessions("geniusbot every shard")
            assert ended == 1
            await poll(lambda: "took the lock of the one process of this database again" in first.text(), 30, "retake")
            assert first.alive
            second = cluster.start("second", None, count=None)
            assert await second.exited() == 2
            assert "another bot process without shard settings runs on this database" in second.text(), second.text()
            assert first.alive
            assert await first.stop() == 0
            third = cluster.start("third", None, count=None)
            await sole(third)
            assert not cluster.tracebacks()
        finally:
            await cluster.close()


async def test_a_standby_stopped_while_it_waits_exits_cleanly(postgres_db_url: str, tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            one = cluster.start("one", "1")
            await one.serving(1)
            standby = cluster.start("standby", "1", standby=True)
            await poll(lambda: "standby: waiting for shard(s) 1" in standby.text(), 90, "the standby waiting")
            assert await standby.stop() == 0
            assert "geniusbot: stopped (SIGTERM)" in standby.text(), standby.text()
            assert "Traceback" not in standby.text()
        finally:
            await cluster.close()
