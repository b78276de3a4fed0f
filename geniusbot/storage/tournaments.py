"""The store's tournaments (the tables of :mod:`.tournament_models`).

A round is opened exactly once: its row and its pairings land in one transaction, and a second
opening (a restart, a second process) finds the row and returns the pairings already there. A
pairing's match is found again after a restart through the thread it was claimed for
(:meth:`TournamentStore.claim_room`, then :meth:`TournamentStore.match_in_room`), so no game is
started twice. A tournament match's result lands in its pairing in the very transaction that
records the match's end (:func:`score_ended`, called by :meth:`~.matches.MatchStore.commit_action`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Row, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m, tournament_models as t
from .transactions import Transactions

SIGNUP, RUNNING, PAUSED, FINISHED = "signup", "running", "paused", "finished"


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    variant: str
    clock: str | None
    format: str
    rounds: int | None
    status: str
    signup_deadline: datetime | None
    message_id: int | None
    current_round: int


@dataclass(frozen=True)
class Entry:
    """A player of a tournament."""

    user_id: int
    display_name: str
    rating: float
    seed: int | None
    withdrawn: bool


@dataclass(frozen=True)
class Pairing:
    """A game of a round (``second_id`` ``None``: a bye); ``score``: the first player's."""

    round: int
    board: int
    first_id: int
    second_id: int | None
    channel_id: int | None
    match_id: int | None
    score: float | None
    note: str | None


def _tournament(row: Row[tuple[object, ...]]) -> TournamentRecord:
    r = row._mapping
    return TournamentRecord(**{name: r[name] for name in TournamentRecord.__dataclass_fields__})


def _pairing(row: Row[tuple[object, ...]]) -> Pairing:
    r = row._mapping
    return Pairing(**{name: r[name] for name in Pairing.__dataclass_fields__})


def match_score(conn: Connection, match_id: int) -> float | None:
    """Seat p1's score in an ended match (1, 0.5, 0); ``None`` while it runs or once it was aborted."""
    row = conn.execute(select(m.Match.status, m.Match.winner).where(m.Match.id == match_id)).first()
    if row is None or row.status != m.MatchStatus.FINISHED:
        return None
    return 0.5 if row.winner is None else 1.0 if row.winner == "p1" else 0.0


def score_ended(conn: Connection, match_id: int) -> bool:
    """Give a tournament match's pairing the result of its end; whether it was one (the caller's
    transaction)."""
    score = match_score(conn, match_id)
    if score is None:
        return False
    done = conn.execute(
        update(t.TournamentPairing)
        .where(t.TournamentPairing.match_id == match_id, t.TournamentPairing.score.is_(None))
        .values(score=score)
    )
    return bool(done.rowcount)


class TournamentStore(Transactions):
    """Tournaments: one transaction per call."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        variant: str,
        clock: str | None,
        form: str,
        rounds: int | None,
        deadline: datetime | None,
    ) -> TournamentRecord:
        """A tournament open for sign-up."""
        now = datetime.now(UTC)

        def work(conn: Connection) -> TournamentRecord:
            new = conn.execute(
                insert(t.Tournament)
                .values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    game=game,
                    variant=variant,
                    clock=clock,
                    format=form,
                    rounds=rounds,
                    status=SIGNUP,
                    signup_deadline=deadline,
                    current_round=0,
                    created_at=now,
                )
                .returning(t.Tournament.id)
            ).scalar_one()
            return _tournament(conn.execute(select(t.Tournament.__table__).where(t.Tournament.id == new)).one())

        return await self._transaction(work, write=True, what=say("creating a tournament"))

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        def work(conn: Connection) -> TournamentRecord | None:
            row = conn.execute(select(t.Tournament.__table__).where(t.Tournament.id == tournament_id)).first()
            return None if row is None else _tournament(row)

        return await self._transaction(work, write=False, what=say("reading a tournament"))

    async def tournaments(self, *, statuses: Sequence[str], guild_id: int | None = None) -> list[TournamentRecord]:
        """The tournaments in one of ``statuses`` (of one guild if given), oldest first."""

        def work(conn: Connection) -> list[TournamentRecord]:
            query = select(t.Tournament.__table__).where(t.Tournament.status.in_(statuses))
            if guild_id is not None:
                query = query.where(t.Tournament.guild_id == guild_id)
            return [_tournament(row) for row in conn.execute(query.order_by(t.Tournament.id))]

        return await self._transaction(work, write=False, what=say("reading the tournaments"))

    async def update_tournament(self, tournament_id: int, **values: object) -> None:
        """Set a tournament's ``status``, ``message_id``, ``rounds``, ``signup_deadline`` (no other column)."""
        assert set(values) <= {"status", "message_id", "rounds", "signup_deadline"}

        def work(conn: Connection) -> None:
            conn.execute(update(t.Tournament).where(t.Tournament.id == tournament_id).values(**values))

        await self._transaction(work, write=True, what=say("updating a tournament"))

    async def join_tournament(self, tournament_id: int, user_id: int, name: str, rating: float) -> bool:
        """Sign a player up while the tournament takes sign-ups; whether they were not already."""
        now = datetime.now(UTC)

        def work(conn: Connection) -> bool:
            status = conn.execute(select(t.Tournament.status).where(t.Tournament.id == tournament_id)).scalar()
            if status != SIGNUP:
                return False
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            row = {"tournament_id": tournament_id, "user_id": user_id, "display_name": name[:100]}
            done = conn.execute(
                dialect.insert(t.TournamentPlayer)
                .values(**row, rating=rating, withdrawn=False, joined_at=now)
                .on_conflict_do_nothing()
            )
            return bool(done.rowcount)

        return await self._transaction(work, write=True, what=say("signing a player up"))

    async def entries(self, tournament_id: int) -> list[Entry]:
        """The players, by seed once seeded (by sign-up before)."""

        def work(conn: Connection) -> list[Entry]:
            p = t.TournamentPlayer
            rows = conn.execute(
                select(p.user_id, p.display_name, p.rating, p.seed, p.withdrawn)
                .where(p.tournament_id == tournament_id)
                .order_by(p.seed, p.joined_at, p.user_id)
            ).all()
            return [Entry(r.user_id, r.display_name, r.rating, r.seed, r.withdrawn) for r in rows]

        return await self._transaction(work, write=False, what=say("reading a tournament's players"))

    async def start_tournament(self, tournament_id: int, seeds: Sequence[int], rounds: int) -> bool:
        """Seed the players (``seeds``: user ids, the best first) and run it; whether it was taking sign-ups."""

        def work(conn: Connection) -> bool:
            done = conn.execute(
                update(t.Tournament)
                .where(t.Tournament.id == tournament_id, t.Tournament.status == SIGNUP)
                .values(status=RUNNING, rounds=rounds)
            )
            if not done.rowcount:
                return False
            p = t.TournamentPlayer
            for seed, user_id in enumerate(seeds, 1):
                conn.execute(update(p).where(p.tournament_id == tournament_id, p.user_id == user_id).values(seed=seed))
            return True

        return await self._transaction(work, write=True, what=say("starting a tournament"))

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Withdraw a player (paired no more); whether they were in and not withdrawn yet."""

        def work(conn: Connection) -> bool:
            p = t.TournamentPlayer
            done = conn.execute(
                update(p)
                .where(p.tournament_id == tournament_id, p.user_id == user_id, p.withdrawn.is_(False))
                .values(withdrawn=True)
            )
            return bool(done.rowcount)

        return await self._transaction(work, write=True, what=say("withdrawing a player"))

    async def open_round(
        self, tournament_id: int, number: int, games: Sequence[tuple[int, int | None]]
    ) -> list[Pairing]:
        """Open round ``number`` with ``games`` (user ids; a bye scores its player a win) once:
        if it is open already, its pairings as they were are returned and ``games`` is ignored."""
        now = datetime.now(UTC)

        def work(conn: Connection) -> list[Pairing]:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            opened = conn.execute(
                dialect.insert(t.TournamentRound)
                .values(tournament_id=tournament_id, number=number, opened_at=now)
                .on_conflict_do_nothing()
            )
            if opened.rowcount:
                for board, (first, second) in enumerate(games, 1):
                    conn.execute(
                        insert(t.TournamentPairing).values(
                            tournament_id=tournament_id,
                            round=number,
                            board=board,
                            first_id=first,
                            second_id=second,
                            score=1.0 if second is None else None,
                        )
                    )
                conn.execute(update(t.Tournament).where(t.Tournament.id == tournament_id).values(current_round=number))
            return _pairings(conn, tournament_id, number)

        return await self._transaction(work, write=True, what=say("opening a round"))

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """Every pairing of the tournament, by round and board."""
        return await self._transaction(
            lambda conn: _pairings(conn, tournament_id), write=False, what=say("reading a tournament's pairings")
        )

    async def claim_room(self, tournament_id: int, number: int, board: int, channel_id: int) -> int:
        """Keep ``channel_id`` as the room of a pairing that has none; the pairing's room."""

        def work(conn: Connection) -> int:
            p = t.TournamentPairing
            key = (p.tournament_id == tournament_id, p.round == number, p.board == board)
            conn.execute(update(p).where(*key, p.channel_id.is_(None)).values(channel_id=channel_id))
            room = conn.execute(select(p.channel_id).where(*key)).scalar_one()
            assert room is not None
            return int(room)

        return await self._transaction(work, write=True, what=say("keeping a pairing's room"))

    async def match_in_room(self, channel_id: int) -> int | None:
        """The latest match started in a room, whatever its status."""

        def work(conn: Connection) -> int | None:
            query = select(m.Match.id).where(m.Match.channel_id == channel_id).order_by(m.Match.id.desc()).limit(1)
            return conn.execute(query).scalar()

        return await self._transaction(work, write=False, what=say("finding a pairing's match"))

    async def set_pairing_match(self, tournament_id: int, number: int, board: int, match_id: int) -> None:
        """Keep the match a pairing is played in, and its result if it has ended already."""

        def work(conn: Connection) -> None:
            p = t.TournamentPairing
            key = (p.tournament_id == tournament_id, p.round == number, p.board == board)
            conn.execute(update(p).where(*key).values(match_id=match_id))
            score = match_score(conn, match_id)
            if score is not None:
                conn.execute(update(p).where(*key, p.score.is_(None)).values(score=score))

        await self._transaction(work, write=True, what=say("keeping a pairing's match"))

    async def set_result(self, tournament_id: int, number: int, board: int, score: float, note: str | None) -> bool:
        """Give a pairing a result (the host's replacement, ``note`` its reason; a forfeit); whether it exists."""

        def work(conn: Connection) -> bool:
            p = t.TournamentPairing
            key = (p.tournament_id == tournament_id, p.round == number, p.board == board)
            return bool(conn.execute(update(p).where(*key).values(score=score, note=note)).rowcount)

        return await self._transaction(work, write=True, what=say("changing a pairing's result"))

    async def tournament_of_match(self, match_id: int) -> int | None:
        """The tournament a match is played for, if any."""

        def work(conn: Connection) -> int | None:
            p = t.TournamentPairing
            return conn.execute(select(p.tournament_id).where(p.match_id == match_id)).scalar()

        return await self._transaction(work, write=False, what=say("finding a match's tournament"))


def _pairings(conn: Connection, tournament_id: int, number: int | None = None) -> list[Pairing]:
    p = t.TournamentPairing
    query = select(p.__table__).where(p.tournament_id == tournament_id)
    if number is not None:
        query = query.where(p.round == number)
    return [_pairing(row) for row in conn.execute(query.order_by(p.round, p.board))]
