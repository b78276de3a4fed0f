"""A server's board style (``/setup board``, revision 0011): ``message`` until set, kept beside
the other settings, which a change of it leaves as they were."""

from __future__ import annotations

from geniusbot.storage import GuildConfig, Store


async def test_the_board_style_is_message_until_set_and_kept_alone(store: Store) -> None:
    assert (await store.get_guild_settings(5)).board == "message"
    config = await store.set_guild_settings(5, pings=False, threads=True)
    assert config.board == "message"
    assert await store.set_guild_settings(5, board="edited") == GuildConfig(
        5, None, (), threads=True, pings=False, board="edited"
    )
    assert (await store.get_guild_settings(5)).board == "edited"
    # Another setting's change leaves it; a guild first set through it gets the other defaults.
    assert (await store.set_guild_settings(5, pings=True)).board == "edited"
    assert await store.set_guild_settings(6, board="card") == GuildConfig(6, board="card")
