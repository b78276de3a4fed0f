"""The steps a replay page shows, from a match record or from a stored match.

A :class:`PageStep` is one moment of the match as the room saw it: the board of the public view
(``game.view(None)``, which hides private submissions until the rules reveal them), drawn as the
host draws it (a PNG, or the text board for a game with no picture), what was played and by
whom, and the clocks. A private submission is listed as sent, never with its text: a page may be
passed around, and the record (``/record``) is where the private moves are.

* :func:`record_steps` rules a record's lines as ``geniusbot adjudicate`` does; every accepted
  line is a step (a refused one changes nothing, so it makes none: it is noted on the step it
  followed, as a refused submission of a stored match is). The clocks are the lines'
  annotations (``{p1=0:52+5:00}``).
* :func:`match_steps` reads an ended stored match's log a page at a time and plays it through
  once; a match still being played is refused (it may hide what its players may not yet see).

Both play the game through once, each action applied once to one game (a
:class:`~geniusbot.host.replay.Replay` rebuilds every step from its nearest snapshot, which is
right for stepping to and fro but costs up to 63 actions a step in order). A picture is drawn
at zlib level 9 by the band encoder (:mod:`geniusbot.render.png`): the bands a board shares with
the board before are compressed once, so a page's boards are as small as Pillow's ``optimize``
makes them for a few milliseconds a board. A match that may make more than :data:`PICTURE_STEPS`
steps (a record of that many lines or more, a stored match of that many logged actions or more:
each makes a step at most) is shown by its text board at every step: drawing each of tens of
thousands of boards would take minutes and make a page of hundreds of megabytes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from geniusbot import pictures
from geniusbot.adjudicate import take
from geniusbot.archive.steps import Refusal, RefusedNote, clocks_of
from geniusbot.games import Game, Outcome, Termination, get_game
from geniusbot.host import board
from geniusbot.host.actions import versus
from geniusbot.host.replay import log_pages, record_line, replay_actions
from geniusbot.record import GAME_KINDS, Record, apply_action, game_from_record, write_host_line
from geniusbot.render import png
from geniusbot.storage import MatchStatus, Store
from geniusbot.words import ENGLISH, Message, Verbatim, Words, say

log = logging.getLogger(__name__)

#: The match statuses a page is made of: over, so nothing hidden is still to play for.
ENDED = (MatchStatus.FINISHED, MatchStatus.ABORTED)
#: The most steps a page draws a picture of each (a board costs a few milliseconds and 10-30 KB
#: of the page); a longer match's page shows the text board at every step.
PICTURE_STEPS = 1000
#: The zlib level of a page's pictures: the smallest, as the page keeps every board.
PICTURE_LEVEL = 9


class PageRefused(Refusal):
    """No page is made; ``said`` says why and what to do."""


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
    #: The lines refused after this step, before the next (a private one is shown only as sent).
    refused: tuple[RefusedNote, ...] = ()


@dataclass(frozen=True)
class PageMatch:
    """What a page is made of: its title, the players' names by seat, the result line and the
    steps, the title, result and note said in ``language`` (the page's)."""

    title: str
    names: Mapping[str, str]
    result: str
    steps: list[PageStep]
    #: What the page says under its title of how it shows the match ("" for nothing).
    note: str = ""
    #: The language the page speaks (its controls, its move list).
    language: str = ENGLISH


def picture(view: Mapping[str, Any], names: Mapping[str, str], language: str = ENGLISH) -> bytes | None:
    """The PNG of a public view as a page keeps it (:data:`PICTURE_LEVEL`), its words in
    ``language``, or ``None`` for a game without a picture or one whose picture failed (the text
    board stands in, as in the room)."""
    if not board.has_picture(str(view.get("game"))):
        return None
    try:
        return png.encode_png(
            pictures.render_image(dict(view), words=Words(language), players=names), level=PICTURE_LEVEL
        )
    except Exception:  # a broken picture (a plug-in's too) must not stop a page
        log.exception("drawing %s failed; the page shows its text board", view.get("game"))
        return None


def draw_step(
    index: int,
    game: Game,
    names: Mapping[str, str],
    *,
    seat: str | None = None,
    text: str = "",
    private: bool = False,
    clocks: Mapping[str, str] | None = None,
    pictures: bool = True,
    language: str = ENGLISH,
) -> PageStep:
    """The page step of ``game`` as it stands (its text board alone when ``pictures`` is false,
    said in ``language``, its seats as seat ids, as the page's steps name them).
    The picture carries the names but neither the clocks nor the step's number (the page says
    them beside it), so a position that does not change (a private submission the room does not
    see) is the same picture, kept once in the page."""
    view = game.view(None)
    drawn = picture(view, names, language) if pictures else None
    shown = board.text_board(view, words=Words(language)) if drawn is None else ""
    return PageStep(index, seat, "" if private else text, private, drawn, shown, dict(clocks or {}))


def drawn_note(bound: int, game: Game) -> tuple[bool, Message | None]:
    """Whether a match of at most ``bound`` steps gets a picture of each, and what the page says
    when it does not (a game without a picture says nothing: its text board is its board)."""
    if bound <= PICTURE_STEPS or not board.has_picture(game.name):
        return True, None
    return False, say(
        "This match is too long for a picture of every step (a page draws them for up to "
        "{most} steps): each step shows its text board.",
        most=Verbatim(f"{PICTURE_STEPS:,}"),
    )


def result_line(
    outcome: Outcome | None, names: Mapping[str, str], *, aborted: bool = False, language: str = ENGLISH
) -> str:
    """The page's result: the game's last word with the players' names, or that it has not ended."""
    words = Words(language, names)
    said = None if outcome is None else outcome.said or Message("{result}", {"result": Verbatim(outcome.reason)})
    if aborted:
        return words(say("The match was aborted. {result}", result=said) if said else say("The match was aborted."))
    if said is None:
        return words(say("The game has not ended."))
    return words(say("Result: {result}", result=said))


def _noted(step: PageStep, note: RefusedNote) -> PageStep:
    """``step`` with one more line refused after it."""
    return replace(step, refused=(*step.refused, note))


def _players(names: Mapping[str, str]) -> Message | Verbatim:
    return versus([Verbatim(name) for name in names.values()])


def record_steps(record: Record, *, language: str = ENGLISH) -> PageMatch:
    """The page of a parsed record: the start, then one step per accepted line.

    Raises :class:`~geniusbot.record.RecordError` when the headers describe no game.
    """
    game = game_from_record(record)
    names = {seat: record.header(seat.upper()).strip() or seat for seat in game.seats}
    pictures, note = drawn_note(len(record.lines) + 1, game)  # a line makes a step at most
    steps = [draw_step(0, game, names, pictures=pictures, language=language)]
    for line in record.lines:
        clocks = {k: v for k, v in line.annotations.items() if k in game.seats}
        taken = take(game, line)
        if isinstance(taken, str):  # refused (the adjudicator's ruling): it changes nothing
            steps[-1] = _noted(steps[-1], RefusedNote.of_line(line, taken, game))
            continue
        action, move = taken
        text = move.text() if move is not None else write_host_line(action.kind, action.seat)
        steps.append(
            draw_step(
                len(steps),
                game,
                names,
                seat=line.seat,
                text=text,
                private=line.private,
                clocks=clocks,
                pictures=pictures,
                language=language,
            )
        )
    outcome = game.outcome()
    words = Words(language)
    title = say("{game}: {players}", game=Verbatim(game.title), players=_players(names))
    event = record.header("Event").strip()
    if event:
        title = say("{title} ({event})", title=title, event=Verbatim(event))
    result = result_line(outcome, names, language=language)
    return PageMatch(words(title), names, result, steps, words(note) if note else "", language)


async def match_steps(store: Store, match_id: int, *, language: str = ENGLISH) -> PageMatch:
    """The page of the ended stored match ``match_id``: its log read a page at a time and played
    through once, each step as :meth:`~geniusbot.host.replay.Replay.step` gives it.

    Raises :class:`PageRefused` for a match that is still being played.
    """
    record = await store.get_match(match_id)
    if record.status not in ENDED:
        raise PageRefused(
            say(
                "Match #{id} is still being played; its page can be made once it is over "
                "(until then it may hide what its players may not yet see).",
                id=match_id,
            )
        )
    names = {s.seat: s.display_name or s.seat for s in record.seats}
    game: Game | None = None
    steps: list[PageStep] = []
    pictures, note = True, None
    async for page in log_pages(store, match_id):
        accepted = [a for a in page if a.accepted]
        if game is None and accepted:
            # Step 0 as a replay makes it: the start's clocks are those its first action logged.
            start = replay_actions(record, accepted[:1])[0]
            game = start.game
            pictures, note = drawn_note(record.last_seq + 1, game)  # a logged action makes a step at most
            steps.append(draw_step(0, game, names, clocks=start.clocks, pictures=pictures, language=language))
        assert game is not None or not accepted
        for action in page:
            if not action.accepted:  # noted on the step it followed (the start is logged first)
                if steps:
                    assert game is not None
                    steps[-1] = _noted(steps[-1], RefusedNote.of_action(action, game))
                continue
            if action.kind not in GAME_KINDS:
                continue
            assert game is not None
            apply_action(game, action)
            line = record_line(action, {})  # the action as a record writes it ("host: timeout p1")
            step = draw_step(
                len(steps),
                game,
                names,
                seat=line.seat,
                text=line.text,
                private=line.private,
                clocks=clocks_of(action, game.seats),
                pictures=pictures,
                language=language,
            )
            steps.append(step)
    if game is None:  # no action logged at all
        start = replay_actions(record, [])[0]
        steps.append(draw_step(0, start.game, names, clocks=start.clocks, language=language))
    # The game as it ended keeps its outcome's words; a result it does not keep (a host's ruling,
    # an abort's) is the stored sentence.
    ended = (game.outcome() if game is not None else None) if record.result is not None else None
    if ended is None and record.result is not None:
        ended = Outcome(record.result.winner, Termination.OTHER, record.result.reason.rstrip("."))
    result = result_line(ended, names, aborted=record.status == MatchStatus.ABORTED, language=language)
    game_title: Message | Verbatim = Verbatim(get_game(record.game).title)
    if record.practice is not None:  # "<game>, practice (bot at normal)", as /replay says it
        game_title = say("{game}, {practice}", game=game_title, practice=record.practice.said())
    title = say("Match #{id}, {game}: {players}", id=match_id, game=game_title, players=_players(names))
    words = Words(language)
    return PageMatch(words(title), names, result, steps, words(note) if note else "", language)
