"""The tournament tables (:mod:`.tournaments`): a tournament, its players, its rounds and each
round's pairings. A round is a row before its pairings, so that it is opened exactly once; a
pairing names the match it is played in once that match is started."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class Tournament(Base):
    """A tournament of one game and rule set in a guild, run by the bot in ``channel_id``'s threads."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    clock: Mapped[str | None] = mapped_column(String(64))
    # ``swiss``, ``round_robin``, ``single_elimination`` (geniusbot.tournaments).
    format: Mapped[str] = mapped_column(String(32))
    # The rounds it plays (known once it starts; a Swiss's as its host asked).
    rounds: Mapped[int | None] = mapped_column(Integer)
    # ``signup``, ``running``, ``paused``, ``finished``.
    status: Mapped[str] = mapped_column(String(16))
    signup_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The sign-up message (its button), once posted.
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    current_round: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TournamentPlayer(Base):
    """A player signed up for a tournament: its seed (1: the best rated) once it starts."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    rating: Mapped[float] = mapped_column(Float)
    seed: Mapped[int | None] = mapped_column(Integer)
    withdrawn: Mapped[bool] = mapped_column(Boolean, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TournamentRound(Base):
    """A round opened: its row and its pairings land in one transaction, once."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TournamentPairing(Base):
    """One game of a round: ``first_id`` (seat p1) against ``second_id`` (p2; NULL: a bye), the
    thread and match it is played in, and the first player's score (1, 0.5, 0; NULL: playing)."""

    __tablename__ = "tournament_pairings"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    board: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    first_id: Mapped[int] = mapped_column(BigInteger)
    second_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), unique=True, index=False
    )
    score: Mapped[float | None] = mapped_column(Float)
    # Why the host replaced the result (NULL: the match's own, or a bye's).
    note: Mapped[str | None] = mapped_column(Text)


__all__ = ["Tournament", "TournamentPairing", "TournamentPlayer", "TournamentRound"]
