"""Adjudication: replay a match record the way a careful host rules a transcript.

Every submission line is accepted or rejected, and a rejected line changes nothing:

* ``p1: text`` / ``p2: text`` go to the game as typed (``p1 (dm): text`` as a private submission);
  a refusal is rejected with the game's own sentence for the player.
* ``host: timeout p1``, ``host: resign p2`` and ``host: close window`` apply what the host did; a
  timeout of a seat whose clock is not running (not to move, or a timed window open) is rejected.
* ``p1 (dm): text`` in a game whose moves are made in the room is rejected: the game says to type
  it in the game room.
* Any line once the game has ended is rejected: "The game is over; no more moves are taken."
* A line with another seat, with no colon, or with nothing after the colon is rejected with a
  reason that says how to write it; the rest of the record is still ruled on.

A ``Result`` header that disagrees with the replay gives a note in :attr:`Adjudication.notes`
(the human report prints it), never an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from geniusbot.games import SEATS, Game, GameError, Move, Outcome
from geniusbot.record import (
    MOVE_KINDS,
    ActionKind,
    GameAction,
    Record,
    RecordLine,
    apply_action,
    game_from_record,
    parse_record,
    read_host_line,
    read_result,
)
from geniusbot.words import ENGLISH, Message, Seat, Verbatim, Words, joined, say


class Ruling(str):
    """A refusal's English (what the log, ``--json`` and a record keep), carrying its message
    (:attr:`said`), which the report says in its language."""

    said: Message

    def __new__(cls, said: Message) -> Ruling:
        ruling = super().__new__(cls, _ENGLISH(said))
        ruling.said = said
        return ruling

    @classmethod
    def of(cls, error: GameError) -> Ruling:
        """A game's refusal as a ruling (its plain English kept as it is, where it has no message).
        The same message (``say`` hands out one for the same parts) is the same ruling: a long
        record is refused the same way line after line."""
        said = error.said
        if said is None:
            return cls(Message("{refusal}", {"refusal": Verbatim(str(error))}))
        known = _RULINGS.get(id(said))
        if known is not None and known[0] is said:
            return known[1]
        ruling = cls(said)
        if len(_RULINGS) >= _REMEMBERED:
            _RULINGS.clear()
        _RULINGS[id(said)] = (said, ruling)
        return ruling


#: The rulings made lately, by their message's identity (the message kept, so an id is never
#: taken for another's); at most ``_REMEMBERED``, then it starts again.
_RULINGS: dict[int, tuple[Message, Ruling]] = {}
_REMEMBERED = 4096


#: Remembers what it said of each message: a long record is refused the same way line after line
#: (``say`` hands out the same message for the same parts).
_ENGLISH = Words(remember=True)
GAME_OVER = Ruling(say("The game is over; no more moves are taken."))
#: The ruling on a ``host:`` line that is none of the host's.
HOST_LINES = Ruling(say("A host line is 'host: timeout p1', 'host: resign p1' or 'host: close window'."))


@dataclass(frozen=True, slots=True)
class Action:
    """The ruling on one record line: ``line`` is its 1-based line number in the file."""

    line: int
    seat: str
    text: str
    accepted: bool
    error: str | None = None
    private: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one action."""
        return {"line": self.line, "seat": self.seat, "text": self.text, "accepted": self.accepted, "error": self.error}


@dataclass
class Adjudication:
    """What the replay of a record gave: the rulings in order, the final game and its outcome."""

    game: Game
    actions: list[Action] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def outcome(self) -> Outcome | None:
        """The result of the replay, or ``None`` if the record stops before the game ends."""
        return self.game.outcome()

    def to_dict(self) -> dict[str, Any]:
        """Exactly ``{"game", "actions", "outcome"}``, the ``--json`` output."""
        return {
            "game": self.game.name,
            "actions": [action.to_dict() for action in self.actions],
            "outcome": self.outcome_dict(),
        }

    def outcome_dict(self) -> dict[str, Any] | None:
        """The ``outcome`` of the ``--json`` output: winner, termination and reason, or ``None``."""
        outcome = self.outcome
        if outcome is None:
            return None
        return {"winner": outcome.winner, "termination": str(outcome.termination), "reason": outcome.reason}


def adjudicate(record: Record) -> Adjudication:
    """Replay ``record`` from the start its headers describe and rule on every line.

    Raises :class:`~geniusbot.record.RecordError` when the headers describe no game.
    """
    result = Adjudication(game_from_record(record))
    said: dict[str, str] = {}  # a long record repeats its rulings: each sentence is held once
    for line in record.lines:
        taken = _apply_line(result.game, line)
        error = said.setdefault(taken, taken) if isinstance(taken, str) else None
        result.actions.append(Action(line.line_no, line.seat or "", line.text, error is None, error, line.private))
    result.notes.extend(result_notes(record, result.game))
    return result


def adjudicate_text(text: str) -> Adjudication:
    """Parse a record's text and adjudicate it (raises :class:`RecordError` for a bad record)."""
    return adjudicate(parse_record(text))


class Taken(NamedTuple):
    """A line taken: the action it was read as, and the move played (``None`` for the host's)."""

    action: GameAction
    move: Move | None


def take(game: Game, line: RecordLine) -> Taken | str:
    """Apply one line to ``game``: what was taken, else the reason the line was rejected.

    A rejected line leaves ``game`` unchanged.
    """
    taken = _apply_line(game, line)
    return taken if isinstance(taken, str) else Taken(*taken)


def rule_on(game: Game, line: RecordLine) -> str | None:
    """Apply one line to ``game``: ``None`` when accepted, else the reason it was rejected.

    A rejected line leaves ``game`` unchanged.
    """
    taken = _apply_line(game, line)
    return taken if isinstance(taken, str) else None


def _apply_line(game: Game, line: RecordLine) -> tuple[GameAction, Move | None] | str:
    # take and rule_on in one: a plain pair, as a record of hundreds of lines is ruled on line by line.
    if game.is_over:
        return GAME_OVER
    action = line_action(line)
    if isinstance(action, str):
        return action
    try:
        move = apply_action(game, action, require_clock=True)
    except GameError as error:
        if action.kind in MOVE_KINDS and _words(line.text) in (["resign"], ["resign", line.seat]):
            # A seat's own 'resign' is no move: the host records a resignation.
            return Ruling(
                say(
                    "A resignation is the host's line; write it as 'host: resign {seat}'.",
                    seat=Verbatim(line.seat or ""),
                )
            )
        return Ruling.of(error)
    return action, move


def line_action(line: RecordLine) -> GameAction | str:
    """The action a record line asks for, else the reason it asks for none (a line with no seat,
    another seat, nothing after its colon, a host line that is none of the host's)."""
    if line.seat is None:
        return _no_seat_reason(line.text)
    if line.seat == "host":
        action = read_host_line(line.text)
        return action if action is not None else HOST_LINES
    if line.seat not in SEATS:
        return Ruling(
            say(
                "{seat} is not a seat; start the line with p1 or p2 and a colon (p1 (dm): for a private submission).",
                seat=Verbatim(repr(line.seat)),
            )
        )
    if not line.text:
        return nothing_follows(line.seat)
    return GameAction(ActionKind.PRIVATE if line.private else ActionKind.MOVE, line.seat, line.text, line.private)


def nothing_follows(seat: str, private: bool = False) -> Ruling:
    """The ruling on a seat's line with nothing after its colon (the console says it too)."""
    if private:
        return Ruling(say("Nothing follows '{seat} (dm):'; write the move after the colon.", seat=Verbatim(seat)))
    return Ruling(say("Nothing follows '{seat}:'; write the move after the colon.", seat=Verbatim(seat)))


def _no_seat_reason(text: str) -> Ruling:
    first, _, rest = text.partition(" ")
    if first.lower() in SEATS and rest.strip():
        example = f"{first.lower()}: {rest.strip()}"
    else:
        example = f"p1: {text}" if text else "p1: H8"
    return Ruling(
        say("A line needs the seat and a colon before the move; write it as '{example}'.", example=Verbatim(example))
    )


def _words(text: str) -> list[str]:
    """The first two words of ``text``, lower case, and the rest (at most three items): enough to
    tell a two-word line, at a cost that does not grow with the words of a long line."""
    return text.lower().split(None, 2)


#: The longest submission the report's table shows whole; a longer one is cut, saying its length.
SHOWN = 60


def _printable(text: str) -> str:
    """``text`` with its control characters escaped (``\\x1b``, ``\\t``), as the rulings quote them."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _shown(text: str, words: Words = _ENGLISH) -> str:
    """A submission as the report's table shows it: escaped, cut after :data:`SHOWN` characters."""
    if len(text) <= SHOWN:
        return _printable(text) or "-"
    cut = say(
        "{text}... ({length} characters)", text=Verbatim(_printable(text[:SHOWN])), length=Verbatim(f"{len(text):,}")
    )
    return words(cut)


def _seat_label(action: Action) -> str:
    return _shown(action.seat) + (" (dm)" if action.private else "")


def result_notes(record: Record, game: Game) -> list[str]:
    """What the report notes of the record's ``Result`` header against the replayed ``game``."""
    written = record.header("Result").strip()
    if not written:
        return []
    claimed = read_result(written)
    if claimed is None:
        return [
            Ruling(
                say(
                    "The Result header {written} is not a result this bot reads (p1, p2, draw or *); it was ignored.",
                    written=Verbatim(repr(written)),
                )
            )
        ]
    outcome = game.outcome()
    replayed = "running" if outcome is None else (outcome.winner or "draw")
    if claimed == replayed:
        return []
    return [
        Ruling(
            say(
                "The record's Result header says {claimed}, but the replay gives {replayed}.",
                claimed=_describe(claimed),
                replayed=_describe(replayed),
            )
        )
    ]


def _describe(result: str) -> Message:
    if result in SEATS:
        return say("{seat} wins", seat=Seat(result))
    return say("a draw") if result == "draw" else say("a game still running")


# --------------------------------------------------------------------------- the report


def format_report(result: Adjudication, language: str = ENGLISH) -> str:
    """The human report: a table of every line's ruling, then the result and any notes."""
    return "".join(report_lines(result, language))


def _said(text: str, words: Words) -> str:
    """A ruling or a note in the report's language (a plain string as it is)."""
    return words(text.said) if isinstance(text, Ruling) else text


def report_lines(result: Adjudication, language: str = ENGLISH) -> Iterator[str]:
    """The human report, one line at a time (each ends with a line break), so that the report of
    a long record is written as it is made rather than held whole. ``language``: what the report
    says is said in it (the seats by their ids, as the record writes them; the table's notation
    as it is)."""
    words = Words(language)
    game = result.game
    heading = (words(say("line")), words(say("seat")), words(say("submission")))
    actions = result.actions
    widths = [
        max([len(heading[0]), *(len(str(a.line)) for a in actions)]),
        max([len(heading[1]), *(len(_seat_label(a)) for a in actions)]),
        max([len(heading[2]), *(len(_shown(a.text, words)) for a in actions)]),
    ]

    def row(line: str, seat: str, text: str, ruling: str) -> str:
        return f"{line:>{widths[0]}}  {seat:<{widths[1]}}  {text:<{widths[2]}}  {ruling}".rstrip() + "\n"

    yield (
        words(
            say(
                "{title} ({name}), rule set {variant}, seed {seed}",
                title=Verbatim(game.title),
                name=Verbatim(game.name),
                variant=Verbatim(game.variant),
                seed=game.seed,
            )
        )
        + "\n\n"
    )
    yield row(*heading, words(say("ruling")))
    ok = words(say("OK"))
    for a in actions:
        ruling = ok if a.accepted else words(say("rejected: {ruling}", ruling=Verbatim(_said(a.error or "", words))))
        yield row(str(a.line), _seat_label(a), _shown(a.text, words), ruling)
    accepted = sum(a.accepted for a in actions)
    yield "\n" + words(say("{accepted} of {lines} lines accepted.", accepted=accepted, lines=len(actions))) + "\n"
    outcome = result.outcome
    if outcome is None:
        window = game.window()
        if game.to_move() or window is None:
            waiting = joined([Seat(seat) for seat in game.to_move()]) if game.to_move() else say("the host")
            yield words(say("Result: the game has not ended; waiting for {waiting}.", waiting=waiting)) + "\n"
        else:
            # Nobody may move until the host ends the timed phase: say which line does it.
            yield (
                words(
                    say(
                        "Result: the game has not ended; the {window} window is open until a 'host: close window' "
                        "line closes it.",
                        window=Verbatim(window.kind),
                    )
                )
                + "\n"
            )
    else:
        sentence = outcome.said or Message("{result}", {"result": Verbatim(outcome.reason)})
        if outcome.winner is None:
            yield words(say("Result: a draw. {result}", result=sentence)) + "\n"
        else:
            yield words(say("Result: {seat} wins. {result}", seat=Seat(outcome.winner), result=sentence)) + "\n"
    for note in result.notes:
        yield words(say("Note: {note}", note=Verbatim(_said(note, words)))) + "\n"


def json_lines(result: Adjudication) -> Iterator[str]:
    """The ``--json`` output (``json.dumps(result.to_dict())``, to the character) in pieces, one
    action at a time, so that a long record's output is never held whole."""
    yield f'{{"game": {json.dumps(result.game.name, ensure_ascii=False)}, "actions": ['
    for index, action in enumerate(result.actions):
        yield (", " if index else "") + json.dumps(action.to_dict(), ensure_ascii=False)
    yield f'], "outcome": {json.dumps(result.outcome_dict(), ensure_ascii=False)}}}'
