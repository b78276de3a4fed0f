"""Timer rows removed in bulk, as a test arranges them (the host removes its rows one at a time,
each after what it stands for is done): through the store's public calls only."""

from __future__ import annotations

from geniusbot.storage import Store


async def delete_timers(store: Store, match_id: int, kind: str | None = None) -> int:
    """Remove the timers of a match (only those of ``kind`` if given); return how many."""
    rows = [t for t in await store.timers(match_id) if kind is None or t.kind == kind]
    return sum([await store.delete_timer(t.id) for t in rows])
