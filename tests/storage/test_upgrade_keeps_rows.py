"""An upgrade keeps every row (SQLite and PostgreSQL): a revision that rebuilds a table on SQLite
(Alembic's batch mode copies it, drops the old one and renames the copy) must not have the drop
cascade to the rows that refer to it. Revision 0010 rebuilt ``guild_settings``, and with SQLite's
foreign keys on, every server's game rooms went with the old table; the migrations now run with
them off, and are refused if they would leave a row referring to nothing."""

from __future__ import annotations

from sqlalchemy import func, insert, select, text

from geniusbot.storage import models as m
from geniusbot.storage.db import create_engine, upgrade
from tests.storage.test_outcomes import ended_match_row

TABLES = (m.GuildSettings, m.GameRoom, m.Match, m.Seat, m.Action)


async def counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return {
                t.__tablename__: (await conn.execute(select(func.count()).select_from(t))).scalar_one() for t in TABLES
            }
    finally:
        await engine.dispose()


async def test_every_row_outlives_the_upgrade_from_before_the_room_settings(empty_db_url: str):
    await upgrade(empty_db_url, "0009")
    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            # The row as revision 0009 had it (the model's later columns are not there yet).
            await conn.execute(text("INSERT INTO guild_settings (guild_id, host_role_id) VALUES (1, NULL)"))
            await conn.execute(insert(m.GameRoom).values([{"guild_id": 1, "channel_id": c} for c in (42, 43)]))
            match_id = await ended_match_row(conn, "p1 wins.", version=1)
            await conn.execute(
                insert(m.Seat).values(
                    [
                        {"match_id": match_id, "seat": "p1", "display_name": "a"},
                        {"match_id": match_id, "seat": "p2", "display_name": "b"},
                    ]
                )
            )
    finally:
        await engine.dispose()
    before = await counts(empty_db_url)
    assert before["game_rooms"] == 2 and before["seats"] == 2
    await upgrade(empty_db_url)
    assert await counts(empty_db_url) == before
