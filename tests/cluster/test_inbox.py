"""The inbox on PostgreSQL: a row is announced by NOTIFY and taken by the owner of its shard
alone, one at a time, oldest first; a row whose application fails stays for the next try; a
listening connection that is ended is said in one line and opened again."""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from geniusbot.cluster.inbox import Inbox, InboxItem
from geniusbot.cluster.ownership import asyncpg_dsn
from geniusbot.storage import SeatInfo
from geniusbot.storage.cluster import ClusterStore
from geniusbot.storage.shards import Shards

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_each_owner_takes_its_shards_rows_once_in_order(postgres_db_url: str) -> None:
    store = await ClusterStore.open(postgres_db_url, migrate=False)
    applied: dict[int, list[str]] = {0: [], 1: []}
    arrived = asyncio.Event()
    failing = {"discord:3"}

    def applier(shard: int):
        async def apply(item: InboxItem) -> None:
            assert item.shard == shard
            if item.key in failing:
                failing.discard(item.key)
                raise RuntimeError("the store is away")
            applied[shard].append(item.text)
            arrived.set()

        return apply

    inboxes = [Inbox(postgres_db_url, Shards.of(2, [s]), applier(s), sweep=30, retry=0.05) for s in (0, 1)]
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a", 1), SeatInfo("p2", "b", 2)], state={})

        async def hand(shard: int, n: int) -> bool:
            return await store.add_inbox(
                shard=shard, match_id=match.id, user_id=1, seat="p1", kind="dm", text=f"move {n}", key=f"discord:{n}"
            )

        assert await hand(1, 1)
        assert not await hand(1, 1)  # the same message twice: one row
        for inbox in inboxes:
            await inbox.start()  # drains what waited
        assert await hand(1, 2) and await hand(1, 3) and await hand(0, 4)

        async def settled() -> None:
            while applied[1] != ["move 1", "move 2", "move 3"] or applied[0] != ["move 4"]:
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), 10)

        await settled()
        assert applied == {0: ["move 4"], 1: ["move 1", "move 2", "move 3"]}
        assert (await store.counts())["inbox"] == 0
    finally:
        for inbox in inboxes:
            await inbox.close()
        await store.close()


async def test_an_inbox_whose_connection_is_ended_says_so_in_one_line_and_connects_again(
    postgres_db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = await ClusterStore.open(postgres_db_url, migrate=False)
    applied: list[str] = []
    arrived = asyncio.Event()

    async def apply(item: InboxItem) -> None:
        applied.append(item.text)
        arrived.set()

    inbox = Inbox(postgres_db_url, Shards.of(2, [1]), apply, sweep=0.1, retry=0.05)
    caplog.set_level(logging.INFO, logger="geniusbot.cluster.inbox")
    try:
        await inbox.start()
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a", 1), SeatInfo("p2", "b", 2)], state={})
        # Its session is ended, as a server restart or a new owner's fence ends it.
        conn = await asyncpg.connect(asyncpg_dsn(postgres_db_url))
        try:
            ended = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'geniusbot inbox 1 of 2' AND datname = current_database()"
            )
        finally:
            await conn.close()
        assert ended == 1
        assert await store.add_inbox(
            shard=1, match_id=match.id, user_id=1, seat="p1", kind="dm", text="move 1", key="discord:1"
        )
        await asyncio.wait_for(arrived.wait(), 10)
        assert applied == ["move 1"]
        said = [r for r in caplog.records if r.name == "geniusbot.cluster.inbox"]
        assert [r.levelname for r in said] == ["WARNING"], [r.getMessage() for r in said]
        assert said[0].exc_info is None
        assert said[0].getMessage().startswith("inbox: the listening connection is closed ("), said[0].getMessage()
    finally:
        await inbox.close()
        await store.close()
