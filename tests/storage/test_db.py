"""Engines, migrations and failure handling on SQLite and PostgreSQL."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import IntegrityError, OperationalError

from geniusbot.commands.db import upgrade_command
from geniusbot.storage import NewAction, SeatInfo, StorageUnavailable, Store
from geniusbot.storage.db import (
    alembic_config,
    create_engine,
    current_revision,
    default_sqlite_url,
    normalize_url,
    upgrade,
)
from geniusbot.storage.models import Base

REPO = Path(__file__).resolve().parents[2]
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()
TABLES = {t.name for t in Base.metadata.sorted_tables}


class RecordingSleep:
    """The retry pause, injected: it records the delays and may act after the n-th one."""

    def __init__(self, after: int | None = None, action=None) -> None:
        self.delays: list[float] = []
        self.after = after
        self.action = action

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        if self.after is not None and len(self.delays) == self.after and self.action:
            self.action()


# --------------------------------------------------------------------------- URLs


def test_plain_urls_get_their_async_driver(tmp_path: Path):
    assert normalize_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert normalize_url("postgresql://u@h/db").drivername == "postgresql+asyncpg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+asyncpg"
    assert normalize_url("postgresql+asyncpg://u@h/db").drivername == "postgresql+asyncpg"
    url = default_sqlite_url(tmp_path / "data")
    assert url == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'geniusbot.sqlite3'}"


async def test_the_sqlite_data_directory_is_created(tmp_path: Path):
    url = default_sqlite_url(tmp_path / "new" / "dir")
    store = await Store.open(url)
    try:
        assert (tmp_path / "new" / "dir" / "geniusbot.sqlite3").exists()
        assert await store.live_matches() == []
    finally:
        await store.close()


# --------------------------------------------------------------------------- migrations


async def _schema_diff(url: str) -> list:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
                )
            )
    finally:
        await engine.dispose()


async def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()


@pytest.mark.slow
async def test_migrations_build_exactly_the_models(empty_db_url: str):
    assert await current_revision(empty_db_url) is None
    await upgrade(empty_db_url)
    assert await current_revision(empty_db_url) == HEAD
    assert await _tables(empty_db_url) == TABLES | {"alembic_version"}
    assert await _schema_diff(empty_db_url) == []


async def test_two_upgrades_at_once_in_one_process_take_turns(empty_db_url: str):
    engines = [create_engine(empty_db_url), create_engine(empty_db_url)]
    try:
        await asyncio.gather(*(upgrade(engine) for engine in engines))
    finally:
        for engine in engines:
            await engine.dispose()
    assert await current_revision(empty_db_url) == HEAD


@pytest.mark.slow
async def test_two_processes_upgrading_at_once_both_succeed(empty_db_url: str, tmp_path: Path):
    # Two bots (or a bot and 'geniusbot db upgrade') starting together on an empty database.
    env = {**os.environ, "PYTHONPATH": str(REPO), "GENIUSBOT_DATA_DIR": str(tmp_path)}
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "geniusbot",
            "--log-level",
            "WARNING",
            "db",
            "upgrade",
            "--url",
            empty_db_url,
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [await asyncio.wait_for(p.communicate(), 60) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    assert all(
        out.decode().strip().endswith(f"{HEAD}).") or out.decode().strip().endswith(f"to {HEAD}.") for out, _ in outputs
    ), outputs
    assert await current_revision(empty_db_url) == HEAD
    assert await _schema_diff(empty_db_url) == []


async def test_upgrade_is_idempotent_and_keeps_data(empty_db_url: str):
    store = await Store.open(empty_db_url)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={"k": 1})
    finally:
        await store.close()
    await upgrade(empty_db_url)
    store = await Store.open(empty_db_url)
    try:
        assert (await store.get_match(match.id)).state == {"k": 1}
    finally:
        await store.close()


async def test_downgrade_to_base_removes_everything(empty_db_url: str):
    await upgrade(empty_db_url)
    engine = create_engine(empty_db_url)
    try:
        config = alembic_config()

        def down(sync):
            config.attributes["connection"] = sync
            command.downgrade(config, "base")

        async with engine.connect() as conn:
            await conn.run_sync(down)
            await conn.commit()
    finally:
        await engine.dispose()
    assert await _tables(empty_db_url) <= {"alembic_version"}
    await upgrade(empty_db_url)
    assert await _schema_diff(empty_db_url) == []


def test_every_revision_sits_in_the_package():
    script = ScriptDirectory.from_config(alembic_config())
    revisions = list(script.walk_revisions())
    assert revisions and all(Path(r.path).parent.parent.name == "migrations" for r in revisions)
    assert script.get_bases() == ["0001"]


# --------------------------------------------------------------------------- SQLite specifics


async def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(tmp_path: Path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", busy_timeout_ms=1234)
    try:
        async with engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
            assert (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 1234
            assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == 2  # FULL: a commit is on disk
    finally:
        await engine.dispose()


async def test_foreign_keys_are_enforced(db_url: str):
    store = await Store.open(db_url, migrate=False)
    try:
        with pytest.raises(IntegrityError):
            async with store.engine.begin() as conn:
                await conn.execute(
                    text("INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (4242, 'p1', 1, 'x')")
                )
        # Deleting a match takes its seats, log and timers with it.
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a", 1)], state={})
        await store.commit_action(match.id, 0, NewAction("move", "m"))
        await store.add_timer("clock", store.now(), match_id=match.id)
        async with store.engine.begin() as conn:
            await conn.execute(text("DELETE FROM matches WHERE id = :id"), {"id": match.id})
        counts = await store.counts()
        assert counts["seats"] == counts["actions"] == counts["timers"] == 0
    finally:
        await store.close()


def _sqlite_path(url: str) -> str:
    return url.split("///", 1)[1]


async def test_a_locked_sqlite_database_is_retried(sqlite_db_url: str):
    db_url = sqlite_db_url
    setup = await Store.open(db_url, migrate=False)
    match = await setup.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
    await setup.close()

    blocker = sqlite3.connect(_sqlite_path(db_url), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    sleep = RecordingSleep(after=2, action=blocker.rollback)
    store = Store(create_engine(db_url, busy_timeout_ms=0), sleep=sleep, backoff=0.05)
    try:
        committed = await store.commit_action(match.id, 0, NewAction("move", "H8"), state={"n": 1})
        assert committed.version == 1
        assert sleep.delays == [0.05, 0.1]  # failed twice, waited longer each time, then got through
        assert (await store.get_match(match.id)).state == {"n": 1}
    finally:
        blocker.close()
        await store.close()


async def test_a_database_that_stays_locked_is_reported_and_nothing_is_written(sqlite_db_url: str):
    db_url = sqlite_db_url
    setup = await Store.open(db_url, migrate=False)
    match = await setup.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
    await setup.close()

    blocker = sqlite3.connect(_sqlite_path(db_url), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    sleep = RecordingSleep()
    store = Store(create_engine(db_url, busy_timeout_ms=0), sleep=sleep, retries=3, backoff=1.0, max_backoff=3.0)
    try:
        with pytest.raises(StorageUnavailable, match=r"database is unavailable.*locked") as caught:
            await store.commit_action(match.id, 0, NewAction("move", "H8"), state={"n": 1})
        assert "try again" in str(caught.value)
        assert sleep.delays == [1.0, 2.0, 3.0]
        blocker.rollback()
        got = await store.get_match(match.id)  # readers never waited on the lock
        assert got.version == 0 and await store.actions(match.id) == []
    finally:
        blocker.close()
        await store.close()


async def test_the_upgrade_on_open_waits_out_another_process_holding_the_lock(tmp_path: Path, caplog):
    # An old bot still writing while the new one starts on the same file (tests/e2e/test_bot_resume.py).
    path = tmp_path / "g.db"
    db_url = f"sqlite+aiosqlite:///{path}"
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("PRAGMA journal_mode = WAL")
    blocker.execute("BEGIN IMMEDIATE")  # the other process holds the write lock
    sleep = RecordingSleep(after=2, action=blocker.rollback)
    try:
        with caplog.at_level(logging.WARNING, logger="geniusbot.storage.retry"):
            store = await Store.open(db_url, busy_timeout_ms=0, sleep=sleep)
    finally:
        blocker.close()
    try:
        assert sleep.delays == [0.05, 0.1]  # the writes' backoff: locked twice, then through
        assert await current_revision(store.engine) == HEAD
        assert await store.live_matches() == []
    finally:
        await store.close()
    # The same warning as any other write's retry.
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2, warnings
    for number, warning in enumerate(warnings, 1):
        assert warning.startswith(f"storage: upgrading the schema failed on try {number} (")
        assert "database is locked" in warning and warning.endswith("); retrying")


async def test_an_upgrade_on_open_that_stays_locked_is_reported(tmp_path: Path):
    path = tmp_path / "g.db"
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("PRAGMA journal_mode = WAL")
    blocker.execute("BEGIN IMMEDIATE")
    sleep = RecordingSleep()
    try:
        with pytest.raises(StorageUnavailable, match=r"(?s)upgrading the schema failed 3 times.*locked.*try again"):
            await Store.open(f"sqlite+aiosqlite:///{path}", busy_timeout_ms=0, sleep=sleep, retries=2)
        assert sleep.delays == [0.05, 0.1]
        assert blocker.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)  # nothing half-built
    finally:
        blocker.close()


async def _stamp(url: str, revision: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    finally:
        await engine.dispose()


async def test_a_schema_newer_than_the_code_fails_the_open_at_once(sqlite_db_url: str, caplog):
    await _stamp(sqlite_db_url, "9999_from_the_future")
    with pytest.raises(Exception) as plain:  # what the upgrade itself says
        await upgrade(sqlite_db_url)
    sleep = RecordingSleep()
    with (
        caplog.at_level(logging.WARNING, logger="geniusbot.storage.retry"),
        pytest.raises(type(plain.value)) as caught,
    ):
        await Store.open(sqlite_db_url, sleep=sleep)
    assert "9999_from_the_future" in str(caught.value)
    assert str(caught.value) == str(plain.value)
    assert sleep.delays == [] and "retrying" not in caplog.text


async def test_db_upgrade_says_plainly_when_the_schema_is_newer_than_the_code(sqlite_db_url: str, capsys, caplog):
    await _stamp(sqlite_db_url, "9999_from_the_future")
    args = argparse.Namespace(url=sqlite_db_url, revision=None)
    with caplog.at_level(logging.WARNING, logger="geniusbot.storage.retry"):
        assert await upgrade_command(args) == 2  # the launcher's code for what the user can fix
    err = capsys.readouterr().err
    assert err.startswith("geniusbot: could not upgrade the database at ")
    assert "(CommandError: " in err and "9999_from_the_future" in err and "then try again." in err
    assert "retrying" not in caplog.text


# --------------------------------------------------------------------------- lost acknowledgements


class BrokenCommits:
    """Make the next COMMITs fail as a dropped connection would, after landing or not.

    A dropped connection cannot be timed to fall between the server's commit and its answer, so
    this hook stands in for it: it commits for real (or rolls back) and then reports the error.
    """

    def __init__(self, store: Store, *, lands: bool, times: int = 1) -> None:
        self.engine = store.sync_engine  # the engine the store's transactions run on
        self.lands = lands
        self.left = times
        self.count = 0
        event.listen(self.engine, "commit", self._lost_answer)

    def _lost_answer(self, conn) -> None:
        if self.left <= 0:
            return
        self.left -= 1
        self.count += 1
        dbapi = conn.connection.dbapi_connection
        dbapi.commit() if self.lands else dbapi.rollback()
        raise OperationalError(
            "COMMIT", {}, Exception("server closed the connection unexpectedly"), connection_invalidated=True
        )

    def remove(self) -> None:
        event.remove(self.engine, "commit", self._lost_answer)


@pytest.mark.parametrize("lands", [True, False], ids=["landed", "lost"])
async def test_a_commit_whose_answer_was_lost_is_neither_doubled_nor_dropped(db_url: str, lands: bool):
    store = await Store.open(db_url, migrate=False, sleep=RecordingSleep())
    try:
        broken = BrokenCommits(store, lands=lands)
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={}, channel_id=7)
        assert broken.count == 1 and (await store.counts())["matches"] == 1
        assert (await store.live_match_in_channel(7)).id == match.id
        await store.append_rejected(match.id, NewAction("move", "zz", seat="p1"), "no")
        broken = BrokenCommits(store, lands=lands)
        committed = await store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1})
        assert broken.count == 1 and (committed.seq, committed.version) == (2, 1)
        broken = BrokenCommits(store, lands=lands)
        seq = await store.append_rejected(match.id, NewAction("move", "Z0", seat="p2"), "not a point")
        assert broken.count == 1 and seq == 3
        got = await store.get_match(match.id)
        assert got.version == 1 and got.state == {"n": 1} and got.last_seq == 3
        assert [(a.seq, a.text) for a in await store.actions(match.id)] == [(1, "zz"), (2, "H8"), (3, "Z0")]
    finally:
        await store.close()


async def test_when_every_commit_breaks_the_caller_is_told_to_reload(sqlite_db_url: str):
    store = await Store.open(sqlite_db_url, migrate=False, sleep=RecordingSleep(), retries=2)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        broken = BrokenCommits(store, lands=False, times=99)
        with pytest.raises(StorageUnavailable, match="may have been saved; reload"):
            await store.commit_action(match.id, 0, NewAction("move", "H8"), state={"n": 1})
        assert broken.count == 3
        broken.remove()
        assert (await store.get_match(match.id)).version == 0
    finally:
        await store.close()


# --------------------------------------------------------------------------- PostgreSQL specifics


@pytest.mark.postgres
async def test_a_dropped_postgres_connection_is_retried(postgres_db_url: str):
    db_url = postgres_db_url
    import asyncpg
    from sqlalchemy.engine import make_url

    sleep = RecordingSleep()
    # No pre-ping: the dead pooled connection is handed out and the retry has to cope.
    store = Store(create_engine(db_url, pool_pre_ping=False), sleep=sleep)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        parsed = make_url(db_url)
        admin = await asyncpg.connect(
            user=parsed.username, host=parsed.host, port=parsed.port, database=parsed.database
        )
        try:
            killed = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()",
                parsed.database,
            )
        finally:
            await admin.close()
        assert killed >= 1
        committed = await store.commit_action(match.id, 0, NewAction("move", "H8"), state={"n": 1})
        assert committed.version == 1 and len(sleep.delays) >= 1
        assert [a.text for a in await store.actions(match.id)] == ["H8"]
    finally:
        await store.close()


async def test_an_unreachable_server_is_reported():
    sleep = RecordingSleep()
    # Port 1 on the loopback: nothing listens there, the refusal is immediate.
    store = Store(create_engine("postgresql+asyncpg://postgres@127.0.0.1:1/none"), sleep=sleep, retries=2)
    try:
        with pytest.raises(StorageUnavailable, match="database is unavailable"):
            await store.live_matches()
        assert len(sleep.delays) == 2
    finally:
        await store.close()


async def test_every_revision_is_migrated_in_one_transaction_under_one_lock(empty_db_url: str):
    # A second process must never find the schema between two revisions (it would then run a
    # revision the first had planned too): the whole upgrade is one commit, on either database.
    engine = create_engine(empty_db_url)
    commits: list[int] = []
    event.listen(engine.sync_engine, "commit", lambda _conn: commits.append(1))
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()
    assert len(list(ScriptDirectory.from_config(alembic_config()).walk_revisions())) > 1  # several revisions
    assert commits == [1]
    assert await current_revision(empty_db_url) == HEAD
