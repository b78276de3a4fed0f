"""The store of one process of several (Discord shards on one PostgreSQL database): the same
store, whose start-up and timer reads see only the matches of the shards this process owns.

A match belongs to the shard of its guild, ``(guild_id >> 22) % shard_count`` (no guild: shard
0). :class:`ClusterStore` filters, in SQL on ``matches.guild_id``: the unfinished matches a start
resumes, the timers the dispatcher delivers and recovery reads (a timer of no match, such as a
heartbeat, by the ``shard`` its payload names, 0 without one) and the messages left to delete.
Everything else (a match by id, a player's matches for a direct message) reads the whole
database. Without :attr:`ClusterStore.shards` it is the plain :class:`~geniusbot.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, and_, false, func, literal_column, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m
from .rows import aware, message_from_row
from .store import Store
from .values import MatchRecord, PostedMessage

if TYPE_CHECKING:
    from .shards import Shards


def guild_shard(column: Any, count: int) -> ColumnElement[Any]:
    """SQL: the shard of a guild id column among ``count`` (a NULL guild: shard 0)."""
    # Constants written into the statement: PostgreSQL has ``bigint >> integer`` only.
    shifted = column.op(">>")(literal_column("22"))
    return func.coalesce(shifted.op("%")(literal_column(str(int(count)))), 0)


def owned_matches(shards: Shards) -> ColumnElement[bool]:
    """SQL: a ``matches`` row belongs to one of ``shards``."""
    return guild_shard(m.Match.guild_id, shards.count).in_(sorted(shards.ids))


def owned_timers(shards: Shards) -> ColumnElement[bool]:
    """SQL: a ``timers`` row is one of ``shards``' (its match's, or its payload's ``shard``)."""
    of_no_match = and_(
        m.Timer.match_id.is_(None),
        func.coalesce(m.Timer.payload["shard"].as_integer(), 0).in_(sorted(shards.ids)),
    )
    return or_(of_no_match, m.Timer.match_id.in_(select(m.Match.id).where(owned_matches(shards))))


#: The PostgreSQL channel an inbox row is announced on (the payload: the owner's shard).
INBOX_CHANNEL = "geniusbot_inbox"


class ClusterStore(Store):
    """A :class:`Store` whose start-up and timer reads are those of the shards it owns, and
    which hands direct messages to the owner of their match (the ``inbox`` table)."""

    #: The shards this process owns; ``None``: every match (the plain store's reads).
    shards: Shards | None = None

    async def live_matches(self, *, include_paused: bool = True) -> list[MatchRecord]:
        """The unfinished matches of the owned shards, oldest first."""
        shards = self.shards
        if shards is None:
            return await super().live_matches(include_paused=include_paused)
        statuses = m.UNFINISHED_STATUSES if include_paused else (m.MatchStatus.LIVE,)

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(conn, and_(m.Match.status.in_(statuses), owned_matches(shards)))

        return await self._transaction(work, write=False, what=say("listing the shards' live matches"))

    def timer_scope(self) -> ColumnElement[bool] | None:
        """The owned shards' timers (every timer without :attr:`shards`)."""
        return None if self.shards is None else owned_timers(self.shards)

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """The owned shards' messages still to be deleted (a message of no match: shard 0's)."""
        shards = self.shards
        if shards is None:
            return await super().messages_to_delete(before)
        conditions: list[ColumnElement[bool]] = [
            m.Message.deleted.is_(False),
            m.Message.delete_at.is_not(None),
            or_(
                m.Message.match_id.is_(None) if 0 in shards.ids else false(),
                m.Message.match_id.in_(select(m.Match.id).where(owned_matches(shards))),
            ),
        ]
        if before is not None:
            conditions.append(m.Message.delete_at <= aware(before))

        def work(conn: Connection) -> list[PostedMessage]:
            query = select(m.Message.__table__).where(*conditions).order_by(m.Message.delete_at, m.Message.id)
            return [message_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what=say("reading the shards' messages to delete"))

    async def add_inbox(
        self,
        *,
        shard: int,
        match_id: int,
        user_id: int,
        seat: str,
        kind: str,
        text: str,
        key: str,
        reply: dict[str, Any] | None = None,
    ) -> bool:
        """Hand a submission to the process of ``shard``: an ``inbox`` row, announced on
        :data:`INBOX_CHANNEL` when it commits. ``False`` when a row of this ``key`` is there
        already (the same message received twice)."""
        values = {
            "shard": shard,
            "match_id": match_id,
            "user_id": user_id,
            "seat": seat,
            "kind": kind,
            "text": text,
            "key": key,
            "reply": reply,
            "created_at": self.now(),
        }
        statement = pg_insert(m.InboxItem).values(**values).on_conflict_do_nothing(index_elements=["key"])

        def work(conn: Connection) -> bool:
            added = conn.execute(statement).rowcount > 0
            conn.execute(select(func.pg_notify(INBOX_CHANNEL, str(shard))))
            return added

        def verify(conn: Connection) -> bool | None:
            found = conn.execute(select(m.InboxItem.id).where(m.InboxItem.key == key)).first()
            return True if found is not None else None

        return await self._transaction(
            work, write=True, what=say("handing a message to its match's process"), verify=verify
        )
