"""The heartbeat: a durable row renewed every few seconds, saying when this host was last alive
and carrying the ledger of outages not yet in every live match's row (an object of the host's
own, ``host.heartbeat``). A restart reads it to know what outage to give back (ruling 5)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from geniusbot.storage import MatchRecord, MatchStatus, TimerRecord

from .arming import HEARTBEAT_TIMER, Arming
from .live import utc

if TYPE_CHECKING:
    from geniusbot.storage import Store
    from geniusbot.storage.shards import Shards

#: How often a running host notes that it is alive (bounds the time an outage may give back).
HEARTBEAT_SECONDS = 5.0

#: Outages the heartbeat ledger keeps for matches that have not committed since (the newest).
MAX_OUTAGES = 50


class Heartbeat:
    """This host's heartbeat rows and their ledger of outages. ``seconds``: how often it beats
    (0 or less: never, and a resumed match's row must say its outage alone); ``shards()``: the
    shards this process serves, one heartbeat each (see :class:`~geniusbot.host.match.Host`)."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        arming: Arming,
        seconds: float = HEARTBEAT_SECONDS,
        shards: Callable[[], Shards | None] | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self.arming = arming
        self.seconds = seconds
        self.shards = shards
        #: (down, up) of each outage not yet in every live match's row, read at a restart.
        self.outages: list[tuple[float, float]] = []

    async def restart(self, now: float, beats: Sequence[TimerRecord], unfinished: Sequence[MatchRecord]) -> None:
        """At a restart (``now``): read the outage that ends now from the last process's heartbeat
        rows ``beats`` into the ledger (with those of ``unfinished`` matches not yet in their rows),
        then beat, replacing those rows. Written before anything is announced, so a second crash
        loses nothing."""
        # The last heartbeat of the process that went down: it was alive then, so the outage
        # began no earlier. Without one (the first start), a match's own last commit stands in.
        alive_at = max((float(r.payload.get("alive_at", 0)) for r in beats), default=None)
        ledger = {(float(d), float(u)) for r in beats for d, u in r.payload.get("outages", ())}
        saved = [float((r.host or {}).get("saved_at", now)) for r in unfinished if r.status == MatchStatus.LIVE]
        oldest = min(saved, default=now)
        ledger.add((alive_at if alive_at is not None else oldest, now))
        # An outage that ended before every live match's last commit is in their rows already.
        self.outages = sorted((d, u) for d, u in ledger if u > oldest and u > d)[-MAX_OUTAGES:]
        await self.beat(replacing=[r.id for r in beats])

    async def beat(self, replacing: Sequence[int] = (), *, delivered: TimerRecord | None = None) -> bool:
        """Note that this host is alive now: a heartbeat row (carrying the ledger of outages not
        yet in every match's row), due again in ``seconds``. A ``delivered`` heartbeat row is
        replaced in the same write; returns whether it was."""
        if self.seconds <= 0:
            return False
        now = self.now()
        payload: dict[str, Any] = {"alive_at": now, "outages": [list(o) for o in self.outages]}
        due = utc(now + self.seconds)
        # One process of several keeps one heartbeat per shard it owns (its payload names the
        # shard), so the process that takes a shard over reads when that shard's owner was last alive.
        shards = self.shards() if self.shards is not None else None
        # A console keeps the heartbeat of the one match it plays (its store reads only that
        # match's), so a match left waiting is measured by its own console's last beat.
        payload.update(self.store.heartbeat_payload)
        if delivered is not None:
            if "shard" in delivered.payload:
                payload["shard"] = delivered.payload["shard"]
            await self.store.replace_timer(delivered, HEARTBEAT_TIMER, due, payload=payload)
        elif shards is None:
            await self.store.add_timer(HEARTBEAT_TIMER, due, payload=payload)
        else:
            for shard in sorted(shards.ids):
                await self.store.add_timer(HEARTBEAT_TIMER, due, payload={**payload, "shard": shard})
        for row_id in replacing:
            await self.store.delete_timer(row_id)
        await self.arming.wake(now + self.seconds)
        return delivered is not None

    def give_back(self, saved_at: float) -> tuple[float, float]:
        """What the ledger gives back to a match last committed at ``saved_at``, and how long
        the latest outage it saw lasted."""
        total = last = 0.0
        for down, up in self.outages:
            if up > saved_at:
                last = up - max(down, saved_at)
                total += last
        return total, last
