"""An owner that stops answering without dying: its database link cut in the middle of a commit
(a TCP proxy that stops forwarding), or the process frozen (SIGSTOP). The server ends its silent
lock session, a standby takes the shard over, ends the old owner's sessions before it serves,
and gives the outage back to the clocks; nothing the old owner holds ever lands."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.cluster.harness import Cluster, make_cluster, poll
from tests.cluster.proxy import CutProxy
from tests.e2e.botworld import PNG_MAGIC
from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: How long a test gives the takeover (bench/bench_cluster.py measures it; the target is 5 s).
TAKEOVER = 20.0


async def moves_of(cluster: Cluster, match_id: int) -> object:
    return await cluster.query(
        "SELECT string_agg(text, ' ' ORDER BY seq) FROM actions WHERE match_id = $1 AND kind = 'move'", match_id
    )


async def test_a_link_cut_mid_commit_is_taken_over_and_the_held_commit_never_lands(
    postgres_db_url: str, tmp_path: Path
) -> None:
    url = make_url(postgres_db_url)
    proxy = CutProxy(url.host or "127.0.0.1", url.port or 5432)
    await proxy.start()
    through = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = cluster.start("zero", "0"), cluster.start("one", "1", db_url=through)
            await zero.serving(0)
            await one.serving(1)
            standby = cluster.start("standby", "1", standby=True)
            await poll(lambda: "standby: waiting for shard(s) 1" in standby.text(), 90, "the standby waiting")
            await cluster.commands_ready()
            assert (await cluster.start_match(1, clock="60s")).startswith("Match #1 has started")
            board = await cluster.say(1, cluster.alice, "H8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)

            # alice's next stone: the owner's link is cut as it sends the move's COMMIT, the
            # statements done (the match's row locked), the COMMIT held by the network.
            proxy.cut_at_commit("INSERT INTO actions")
            await fake.user_says(cluster.rooms[1].room, cluster.alice, "H9")
            await asyncio.wait_for(proxy.was_cut.wait(), 30)
            mark = fake.mark()
            cluster.advance(30)
            await poll(lambda: "serving shard(s) 1 of 2" in standby.text(), TAKEOVER, "the standby serving shard 1")
            # The new owner resumes the match at once (it waits on no row lock of the old one)
            # and gives the clocks the outage back.
            back = await fake.wait_for_message(
                cluster.rooms[1].room,
                predicate=lambda m: m.content.startswith("The bot is back"),
                since=mark,
                timeout=15,
            )
            assert back.content == (
                "The bot is back after 0:30; the clocks were stopped meanwhile. To move: alice (p1) 1:00."
            )
            assert "of a process that lost its shards" in standby.text()
            # The old owner has noticed and stopped (its gateway session closes with it).
            assert await one.exited(30) == 2
            assert "lost the locks of shard(s) 1 of 2" in one.text()
            await standby.serving(1, since=mark)
            board = await cluster.say(1, cluster.alice, "H9")
            assert board.content.startswith("alice places white on H9."), board.content

            # The link heals: the held COMMIT reaches a session the server had ended already.
            assert await proxy.heal() is False
            assert await moves_of(cluster, 1) == "H8 H9"
            board = await cluster.say(1, cluster.alice, "H10")
            assert board.content.startswith("alice places black on H10."), board.content
            assert await moves_of(cluster, 1) == "H8 H9 H10"
            assert "ERROR" not in standby.text() and not cluster.tracebacks()
        finally:
            await cluster.close()
            await proxy.close()


async def test_a_frozen_owner_is_taken_over_and_its_moves_wait_for_the_new_owner(
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
            board = await cluster.say(1, cluster.alice, "H8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)

            one.signal(signal.SIGSTOP)  # frozen: its sockets stay open, its lock session silent
            mark = fake.mark()
            cluster.advance(30)
            # A move that reaches the frozen owner's gateway session only, 29 s before it thaws.
            await fake.user_says(cluster.rooms[1].room, cluster.alice, "H9")
            cluster.advance(29)
            await poll(lambda: "serving shard(s) 1 of 2" in standby.text(), TAKEOVER, "the standby serving shard 1")
            back = await fake.wait_for_message(
                cluster.rooms[1].room,
                predicate=lambda m: m.content.startswith("The bot is back"),
                since=mark,
                timeout=15,
            )
            assert back.content == (
                "The bot is back after 0:59; the clocks were stopped meanwhile. To move: alice (p1) 1:00."
            )
            # Thawed, the old owner finds its lock session ended and stops, writing nothing.
            one.signal(signal.SIGCONT)
            assert await one.exited(30) == 2
            assert "lost the locks of shard(s) 1 of 2" in one.text()
            assert await moves_of(cluster, 1) == "H8"
            assert not [line for line in cluster.bot_lines(1) if "Time ran out" in line or "wins" in line]
            # alice sends it again to the new owner, her minute whole.
            await standby.serving(1, since=mark)
            board = await cluster.say(1, cluster.alice, "H9")
            assert board.content.startswith("alice places white on H9."), board.content
            assert await moves_of(cluster, 1) == "H8 H9"
            assert "ERROR" not in standby.text() and not cluster.tracebacks()
        finally:
            await cluster.close()
