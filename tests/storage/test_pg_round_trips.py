"""What a move's commit sends to PostgreSQL: each message is a round trip to the server."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url

from geniusbot.storage import DuplicateSubmission, NewAction, SeatInfo, StaleVersion, Store, db as dbmodule
from geniusbot.storage.db import create_engine

pytestmark = pytest.mark.postgres


class Sent:
    """Every request the store's connections send: the driver's own queries (BEGIN, COMMIT, a
    ping) from asyncpg's query logger, and the statements SQLAlchemy executes."""

    def __init__(self, store: Store) -> None:
        self.requests: list[str] = []
        engine = store.sync_engine

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            dbapi_connection.driver_connection.add_query_logger(lambda record: self.requests.append(record.query))

        @event.listens_for(engine, "before_cursor_execute")
        def _on_execute(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
            self.requests.append(" ".join(statement.split())[:40])


async def _kill_connections(db_url: str) -> None:
    parsed = make_url(db_url)
    admin = await asyncpg.connect(user=parsed.username, host=parsed.host, port=parsed.port, database=parsed.database)
    try:
        killed = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            parsed.database,
        )
    finally:
        await admin.close()
    assert killed >= 1


async def test_a_keyed_commit_is_one_statement_between_begin_and_commit(postgres_db_url: str):
    store = Store(create_engine(postgres_db_url))
    sent = Sent(store)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        await store.commit_action(match.id, 0, NewAction("move", "H8", "p1", key="k1"), state={"n": 1})
        sent.requests.clear()  # the first use of a connection made it (and prepared the statement)
        committed = await store.commit_action(match.id, 1, NewAction("move", "H9", "p1", key="k2"), state={"n": 2})
        assert committed.version == 2 and committed.seq == 2
        # No ping of a connection used a moment ago; the snapshot and the log row in one statement.
        # (The statement is seen as SQLAlchemy hands it over, before the driver's BEGIN goes out.)
        assert sorted(r.split()[0] for r in sent.requests) == ["BEGIN;", "COMMIT;", "WITH"]
        assert [(a.seq, a.text, a.key) for a in await store.actions(match.id)] == [(1, "H8", "k1"), (2, "H9", "k2")]
        assert (await store.get_match(match.id)).state == {"n": 2}
    finally:
        await store.close()


async def test_the_one_statement_commit_refuses_as_the_two_did(postgres_db_url: str):
    store = Store(create_engine(postgres_db_url))
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        await store.commit_action(match.id, 0, NewAction("move", "H8", "p1", key="k1"), state={"n": 1})
        with pytest.raises(DuplicateSubmission):  # the same key on the match as it is
            await store.commit_action(match.id, 1, NewAction("move", "H8", "p1", key="k1"), state={"n": 9})
        with pytest.raises(DuplicateSubmission):  # ... and on a stale copy of it
            await store.commit_action(match.id, 0, NewAction("move", "H8", "p1", key="k1"), state={"n": 9})
        with pytest.raises(StaleVersion):
            await store.commit_action(match.id, 0, NewAction("move", "H9", "p1", key="k2"), state={"n": 9})
        got = await store.get_match(match.id)
        assert got.version == 1 and got.state == {"n": 1} and got.last_seq == 1
        assert [a.text for a in await store.actions(match.id)] == ["H8"]
    finally:
        await store.close()


@pytest.mark.slow
async def test_a_connection_idle_too_long_is_pinged_and_replaced(postgres_db_url: str, monkeypatch):
    monkeypatch.setattr(dbmodule, "IDLE_PING_SECONDS", 0.0)  # every connection handed out again is "idle"
    delays: list[float] = []

    async def sleep(delay: float) -> None:
        delays.append(delay)

    store = Store(create_engine(postgres_db_url), sleep=sleep)
    try:
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a")], state={})
        await _kill_connections(postgres_db_url)
        committed = await store.commit_action(match.id, 0, NewAction("move", "H8", "p1", key="k1"), state={"n": 1})
        # The ping found the pooled connection dead: the pool made a new one, no retry was needed.
        assert committed.version == 1 and delays == []
        assert [a.text for a in await store.actions(match.id)] == ["H8"]
    finally:
        await store.close()
