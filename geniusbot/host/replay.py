"""Replays: any stored match back to every intermediate state, and the record of one out.

* :func:`replay_match` reads a match's log from the store and rebuilds the game after every
  accepted action, with the clocks of that moment (the log keeps the clock state after each
  action). Refused submissions are in the log too; they change nothing, so they make no step.
* :class:`Replay` (:func:`open_replay`) gives the same steps one at a time, for a match of any
  length: it keeps the log packed and the game every :data:`SNAPSHOT_EVERY` steps, so step N is
  the snapshot at or before it and at most ``SNAPSHOT_EVERY - 1`` actions played on. Its
  :attr:`~Replay.nbytes` is what it holds, so a :class:`ReplayCache` is bounded in bytes. The
  bot's ``/replay`` uses it, off the event loop.
* :func:`export_record` writes a stored match in the record format
  (:mod:`geniusbot.record`), in a worker thread (a long match takes a while): the accepted
  submissions and the host's own game actions (``host: timeout p1``, ``host: resign p2``,
  ``host: close window``), each line annotated with its time and both clocks,
  ``{at=2026-11-29T12:00:03Z p1=0:52+5:00 p2=1:00+5:00}``.

A record comes in through :mod:`geniusbot.host.imports`. Every action is applied by
:func:`geniusbot.record.apply_action`, as the adjudicator, the import and the archive apply it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from geniusbot.games import Game, get_game
from geniusbot.record import (
    GAME_KINDS,
    MOVE_KINDS,
    Record,
    RecordError,
    RecordLine,
    apply_action,
    checked_line,
    join_record,
    record_from_game,
    write_host_line,
)
from geniusbot.storage import ActionKind, ActionRecord, MatchRecord, MatchStatus, Store

from .clock import Clock

#: A :class:`Replay` keeps the game every this many steps (and rebuilds the steps between).
SNAPSHOT_EVERY = 64


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


def _clock_of(action: ActionRecord) -> tuple[Clock | None, dict[str, str]]:
    data = action.clocks or {}
    if "control" in data:
        clock = Clock.from_dict(data)
        now = action.at.timestamp()
        return clock, {seat: clock.display(seat, now) for seat in clock.seats}
    return None, {str(k): str(v) for k, v in (data.get("display") or {}).items()}


def _start_clock(
    record: MatchRecord, accepted: Sequence[ActionRecord], seats: Sequence[str]
) -> tuple[Clock | None, dict[str, str], datetime | None]:
    """The clocks of step 0: those the ``start`` command logged, else the match's control, fresh."""
    if accepted and accepted[0].kind == ActionKind.START:
        clock, display = _clock_of(accepted[0])
        return clock, display, accepted[0].at
    if record.clock:
        return Clock.new(Clock.from_dict(record.clock).control, seats), {}, None
    return None, {}, None


def replay_actions(record: MatchRecord, actions: Sequence[ActionRecord]) -> list[Step]:
    """Every state of the match: the start, then one step per accepted game-changing action.

    Each step holds a game of its own: for a short match. :class:`Replay` gives the same steps
    one at a time, for a match of any length.
    """
    accepted = [a for a in actions if a.accepted]
    game = start_game(record)
    first_clock, first_display, first_at = _start_clock(record, accepted, game.seats)
    steps = [Step(0, None, game.copy(), first_clock, first_display, first_at)]
    for action in accepted:
        if action.kind in GAME_KINDS:
            apply_action(game, action)
            clock, display = _clock_of(action)
            steps.append(Step(len(steps), action, game.copy(), clock, display, action.at))
    return steps


async def replay_match(store: Store, match_id: int) -> list[Step]:
    """Every state of a stored match, from its log (see :func:`replay_actions`)."""
    record = await store.get_match(match_id)
    return replay_actions(record, await store.actions(match_id))


def _pack(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, separators=(",", ":")).encode("utf-8"), 1)


def _unpack(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


def _action_data(action: ActionRecord) -> list[Any]:
    return [
        action.seq,
        action.seat,
        action.kind,
        action.text,
        action.private,
        action.at.isoformat(),
        action.clocks,
        action.key,
    ]


def _action_of(match_id: int, data: Sequence[Any]) -> ActionRecord:
    seq, seat, kind, text, private, at, clocks, key = data
    return ActionRecord(match_id, seq, seat, kind, text, private, True, None, datetime.fromisoformat(at), clocks, key)


#: What a :class:`Replay` counts for itself beyond its packed bytes (the record, its lists), and
#: for each packed piece (the bytes object and its place in a list): generous, so a cache's
#: count of bytes is not below what the interpreter holds.
REPLAY_OVERHEAD = 8192
PIECE_OVERHEAD = 96


class Replay:
    """Every step of an ended match, rebuilt one at a time from periodic snapshots.

    The accepted actions that make steps are kept packed (JSON, zlib) in pieces of ``every``;
    the game at steps 0, ``every``, ``2 * every``... is packed as it is first reached. Step N is
    the snapshot at or before N with at most ``every - 1`` actions played on it, and its game is
    the caller's own. The methods are plain functions (no awaiting) that may run in a worker
    thread; one replay builds one step at a time.

    With ``complete=False`` the log may come in parts (:meth:`add`, then :meth:`complete`), so a
    long log is never held whole: each part is packed and let go.
    """

    def __init__(
        self,
        record: MatchRecord,
        actions: Iterable[ActionRecord] = (),
        *,
        every: int = SNAPSHOT_EVERY,
        complete: bool = True,
    ) -> None:
        if every < 1:
            raise ValueError("a replay keeps a snapshot every 1 step or more")
        # The match as listed (its seats, result); the final state is the replay's to rebuild.
        self.record = replace(record, state={})
        self.every = every
        self.last = 0
        self._lock = threading.Lock()
        start = start_game(record)
        self._cls = type(start)
        self._seats = start.seats
        self._start: tuple[Clock | None, dict[str, str], datetime | None] | None = None
        self._tail: list[list[Any]] = []
        self._pieces: list[bytes] = []
        self._snapshots: dict[int, bytes] = {0: _pack(start.to_dict())}
        self._complete = False
        #: The refused rows of the log (a refused submission, an imported record's refused line),
        #: by the step they followed.
        self.refused: dict[int, list[ActionRecord]] = {}
        self.add(actions)
        if complete:
            self.complete()

    def add(self, actions: Iterable[ActionRecord]) -> None:
        """The next part of the log (refused rows make no step: :attr:`refused`; commands are passed over)."""
        if self._complete:
            raise RuntimeError("this replay has its whole log already")
        for action in actions:
            if not action.accepted:  # no step: kept as a note of the step it followed
                self.refused.setdefault(self.last, []).append(action)
                continue
            if self._start is None:
                self._start = _start_clock(self.record, [action], self._seats)
            if action.kind in GAME_KINDS:
                self._tail.append(_action_data(action))
                self.last += 1
                if len(self._tail) == self.every:
                    self._pieces.append(_pack(self._tail))
                    self._tail = []

    def complete(self) -> None:
        """The log is all there: the replay is ready for :meth:`step`."""
        if self._start is None:
            self._start = _start_clock(self.record, [], self._seats)
        if self._tail:
            self._pieces.append(_pack(self._tail))
            self._tail = []
        self._complete = True

    def __len__(self) -> int:
        """How many steps there are: the start and one per action."""
        return self.last + 1

    @property
    def nbytes(self) -> int:
        """What the replay holds, in bytes (it grows as snapshots are taken)."""
        pieces = [*self._pieces, *list(self._snapshots.values())]
        return REPLAY_OVERHEAD + sum(len(p) + PIECE_OVERHEAD for p in pieces)

    def step(self, index: int) -> Step:
        """Step ``index`` (0 is the start, :attr:`last` the end); raises ``IndexError`` past them."""
        if not self._complete or self._start is None:
            raise RuntimeError("this replay is still taking its log; complete() it first")
        if not 0 <= index <= self.last:
            raise IndexError(f"a replay of {self.last} actions has steps 0 to {self.last}")
        with self._lock:
            base = index // self.every
            game = self._snapshot(base)
            actions = self._actions(base)
        for played in actions[: index - base * self.every]:
            apply_action(game, played)
        if index == 0:
            clock, display, at = self._start
            return Step(0, None, game, clock, dict(display), at)
        action = self._action(index - 1)
        clock, display = _clock_of(action)
        return Step(index, action, game, clock, display, action.at)

    def steps(self) -> Iterator[Step]:
        """Every step in order (each one built as :meth:`step` builds it)."""
        return (self.step(i) for i in range(self.last + 1))

    def _actions(self, piece: int) -> list[ActionRecord]:
        if piece >= len(self._pieces):
            return []
        return [_action_of(self.record.id, data) for data in _unpack(self._pieces[piece])]

    def _action(self, n: int) -> ActionRecord:
        return self._actions(n // self.every)[n % self.every]

    def _snapshot(self, n: int) -> Game:
        """The game at step ``n * every``, taking every snapshot missing on the way to it."""
        built = max(i for i in self._snapshots if i <= n)
        game = self._cls.from_dict(_unpack(self._snapshots[built]))
        for piece in range(built, n):
            for action in self._actions(piece):
                apply_action(game, action)
            self._snapshots[piece + 1] = _pack(game.to_dict())
        return game


#: The log is read this many actions at a time, and each page packed and let go: on PostgreSQL
#: a page's rows become records on the event loop (5,000 at once held it for over 100 ms), and
#: records that stay alive across the interpreter's young collections pile up until a full
#: collection, which holds every thread (some 50 ms in a test process under load). Pages of 100
#: set off none while a 5,000-move match is opened, stepped and exported; pages of 300 did.
LOG_PAGE = 100


async def log_pages(store: Store, match_id: int) -> AsyncIterator[list[ActionRecord]]:
    """A match's log, a page of at most :data:`LOG_PAGE` actions at a time."""
    after = 0
    while True:
        page = await store.actions(match_id, after_seq=after, limit=LOG_PAGE)
        if page:
            yield page
            after = page[-1].seq
        if len(page) < LOG_PAGE:
            return


async def read_log(store: Store, match_id: int) -> list[ActionRecord]:
    """A match's whole log, read a page at a time (see :func:`log_pages`)."""
    return [action async for page in log_pages(store, match_id) for action in page]


async def open_replay(store: Store, match_id: int, *, every: int = SNAPSHOT_EVERY) -> Replay:
    """The :class:`Replay` of a stored match, its log read a page at a time and packed in a
    worker thread."""
    record = await store.get_match(match_id)
    replay = await asyncio.to_thread(Replay, record, every=every, complete=False)
    async for page in log_pages(store, match_id):
        await asyncio.to_thread(replay.add, page)
    replay.complete()
    return replay


class ReplayCache:
    """Replays by match id, the least recently used let go once they hold over ``max_bytes``.

    A replay over the bound alone is not kept. Its size is read again at every use, since a
    replay grows as it takes snapshots.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._replays: OrderedDict[int, Replay] = OrderedDict()

    def __len__(self) -> int:
        return len(self._replays)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._replays

    @property
    def nbytes(self) -> int:
        """What the replays kept hold, in bytes."""
        return sum(r.nbytes for r in self._replays.values())

    def get(self, match_id: int) -> Replay | None:
        """The kept replay of ``match_id`` (now the most recently used), or ``None``."""
        replay = self._replays.get(match_id)
        if replay is not None:
            self._replays.move_to_end(match_id)
            self.trim()
        return replay

    def put(self, match_id: int, replay: Replay) -> None:
        """Keep ``replay`` (unless it alone is over the bound), letting older ones go."""
        if replay.nbytes > self.max_bytes:
            self._replays.pop(match_id, None)
            return
        self._replays[match_id] = replay
        self._replays.move_to_end(match_id)
        self.trim()

    def trim(self) -> None:
        """Let the least recently used replays go until the rest fit in ``max_bytes``."""
        total = self.nbytes
        while self._replays and total > self.max_bytes:
            _, dropped = self._replays.popitem(last=False)
            total -= dropped.nbytes


# --------------------------------------------------------------------------- records out


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") + (
        f".{moment.microsecond // 1000:03d}Z" if moment.microsecond else "Z"
    )


def record_line(action: ActionRecord, display: Mapping[str, str]) -> RecordLine:
    """The record line of one accepted action, annotated with its time and the clocks."""
    annotations = {"at": _iso(action.at)}
    annotations.update({seat: text.replace(" +", "+") for seat, text in display.items() if text})
    if action.kind in MOVE_KINDS:
        return RecordLine(0, action.seat, action.private, action.text, annotations)
    return RecordLine(0, "host", False, write_host_line(action.kind, action.seat), annotations)


def _record_of(record: MatchRecord, game: Game, lines: Sequence[RecordLine] = ()) -> Record:
    """The record of a stored match whose game, played through, is ``game``."""
    names = {s.seat: s.display_name for s in record.seats}
    headers = {
        "P1": names.get("p1", ""),
        "P2": names.get("p2", ""),
        # A practice match says so: "geniusbot match #12, practice (bot at normal)".
        "Event": f"geniusbot match #{record.id}" + (f", {record.practice.describe()}" if record.practice else ""),
        "Date": record.created_at.astimezone(UTC).strftime("%Y-%m-%d"),
    }
    if record.clock:
        headers["TimeControl"] = str(record.clock.get("control", ""))
    out = record_from_game(game, lines, headers=headers)
    if record.status == MatchStatus.ABORTED:
        out.headers["Result"] = "*"
    return out


class RecordWriter:
    """The record text of a stored match, its log taken in parts (:meth:`add`): one game played
    through, none copied, and each line kept as text (thousands of small objects alive at once
    would set off the interpreter's full garbage collections, which hold every thread)."""

    def __init__(self, record: MatchRecord, withhold: str | None = None) -> None:
        self.match = record
        self.game = start_game(record)
        self.lines: list[str] = []
        self.withhold = withhold

    def add(self, actions: Iterable[ActionRecord]) -> None:
        """The next part of the log."""
        for action in actions:
            if not action.accepted:
                self.refused(action)
                continue
            if action.kind in GAME_KINDS:
                apply_action(self.game, action)
                if action.private and action.seat == self.withhold:
                    self.lines.append(f"# {action.seat} (dm): {WITHHELD}")
                    continue
                self.lines.append(checked_line(record_line(action, _clock_of(action)[1])))

    def refused(self, action: ActionRecord) -> None:
        """A refused line where it happened. One the adjudicator refused (an imported record's,
        which carries its line number) is written again as the line it was, so that the record
        read again rules it the same, with its reason in a comment; one the live bot refused is a
        comment (the rules may read its text otherwise out of the room's moment)."""
        if action.private and action.seat == self.withhold:
            self.lines.append(f"# {action.seat} (dm): {WITHHELD}")
            return
        reason = " ".join((action.error or "").split())
        if action.line is not None:
            line = RecordLine(0, action.seat, action.private, action.text, {"at": _iso(action.at)})
            try:
                self.lines.append(f"{checked_line(line)}  # refused: {reason}")
                return
            except RecordError:
                pass
        who = f"{action.seat}{' (dm)' if action.private else ''}: " if action.seat else ""
        self.lines.append(" ".join(f"# refused: {who}{action.text} ({reason})".split()))

    def text(self) -> str:
        """The record text of the log so far (as :func:`format_record` writes it)."""
        return join_record(_record_of(self.match, self.game).headers, self.lines)


#: What stands in an export for a private line of the seat whose private lines are withheld.
WITHHELD = "a private move, withheld while the match goes on"


async def export_record(store: Store, match_id: int, *, withhold: str | None = None) -> str:
    """A stored match as record text (private submissions included: export finished matches).
    ``withhold``: a seat whose private lines are left out, each a comment saying so (the
    practice opponent's, exported by its opponent while the match goes on).

    The log is read a page at a time; the game is played through and the text written in a
    worker thread: a long match takes a while, and the event loop goes on meanwhile.
    """
    writer = await asyncio.to_thread(RecordWriter, await store.get_match(match_id), withhold)
    async for page in log_pages(store, match_id):
        await asyncio.to_thread(writer.add, page)
    return await asyncio.to_thread(writer.text)
