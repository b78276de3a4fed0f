"""The steps a replay page shows, from a match record or from a stored match.

A :class:`PageStep` is one moment of the match as the room saw it: the board of the public view
(``game.view(None)``, which hides private submissions until the rules reveal them), drawn as the
host draws it (a PNG, or the text board for a game with no picture), what was played and by
whom, and the clocks. A private submission is listed as sent, never with its text: a page may be
passed around, and the record (``/record``) is where the private moves are.

* :func:`record_steps` rules a record's lines as ``geniusbot adjudicate`` does; every accepted
  line is a step (a refused one changes nothing, so it makes none). The clocks are the lines'
  annotations (``{p1=0:52+5:00}``).
* :func:`match_steps` reads an ended stored match's log through :func:`open_replay`, a step at a
  time; a match still being played is refused (it may hide what its players may not yet see).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from geniusbot.adjudicate import rule_on
from geniusbot.games import SEATS, Game, GameError, get_game
from geniusbot.host import board
from geniusbot.host.naming import name_seats
from geniusbot.host.replay import Step, open_replay, record_line
from geniusbot.storage import MatchStatus, Store
from geniusbot.storage.record import Record, game_from_record

#: The match statuses a page is made of: over, so nothing hidden is still to play for.
ENDED = (MatchStatus.FINISHED, MatchStatus.ABORTED)


class PageRefused(Exception):
    """No page is made; ``str(refusal)`` says why and what to do."""


@dataclass(frozen=True)
class PageStep:
    """One step of the page: ``seat`` is ``None`` for the start, ``"host"`` for the host's line.

    ``picture`` is the PNG of the public board (``None`` for a game without a picture, or one
    whose picture failed), ``board`` the text board then (``""`` with a picture). ``text`` is what
    was played (``""`` for the start and for a private submission, whose text the page keeps
    hidden).
    """

    index: int
    seat: str | None
    text: str
    private: bool
    picture: bytes | None
    board: str
    clocks: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PageMatch:
    """What a page is made of: its title, the players' names by seat, the result line and the steps."""

    title: str
    names: Mapping[str, str]
    result: str
    steps: list[PageStep]


def draw_step(
    index: int,
    game: Game,
    names: Mapping[str, str],
    *,
    seat: str | None = None,
    text: str = "",
    private: bool = False,
    clocks: Mapping[str, str] | None = None,
) -> PageStep:
    """The page step of ``game`` as it stands. The picture carries the names but neither the clocks
    nor the step's number (the page says them beside it), so a position that does not change
    (a private submission the room does not see) is the same picture, kept once in the page."""
    view = game.view(None)
    png = board.picture(view, players=names) if board.has_picture(game.name) else None
    shown = board.text_board(view) if png is None else ""
    return PageStep(index, seat, "" if private else text, private, png, shown, dict(clocks or {}))


def result_line(outcome_reason: str | None, names: Mapping[str, str], *, aborted: bool = False) -> str:
    """The page's result: the game's last word with the players' names, or that it has not ended."""
    if aborted:
        return "The match was aborted." + (f" {name_seats(outcome_reason, names)}" if outcome_reason else "")
    if outcome_reason is None:
        return "The game has not ended."
    return f"Result: {name_seats(outcome_reason, names)}"


def _players(names: Mapping[str, str]) -> str:
    return " vs ".join(names.values())


def record_steps(record: Record) -> PageMatch:
    """The page of a parsed record: the start, then one step per accepted line.

    Raises :class:`~geniusbot.storage.record.RecordError` when the headers describe no game.
    """
    game = game_from_record(record)
    names = {seat: record.header(seat.upper()).strip() or seat for seat in game.seats}
    steps = [draw_step(0, game, names)]
    for line in record.lines:
        clocks = {k: v for k, v in line.annotations.items() if k in game.seats}
        if line.seat in SEATS and line.text and not game.is_over:
            try:
                move, _ = game.submit(line.text, line.seat, private=line.private)
            except GameError:
                continue  # refused (the adjudicator's ruling): it changes nothing
            text = move.text()
        else:
            if rule_on(game, line) is not None:
                continue
            text = " ".join(line.text.lower().split())
        steps.append(draw_step(len(steps), game, names, seat=line.seat, text=text, private=line.private, clocks=clocks))
    outcome = game.outcome()
    title = f"{game.title}: {_players(names)}"
    event = record.header("Event").strip()
    return PageMatch(
        f"{title} ({event})" if event else title, names, result_line(outcome.reason if outcome else None, names), steps
    )


async def match_steps(store: Store, match_id: int) -> PageMatch:
    """The page of the ended stored match ``match_id`` (its log read and rebuilt a step at a time).

    Raises :class:`PageRefused` for a match that is still being played.
    """
    record = await store.get_match(match_id)
    if record.status not in ENDED:
        raise PageRefused(
            f"Match #{match_id} is still being played; its page can be made once it is over "
            "(until then it may hide what its players may not yet see)."
        )
    names = {s.seat: s.display_name or s.seat for s in record.seats}
    replay = await open_replay(store, match_id)
    steps = list(_replayed(replay.steps(), names))
    reason = record.result.reason if record.result is not None else None
    result = result_line(reason, names, aborted=record.status == MatchStatus.ABORTED)
    game_title = get_game(record.game).title
    if record.practice is not None:  # "<game>, practice (bot at normal)", as /replay says it
        game_title = f"{game_title}, {record.practice.describe()}"
    title = f"Match #{match_id}, {game_title}: {_players(names)}"
    return PageMatch(title, names, result, steps)


def _replayed(steps: Iterable[Step], names: Mapping[str, str]) -> Iterable[PageStep]:
    for step in steps:
        if step.action is None:
            yield draw_step(0, step.game, names, clocks=step.clocks)
            continue
        line = record_line(step.action, {})  # the action as a record writes it ("host: timeout p1")
        yield draw_step(
            step.index, step.game, names, seat=line.seat, text=line.text, private=line.private, clocks=step.clocks
        )
