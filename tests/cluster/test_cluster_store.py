"""The store of one process of several: its start-up and timer reads see the matches, timers and
messages of its own shards only (``(guild_id >> 22) % count``; no guild: shard 0), in SQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from geniusbot.storage import SeatInfo
from geniusbot.storage.cluster import ClusterStore
from geniusbot.storage.shards import Shards, shard_of

pytestmark = pytest.mark.postgres

SEATS = [SeatInfo("p1", "alice", 1), SeatInfo("p2", "bob", 2)]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A guild id on ``shard`` of ``count`` (as Discord's ids: a timestamp above 22 bits)."""
    guild = ((count * (250_000 + n) + shard) << 22) | 12345
    assert shard_of(guild, count) == shard
    return guild


def test_shard_maths() -> None:
    assert shard_of(None, 3) == 0
    assert shard_of(guild_on(2, 3), 3) == 2
    shards = Shards.of(3, [2, 0])
    assert shards.owns(None) and shards.owns(guild_on(2, 3)) and not shards.owns(guild_on(1, 3))
    assert not shards.every and Shards.of(2).every
    assert str(shards) == "0,2 of 3"
    with pytest.raises(ValueError):
        Shards.of(2, [2])


async def test_a_cluster_store_reads_only_its_shards(postgres_db_url: str) -> None:
    store = await ClusterStore.open(postgres_db_url, migrate=False)
    try:
        ids = {}
        for room, (name, guild) in enumerate((("zero", guild_on(0, 2)), ("one", guild_on(1, 2)), ("console", None))):
            match = await store.create_match(
                game="tictacfive", seats=SEATS, state={}, guild_id=guild, channel_id=None if guild is None else room
            )
            ids[name] = match.id
            await store.add_timer("clock", T0, match_id=match.id)
        for shard in (0, 1):
            await store.add_timer("heartbeat", T0 + timedelta(seconds=shard), payload={"shard": shard})
        await store.add_timer("heartbeat", T0, payload={})  # a single process's: shard 0's
        await store.add_message(70, 1, "board", match_id=ids["one"], delete_at=T0)
        await store.add_message(71, 2, "board", match_id=None, delete_at=T0)

        assert len(await store.live_matches()) == 3  # no shards set: the plain store
        store.shards = Shards.of(2, [1])
        assert [r.id for r in await store.live_matches()] == [ids["one"]]
        due, _ = await store.due_and_next(T0 + timedelta(minutes=1))
        assert sorted((t.kind, t.match_id, t.payload.get("shard")) for t in due) == [
            ("clock", ids["one"], None),
            ("heartbeat", None, 1),
        ]
        assert {t.match_id for t in await store.timers()} == {ids["one"], None}
        assert [m.channel_id for m in await store.messages_to_delete()] == [70]
        # A match by id, and a player's matches (for a DM), read the whole database.
        assert (await store.get_match(ids["zero"])).id == ids["zero"]
        assert len(await store.live_matches_of_user(1)) == 3

        store.shards = Shards.of(2, [0])
        assert sorted(r.id for r in await store.live_matches()) == sorted([ids["zero"], ids["console"]])
        due, _ = await store.due_and_next(T0 + timedelta(minutes=1))
        assert len(due) == 4 and all(t.payload.get("shard", 0) == 0 for t in due if t.match_id is None)
        assert [m.channel_id for m in await store.messages_to_delete()] == [71]
    finally:
        await store.close()
