"""The store's ratings: each player's Glicko-2 rating per guild, game and rule set (the ``ratings``
table) and what each rated match did to it (``rating_changes``).

A rated match's end moves its players' ratings in the very transaction that records the end
(:func:`rate_ended`, called by :meth:`~.matches.MatchStore.commit_action` and by an import): the
result and the ratings land together or not at all. A match is rated when it was started so
(``matches.rated``), ended ``finished`` (an aborted match never counts), belongs to a guild, and
seats two different people (never the practice opponent). The arithmetic is :mod:`geniusbot.ratings`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from geniusbot.ratings import DRAW, LOSS, WIN, Rating, rate_match
from geniusbot.words import say

from . import models as m
from .transactions import Transactions

#: The seat whose advantage the archive measures: the one the match record lists first.
FIRST_SEAT = "p1"


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game and rule set of a guild, and the rated matches behind it."""

    user_id: int
    display_name: str
    game: str
    variant: str
    rating: float
    rd: float
    volatility: float
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        """How many rated matches the rating is made of."""
        return self.wins + self.losses + self.draws

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (:data:`geniusbot.ratings.PROVISIONAL_RD`)."""
        return Rating(self.rating, self.rd, self.volatility).provisional


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated match (``before``: the rating it moved from)."""

    match_id: int
    at: datetime
    game: str
    variant: str
    #: The player's rated matches in the game and rule set with this one.
    number: int
    before: float
    rating: float
    rd: float


@dataclass(frozen=True)
class FirstSeat:
    """How the first seat has done in a guild's rated matches of a game and rule set: ``matches``
    played and ``score`` its points in them (a win 1, a draw 0.5)."""

    matches: int
    score: float

    @property
    def share(self) -> float | None:
        """The first seat's share of the points (0.5: no advantage); ``None`` before any match."""
        return self.score / self.matches if self.matches else None


def _ensure(conn: Connection, rows: list[dict[str, object]]) -> None:
    """Insert the rating rows that do not exist yet (a first rated match), racing no one."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(m.PlayerRating).values(rows).on_conflict_do_nothing())


def rate_ended(conn: Connection, match_id: int, now: datetime) -> bool:
    """Move the ratings of match ``match_id``'s players if it is a rated match that has just
    finished and has not moved them yet; whether it did. Runs in the caller's transaction."""
    match = conn.execute(
        select(
            m.Match.guild_id,
            m.Match.game,
            m.Match.variant,
            m.Match.rated,
            m.Match.status,
            m.Match.winner,
            m.Match.practice_seat,
        ).where(m.Match.id == match_id)
    ).first()
    if match is None or not match.rated or match.status != m.MatchStatus.FINISHED or match.guild_id is None:
        return False
    if match.practice_seat is not None:
        return False  # the practice opponent is no player
    seats = conn.execute(
        select(m.Seat.seat, m.Seat.user_id, m.Seat.display_name)
        .where(m.Seat.match_id == match_id)
        .order_by(m.Seat.seat)
    ).all()
    if len(seats) != 2 or None in (seats[0].user_id, seats[1].user_id) or seats[0].user_id == seats[1].user_id:
        return False
    if match.winner not in (None, seats[0].seat, seats[1].seat):
        return False
    done = conn.execute(select(m.RatingChange.match_id).where(m.RatingChange.match_id == match_id).limit(1)).first()
    if done is not None:
        return False
    score = DRAW if match.winner is None else WIN if match.winner == seats[0].seat else LOSS
    place = {"guild_id": match.guild_id, "game": match.game, "variant": match.variant}
    _ensure(
        conn,
        [
            {**place, "user_id": s.user_id, "display_name": s.display_name, "updated_at": now}
            | {"rating": Rating().rating, "rd": Rating().rd, "volatility": Rating().volatility}
            | {"wins": 0, "losses": 0, "draws": 0}
            for s in sorted(seats, key=lambda s: s.user_id)  # in the order of the locks below
        ],
    )
    # Locked in the order of user ids, so two matches ending at once never wait on each other in a circle.
    kept = {
        row.user_id: row
        for row in conn.execute(
            select(m.PlayerRating.__table__)
            .where(
                m.PlayerRating.guild_id == match.guild_id,
                m.PlayerRating.game == match.game,
                m.PlayerRating.variant == match.variant,
                m.PlayerRating.user_id.in_([s.user_id for s in seats]),
            )
            .order_by(m.PlayerRating.user_id)
            .with_for_update()
        ).all()
    }
    before = [Rating(kept[s.user_id].rating, kept[s.user_id].rd, kept[s.user_id].volatility) for s in seats]
    after = rate_match(before[0], before[1], score)
    for seat, old, new, points in zip(seats, before, after, (score, 1.0 - score)):
        tally = "wins" if points == WIN else "losses" if points == LOSS else "draws"
        conn.execute(
            update(m.PlayerRating)
            .where(
                m.PlayerRating.guild_id == match.guild_id,
                m.PlayerRating.game == match.game,
                m.PlayerRating.variant == match.variant,
                m.PlayerRating.user_id == seat.user_id,
            )
            .values(
                rating=new.rating,
                rd=new.rd,
                volatility=new.volatility,
                display_name=seat.display_name,
                updated_at=now,
                **{tally: getattr(m.PlayerRating, tally) + 1},
            )
        )
        conn.execute(
            insert(m.RatingChange).values(
                match_id=match_id,
                user_id=seat.user_id,
                seat=seat.seat,
                number=kept[seat.user_id].wins + kept[seat.user_id].losses + kept[seat.user_id].draws + 1,
                score=points,
                rating_before=old.rating,
                rd_before=old.rd,
                rating=new.rating,
                rd=new.rd,
                volatility=new.volatility,
                at=now,
                **place,
            )
        )
    return True


def _standing(row: Any) -> Standing:
    return Standing(
        row.user_id,
        row.display_name,
        row.game,
        row.variant,
        row.rating,
        row.rd,
        row.volatility,
        row.wins,
        row.losses,
        row.draws,
    )


class RatingStore(Transactions):
    """Reading the ratings: one transaction per call."""

    async def leaderboard(
        self, guild_id: int, game: str, variant: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[Standing], int]:
        """A page of a guild's ratings in a game and rule set, highest first (the first rated
        earlier on a tie), and how many players are rated there in all."""
        where = (m.PlayerRating.guild_id == guild_id, m.PlayerRating.game == game, m.PlayerRating.variant == variant)

        def work(conn: Connection) -> tuple[list[Standing], int]:
            total = conn.execute(select(func.count()).select_from(m.PlayerRating).where(*where)).scalar_one()
            rows = conn.execute(
                select(m.PlayerRating.__table__)
                .where(*where)
                .order_by(m.PlayerRating.rating.desc(), m.PlayerRating.user_id)
                .offset(offset)
                .limit(limit)
            ).all()
            return [_standing(row) for row in rows], int(total)

        return await self._transaction(work, write=False, what=say("reading the leaderboard"))

    async def player_ratings(self, guild_id: int, user_id: int) -> list[Standing]:
        """A player's ratings in a guild, one per game and rule set, the most played first."""

        def work(conn: Connection) -> list[Standing]:
            rows = conn.execute(
                select(m.PlayerRating.__table__).where(
                    m.PlayerRating.guild_id == guild_id, m.PlayerRating.user_id == user_id
                )
            ).all()
            found = [_standing(row) for row in rows]
            return sorted(found, key=lambda s: (-s.games, s.game, s.variant))

        return await self._transaction(work, write=False, what=say("reading a player's ratings"))

    async def rating_history(
        self, guild_id: int, user_id: int, *, game: tuple[str, str] | None = None, limit: int = 500
    ) -> list[RatingPoint]:
        """A player's rating after each of their latest ``limit`` rated matches in a guild (in one
        ``game`` and rule set if given, in the order the rating moved), oldest first."""

        def work(conn: Connection) -> list[RatingPoint]:
            change = m.RatingChange
            query = select(change.__table__).where(change.guild_id == guild_id, change.user_id == user_id)
            if game is None:
                query = query.order_by(change.at.desc(), change.number.desc())
            else:
                query = query.where(change.game == game[0], change.variant == game[1]).order_by(change.number.desc())
            rows = conn.execute(query.limit(limit)).all()
            return [
                RatingPoint(r.match_id, r.at, r.game, r.variant, r.number, r.rating_before, r.rating, r.rd)
                for r in reversed(rows)
            ]

        return await self._transaction(work, write=False, what=say("reading a player's rating history"))

    async def first_seat(self, guild_id: int, game: str, variant: str) -> FirstSeat:
        """How the first seat has scored in the guild's rated matches of a game and rule set."""

        def work(conn: Connection) -> FirstSeat:
            change = m.RatingChange
            row = conn.execute(
                select(func.count(), func.coalesce(func.sum(change.score), 0.0)).where(
                    change.guild_id == guild_id,
                    change.game == game,
                    change.variant == variant,
                    change.seat == FIRST_SEAT,
                )
            ).one()
            return FirstSeat(int(row[0]), float(row[1]))

        return await self._transaction(work, write=False, what=say("measuring the first seat"))
