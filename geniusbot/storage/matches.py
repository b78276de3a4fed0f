"""The store's matches: starting them, reading them, and committing their actions (the ``matches``,
``seats`` and ``actions`` tables).

Optimistic concurrency: every match has a ``version``. :meth:`MatchStore.commit_action` appends
an action to the log *and* replaces the snapshot (game state, clocks, host data, status, result)
in one transaction, and only if the version is still the one the caller read; otherwise it raises
:class:`StaleVersion` and changes nothing. Refused submissions are logged with
:meth:`MatchStore.append_rejected`; they never touch the snapshot or the version.

A taken action keeps the key of the submission it came from, unique within the match: a second
commit of one key raises :class:`DuplicateSubmission` and writes nothing, and a commit whose
answer was lost is found by its key (:meth:`MatchStore.find_submission`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, and_, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from geniusbot.words import say

from . import models as m
from .errors import DuplicateSubmission, MatchNotFound, RoomBusy, StaleVersion, is_duplicate_key, is_room_taken
from .ratings import rate_ended
from .rows import (
    UNSET,
    action_from_row,
    aware,
    check_action,
    check_length,
    db_text,
    json_or_none,
    match_from_row,
)
from .statements import (
    DELETE_EXACT_TIMER,
    INSERT_ACTION,
    LOCK_MATCH,
    LOCK_WAIT,
    MATCH_VERSION,
    NEXT_SEQ,
    SUBMISSION_SEQ,
    action_params,
    commit_update,
    exact_params,
    insert_seats,
    logged_commit,
    on_sqlite,
)
from .tournaments import score_ended
from .transactions import Transactions
from .values import ActionRecord, Committed, MatchRecord, NewAction, Practice, Result, SeatInfo, TimerRecord


class MatchStore(Transactions):
    """The matches, their seats and their action log: one transaction per call."""

    async def create_match(
        self,
        *,
        game: str,
        seats: Sequence[SeatInfo],
        state: Mapping[str, Any],
        variant: str = "standard",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        clock: Mapping[str, Any] | None = None,
        host: Mapping[str, Any] | None = None,
        status: str = m.MatchStatus.LIVE,
        practice: Practice | None = None,
        language: str | None = None,
        rated: bool = False,
    ) -> MatchRecord:
        """Start a match (version 0, an empty log) and return it. ``practice``: the seat the
        practice opponent plays, and its level; ``language``: the one it speaks (``None``: the host's).
        ``rated``: its end moves its players' ratings.

        Raises :class:`RoomBusy` if ``channel_id`` already holds a live or paused match.
        """
        if status not in m.MATCH_STATUSES:
            raise ValueError(f"unknown match status {status!r}")
        check_length("game", game, 64)
        check_length("variant", variant, 64)
        for seat in seats:
            check_length("seat", seat.seat, 16)
        if practice is not None:
            if practice.seat not in {seat.seat for seat in seats}:
                raise ValueError(f"the practice opponent's seat {practice.seat!r} is not a seat of the match")
            check_length("practice level", practice.level, 16)
        if language is not None:
            check_length("language", language, m.LANGUAGE_LENGTH)
        now = self.now()

        def work(conn: Connection) -> int:
            try:
                match_id = (
                    conn.execute(
                        insert(m.Match)
                        .values(
                            guild_id=guild_id,
                            channel_id=channel_id,
                            game=game,
                            variant=variant,
                            seed=str(int(seed)),
                            options=dict(options or {}),
                            status=status,
                            state=dict(state),
                            clock=json_or_none(clock),
                            host=json_or_none(host),
                            version=0,
                            last_seq=0,
                            created_at=now,
                            updated_at=now,
                            finished_at=now if status in m.ENDED_STATUSES else None,
                            practice_seat=practice.seat if practice else None,
                            practice_level=practice.level if practice else None,
                            language=language,
                            rated=rated,
                        )
                        .returning(m.Match.id)
                    )
                ).scalar_one()
            except IntegrityError as error:
                if channel_id is not None and is_room_taken(error):
                    raise RoomBusy(channel_id) from error
                raise
            insert_seats(conn, match_id, seats)
            return match_id

        def verify(conn: Connection) -> int | None:
            # A retry after a lost answer must not start the match twice (nor find its own room
            # busy): a match of this game and seed stamped with this very microsecond is ours.
            channel = m.Match.channel_id.is_(None) if channel_id is None else m.Match.channel_id == channel_id
            return (
                conn.execute(
                    select(m.Match.id).where(
                        channel, m.Match.created_at == now, m.Match.game == game, m.Match.seed == str(int(seed))
                    )
                )
            ).scalar_one_or_none()

        match_id = await self._transaction(work, write=True, what=say("starting a match"), verify=verify)
        return await self.get_match(match_id)

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match as last committed; raises :class:`MatchNotFound`."""

        def work(conn: Connection) -> MatchRecord:
            found = self._load_matches(conn, m.Match.id == match_id)
            if not found:
                raise MatchNotFound(match_id)
            return found[0]

        return await self._transaction(work, write=False, what=say("reading a match"))

    async def live_matches(self, *, include_paused: bool = True) -> list[MatchRecord]:
        """Every unfinished match (live, and paused unless ``include_paused`` is false), oldest first."""
        statuses = m.UNFINISHED_STATUSES if include_paused else (m.MatchStatus.LIVE,)

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(conn, m.Match.status.in_(statuses))

        return await self._transaction(work, write=False, what=say("listing live matches"))

    async def live_match_in_channel(self, channel_id: int) -> MatchRecord | None:
        """The live or paused match in the game room ``channel_id``, if any."""

        def work(conn: Connection) -> MatchRecord | None:
            found = self._load_matches(
                conn, and_(m.Match.channel_id == channel_id, m.Match.status.in_(m.UNFINISHED_STATUSES))
            )
            return found[0] if found else None

        return await self._transaction(work, write=False, what=say("finding the match of a room"))

    async def live_matches_of_user(self, user_id: int) -> list[MatchRecord]:
        """The live or paused matches in which ``user_id`` holds a seat, oldest first."""

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(
                conn,
                and_(
                    m.Match.status.in_(m.UNFINISHED_STATUSES),
                    m.Match.id.in_(select(m.Seat.match_id).where(m.Seat.user_id == user_id)),
                ),
            )

        return await self._transaction(work, write=False, what=say("finding a player's matches"))

    async def finished_matches(
        self,
        guild_id: int | None,
        *,
        player: int | None = None,
        game: str | None = None,
        channel: int | None = None,
        limit: int = 20,
        include_aborted: bool = False,
    ) -> list[MatchRecord]:
        """Ended matches of a guild (``None``: console matches), newest first.

        ``player`` keeps those in which that user held a seat; ``game`` those of that game;
        ``channel`` those played in that channel.
        """
        statuses = m.ENDED_STATUSES if include_aborted else (m.MatchStatus.FINISHED,)
        conditions: list[ColumnElement[bool]] = [m.Match.status.in_(statuses)]
        conditions.append(m.Match.guild_id.is_(None) if guild_id is None else m.Match.guild_id == guild_id)
        if player is not None:
            conditions.append(m.Match.id.in_(select(m.Seat.match_id).where(m.Seat.user_id == player)))
        if game is not None:
            conditions.append(m.Match.game == game)
        if channel is not None:
            conditions.append(m.Match.channel_id == channel)

        def work(conn: Connection) -> list[MatchRecord]:
            return self._load_matches(
                conn, and_(*conditions), order=(m.Match.finished_at.desc(), m.Match.id.desc()), limit=limit
            )

        return await self._transaction(work, write=False, what=say("listing finished matches"))

    def _load_matches(
        self,
        conn: Connection,
        where: Any,
        *,
        order: Sequence[Any] = (),
        limit: int | None = None,
    ) -> list[MatchRecord]:
        query = select(m.Match.__table__).where(where).order_by(*(order or (m.Match.id,)))
        if limit is not None:
            query = query.limit(limit)
        rows = (conn.execute(query)).all()
        if not rows:
            return []
        ids = [row.id for row in rows]
        seats: dict[int, list[Any]] = {i: [] for i in ids}
        # Chunked, since SQLite caps the number of bound parameters of one statement.
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            for seat in (conn.execute(select(m.Seat.__table__).where(m.Seat.match_id.in_(chunk)))).all():
                seats[seat.match_id].append(seat)
        return [match_from_row(row, seats[row.id]) for row in rows]

    async def commit_action(
        self,
        match_id: int,
        expected_version: int,
        action: NewAction | None,
        *,
        state: Mapping[str, Any] = UNSET,
        clock: Mapping[str, Any] | None = UNSET,
        host: Mapping[str, Any] | None = UNSET,
        status: str = UNSET,
        result: Result | None = UNSET,
        done_timer: TimerRecord | None = None,
    ) -> Committed:
        """Append ``action`` (accepted) and replace the snapshot, in one transaction.

        Only the snapshot fields given are replaced; the others stay. Moving ``status`` to
        ``finished`` or ``aborted`` stamps ``finished_at``. ``action`` may be ``None`` to save
        the snapshot alone. Raises :class:`StaleVersion` (and writes nothing) unless the match
        is still at ``expected_version``; :class:`MatchNotFound` if there is no such match.
        ``done_timer``: a delivered timer whose work this commit is; that very row (same id,
        kind and due time) is deleted in the same transaction, saving the dispatcher a write.
        An action with a ``key`` the log has taken already raises :class:`DuplicateSubmission`
        and writes nothing. When the COMMIT's answer is lost and the database stays away past
        the retries, :class:`CommitUnknown` says so; with a key, :meth:`find_submission` tells later.
        """
        if status is not UNSET and status not in m.MATCH_STATUSES:
            raise ValueError(f"unknown match status {status!r}")
        check_action(action)
        if result is not UNSET and result is not None:
            check_length("winner", result.winner, 16)
            check_length("termination", result.termination, m.TERMINATION_LENGTH)
        now = self.now()
        at = aware(action.at) if action is not None and action.at is not None else now
        values: dict[str, Any] = {"p_id": match_id, "p_expected": expected_version, "p_updated_at": now}
        if state is not UNSET:
            values["p_state"] = dict(state)
        if clock is not UNSET:
            values["p_clock"] = json_or_none(clock)
        if host is not UNSET:
            values["p_host"] = json_or_none(host)
        if status is not UNSET:
            values["p_status"] = status
            values["p_finished_at"] = now if status in m.ENDED_STATUSES else None
        if result is not UNSET:
            values["p_winner"] = None if result is None else result.winner
            values["p_reason"] = None if result is None else db_text(result.reason)
            values["p_termination"] = None if result is None else result.termination
            values["p_outcome"] = None if result is None or result.termination is None else dict(result.data)
        replaced = (
            state is not UNSET,
            clock is not UNSET,
            host is not UNSET,
            status is not UNSET,
            result is not UNSET,
            action is not None,
        )
        timer_params = None if done_timer is None else exact_params(done_timer)
        key = action.key if action is not None else None
        # PostgreSQL: the snapshot and the log row in one statement (one round trip, not two).
        logged = action is not None and self.dialect == "postgresql"
        statement = logged_commit(replaced) if logged else commit_update(replaced)
        if logged:
            assert action is not None
            values.update(action_params(match_id, 0, action, at, accepted=True))
            del values["p_seq"]  # the update's last_seq

        # SQLite: the update and the log row run on the driver's cursor (see :class:`OnSQLite`).
        sqlite = self.dialect == "sqlite"

        def work(conn: Connection) -> Committed:
            row: Any
            try:
                if sqlite:
                    row = on_sqlite(statement, conn.dialect).run(conn, values)
                else:
                    row = conn.execute(statement, values).first()
            except IntegrityError as error:
                if logged and key is not None and is_duplicate_key(error):
                    raise DuplicateSubmission(match_id, key) from error  # the snapshot is not replaced either
                raise
            if row is None:
                actual = conn.execute(MATCH_VERSION, {"p_id": match_id}).scalar_one_or_none()
                if actual is None:
                    raise MatchNotFound(match_id)
                if key is not None and (seq := self._submission_seq(conn, match_id, key)) is not None:
                    raise DuplicateSubmission(match_id, key, seq)  # the match moved on with it
                raise StaleVersion(match_id, expected_version, actual)
            if timer_params is not None:
                conn.execute(DELETE_EXACT_TIMER, timer_params)
            if status == m.MatchStatus.FINISHED:
                rate_ended(conn, match_id, now)  # a rated match's ratings land with its end
                score_ended(conn, match_id)  # and a tournament match's result in its pairing
            version, last_seq = row[0], row[1]  # the update returns (version, last_seq)
            if action is None or logged:
                return Committed(last_seq if logged else None, version)
            logged_row = action_params(match_id, last_seq, action, at, accepted=True)
            try:
                if sqlite:
                    on_sqlite(INSERT_ACTION, conn.dialect).run(conn, logged_row)
                else:
                    conn.execute(INSERT_ACTION, logged_row)
            except IntegrityError as error:
                if key is not None and is_duplicate_key(error):
                    raise DuplicateSubmission(match_id, key) from error  # rolled back, the snapshot too
                raise
            return Committed(last_seq, version)

        def verify(conn: Connection) -> Committed | None:
            # Did the try whose COMMIT broke land after all? With a key, its row says so; the
            # match's row lock first waits out that COMMIT if the server is still on it.
            if key is not None:
                if not self._lock_match(conn, match_id):
                    return None
                seq = self._submission_seq(conn, match_id, key)
                return None if seq is None else Committed(seq, expected_version + 1)
            # Without one: the match is one version on and (with an action) its newest log row
            # is ours, to the microsecond.
            row = (
                conn.execute(
                    select(m.Match.version, m.Match.last_seq, m.Match.updated_at).where(m.Match.id == match_id)
                )
            ).first()
            if row is None or row.version != expected_version + 1 or row.updated_at != now:
                return None
            if action is None:
                return Committed(None, row.version)
            last = (
                conn.execute(
                    select(m.Action.__table__).where(m.Action.match_id == match_id, m.Action.seq == row.last_seq)
                )
            ).first()
            if last is None or last.at != at or last.text != db_text(action.text) or last.kind != action.kind:
                return None
            return Committed(row.last_seq, row.version)

        return await self._transaction(work, write=True, what=say("committing an action"), verify=verify)

    @staticmethod
    def _lock_match(conn: Connection, match_id: int) -> bool:
        """Lock the match's row (waiting at most a few seconds); whether the match exists."""
        if conn.dialect.name == "postgresql":
            conn.execute(LOCK_WAIT)
        return conn.execute(LOCK_MATCH, {"p_id": match_id}).first() is not None

    @staticmethod
    def _submission_seq(conn: Connection, match_id: int, key: str) -> int | None:
        seq: int | None = conn.execute(SUBMISSION_SEQ, {"p_match_id": match_id, "p_key": key}).scalar_one_or_none()
        return seq

    async def find_submission(self, match_id: int, key: str) -> ActionRecord | None:
        """The taken action of the submission ``key`` in the match's log, or ``None`` if it was
        never taken (then it never will be: the commit that carried it is over, landed or not).

        It takes the match's write lock first (its row lock on PostgreSQL), so a COMMIT the server
        is still finishing for a connection that broke is waited for, never read past. Raises
        :class:`MatchNotFound` if there is no such match, :class:`StorageUnavailable` while the
        database cannot be reached.
        """

        def work(conn: Connection) -> ActionRecord | None:
            if not self._lock_match(conn, match_id):
                raise MatchNotFound(match_id)
            row = conn.execute(
                select(m.Action.__table__).where(m.Action.match_id == match_id, m.Action.key == key)
            ).first()
            return None if row is None else action_from_row(row)

        return await self._transaction(work, write=True, what=say("finding a submission"))

    async def append_rejected(self, match_id: int, action: NewAction, error: str) -> int:
        """Log a refused submission with the reason the player was given; return its seq.

        The snapshot and the version stay as they are. The log keeps no key for it (the same
        submission may be refused again); but if its ``key`` was taken already, it is not logged
        and :class:`DuplicateSubmission` says so (a resend of a taken move is no new refusal).
        """
        check_action(action)
        now = self.now()
        at = aware(action.at) if action.at is not None else now
        key = action.key

        def work(conn: Connection) -> int:
            if key is not None and (taken := self._submission_seq(conn, match_id, key)) is not None:
                raise DuplicateSubmission(match_id, key, taken)
            seq: int | None = conn.execute(NEXT_SEQ, {"p_id": match_id}).scalar_one_or_none()
            if seq is None:
                raise MatchNotFound(match_id)
            conn.execute(INSERT_ACTION, action_params(match_id, seq, action, at, accepted=False, error=error))
            return seq

        def verify(conn: Connection) -> int | None:
            last = (
                conn.execute(
                    select(m.Action.__table__)
                    .where(m.Action.match_id == match_id)
                    .order_by(m.Action.seq.desc())
                    .limit(1)
                )
            ).first()
            if last is not None and not last.accepted and last.at == at and last.text == db_text(action.text):
                return int(last.seq)
            return None

        return await self._transaction(work, write=True, what=say("logging a refused submission"), verify=verify)

    async def actions(
        self, match_id: int, *, after_seq: int = 0, accepted_only: bool = False, limit: int | None = None
    ) -> list[ActionRecord]:
        """The match's log in order (those with ``seq`` above ``after_seq``; the first ``limit``).

        Raises :class:`MatchNotFound` if there is no such match.
        """

        def work(conn: Connection) -> list[ActionRecord]:
            exists = (conn.execute(select(m.Match.id).where(m.Match.id == match_id))).first()
            if exists is None:
                raise MatchNotFound(match_id)
            query = (
                select(m.Action.__table__)
                .where(m.Action.match_id == match_id, m.Action.seq > after_seq)
                .order_by(m.Action.seq)
            )
            if accepted_only:
                query = query.where(m.Action.accepted.is_(True))
            if limit is not None:
                query = query.limit(limit)
            return [action_from_row(row) for row in (conn.execute(query)).all()]

        return await self._transaction(work, write=False, what=say("reading a match log"))
