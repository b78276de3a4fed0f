"""Imports: a match record (:mod:`geniusbot.record`) becomes an archived match.

The record is adjudicated first, line by line, exactly as ``geniusbot adjudicate`` rules it
(:func:`geniusbot.adjudicate.take`), each accepted line read once into the action it logs. A
refused line is kept as the live bot keeps a refused submission: logged where it happened,
``accepted`` false, with its reason and its line number (``strict``: one refused line and nothing
is stored, the answer quoting the first refusal with its line number, as before). The match is
``finished`` when the game ended, ``paused`` when the record stops before the end (a host may
resume it and play on, with fresh clocks). Its seats carry the names of the ``P1`` and ``P2``
headers. The whole match is written in one transaction, with the digest of the normalised
record (:func:`record_digest`), so the same record imported again in the same place is answered
with the match it became.

``geniusbot import FILE`` (:mod:`geniusbot.commands.imports`) and the bot's ``/import`` (``geniusbot/cogs/imports.py``)
both come here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from geniusbot.adjudicate import Ruling, Taken, result_notes, take
from geniusbot.games import Game
from geniusbot.record import (
    MOVE_KINDS,
    RECORD_SEATS,
    Record,
    RecordLine,
    format_line,
    game_from_record,
    parse_record,
    write_host_line,
)
from geniusbot.record.file import (
    THE_RECORD,
    RecordName,
    RecordUnreadable,
    record_text,
)
from geniusbot.storage import ActionKind, MatchStatus, NewAction, Result, SeatInfo, Store
from geniusbot.words import Message, Verbatim, Words, say, say_n

from .actions import versus
from .clock import Clock, ClockSpecError, ClockTooLong, TimeControl, preset

_ENGLISH = Words()


class ImportRefused(Exception):
    """A record that is not imported; ``said`` says why and what to do (a message, which the
    caller says in its language), ``str(refusal)`` its English. Nothing was stored.

    For a refused line, ``line`` is its number, ``quoted`` the line as quoted, ``reason`` the
    ruling's English and ``said_reason`` its message (so that another caller, the replay of a
    record, may say it its own way).
    """

    def __init__(
        self,
        message: str | Message,
        *,
        line: int | None = None,
        quoted: str = "",
        reason: str = "",
        said_reason: Message | None = None,
    ) -> None:
        self.said: Message = message if isinstance(message, Message) else Message("{text}", {"text": Verbatim(message)})
        super().__init__(_ENGLISH(self.said))
        self.line, self.quoted, self.reason = line, quoted, reason
        self.said_reason: Message = said_reason or Message("{reason}", {"reason": Verbatim(reason)})


@dataclass(frozen=True)
class RefusedLine:
    """A line of a record the adjudicator refused: its number in the file, as quoted, and the
    ruling (its English, which the log keeps, and its message)."""

    line: int
    quoted: str
    reason: str
    said_reason: Message


@dataclass
class Prepared:
    """An adjudicated record, ready to store: ``actions`` holds every line in order, the start
    first; ``refused`` maps the index in ``actions`` of each refused line to its ruling."""

    record: Record
    start: Game
    game: Game
    control: TimeControl
    actions: list[NewAction]
    names: dict[str, str]
    digest: str
    notes: list[str] = field(default_factory=list)
    refused: dict[int, RefusedLine] = field(default_factory=dict)

    @property
    def status(self) -> MatchStatus:
        """``finished`` when the record plays the game to its end, else ``paused``."""
        return MatchStatus.FINISHED if self.game.is_over else MatchStatus.PAUSED


@dataclass(frozen=True)
class Imported:
    """What an import did: the match, and whether this import made it (``created``)."""

    match_id: int
    created: bool
    prepared: Prepared

    def summary(self, resume: str, replay: str = "") -> str:
        """What the importer is told, in English: ``resume`` says how a paused match is resumed,
        ``replay`` (optional) how the archived one is seen (both said already)."""
        return Words()(
            self.said_summary(
                Message("{text}", {"text": Verbatim(resume)}),
                Message("{text}", {"text": Verbatim(replay)}) if replay else None,
            )
        )

    def said_summary(self, resume: Message, replay: Message | None = None) -> Message:
        """What the importer is told, as a message: ``resume`` says how a paused match is resumed,
        ``replay`` (optional) how the archived one is seen."""
        game = self.prepared.game
        outcome = game.outcome()
        shown = [replay] if replay is not None and outcome is not None else []
        if not self.created:
            said = say("This record was already imported as match #{id}; nothing was stored.", id=self.match_id)
            return _sentences([said, *shown])
        names = self.prepared.names
        head = say_n(
            "Imported the record as match #{id} ({title}: {players}), {n} line(s)",
            "Imported the record as match #{id} ({title}: {players}), {n} line(s)",
            id=self.match_id,
            title=Verbatim(game.title),
            players=versus([Verbatim(names[seat]) for seat in game.seats]),
            n=len(self.prepared.actions) - 1 - len(self.prepared.refused),
        )
        if outcome is None:
            text = say(
                "{head}. The record stops before the end, so the match is paused; {resume} to play on.",
                head=head,
                resume=resume,
            )
        elif outcome.winner is None:
            text = say("{head}: a draw.", head=head)
        else:
            text = say(
                "{head}: {name} ({seat}) wins.",
                head=head,
                name=Verbatim(names[outcome.winner]),
                seat=Verbatim(outcome.winner),
            )
        kept = self.prepared.refused
        refused = (
            [
                say_n(
                    "{n} refused line is kept where it happened, as refused (line {lines}).",
                    "{n} refused lines are kept where they happened, as refused (lines {lines}).",
                    n=len(kept),
                    lines=Verbatim(", ".join(str(r.line) for r in kept.values())),
                )
            ]
            if kept
            else []
        )
        return _sentences([text, *refused, *shown, *self.notes()])

    def notes(self) -> list[Message]:
        """The notes on the record: a Result header the replay disagrees with, a TimeControl header
        the clock cannot read (each a :class:`~geniusbot.adjudicate.Ruling`: its message; a plain
        string as it is)."""
        return [
            say("Note: {note}", note=note.said if isinstance(note, Ruling) else Verbatim(note))
            for note in self.prepared.notes
        ]


def _sentences(said: list[Message]) -> Message:
    """Sentences in a row, a space between two."""
    if len(said) == 1:
        return said[0]
    return say("{first} {rest}", first=said[0], rest=_sentences(said[1:]))


# --------------------------------------------------------------------------- reading


def decode_record(data: bytes, what: str = THE_RECORD) -> str:
    """The text of a record file's bytes, or :class:`ImportRefused` (over
    :data:`~geniusbot.record.file.MAX_RECORD_BYTES`, not UTF-8); ``what`` names the file (a
    :class:`~geniusbot.record.file.RecordName`, or a file's own name)."""
    try:
        return record_text(data, RecordName.of(what), again=say("import it again"))
    except RecordUnreadable as error:
        raise ImportRefused(error.said) from None


#: How much of a refused line the refusal quotes.
QUOTE_CHARS = 120


def _quote(line: RecordLine) -> str:
    text = format_line(RecordLine(line.line_no, line.seat, line.private, line.text))
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "\u2026"


def _parse_at(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return None


def _control(record: Record, game: Game, notes: list[str]) -> TimeControl:
    """The record's time control; the game's own (with a note) when its TimeControl header is
    prose the clock does not read ("90 s a move..."), as the adjudicator keeps it as metadata."""
    spec = record.header("TimeControl").strip()
    default = preset(game.name, game.variant)
    if not spec:
        return default
    try:
        return TimeControl.parse(spec)
    except ClockTooLong as error:
        notes.append(
            Ruling(
                say(
                    "The TimeControl header is refused: {error} The match keeps the game's own, {spec}.",
                    error=error.said or Verbatim(str(error)),
                    spec=Verbatim(default.spec()),
                )
            )
        )
        return default
    except ClockSpecError:
        notes.append(
            Ruling(
                say(
                    "The TimeControl header {header} is not a time control the bot reads (such as 60s+5m); "
                    "the match keeps the game's own, {spec}.",
                    header=Verbatim(repr(spec)),
                    spec=Verbatim(default.spec()),
                )
            )
        )
        return default


def _action(line: RecordLine, taken: Taken, seats: tuple[str, ...]) -> tuple[NewAction, tuple[str, bool, str]]:
    """The logged action of a line taken, and its normalised form (a move as the game writes it,
    a host's line as the record writes it)."""
    action, move = taken
    clocks: dict[str, Any] = {"display": {k: v for k, v in line.annotations.items() if k in seats}}
    at = _parse_at(line.annotations.get("at"))
    text = move.text() if move is not None else action.text
    logged = NewAction(action.kind, text, action.seat, action.private, clocks, at, line=line.line_no)
    if action.kind in MOVE_KINDS:
        assert action.seat is not None
        return logged, (action.seat, action.private, text)
    return logged, ("host", False, write_host_line(action.kind, action.seat))


def record_digest(start: Game, names: Mapping[str, str], control: TimeControl, lines: list[Any]) -> str:
    """The digest of a record as the match it becomes: the game, rule set, seed and options, the
    players' names, the time control and the moves as the game writes them. Comments, spacing,
    annotations (times, clocks) and the other headers (Event, Date, Result) do not count, so a
    record exported from the imported match has the digest of the record imported."""
    canonical = {
        "game": start.name,
        "variant": start.variant,
        "seed": start.seed,
        "options": dict(sorted(start.option_values.items())),
        "players": dict(sorted(names.items())),
        "clock": control.spec(),
        "lines": lines,
    }
    return hashlib.sha256(json.dumps(canonical, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def _refused_action(line: RecordLine) -> tuple[NewAction, list[Any]]:
    """The logged row of a refused line, and its normalised form: the seat (``p1``, ``p2``,
    ``host``; none for another word, whose text is then the line as written) and the text as
    typed, so that the record exported from the match writes the line again where it stood."""
    if line.seat in RECORD_SEATS:
        seat: str | None = line.seat
        text = line.text
    else:
        seat, text = None, format_line(RecordLine(line.line_no, line.seat, line.private, line.text))
    # A submission's kind, as the live bot logs every refused one (a host's line too, ``host:
    # timeout p2``, its seat ``host``): no reader of the log takes a refused row for an action.
    kind = ActionKind.PRIVATE if line.private and seat is not None else ActionKind.MOVE
    clocks: dict[str, Any] = {"display": {k: v for k, v in line.annotations.items() if k in RECORD_SEATS}}
    private = line.private and seat is not None
    logged = NewAction(kind, text, seat, private, clocks, _parse_at(line.annotations.get("at")), line=line.line_no)
    return logged, ["refused", seat or "", private, text]


def _refusal(line: RecordLine, ruled: str) -> RefusedLine:
    reason = ruled.said if isinstance(ruled, Ruling) else Message("{reason}", {"reason": Verbatim(ruled)})
    return RefusedLine(line.line_no, _quote(line), str(ruled), reason)


def strict_refusal(refused: RefusedLine) -> ImportRefused:
    """What ``--strict`` answers a record with a refused line (the first): nothing is imported."""
    return ImportRefused(
        say(
            "Line {line} is refused ({quoted}): {reason} "
            "Nothing was imported; correct or remove that line and import the record again.",
            line=refused.line,
            quoted=Verbatim(repr(refused.quoted)),
            reason=refused.said_reason,
        ),
        line=refused.line,
        quoted=refused.quoted,
        reason=refused.reason,
        said_reason=refused.said_reason,
    )


def prepare(text: str, *, strict: bool = False) -> Prepared:
    """Adjudicate the record ``text`` for import: every line, a refused one kept as refused.

    Raises :class:`RecordError` for a record that cannot be read (unknown game, bad header) and,
    when ``strict``, :class:`ImportRefused` quoting the first refused line.
    """
    record = parse_record(text)
    start = game_from_record(record)
    game = start.copy()
    taken: list[tuple[RecordLine, Taken | RefusedLine]] = []
    for line in record.lines:  # ruled as the adjudicator rules it
        outcome = take(game, line)
        if isinstance(outcome, str):
            refused = _refusal(line, outcome)
            if strict:
                raise strict_refusal(refused)
            taken.append((line, refused))
            continue
        taken.append((line, outcome))
    notes = result_notes(record, game)
    control = _control(record, game, notes)
    clock = Clock.new(control, game.seats)
    actions = [NewAction(ActionKind.START, f"start {control.spec()}", None, clocks=clock.to_dict())]
    normalised: list[Any] = []
    kept: dict[int, RefusedLine] = {}
    for line, ruling in taken:
        if isinstance(ruling, RefusedLine):
            kept[len(actions)] = ruling
            action, form = _refused_action(line)
            actions.append(action)
            normalised.append(form)
            continue
        action, accepted = _action(line, ruling, game.seats)
        actions.append(action)
        normalised.append(list(accepted))
    names = {seat: record.header(seat.upper()).strip() or seat for seat in game.seats}
    digest = record_digest(start, names, control, normalised)
    return Prepared(record, start, game, control, actions, names, digest, notes, kept)


async def import_prepared(
    store: Store,
    prepared: Prepared,
    *,
    guild_id: int | None = None,
    channel_id: int | None = None,
    users: Mapping[str, int] | None = None,
    language: str | None = None,
    rated: bool = False,
) -> Imported:
    """Store an adjudicated record as a match (or find the match it became already).

    ``users`` maps seats to Discord user ids; ``channel_id`` is the room of a paused match (a
    finished one is kept without a room); ``language``: the one it speaks (``None``: the host's).
    ``rated`` (a host's choice; off by default): the match moves its players' ratings when it
    ends. Raises :class:`~geniusbot.storage.RoomBusy`.
    """
    game, start = prepared.game, prepared.start
    existing = await store.imported_match(guild_id, prepared.digest)
    if existing is not None:
        return Imported(existing, False, prepared)
    clock = Clock.new(prepared.control, game.seats)
    outcome = game.outcome()
    if outcome is None:
        # Play on from here with fresh clocks, started when a host resumes the match.
        clock.pause(0)
        clock.sync(game.to_move(), 0)
    seats = [SeatInfo(seat, prepared.names[seat], (users or {}).get(seat)) for seat in game.seats]
    done = await store.import_match(
        digest=prepared.digest,
        game=game.name,
        variant=start.variant,
        seed=start.seed,
        options=start.option_values,
        seats=seats,
        state=game.to_dict(),
        status=prepared.status,
        actions=prepared.actions,
        result=None if outcome is None else Result.of(outcome),
        clock=clock.to_dict(),
        host=_host(prepared.record),
        guild_id=guild_id,
        channel_id=None if outcome is not None else channel_id,
        refused={index: refused.reason for index, refused in prepared.refused.items()},
        language=language,
        rated=rated,
    )
    return Imported(done.match_id, done.created, prepared)


def _host(record: Record) -> dict[str, Any]:
    """The host data of an imported match: that it was imported, and the record's ``Event``
    header (``event``), which the archive's tournament filter reads."""
    host: dict[str, Any] = {"imported": True, "saved_at": 0}
    event = record.header("Event").strip()
    if event:
        host["event"] = event
    return host


async def import_text(
    store: Store,
    text: str,
    *,
    guild_id: int | None = None,
    channel_id: int | None = None,
    users: Mapping[str, int] | None = None,
    rated: bool = False,
    strict: bool = False,
) -> Imported:
    """:func:`prepare` then :func:`import_prepared`."""
    prepared = prepare(text, strict=strict)
    return await import_prepared(store, prepared, guild_id=guild_id, channel_id=channel_id, users=users, rated=rated)
