"""Database fixtures shared by every test that needs storage.

* ``db_url``: the async URL of a migrated database with empty tables, once on SQLite (a file of
  the test's own) and once on PostgreSQL (marked ``postgres``; skipped, with the reason, when no
  server answers at ``GENIUSBOT_TEST_POSTGRES_URL``).
* ``empty_db_url``: the same two databases with no schema at all (for migration tests).
* ``sqlite_db_url`` / ``postgres_db_url``: one of the two alone, for what only one of them does.
* ``store``: an open :class:`~geniusbot.storage.Store` on ``db_url``.

Several engineers run the PostgreSQL tests at once on one server, and the suite runs on several
pytest-xdist workers, so each test session (each worker is one) creates databases of its own
(``geniusbot_test_<pid>_<random>_...``) from the ``test`` database and drops them at the end; each
test gets clean tables (TRUNCATE) in them. No worker touches another's databases.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

POSTGRES_URL_ENV = "GENIUSBOT_TEST_POSTGRES_URL"
DEFAULT_POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]

# A suite started in the background by a shell without job control (`pytest &` in a script, or
# under nohup) inherits Ctrl-C (SIGINT) ignored, and so would every process it starts: the tests
# of what Ctrl-C does need it to arrive as a terminal delivers it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _blocking(coroutine):
    """Run ``coroutine`` to its end on a loop of its own, even if a loop already runs here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def postgres_base_url() -> str:
    """The URL of the PostgreSQL database that test databases are created from."""
    return os.environ.get(POSTGRES_URL_ENV, DEFAULT_POSTGRES_URL)


def _asyncpg_kwargs(url: str, database: str | None = None) -> dict:
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return {
        "user": parsed.username,
        "password": parsed.password,
        "host": parsed.host or "127.0.0.1",
        "port": parsed.port or 5432,
        "database": database or parsed.database,
    }


def _with_database(url: str, database: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(database=database).render_as_string(hide_password=False)


class _Postgres:
    """One test session's private databases on the shared server."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.prefix = f"geniusbot_test_{os.getpid()}_{secrets.token_hex(3)}"
        self.created: list[str] = []
        self.error: str | None = None
        self._migrated: str | None = None
        self._scratch: str | None = None

    async def _admin(self, statement: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(**_asyncpg_kwargs(self.base_url), timeout=5)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    def create(self, suffix: str) -> str:
        """A new empty database; its URL."""
        name = f"{self.prefix}_{suffix}"
        _blocking(self._admin(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return _with_database(self.base_url, name)

    def emptied(self) -> str:
        """The session's scratch database, emptied of every table (created on first use).

        Emptying a schema is far cheaper than a new database per test: PostgreSQL checkpoints
        on every DROP DATABASE.
        """
        if self._scratch is None:
            self._scratch = self.create("scratch")
        else:
            _blocking(_empty_schema(self._scratch))
        return self._scratch

    def migrated(self) -> str:
        """The session's migrated database (created and upgraded on first use)."""
        if self._migrated is None:
            from geniusbot.storage.db import upgrade

            url = self.create("main")
            _blocking(upgrade(url))
            self._migrated = url
        return self._migrated

    def drop_all(self) -> None:
        """Drop the session's databases in a process of their own, which the session does not
        wait for: every DROP DATABASE waits for a checkpoint of the whole shared server (all
        its sessions' writes), which took 2.7-10.6 s at the end of a PostgreSQL session on a
        loaded machine (see CONTRIBUTING.md). A database it leaves behind (the process was
        killed) is dropped by the next session's :func:`_drop_abandoned`."""
        if not self.created:
            return
        subprocess.Popen(
            [sys.executable, "-c", "import sys, tests.conftest as c; c.drop_databases(sys.argv[1], sys.argv[2:])"]
            + [self.base_url, *self.created],
            cwd=Path(__file__).resolve().parent.parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C of the test run does not stop it half-way
        )


def drop_databases(base_url: str, names: list[str]) -> None:
    """Drop the databases ``names`` of the server at ``base_url``, all at once (drops that wait
    for a checkpoint together share one)."""
    import asyncpg

    async def drop(name: str) -> None:
        conn = await asyncpg.connect(**_asyncpg_kwargs(base_url), timeout=5)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    async def drop_every() -> None:
        await asyncio.gather(*(drop(name) for name in names), return_exceptions=True)

    asyncio.run(drop_every())


@pytest.fixture(scope="session")
def _postgres() -> Iterator[_Postgres]:
    server = _Postgres(postgres_base_url())
    try:
        _blocking(server._admin("SELECT 1"))
    except Exception as error:  # no server, no driver, refused auth: all mean "skip"
        server.error = f"no PostgreSQL answers at {server.base_url} ({type(error).__name__}: {error})"
    else:
        # A process id means something only on the machine that ran it.
        if _asyncpg_kwargs(server.base_url)["host"] in ("127.0.0.1", "localhost", "::1"):
            _blocking(_drop_abandoned(server.base_url))
    yield server
    server.drop_all()


async def _drop_abandoned(base_url: str) -> None:
    """Drop the test databases of sessions that were killed before their teardown.

    A database is abandoned when the process named in it is gone from this machine and nobody is
    connected to it; anything else is left alone.
    """
    import asyncpg

    conn = await asyncpg.connect(**_asyncpg_kwargs(base_url), timeout=5)
    try:
        rows = await conn.fetch(
            "SELECT datname FROM pg_database d WHERE datname LIKE 'geniusbot\\_test\\_%' "
            "AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)"
        )
        for (name,) in rows:
            try:
                pid = int(name.split("_")[2])
            except (IndexError, ValueError):
                continue
            if _process_alive(pid):
                continue
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            except asyncpg.PostgresError:
                pass  # someone connected meanwhile: not abandoned after all
    finally:
        await conn.close()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _require_postgres(server: _Postgres) -> None:
    if server.error:
        pytest.skip(server.error)


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file; each test copies it rather than migrating again."""
    from geniusbot.storage.db import upgrade

    path = tmp_path_factory.mktemp("sqlite-template") / "geniusbot.db"
    _blocking(upgrade(f"sqlite+aiosqlite:///{path}"))
    return path


_END_OTHER_CONNECTIONS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


async def _empty_schema(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(**_asyncpg_kwargs(url), timeout=5)
    try:
        await conn.execute(_END_OTHER_CONNECTIONS)
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()


async def _truncate_all(url: str) -> None:
    import asyncpg

    from geniusbot.storage.models import Base

    names = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
    conn = await asyncpg.connect(**_asyncpg_kwargs(url), timeout=5)
    try:
        # Tests of one session run one after another, so any other connection to this database
        # now is one an earlier test leaked; it could hold a lock that TRUNCATE would wait on.
        await conn.execute(_END_OTHER_CONNECTIONS)
        await conn.execute("SET lock_timeout = '10s'")
        await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()


def _sqlite_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    template = request.getfixturevalue("_sqlite_template")
    path = tmp_path / "geniusbot.db"
    shutil.copyfile(template, path)
    return f"sqlite+aiosqlite:///{path}"


def _postgres_url(request: pytest.FixtureRequest) -> str:
    server = request.getfixturevalue("_postgres")
    _require_postgres(server)
    url = server.migrated()
    _blocking(_truncate_all(url))
    return url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated database with empty tables: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return _sqlite_url(request, tmp_path)
    return _postgres_url(request)


@pytest.fixture
def sqlite_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated SQLite database file of the test's own (for SQLite-only behaviour)."""
    return _sqlite_url(request, tmp_path)


@pytest.fixture
def postgres_db_url(request: pytest.FixtureRequest) -> str:
    """The session's migrated PostgreSQL database with empty tables; mark the test ``postgres``."""
    return _postgres_url(request)


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no tables at all: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    server = request.getfixturevalue("_postgres")
    _require_postgres(server)
    return server.emptied()


@pytest.fixture
async def store(db_url: str) -> AsyncIterator:
    """An open, migrated :class:`~geniusbot.storage.Store` on each database."""
    from geniusbot.storage import Store

    opened = await Store.open(db_url, migrate=False)
    try:
        yield opened
    finally:
        await opened.close()
