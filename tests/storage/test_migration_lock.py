"""Several processes starting at once on one PostgreSQL database migrate it once: the upgrade
takes the project's advisory lock (``MIGRATION_LOCK_KEY``), so one runs every revision and the
others wait, then find the schema current."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from geniusbot.storage.db import MIGRATION_LOCK_KEY, alembic_config, create_engine, current_revision
from tests.conftest import _require_postgres
from tests.storage.test_db import HEAD, REPO, _schema_diff, _tables

# A bot's start: Store.open upgrades the schema (logging each revision Alembic runs), then closes.
BOT_START = """
import asyncio, logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
from geniusbot.storage import Store
async def main():
    store = await Store.open(sys.argv[1])
    await store.close()
asyncio.run(main())
"""

WAITING = f"""
SELECT count(*) FROM pg_locks
WHERE locktype = 'advisory' AND NOT granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND classid = {MIGRATION_LOCK_KEY >> 32} AND objid = {MIGRATION_LOCK_KEY & 0xFFFFFFFF} AND objsubid = 1
"""


@pytest.fixture
def empty_postgres_url(request: pytest.FixtureRequest) -> str:
    server = request.getfixturevalue("_postgres")
    _require_postgres(server)
    return server.emptied()


async def _spawn(args: list[str], tmp_path: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": str(REPO), "GENIUSBOT_DATA_DIR": str(tmp_path)}
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.slow
@pytest.mark.postgres
async def test_three_processes_starting_at_once_run_each_migration_once(empty_postgres_url: str, tmp_path: Path):
    url = empty_postgres_url
    revisions = sorted(r.revision for r in ScriptDirectory.from_config(alembic_config()).walk_revisions())
    assert len(revisions) > 1
    holder_engine = create_engine(url)
    try:
        async with holder_engine.connect() as holder:
            # Held by the test until all three wait on it, so they contend for it at one moment.
            await holder.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})")
            processes = [
                await _spawn(["-c", BOT_START, url], tmp_path),
                await _spawn(["-c", BOT_START, url], tmp_path),
                await _spawn(["-m", "geniusbot", "--log-level", "DEBUG", "db", "upgrade", "--url", url], tmp_path),
            ]

            async def all_waiting() -> None:
                while (await holder.exec_driver_sql(WAITING)).scalar_one() < 3:
                    for process in processes:
                        assert process.returncode is None, await process.communicate()
                    await asyncio.sleep(0.05)

            try:
                await asyncio.wait_for(all_waiting(), 60)
                assert await _tables(url) == set()  # none of them touched the schema without the lock
            finally:
                await holder.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})")
                await holder.commit()
            outputs = [await asyncio.wait_for(p.communicate(), 120) for p in processes]
    finally:
        await holder_engine.dispose()
    errors = [err.decode() for _, err in outputs]
    assert [p.returncode for p in processes] == [0, 0, 0], errors
    assert not any("already exists" in err for err in errors), errors
    # Each revision's DDL ran once, in one process; the other two found the schema current.
    ran = [re.findall(r"Running upgrade .*?-> (\w+)", err) for err in errors]
    assert sorted(r for one in ran for r in one) == revisions, errors
    assert sorted(len(one) for one in ran) == [0, 0, len(revisions)], ran
    assert await current_revision(url) == HEAD
    assert await _schema_diff(url) == []
