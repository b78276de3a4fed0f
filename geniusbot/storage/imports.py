"""The store's imported records: a whole match written in one transaction, and the digest of the
record it came from (the ``imported_records`` table), so that the same record imported again in
the same place is recognised instead of stored twice.

A record is adjudicated before it reaches the store (:mod:`geniusbot.host.imports`); here it is
only written: the match row with its final snapshot, its seats, every logged action and the
digest, all or nothing. Two imports of one record racing each other are settled by the digest's
primary key: the second finds the first's match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from geniusbot.words import say

from . import models as m
from .errors import RoomBusy, is_room_taken
from .ratings import rate_ended
from .rows import aware, check_action, check_length, db_text, json_or_none
from .statements import INSERT_ACTION, action_params, insert_seats
from .transactions import Transactions
from .values import NewAction, Result, SeatInfo


@dataclass(frozen=True)
class ImportedMatch:
    """What :meth:`ImportStore.import_match` did: the match's id, and whether this call made it
    (``False``: the record had been imported already, as that match)."""

    match_id: int
    created: bool


def import_scope(guild_id: int | None) -> int:
    """The place a digest is unique in: the guild, or 0 for console matches."""
    return 0 if guild_id is None else guild_id


class ImportStore(Transactions):
    """Whole matches written at once, from an adjudicated record."""

    async def imported_match(self, guild_id: int | None, digest: str) -> int | None:
        """The match the record with ``digest`` became in ``guild_id`` (``None``: the console), if any."""

        def work(conn: Connection) -> int | None:
            return self._imported(conn, import_scope(guild_id), digest)

        return await self._transaction(work, write=False, what=say("looking up an imported record"))

    @staticmethod
    def _imported(conn: Connection, scope: int, digest: str) -> int | None:
        query = select(m.ImportedRecord.match_id).where(
            m.ImportedRecord.scope == scope, m.ImportedRecord.digest == digest
        )
        return conn.execute(query).scalar_one_or_none()

    async def import_match(
        self,
        *,
        digest: str,
        game: str,
        variant: str,
        seed: int,
        options: Mapping[str, Any],
        seats: Sequence[SeatInfo],
        state: Mapping[str, Any],
        status: str,
        actions: Sequence[NewAction],
        result: Result | None = None,
        clock: Mapping[str, Any] | None = None,
        host: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        refused: Mapping[int, str] | None = None,
        language: str | None = None,
        rated: bool = False,
    ) -> ImportedMatch:
        """Write a match in one transaction, unless a record with ``digest`` was imported in
        this guild already (then nothing is written).

        ``refused`` maps the index in ``actions`` of each refused line to its reason: it is
        logged as the live bot logs a refused submission (``accepted`` false, ``error`` the
        reason), where it happened; every other action was accepted. ``state``, ``clock``,
        ``status`` and ``result`` are the snapshot after the last action.
        Raises :class:`RoomBusy` if ``channel_id`` holds an unfinished match. ``language``: the
        one the match speaks (``None``: the host's). ``rated`` (off unless a host says so): a
        finished match moves its players' ratings, in this transaction.
        """
        refusals = dict(refused or {})
        check_length("language", language, m.LANGUAGE_LENGTH)
        if status not in m.MATCH_STATUSES:
            raise ValueError(f"unknown match status {status!r}")
        check_length("game", game, 64)
        check_length("variant", variant, 64)
        for seat in seats:
            check_length("seat", seat.seat, 16)
        for action in actions:
            check_action(action)
        scope = import_scope(guild_id)
        now = self.now()

        def work(conn: Connection) -> ImportedMatch:
            existing = self._imported(conn, scope, digest)
            if existing is not None:
                return ImportedMatch(existing, False)
            try:
                match_id = conn.execute(
                    insert(m.Match)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        game=game,
                        variant=variant,
                        seed=str(int(seed)),
                        options=dict(options),
                        status=status,
                        state=dict(state),
                        clock=json_or_none(clock),
                        host=json_or_none(host),
                        version=len(actions) - len(refusals),
                        last_seq=len(actions),
                        created_at=now,
                        updated_at=now,
                        finished_at=now if status in m.ENDED_STATUSES else None,
                        winner=None if result is None else result.winner,
                        reason=None if result is None else db_text(result.reason),
                        termination=None if result is None else result.termination,
                        outcome=None if result is None or result.termination is None else dict(result.data),
                        language=language,
                        rated=rated,
                    )
                    .returning(m.Match.id)
                ).scalar_one()
            except IntegrityError as error:
                if channel_id is not None and is_room_taken(error):
                    raise RoomBusy(channel_id) from error
                raise
            insert_seats(conn, match_id, seats)
            for seq, action in enumerate(actions, start=1):
                at = aware(action.at) if action.at is not None else now
                reason = refusals.get(seq - 1)
                params = action_params(match_id, seq, action, at, accepted=reason is None, error=reason)
                conn.execute(INSERT_ACTION, params)
            conn.execute(insert(m.ImportedRecord).values(scope=scope, digest=digest, match_id=match_id))
            rate_ended(conn, match_id, now)
            return ImportedMatch(match_id, True)

        def verify(conn: Connection) -> ImportedMatch | None:
            # A try whose COMMIT broke may have landed: then the digest names its match.
            existing = self._imported(conn, scope, digest)
            return None if existing is None else ImportedMatch(existing, True)

        try:
            return await self._transaction(work, write=True, what=say("importing a record"), verify=verify)
        except IntegrityError:
            # Another import of the same record committed first (the digest's key refused ours).
            existing = await self.imported_match(guild_id, digest)
            if existing is None:
                raise
            return ImportedMatch(existing, False)
