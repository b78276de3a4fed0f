"""Match clocks: a pure model fed with the time by its caller (no asyncio, no sleeping).

One shape covers every time control of the rule texts. A seat's turn is paid for, in order, by

1. the **per-move allowance** (fresh each turn: ``60s``, ``90s``),
2. the **reserve**, spent continuously (``60s+5m``: 5 min) or in whole **blocks**
   (``90s+5m/10s``: 5 min in 10 s blocks), and
3. the **extra** reserve an item may give (``EventKind.EXTRA_TIME``: match-wide, spent
   continuously whenever time would be exceeded).

Byo-yomi (``5x60s``: 5 periods of 60 s) is the same shape: a period is a per-move allowance
of 60 s and the other four periods are a reserve spent in 60 s blocks; a move made inside its
period keeps it. A reserve may be **reset each bout** (``EventKind.BOUT``: a task's 60 s a bout).

As lichess and OGS do, the state is timestamps and amounts (when the running stretch of a turn
began, the time banked before a pause, reserve and extra left); what is left is computed when it
is asked for. All amounts are integer milliseconds, so blocks and periods are charged exactly.
Every method that needs the time takes ``now`` (seconds since the epoch, a float) from its caller.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from geniusbot.games import OptionError, get_game
from geniusbot.words import Message, Verbatim, Words, say, say_n

from .clockwords import cut, described, not_a_duration, quoted, too_long

MS = 1000
#: Warnings are announced when this many seconds are left before a seat's time runs out.
WARNING_SECONDS: tuple[int, ...] = (30, 10)


#: The longest time one amount of a time control may give (a per-move allowance, a reserve, a
#: block, a byo-yomi period): 24 hours.
MAX_AMOUNT_MS = 24 * 3600 * MS
#: The most byo-yomi periods a time control may have. With both bounds a seat's time is at most
#: 100 days, a deadline every timer (and the database's timestamps) can hold.
MAX_PERIODS = 100


class ClockSpecError(ValueError):
    """A time-control string the host cannot read; the message says what to write. Made of a
    :class:`Message` (``said``), as a game's refusal is: ``str(error)`` is its English."""

    def __init__(self, message: str | Message = "", *args: object) -> None:
        self.said: Message | None = message if isinstance(message, Message) else None
        super().__init__(Words()(message) if isinstance(message, Message) else message, *args)


class ClockTooLong(ClockSpecError):
    """A time control that reads but gives more than :data:`MAX_AMOUNT_MS` in one amount or more
    than :data:`MAX_PERIODS` periods; the message says the bound."""


def to_ms(seconds: float) -> int:
    """Seconds (float) as whole milliseconds."""
    return int(round(seconds * MS))


def format_duration(ms: int) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a duration, rounding up so that 0:00 means none left."""
    seconds = max(0, math.ceil(ms / MS))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def _format_amount(ms: int) -> str:
    """The shortest spec word for a duration: ``90s``, ``5m``, ``1.5s``."""
    if ms % 60_000 == 0 and ms >= 120_000:
        return f"{ms // 60_000}m"
    if ms % MS == 0:
        return f"{ms // MS}s"
    return f"{ms / MS:g}s"


_AMOUNT = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|m|min|mins|h)?$")


def _parse_amount(text: str, whole: str) -> int:
    match = _AMOUNT.match(text.strip().lower())
    if not match:
        raise ClockSpecError(not_a_duration(text, whole))
    number = float(match.group(1))  # a number of hundreds of digits reads as inf: too long, said below
    unit = match.group(2) or "s"
    factor = {"ms": 0.001, "h": 3600}.get(unit, 60 if unit.startswith("m") else 1)
    if number * factor * MS > MAX_AMOUNT_MS:
        raise ClockTooLong(too_long(text, whole, MAX_AMOUNT_MS // 3_600_000))
    return to_ms(number * factor)


@dataclass(frozen=True)
class TimeControl:
    """A time control: per-move allowance, then a reserve (continuous or in blocks).

    ``periods`` > 0 marks byo-yomi: ``per_move_ms`` is the period, the reserve is the other
    periods and ``block_ms`` equals the period. ``reset_each_bout`` gives the reserve back in
    full at the start of each bout of a task.
    """

    per_move_ms: int = 0
    reserve_ms: int = 0
    block_ms: int = 0
    periods: int = 0
    reset_each_bout: bool = False

    @property
    def untimed(self) -> bool:
        """True when there is no clock at all."""
        return self.per_move_ms == 0 and self.reserve_ms == 0

    @classmethod
    def byoyomi(cls, periods: int, period_ms: int) -> TimeControl:
        """``periods`` periods of ``period_ms`` each."""
        return cls(per_move_ms=period_ms, reserve_ms=(periods - 1) * period_ms, block_ms=period_ms, periods=periods)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read a spec: ``60s``, ``60s+5m``, ``90s+5m/10s``, ``5x60s``, ``30s+1m@bout``, ``none``.

        ``+5m`` after nothing (``0s+5m``) is a plain reserve with no per-move allowance.
        """
        whole = text
        spec = text.strip().lower().replace(" ", "")
        if spec in {"none", "off", "untimed", "0", "-"}:
            return cls()
        reset = False
        if spec.endswith("@bout"):
            reset, spec = True, spec[: -len("@bout")]
        byo = re.fullmatch(r"(\d+)[x*](.+)", spec)
        if byo:
            digits = byo.group(1).lstrip("0") or "0"
            if len(digits) > len(str(MAX_PERIODS)) or int(digits) > MAX_PERIODS:
                raise ClockTooLong(
                    say(
                        "{spec} has {digits} periods; a byo-yomi clock may have at most {most}, such as 5x60s.",
                        spec=quoted(whole.strip()),
                        digits=cut(digits),
                        most=MAX_PERIODS,
                    )
                )
            periods = int(digits)
            period = _parse_amount(byo.group(2), whole)
            if periods < 1 or period <= 0:
                raise ClockSpecError(
                    say("{spec} needs at least one period of more than 0 s, such as 5x60s.", spec=Verbatim(repr(whole)))
                )
            return TimeControl.byoyomi(periods, period).with_reset(reset)
        per_move_text, plus, reserve_text = spec.partition("+")
        if not per_move_text:
            raise ClockSpecError(
                say("{spec} is not a time control; write 60s, 60s+5m, 90s+5m/10s or 5x60s.", spec=Verbatim(repr(whole)))
            )
        per_move = _parse_amount(per_move_text, whole)
        reserve = block = 0
        if plus:
            reserve_text, slash, block_text = reserve_text.partition("/")
            reserve = _parse_amount(reserve_text, whole)
            if slash:
                block = _parse_amount(block_text, whole)
                if block <= 0:
                    raise ClockSpecError(
                        say("The block in {spec} must be longer than 0 s, such as 10s.", spec=Verbatim(repr(whole)))
                    )
        if per_move == 0 and reserve == 0:
            raise ClockSpecError(
                say("{spec} gives no time at all; write none for an untimed match.", spec=Verbatim(repr(whole)))
            )
        return cls(per_move_ms=per_move, reserve_ms=reserve, block_ms=block, reset_each_bout=reset)

    def with_reset(self, reset: bool) -> TimeControl:
        """The same control, with or without a reserve reset each bout."""
        return TimeControl(self.per_move_ms, self.reserve_ms, self.block_ms, self.periods, reset)

    def spec(self) -> str:
        """The canonical spec string; ``TimeControl.parse(tc.spec()) == tc``."""
        if self.untimed:
            return "none"
        if self.periods:
            text = f"{self.periods}x{_format_amount(self.per_move_ms)}"
        else:
            text = _format_amount(self.per_move_ms)
            if self.reserve_ms:
                text += f"+{_format_amount(self.reserve_ms)}"
                if self.block_ms:
                    text += f"/{_format_amount(self.block_ms)}"
        return text + ("@bout" if self.reset_each_bout else "")

    def describe(self) -> str:
        """A sentence for players: "60 s a move, then a 5:00 reserve"; "none" untimed (it follows
        "Clock: " in the match's first line): :meth:`described` in English."""
        return Words()(self.described())

    def described(self) -> Message:
        """:meth:`describe` as words as data, to be said in any language."""
        return described(self)


# --------------------------------------------------------------------------- presets

#: The time control of a game that names no default of its own (see ``Game.clocks``).
DEFAULT_PRESET = "60s+5m"


def preset(game: str, variant: str | None = None) -> TimeControl:
    """The default time control of a game and rule set, as the game declares it."""
    try:
        spec = get_game(game).default_clock(variant)
    except OptionError:
        spec = None
    return TimeControl.parse(spec or DEFAULT_PRESET)


# --------------------------------------------------------------------------- state


@dataclass
class SeatClock:
    """One seat's clock. ``since_ms`` is set while its turn runs; ``elapsed_ms`` is banked.
    ``flagged``: the seat's last turn ran out of time (until its next turn starts)."""

    reserve_ms: int
    extra_ms: int = 0
    on_turn: bool = False
    elapsed_ms: int = 0
    since_ms: int | None = None
    flagged: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (``flagged`` only when set: a clock that never ran out is stored as before)."""
        data: dict[str, Any] = {
            "reserve_ms": self.reserve_ms,
            "extra_ms": self.extra_ms,
            "on_turn": self.on_turn,
            "elapsed_ms": self.elapsed_ms,
            "since_ms": self.since_ms,
        }
        if self.flagged:
            data["flagged"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatClock:
        """Rebuild a seat's clock from :meth:`to_dict`."""
        return cls(
            reserve_ms=int(data["reserve_ms"]),
            extra_ms=int(data.get("extra_ms", 0)),
            on_turn=bool(data.get("on_turn", False)),
            elapsed_ms=int(data.get("elapsed_ms", 0)),
            since_ms=None if data.get("since_ms") is None else int(data["since_ms"]),
            flagged=bool(data.get("flagged", False)),
        )


@dataclass(frozen=True)
class Charge:
    """What a finished turn cost: reserve and extra spent; ``flagged`` if time ran out."""

    elapsed_ms: int
    reserve_ms: int
    extra_ms: int
    flagged: bool


@dataclass(frozen=True)
class Remaining:
    """A seat's time now. ``move_ms`` is what is left of the allowance or block being spent.

    ``reserve_ms`` counts the blocks not yet started; ``total_ms`` is the time until expiry.
    """

    move_ms: int
    reserve_ms: int
    extra_ms: int
    total_ms: int
    in_reserve: bool
    periods_left: int | None = None


class AlertKind(StrEnum):
    """What a clock's alert marks."""

    #: ``seconds`` are left of the move's time or of the reserve.
    WARNING = "warning"
    #: The move's allowance is spent: the reserve runs now.
    OVERTIME = "overtime"
    #: A byo-yomi period is used up; the next one runs.
    PERIOD = "period"
    #: The time is up.
    EXPIRY = "expiry"


@dataclass(frozen=True)
class Alert:
    """A moment worth a timer: a warning (``seconds`` left), overtime, or the expiry itself."""

    seat: str
    kind: AlertKind
    at: float
    seconds: int = 0


@dataclass
class Clock:
    """Every seat's clock of one match, under one :class:`TimeControl`."""

    control: TimeControl
    seats: dict[str, SeatClock] = field(default_factory=dict)
    paused: bool = False

    @classmethod
    def new(cls, control: TimeControl, seats: Iterable[str] = ("p1", "p2")) -> Clock:
        """Fresh clocks, all stopped, each reserve full."""
        return cls(control, {seat: SeatClock(reserve_ms=control.reserve_ms) for seat in seats})

    # ---- reading -----------------------------------------------------------------------

    def elapsed_ms(self, seat: str, now: float) -> int:
        """How long the seat's current turn has run (pauses excluded)."""
        state = self.seats[seat]
        running = 0 if state.since_ms is None else max(0, to_ms(now) - state.since_ms)
        return state.elapsed_ms + running

    def running(self) -> tuple[str, ...]:
        """The seats whose turn is on (running, or frozen by a pause)."""
        return tuple(seat for seat, state in self.seats.items() if state.on_turn)

    def _budget_ms(self, state: SeatClock) -> int:
        return self.control.per_move_ms + state.reserve_ms + state.extra_ms

    def remaining(self, seat: str, now: float) -> Remaining:
        """What the seat has left now (a seat not on turn has its full allowance ahead)."""
        state = self.seats[seat]
        control = self.control
        elapsed = self.elapsed_ms(seat, now) if state.on_turn else 0
        total = max(0, self._budget_ms(state) - elapsed)
        over = elapsed - control.per_move_ms
        if over <= 0:
            move, reserve, extra, in_reserve = control.per_move_ms - elapsed, state.reserve_ms, state.extra_ms, False
        else:
            spent_reserve = self._reserve_charge(over, state.reserve_ms)
            reserve = state.reserve_ms - spent_reserve
            extra_used = max(0, over - state.reserve_ms)
            extra = max(0, state.extra_ms - extra_used)
            if control.block_ms and over <= state.reserve_ms:
                move = spent_reserve - over  # left of the block being spent
            else:
                move = 0
            in_reserve = True
        periods = None
        if control.periods:
            periods = 1 + (reserve // control.per_move_ms if control.per_move_ms else 0)
        return Remaining(max(0, move), reserve, extra, total, in_reserve, periods)

    def _reserve_charge(self, over_ms: int, reserve_ms: int) -> int:
        """The reserve a turn ``over_ms`` past its allowance costs (whole blocks if blocked)."""
        if over_ms <= 0:
            return 0
        if self.control.block_ms:
            need = -(-over_ms // self.control.block_ms) * self.control.block_ms
        else:
            need = over_ms
        return min(need, reserve_ms)

    def deadline(self, seat: str) -> float | None:
        """When the seat's time runs out (seconds since the epoch), or ``None`` if not running."""
        state = self.seats[seat]
        if self.control.untimed or not state.on_turn or state.since_ms is None:
            return None
        return (state.since_ms + self._budget_ms(state) - state.elapsed_ms) / MS

    def expired(self, seat: str, now: float) -> bool:
        """Whether the seat's running turn has used up all its time."""
        deadline = self.deadline(seat)
        return deadline is not None and to_ms(now) >= to_ms(deadline)

    def next_deadline(self) -> tuple[float, str] | None:
        """The earliest running deadline and its seat."""
        found = [(d, s) for s in self.seats if (d := self.deadline(s)) is not None]
        return min(found) if found else None

    def alerts(self, now: float, thresholds: Iterable[int] = WARNING_SECONDS) -> list[Alert]:
        """Every future moment worth a timer, for every running seat, in time order.

        Warnings at ``thresholds`` seconds before expiry (only those still ahead), overtime
        when the per-move allowance runs out and a reserve takes over, and the expiry.
        """
        out: list[Alert] = []
        now_ms = to_ms(now)
        for seat, state in self.seats.items():
            deadline = self.deadline(seat)
            if deadline is None:
                continue
            deadline_ms = to_ms(deadline)
            for seconds in thresholds:
                at = deadline_ms - seconds * MS
                if at > now_ms:
                    out.append(Alert(seat, AlertKind.WARNING, at / MS, seconds))
            start_ms = state.since_ms - state.elapsed_ms  # type: ignore[operator]
            if self.control.periods:
                # Byo-yomi: each period that runs out (while another is left) is announced.
                boundary = start_ms + self.control.per_move_ms
                while boundary < deadline_ms:
                    if boundary > now_ms:
                        out.append(Alert(seat, AlertKind.PERIOD, boundary / MS))
                    boundary += self.control.per_move_ms
            elif self.control.per_move_ms and (state.reserve_ms or state.extra_ms):
                at = start_ms + self.control.per_move_ms
                if at > now_ms:
                    out.append(Alert(seat, AlertKind.OVERTIME, at / MS))
            out.append(Alert(seat, AlertKind.EXPIRY, deadline))
        out.sort(key=lambda a: (a.at, a.seat, a.kind))
        return out

    def passed_alerts(self, since: float, now: float) -> list[Alert]:
        """The warnings, overtime and period notices of the running turns due in ``(since, now]``.

        Only moments after a turn's own start count (a 30 s clock's "30 s left" at the start is
        no news); the expiry is left out: the timeout itself says it.
        """
        now_ms = to_ms(now)
        starts = {
            seat: state.since_ms - state.elapsed_ms for seat, state in self.seats.items() if state.since_ms is not None
        }
        return [
            a
            for a in self.alerts(since)
            if a.kind != AlertKind.EXPIRY and to_ms(a.at) <= now_ms and to_ms(a.at) > starts.get(a.seat, now_ms)
        ]

    # ---- changing ----------------------------------------------------------------------

    def start(self, seat: str, now: float) -> None:
        """Start the seat's turn (a no-op if it is on turn already)."""
        state = self.seats[seat]
        if state.on_turn:
            return
        state.on_turn, state.elapsed_ms, state.flagged = True, 0, False
        state.since_ms = None if self.paused else to_ms(now)

    def stop(self, seat: str, now: float) -> Charge:
        """End the seat's turn and charge it; a flagged turn empties reserve and extra."""
        state = self.seats[seat]
        if not state.on_turn:
            return Charge(0, 0, 0, False)
        elapsed = self.elapsed_ms(seat, now)
        over = elapsed - self.control.per_move_ms
        reserve = self._reserve_charge(over, state.reserve_ms)
        extra = min(max(0, over - state.reserve_ms), state.extra_ms)
        flagged = not self.control.untimed and elapsed >= self._budget_ms(state)
        state.reserve_ms -= reserve
        state.extra_ms -= extra
        state.on_turn, state.elapsed_ms, state.since_ms = False, 0, None
        state.flagged = flagged
        return Charge(elapsed, reserve, extra, flagged)

    def sync(self, to_move: Iterable[str], now: float) -> None:
        """Make exactly the seats in ``to_move`` run: stop (and charge) the others, start these."""
        wanted = set(to_move)
        for seat in self.seats:
            if seat not in wanted and self.seats[seat].on_turn:
                self.stop(seat, now)
        for seat in self.seats:
            if seat in wanted:
                self.start(seat, now)

    def pause(self, now: float) -> None:
        """Freeze every running turn (host pause, or the bot going down)."""
        if self.paused:
            return
        now_ms = to_ms(now)
        for state in self.seats.values():
            if state.since_ms is not None:
                state.elapsed_ms += max(0, now_ms - state.since_ms)
                state.since_ms = None
        self.paused = True

    def resume(self, now: float) -> None:
        """Restart every frozen turn from ``now``."""
        if not self.paused:
            return
        now_ms = to_ms(now)
        for state in self.seats.values():
            if state.on_turn:
                state.since_ms = now_ms
        self.paused = False

    def give_back(self, seconds: float) -> None:
        """Move every running turn's start later by ``seconds``: an outage does not count."""
        delta = to_ms(seconds)
        if delta <= 0:
            return
        for state in self.seats.values():
            if state.since_ms is not None:
                state.since_ms += delta

    def reset_reserves(self) -> None:
        """A new bout: every reserve back to full (only for controls that reset each bout)."""
        if self.control.reset_each_bout:
            for state in self.seats.values():
                state.reserve_ms = self.control.reserve_ms

    def switch(self, control: TimeControl) -> None:
        """A new time control from now on (a final match's next task): every reserve starts full."""
        self.control = control
        for state in self.seats.values():
            state.reserve_ms = control.reserve_ms

    def add_extra(self, seat: str, ms: int) -> None:
        """Give the seat extra reserve for the rest of the match (an item's time)."""
        self.seats[seat].extra_ms += ms

    # ---- display and storage ---------------------------------------------------------------

    def said(self, seat: str, now: float) -> Message | Verbatim:
        """:meth:`display` as a message's argument: the digits as they are, its words
        ("periods", "extra") as words as data."""
        if self.control.untimed:
            return Verbatim("")
        if self.seats[seat].flagged and not self.seats[seat].on_turn:
            return Verbatim(format_duration(0))
        left = self.remaining(seat, now)
        text: Message | Verbatim
        if self.control.periods:
            time = Verbatim(format_duration(left.move_ms))
            text = say_n("{time} ({n} period)", "{time} ({n} periods)", n=left.periods_left or 0, time=time)
        else:
            shown = format_duration(left.move_ms)
            if self.control.reserve_ms:
                shown += f" +{format_duration(left.reserve_ms)}"
            text = Verbatim(shown)
        if left.extra_ms:
            text = say("{time} +{extra} extra", time=text, extra=Verbatim(format_duration(left.extra_ms)))
        return text

    def display(self, seat: str, now: float) -> str:
        """A short string for a board or a status line: ``0:42 +4:10``, ``0:42 (4 periods)``;
        ``0:00`` for a seat whose time ran out (until its next turn starts)."""
        if self.control.untimed:
            return ""
        if self.seats[seat].flagged and not self.seats[seat].on_turn:
            return format_duration(0)
        left = self.remaining(seat, now)
        if self.control.periods:
            text = (
                f"{format_duration(left.move_ms)} ({left.periods_left} period{'s' if left.periods_left != 1 else ''})"
            )
        else:
            text = format_duration(left.move_ms)
            if self.control.reserve_ms:
                text += f" +{format_duration(left.reserve_ms)}"
        if left.extra_ms:
            text += f" +{format_duration(left.extra_ms)} extra"
        return text

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` rebuilds an equal clock."""
        return {
            "control": self.control.spec(),
            "paused": self.paused,
            "seats": {seat: state.to_dict() for seat, state in self.seats.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Clock:
        """Rebuild a clock from :meth:`to_dict`."""
        return cls(
            TimeControl.parse(data["control"]),
            {seat: SeatClock.from_dict(state) for seat, state in data["seats"].items()},
            bool(data.get("paused", False)),
        )
