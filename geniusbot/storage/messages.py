"""The store's posted messages: what the bot posted, and when each must be deleted (the
``messages`` table)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, insert, select, update
from sqlalchemy.engine import Connection

from . import models as m
from .rows import aware, check_length, message_from_row
from .transactions import Transactions
from .values import PostedMessage


class MessageStore(Transactions):
    """The messages the bot posted: one transaction per call."""

    async def add_message(
        self,
        channel_id: int | None,
        message_id: int,
        kind: str,
        *,
        match_id: int | None = None,
        delete_at: datetime | None = None,
    ) -> PostedMessage:
        """Remember a message the bot posted (and when it must be deleted, if ever)."""
        check_length("message kind", kind, 32)
        delete_at = None if delete_at is None else aware(delete_at)

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
                    )
                    .returning(m.Message.id)
                )
            ).scalar_one()
            return PostedMessage(row_id, match_id, channel_id, message_id, kind, delete_at, False)

        return await self._transaction(work, write=True, what="remembering a posted message")

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

        return await self._transaction(work, write=True, what="marking a message deleted")

    async def messages_to_delete(self, before: datetime | None = None) -> list[PostedMessage]:
        """Messages still to be deleted (only those due by ``before`` if given), earliest first."""
        conditions: list[ColumnElement[bool]] = [m.Message.deleted.is_(False), m.Message.delete_at.is_not(None)]
        if before is not None:
            conditions.append(m.Message.delete_at <= aware(before))

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(*conditions).order_by(m.Message.delete_at, m.Message.id))
            ).all()
            return [message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what="reading messages to delete")

    async def messages(self, match_id: int) -> list[PostedMessage]:
        """Every message posted for a match, in the order posted."""

        def work(conn: Connection) -> list[PostedMessage]:
            rows = (
                conn.execute(select(m.Message.__table__).where(m.Message.match_id == match_id).order_by(m.Message.id))
            ).all()
            return [message_from_row(row) for row in rows]

        return await self._transaction(work, write=False, what="reading posted messages")
