"""The store's guild settings: a guild's host role, game rooms and room settings (the ``guild_settings`` and
``game_rooms`` tables)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m
from .rows import UNSET
from .transactions import Transactions
from .values import GuildConfig


class GuildStore(Transactions):
    """The guilds' settings: one transaction per call."""

    async def get_guild_settings(self, guild_id: int) -> GuildConfig:
        """A guild's settings; a guild never configured gets the defaults (no role, no rooms)."""

        def work(conn: Connection) -> GuildConfig:
            return self._load_guild(conn, guild_id)

        return await self._transaction(work, write=False, what=say("reading guild settings"))

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        host_role_id: int | None = UNSET,
        game_room_ids: Iterable[int] = UNSET,
        threads: bool = UNSET,
        pings: bool = UNSET,
        board: str = UNSET,
        language: str | None = UNSET,
        rated: bool = UNSET,
        spectators_channel_id: int | None = UNSET,
    ) -> GuildConfig:
        """Change a guild's settings (only the fields given) and return them as now stored
        (``language``: ``None`` is the server's own)."""
        rooms = None if game_room_ids is UNSET else sorted(set(int(c) for c in game_room_ids))
        given = {
            name: value
            for name, value in (
                ("host_role_id", host_role_id),
                ("threads", threads),
                ("pings", pings),
                ("board", board),
                ("language", language),
                ("rated", rated),
                ("spectators_channel_id", spectators_channel_id),
            )
            if value is not UNSET
        }

        def work(conn: Connection) -> GuildConfig:
            exists = (
                conn.execute(select(m.GuildSettings.guild_id).where(m.GuildSettings.guild_id == guild_id))
            ).first()
            if exists is None:
                conn.execute(insert(m.GuildSettings).values(guild_id=guild_id, **given))
            elif given:
                conn.execute(update(m.GuildSettings).where(m.GuildSettings.guild_id == guild_id).values(**given))
            if rooms is not None:
                conn.execute(delete(m.GameRoom).where(m.GameRoom.guild_id == guild_id))
                if rooms:
                    conn.execute(insert(m.GameRoom), [{"guild_id": guild_id, "channel_id": c} for c in rooms])
            return self._load_guild(conn, guild_id)

        return await self._transaction(work, write=True, what=say("saving guild settings"))

    def _load_guild(self, conn: Connection, guild_id: int) -> GuildConfig:
        row = (
            conn.execute(
                select(
                    m.GuildSettings.host_role_id,
                    m.GuildSettings.threads,
                    m.GuildSettings.pings,
                    m.GuildSettings.board,
                    m.GuildSettings.language,
                    m.GuildSettings.rated,
                    m.GuildSettings.spectators_channel_id,
                ).where(m.GuildSettings.guild_id == guild_id)
            )
        ).first()
        rooms = tuple(
            conn.execute(
                select(m.GameRoom.channel_id).where(m.GameRoom.guild_id == guild_id).order_by(m.GameRoom.channel_id)
            ).scalars()
        )
        if row is None:
            return GuildConfig(guild_id, None, rooms)
        return GuildConfig(
            guild_id,
            row[0],
            rooms,
            threads=bool(row[1]),
            pings=bool(row[2]),
            board=str(row[3]),
            language=row[4],
            rated=bool(row[5]),
            spectators_channel_id=row[6],
        )
