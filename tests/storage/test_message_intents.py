"""Message intents (SQLite and PostgreSQL): a message to be deleted is written before it is
posted, with no message id; filling in the id writes the deletion's timer row in the same
transaction; an intent whose message was never posted is dropped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from geniusbot.storage import Store
from tests.storage.test_store import new_match

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


async def test_an_intent_is_a_message_to_delete_with_no_id_until_it_is_filled_in(store: Store):
    match = await new_match(store)
    due = T0 + timedelta(seconds=30)
    intent = await store.add_message(10, None, "timed", match_id=match.id, delete_at=due)
    assert intent.message_id is None
    assert await store.messages_to_delete() == [intent]
    assert await store.timers() == []  # no deletion without a message to delete

    timer = await store.fill_message(intent.id, 9001, timer_kind="delete")
    assert timer is not None
    assert (timer.kind, timer.match_id, timer.due_at) == ("delete", match.id, due)
    assert timer.payload == {"channel_id": 10, "message_id": 9001, "row": intent.id}
    assert await store.timers() == [timer]
    [filled] = await store.messages_to_delete()
    assert (filled.id, filled.message_id, filled.delete_at) == (intent.id, 9001, due)

    # Filled in once: a second fill (a repeat after a crash) changes nothing and writes no timer.
    assert await store.fill_message(intent.id, 9002, timer_kind="delete") is None
    assert await store.timers() == [timer]
    assert [m.message_id for m in await store.messages_to_delete()] == [9001]


async def test_an_intent_never_posted_is_dropped_and_cannot_be_filled_in_later(store: Store):
    intent = await store.add_message(None, None, "timed", delete_at=T0)
    assert await store.drop_message(intent.id) is True
    assert await store.drop_message(intent.id) is False
    assert await store.messages_to_delete() == []
    assert await store.fill_message(intent.id, 5, timer_kind="delete") is None
    assert await store.timers() == []
