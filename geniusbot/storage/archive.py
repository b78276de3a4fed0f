"""The archive's search: ended matches filtered by player, game, rule set, date range, result and
tournament, newest first, a page at a time (``/replay``'s list, ``geniusbot archive list``).

Every filter but the tournament is served by an index (revision ``0014``): the matches of a guild
by when they ended (``ix_matches_guild_id_finished_at``), by game and rule set
(``..._game_variant_finished_at``), by result (``..._winner_finished_at``), and a player's seats
by user id or name (``ix_seats_user_id``, ``ix_seats_display_name``). A page is one query for its
ids (``LIMIT``/``OFFSET``) and one for their rows; the count of all that match is one more.
``bench/bench_archive_list.py`` times them on 100,000 matches.

The tournament filter (:func:`_tournament`) finds the matches played for a tournament the bot ran
(``3`` or ``#3``: tournament 3's pairings, ``tournament_pairings``, by their primary key) and the
matches whose host data's ``event`` is the name given (an import keeps it from the record's
``Event`` header), this last applied after the other filters (no index).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.engine import Connection

from geniusbot.words import say

from . import models as m, tournament_models as t

if TYPE_CHECKING:
    from .store import Store
    from .values import MatchRecord

#: What a result filter may be: a seat won, a draw, or an aborted match.
RESULTS = ("p1", "p2", "draw", "aborted")
#: The most matches one page lists.
MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class ArchiveQuery:
    """What to find. ``guild_id`` is the server (``None``: console matches) unless ``any_guild``;
    ``player`` a Discord user id (an int) or a display name (a str, exact); ``since`` and
    ``until`` the first and last day the match ended (UTC, both kept); ``result`` one of
    :data:`RESULTS`; ``tournament`` the record's ``Event`` (see the module's note). ``page``
    counts from 1."""

    guild_id: int | None = None
    any_guild: bool = False
    player: int | str | None = None
    game: str | None = None
    variant: str | None = None
    since: date | None = None
    until: date | None = None
    result: str | None = None
    tournament: str | None = None
    page: int = 1
    size: int = 10

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"unknown result {self.result!r}: one of {', '.join(RESULTS)}")
        if self.page < 1 or not 1 <= self.size <= MAX_PAGE_SIZE:
            raise ValueError(f"page {self.page} of {self.size} matches: a page is 1 or more, of 1 to {MAX_PAGE_SIZE}")


@dataclass(frozen=True)
class ArchivePage:
    """One page of the matches found, newest first, and how many were found in all."""

    matches: list[MatchRecord]
    total: int
    page: int
    size: int

    @property
    def pages(self) -> int:
        """How many pages the matches found make (at least 1)."""
        return max(1, -(-self.total // self.size))


def _day(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


def _tournament(name: str) -> ColumnElement[bool]:
    """The matches of a tournament: the bot's tournament of that number (``3``, ``#3``), or an
    imported record's ``Event`` of that name."""
    event: ColumnElement[bool] = m.Match.host["event"].as_string() == name
    number = name.removeprefix("#").strip()
    if not number.isdigit() or len(number) > 9:
        return event
    p = t.TournamentPairing
    played = select(p.match_id).where(p.tournament_id == int(number), p.match_id.is_not(None))
    return or_(m.Match.id.in_(played), event)


def conditions(query: ArchiveQuery) -> list[ColumnElement[bool]]:
    """The WHERE of a query: ended matches (``finished_at`` is stamped when a match ends), and each filter."""
    # Only ``finished_at`` says "ended": a test of the status would lead SQLite's planner to the
    # status index, which holds nearly every match of an archive.
    found: list[ColumnElement[bool]] = [m.Match.finished_at.is_not(None)]
    if not query.any_guild:
        found.append(m.Match.guild_id.is_(None) if query.guild_id is None else m.Match.guild_id == query.guild_id)
    if query.game is not None:
        found.append(m.Match.game == query.game)
    if query.variant is not None:
        found.append(m.Match.variant == query.variant)
    if query.since is not None:
        found.append(m.Match.finished_at >= _day(query.since))
    if query.until is not None:
        found.append(m.Match.finished_at < _day(query.until + timedelta(days=1)))
    if query.result in ("p1", "p2"):
        found.append(m.Match.winner == query.result)  # an aborted match has no winner
    elif query.result == "draw":
        found.extend([m.Match.winner.is_(None), m.Match.status != m.MatchStatus.ABORTED])
    elif query.result == "aborted":
        found.append(m.Match.status == m.MatchStatus.ABORTED)
    if query.player is not None:
        seat = m.Seat.user_id == query.player if isinstance(query.player, int) else m.Seat.display_name == query.player
        found.append(m.Match.id.in_(select(m.Seat.match_id).where(seat)))
    if query.tournament is not None:
        found.append(_tournament(query.tournament))
    return found


async def find_matches(store: Store, query: ArchiveQuery) -> ArchivePage:
    """One page of the ended matches ``query`` finds, newest first, and their count."""
    where = and_(*conditions(query))
    order = (m.Match.finished_at.desc(), m.Match.id.desc())

    def work(conn: Connection) -> ArchivePage:
        total = conn.execute(select(func.count()).select_from(m.Match).where(where)).scalar_one()
        offset = (query.page - 1) * query.size
        ids: list[Any] = list(
            conn.execute(select(m.Match.id).where(where).order_by(*order).limit(query.size).offset(offset)).scalars()
        )
        matches = store._load_matches(conn, m.Match.id.in_(ids), order=order) if ids else []
        return ArchivePage(matches, int(total), query.page, query.size)

    return await store._transaction(work, write=False, what=say("searching the archive"))


def player_of(value: str) -> int | str:
    """A player filter as typed: a Discord user id (digits only, 15 or more of them) or a name."""
    text = value.strip()
    return int(text) if text.isdigit() and len(text) >= 15 else text


__all__ = ["MAX_PAGE_SIZE", "RESULTS", "ArchivePage", "ArchiveQuery", "find_matches", "player_of"]
