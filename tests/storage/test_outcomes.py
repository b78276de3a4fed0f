"""An ended match keeps how it ended as data (SQLite and PostgreSQL): the termination and the
outcome's plain values beside the winner and the sentence; an aborted match has none, and a match
that ended before they were kept reads as it did, its termination unknown."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from geniusbot.storage import Result, SeatInfo, Store, models as m
from geniusbot.storage.db import create_engine, upgrade
from tests.storage.test_store import new_match


async def test_an_ended_match_keeps_its_termination_and_data(store: Store):
    match = await new_match(store)
    result = Result("p1", "p2 ran out of time; p1 wins.", "time", {"seat": "p2", "scores": {"p1": 3, "p2": 1}})
    await store.commit_action(match.id, 0, None, status="finished", result=result)
    kept = (await store.get_match(match.id)).result
    assert kept == result
    assert (kept.termination, dict(kept.data)) == ("time", {"seat": "p2", "scores": {"p1": 3, "p2": 1}})


async def test_a_games_own_termination_is_kept_as_its_value(store: Store):
    match = await new_match(store)
    await store.commit_action(match.id, 0, None, status="finished", result=Result("p2", "Checkmate.", "checkmate"))
    assert (await store.get_match(match.id)).result.termination == "checkmate"
    too_long = await new_match(store)
    with pytest.raises(ValueError, match="termination 'tttt.*longer than 32"):
        await store.commit_action(too_long.id, 0, None, status="finished", result=Result("p1", "x", "t" * 33))


async def test_an_aborted_match_has_no_outcome(store: Store):
    match = await new_match(store)
    await store.commit_action(match.id, 0, None, status="aborted", result=Result(None, "aborted by the host"))
    kept = (await store.get_match(match.id)).result
    assert (kept.winner, kept.reason, kept.termination, dict(kept.data)) == (None, "aborted by the host", None, {})


async def ended_match_row(conn: AsyncConnection, reason: str, *, version: int) -> int:
    """A finished Tic-Tac-Five match p1 won, written as a row of an older revision would be; its id."""
    at = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    values = {"game": "tictacfive", "variant": "standard", "seed": "0", "options": {}, "status": "finished"}
    values |= {"state": {}, "version": version, "last_seq": version, "winner": "p1", "reason": reason}
    values |= {"created_at": at, "updated_at": at, "finished_at": at}
    match_id = await conn.scalar(insert(m.Match).values(**values).returning(m.Match.id))
    assert match_id is not None
    return int(match_id)


async def test_a_match_ended_before_outcomes_were_kept_reads_as_it_did(empty_db_url: str):
    await upgrade(empty_db_url, "0007")
    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            old = await ended_match_row(conn, "p1 makes five in a row; p1 wins.", version=3)
    finally:
        await engine.dispose()
    store = await Store.open(empty_db_url)
    try:
        kept = (await store.get_match(old)).result
        assert (kept.winner, kept.reason, kept.termination, dict(kept.data)) == (
            "p1",
            "p1 makes five in a row; p1 wins.",
            None,
            {},
        )
        # And a match that ends now, in the upgraded database, keeps its own.
        match = await store.create_match(game="g", seats=[SeatInfo("p1", "a"), SeatInfo("p2", "b")], state={})
        await store.commit_action(match.id, 0, None, status="finished", result=Result("p2", "r", "line", {"n": 5}))
        assert (await store.get_match(match.id)).result.termination == "line"
    finally:
        await store.close()
