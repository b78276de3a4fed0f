"""The steps of a match as everyone may see them: from a record file or from the store.

A step is the match after one accepted action (step 0 is the start): the game's public view
(``game.view(None)``, which shows a private submission only from the moment the rules reveal
it), the action in words and both clocks. A private (DM) action is told as "sends a sealed
move", never with its text, since what it says may still be hidden at that step.

The game is played through once, one action after another (a :class:`~geniusbot.host.replay.Replay`
rebuilds each step from its snapshots, which is the right cost for stepping back and forth but
several times this one for every step in order). The actions are applied by
:func:`geniusbot.record.apply_action`, as a replay applies them, so a step here is the step
``/replay`` shows.

A record file is adjudicated first, as ``geniusbot import`` does. A refused line (a record's,
or a submission the live bot refused) makes no step: it is a :class:`RefusedNote` of the step it
followed, which the GIF's caption and the page's move list show there (a private one without its
text or reason, which may be hidden).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from geniusbot.analysis import Review
from geniusbot.games import Game, Outcome, load
from geniusbot.host.clock import Clock
from geniusbot.host.imports import ImportRefused, decode_record, prepare
from geniusbot.host.naming import game_title
from geniusbot.host.replay import read_log, start_game
from geniusbot.record import GAME_KINDS, RECORD_SEATS, RecordError, RecordLine, apply_action, format_line
from geniusbot.record.file import RecordName
from geniusbot.storage import ActionKind, ActionRecord, MatchStatus, Store
from geniusbot.words import ENGLISH, Message, Verbatim, Words, say

#: The time of a record line without an ``at`` annotation (only the start's clock reads it).
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class Refusal(Exception):
    """What the archive will not make, and why: ``said`` (a message, said in the caller's
    language), ``str(refusal)`` its English."""

    def __init__(self, said: Message) -> None:
        super().__init__(Words()(said))
        self.said = said


class StepsRefused(Refusal):
    """A record or match whose steps are not made; ``said`` says why and what to do."""


@dataclass(frozen=True)
class RefusedNote:
    """A refused line, shown where it happened (after a step): its seat (``None`` for a line
    with no seat of the record's, whose ``text`` is then the whole line), its text, whether it
    was private, the reason and, for a record's line, its line number. ``shown``: whether its
    text and reason may be shown to everyone: a public line of a game without hidden
    information (elsewhere a line typed in the room may hold a secret sent to the wrong place,
    and a reason may tell what a player holds; the record, ``/record``, keeps them)."""

    seat: str | None
    text: str
    private: bool
    reason: Message
    line: int | None = None
    shown: bool = False

    @classmethod
    def of_line(cls, line: RecordLine, ruling: str, game: Game) -> RefusedNote:
        """A record's line the adjudicator refused with ``ruling`` (its message, when it has one)."""
        said = getattr(ruling, "said", None)
        reason = said if isinstance(said, Message) else Message("{reason}", {"reason": Verbatim(ruling)})
        shown = game.perfect_information and not line.private
        if line.seat in RECORD_SEATS:
            return cls(line.seat, line.text, line.private, reason, line.line_no, shown)
        written = format_line(RecordLine(0, line.seat, line.private, line.text))
        return cls(None, written, False, reason, line.line_no, shown)

    @classmethod
    def of_action(cls, action: ActionRecord, game: Game) -> RefusedNote:
        """A refused row of a match's log (an imported record's line, or a refused submission)."""
        reason = Message("{reason}", {"reason": Verbatim(action.error or "")})
        shown = game.perfect_information and not action.private
        return cls(action.seat, action.text, action.private, reason, action.line, shown)

    def said(self, names: Mapping[str, str]) -> Message:
        """The refusal as everyone may read it (see :attr:`shown`)."""
        who = _who(self.seat, names)
        if not self.shown:
            if self.seat is None and self.line is not None:  # only an imported record has such lines
                return say("Then refused, line {line}: a line with no seat (its text is in the record)", line=self.line)
            if self.line is None:
                return say("Then refused: a submission from {who} (its text is in the record)", who=who)
            return say(
                "Then refused, line {line}: a submission from {who} (its text is in the record)",
                line=self.line,
                who=who,
            )
        what = Verbatim(self.text) if self.seat is None else say("{who}: {move}", who=who, move=Verbatim(self.text))
        if self.line is None:
            return say("Then refused: {what} ({reason})", what=what, reason=self.reason)
        return say("Then refused, line {line}: {what} ({reason})", line=self.line, what=what, reason=self.reason)


@dataclass(frozen=True)
class Shown:
    """One step as everyone may see it: ``action`` is ``None`` at the start; ``refused`` the
    lines refused after it, before the next step."""

    index: int
    view: Mapping[str, Any]
    action: Message | None
    clocks: Mapping[str, str]
    refused: tuple[RefusedNote, ...] = ()


@dataclass
class Steps:
    """A match to show step by step: its start, its accepted game-changing actions in order."""

    game: str
    title: str
    names: dict[str, str]
    start: Game
    start_clocks: dict[str, str]
    actions: list[ActionRecord]
    label: str
    result: Message | None = None
    #: The language the steps are said in (:mod:`geniusbot.words`).
    language: str = ENGLISH
    #: The lines refused after each step (by its index), before the next.
    refused: dict[int, list[RefusedNote]] = field(default_factory=dict)
    #: The engine review to carry (:mod:`geniusbot.analysis`): the GIF opens with its graph and
    #: a marked move's caption says what it threw away.
    review: Review | None = None

    @property
    def words(self) -> Words:
        """The renderer of the steps' words: their language, the players' names."""
        return Words(self.language, self.names)

    def __len__(self) -> int:
        """How many steps: the start and one per action."""
        return len(self.actions) + 1

    def __iter__(self) -> Iterator[Shown]:
        """Every step in order, the game played through once."""
        game = self.start.copy()
        refused = self.refused
        yield Shown(0, game.view(None), None, dict(self.start_clocks), tuple(refused.get(0, ())))
        for index, action in enumerate(self.actions, 1):
            apply_action(game, action)
            said, clocks = action_said(action, self.names), clocks_of(action, game.seats)
            yield Shown(index, game.view(None), said, clocks, tuple(refused.get(index, ())))


def _who(seat: str | None, names: Mapping[str, str]) -> Verbatim:
    name = names.get(seat or "", "")
    return Verbatim(f"{name} ({seat})" if name and name != seat else str(seat))


def action_said(action: ActionRecord, names: Mapping[str, str]) -> Message:
    """An action in words for everyone: a private one without its text."""
    who = _who(action.seat, names)
    if action.kind in (ActionKind.MOVE, ActionKind.PRIVATE):
        if action.private:
            return say("{who} sends a sealed move by direct message", who=who)
        return say("{who}: {move}", who=who, move=Verbatim(action.text))
    if action.kind == ActionKind.RESIGN:
        return say("{who} resigns", who=who)
    if action.kind == ActionKind.TIMEOUT:
        return say("host: {who} runs out of time", who=who)
    return say("host: {action}", action=Verbatim(action.text))


def clocks_of(action: ActionRecord, seats: Sequence[str]) -> dict[str, str]:
    """Each seat's clock right after ``action``: from the clock state the log keeps, else the
    display strings a record line carried (none: no clocks shown)."""
    data = action.clocks or {}
    if "control" in data:
        clock = Clock.from_dict(data)
        now = action.at.timestamp()
        return {seat: clock.display(seat, now) for seat in seats if seat in clock.seats}
    return {str(k): str(v) for k, v in (data.get("display") or {}).items()}


def _said(outcome: Outcome) -> Message:
    """An outcome's sentence as a message (a game's plain English kept as it is)."""
    return outcome.said or Message("{result}", {"result": Verbatim(outcome.reason)})


def from_record(data: bytes, what: str) -> Steps:
    """The steps of a record file's bytes, its refused lines noted where they happened;
    :class:`StepsRefused` for one that cannot be read (too large, not UTF-8, unknown game, bad
    header)."""
    name = RecordName.of(what)
    try:
        prepared = prepare(decode_record(data, name))  # the lines as an import would log them
    except ImportRefused as error:  # the file's bytes (a refused line is kept, never refused)
        raise StepsRefused(error.said) from None
    except RecordError as error:
        raise StepsRefused(say("{what}: {refusal}", what=name.said, refusal=error.said)) from None
    start = prepared.start
    actions: list[ActionRecord] = []
    refused: dict[int, list[RefusedNote]] = {}
    for seq, a in enumerate(prepared.actions[1:], 2):
        if (ruled := prepared.refused.get(seq - 1)) is not None:
            shown = start.perfect_information and not a.private
            note = RefusedNote(a.seat, a.text, a.private, ruled.said_reason, ruled.line, shown)
            refused.setdefault(len(actions), []).append(note)
            continue
        actions.append(ActionRecord(0, seq, a.seat, a.kind, a.text, a.private, True, None, a.at or _EPOCH, a.clocks))
    fresh = Clock.new(prepared.control, start.seats)
    outcome = prepared.game.outcome()
    return Steps(
        game=start.name,
        title=game_title(start),
        names=dict(prepared.names),
        start=start,
        start_clocks={seat: fresh.display(seat, 0) for seat in start.seats},
        actions=actions,
        label=what,
        result=None if outcome is None else _said(outcome),
        refused=refused,
    )


async def from_store(store: Store, match_id: int) -> Steps:
    """The steps of a stored match (any status: each step shows only the public view); raises
    :class:`~geniusbot.storage.MatchNotFound`. The log is read a page at a time."""
    record = await store.get_match(match_id)
    start = start_game(record)
    log: list[ActionRecord] = []
    refused: dict[int, list[RefusedNote]] = {}
    made = 0  # the steps made so far, after the start
    for action in await read_log(store, match_id):
        if action.accepted:
            log.append(action)
            made += action.kind in GAME_KINDS
        else:  # noted after the step it followed
            refused.setdefault(made, []).append(RefusedNote.of_action(action, start))
    start_clocks: dict[str, str] = {}
    if log and log[0].kind == ActionKind.START:
        start_clocks = clocks_of(log[0], start.seats)
    elif record.clock:
        fresh = Clock.new(Clock.from_dict(record.clock).control, start.seats)
        start_clocks = {seat: fresh.display(seat, 0) for seat in start.seats}
    names = {s.seat: s.display_name for s in record.seats}
    result: Message | None = None
    if record.status == MatchStatus.ABORTED:
        result = say("The match was aborted.")
    elif record.result is not None:
        # The game as it ended keeps its outcome's words; a result the game does not keep (a
        # host's ruling) is the stored sentence.
        ended = load(record.state).outcome() if record.state else None
        result = _said(ended) if ended is not None else Message("{result}", {"result": Verbatim(record.result.reason)})
    return Steps(
        game=record.game,
        title=game_title(start),
        names=names,
        start=start,
        start_clocks=start_clocks,
        actions=[a for a in log if a.kind in GAME_KINDS],
        label=f"match #{match_id}",
        result=result,
        refused=refused,
    )
