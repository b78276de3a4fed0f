"""Submission keys in the action log, on SQLite and PostgreSQL: a taken action keeps the key of
the submission it came from; one key is taken once; a commit whose answer was lost is found by it."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from geniusbot.storage import (
    CommitUnknown,
    DuplicateSubmission,
    MatchNotFound,
    NewAction,
    SeatInfo,
    StaleVersion,
    StorageUnavailable,
    Store,
)


async def no_pause(seconds: float) -> None:
    """The retry pause: none."""


async def new_match(store: Store) -> int:
    return (await store.create_match(game="g", seats=[SeatInfo("p1", "a"), SeatInfo("p2", "b")], state={})).id


def move(text: str, key: str | None, seat: str = "p1") -> NewAction:
    return NewAction("move", text, seat, key=key)


async def test_a_taken_action_keeps_its_key_and_is_found_by_it(store: Store):
    match_id = await new_match(store)
    await store.commit_action(match_id, 0, move("H8", "discord:1"), state={"n": 1})
    found = await store.find_submission(match_id, "discord:1")
    assert found is not None and (found.seq, found.text, found.key, found.accepted) == (1, "H8", "discord:1", True)
    assert await store.find_submission(match_id, "discord:2") is None
    other = await new_match(store)
    assert await store.find_submission(other, "discord:1") is None  # a key is the match's own
    with pytest.raises(MatchNotFound):
        await store.find_submission(999, "discord:1")


async def test_one_submission_is_taken_once_and_the_second_try_writes_nothing(store: Store):
    match_id = await new_match(store)
    await store.commit_action(match_id, 0, move("bid 4", "discord:1"), state={"n": 1})
    # The same submission again, decided on the match as it now is: nothing is written.
    with pytest.raises(DuplicateSubmission) as caught:
        await store.commit_action(match_id, 1, move("bid 4", "discord:1"), state={"n": 2})
    assert caught.value.key == "discord:1"
    # Decided on the match as it was before it (a stale copy): taken already, not "changed".
    with pytest.raises(DuplicateSubmission) as caught:
        await store.commit_action(match_id, 0, move("bid 4", "discord:1"), state={"n": 2})
    assert caught.value.seq == 1
    record = await store.get_match(match_id)
    assert (record.version, record.state, record.last_seq) == (1, {"n": 1}, 1)
    assert [(a.text, a.key) for a in await store.actions(match_id)] == [("bid 4", "discord:1")]
    # The same key in another match, or another key, is another submission.
    await store.commit_action(await new_match(store), 0, move("bid 4", "discord:1"), state={})
    await store.commit_action(match_id, 1, move("bid 4", "discord:2"), state={"n": 2})
    # A stale copy with a key never taken is still told the match changed.
    with pytest.raises(StaleVersion):
        await store.commit_action(match_id, 1, move("bid 5", "discord:3"), state={"n": 3})


async def test_a_refused_submission_keeps_no_key_and_a_taken_one_is_not_refused_again(store: Store):
    match_id = await new_match(store)
    # Refused twice (the same message ruled again, say after the match resumed): logged twice.
    assert await store.append_rejected(match_id, move("Z0", "discord:1"), "not a point") == 1
    assert await store.append_rejected(match_id, move("Z0", "discord:1"), "not a point") == 2
    await store.commit_action(match_id, 0, move("H8", "discord:2"), state={"n": 1})
    with pytest.raises(DuplicateSubmission):
        await store.append_rejected(match_id, move("H8", "discord:2"), "It is not your turn.")
    log = await store.actions(match_id)
    assert [(a.seq, a.accepted, a.key) for a in log] == [(1, False, None), (2, False, None), (3, True, "discord:2")]
    # A refused key, once taken, is taken once.
    await store.commit_action(match_id, 1, move("Z1", "discord:1"), state={"n": 2})
    assert (await store.find_submission(match_id, "discord:1")).seq == 4


async def test_a_key_too_long_is_refused_before_the_database_sees_it(store: Store):
    match_id = await new_match(store)
    with pytest.raises(ValueError, match="submission key"):
        await store.commit_action(match_id, 0, move("H8", "k" * 101), state={})


class LostAnswers:
    """The next COMMITs land (or not), then fail as a dropped connection does."""

    def __init__(self, store: Store, *, lands: bool, times: int = 1) -> None:
        self.engine, self.lands, self.left = store.sync_engine, lands, times
        event.listen(self.engine, "commit", self._lost)

    def _lost(self, conn) -> None:
        if self.left <= 0:
            return
        self.left -= 1
        dbapi = conn.connection.dbapi_connection
        dbapi.commit() if self.lands else dbapi.rollback()
        raise OperationalError("COMMIT", {}, Exception("server closed the connection"), connection_invalidated=True)

    def remove(self) -> None:
        event.remove(self.engine, "commit", self._lost)


@pytest.mark.parametrize("lands", [True, False], ids=["landed", "lost"])
async def test_a_retry_after_a_lost_answer_finds_the_commit_by_its_key(db_url: str, lands: bool):
    store = await Store.open(db_url, migrate=False, sleep=no_pause)
    try:
        match_id = await new_match(store)
        lost = LostAnswers(store, lands=lands)
        committed = await store.commit_action(match_id, 0, move("H8", "console:1:1"), state={"n": 1})
        lost.remove()
        assert (committed.seq, committed.version) == (1, 1)
        assert [(a.text, a.key) for a in await store.actions(match_id)] == [("H8", "console:1:1")]
    finally:
        await store.close()


@pytest.mark.parametrize("lands", [True, False], ids=["landed", "lost"])
async def test_when_no_retry_can_check_the_commit_is_unknown_until_its_key_is_looked_up(db_url: str, lands: bool):
    store = await Store.open(db_url, migrate=False, sleep=no_pause, retries=2)
    try:
        match_id = await new_match(store)
        # Each try's COMMIT loses its answer; the first lands (or not), the retries find... another
        # lost answer before they can check. (Their own work is rolled back by the hook.)
        lost = LostAnswers(store, lands=lands)
        event.listen(store.sync_engine, "begin", _refuse_after_the_first)
        _refuse_after_the_first.begun = 0
        try:
            with pytest.raises(CommitUnknown, match="may have been saved") as caught:
                await store.commit_action(match_id, 0, move("H8", "discord:9"), state={"n": 1})
        finally:
            event.remove(store.sync_engine, "begin", _refuse_after_the_first)
            lost.remove()
        assert isinstance(caught.value, StorageUnavailable)
        found = await store.find_submission(match_id, "discord:9")
        assert (found is not None) == lands
        assert (await store.get_match(match_id)).version == (1 if lands else 0)
    finally:
        await store.close()


def _refuse_after_the_first(conn) -> None:
    """A BEGIN after the first fails as a server that is away: no retry gets to check."""
    _refuse_after_the_first.begun += 1
    if _refuse_after_the_first.begun > 1:
        raise OperationalError("BEGIN", {}, Exception("could not connect to server"), connection_invalidated=True)


_refuse_after_the_first.begun = 0  # type: ignore[attr-defined]


async def test_a_failure_with_no_commit_sent_is_plainly_unavailable(db_url: str):
    store = await Store.open(db_url, migrate=False, sleep=no_pause, retries=1)
    try:
        match_id = await new_match(store)
        event.listen(store.sync_engine, "begin", _always_away)
        try:
            with pytest.raises(StorageUnavailable) as caught:
                await store.commit_action(match_id, 0, move("H8", "discord:9"), state={"n": 1})
        finally:
            event.remove(store.sync_engine, "begin", _always_away)
        assert not isinstance(caught.value, CommitUnknown)  # nothing was sent: it did not land
        assert await store.find_submission(match_id, "discord:9") is None
    finally:
        await store.close()


def _always_away(conn) -> None:
    raise OperationalError("BEGIN", {}, Exception("could not connect to server"), connection_invalidated=True)


@pytest.mark.postgres
async def test_the_lookup_waits_for_a_commit_the_server_is_still_finishing(postgres_db_url: str):
    import asyncio

    import asyncpg
    from sqlalchemy.engine import make_url

    store = await Store.open(postgres_db_url, migrate=False, sleep=no_pause)
    parsed = make_url(postgres_db_url)
    other = await asyncpg.connect(user=parsed.username, host=parsed.host, port=parsed.port, database=parsed.database)
    try:
        match_id = await new_match(store)
        # Another connection's commit of the submission, in flight: the row is written, not committed.
        in_flight = other.transaction()
        await in_flight.start()
        await other.execute("UPDATE matches SET version = 1, last_seq = 1 WHERE id = $1", match_id)
        await other.execute(
            "INSERT INTO actions (match_id, seq, seat, kind, text, private, accepted, at, key) "
            "VALUES ($1, 1, 'p1', 'move', 'H8', false, true, now(), 'discord:7')",
            match_id,
        )
        lookup = asyncio.ensure_future(store.find_submission(match_id, "discord:7"))
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = $1"
        async with asyncio.timeout(10):
            while not await other.fetchval(waiting, parsed.database):
                await asyncio.sleep(0.01)  # until the lookup waits on the row lock
        assert not lookup.done()
        await in_flight.commit()  # the COMMIT lands after the lookup began: it is seen, not read past
        found = await asyncio.wait_for(lookup, 10)
        assert found is not None and (found.seq, found.text) == (1, "H8")
    finally:
        await other.close()
        await store.close()
