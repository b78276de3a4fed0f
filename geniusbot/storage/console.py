"""The store of one console (``geniusbot play``): the same store, whose start-up and timer reads
see only the match it plays.

Several consoles may share one database (the default ``console.sqlite3``), each playing its own
match, and a match left with ``quit`` waits there, its clocks stopped, until a console takes it
up again. Once :attr:`ConsoleStore.match_id` is set, this store reads, in SQL: the timers of that
match and the heartbeats whose payload names it (``{"match": id}``), the messages of that match
left to delete, and that match among the unfinished ones. So one console never delivers another
match's clocks or deletions, nor replaces another console's heartbeat: the time a match waits
unplayed is measured by its own console's last heartbeat, and given back when it is resumed.
Everything else (a match by id, the list of matches a console may resume) reads the whole
database. Without :attr:`ConsoleStore.match_id` it is the plain :class:`~geniusbot.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, and_, or_

from . import models as m
from .store import Store
from .values import MatchRecord, PostedMessage

#: The key of a heartbeat's payload naming the console match it is kept for.
MATCH_KEY = "match"


def match_timers(match_id: int) -> ColumnElement[bool]:
    """SQL: a ``timers`` row is ``match_id``'s (its own, or a heartbeat whose payload names it)."""
    return or_(
        m.Timer.match_id == match_id,
        and_(m.Timer.match_id.is_(None), m.Timer.payload[MATCH_KEY].as_integer() == match_id),
    )


class ConsoleStore(Store):
    """A :class:`Store` whose start-up and timer reads are those of one match."""

    #: The match this console plays; ``None``: every match (the plain store's reads).
    match_id: int | None = None

    @property
    def heartbeat_payload(self) -> dict[str, int]:
        """What a heartbeat written through this store carries: the match it is kept for."""
        return {} if self.match_id is None else {MATCH_KEY: self.match_id}

    async def live_matches(self, *, include_paused: bool = True) -> list[MatchRecord]:
        """The console's match if it is unfinished (every unfinished match before it is chosen)."""
        found = await super().live_matches(include_paused=include_paused)
        return found if self.match_id is None else [r for r in found if r.id == self.match_id]

    def timer_scope(self) -> ColumnElement[bool] | None:
        """The console match's timers and heartbeats (every timer before it is chosen)."""
        return None if self.match_id is None else match_timers(self.match_id)

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """The console match's messages still to be deleted."""
        found = await super().messages_to_delete(before)
        return found if self.match_id is None else [r for r in found if r.match_id == self.match_id]
