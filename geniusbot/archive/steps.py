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

A record file is adjudicated first, as ``geniusbot import`` does: one refused line and no step
is made (:class:`StepsRefused` quotes the first refusal with its line number).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from geniusbot.games import Game, Outcome, load
from geniusbot.host.clock import Clock
from geniusbot.host.imports import ImportRefused, decode_record, prepare
from geniusbot.host.naming import game_title
from geniusbot.host.replay import read_log, start_game
from geniusbot.record import GAME_KINDS, RecordError, apply_action
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
class Shown:
    """One step as everyone may see it: ``action`` is ``None`` at the start."""

    index: int
    view: Mapping[str, Any]
    action: Message | None
    clocks: Mapping[str, str]


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
        yield Shown(0, game.view(None), None, dict(self.start_clocks))
        for index, action in enumerate(self.actions, 1):
            apply_action(game, action)
            yield Shown(index, game.view(None), action_said(action, self.names), clocks_of(action, game.seats))


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
    """The steps of a record file's bytes; :class:`StepsRefused` for one that cannot be read (too
    large, not UTF-8, unknown game, bad header) or has a refused line (quoted, with its number)."""
    name = RecordName.of(what)
    try:
        prepared = prepare(decode_record(data, name))  # the accepted lines as the actions an import would log
    except ImportRefused as error:
        if error.line is None:
            raise StepsRefused(error.said) from None
        raise StepsRefused(
            say(
                "Line {line} of {what} is refused ({quoted}): {reason} "
                "A replay shows a record whose every line is accepted; correct or remove that line and try again.",
                line=error.line,
                what=name.said,
                quoted=Verbatim(repr(error.quoted)),
                reason=error.said_reason,  # the adjudicator's ruling
            )
        ) from None
    except RecordError as error:
        raise StepsRefused(say("{what}: {refusal}", what=name.said, refusal=error.said)) from None
    start = prepared.start
    actions = [
        ActionRecord(0, seq, a.seat, a.kind, a.text, a.private, True, None, a.at or _EPOCH, a.clocks)
        for seq, a in enumerate(prepared.actions[1:], 2)
    ]
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
    )


async def from_store(store: Store, match_id: int) -> Steps:
    """The steps of a stored match (any status: each step shows only the public view); raises
    :class:`~geniusbot.storage.MatchNotFound`. The log is read a page at a time."""
    record = await store.get_match(match_id)
    log = [a for a in await read_log(store, match_id) if a.accepted]
    start = start_game(record)
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
    )
