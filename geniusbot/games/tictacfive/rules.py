"""Tic-Tac-Five (seed 002): gomoku on a 15 x 15 board with a swap opening and no double three.

The readings of the rule text are fixed in ``docs/rules/tictacfive.md`` (its rules and numbered
rulings). In short:

* ``p1`` places three stones, black, white, black; ``p2`` then chooses a colour; whoever holds
  white places the fourth stone and play alternates.
* Five or more in a row wins (an overline wins too); a full board with no five is a draw.
* A placement that makes two or more open threes in different directions at once is forbidden,
  for both colours and for the opening stones, unless it makes five.
* The view lists the points the stone to place may not take for that reason (``forbidden``,
  ruling 16), for the picture and the text board to mark.

The board is a flat list with a one-point wall around the 15 x 15 points, so the line walks of
the double-three check need no bounds tests: every walk stops at a wall.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from geniusbot.games.base import (
    Event,
    Game,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    Termination,
)
from geniusbot.games.grid import Point, grid_lines, parse_point, stones_said
from geniusbot.games.tictacfive.view import TicTacFiveView
from geniusbot.words import Message, Seat, Verbatim, listed, say, say_c

if TYPE_CHECKING:
    from geniusbot.games.tactics import ForcedWin

SIZE = 15
COLOURS: tuple[str, str] = ("black", "white")
OPENING_COLOURS: tuple[str, str, str] = ("black", "white", "black")
#: The text board's mark on a point the next stone may not take (a double three).
FORBIDDEN_MARK = "*"


def forbidden_legend(colour: str | None) -> str:
    """What the mark on a forbidden point means, for the legend of the picture and the text board."""
    return f"{colour or 'the next stone'} may not play here: a double three"


#: The colours as a sentence says them (words as data).
COLOUR_WORDS = {"black": say_c("colour", "black"), "white": say_c("colour", "white")}


class TicTacFiveEvent(StrEnum):
    """Tic-Tac-Five's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: A new phase: ``data["phase"]`` (opening, choice, play); entering play, ``data["colors"]`` by seat.
    PHASE = "phase"
    #: A stone is placed: ``data`` has the ``seat``, the ``point`` ("H8") and the stone's ``color``.
    MOVE = "move"


_EMPTY, _BLACK, _WHITE, _WALL = 0, 1, 2, 3
_CODE = {"black": _BLACK, "white": _WHITE}
_STRIDE = SIZE + 2

# One step along each line direction on the flat board, with the name a player reads.
# Row 1 is at the bottom, so (+1 column, +1 row) rises to the right.
_DIRECTIONS: tuple[tuple[int, str], ...] = (
    (1, "row"),
    (_STRIDE, "column"),
    (_STRIDE + 1, "rising diagonal"),
    (1 - _STRIDE, "falling diagonal"),
)

_NONE, _THREE, _FOUR, _FIVE = 0, 1, 2, 3


def _index(point: Point) -> int:
    return (point.row + 1) * _STRIDE + point.col + 1


_POINTS: tuple[tuple[int, Point], ...] = tuple(
    (_index(Point(col, row)), Point(col, row)) for row in range(SIZE) for col in range(SIZE)
)
_POINT_AT: dict[int, Point] = dict(_POINTS)
_EMPTY_BOARD: list[int] = [_WALL] * (_STRIDE * _STRIDE)
for _i, _ in _POINTS:
    _EMPTY_BOARD[_i] = _EMPTY


def _line_shape(board: list[int], at: int, step: int, own: int) -> int:
    """What a stone of ``own`` placed on the empty point ``at`` makes along one line.

    ``_FIVE``: five or more in a row through it. ``_FOUR``: one more stone (next to the run
    through it) makes five or more. ``_THREE``: not a four, and one more stone makes a run of
    exactly four through it with both ends empty points of the board (an open four). Only
    the two points at the ends of the run through the new stone can join anything to it, so
    those are the only ones tried.
    """
    i = at - step
    while board[i] == own:
        i -= step
    left_end = i
    i = at + step
    while board[i] == own:
        i += step
    right_end = i
    length = (right_end - left_end) // step - 1
    if length >= 5:
        return _FIVE
    three = False
    if board[left_end] == _EMPTY:
        i = left_end - step
        while board[i] == own:
            i -= step
        joined = (right_end - i) // step - 1
        if joined >= 5:
            return _FOUR
        if joined == 4 and board[i] == _EMPTY and board[right_end] == _EMPTY:
            three = True
    if board[right_end] == _EMPTY:
        i = right_end + step
        while board[i] == own:
            i += step
        joined = (i - left_end) // step - 1
        if joined >= 5:
            return _FOUR
        if joined == 4 and board[i] == _EMPTY and board[left_end] == _EMPTY:
            three = True
    return _THREE if three else _NONE


def _open_threes(board: list[int], at: int, own: int) -> list[str] | None:
    """The directions in which a stone of ``own`` on ``at`` makes an open three, or ``None`` if it makes five."""
    threes: list[str] = []
    for step, direction in _DIRECTIONS:
        shape = _line_shape(board, at, step, own)
        if shape == _FIVE:
            return None
        if shape == _THREE:
            threes.append(direction)
    return threes


def _allowed(board: list[int], at: int, own: int) -> bool:
    """Whether ``own`` may place on the empty point ``at``: no double three, unless it makes five."""
    threes = _open_threes(board, at, own)
    return threes is None or len(threes) < 2


def _near_points() -> dict[int, tuple[tuple[int, int], ...]]:
    """For each point, the points within three of it along its four lines, each with the slot of
    that point and line in :func:`_forbidden`'s counts (four slots a point, one a direction)."""
    near: dict[int, tuple[tuple[int, int], ...]] = {}
    for at, point in _POINTS:
        found = []
        for direction, (dc, dr) in enumerate(((1, 0), (0, 1), (1, 1), (1, -1))):
            for k in (-3, -2, -1, 1, 2, 3):
                col, row = point.col + k * dc, point.row + k * dr
                if 0 <= col < SIZE and 0 <= row < SIZE:
                    i = _index(Point(col, row))
                    found.append((i, 4 * i + direction))
        near[at] = tuple(found)
    return near


_NEAR = _near_points()


def _forbidden(board: list[int], own: int) -> list[int]:
    """The empty points where ``own`` may not place (a double three that makes no five), in reading order.

    Only points with two or more of ``own``'s stones within three along each of two lines are
    tried: an open three needs the new stone, the stone that makes it an open four and two more
    stones, all in one run of four, so its two other stones lie within three of the new one.
    """
    near = [0] * (4 * len(board))  # own stones within three of a point along one line
    lines = [0] * len(board)  # lines along which a point has two of them
    tried: list[int] = []
    for at, _ in _POINTS:
        if board[at] != own:
            continue
        for i, slot in _NEAR[at]:
            if board[i] == _EMPTY:
                near[slot] += 1
                if near[slot] == 2:
                    lines[i] += 1
                    if lines[i] == 2:
                        tried.append(i)
    return sorted(i for i in tried if not _allowed(board, i, own))


#: Small numbers as words ("five in a row", "two open threes"); a larger one is said as its number.
_NUMBERS = {
    2: say_c("number", "two"),
    3: say_c("number", "three"),
    4: say_c("number", "four"),
    5: say_c("number", "five"),
    6: say_c("number", "six"),
    7: say_c("number", "seven"),
    8: say_c("number", "eight"),
    9: say_c("number", "nine"),
}


# --------------------------------------------------------------------------- moves


@functools.cache
def _placed(seat: str, colour: str, point: Point) -> Message:
    """What a placement says, made once for each seat, colour and point (at most 900): a record
    ruled on says a few hundred."""
    return say(
        "{seat} places {colour} on {point}.", seat=Seat(seat), colour=COLOUR_WORDS[colour], point=Verbatim(str(point))
    )


@functools.cache
def _taken(point: Point) -> Message:
    """The refusal of a stone on a taken point, made once for each point (a typed transcript
    repeats one often)."""
    return say("{point} is taken; choose an empty point.", point=Verbatim(str(point)))


@functools.cache
def _double_three(point: Point, threes: tuple[str, ...]) -> Message:
    """The refusal of a double three on ``point`` (the lines it makes open threes along), made
    once for each point and lines (a practice opponent and a typed transcript try many)."""
    return say(
        "{point} would make {count} open threes at once ({point}: {threes}), a forbidden double three; "
        "choose another point.",
        point=Verbatim(str(point)),
        count=_NUMBERS.get(len(threes), len(threes)),
        threes=listed([Verbatim(three) for three in threes]),
    )


@dataclass(frozen=True)
class Place(Move):
    """Put the stone of the colour to move on an empty point."""

    point: Point

    def text(self) -> str:
        """The point, such as ``H8``."""
        return str(self.point)


@dataclass(frozen=True)
class ChooseColour(Move):
    """``p2``'s choice of colour after the three opening stones."""

    colour: str

    def text(self) -> str:
        """``black`` or ``white``."""
        return self.colour


# --------------------------------------------------------------------------- the game


class TicTacFive(Game):
    """Tic-Tac-Five: five in a row on 15 x 15, three-stone opening, colour choice, no double three."""

    name = "tictacfive"
    aliases = ("gomoku",)
    title = "Tic-Tac-Five"
    picture = "geniusbot.games.tictacfive.picture:render"
    # The rule text has no clock: the host's choice (60 s a move and a 5 min reserve).
    clocks = {"*": "60s+5m"}
    choice_phases = frozenset({"choice"})
    perfect_information = True
    keywords = frozenset(COLOURS)
    summary = say(
        "Make five (or more) of your stones in a row, across, up or diagonally, on a 15 x 15 board "
        "(columns A-O, rows 1-15). Opening: p1 places three stones, black, white, black; p2 then "
        "chooses a colour; whoever holds white places the fourth stone and play alternates. You may "
        "not place a stone that makes two open threes at once (a double three) unless it makes five. "
        "A full board with no five is a draw. Type a point such as H8, or black / white when "
        "choosing a colour."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self._board: list[int] = list(_EMPTY_BOARD)
        self._stones: list[tuple[Point, str]] = []
        self._phase = "opening"
        self._colours: dict[str, str | None] = {"p1": None, "p2": None}
        self._next_colour: str | None = "black"
        self._winning_line: list[str] | None = None
        # The forbidden points of the position they were computed for (see forbidden()).
        self._forbidden_memo: tuple[tuple[int, str, str | None], list[str]] | None = None
        # The placement parse_move just checked, and the line of five it makes (a step along
        # _DIRECTIONS, or None): play() of that very move checks nothing again.
        self._checked: tuple[Place, int | None] | None = None

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The stones on the grid, the last one in lower case; ``*`` on each point the next stone
        may not take (a double three), with a line saying so."""
        board = cast(TicTacFiveView, view)  # a host passes the views of this game
        last = board["last_move"]
        forbidden = board.get("forbidden") or []
        # grid_lines writes a cell's own letter for a value it has no letter for: "*".
        cells = {**board["stones"], **{point: FORBIDDEN_MARK for point in forbidden}}
        lines: list[str | Message] = list(grid_lines(board["size"], board["size"], cells, [last] if last else []))
        if forbidden:
            mark, colour = Verbatim(FORBIDDEN_MARK), board["next_color"]
            lines.append(
                say("{mark} {colour} may not play here: a double three", mark=mark, colour=COLOUR_WORDS[colour])
                if colour
                else say("{mark} the next stone may not play here: a double three", mark=mark)
            )
        return lines

    @classmethod
    def describe(cls, view: Mapping[str, Any]) -> list[Message] | None:
        """The stones of each colour, where they stand (the alt text of the board's picture)."""
        return stones_said(cast(TicTacFiveView, view)["stones"], COLOUR_WORDS)

    @classmethod
    def legend(cls, view: Mapping[str, Any]) -> dict[str, Message]:
        """Each seat's colour, once p2 has chosen."""
        return {seat: COLOUR_WORDS[colour] for seat, colour in cast(TicTacFiveView, view)["colors"].items() if colour}

    def setup(self, **options: str) -> None:
        """Nothing to lay out: the board starts empty and the game takes no options."""

    def opening_events(self) -> list[Event]:
        """What the match opens with: who places the opening stones, and how a point is written
        (the board alone says only whose turn it is)."""
        if self.is_over or self._stones:
            return []
        return [
            Event.of(
                say(
                    "{seat} places the three opening stones, {black}, {white}, {black} (a point is written like H8).",
                    seat=Seat("p1"),
                    black=COLOUR_WORDS["black"],
                    white=COLOUR_WORDS["white"],
                ),
                kind=TicTacFiveEvent.PHASE,
                data={"phase": "opening"},
            )
        ]

    # ---- whose turn, what is legal ---------------------------------------------------------

    @property
    def phase(self) -> str:
        """``opening``, ``choice``, ``play`` or ``over`` (a timeout or resignation also ends it)."""
        return "over" if self.is_over else self._phase

    def seat_of(self, colour: str) -> str:
        """The seat that places the stones of ``colour`` now (``p1`` throughout the opening)."""
        if self._phase == "opening":
            return "p1"
        return "p1" if self._colours["p1"] == colour else "p2"

    def to_move(self) -> tuple[str, ...]:
        """``p1`` in the opening, ``p2`` at the choice, then the holder of the colour to move."""
        if self.is_over:
            return ()
        if self._phase == "choice":
            return ("p2",)
        return (self.seat_of(self._next_colour or "black"),)

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A point (``H8``) while stones are placed, ``black``/``white`` at the choice."""
        self.require_turn(seat)
        self.require_room(private)
        word = text.strip().lower()
        if self._phase == "choice":
            if word in COLOURS:
                return ChooseColour(seat, word)
            try:
                parse_point(text, SIZE, SIZE)
            except MalformedMoveError:
                raise MalformedMoveError(
                    say("{text} is not a colour; type black or white.", text=Verbatim(repr(text.strip())))
                ) from None
            raise IllegalMoveError(say("Choose a colour first: type black or white."))
        if word in COLOURS:
            raise IllegalMoveError(
                say(
                    "The colours are chosen after the opening stones; now place the {colour} stone: type a point "
                    "such as H8.",
                    colour=COLOUR_WORDS[self._next_colour or "black"],
                )
            )
        point = parse_point(text, SIZE, SIZE)
        move = Place(seat, point)
        self._checked = (move, self._check_place(point))
        return move

    def _check_place(self, point: Point) -> int | None:
        """Refuse a stone on ``point`` that the rules refuse; else the step along
        :data:`_DIRECTIONS` of the line of five it makes (the first), or ``None``."""
        at = _index(point)
        board = self._board
        if board[at] != _EMPTY:
            raise IllegalMoveError(_taken(point))
        own = _CODE[self._next_colour or "black"]
        threes: list[str] = []
        for step, direction in _DIRECTIONS:
            shape = _line_shape(board, at, step, own)
            if shape == _FIVE:
                return step  # a five is never forbidden
            if shape == _THREE:
                threes.append(direction)
        if len(threes) >= 2:
            raise IllegalMoveError(_double_three(point, tuple(threes)))
        return None

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal move of ``seat`` (default: the seat to move), points in row order from A1."""
        movers = self.to_move()
        if seat is not None and seat not in movers:
            return
        for mover in movers:
            if self._phase == "choice":
                for colour in COLOURS:
                    yield ChooseColour(mover, colour)
                continue
            board, own = self._board, _CODE[self._next_colour or "black"]
            for at, point in _POINTS:
                if board[at] == _EMPTY and _allowed(board, at, own):
                    yield Place(mover, point)

    def forbidden(self) -> list[str]:
        """The empty points the next stone may not take because it would make a double three
        (without making five), in reading order (A1, B1, ..., O1, A2, ...): the points
        :meth:`parse_move` refuses for that reason. Empty at the colour choice and once the game
        is over; in the opening it is always empty (docs/rules/tictacfive.md, ruling 5)."""
        if self.is_over or self._phase == "choice" or self._next_colour is None:
            return []
        key = (len(self._stones), self._phase, self._next_colour)
        if self._forbidden_memo is None or self._forbidden_memo[0] != key:
            points = _forbidden(self._board, _CODE[self._next_colour])
            self._forbidden_memo = (key, [str(_POINT_AT[i]) for i in points])
        return list(self._forbidden_memo[1])

    # ---- play -----------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Place a stone or take a colour; a move that :meth:`parse_move` would refuse is refused the same way."""
        self.require_turn(move.seat)
        checked, self._checked = self._checked, None
        if isinstance(move, ChooseColour):
            if self._phase != "choice":
                raise IllegalMoveError(say("No colour is chosen now; place a stone: type a point such as H8."))
            if move.colour not in COLOURS:
                raise MalformedMoveError(
                    say("{text} is not a colour; type black or white.", text=Verbatim(repr(move.colour)))
                )
            return self._choose(move.seat, move.colour)
        if isinstance(move, Place):
            if self._phase == "choice":
                raise IllegalMoveError(say("Choose a colour first: type black or white."))
            five_step = checked[1] if checked is not None and checked[0] is move else self._check_place(move.point)
            return self._place(move.seat, move.point, five_step)
        raise MalformedMoveError(
            say("{text} is not a Tic-Tac-Five move; type a point such as H8.", text=Verbatim(repr(move.text())))
        )

    def _choose(self, seat: str, colour: str) -> list[Event]:
        other = "p1" if seat == "p2" else "p2"
        chosen = {seat: colour, other: "white" if colour == "black" else "black"}
        self._colours = {"p1": chosen["p1"], "p2": chosen["p2"]}
        self._phase = "play"
        self._next_colour = "white"
        # Who moves next is the caption's "To move:" line; the event says why it is them.
        said = (
            say(
                "{seat} takes {white} and places the fourth stone; {other} plays {black}.",
                seat=Seat(seat),
                other=Seat(other),
                white=COLOUR_WORDS["white"],
                black=COLOUR_WORDS["black"],
            )
            if colour == "white"
            else say(
                "{seat} takes {black}; {other} plays {white} and places the fourth stone.",
                seat=Seat(seat),
                other=Seat(other),
                white=COLOUR_WORDS["white"],
                black=COLOUR_WORDS["black"],
            )
        )
        events = [
            Event.of(
                said,
                kind=TicTacFiveEvent.PHASE,
                data={"phase": "play", "colors": dict(self._colours)},
            )
        ]
        return events + self._hand_over()

    def _place(self, seat: str, point: Point, five_step: int | None) -> list[Event]:
        colour = self._next_colour or "black"
        own = _CODE[colour]
        at = _index(point)
        self._board[at] = own
        self._stones.append((point, colour))
        events = [
            Event.of(
                _placed(seat, colour, point),
                kind=TicTacFiveEvent.MOVE,
                data={"seat": seat, "point": str(point), "color": colour},
            )
        ]
        if five_step is not None:
            self._winning_line = self._run_through(at, five_step, own)
            self._next_colour = None
            return events + self.end(
                seat,
                Termination.LINE,
                self._line_words(seat, colour, self._winning_line),
                verdict=say(", and wins"),
                line=[str(p) for p in self._winning_line],
            )
        if self._phase == "opening":
            if len(self._stones) < len(OPENING_COLOURS):
                self._next_colour = OPENING_COLOURS[len(self._stones)]
                return events
            self._phase = "choice"
            self._next_colour = None
            return events + [
                Event.of(
                    # The question itself (black / white, by button or typed) is put by the host.
                    say(
                        "The three opening stones are down. {seat} now chooses a colour; whoever takes {white} "
                        "places the fourth stone.",
                        seat=Seat("p2"),
                        white=COLOUR_WORDS["white"],
                    ),
                    kind=TicTacFiveEvent.PHASE,
                    data={"phase": "choice"},
                )
            ]
        self._next_colour = "white" if colour == "black" else "black"
        return events + self._hand_over()

    def _run_through(self, at: int, step: int, own: int) -> list[str]:
        start = at
        while self._board[start - step] == own:
            start -= step
        # Every step moves one column right (or, in a column, one row up), so the line reads from
        # its left (or bottom) end whichever of its stones was the last one placed.
        line = []
        while self._board[start] == own:
            line.append(str(_POINT_AT[start]))
            start += step
        return line

    @staticmethod
    def _line_words(seat: str, colour: str, line: list[str]) -> Message:
        """How a winning line is said: "p1 (black) makes five in a row, H8 to L8"."""
        return say(
            "{seat} ({colour}) makes {count} in a row, {first} to {last}",
            seat=Seat(seat),
            colour=COLOUR_WORDS[colour],
            count=_NUMBERS.get(len(line), len(line)),
            first=Verbatim(line[0]),
            last=Verbatim(line[-1]),
        )

    def _hand_over(self) -> list[Event]:
        """End the game as a draw once the board is full.

        No colour is ever left without a legal point while one is empty: the empty point that
        comes first in reading order (A1, B1, ..., O1, A2, ...) has no empty point before it,
        and every open three needs an empty point on both sides of the new stone along its
        line, so that point never makes an open three. Hence no pass rule is needed.
        """
        if len(self._stones) < SIZE * SIZE:
            return []
        self._next_colour = None
        return self.end(None, Termination.FULL_BOARD, say("The board is full with no five in a row"))

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: str | None = None) -> TicTacFiveView:
        """The whole board; every seat and the room see the same. ``last_move`` is the last stone placed."""
        over = self.is_over
        return {
            **self.base_view(),
            "size": SIZE,
            "phase": self.phase,
            "stones": {str(point): colour for point, colour in self._stones},
            "last_move": str(self._stones[-1][0]) if self._stones else None,
            "colors": dict(self._colours),
            "next_color": None if over else self._next_colour,
            "opening_stones": len(OPENING_COLOURS),
            "move_number": len(self._stones),
            "winning_line": list(self._winning_line) if self._winning_line else None,
            "forbidden": self.forbidden(),
        }

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Stones in the order placed, the phase, the seats' colours, the colour to move, the winning line."""
        return {
            "phase": self._phase,
            "stones": [[str(point), colour] for point, colour in self._stones],
            "colors": dict(self._colours),
            "next_color": self._next_colour,
            "winning_line": list(self._winning_line) if self._winning_line else None,
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`; a malformed state raises :class:`GameError` and loads nothing."""
        phase = data["phase"]
        if phase not in ("opening", "choice", "play"):
            raise GameError(f"A saved Tic-Tac-Five game cannot be in phase {phase!r}.")
        board = list(_EMPTY_BOARD)
        stones: list[tuple[Point, str]] = []
        for text, colour in data["stones"]:
            point = parse_point(text, SIZE, SIZE)
            if colour not in COLOURS or board[_index(point)] != _EMPTY:
                raise GameError(f"A saved Tic-Tac-Five game has a bad stone {text} {colour}.")
            board[_index(point)] = _CODE[colour]
            stones.append((point, colour))
        colours = {"p1": data["colors"].get("p1"), "p2": data["colors"].get("p2")}
        next_colour = data["next_color"]
        if next_colour not in (*COLOURS, None):
            raise GameError(f"A saved Tic-Tac-Five game has {next_colour!r} to move.")
        line = data.get("winning_line")
        self._board, self._stones, self._phase = board, stones, phase
        self._colours, self._next_colour = colours, next_colour
        self._winning_line = list(line) if line else None
        self._forbidden_memo = None
        self._checked = None

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    def _near(self, reach: int) -> list[int]:
        """The empty points within ``reach`` of a stone (the centre on an empty board)."""
        if not self._stones:
            return [_index(Point(SIZE // 2, SIZE // 2))]
        seen: set[int] = set()
        for point, _ in self._stones:
            base = _index(point)
            for dr in range(-reach, reach + 1):
                for dc in range(-reach, reach + 1):
                    at = base + dr * _STRIDE + dc
                    if 0 <= at < len(self._board) and self._board[at] == _EMPTY:
                        seen.add(at)
        return sorted(seen)

    def search_moves(self, seat: str) -> list[Move] | None:
        """The points within two of a stone, narrowed in play by the threats on the board
        (:func:`geniusbot.games.tictacfive.threats.focus`): only the five when there is one, only
        the points that stop the opponent's five, a win by an open four, or only the answers to
        the opponent's open three, split three or four-three to come."""
        if self.is_over or self._phase == "choice" or seat not in self.to_move():
            return None
        own = _CODE[self._next_colour or "black"]
        near = [at for at in self._near(2) if _allowed(self._board, at, own)]
        if self._phase == "play":
            from geniusbot.games.tictacfive.threats import focus  # it reads this module's board helpers

            narrowed = focus(self._board, own, near)
            if narrowed:
                return [Place(seat, _POINT_AT[at]) for at in narrowed]
        return [Place(seat, _POINT_AT[at]) for at in near] or None

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A quick policy: make five, else stop the opponent's five (near the last two stones),
        else a point near a stone, one that makes a four or an open three if a few tries find one."""
        if self.is_over or seat not in self.to_move():
            return None
        if self._phase == "choice":
            return ChooseColour(seat, rng.choice(COLOURS))
        board, own = self._board, _CODE[self._next_colour or "black"]
        if self._phase == "play":
            for point, colour in reversed(self._stones[-2:]):
                code, base = _CODE[colour], _index(point)
                for step, _ in _DIRECTIONS:
                    for k in (-4, -3, -2, -1, 1, 2, 3, 4):
                        at = base + k * step
                        if (
                            0 <= at < len(board)
                            and board[at] == _EMPTY
                            # a five through ``at`` along ``step`` needs a stone of ``code`` next to it
                            and (board[at - step] == code or board[at + step] == code)
                            and _line_shape(board, at, step, code) == _FIVE
                            and (code == own or _allowed(board, at, own))
                        ):
                            return Place(seat, _POINT_AT[at])
        if not self._stones:
            return Place(seat, Point(SIZE // 2, SIZE // 2))
        fallback = None
        for _ in range(24):
            point = rng.choice(self._stones)[0]
            at = _index(point) + rng.randint(-2, 2) * _STRIDE + rng.randint(-2, 2)
            if not 0 <= at < len(board) or board[at] != _EMPTY or not _allowed(board, at, own):
                continue
            if any(_line_shape(board, at, step, own) in (_FOUR, _THREE) for step, _ in _DIRECTIONS):
                return Place(seat, _POINT_AT[at])
            fallback = fallback or Place(seat, _POINT_AT[at])
        return fallback

    # ---- the engine review's hook (see geniusbot.analysis and tactics.py) ----------------

    #: The tactics search's depth: 10 fours (VCF), or 2 threes each followed by a VCF (VCT).
    tactics_depth = (10, 2)

    def forced_win(self, forcing: int | None = None, threats: int | None = None) -> ForcedWin | None:
        """A win by continuous fours (exact), else by threes and fours, of the colour to move
        (``tactics.py`` says what each proves); ``None`` outside the play phase or when none is
        found within the depth."""
        if self.is_over or self._phase != "play" or self._next_colour is None:
            return None
        from geniusbot.games.tactics import ForcedWin

        from .tactics import forced_win  # loaded by a review, never by a match

        fours, threes = self.tactics_depth
        found = forced_win(
            self._board,
            _CODE[self._next_colour],
            fours if forcing is None else forcing,
            threes if threats is None else threats,
        )
        if found is None:
            return None
        line, by_fours = found
        return ForcedWin(
            self.to_move()[0],
            tuple(line),
            (len(line) - 1) // 2,
            say("continuous fours") if by_fours else say("threes and fours"),
            exact=by_fours,
        )
