"""Arm's Length (seed 003, DM7A by penzo): four in a row on an 8 x 8 board, where every stone
placed pushes its neighbours one square away and off the edge.

The readings are fixed in ``docs/rules/armslength.md`` (its rules and numbered rulings).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from geniusbot.games.armslength.view import ArmsLengthView, Push
from geniusbot.games.base import (
    Event,
    EventKind,
    Game,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    OptionError,
    Termination,
    other_seat,
)
from geniusbot.games.grid import LINE_DIRECTIONS, NEIGHBOURS, Point, grid_lines, on_board, parse_point, stones_said
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, say, say_c

#: The colours and the orders as a sentence says them (words as data).
COLOUR_WORDS = {"red": say_c("colour", "red"), "blue": say_c("colour", "blue")}
ORDER_WORDS = {"first": say_c("order", "first"), "second": say_c("order", "second")}
#: A part of a sentence that says nothing this time.
NOTHING = Verbatim("")

SIZE = 8
COLOURS: tuple[str, str] = ("red", "blue")
ORDERS: tuple[str, str] = ("first", "second")
FOUR = 4
KNOCKOUT_LIMIT = 10
PRESET_PER_COLOUR = 4


class ArmsLengthEvent(StrEnum):
    """Arm's Length's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: The opening (``data["phase"]``: choice or play) or the DMO's choice (dmo, color, order, first, by_lot).
    PHASE = "phase"
    #: A stone is placed: ``data`` has the ``seat``, the ``square``, the ``pushes`` and ``knocked_off``.
    MOVE = "move"


_SQUARE = re.compile(r"^\s*[A-Za-z]\s*\d{1,2}\s*$")
_ORDER_WORDS = {"first": "first", "1st": "first", "second": "second", "2nd": "second"}

ALL_SQUARES: tuple[Point, ...] = tuple(Point(c, r) for r in range(SIZE) for c in range(SIZE))


def other_colour(colour: str) -> str:
    """The other stone colour."""
    return "blue" if colour == "red" else "red"


def mirror(point: Point) -> Point:
    """``point`` rotated 180 degrees about the centre of the board (A1 <-> H8, C3 <-> F6)."""
    return Point(SIZE - 1 - point.col, SIZE - 1 - point.row)


def fours(stones: Mapping[Point, str], colour: str | None = None) -> list[list[str]]:
    """Every maximal straight run of four or more stones of one colour (of ``color`` if given).

    A run of five is one line of five squares, not two fours, so a renderer draws it once.
    """
    lines: list[list[str]] = []
    for point in ALL_SQUARES:
        owner = stones.get(point)
        if owner is None or (colour is not None and owner != colour):
            continue
        for dc, dr in LINE_DIRECTIONS:
            # Only the first stone of a run starts it, so a run is listed once.
            if stones.get(point.offset(-dc, -dr)) == owner:
                continue
            run = [point]
            while stones.get(run[-1].offset(dc, dr)) == owner:
                run.append(run[-1].offset(dc, dr))
            if len(run) >= FOUR:
                lines.append([str(p) for p in run])
    return lines


def parse_layout(text: str) -> dict[Point, str]:
    """The stones a ``setup`` option names (``"red C3 F6; blue F3 C6"``), or :class:`OptionError`.

    ``"none"`` (or ``"empty"``) is an empty board. Squares are separated by spaces or commas; a
    colour may be given in more than one part. The layout must be playable: every square on the
    board and named once, no four in a row already, at least one empty square.
    """
    cleaned = text.strip()
    if cleaned.lower() in ("none", "empty"):
        return {}
    stones: dict[Point, str] = {}
    for part in (p.strip() for p in cleaned.split(";")):
        if not part:
            continue
        words = [w for w in re.split(r"[\s,]+", part) if w]
        if not words:
            continue
        colour = words[0].lower()
        if colour not in COLOURS:
            raise OptionError(
                say(
                    "The setup part {part} must start with a colour, red or blue; write a layout such as "
                    "'red C3 F6; blue F3 C6'.",
                    part=Verbatim(repr(part)),
                )
            )
        for word in words[1:]:
            try:
                point = parse_point(word, SIZE, SIZE)
            except GameError as error:
                raise OptionError(
                    say("In the setup layout, {refusal}", refusal=error.said or Verbatim(str(error)))
                ) from None
            if point in stones:
                raise OptionError(
                    say("The setup layout names {point} twice; give each square once.", point=Verbatim(str(point)))
                )
            stones[point] = colour
    if not stones and cleaned:
        raise OptionError(
            say(
                "The setup layout names no stones; write one such as 'red C3 F6; blue F3 C6', or 'none' for an "
                "empty board."
            )
        )
    check_layout(stones)
    return stones


def check_layout(stones: Mapping[Point, str]) -> None:
    """Refuse a start position that is decided or dead before the first move."""
    lines = fours(stones)
    if lines:
        raise OptionError(
            say(
                "The setup layout already has four in a row ({line}); move one of those stones so that no one "
                "starts with a four.",
                line=Verbatim(" ".join(lines[0])),
            )
        )
    if len(stones) >= SIZE * SIZE:
        raise OptionError(say("The setup layout fills the board; leave at least one square empty."))


def generate_layout(seed: int) -> dict[Point, str]:
    """Four stones a colour at random from ``seed``, point-symmetric, that no first placement decides.

    Each red stone has a blue twin at its mirror square. The 64 squares fall into 32 mirror
    pairs (one square of each pair lies in rows 1-4); four pairs are drawn, and a coin decides
    which square of each pair is red. A draw that is not an :func:`open_start` is followed by the
    next draw of the same generator, so a seed always gives the same layout.
    """
    rng = random.Random(f"{seed}:layout")
    while True:
        stones = draw_layout(rng)
        if open_start(stones):
            return stones


def draw_layout(rng: random.Random) -> dict[Point, str]:
    """One draw of :func:`generate_layout`: four mirror pairs, a coin for which square is red."""
    stones: dict[Point, str] = {}
    for point in rng.sample(LOWER_HALF, PRESET_PER_COLOUR):
        red = point if rng.random() < 0.5 else mirror(point)
        stones[red] = "red"
        stones[mirror(red)] = "blue"
    return dict(_sorted_stones(stones))


def open_start(stones: Mapping[Point, str]) -> bool:
    """No four in a row on the board, and no placement of either colour would end the game
    (:func:`deciding_placements`): fast enough to try every layout the generator can draw."""
    four_now, candidates = _four_candidates(stones)
    return not four_now and not (candidates and _play_out(stones, candidates))


def deciding_placements(stones: Mapping[Point, str]) -> list[tuple[str, str]]:
    """Every placement, as ``(colour, square)``, that would end a game starting from ``stones``.

    For a start position with no four in a row and fewer than ten stones of each colour (none
    knocked off yet): one placement knocks off at most the stones of a colour on the board, so
    only a four in a row (of either colour) can end the game, and the board is not full after it.

    A new four holds a square that changed to its colour: the placed square, or the square a
    stone was pushed onto (two steps from the placed one, straight away from it). So a four on
    the 4 squares ``L`` after a placement on ``s`` is either

    - ``s`` in ``L``, the placed colour's: the 3 other squares of ``L`` held that colour's stones
      already (a stone next to ``s`` on ``L`` would be pushed along ``L`` and leave its square
      empty, since nothing is pushed onto a square next to ``s``); or
    - ``s`` not in ``L``: 4 stones of that colour, each on its square of ``L`` or next to ``s``
      and pushed onto ``L``.

    Only these placements are played out (with :func:`place_stone`, as the game plays them).
    """
    return _play_out(stones, _four_candidates(stones)[1])


_Candidate = tuple[str, str, Point, tuple[Point, ...]]


def _four_candidates(stones: Mapping[Point, str]) -> tuple[bool, list[_Candidate]]:
    """Whether a four is on the board, and ``(mover, colour, s, line)`` for each placement on
    ``s`` that :func:`deciding_placements` must play out to see ``colour`` make four on ``line``."""
    patterns = _four_patterns()
    own: dict[str, list[int]] = {colour: [] for colour in COLOURS}
    for point, colour in stones.items():
        own[colour].append(_BIT[point])
    four_now = False
    candidates: list[_Candidate] = []
    for colour, bits in own.items():
        if len(bits) == FOUR:  # a generated layout's: its one four and its threes, quickly
            quads = [sum(bits)]
            trios = [quads[0] - bit for bit in bits]
        else:
            quads = [sum(quad) for quad in itertools.combinations(bits, FOUR)]
            trios = [sum(trio) for trio in itertools.combinations(bits, FOUR - 1)]
        for key in trios:
            if key in patterns.by_three:
                candidates += [(colour, colour, s, line) for s, line in patterns.by_three[key]]
        for key in quads:
            four_now = four_now or key in patterns.lines
            if key in patterns.by_four:
                candidates += [(mover, colour, s, line) for s, line in patterns.by_four[key] for mover in COLOURS]
    return four_now, candidates


def _play_out(stones: Mapping[Point, str], candidates: list[_Candidate]) -> list[tuple[str, str]]:
    """The candidates' placements that do make their four, as ``(colour, square)``, in square order."""
    found: set[tuple[str, Point]] = set()
    for mover, colour, s, line in candidates:
        if s not in stones and (mover, s) not in found:
            board = _placed(stones, s, mover)
            if all(board.get(p) == colour for p in line):
                found.add((mover, s))
    return [
        (mover, str(s))
        for mover, s in sorted(found, key=lambda found_at: (found_at[1].row, found_at[1].col, found_at[0]))
    ]


LOWER_HALF: tuple[Point, ...] = tuple(p for p in ALL_SQUARES if p.row < SIZE // 2)
_BIT: dict[Point, int] = {p: 1 << i for i, p in enumerate(ALL_SQUARES)}


@dataclass(frozen=True)
class _FourPatterns:
    """What :func:`deciding_placements` looks up, by the squares (as bits) a colour's stones hold.

    ``lines``: the 4 squares of each line of four. ``by_three``: 3 squares of a line, to
    ``(s, line)`` with ``s`` its fourth. ``by_four``: 4 squares, to each ``(s, line)`` with ``s``
    off the line from which a placement could push some of them onto it (the others on it).
    """

    lines: frozenset[int]
    by_three: dict[int, list[tuple[Point, tuple[Point, ...]]]]
    by_four: dict[int, list[tuple[Point, tuple[Point, ...]]]]


@functools.cache
def _four_patterns() -> _FourPatterns:
    lines = [
        tuple(start.offset(k * dc, k * dr) for k in range(FOUR))
        for start in ALL_SQUARES
        for dc, dr in LINE_DIRECTIONS
        if on_board(start.offset((FOUR - 1) * dc, (FOUR - 1) * dr), SIZE, SIZE)
    ]
    patterns = _FourPatterns(frozenset(sum(_BIT[p] for p in line) for line in lines), {}, {})
    for line in lines:
        mask = sum(_BIT[p] for p in line)
        for s in line:
            patterns.by_three.setdefault(mask & ~_BIT[s], []).append((s, line))
        # A placement on s pushes a stone onto p of the line from s + e when p = s + 2e.
        pushed_onto: dict[Point, dict[Point, Point]] = {}
        for p in line:
            for dc, dr in NEIGHBOURS:
                s = p.offset(-2 * dc, -2 * dr)
                if on_board(s, SIZE, SIZE) and s not in line:
                    pushed_onto.setdefault(s, {})[p] = p.offset(-dc, -dr)
        for s, froms in pushed_onto.items():
            # Each square of the line: its stone stays, or is pushed onto it from next to s.
            sources = [[p, froms[p]] if p in froms else [p] for p in line]
            for chosen in itertools.product(*sources):
                picked = set(chosen)
                if len(picked) == FOUR and picked != set(line):
                    patterns.by_four.setdefault(sum(_BIT[p] for p in picked), []).append((s, line))
    return patterns


def _placed(stones: Mapping[Point, str], placed: Point, colour: str) -> dict[Point, str]:
    """The stones after a ``colour`` stone is placed on ``placed``, its pushes made."""
    board = dict(stones)
    place_stone(board, placed, colour)
    return board


def place_stone(stones: dict[Point, str], placed: Point, colour: str) -> list[Push]:
    """Place a ``colour`` stone on ``placed`` in ``stones`` and make its pushes; return them."""
    pushes = push_results(stones, placed)
    # Every push is decided on the position before any stone moves: lift them all, then set.
    for push in pushes:
        del stones[parse_point(push["from"], SIZE, SIZE)]
    for push in pushes:
        if push["to"] is not None:
            stones[parse_point(push["to"], SIZE, SIZE)] = push["color"]
    stones[placed] = colour
    return pushes


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Place(Move):
    """Place a stone of the seat's colour on an empty square (``square`` is canonical: ``"E4"``)."""

    square: str

    def text(self) -> str:
        """The square, as a record writes it: ``E4``."""
        return self.square


@dataclass(frozen=True)
class Choose(Move):
    """The DMO's choice of colour (``"red"``/``"blue"``) and turn order (``"first"``/``"second"``)."""

    colour: str
    order: str

    def text(self) -> str:
        """The choice, as a record writes it: ``red first``."""
        return f"{self.colour} {self.order}"


# --------------------------------------------------------------------------- the game


class ArmsLength(Game):
    """Arm's Length: place stones, push neighbours away, make four in a row."""

    name = "armslength"
    aliases = ("dm7a",)
    title = "Arm's Length"
    picture = "geniusbot.games.armslength.picture:render"
    # The rule text has no clock: the host's choice (60 s a move and a 5 min reserve).
    clocks = {"*": "60s+5m"}
    choice_phases = frozenset({"choice"})
    perfect_information = True
    keywords = frozenset(COLOURS + ORDERS)
    options = {
        "setup": "pre-placed stones, such as 'red C3 F6; blue F3 C6' ('none': empty board); "
        "default: 4 a colour at random from the seed, point-symmetric",
        "p1_color": "red or blue: p1's colour when there is no DMO choice (default red); p1 moves first",
        "dmo": "p1 or p2: that seat chooses its colour and whether it moves first or second",
    }
    summary = say(
        "8 x 8 board, columns A-H, rows 1-8, some stones pre-placed. On your turn write one empty "
        "square (E4). The new stone pushes each of the (up to 8) stones around it one square straight "
        "away, if the square behind is empty; a stone pushed over the edge is knocked off. At the end "
        "of the turn: both players with four in a row: the mover loses; otherwise four in a row wins; "
        "then both players with a 10th stone knocked off: the mover loses; otherwise whoever has lost "
        "10 stones loses. A full board is a draw. With a DMO, the DMO first writes a colour and an "
        "order, such as 'red first'."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.phase = "play"
        self.stones: dict[Point, str] = {}
        self.colours: dict[str, str | None] = {"p1": None, "p2": None}
        self.first: str | None = None
        self.dmo: str | None = None
        self.turn: str | None = None
        self.knocked_off: dict[str, int] = {"red": 0, "blue": 0}
        self.last_move: str | None = None
        self.pushes: list[Push] = []
        self.move_number = 0

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The stones on the grid, the last one placed in lower case."""
        board = cast(ArmsLengthView, view)  # a host passes the views of this game
        last = board["last_move"]
        return list(grid_lines(board["size"], board["size"], board["stones"], [last] if last else []))

    @classmethod
    def describe(cls, view: Mapping[str, Any]) -> list[Message] | None:
        """The stones of each colour, where they stand (the alt text of the board's picture)."""
        return stones_said(cast(ArmsLengthView, view)["stones"], COLOUR_WORDS)

    @classmethod
    def legend(cls, view: Mapping[str, Any]) -> dict[str, Message]:
        """Each seat's colour, once the DMO has chosen."""
        return {seat: COLOUR_WORDS[colour] for seat, colour in cast(ArmsLengthView, view)["colors"].items() if colour}

    def setup(self, *, setup: str = "", p1_color: str = "", dmo: str = "") -> None:
        """Lay the pre-placed stones and settle colours and order, or open the DMO's choice."""
        dmo = dmo.strip().lower()
        p1_color = p1_color.strip().lower()
        if dmo and dmo not in self.seats:
            raise OptionError(say("The DMO must be p1 or p2, not {dmo}.", dmo=Verbatim(repr(dmo))))
        if p1_color and p1_color not in COLOURS:
            raise OptionError(say("p1's colour must be red or blue, not {colour}.", colour=Verbatim(repr(p1_color))))
        if dmo and p1_color:
            raise OptionError(say("With a DMO, the DMO chooses the colours; leave out p1_color."))
        self.stones = parse_layout(setup) if setup.strip() else generate_layout(self.seed)
        if dmo:
            self.dmo = dmo
            self.phase = "choice"
        else:
            colour = p1_color or "red"
            self.colours = {"p1": colour, "p2": other_colour(colour)}
            self.first = self.turn = "p1"
            self.phase = "play"

    def opening_events(self) -> list[Event]:
        """What the match opens with: the colours and who moves first, or who the DMO is (the
        board shows the stones and whose turn it is, not who plays which colour)."""
        if self.is_over or self.move_number:
            return []
        if self.phase == "choice":
            assert self.dmo is not None
            said = say("{dmo} is the DMO and chooses a colour and whether to move first or second.", dmo=Seat(self.dmo))
        else:
            assert self.first is not None
            second = other_seat(self.first)
            said = say(
                "{first} plays {first_colour} and moves first; {second} plays {second_colour}. "
                "Type an empty square, such as E4, to place a stone.",
                first=Seat(self.first),
                first_colour=self._colour_word(self.first),
                second=Seat(second),
                second_colour=self._colour_word(second),
            )
        return [Event.of(said, kind=ArmsLengthEvent.PHASE, data={"phase": self.phase})]

    def _colour_word(self, seat: str) -> Message:
        colour = self.colours[seat]
        assert colour is not None
        return COLOUR_WORDS[colour]

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        """The DMO in the choice phase, the seat to place in play, nobody once the game is over."""
        if self.is_over:
            return ()
        if self.phase == "choice":
            return (self.dmo,) if self.dmo else ()
        return (self.turn,) if self.turn else ()

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A :class:`Choose` (choice phase) or a :class:`Place` (play) for ``seat``, or a GameError."""
        self.require_turn(seat)
        self.require_room(private)
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write your move as text, such as E4."))
        if self.phase == "choice":
            return self._parse_choice(text, seat)
        if not _SQUARE.match(text):
            if _choice_words(text) is not None:
                raise MalformedMoveError(say("Colours and order are settled; write one empty square, such as E4."))
            if not text.strip():
                raise MalformedMoveError(
                    say("Write one empty square as a column letter A-H and a row number 1-8, such as E4.")
                )
            raise MalformedMoveError(
                say(
                    "{text} is not a square; write one empty square as a column letter A-H and a row number 1-8, "
                    "such as E4.",
                    text=Verbatim(repr(text.strip())),
                )
            )
        point = parse_point(text, SIZE, SIZE)  # says so if the square is off the board
        if point in self.stones:
            raise IllegalMoveError(say("{point} is taken; choose an empty square.", point=Verbatim(str(point))))
        return Place(seat, str(point))

    def _parse_choice(self, text: str, seat: str) -> Choose:
        words = _choice_words(text)
        if words is None:
            raise MalformedMoveError(
                say(
                    "You choose before anyone places: write your colour and turn order, such as red first, red "
                    "second, blue first or blue second."
                )
            )
        colour, order = words
        return Choose(seat, colour, order)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """The four choices of the DMO, or a placement on every empty square."""
        movers = self.to_move()
        for mover in movers if seat is None else [seat]:
            if mover not in movers:
                continue
            if self.phase == "choice":
                for colour in COLOURS:
                    for order in ORDERS:
                        yield Choose(mover, colour, order)
            else:
                for point in ALL_SQUARES:
                    if point not in self.stones:
                        yield Place(mover, str(point))

    # ---- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Apply a choice or a placement (its pushes, then the end-of-turn checks)."""
        if not isinstance(move, (Place, Choose)):
            raise IllegalMoveError(say("That is not a move of Arm's Length; write a square such as E4."))
        # Re-read the move from its text so that a hand-built illegal move is refused unchanged.
        if self.parse_move(move.text(), move.seat) != move:
            raise IllegalMoveError(
                say("{text} cannot be played as given; submit it again as text.", text=Verbatim(repr(move.text())))
            )
        if isinstance(move, Choose):
            return self._apply_choice(move.seat, move.colour, move.order, by_lot=False)
        assert isinstance(move, Place)
        return self._apply_place(move)

    def _apply_choice(self, dmo: str, colour: str, order: str, *, by_lot: bool) -> list[Event]:
        other = other_seat(dmo)
        chosen = {dmo: colour, other: other_colour(colour)}
        self.colours = {seat: chosen[seat] for seat in self.seats}
        self.first = dmo if order == "first" else other
        self.turn = self.first
        self.phase = "play"
        # Who moves next is the caption's "To move:" line; "moves first/second" says why.
        args: dict[str, Argument] = {
            "seat": Seat(dmo),
            "dmo": Seat(dmo),
            "colour": COLOUR_WORDS[colour],
            "order": ORDER_WORDS[order],
            "other": Seat(other),
            "other_colour": COLOUR_WORDS[other_colour(colour)],
        }
        data = {"dmo": dmo, "color": colour, "order": order, "first": self.first, "by_lot": by_lot}
        if by_lot:  # the DMO's clock ran out: this event says the timeout (its seat), and what follows
            timed_out = Message(
                "{seat} ran out of time to choose as the DMO, so the choice was drawn by lot: "
                "{dmo} plays {colour} and moves {order}; {other} plays {other_colour}.",
                args,
            )
            return [Event.of(timed_out, kind=EventKind.TIMEOUT, data={"seat": dmo, **data})]
        chose = Message(
            "{seat} (the DMO) chose: {dmo} plays {colour} and moves {order}; {other} plays {other_colour}.", args
        )
        return [Event.of(chose, kind=ArmsLengthEvent.PHASE, data=data)]

    def _apply_place(self, move: Place) -> list[Event]:
        mover = move.seat
        colour = self.colours[mover]
        assert colour is not None
        placed = parse_point(move.square, SIZE, SIZE)
        pushes = place_stone(self.stones, placed, colour)
        for push in pushes:
            if push["to"] is None:
                self.knocked_off[push["color"]] += 1
        self.move_number += 1
        self.last_move = move.square
        self.pushes = pushes
        moved = [
            say("{square} to {target}", square=Verbatim(str(p["from"])), target=Verbatim(str(p["to"])))
            for p in pushes
            if p["to"] is not None
        ]
        off = [
            say("{square} ({colour})", square=Verbatim(str(p["from"])), colour=COLOUR_WORDS[str(p["color"])])
            for p in pushes
            if p["to"] is None
        ]
        # Present tense, as every game's move line: "alice places black on H8."
        said = say(
            "{seat} ({colour}) places {square}.{pushed}{knocked}",
            seat=Seat(mover),
            colour=COLOUR_WORDS[colour],
            square=Verbatim(move.square),
            pushed=say(" Pushed: {pushed}.", pushed=Listing(tuple(moved))) if moved else NOTHING,
            knocked=say(
                " Knocked off: {off}. Knocked off so far: red {red}, blue {blue}.",
                off=Listing(tuple(off)),
                red=self.knocked_off["red"],
                blue=self.knocked_off["blue"],
            )
            if off
            else NOTHING,
        )
        events = [
            Event.of(
                said,
                kind=ArmsLengthEvent.MOVE,
                data={
                    "seat": mover,
                    "square": move.square,
                    "pushes": [dict(p) for p in pushes],
                    "knocked_off": dict(self.knocked_off),
                },
            )
        ]
        events += self._end_of_turn(mover)
        if not self.is_over:
            self.turn = other_seat(mover)
        return events

    def _end_of_turn(self, mover: str) -> list[Event]:
        """The six checks of the rule text, in order, then the full board."""
        opponent = other_seat(mover)
        mc, oc = self.colours[mover], self.colours[opponent]
        assert mc is not None and oc is not None
        m_four, o_four = fours(self.stones, mc), fours(self.stones, oc)
        m_off = self.knocked_off[mc] >= KNOCKOUT_LIMIT
        o_off = self.knocked_off[oc] >= KNOCKOUT_LIMIT
        if m_four and o_four:
            return self.end(
                opponent,
                Termination.LINE,
                say("Both players have four in a row after {seat}'s move; the mover loses", seat=Seat(mover)),
                verdict=say(", so {seat} ({colour}) wins", seat=Seat(opponent), colour=COLOUR_WORDS[oc]),
                mover=mover,
            )
        if m_four:
            return self.end(
                mover,
                Termination.LINE,
                say(
                    "{seat} ({colour}) has four in a row ({line})",
                    seat=Seat(mover),
                    colour=COLOUR_WORDS[mc],
                    line=Verbatim(" ".join(m_four[0])),
                ),
                line=list(m_four[0]),
            )
        if o_four:
            return self.end(
                opponent,
                Termination.LINE,
                say(
                    "{seat} ({colour}) has four in a row ({line})",
                    seat=Seat(opponent),
                    colour=COLOUR_WORDS[oc],
                    line=Verbatim(" ".join(o_four[0])),
                ),
                line=list(o_four[0]),
            )
        if m_off and o_off:
            return self.end(
                opponent,
                Termination.KNOCKOUT,
                say(
                    "Both players had their 10th stone knocked off on {seat}'s move; the mover loses", seat=Seat(mover)
                ),
                verdict=say(", so {seat} ({colour}) wins", seat=Seat(opponent), colour=COLOUR_WORDS[oc]),
                mover=mover,
            )
        if o_off:
            return self.end(
                mover,
                Termination.KNOCKOUT,
                say(
                    "{seat} ({colour}) has had {n} stones knocked off",
                    seat=Seat(opponent),
                    colour=COLOUR_WORDS[oc],
                    n=KNOCKOUT_LIMIT,
                ),
                verdict=say("; {seat} ({colour}) wins", seat=Seat(mover), colour=COLOUR_WORDS[mc]),
            )
        if m_off:
            return self.end(
                opponent,
                Termination.KNOCKOUT,
                say(
                    "{seat} ({colour}) has had {n} stones knocked off",
                    seat=Seat(mover),
                    colour=COLOUR_WORDS[mc],
                    n=KNOCKOUT_LIMIT,
                ),
                verdict=say("; {seat} ({colour}) wins", seat=Seat(opponent), colour=COLOUR_WORDS[oc]),
            )
        if len(self.stones) >= SIZE * SIZE:
            return self.end(None, Termination.FULL_BOARD, say("The board is full and nobody has four in a row"))
        return []

    # ---- the clock ---------------------------------------------------------------------------

    def timeout(self, seat: str) -> list[Event]:
        """In play the seat loses. The DMO out of time in the choice phase: the choice is drawn by
        lot from the seed and play goes on (the other seat's clock does not run then)."""
        self.require_seat(seat)
        if self.is_over:
            return []
        if self.phase == "choice":
            if seat != self.dmo:
                return []
            rng = random.Random(f"{self.seed}:dmo-choice")
            colour = rng.choice(COLOURS)
            order = rng.choice(ORDERS)
            return self._apply_choice(seat, colour, order, by_lot=True)
        return super().timeout(seat)

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: str | None = None) -> ArmsLengthView:
        """The whole position: Arm's Length has no hidden information, so every seat sees the same."""
        return {
            **self.base_view(),
            "size": SIZE,
            "phase": "over" if self.is_over else self.phase,
            "stones": {str(p): c for p, c in _sorted_stones(self.stones)},
            "colors": dict(self.colours),
            "first": self.first,
            "dmo": self.dmo,
            "knocked_off": dict(self.knocked_off),
            "knockout_limit": KNOCKOUT_LIMIT,
            "last_move": self.last_move,
            "pushes": [p.copy() for p in self.pushes],
            "fours": fours(self.stones),
            "move_number": self.move_number,
        }

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Stones, colours, order, whose turn, knock-off counts and the last move's pushes."""
        return {
            "phase": self.phase,
            "stones": {str(p): c for p, c in _sorted_stones(self.stones)},
            "colors": dict(self.colours),
            "first": self.first,
            "dmo": self.dmo,
            "turn": self.turn,
            "knocked_off": dict(self.knocked_off),
            "last_move": self.last_move,
            "pushes": [dict(p) for p in self.pushes],
            "move_number": self.move_number,
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`."""
        self.phase = data["phase"]
        self.stones = {parse_point(sq, SIZE, SIZE): c for sq, c in data["stones"].items()}
        self.colours = {"p1": data["colors"]["p1"], "p2": data["colors"]["p2"]}
        self.first = data["first"]
        self.dmo = data["dmo"]
        self.turn = data["turn"]
        self.knocked_off = {"red": int(data["knocked_off"]["red"]), "blue": int(data["knocked_off"]["blue"])}
        self.last_move = data["last_move"]
        self.pushes = [cast(Push, dict(p)) for p in data["pushes"]]
        self.move_number = int(data["move_number"])

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A quick play-out policy: a random empty square (drawn, not listed)."""
        if self.is_over or self.phase != "play" or seat not in self.to_move() or len(self.stones) >= SIZE * SIZE:
            return None
        while True:
            point = Point(rng.randrange(SIZE), rng.randrange(SIZE))
            if point not in self.stones:
                return Place(seat, str(point))

    def evaluate(self, seat: str) -> float | None:
        """The stones knocked off (each of the other seat's a gain) and the runs of three."""
        own, theirs = self.colours[seat], self.colours[other_seat(seat)]
        if own is None or theirs is None:
            return None
        lead = 0.5 * (self.knocked_off[theirs] - self.knocked_off[own])
        for point, owner in self.stones.items():
            for dc, dr in LINE_DIRECTIONS:
                if self.stones.get(point.offset(-dc, -dr)) == owner:
                    continue
                run, at = 1, point.offset(dc, dr)
                while self.stones.get(at) == owner:
                    run, at = run + 1, at.offset(dc, dr)
                if run == FOUR - 1:
                    lead += 1 if owner == own else -1
        return 0.5 + 0.5 * math.tanh(lead / 4)


def push_results(stones: Mapping[Point, str], placed: Point) -> list[Push]:
    """What a stone placed on ``placed`` does to its neighbours, all read from ``stones`` as it is.

    Each neighbour goes one square straight away from ``placed``: off the board if the edge is
    behind it (``"to": None``), onto the square behind if that is empty, nowhere if it is taken.
    The squares behind lie two steps from ``placed``, never among the neighbours, so no two
    pushes can meet and no pushed stone pushes another.
    """
    pushes: list[Push] = []
    for dc, dr in NEIGHBOURS:
        neighbour = placed.offset(dc, dr)
        colour = stones.get(neighbour)
        if colour is None:
            continue
        behind = neighbour.offset(dc, dr)
        if not on_board(behind, SIZE, SIZE):
            pushes.append({"from": str(neighbour), "to": None, "color": colour})
        elif behind not in stones:
            pushes.append({"from": str(neighbour), "to": str(behind), "color": colour})
    return pushes


def _choice_words(text: str) -> tuple[str, str] | None:
    """``(colour, order)`` if ``text`` is exactly a colour and first/second, in either order."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    if len(words) != 2:
        return None
    colours = [w for w in words if w in COLOURS]
    orders = [_ORDER_WORDS[w] for w in words if w in _ORDER_WORDS]
    if len(colours) != 1 or len(orders) != 1:
        return None
    return colours[0], orders[0]


def _sorted_stones(stones: Mapping[Point, str]) -> list[tuple[Point, str]]:
    return sorted(stones.items(), key=lambda item: (item[0].row, item[0].col))


__all__ = [
    "ArmsLength",
    "Choose",
    "Place",
    "deciding_placements",
    "draw_layout",
    "fours",
    "generate_layout",
    "mirror",
    "open_start",
    "parse_layout",
    "push_results",
]
