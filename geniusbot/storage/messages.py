"""The store's posted messages: what the bot posted, and when each must be deleted (the
``messages`` table).

A message that must be deleted is written ahead of its post: :meth:`MessageStore.add_message`
with no ``message_id`` writes an intent, the host posts, then :meth:`MessageStore.fill_message`
fills in the id and writes the deletion's timer row, in one transaction. A crash leaves either an
intent (the post may or may not have happened: a restart finds the message or drops the intent)
or a row with its timer; never a message no row knows of, nor a row with no deletion.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, insert, select, update
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m
from .rows import aware, check_length, message_from_row
from .statements import INSERT_TIMER
from .transactions import Transactions
from .values import PostedMessage, TimerRecord


class MessageStore(Transactions):
    """The messages the bot posted: one transaction per call."""

    async def add_message(
        self,
        channel_id: int | None,
        message_id: int | None,
        kind: str,
        *,
        match_id: int | None = None,
        delete_at: datetime | None = None,
        text_digest: str | None = None,
        intended_at: datetime | None = None,
    ) -> PostedMessage:
        """Remember a message the bot posted (and when it must be deleted, if ever); with
        ``message_id`` ``None``, one it is about to post (an intent, see :meth:`fill_message`).
        An intent to post a text may keep the text's ``text_digest`` and the time it was written
        (``intended_at``), by which a restart finds a text that carries no key."""
        check_length("message kind", kind, 32)
        if text_digest is not None:
            check_length("text digest", text_digest, 64)
        delete_at = None if delete_at is None else aware(delete_at)
        intended_at = None if intended_at is None else aware(intended_at)

        def work(conn: Connection) -> PostedMessage:
            row_id = (
                conn.execute(
                    insert(m.Message)
                    .values(
                        match_id=match_id,
                        channel_id=channel_id,
                        message_id=message_id,
                        kind=kind,
                        delete_at=delete_at,
                        deleted=False,
                        text_digest=text_digest,
                        intended_at=intended_at,
                    )
                    .returning(m.Message.id)
                )
            ).scalar_one()
            return PostedMessage(
                row_id, match_id, channel_id, message_id, kind, delete_at, False, text_digest, intended_at
            )

        return await self._transaction(work, write=True, what=say("remembering a posted message"))

    async def fill_message(self, row_id: int, message_id: int, *, timer_kind: str | None = None) -> TimerRecord | None:
        """An intent's message is posted: fill in its id and, with ``timer_kind``, write the timer
        row of its deletion (due at its ``delete_at``; payload ``channel_id``, ``message_id`` and
        ``row``), in one transaction. Returns that timer; ``None`` when none was written (no
        ``timer_kind``, no ``delete_at``, or the row is not an open intent any more)."""
        if timer_kind is not None:
            check_length("timer kind", timer_kind, 32)

        def work(conn: Connection) -> TimerRecord | None:
            row = conn.execute(
                update(m.Message)
                .where(m.Message.id == row_id, m.Message.message_id.is_(None), m.Message.deleted.is_(False))
                .values(message_id=message_id)
                .returning(m.Message.match_id, m.Message.channel_id, m.Message.delete_at)
            ).first()
            if row is None or timer_kind is None or row.delete_at is None:
                return None
            payload = {"channel_id": row.channel_id, "message_id": message_id, "row": row_id}
            params = {"p_match_id": row.match_id, "p_kind": timer_kind, "p_due_at": row.delete_at, "p_payload": payload}
            timer_id = conn.execute(INSERT_TIMER, params).scalar_one()
            return TimerRecord(timer_id, row.match_id, timer_kind, aware(row.delete_at), payload, 0)

        return await self._transaction(work, write=True, what=say("filling in a posted message"))

    async def drop_message(self, row_id: int) -> bool:
        """Close an intent whose message was never posted (or is gone): it is marked deleted, so
        nothing is done for it again. ``False`` if the row was closed already."""

        def work(conn: Connection) -> bool:
            return (
                conn.execute(
                    update(m.Message).where(m.Message.id == row_id, m.Message.deleted.is_(False)).values(deleted=True)
                )
            ).rowcount > 0

        return await self._transaction(work, write=True, what=say("dropping a message intent"))

    async def mark_message_deleted(self, channel_id: int | None, message_id: int) -> bool:
        """Record that a posted message is gone; ``False`` if it was unknown or already marked."""
        channel = m.Message.channel_id.is_(None) if channel_id is None else m.Message.channel_id == channel_id

        def work(conn: Connection) -> bool:
            return (
                conn.execute(
                    update(m.Message)
                    .where(channel, m.Message.message_id == message_id, m.Message.deleted.is_(False))
                    .values(deleted=True)
                )
            ).rowcount > 0

        return await self._transaction(work, write=True, what=say("marking a message deleted"))

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """Messages still to be deleted (only those due by ``before`` if given), earliest first;
        the open intents (``message_id`` ``None``) among them."""
        conditions: list[ColumnElement[bool]] = [m.Message.deleted.is_(False), m.Message.delete_at.is_not(None)]
        if before is not None:
            conditions.append(m.Message.delete_at <= aware(before))

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(*conditions).order_by(m.Message.delete_at, m.Message.id))
            ).all()
            return [message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what=say("reading messages to delete"))

    async def messages(self, match_id: int) -> list[PostedMessage]:
        """Every message posted for a match, in the order posted."""

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(m.Message.match_id == match_id).order_by(m.Message.id))
            ).all()
            return [message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what=say("reading posted messages"))
