"""Engines and migrations: one SQLAlchemy async engine per database URL, upgraded by Alembic.

``DATABASE_URL`` is any SQLAlchemy async URL: ``sqlite+aiosqlite:///path/to/geniusbot.db`` or
``postgresql+asyncpg://user@host/db``. Plain ``sqlite://`` and ``postgresql://`` URLs are given
their async driver. SQLite connections run in WAL mode with foreign keys on and a busy timeout,
and a write transaction takes the write lock at its start (``BEGIN IMMEDIATE``) so that two
writers queue on the busy timeout instead of one of them failing half-way.

On SQLite the store runs its transactions on a synchronous engine of the same file
(:func:`sqlite_sync_engine`, the plain ``sqlite3`` driver, with the same pragmas and hooks) in a
thread of its own; the async engine serves the migrations.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine as create_sync_engine, event, exc
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.engine.url import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from geniusbot.words import Message, Verbatim, Words, say

from .errors import StorageError, StorageFault, storage_fault

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
"""Where the Alembic environment and revisions live (inside the package, so an install can upgrade)."""

DEFAULT_BUSY_TIMEOUT_MS = 5000

# Alembic announces each of its plugins at INFO when it loads; the bot's log needs none of it.
logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)

# An arbitrary constant: the PostgreSQL advisory lock that serialises migrations.
MIGRATION_LOCK_KEY = 0x67656E6975

# The execution option that marks a connection's next transaction as a writer.
WRITE_OPTION = "geniusbot_write"

#: A pooled PostgreSQL connection idle for longer than this (seconds) is pinged before it is
#: handed out again; one used more recently is handed out as it is (see :func:`create_engine`).
IDLE_PING_SECONDS = 30.0

#: What every PostgreSQL session of the bot asks of the server, so that a client gone silent (a
#: cut link, a machine lost) does not keep its session, its transaction and its row locks: TCP
#: keepalives (10 s idle, then 3 probes 3 s apart), a TCP user timeout (data the client leaves
#: unacknowledged for 10 s ends the connection), and an end to a session idle in a transaction
#: for 30 s (the bot's transactions last milliseconds). Ended, a session's transaction rolls back.
PG_SERVER_SETTINGS: dict[str, str] = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "3",
    "tcp_keepalives_count": "3",
    "tcp_user_timeout": "10000",
    "idle_in_transaction_session_timeout": "30000",
}


def pg_server_settings(application_name: str | None = None) -> dict[str, str]:
    """:data:`PG_SERVER_SETTINGS` for a new asyncpg connection, named ``application_name``."""
    settings = dict(PG_SERVER_SETTINGS)
    if application_name:
        settings["application_name"] = application_name
    return settings


def default_sqlite_url(data_dir: str | Path) -> str:
    """The SQLite URL of the default database file in ``data_dir``."""
    return f"sqlite+aiosqlite:///{Path(data_dir).expanduser().resolve() / 'geniusbot.sqlite3'}"


def normalize_url(url: str | URL) -> URL:
    """``url`` with an async driver: ``sqlite`` -> ``sqlite+aiosqlite``, ``postgresql`` -> ``+asyncpg``."""
    parsed = make_url(url)
    if "+" not in parsed.drivername:
        driver = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
        if parsed.drivername in driver:
            parsed = parsed.set(drivername=driver[parsed.drivername])
    return parsed


def create_engine(
    url: str | URL,
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    sqlite_synchronous: str = "FULL",
    echo: bool = False,
    application_name: str | None = None,
    on_connect: Callable[[Any], Awaitable[None]] | None = None,
    **engine_options: Any,
) -> AsyncEngine:
    """An async engine for ``url``, with the SQLite pragmas set on every new connection.

    ``busy_timeout_ms`` is how long a SQLite connection waits for another writer's lock before
    it reports "database is locked" (the store then retries a few times).
    ``sqlite_synchronous`` is SQLite's ``synchronous`` pragma: ``FULL`` (the default) syncs the
    log at every commit, so an acknowledged move survives even a power cut; ``NORMAL`` is
    faster on slow disks and survives a crash of the bot, though not of the machine.

    On PostgreSQL every connection asks for :data:`PG_SERVER_SETTINGS`, is named
    ``application_name`` when given, and is handed to ``on_connect`` (an async function of the
    asyncpg connection) before its first use: one of several processes checks there that it still
    owns its shards (:meth:`geniusbot.cluster.ownership.ShardLocks.check_session`).
    """
    if sqlite_synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"sqlite_synchronous must be OFF, NORMAL, FULL or EXTRA, not {sqlite_synchronous!r}")
    sqlite_synchronous = sqlite_synchronous.upper()
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(parsed, echo=echo, **engine_options)
        _install_sqlite_hooks(engine.sync_engine, busy_timeout_ms, sqlite_synchronous)
        _SQLITE_SETTINGS[engine.sync_engine] = (busy_timeout_ms, sqlite_synchronous)
        return engine
    # SQLAlchemy's pre-ping costs three round trips to the server on every checkout (BEGIN, a
    # query, ROLLBACK): more than a move's whole commit. By default only a connection that sat
    # idle for a while (when a server restart or an idle timeout may have closed it) is pinged;
    # a dead connection handed out anyway fails its first statement, which the store retries on
    # a new one (the pool then drops every connection older than the failure).
    pre_ping = engine_options.pop("pool_pre_ping", None)
    connect_args = dict(engine_options.pop("connect_args", {}))
    connect_args["server_settings"] = {
        **pg_server_settings(application_name),
        **connect_args.get("server_settings", {}),
    }
    engine = create_async_engine(
        parsed, echo=echo, pool_pre_ping=bool(pre_ping), connect_args=connect_args, **engine_options
    )
    _name_faults(engine.sync_engine)
    if pre_ping is None:
        _ping_when_idle(engine.sync_engine, IDLE_PING_SECONDS)
    if on_connect is not None:
        _check_on_connect(engine.sync_engine, on_connect)
    return engine


def _check_on_connect(sync_engine: Engine, check: Callable[[Any], Awaitable[None]]) -> None:
    """Run ``check`` on each new PostgreSQL connection (its asyncpg connection) before it is used."""

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.run_async(check)


def _ping_when_idle(sync_engine: Engine, idle_seconds: float) -> None:
    """Ping a pooled connection at checkout only when it was idle for over ``idle_seconds``."""

    @event.listens_for(sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["geniusbot_idle_since"] = time.monotonic()

    @event.listens_for(sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("geniusbot_idle_since")
        if since is None or time.monotonic() - since <= idle_seconds:
            return  # a new connection, or one used a moment ago
        try:
            dbapi_connection.ping()
        except Exception as error:
            # The pool drops this connection and hands out another (a new one if need be).
            raise exc.DisconnectionError(f"a pooled connection idle for {idle_seconds:.0f} s is gone") from error


# The pragmas each SQLite async engine was made with, for its synchronous twin.
_SQLITE_SETTINGS: weakref.WeakKeyDictionary[Engine, tuple[int, str]] = weakref.WeakKeyDictionary()


def sqlite_sync_engine(engine: AsyncEngine) -> Engine:
    """A synchronous engine (the ``sqlite3`` driver) on the SQLite database of ``engine``.

    It has the same pragmas (WAL, foreign keys, ``synchronous``, busy timeout) and the same
    ``BEGIN`` / ``BEGIN IMMEDIATE`` hook as ``engine`` (those of :func:`create_engine`'s defaults
    for an engine made elsewhere). The store runs its SQLite transactions on it, in one thread:
    a whole transaction then costs one hand-over between the event loop and that thread.
    """
    if engine.dialect.name != "sqlite":
        raise ValueError(f"not a SQLite engine: {engine.dialect.name}")
    busy_timeout_ms, synchronous = _SQLITE_SETTINGS.get(engine.sync_engine, (DEFAULT_BUSY_TIMEOUT_MS, "FULL"))
    url = engine.url.set(drivername="sqlite+pysqlite")
    sync_engine = create_sync_engine(url, echo=engine.echo)
    _install_sqlite_hooks(sync_engine, busy_timeout_ms, synchronous)
    return sync_engine


def _name_faults(sync_engine: Engine) -> None:
    """A full disk, a read-only or a damaged database is raised as the :class:`StorageFault` it is,
    from every statement, commit and connection of ``sync_engine``: retrying cures none of them,
    and its sentence names the cause and what to do (where the driver's error says neither)."""

    @event.listens_for(sync_engine, "handle_error")
    def _on_error(context: Any) -> None:
        fault = storage_fault(context.original_exception)
        if fault is not None:
            raise fault from context.sqlalchemy_exception or context.original_exception


def _install_sqlite_hooks(sync_engine: Engine, busy_timeout_ms: int, synchronous: str) -> None:
    _name_faults(sync_engine)

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The sqlite3 module's own transaction handling would BEGIN lazily (deferred) behind our
        # back; switching it off lets the "begin" hook below choose the kind of transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
        finally:
            cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def alembic_config(url: str | URL | None = None) -> Any:
    """The Alembic :class:`~alembic.config.Config` of the packaged migrations, for ``url``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        # ConfigParser interpolation would choke on a '%' in a password.
        rendered = normalize_url(url).render_as_string(hide_password=False)
        config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return config


async def upgrade(target: str | URL | AsyncEngine, revision: str = "head") -> None:
    """Run the Alembic migrations on ``target`` (a URL or an engine) up to ``revision``.

    The bot calls this on start; ``geniusbot db upgrade`` (:mod:`geniusbot.commands.db`) calls it
    from the command line. It is
    idempotent: an up-to-date database is left as it is.
    """
    if isinstance(target, AsyncEngine):
        engine, owned = target, False
    else:
        engine, owned = create_engine(target), True
    try:
        async with _alembic_lock():
            await _upgrade_on(engine, revision)
    finally:
        if owned:
            await engine.dispose()


_ALEMBIC_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


def _alembic_lock() -> asyncio.Lock:
    # Alembic keeps the running migration in module globals (alembic.context), so two upgrades
    # in one process must take turns even on different databases.
    loop = asyncio.get_running_loop()
    lock = _ALEMBIC_LOCKS.get(loop)
    if lock is None:
        lock = _ALEMBIC_LOCKS[loop] = asyncio.Lock()
    return lock


async def _upgrade_on(engine: AsyncEngine, revision: str) -> None:
    from alembic import command

    config = alembic_config()

    def _run(connection: Connection) -> None:
        # Two processes starting at once must not both migrate: the second waits for the
        # first to commit, then finds the schema current. SQLite's write lock does that
        # (BEGIN IMMEDIATE); PostgreSQL needs an advisory lock held to the commit.
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
        else:
            sqlite_foreign_keys(connection, on=False)
            # Begin the transaction (and take the write lock) before Alembic looks: it counts
            # SQLite's DDL as not transactional, so in a transaction of its own making it would
            # commit after each revision and let a second process in between two of them (which
            # then ran a revision the first had planned too). In ours, every revision is one commit.
            connection.exec_driver_sql("SELECT 1")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        if connection.dialect.name == "sqlite":
            check_foreign_keys(connection)

    async with engine.connect() as connection:
        connection = await connection.execution_options(**{WRITE_OPTION: True})
        try:
            await connection.run_sync(_run)
            await connection.commit()
        finally:
            if engine.dialect.name == "sqlite":
                await connection.run_sync(sqlite_foreign_keys, on=True)


def sqlite_foreign_keys(connection: Connection, *, on: bool) -> None:
    """Switch SQLite's foreign keys on or off for ``connection``, before its transaction begins (a
    transaction ignores the pragma). Off while the migrations run: a revision that rebuilds a table
    (Alembic's batch mode on SQLite: copy, drop the old table, rename) must not have the drop
    cascade to the rows that refer to it (``game_rooms`` of ``guild_settings``, a match's log)."""
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def check_foreign_keys(connection: Connection) -> None:
    """Refuse a migration that left a row referring to nothing (SQLite checks none while they run)."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise StorageError(
            say(
                "The migration would leave {count} rows referring to nothing (the first: {row}); the "
                "database was left as it was.",
                count=len(broken),
                row=Verbatim(str(tuple(broken[0]))),
            )
        )


def safe_url(url: str | URL) -> str:
    """``url`` for a message, its password hidden; a URL SQLAlchemy cannot read, quoted as typed
    up to its ``@`` (where a password would end)."""
    try:
        return normalize_url(url).render_as_string(hide_password=True)
    except Exception:
        text = str(url)
        return repr(text if "@" not in text else "***@" + text.rsplit("@", 1)[1])


def checked_url(value: str, setting: str) -> str:
    """``value`` as a URL SQLAlchemy reads (a plain path as a SQLite file, see
    :func:`geniusbot.config.database_url`), or a :class:`ValueError` saying what a URL looks like."""
    from geniusbot.config import URL_EXAMPLES, database_url

    url = database_url(value, setting)
    try:
        parsed = normalize_url(url)
        parsed.get_dialect()  # the driver is installed and the URL's parts are what it takes
    except Exception as error:
        raise UnreadableURL(
            say(
                "{setting} cannot be read as a database URL ({error}); write {examples}",
                setting=Verbatim(setting),
                error=Verbatim(str(error)),
                examples=Verbatim(URL_EXAMPLES),  # the settings' own words (English until they are messages)
            )
        ) from None
    return url


class UnreadableURL(ValueError):
    """A setting that SQLAlchemy cannot read as a database URL: ``said`` says which and what to
    write (``str(error)`` its English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(Words()(said))
        self.said = said


async def integrity_problem(url: str | URL) -> str | None:
    """What SQLite's ``PRAGMA quick_check`` finds wrong in the database at ``url`` (its first
    finding), or ``None`` when it finds nothing (and on PostgreSQL, which checks its own pages)."""
    engine = create_engine(url)
    try:
        if engine.dialect.name != "sqlite":
            return None
        async with engine.connect() as connection:
            rows = (await connection.exec_driver_sql("PRAGMA quick_check")).fetchall()
        findings = [str(row[0]) for row in rows]
        return None if findings == ["ok"] else findings[0]
    except StorageFault as fault:
        if fault.cause != "damaged":
            raise
        return fault.detail or None
    finally:
        await engine.dispose()


async def current_revision(target: str | URL | AsyncEngine) -> str | None:
    """The Alembic revision the database is at, or ``None`` for an empty database."""
    from alembic.runtime.migration import MigrationContext

    if isinstance(target, AsyncEngine):
        engine, owned = target, False
    else:
        engine, owned = create_engine(target), True
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())
    finally:
        if owned:
            await engine.dispose()
