"""The languages the store keeps: a server's rooms' language (``/setup language``; ``None``: the
server's own) and the language a match speaks, fixed at its start, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from geniusbot.storage import GuildConfig, SeatInfo, Store


async def test_a_servers_language_is_kept_and_forgotten_alone(store: Store) -> None:
    assert (await store.get_guild_settings(8)).language is None
    assert await store.set_guild_settings(8, language="ko") == GuildConfig(8, None, (), language="ko")
    # Another setting leaves it; None is the server's own again.
    assert (await store.set_guild_settings(8, pings=False)).language == "ko"
    assert await store.set_guild_settings(8, language=None) == GuildConfig(8, None, (), pings=False)


async def test_a_match_keeps_the_language_it_started_in(store: Store) -> None:
    seats = [SeatInfo("p1", "alice", 1), SeatInfo("p2", "bob", 2)]
    spoken = await store.create_match(game="nim", seats=seats, state={}, guild_id=1, channel_id=10, language="qps")
    unsaid = await store.create_match(game="nim", seats=seats, state={}, guild_id=1, channel_id=11)
    assert spoken.language == "qps" and (await store.get_match(spoken.id)).language == "qps"
    assert unsaid.language is None and (await store.get_match(unsaid.id)).language is None
    assert [r.language for r in await store.live_matches() if r.id == spoken.id] == ["qps"]


async def test_a_language_too_long_for_its_column_is_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.create_match(game="nim", seats=[SeatInfo("p1", "a", 1)], state={}, language="x" * 17)
