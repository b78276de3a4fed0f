"""Tile Decklaration (seed 001, task 1 of the final match All Hands On Deck): a memory duel on a
7 x 7 grid of coloured tiles that is shown for 30 seconds and then hidden.

The readings are fixed in ``docs/rules/tiles.md`` (its rules and numbered rulings). In short:

* 48 tiles, 16 each of red, blue and green (Rainbow: 8 each of six colours), and the black centre
  D4. The grid is shown for 30 s (the ``memorize`` window), then hidden from everyone.
* The ``starter`` calls a colour for the opponent (``call red``). From then on the seat to move
  declares a tile of the colour called for it and calls a colour for the opponent (``D5 blue``).
* A seat loses at once if it declares a tile that is not of the called colour or was named
  before, calls a colour with no valid tile left, or runs out of time.
* Anomalies (option ``anomalies``): chain, implode, landmine, rainbow, rectangle-adverse, in any
  combination.

Phases: ``memorize`` (a :class:`Window`, nobody moves), ``landmines`` (Landmine only: a
:class:`Window` in which both seats send ``mines A1 B2 C3 E6 G7`` by DM), ``call`` (the
starter's first call), ``declare`` (alternate turns), ``over``.

View keys (besides ``game``, ``variant``, ``to_move``, ``outcome``):

``phase``
    ``memorize``, ``landmines``, ``call``, ``declare`` or ``over``.
``size``, ``centre``
    7, and ``"D4"`` (the black centre tile).
``anomalies``, ``palette``
    The active anomalies (canonical names, in the text's order) and the colours of the board.
``starter``
    The seat that makes the first call.
``grid``
    Square -> colour of all 49 squares while the grid may be seen (the memorize window: the
    grid as generated; once the task is over: the colours in force, after any implosion), else
    ``None``. Never present in any view between the two.
``original_grid``
    Once the task is over and Implode was active: the grid before the implosion; else ``None``.
``marks``
    Implode: the squares marked ``!`` (public from the moment the grid is hidden), else ``[]``.
``declared``
    The successfully declared tiles in order: ``{"tile", "color", "seat"}``; ``color`` is the
    tile's true colour (after any implosion).
``called``, ``caller``
    The colour the seat to move must declare and the seat that called it (``None`` before the
    first call and once the task is over).
``chain_from``
    Chain: the square the next declaration must touch (D4 for the first declaration), else ``None``.
``must_move_again``
    Landmine: the seat to move declared a mined tile and moves again, declaring a tile of the
    colour it had just called.
``mines``
    Landmine, the owner's view only: the owner's mine squares (``[]`` if it placed none, ``None``
    while not yet sent); ``None`` in the public view and the opponent's view.
``mines_sent``
    Landmine: seat -> whether it has sent its mines (public; never which squares).
``exploded``
    Landmine: the mines that went off, in order: ``{"tile", "owners"}`` (public).
``last_move``
    The canonical text of the last public move (a call or a declaration), else ``None``.
``move_number``
    How many declarations have succeeded.
``loss``
    Once the task is over by a rule of the text: ``{"seat", "rule", "tile"}`` (``tile`` the
    square the loser declared, if the loss was about a tile), else ``None``.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from geniusbot.games.allhands.common import parse_anomalies as _parse_anomalies
from geniusbot.games.allhands.task import AllHandsTask, task_options
from geniusbot.games.allhands.view import TileDecklarationView
from geniusbot.games.base import (
    Event,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    Termination,
    Window,
    WrongPlaceError,
    other_seat,
)
from geniusbot.games.grid import Point, on_board, parse_point, split_submission
from geniusbot.games.sealed import SealedRound, sealed_event
from geniusbot.words import Listing, Message, Seat, Verbatim, say, say_c, say_n

SIZE = 7
CENTRE = Point(3, 3)
BLACK = "black"
BASE_COLOURS: tuple[str, ...] = ("red", "blue", "green")
RAINBOW_COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
MEMORIZE_SECONDS = 30
LANDMINE_SECONDS = 30
MINES_PER_SEAT = 5
IMPLODE_MARKS = 15

#: The anomalies of Task 1, in the order the rule text lists them.
ANOMALIES: tuple[str, ...] = ("chain", "implode", "landmine", "rainbow", "rectangle-adverse")

ALL_SQUARES: tuple[Point, ...] = tuple(Point(c, r) for r in range(SIZE) for c in range(SIZE))
TILES: tuple[Point, ...] = tuple(p for p in ALL_SQUARES if p != CENTRE)
ORTHOGONAL: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))

#: The colours as a sentence says them (words as data).
COLOUR_WORDS: dict[str, Message] = {
    "red": say_c("colour", "red"),
    "orange": say_c("colour", "orange"),
    "yellow": say_c("colour", "yellow"),
    "green": say_c("colour", "green"),
    "blue": say_c("colour", "blue"),
    "purple": say_c("colour", "purple"),
    "black": say_c("colour", "black"),
}

#: A tile of each colour, with its article, as a prompt names it ("declare a red tile").
A_TILE: dict[str, Message] = {
    "red": say_c("tile of a colour", "a red tile"),
    "orange": say_c("tile of a colour", "an orange tile"),
    "yellow": say_c("tile of a colour", "a yellow tile"),
    "green": say_c("tile of a colour", "a green tile"),
    "blue": say_c("tile of a colour", "a blue tile"),
    "purple": say_c("tile of a colour", "a purple tile"),
}

#: The examples a sentence gives of what to type (typed as they are, in every language).
CALL_EXAMPLE = Verbatim("call red")
DECLARE_EXAMPLE = Verbatim("D5 blue")
MINES_EXAMPLE = Verbatim("mines A1 B2 C3 E6 G7")


class TileDecklarationEvent(StrEnum):
    """Tile Decklaration's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: The grid shown to memorize: ``data["grid"]`` (square to colour); the event's ``delete_after`` (seconds).
    REVEAL = "reveal"
    #: The memorize window closed and the grid is hidden; no data.
    HIDE = "hide"
    #: Implode turned the marked tiles: ``data["marks"]``, their squares.
    IMPLODE = "implode"
    #: A new phase: ``data["phase"]`` is ``landmines`` or ``call`` (with the calling ``seat``).
    PHASE = "phase"
    #: A seat's mines are in, or none in time: ``data["seat"]``, and ``none`` when it placed none.
    MINES_SENT = "mines-sent"
    #: The opening call: ``data`` has the calling ``seat`` and the ``color`` called.
    CALL = "call"
    #: A right declaration: ``data`` has the ``seat``, the ``tile``, its ``color`` and the next ``call``.
    DECLARE = "declare"
    #: A declared tile held a mine: ``data`` has the ``tile``, its ``owners``, the ``seat`` and ``color``.
    LANDMINE = "landmine"
    #: Who declares next: ``data["seat"]`` and the ``color`` called.
    TURN = "turn"
    #: Data only, when the task ends: ``data["grid"]``, the grid as it ended (square to colour).
    FINAL_GRID = "final-grid"


_TOKEN = re.compile(r"[a-z]+\s*\d+|[a-z]+|\d+")
_POINT_TOKEN = re.compile(r"^[a-z]+\s*\d+$|^\d+$")


def parse_anomalies(text: str) -> tuple[str, ...]:
    """The anomalies an ``anomalies`` option names, in the text's order, or :class:`OptionError`.

    Names are Task 1's five (``chain, implode, landmine, rainbow, rectangle-adverse``), read by
    the family's shared reader (:func:`geniusbot.games.allhands.common.parse_anomalies`).
    """
    return _parse_anomalies(text, "tiles")


def palette_for(anomalies: Iterable[str]) -> tuple[str, ...]:
    """The tile colours of a board: six with Rainbow, else red, blue and green."""
    return RAINBOW_COLOURS if "rainbow" in anomalies else BASE_COLOURS


def generate_grid(seed: int, palette: tuple[str, ...]) -> dict[Point, str]:
    """A shuffled grid from ``seed``: the 48 tiles share the palette equally, D4 is black."""
    per_colour = len(TILES) // len(palette)
    colours = [colour for colour in palette for _ in range(per_colour)]
    random.Random(f"{seed}:tiles:grid").shuffle(colours)
    grid = dict(zip(TILES, colours, strict=True))
    grid[CENTRE] = BLACK
    return dict(sorted(grid.items(), key=lambda item: (item[0].row, item[0].col)))


def draw_marks(seed: int) -> list[Point]:
    """Implode: the 15 tiles (never the black centre) marked ``!``, drawn from ``seed``."""
    marks = random.Random(f"{seed}:tiles:implode").sample(list(TILES), IMPLODE_MARKS)
    return sorted(marks, key=lambda p: (p.row, p.col))


def implode(original: Mapping[Point, str], marks: Iterable[Point]) -> dict[Point, str]:
    """The grid after the implosion: each marked tile takes the most frequent colour among its 2-4
    orthogonal neighbours, all read from ``original``; a tie keeps its colour.

    The black centre is not counted: it is one neighbour among four, so it could only ever
    tie, and a tie keeps the colour anyway (see the rules doc).
    """
    result = dict(original)
    for mark in marks:
        counts = Counter(
            original[n]
            for n in (mark.offset(dc, dr) for dc, dr in ORTHOGONAL)
            if on_board(n, SIZE, SIZE) and original[n] != BLACK
        )
        ranked = counts.most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            result[mark] = ranked[0][0]
    return result


def forms_rectangle(tile: Point, declared: Iterable[Point]) -> list[Point] | None:
    """Three declared tiles that make an axis-parallel rectangle with ``tile``, or ``None``."""
    taken = set(declared)
    for other in taken:
        if other.col != tile.col and other.row != tile.row:
            corner_a, corner_b = Point(tile.col, other.row), Point(other.col, tile.row)
            if corner_a in taken and corner_b in taken:
                return sorted([other, corner_a, corner_b], key=lambda p: (p.row, p.col))
    return None


def adjacent(a: Point, b: Point) -> bool:
    """Whether two squares touch orthogonally or diagonally (Chain's 8-neighbourhood)."""
    return a != b and abs(a.col - b.col) <= 1 and abs(a.row - b.row) <= 1


def grid_text(grid: Mapping[Point, str], marks: Iterable[Point] = ()) -> str:
    """The grid as text, row 7 at the top, for a room with no pictures: ``7 R B G ...``.

    Each colour is its initial (the six Rainbow initials differ); the black centre is ``*``, a
    hidden square ``?``, an Implode mark a trailing ``!``.
    """
    marked = set(marks)
    lines = []
    for row in reversed(range(SIZE)):
        cells = []
        for col in range(SIZE):
            point = Point(col, row)
            colour = grid.get(point)
            cell = "?" if colour is None else ("*" if colour == BLACK else colour[0].upper())
            cells.append(cell + ("!" if point in marked else ""))
        lines.append(f"{row + 1} " + " ".join(f"{c:<2}" for c in cells).rstrip())
    lines.append("  " + " ".join(f"{chr(65 + c):<2}" for c in range(SIZE)).rstrip())
    return "\n".join(lines)


def _sq(point: Point) -> str:
    return str(point)


@functools.cache  # the 49 squares, read again at every declaration
def _pt(text: str) -> Point:
    return parse_point(text, SIZE, SIZE)


def _sort(points: Iterable[Point]) -> list[Point]:
    return sorted(points, key=lambda p: (p.col, p.row))


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Call(Move):
    """The starter's first call: the colour the opponent must declare first."""

    colour: str

    def text(self) -> str:
        """As a record writes it: ``call red``."""
        return f"call {self.colour}"


@dataclass(frozen=True)
class Declare(Move):
    """Declare ``tile`` as the colour called for the seat, and call ``color`` for the opponent."""

    tile: str
    colour: str

    def text(self) -> str:
        """As a record writes it: ``D5 blue``."""
        return f"{self.tile} {self.colour}"


@dataclass(frozen=True)
class Mines(Move):
    """Landmine: the seat's five mine squares, sorted (sent by direct message)."""

    tiles: tuple[str, ...]

    def text(self) -> str:
        """As a record writes it: ``mines A1 B2 C3 E6 G7``."""
        return "mines " + " ".join(self.tiles)


# --------------------------------------------------------------------------- the game


class TileDecklaration(AllHandsTask):
    """Tile Decklaration: memorize the grid, then declare tiles of the colour called for you."""

    name = "tiles"
    aliases = ("tiledecklaration", "tile")
    title = "Tile Decklaration"
    picture = "geniusbot.games.allhands.picture_tiles:render"
    # All Hands On Deck: 30 s to act.
    clocks = {"*": "30s"}
    choice_phases = frozenset({"call"})
    keywords = frozenset({"call", "declare", "mines", "mine", BLACK, *RAINBOW_COLOURS})
    options = task_options(
        "tiles",
        starter="p1 or p2: the seat that makes the first call (the winner of the last task; default p1)",
        tiebreak="p1 or p2: taken for the final match's sake; Tile Decklaration cannot end in a tie",
    )
    default_tiebreak = "p2"
    summary = say(
        "A 7 x 7 grid (columns A-G, rows 1-7, black centre D4) of 16 red, 16 blue and 16 green tiles is "
        "shown for 30 seconds, then hidden. The starter calls a colour for the opponent: 'call red'. "
        "Then, in turn, declare a tile of the colour called for you and call a colour for your opponent: "
        "'D5 blue'. You lose if your tile is not of the called colour or was named before, if you call a "
        "colour with no valid tile left, or if your 30 seconds run out. Anomalies: Chain (declare next to "
        "the last declared tile), Implode (15 marked tiles take their neighbours' colour), Landmine (5 "
        "private mines each, 'mines A1 B2 C3 E6 G7' by DM; a mined tile makes you move again), Rainbow "
        "(six colours), Rectangle-Adverse (completing a rectangle of declared tiles loses)."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.palette: tuple[str, ...] = BASE_COLOURS
        self.phase = "memorize"
        self.original: dict[Point, str] = {}
        self.grid: dict[Point, str] = {}
        self.marks: list[Point] = []
        # Landmine: each seat's mines, sealed in the landmine window (and kept for the task).
        self.mines: SealedRound[list[Point]] = SealedRound(self.seats)
        self.declared: list[dict[str, str]] = []
        self.turn: str | None = None
        self.called: str | None = None
        self.caller: str | None = None
        self.must_move_again = False
        self.exploded: list[dict[str, Any]] = []
        self.last_move: str | None = None
        self.loss: dict[str, str | None] | None = None
        #: In a game drawn for the practice opponent (:meth:`determinize`): the tiles whose
        #: colour the searching seat is sure of, by seat; a seat not named knows the grid.
        self.sure: dict[str, frozenset[Point]] = {}

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board of the view in text (see :mod:`geniusbot.games.allhands.text`)."""
        from geniusbot.games.allhands.text import tiles_lines

        return tiles_lines(cast(TileDecklarationView, view))  # a host passes the views of this game

    def setup(self, **options: str) -> None:
        """Draw the grid (and Implode's marks) from the seed and open the memorize window."""
        super().setup(**options)
        self.palette = palette_for(self.anomalies)
        self.original = generate_grid(self.seed, self.palette)
        self.grid = dict(self.original)
        self.marks = draw_marks(self.seed) if self.has("implode") else []
        self.phase = "memorize"

    def opening_events(self) -> list[Event]:
        """The events that open the task: the grid, shown to everyone for 30 seconds.

        The host posts it and deletes it after its ``delete_after`` seconds; the memorize window
        closes at the same moment. The grid itself is on the board the host shows after it (a
        picture, or :func:`grid_text` where there is none), which goes with the window too; the
        ``grid`` data is for whoever needs the grid with the event.
        """
        if self.phase != "memorize" or self.is_over:
            return []
        text = say_n(
            "Memorize the grid: it is shown for {n} second, then hidden for good. No notes!",
            "Memorize the grid: it is shown for {n} seconds, then hidden for good. No notes!",
            n=MEMORIZE_SECONDS,
        )
        data = {"grid": {_sq(p): c for p, c in self.original.items()}}
        return [Event.of(text, kind=TileDecklarationEvent.REVEAL, data=data, delete_after=MEMORIZE_SECONDS)]

    # ---- whose turn, what is legal ---------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        """Nobody while the grid is shown; the seats yet to send mines; then the seat to move."""
        if self.is_over or self.phase == "memorize":
            return ()
        if self.phase == "landmines":
            return self.mines.owed()
        return (self.turn,) if self.turn else ()

    def window(self) -> Window | None:
        """The memorize window, then (Landmine) the landmine window."""
        if self.is_over:
            return None
        if self.phase == "memorize":
            return Window(
                "memorize",
                MEMORIZE_SECONDS,
                # The host puts the time the window has left in ``left``.
                says=say("Memorize the grid: it is hidden in {left}.", left=Verbatim("")),
                vanishing=True,
            )
        if self.phase == "landmines":
            return Window("landmines", LANDMINE_SECONDS)
        return None

    def is_private(self, move: Move) -> bool:
        """Mines are sent by direct message; everything else is typed in the room."""
        return isinstance(move, Mines)

    def chain_from(self) -> Point | None:
        """Chain: the square the next declaration must touch (the black centre before the first)."""
        if not self.has("chain"):
            return None
        return _pt(self.declared[-1]["tile"]) if self.declared else CENTRE

    def declared_points(self) -> list[Point]:
        """The successfully declared tiles, in order."""
        return [_pt(d["tile"]) for d in self.declared]

    def valid_tiles(self, colour: str, anchor: Point | None = None) -> list[Point]:
        """The tiles the next declarer may still truthfully declare as ``color``: of that colour (as
        played, after any implosion), never named, and with Chain touching ``anchor``."""
        named = set(self.declared_points())
        return [
            tile
            for tile in TILES
            if self.grid[tile] == colour and tile not in named and (anchor is None or adjacent(tile, anchor))
        ]

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A :class:`Mines`, :class:`Call` or :class:`Declare` for ``seat``, or a GameError.

        A declaration is refused only for what everyone can see (syntax, a colour not on this
        board, Chain's adjacency); a wrong colour or a named tile is a legal move that loses.
        """
        self.require_running(seat)
        if self.phase == "memorize":
            raise NotYourTurnError(say("The grid is on show: memorize it. Moves are taken once it is hidden."))
        if self.phase == "landmines" and self.mines.has_sealed(seat):
            raise NotYourTurnError(say("You have already sent your mines; the first submission stands."))
        self.require_turn(seat)
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write your move as text, such as {example}.", example=DECLARE_EXAMPLE))
        points, words = _tokens(text)
        if self.phase == "landmines":
            return self._parse_mines(points, words, seat, private)
        if words and words[0] in ("mines", "mine"):
            if not self.has("landmine"):
                raise IllegalMoveError(say("There are no landmines in this task; declare a tile and call a colour."))
            raise IllegalMoveError(
                say(
                    "The landmine window is over; declare a tile and call a colour, such as {example}.",
                    example=DECLARE_EXAMPLE,
                )
            )
        if private:
            raise WrongPlaceError(say("Type this in the game room, not by direct message."), private=False)
        words = [w for w in words if w not in ("call", "declare", "and")]
        if self.phase == "call":
            if points:
                raise MalformedMoveError(
                    say(
                        "You call first: name only a colour for {seat}, such as {example}.",
                        seat=Seat(other_seat(seat)),
                        example=CALL_EXAMPLE,
                    )
                )
            if len(words) != 1:
                raise MalformedMoveError(
                    say(
                        "Name one colour for {seat}, such as {example}.",
                        seat=Seat(other_seat(seat)),
                        example=CALL_EXAMPLE,
                    )
                )
            return Call(seat, self._colour(words[0]))
        if len(points) != 1 or len(words) != 1:
            assert self.called is not None  # the declarations follow a call
            raise MalformedMoveError(
                say(
                    "Write one tile and one colour: the {colour} tile you declare, then the colour you "
                    "call for your opponent, such as {example}.",
                    colour=COLOUR_WORDS[self.called],
                    example=DECLARE_EXAMPLE,
                )
            )
        tile = _pt(points[0])
        colour = self._colour(words[0])
        anchor = self.chain_from()
        if anchor is not None and not adjacent(tile, anchor):
            raise IllegalMoveError(
                say(
                    "Chain: you may only declare a tile next to {point}, the last declared tile "
                    "(orthogonally or diagonally); choose one of those.",
                    point=Verbatim(_sq(anchor)),
                )
                if self.declared
                else say(
                    "Chain: you may only declare a tile next to the black centre {point} "
                    "(orthogonally or diagonally); choose one of those.",
                    point=Verbatim(_sq(CENTRE)),
                )
            )
        return Declare(seat, _sq(tile), colour)

    def _parse_mines(self, points: list[str], words: list[str], seat: str, private: bool) -> Mines:
        other_words = [w for w in words if w not in ("mines", "mine")]
        if not private:
            if points and not other_words:
                raise WrongPlaceError(say("Send this to me by direct message, not in the game room."), private=True)
            raise IllegalMoveError(
                say(
                    "It is the landmine window: send your five mine tiles to me by direct message, such as "
                    "{example}. The calls start after it.",
                    example=MINES_EXAMPLE,
                )
            )
        if other_words:
            raise MalformedMoveError(
                say("Send five different tiles for your mines, such as {example}.", example=MINES_EXAMPLE)
            )
        tiles = [_pt(p) for p in points]
        if len(set(tiles)) != len(tiles):
            raise IllegalMoveError(say("Your mines must be on five different tiles; send them again without repeats."))
        if CENTRE in tiles:
            raise IllegalMoveError(
                say(
                    "{point} is the black centre, which no one can declare; choose other tiles.",
                    point=Verbatim(_sq(CENTRE)),
                )
            )
        if len(tiles) != MINES_PER_SEAT:
            raise MalformedMoveError(
                say(
                    "Send exactly five different tiles (you sent {count}), such as {example}.",
                    count=len(tiles),
                    example=MINES_EXAMPLE,
                )
            )
        return Mines(seat, tuple(_sq(p) for p in _sort(tiles)))

    def _colour(self, word: str) -> str:
        names = {c: c for c in self.palette} | {c[0]: c for c in self.palette}
        if word in names:
            return names[word]
        choices = Listing(tuple(COLOUR_WORDS[c] for c in self.palette))
        if word == BLACK:
            raise IllegalMoveError(say("Black is never called; call one of: {colours}.", colours=choices))
        if word in RAINBOW_COLOURS:
            raise IllegalMoveError(
                say(
                    "There is no {colour} on this board; call one of: {colours}.",
                    colour=COLOUR_WORDS[word],
                    colours=choices,
                )
            )
        raise MalformedMoveError(
            say("{word} is not a colour here; use one of: {colours}.", word=Verbatim(repr(word)), colours=choices)
        )

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal submission: five-tile mine sets, calls, or (tile, colour) declarations.

        Declarations include the ones that lose (a wrong colour, a named tile): the rules take
        them, and only the grid, which no one may consult, tells them apart.
        """
        movers = self.to_move()
        for mover in movers if seat is None else [seat]:
            if mover not in movers:
                continue
            if self.phase == "landmines":
                for combo in itertools.combinations(_sort(TILES), MINES_PER_SEAT):
                    yield Mines(mover, tuple(_sq(p) for p in combo))
            elif self.phase == "call":
                for colour in self.palette:
                    yield Call(mover, colour)
            else:
                anchor = self.chain_from()
                for tile in ALL_SQUARES:
                    if anchor is None or adjacent(tile, anchor):
                        for colour in self.palette:
                            yield Declare(mover, _sq(tile), colour)

    # ---- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Apply mines, a first call or a declaration with its call."""
        if not isinstance(move, (Mines, Call, Declare)):
            raise IllegalMoveError(
                say(
                    "That is not a move of Tile Decklaration; write a tile and a colour, such as {example}.",
                    example=DECLARE_EXAMPLE,
                )
            )
        self.require_as_typed(move)
        if isinstance(move, Mines):
            return self._apply_mines(move.seat, [_pt(t) for t in move.tiles])
        if isinstance(move, Call):
            self.last_move = move.text()
            events = [
                Event.of(
                    say(
                        "{seat} calls {colour} for {other}.",
                        seat=Seat(move.seat),
                        colour=COLOUR_WORDS[move.colour],
                        other=Seat(other_seat(move.seat)),
                    ),
                    kind=TileDecklarationEvent.CALL,
                    data={"seat": move.seat, "color": move.colour},
                )
            ]
            return events + self._after_call(move.seat, move.colour, self.chain_from(), hit_mine=False)
        return self._apply_declare(move)

    def _apply_mines(self, seat: str, tiles: list[Point]) -> list[Event]:
        self.mines.seal(seat, tiles)
        listed = Verbatim(" ".join(_sq(p) for p in tiles))
        events = [
            sealed_event(seat, say("Your mines are on {tiles}.", tiles=listed), tiles=[_sq(p) for p in tiles]),
            Event.of(
                say("{seat} has placed their mines.", seat=Seat(seat)),
                kind=TileDecklarationEvent.MINES_SENT,
                data={"seat": seat},
            ),
        ]
        if self.mines.all_in:
            events += self._start_calls()
        return events

    def _apply_declare(self, move: Declare) -> list[Event]:
        seat, tile = move.seat, _pt(move.tile)
        needed = self.called
        assert needed is not None
        self.last_move = move.text()
        named = self.declared_points()
        # The text's order: a repeated tile, then the wrong colour; then the anomaly's rectangle.
        point = Verbatim(_sq(tile))
        if tile in named:
            return self._lose(
                seat,
                "named-before",
                tile,
                say("{seat} declared {point}, which was named before.", seat=Seat(seat), point=point),
            )
        true_colour = self.grid[tile]
        if true_colour != needed:
            return self._lose(
                seat,
                "wrong-color",
                tile,
                say(
                    "{seat} declared {point} as {called}, but it is {colour}.",
                    seat=Seat(seat),
                    point=point,
                    called=COLOUR_WORDS[needed],
                    colour=COLOUR_WORDS[true_colour],
                ),
            )
        if self.has("rectangle-adverse"):
            corners = forms_rectangle(tile, named)
            if corners:
                return self._lose(
                    seat,
                    "rectangle",
                    tile,
                    say(
                        "{seat} declared {point} ({colour}), which makes a rectangle with {corners} (Rectangle-Adverse).",
                        seat=Seat(seat),
                        point=point,
                        colour=COLOUR_WORDS[true_colour],
                        corners=Listing(tuple(Verbatim(_sq(c)) for c in corners)),
                    ),
                )
        self.declared.append({"tile": _sq(tile), "color": true_colour, "seat": seat})
        events = [
            Event.of(
                say(
                    "{seat} declared {point}: {colour}. {seat} calls {call}.",
                    seat=Seat(seat),
                    point=point,
                    colour=COLOUR_WORDS[true_colour],
                    call=COLOUR_WORDS[move.colour],
                ),
                kind=TileDecklarationEvent.DECLARE,
                data={"seat": seat, "tile": _sq(tile), "color": true_colour, "call": move.colour},
            )
        ]
        owners = [s for s in self.seats if tile in (self.mines.sealed_by(s) or ())]
        if owners:
            self.exploded.append({"tile": _sq(tile), "owners": owners})
        return events + self._after_call(seat, move.colour, self.chain_from(), hit_mine=bool(owners))

    def _after_call(self, caller: str, colour: str, anchor: Point | None, *, hit_mine: bool) -> list[Event]:
        """Judge a call against the position the next declarer faces, then pass the turn (or, on a
        mine, keep it: the caller declares its own colour next)."""
        valid = self.valid_tiles(colour, anchor)
        called = COLOUR_WORDS[colour]
        if not valid:
            return self._lose(
                caller,
                "no-valid-tile",
                None,
                say(
                    "{seat} called {colour}, but no {colour} tile next to {point} is left to declare.",
                    seat=Seat(caller),
                    colour=called,
                    point=Verbatim(_sq(anchor)),
                )
                if anchor is not None
                else say(
                    "{seat} called {colour}, but no {colour} tile is left to declare.", seat=Seat(caller), colour=called
                ),
            )
        if self.has("rectangle-adverse") and all(forms_rectangle(t, self.declared_points()) for t in valid):
            return self._lose(
                caller,
                "forced-rectangle",
                None,
                say(
                    "{seat} called {colour}, and every {colour} tile next to {point} would make a rectangle "
                    "(Rectangle-Adverse).",
                    seat=Seat(caller),
                    colour=called,
                    point=Verbatim(_sq(anchor)),
                )
                if anchor is not None
                else say(
                    "{seat} called {colour}, and every {colour} tile left would make a rectangle (Rectangle-Adverse).",
                    seat=Seat(caller),
                    colour=called,
                ),
            )
        self.phase = "declare"
        self.called = colour
        self.caller = caller
        self.must_move_again = hit_mine
        events: list[Event] = []
        if hit_mine:
            last = self.exploded[-1]
            owners = last["owners"]
            events.append(
                Event.of(
                    say(
                        "{point} held a landmine ({owner}'s)! {seat} must move again: declare {tile} and call a colour.",
                        point=Verbatim(last["tile"]),
                        owner=Seat(owners[0]),
                        seat=Seat(caller),
                        tile=A_TILE[colour],
                    )
                    if len(owners) == 1
                    else say(
                        "{point} held a landmine ({first}'s and {second}'s)! {seat} must move again: declare {tile} "
                        "and call a colour.",
                        point=Verbatim(last["tile"]),
                        first=Seat(owners[0]),
                        second=Seat(owners[1]),
                        seat=Seat(caller),
                        tile=A_TILE[colour],
                    ),
                    kind=TileDecklarationEvent.LANDMINE,
                    data=dict(last, seat=caller, colour=colour),
                )
            )
            self.turn = caller
        else:
            self.turn = other_seat(caller)
            events.append(
                Event.of(
                    say(
                        "{seat}: declare {tile} next to {point} and call a colour.",
                        seat=Seat(self.turn),
                        tile=A_TILE[colour],
                        point=Verbatim(_sq(anchor)),
                    )
                    if anchor is not None
                    else say("{seat}: declare {tile} and call a colour.", seat=Seat(self.turn), tile=A_TILE[colour]),
                    kind=TileDecklarationEvent.TURN,
                    data={"seat": self.turn, "color": colour},
                )
            )
        return events

    def _lose(self, loser: str, rule: str, tile: Point | None, what: Message) -> list[Event]:
        self.loss = {"seat": loser, "rule": rule, "tile": _sq(tile) if tile else None}
        winner = other_seat(loser)
        return self._finish(
            winner, Termination.MISTAKE, say("{what} {seat} wins the task", what=what, seat=Seat(winner))
        )

    def _finish(self, winner: str, ending: Termination, reason: Message) -> list[Event]:
        self.phase = "over"
        self.called = self.caller = None
        self.must_move_again = False
        events = self.end(winner, ending, reason, verdict="", seat=other_seat(winner))
        # Not REVEAL: that one is the memory picture, which the host deletes after 30 s.
        # Data only, no text: the board the host shows after this action is the finished grid
        # (a picture, or the text board), so a text copy would show it twice. All Hands On Deck,
        # whose next board is the next play's, says the grid itself.
        events.append(
            Event("", kind=TileDecklarationEvent.FINAL_GRID, data={"grid": {_sq(p): c for p, c in self.grid.items()}})
        )
        return events

    # ---- windows and clocks ------------------------------------------------------------------

    def close_window(self) -> list[Event]:
        """End the memorize window (hide the grid, implode, open the landmines) or the landmine
        window (a seat that sent nothing places no mine)."""
        if self.is_over or self.phase not in ("memorize", "landmines"):
            raise GameError(say("There is no timed phase to close."))
        if self.phase == "landmines":
            events: list[Event] = []
            for seat in self.mines.owed():
                events += self._no_mines(seat)
            return events + self._start_calls()
        events = [Event.of(say("Memorizing is over: the grid is hidden."), kind=TileDecklarationEvent.HIDE)]
        if self.has("implode"):
            self.grid = implode(self.original, self.marks)
            events.append(
                Event.of(
                    say(
                        "Implode: {tiles} are marked '!'. Each has taken the most frequent colour among its "
                        "orthogonal neighbours as they were (a tie keeps its colour).",
                        tiles=Verbatim(" ".join(_sq(p) for p in self.marks)),
                    ),
                    kind=TileDecklarationEvent.IMPLODE,
                    data={"marks": [_sq(p) for p in self.marks]},
                )
            )
        if self.has("landmine"):
            self.phase = "landmines"
            events.append(
                Event.of(
                    say_n(
                        "Landmine: you have {n} second to send me five different tiles by direct message, such as "
                        "{example}.",
                        "Landmine: you have {n} seconds to send me five different tiles by direct message, such as "
                        "{example}.",
                        n=LANDMINE_SECONDS,
                        example=MINES_EXAMPLE,
                    ),
                    kind=TileDecklarationEvent.PHASE,
                    data={"phase": "landmines"},
                )
            )
            return events
        return events + self._start_calls()

    def _no_mines(self, seat: str) -> list[Event]:
        """A seat that sent no mines in the landmine window places none."""
        self.mines.seal(seat, [])
        said = say("{seat} sent no mines before the window closed, so places none.", seat=Seat(seat))
        return [Event.of(said, kind=TileDecklarationEvent.MINES_SENT, data={"seat": seat, "none": True})]

    def _start_calls(self) -> list[Event]:
        self.phase = "call"
        self.turn = self.starter
        return [
            Event.of(
                say(
                    "{seat}: call a colour for {other}, such as {example}.",
                    seat=Seat(self.starter),
                    other=Seat(other_seat(self.starter)),
                    example=CALL_EXAMPLE,
                ),
                kind=TileDecklarationEvent.PHASE,
                data={"phase": "call", "seat": self.starter},
            )
        ]

    def timeout(self, seat: str) -> list[Event]:
        """A seat to move that runs out of time loses. In the landmine window it places no mine."""
        self.require_seat(seat)
        if self.is_over or seat not in self.to_move():
            return []
        if self.phase == "landmines":
            events = self._no_mines(seat)
            return events + (self._start_calls() if self.mines.all_in else [])
        self.loss = {"seat": seat, "rule": "timeout", "tile": None}
        return self._finish(other_seat(seat), Termination.TIME, self.lost_task(seat, by="timeout"))

    def resign(self, seat: str) -> list[Event]:
        """The seat concedes the task; the grid is revealed."""
        self.require_seat(seat)
        if self.is_over:
            return []
        self.loss = {"seat": seat, "rule": "resign", "tile": None}
        return self._finish(other_seat(seat), Termination.RESIGNATION, self.lost_task(seat, by="resign"))

    # ---- what a seat sees ------------------------------------------------------------------

    def view(self, seat: str | None = None) -> TileDecklarationView:
        """What ``seat`` may see: the grid only in the memorize window and after the end, mines
        only in their owner's view until they go off."""
        over = self.is_over
        phase = "over" if over else self.phase
        if phase == "memorize":
            grid: dict[str, str] | None = {_sq(p): c for p, c in self.original.items()}
        elif over:
            grid = {_sq(p): c for p, c in self.grid.items()}
        else:
            grid = None
        seat_mines = self.mines.sealed_by(seat)
        own_mines = None if seat_mines is None else [_sq(p) for p in seat_mines]
        anchor = None if over or phase in ("memorize", "landmines") else self.chain_from()
        return {
            **self.base_view(),
            "phase": phase,
            "size": SIZE,
            "centre": _sq(CENTRE),
            "anomalies": list(self.anomalies),
            "palette": list(self.palette),
            "memorize_seconds": MEMORIZE_SECONDS,
            "mines_per_seat": MINES_PER_SEAT,
            "starter": self.starter,
            "grid": grid,
            "original_grid": {_sq(p): c for p, c in self.original.items()} if over and self.marks else None,
            "marks": [] if phase == "memorize" else [_sq(p) for p in self.marks],
            "declared": [dict(d) for d in self.declared],
            "called": self.called,
            "caller": self.caller,
            "chain_from": _sq(anchor) if anchor else None,
            "must_move_again": self.must_move_again,
            "mines": own_mines if self.has("landmine") else None,
            "mines_owner": seat if own_mines is not None and self.has("landmine") else None,
            "mines_sent": self.mines.submitted() if self.has("landmine") else None,
            "exploded": [dict(e, owners=list(e["owners"])) for e in self.exploded],
            "last_move": self.last_move,
            "move_number": len(self.declared),
            "loss": dict(self.loss) if self.loss else None,
        }

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything, hidden parts included (the store is not a view)."""
        return {
            **self.options_state(),
            "phase": self.phase,
            "original": {_sq(p): c for p, c in self.original.items()},
            "grid": {_sq(p): c for p, c in self.grid.items()},
            "marks": [_sq(p) for p in self.marks],
            "mines": self.mines.to_dict(lambda mines: [_sq(p) for p in mines]),
            "declared": [dict(d) for d in self.declared],
            "turn": self.turn,
            "called": self.called,
            "caller": self.caller,
            "must_move_again": self.must_move_again,
            "exploded": [dict(e, owners=list(e["owners"])) for e in self.exploded],
            "last_move": self.last_move,
            "loss": dict(self.loss) if self.loss else None,
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`."""
        self.load_options(data)
        self.palette = palette_for(self.anomalies)
        self.phase = data["phase"]
        self.original = {_pt(s): c for s, c in data["original"].items()}
        self.grid = {_pt(s): c for s, c in data["grid"].items()}
        self.marks = [_pt(s) for s in data["marks"]]
        self.mines = SealedRound.from_dict(data["mines"], lambda mines: [_pt(t) for t in mines])
        self.declared = [dict(d) for d in data["declared"]]
        self.turn = data["turn"]
        self.called = data["called"]
        self.caller = data["caller"]
        self.must_move_again = bool(data["must_move_again"])
        self.exploded = [dict(e, owners=list(e["owners"])) for e in data["exploded"]]
        self.last_move = data["last_move"]
        self.loss = dict(data["loss"]) if data["loss"] else None

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    @classmethod
    def recall(cls, seat: str, views: Sequence[Mapping[str, Any]], memory: float) -> Sequence[Mapping[str, Any]]:
        """The views with the memorize window's grid cut to ``memory`` of its 48 tiles (the
        centre is black on every grid): the tiles kept are drawn from the grid and the seat
        alone, so the same grid is remembered the same way at every move."""
        if memory >= 1:
            return views
        recalled: list[Mapping[str, Any]] = []
        for view in views:
            grid = view.get("grid") if view.get("phase") == "memorize" else None
            if grid:
                tiles = sorted(sq for sq in grid if _pt(sq) != CENTRE)
                rng = random.Random(f"recall:{seat}:" + ",".join(f"{sq}={grid[sq]}" for sq in tiles))
                kept = set(rng.sample(tiles, max(0, min(len(tiles), round(memory * len(tiles))))))
                view = dict(view, grid={sq: c for sq, c in grid.items() if sq in kept or _pt(sq) == CENTRE})
            recalled.append(view)
        return recalled

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> TileDecklaration | None:
        """A game ``seat`` cannot tell from the one it plays: the grid as its view showed it in
        the memorize window (what it did not see, or does not remember (:meth:`recall`), dealt
        from ``rng`` around the declared tiles), its own mines, and the other seat's unexploded
        mines placed at random on tiles not yet declared. The game's :attr:`sure` holds the
        tiles whose colour the seat knows."""
        if not views:
            return None
        view = views[-1]
        game = cls.blank(options)
        if view["phase"] in ("memorize", "over"):
            return None
        shown = next((v["grid"] for v in views if v.get("phase") == "memorize" and v.get("grid")), None)
        declared = {d["tile"]: d["color"] for d in view["declared"]}
        marks = [_pt(m) for m in view["marks"]]
        remembered = {_pt(sq): colour for sq, colour in (shown or {}).items() if _pt(sq) != CENTRE}
        # A declared tile shows its colour as played: its colour at the start too, unless marked.
        told = {_pt(sq): c for sq, c in declared.items() if _pt(sq) not in marks}
        known = {**told, **remembered}
        colours = Counter(c for c in game.palette for _ in range(len(TILES) // len(game.palette)))
        colours.subtract(known.values())
        if any(n < 0 for n in colours.values()):
            return None
        dealt = sorted(colours.elements())
        rng.shuffle(dealt)
        original = dict(game.original)
        original.update(known)
        original.update(zip([p for p in TILES if p not in known], dealt, strict=True))
        game.original = original
        game.grid = implode(original, marks) if marks else dict(original)
        game.marks = marks
        if len(remembered) < len(TILES):
            game.sure = {seat: frozenset(p for p in TILES if _sure(p, remembered, marks))}
        game.phase = view["phase"]
        own = view.get("mines")
        if own is not None:
            game.mines.seal(seat, [_pt(t) for t in own])
        other = other_seat(seat)
        sent = (view.get("mines_sent") or {}).get(other, False)
        if game.has("landmine") and sent:
            exploded = [_pt(e["tile"]) for e in view["exploded"] if other in e["owners"]]
            free = [p for p in TILES if _sq(p) not in declared]
            game.mines.seal(other, exploded + rng.sample(free, MINES_PER_SEAT - len(exploded)))
        elif game.has("landmine") and view["phase"] != "landmines":
            game.mines.seal(other, [])
        game.declared = [dict(d) for d in view["declared"]]
        game.turn = view["to_move"][0] if view["phase"] in ("call", "declare") and view["to_move"] else None
        game.called, game.caller = view["called"], view["caller"]
        game.must_move_again = bool(view["must_move_again"])
        game.exploded = [dict(e, owners=list(e["owners"])) for e in view["exploded"]]
        game.last_move = view["last_move"]
        return game

    def search_moves(self, seat: str) -> list[Move] | None:
        """In the calls, the declarations of the tiles the seat would declare (:meth:`_declarable`:
        the true ones where it knows the grid), with every call."""
        if self.is_over or self.phase != "declare" or self.called is None or seat not in self.to_move():
            return None
        tiles = self._declarable(seat)
        return [Declare(seat, _sq(tile), colour) for tile in tiles for colour in self.palette] or None

    def _declarable(self, seat: str) -> list[Point]:
        """The tiles ``seat`` would declare for the colour called: the valid ones it is sure of
        (all valid ones when it knows the grid), else the tiles it may guess (not named, not
        known to be of another colour, touching Chain's anchor); empty when no tile is valid."""
        assert self.called is not None
        anchor = self.chain_from()
        tiles = self.valid_tiles(self.called, anchor)
        sure = self.sure.get(seat)
        if sure is None or not tiles:
            return tiles
        certain = [tile for tile in tiles if tile in sure]
        if certain:
            return certain
        named = set(self.declared_points())
        return [t for t in TILES if t not in named and t not in sure and (anchor is None or adjacent(t, anchor))]

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """Five random mines; a random call; a declaration of a tile the seat would declare
        (:meth:`_declarable`: a true one where it knows the grid) with a random call."""
        if self.is_over or seat not in self.to_move():
            return None
        if self.phase == "landmines":
            return Mines(seat, tuple(_sq(p) for p in _sort(rng.sample(TILES, MINES_PER_SEAT))))
        if self.phase == "call":
            return Call(seat, rng.choice(self.palette))
        if self.called is None:
            return None
        tiles = self._declarable(seat)
        if not tiles:
            return Declare(seat, _sq(rng.choice(TILES)), rng.choice(self.palette))
        return Declare(seat, _sq(rng.choice(tiles)), rng.choice(self.palette))


def _sure(tile: Point, remembered: Mapping[Point, str], marks: Sequence[Point]) -> bool:
    """Whether a seat remembering ``remembered`` of the grid knows ``tile``'s colour as played:
    it remembers the tile and, when the tile is marked to implode, its orthogonal neighbours."""
    if tile not in remembered:
        return False
    if tile not in marks:
        return True
    return all(
        n in remembered or n == CENTRE
        for n in (tile.offset(dc, dr) for dc, dr in ORTHOGONAL)
        if on_board(n, SIZE, SIZE)
    )


#: What to write instead of a text that is no move at all.
_HINT = say(
    "write a tile and a colour ({declare}), a first call ({call}) or, by direct message, your mines ({mines}).",
    declare=DECLARE_EXAMPLE,
    call=CALL_EXAMPLE,
    mines=MINES_EXAMPLE,
)


def _tokens(text: str) -> tuple[list[str], list[str]]:
    """Split a submission into squares and words; anything else is refused."""
    return split_submission(text, _TOKEN, _POINT_TOKEN, _HINT)


__all__ = [
    "ANOMALIES",
    "Call",
    "Declare",
    "Mines",
    "TileDecklaration",
    "adjacent",
    "draw_marks",
    "forms_rectangle",
    "generate_grid",
    "grid_text",
    "implode",
    "palette_for",
    "parse_anomalies",
]
