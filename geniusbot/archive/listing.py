"""A found match as a list shows it, and a page of them: ``/replay``'s list and
``geniusbot archive list`` say the same ("#3 <the game's title>: alice vs bob, alice wins (2026-12-07)").
The search itself is the store's (:mod:`geniusbot.storage.archive`)."""

from __future__ import annotations

from geniusbot.games import get_game
from geniusbot.host.actions import versus
from geniusbot.storage import MatchRecord, MatchStatus
from geniusbot.storage.archive import ArchivePage
from geniusbot.words import Argument, Message, Verbatim, say, say_c, say_n


def result_text(record: MatchRecord) -> Message:
    """ "alice wins", "a draw" or "aborted"."""
    if record.status == MatchStatus.ABORTED:
        return say_c("a match's result", "aborted")
    if record.result is None or record.result.winner is None:
        return say_c("a match's result", "a draw")
    names = {s.seat: s.display_name for s in record.seats}
    return say("{player} wins", player=Verbatim(names.get(record.result.winner, record.result.winner)))


def title_of(record: MatchRecord) -> Argument:
    """The game's title, and for a practice match that it was one ("..., practice (bot at easy)")."""
    title: Argument = Verbatim(get_game(record.game).title)
    practice = record.practice
    if practice is None:
        return title
    if practice.level:
        return say("{title}, practice (bot at {level})", title=title, level=Verbatim(practice.level))
    return say("{title}, practice (bot)", title=title)


def players_of(record: MatchRecord) -> Verbatim | Message:
    """The players of a recorded match: "alice vs bob" (their display names as they are)."""
    return versus([Verbatim(s.display_name) for s in record.seats]) if record.seats else Verbatim("")


def listed(record: MatchRecord) -> Message:
    """A found match: "#3 <the game's title>: alice vs bob, alice wins (2026-12-07)", the title
    with its rule set for a game of several ("<the game's title> (influx)")."""
    title = title_of(record)
    if len(get_game(record.game).variants) > 1:
        title = say("{title} ({variant})", title=title, variant=Verbatim(record.variant))
    return say(
        "#{match} {title}: {players}, {result} ({date})",
        match=record.id,
        title=title,
        players=players_of(record),
        result=result_text(record),
        date=Verbatim(f"{(record.finished_at or record.updated_at):%Y-%m-%d}"),
    )


def page_said(page: ArchivePage) -> Message:
    """Where a page is: "Page 2 of 7 (64 matches found)."."""
    return say_n(
        "Page {page} of {pages} ({n} match found).",
        "Page {page} of {pages} ({n} matches found).",
        n=page.total,
        page=page.page,
        pages=page.pages,
    )
