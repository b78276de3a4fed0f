"""Replays: any stored match back to every intermediate state, and records in and out.

* :func:`replay_match` reads a match's log from the store and rebuilds the game after every
  accepted action, with the clocks of that moment (the log keeps the clock state after each
  action). Refused submissions are in the log too; they change nothing, so they make no step.
* :func:`export_record` writes a stored match in the record format
  (:mod:`geniusbot.storage.record`): the accepted submissions and the host's own game actions
  (``host: timeout p1``, ``host: resign p2``, ``host: close window``), each line annotated with
  its time and both clocks, ``{at=2026-11-29T12:00:03Z p1=0:52+5:00 p2=1:00+5:00}``.
* :func:`import_record` stores a record as a match: every line is ruled as the adjudicator
  rules it (refused lines are logged as refused), and the match is ``finished`` when the game
  ended, ``paused`` otherwise (a host may resume it and play on, with fresh clocks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from geniusbot.games import Game, GameError, get_game
from geniusbot.storage import ActionKind, ActionRecord, MatchRecord, MatchStatus, NewAction, Result, SeatInfo, Store
from geniusbot.storage.record import (
    Record,
    RecordError,
    RecordLine,
    format_record,
    game_from_record,
    parse_record,
    record_from_game,
)

from .clock import Clock, ClockSpecError, TimeControl, preset

#: Host actions that change the game, and how a record writes them.
GAME_HOST_KINDS = (ActionKind.TIMEOUT, ActionKind.RESIGN, ActionKind.WINDOW)


@dataclass(frozen=True)
class Step:
    """The match after one action: ``action`` is ``None`` for the start position.

    ``clock`` is the clock state right after the action (``None`` for an imported line that
    carried only display strings); ``clocks`` is each seat's display at ``at``.
    """

    index: int
    action: ActionRecord | None
    game: Game
    clock: Clock | None
    clocks: Mapping[str, str]
    at: datetime | None


def start_game(record: MatchRecord) -> Game:
    """The match's game at its start (from its seed, rule set and options)."""
    return get_game(record.game).new(seed=record.seed, variant=record.variant, **dict(record.options))


def apply_action(game: Game, action: ActionRecord) -> None:
    """Apply one accepted logged action to ``game`` (commands that change no game are skipped)."""
    if action.kind in (ActionKind.MOVE, ActionKind.PRIVATE):
        assert action.seat is not None
        game.submit(action.text, action.seat, private=action.private)
    elif action.kind == ActionKind.TIMEOUT:
        seat = action.text.split()[-1] if action.seat is None else action.seat
        game.timeout(seat)
    elif action.kind == ActionKind.RESIGN:
        assert action.seat is not None
        game.resign(action.seat)
    elif action.kind == ActionKind.WINDOW:
        game.close_window()


def _clock_of(action: ActionRecord) -> tuple[Clock | None, dict[str, str]]:
    data = action.clocks or {}
    if "control" in data:
        clock = Clock.from_dict(data)
        now = action.at.timestamp()
        return clock, {seat: clock.display(seat, now) for seat in clock.seats}
    return None, {str(k): str(v) for k, v in (data.get("display") or {}).items()}


def replay_actions(record: MatchRecord, actions: Sequence[ActionRecord]) -> list[Step]:
    """Every state of the match: the start, then one step per accepted game-changing action."""
    game = start_game(record)
    steps: list[Step] = []
    accepted = [a for a in actions if a.accepted]
    first_clock: Clock | None = None
    first_at: datetime | None = None
    first_display: dict[str, str] = {}
    if accepted and accepted[0].kind == ActionKind.COMMAND and accepted[0].text.startswith("start"):
        first_clock, first_display = _clock_of(accepted[0])
        first_at = accepted[0].at
    elif record.clock:
        first_clock = Clock.new(Clock.from_dict(record.clock).control, game.seats)
    steps.append(Step(0, None, game.copy(), first_clock, first_display, first_at))
    for action in accepted:
        if action.kind not in (ActionKind.MOVE, ActionKind.PRIVATE, *GAME_HOST_KINDS):
            continue
        apply_action(game, action)
        clock, display = _clock_of(action)
        steps.append(Step(len(steps), action, game.copy(), clock, display, action.at))
    return steps


async def replay_match(store: Store, match_id: int) -> list[Step]:
    """Every state of a stored match, from its log (see :func:`replay_actions`)."""
    record = await store.get_match(match_id)
    return replay_actions(record, await store.actions(match_id))


# --------------------------------------------------------------------------- records out


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") + (
        f".{moment.microsecond // 1000:03d}Z" if moment.microsecond else "Z"
    )


def record_line(action: ActionRecord, display: Mapping[str, str]) -> RecordLine:
    """The record line of one accepted action, annotated with its time and the clocks."""
    annotations = {"at": _iso(action.at)}
    annotations.update({seat: text.replace(" +", "+") for seat, text in display.items() if text})
    if action.kind in (ActionKind.MOVE, ActionKind.PRIVATE):
        return RecordLine(0, action.seat, action.private, action.text, annotations)
    if action.kind == ActionKind.TIMEOUT:
        seat = action.seat or action.text.split()[-1]
        return RecordLine(0, "host", False, f"timeout {seat}", annotations)
    if action.kind == ActionKind.RESIGN:
        return RecordLine(0, "host", False, f"resign {action.seat}", annotations)
    return RecordLine(0, "host", False, "close window", annotations)


def match_to_record(record: MatchRecord, actions: Sequence[ActionRecord]) -> Record:
    """The :class:`Record` of a stored match."""
    steps = replay_actions(record, actions)
    final = steps[-1].game
    lines = [record_line(step.action, step.clocks) for step in steps[1:] if step.action is not None]
    names = {s.seat: s.display_name for s in record.seats}
    headers = {
        "P1": names.get("p1", ""),
        "P2": names.get("p2", ""),
        "Event": f"geniusbot match #{record.id}",
        "Date": record.created_at.astimezone(UTC).strftime("%Y-%m-%d"),
    }
    if record.clock:
        headers["TimeControl"] = str(record.clock.get("control", ""))
    out = record_from_game(final, lines, headers=headers)
    if record.status == MatchStatus.ABORTED:
        out.headers["Result"] = "*"
    return out


async def export_record(store: Store, match_id: int) -> str:
    """A stored match as record text (private submissions included: export finished matches)."""
    record = await store.get_match(match_id)
    return format_record(match_to_record(record, await store.actions(match_id)))


# --------------------------------------------------------------------------- records in


def _parse_at(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return None


def _host_line(game: Game, text: str) -> tuple[ActionKind, str | None]:
    """Apply a ``host:`` line; return (action kind, seat) or raise :class:`GameError`."""
    words = text.lower().split()
    if words == ["close", "window"]:
        game.close_window()
        return ActionKind.WINDOW, None
    if len(words) == 2 and words[0] in ("timeout", "resign") and words[1] in game.seats:
        if words[0] == "timeout":
            game.require_clock(words[1])  # as the adjudicator rules it
            game.timeout(words[1])
            return ActionKind.TIMEOUT, None
        game.resign(words[1])
        return ActionKind.RESIGN, words[1]
    raise GameError("A host line is 'host: timeout p1', 'host: resign p1' or 'host: close window'.")


async def import_record(
    store: Store,
    text: str,
    *,
    guild_id: int | None = None,
    players: Mapping[str, int] | None = None,
) -> int:
    """Store the record ``text`` as a match; return its id.

    Raises :class:`RecordError` for a record that cannot be read. ``players`` maps seats to
    Discord user ids. Lines are ruled one by one: refused lines are logged with their reason.
    """
    record = parse_record(text)
    game = game_from_record(record)
    spec = record.header("TimeControl").strip()
    try:
        control = TimeControl.parse(spec) if spec else preset(game.name, game.variant)
    except ClockSpecError as error:
        raise RecordError(str(error), record.header_line("TimeControl")) from None
    clock = Clock.new(control, game.seats)
    seats = [SeatInfo(seat, record.header(seat.upper()) or seat, (players or {}).get(seat)) for seat in game.seats]
    start_state = game.to_dict()
    match = await store.create_match(
        game=game.name,
        seats=seats,
        state=start_state,
        variant=game.variant,
        seed=game.seed,
        options=game.option_values,
        guild_id=guild_id,
        clock=clock.to_dict(),
        host={"imported": True},
        status=MatchStatus.PAUSED,
    )
    version = match.version
    committed = await store.commit_action(
        match.id, version, NewAction(ActionKind.COMMAND, f"start {control.spec()}", None, clocks=clock.to_dict())
    )
    version = committed.version
    for line in record.lines:
        at = _parse_at(line.annotations.get("at"))
        display = {k: v for k, v in line.annotations.items() if k in game.seats}
        clocks: dict[str, Any] = {"display": display}
        seat = line.seat
        kind = ActionKind.PRIVATE if line.private else ActionKind.MOVE
        try:
            if game.is_over:
                raise GameError("The game is over; no more moves are taken.")
            if seat == "host":
                kind, seat = _host_line(game, line.text)
                action_text = line.text.lower() if kind != ActionKind.RESIGN else "resign"
            elif seat in game.seats:
                move, _ = game.submit(line.text, seat, private=line.private)
                action_text = move.text()
            else:
                raise GameError("A line needs a seat, p1 or p2, and a colon before the move.")
        except GameError as error:
            await store.append_rejected(
                match.id,
                NewAction(kind, line.text, seat if seat in game.seats else None, line.private, clocks, at),
                str(error),
            )
            continue
        outcome = game.outcome()
        committed = await store.commit_action(
            match.id,
            version,
            NewAction(kind, action_text, seat, line.private, clocks, at),
            state=game.to_dict(),
            status=MatchStatus.FINISHED if outcome else MatchStatus.PAUSED,
            result=Result(outcome.winner, outcome.reason) if outcome else None,
        )
        version = committed.version
    if not game.is_over:
        # Play on from here with fresh clocks, started when a host resumes the match.
        clock.pause(0)
        clock.sync(game.to_move(), 0)
        await store.commit_action(
            match.id, version, None, clock=clock.to_dict(), host={"imported": True, "saved_at": 0}
        )
    return match.id
