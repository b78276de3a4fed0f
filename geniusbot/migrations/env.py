"""Alembic environment of geniusbot: runs the revisions in ``versions/`` on one database.

Called two ways: programmatically by :func:`geniusbot.storage.db.upgrade`, which hands over an
open connection in ``config.attributes["connection"]``; or by the ``alembic`` command (with the
``alembic.ini`` at the repository root), which reads the URL from ``DATABASE_URL`` or the ini.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from geniusbot.storage.db import check_foreign_keys, create_engine, sqlite_foreign_keys
from geniusbot.storage.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("Set DATABASE_URL (or sqlalchemy.url in alembic.ini) to the database to migrate.")
    return url


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )


def _run_on(connection: Connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


def _run_alone(connection: Connection) -> None:
    """The ``alembic`` command's run: SQLite's foreign keys off while it runs, as
    :func:`geniusbot.storage.db.upgrade` has them (a rebuilt table's drop must not cascade)."""
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        sqlite_foreign_keys(connection, on=False)
    try:
        _run_on(connection)
        if sqlite:
            check_foreign_keys(connection)
        connection.commit()
    finally:
        if sqlite:
            connection.rollback()  # nothing left to undo after a commit; a failed revision's rest
            sqlite_foreign_keys(connection, on=True)


async def _run_online() -> None:
    engine = create_engine(_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_alone)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    """Emit the SQL for the migrations instead of running them (``alembic upgrade --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
elif (connection := config.attributes.get("connection")) is not None:
    _run_on(connection)
else:
    asyncio.run(_run_online())
