"""Deck Swabbing (seed 001, task 3 of the final match All Hands On Deck): colour white tiles black
and claim the regions you close off.

The readings are fixed in ``docs/rules/swabbing.md`` (its rules and numbered rulings). In short:

* A 7 x 7 grid, all white at the start. The seats alternate, the ``starter`` first (in the final
  match, the loser of the previous task). A move colours two orthogonally adjacent white tiles
  black: ``C3 C4``.
* After each move, every orthogonally connected region of 5 or fewer white tiles is coloured in
  the mover's colour. When the seat to move has no legal move, the task ends.
* Most tiles of your colour wins; a tie goes to the ``tiebreak`` seat (default: the seat that
  most recently coloured tiles in this task; if nobody ever did, p2). Running out of time on your
  move loses the task.
* Anomalies (option ``anomalies``, any combination): Hook (after the first move, a move must touch
  a tile placed last turn, unless no move can), Linear (one or more white tiles in one row or one
  column: ``C3 C4 C6``), Pyramid (tiles are worth 4 at D4, then 3, 2 and 1 ring by ring; most
  points wins), Snipe (on the opponent's turn, a sealed ``snipe D4`` or ``snipe none`` by direct
  message, played with the opponent's sealed move), Unique (each square carries a number 1-7; a
  region is coloured when no number repeats in it, instead of the 5-or-fewer rule).

Snipe makes every turn a simultaneous phase: the mover (move by direct message, so that it stays
sealed) and the sniper are both in :meth:`DeckSwabbing.to_move`; whoever answers first waits,
sealed, for the other; a sniper whose time runs out snipes nothing (it does not lose).

Phases: ``move`` (a turn, with Snipe a sealed pair of submissions), ``over``.

View keys (besides ``game``, ``variant``, ``to_move``, ``outcome``):

``phase``
    ``move`` or ``over``.
``size``, ``centre``
    7 and ``"D4"``.
``anomalies``
    The active anomalies (canonical names, in the text's order).
``starter``
    The seat that made the first move.
``tiebreak``
    The seat that wins a tie now: the ``tiebreak`` option, else the seat that most recently
    coloured tiles, else ``"p2"``.
``turn``, ``sniper``
    The seat whose move it is (``None`` once over); Snipe: the other seat, which may snipe this
    turn (``None`` without Snipe or once over).
``board``
    Square -> ``"white"``, ``"black"``, ``"p1"`` or ``"p2"`` (the seat whose colour the tile has),
    all 49 squares. A sealed move or snipe is never on it before it is played.
``numbers``
    Unique: square -> its number 1-7 (public from the start); else ``None``.
``values``
    Pyramid: square -> the points a tile of your colour there is worth (4, 3, 2, 1); else ``None``.
``tiles``
    Seat -> how many tiles have its colour.
``scores``
    Seat -> the score that decides the task: the tile count, or with Pyramid the points.
``hook``
    Hook: ``{"from": [squares placed last turn], "lifted": bool}``: the next move must colour a
    tile orthogonally next to one of ``from``, unless ``lifted`` (no legal move can); ``from`` is
    empty before the first move. ``None`` without Hook or once over.
``submitted``
    Snipe: seat -> whether its sealed submission for this turn is in (never what it is); else
    ``None``.
``sealed``
    The viewer's own sealed submission this turn (``"C3 C4"``, ``"snipe D4"``, ``"snipe none"``),
    else ``None``. Never in the public view or the opponent's.
``history``
    Every played turn: ``{"seat", "tiles", "snipe", "snipe_ignored", "filled"}``: ``tiles`` the
    squares the mover coloured black; ``snipe`` the sniper's square (Snipe: ``None`` if it sent
    ``snipe none`` or nothing); ``snipe_ignored`` whether that square was one of the mover's (then
    it changed nothing); ``filled`` the squares coloured in the mover's colour.
``last_move``
    The canonical text of the last played move (never a sealed one), else ``None``.
``move_number``
    How many moves have been played.
``result``
    Once over: ``{"reason", "scores", "tiebreak"}``: ``reason`` one of ``no-move`` (the board is
    swabbed), ``timeout``, ``resign``; ``scores`` seat -> final score; ``tiebreak`` the seat a tie
    gave the task to, else ``None``. ``None`` while the task runs.
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

from geniusbot.games.allhands.common import TASK_ANOMALIES, parse_anomalies as parse_family_anomalies
from geniusbot.games.allhands.task import AllHandsTask, task_options
from geniusbot.games.allhands.view import DeckSwabbingView, Hook
from geniusbot.games.base import (
    Event,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    Termination,
    WrongPlaceError,
    other_seat,
)
from geniusbot.games.grid import Point, on_board, parse_point, split_submission
from geniusbot.games.sealed import SealedRound, require_private, sealed_event
from geniusbot.words import Message, Seat, Verbatim, say, say_c, say_n

SIZE = 7
CENTRE = Point(3, 3)
WHITE = "white"
BLACK = "black"
FILL_LIMIT = 5
NUMBERS: tuple[int, ...] = tuple(range(1, SIZE + 1))

#: The anomalies of Task 3, in the order the rule text lists them.
ANOMALIES: tuple[str, ...] = TASK_ANOMALIES["swabbing"]

SQUARES: tuple[Point, ...] = tuple(Point(c, r) for r in range(SIZE) for c in range(SIZE))
ORTHOGONAL: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))

#: The examples a sentence gives of what to type (typed as they are, in every language).
MOVE_EXAMPLE = Verbatim("C3 C4")
SNIPE_EXAMPLE = Verbatim("snipe D4")
NO_SNIPE = Verbatim("snipe none")


class DeckSwabbingEvent(StrEnum):
    """Deck Swabbing's own event kinds (a host treats them as :attr:`EventKind.INFO`)."""

    #: The board at the start, all white: ``data["numbers"]``, Unique's numbers (no data without Unique).
    BOARD = "board"
    #: Whose move it is: ``data["seat"]``, and the ``sniper`` (``None`` without Snipe).
    TURN = "turn"
    #: Under Snipe, a sealed move or snipe is in, or none in time: ``data["seat"]`` (``none`` when it sent none).
    SUBMITTED = "submitted"
    #: A move is coloured: ``data`` has the ``seat``, ``tiles``, ``snipe``, ``snipe_ignored``, ``filled``, ``board``.
    MOVE = "move"


_TOKEN = re.compile(r"[a-z]\s*\d+|[a-z]+|\d+")
_POINT_TOKEN = re.compile(r"^[a-z]\s*\d+$|^\d+$")
_JOINING_WORDS = frozenset({"and", "swab", "colour", "color", "move"})


def parse_anomalies(text: str) -> tuple[str, ...]:
    """The anomalies an ``anomalies`` option names, in the text's order, or :class:`OptionError`.

    Names are Task 3's five (``hook, linear, pyramid, snipe, unique``), read as the whole family
    reads them (:mod:`geniusbot.games.allhands.common`); ``none`` or nothing means no anomaly.
    """
    return parse_family_anomalies(text, "swabbing")


def _around(point: Point) -> tuple[Point, ...]:
    return tuple(o for o in (point.offset(dc, dr) for dc, dr in ORTHOGONAL) if on_board(o, SIZE, SIZE))


#: Each square's orthogonal neighbours on the board, worked out once.
_NEIGHBOURS: dict[Point, tuple[Point, ...]] = {p: _around(p) for p in SQUARES}


def neighbours(point: Point) -> tuple[Point, ...]:
    """The 2-4 squares orthogonally next to ``point`` on the board."""
    return _NEIGHBOURS.get(point) or _around(point)


def pyramid_value(point: Point) -> int:
    """Pyramid: 4 for D4, 3 for the 8 around it, 2 for the next ring of 16, 1 for the outer 24."""
    return 4 - max(abs(point.col - CENTRE.col), abs(point.row - CENTRE.row))


def is_permutation_line(numbers: Mapping[Point, int]) -> bool:
    """Whether some row or column of ``numbers`` holds each of 1-7 exactly once."""
    for index in range(SIZE):
        row = sorted(numbers[Point(c, index)] for c in range(SIZE))
        column = sorted(numbers[Point(index, r)] for r in range(SIZE))
        if row == list(NUMBERS) or column == list(NUMBERS):
            return True
    return False


def generate_numbers(seed: int) -> dict[Point, int]:
    """Unique: each of 1-7 seven times, shuffled from ``seed``, no row or column a full 1-7 set.

    Shuffles again (from the same generator) until the text's condition holds; about one
    shuffle in twelve is refused, so this ends at once.
    """
    rng = random.Random(f"{seed}:swabbing:numbers")
    values = [n for n in NUMBERS for _ in range(SIZE)]
    while True:
        rng.shuffle(values)
        numbers = dict(zip(SQUARES, values, strict=True))
        if not is_permutation_line(numbers):
            return numbers


def white_regions(board: Mapping[Point, str]) -> list[list[Point]]:
    """The orthogonally connected regions of white squares, each sorted, in board order."""
    seen: set[Point] = set()
    regions: list[list[Point]] = []
    for start in SQUARES:
        if board[start] != WHITE or start in seen:
            continue
        seen.add(start)
        stack, region = [start], []
        while stack:
            point = stack.pop()
            region.append(point)
            for other in neighbours(point):
                if board[other] == WHITE and other not in seen:
                    seen.add(other)
                    stack.append(other)
        regions.append(_sort(region))
    return regions


def filled_squares(board: Mapping[Point, str], numbers: Mapping[Point, int] | None) -> list[Point]:
    """The white squares of the regions that are coloured in on ``board`` (:func:`region_fills`)."""
    return [p for region in white_regions(board) if region_fills(region, numbers) for p in region]


def region_fills(region: Iterable[Point], numbers: Mapping[Point, int] | None) -> bool:
    """Whether a white region is coloured in: 5 tiles or fewer, or (Unique, ``numbers`` given)
    no number appearing twice in it, whatever its size."""
    region = list(region)
    if numbers is None:
        return len(region) <= FILL_LIMIT
    found = [numbers[p] for p in region]
    return len(found) == len(set(found))


def board_text(board: Mapping[Point, str], numbers: Mapping[Point, int] | None = None) -> str:
    """The board as text, row 7 at the top, for a room with no pictures.

    A white tile is ``.`` (Unique: its number), black ``#``, p1's colour ``X``, p2's ``O``.
    """
    marks = {BLACK: "#", "p1": "X", "p2": "O"}
    lines = []
    for row in reversed(range(SIZE)):
        cells = []
        for col in range(SIZE):
            point = Point(col, row)
            state = board[point]
            if state == WHITE:
                cells.append(str(numbers[point]) if numbers else ".")
            else:
                cells.append(marks[state])
        lines.append(f"{row + 1} " + " ".join(cells))
    lines.append("  " + " ".join(chr(65 + c) for c in range(SIZE)))
    return "\n".join(lines)


@functools.cache  # the 49 squares, named again at every legal move
def _sq(point: Point) -> str:
    return str(point)


@functools.cache
def _pt(text: str) -> Point:
    return parse_point(text, SIZE, SIZE)


def _sort(points: Iterable[Point]) -> list[Point]:
    return sorted(points, key=lambda p: (p.col, p.row))


def example_move(board: Mapping[str, str], *, linear: bool, touch: Sequence[str] = ()) -> str | None:
    """A legal move on ``board`` (square -> state, as the view gives it) for a prompt to suggest,
    so no prompt names a tile that is already coloured: two side-by-side white tiles, or
    (``linear``) up to three white tiles of one row or column; with ``touch`` (Hook's tiles while
    it binds) one of them next to one of those. ``None`` when no move is left."""
    white = {p for p in SQUARES if board.get(_sq(p)) == WHITE}
    zone = {n for t in touch for n in neighbours(_pt(t)) if n in white} if touch else None
    usual = [_pt(t) for t in (("C3", "C4", "C6") if linear else ("C3", "C4"))]  # the rules' own example
    if all(p in white for p in usual) and (zone is None or any(p in zone for p in usual)):
        return _listing(usual)
    if not linear:
        for p in _sort(white):
            for q in (p.offset(0, 1), p.offset(1, 0)):
                if q in white and (zone is None or p in zone or q in zone):
                    return _listing(_sort((p, q)))
        return None
    lines = [[Point(c, r) for c in range(SIZE)] for r in range(SIZE)] + [
        [Point(c, r) for r in range(SIZE)] for c in range(SIZE)
    ]
    best: list[Point] = []
    for line in lines:
        whites = [p for p in line if p in white]
        if zone is not None:
            start = [p for p in whites if p in zone][:1]
            whites = start + [p for p in whites if p not in start] if start else []
        if len(whites[:3]) > len(best):
            best = whites[:3]
    return _listing(_sort(best)) if best else None


def _listing(points: Iterable[Point | str]) -> str:
    return " ".join(str(p) for p in points)


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Swab(Move):
    """Colour ``tiles`` black: a pair of adjacent white tiles (Linear: white tiles in one row or
    column), sorted by column, then row."""

    tiles: tuple[str, ...]

    def text(self) -> str:
        """As a record writes it: ``C3 C4`` (Linear: ``C3 C4 C6``)."""
        return " ".join(self.tiles)


@dataclass(frozen=True)
class Snipe(Move):
    """Snipe: colour ``tile`` black along with the opponent's move (``None``: no snipe)."""

    tile: str | None

    def text(self) -> str:
        """As a record writes it: ``snipe D4`` or ``snipe none``."""
        return f"snipe {self.tile or 'none'}"


# --------------------------------------------------------------------------- the game


class DeckSwabbing(AllHandsTask):
    """Deck Swabbing: colour white tiles black; the regions you close off take your colour."""

    name = "swabbing"
    aliases = ("deckswabbing", "swab")
    title = "Deck Swabbing"
    picture = "geniusbot.games.allhands.picture_swabbing:render"
    clocks = {"*": "30s"}
    # The other words the parser reads ("and", "colour", "move": "move C3 C4") only join tiles.
    keywords = frozenset({"snipe", "none", "swab"})
    options = task_options(
        "swabbing",
        starter="p1 or p2: the seat that moves first (the loser of the previous task; default p1)",
        tiebreak="p1 or p2: the seat that wins a tie (default: the seat that last coloured tiles, else p2)",
    )
    summary = say(
        "A 7 x 7 grid (columns A-G, rows 1-7), all white. In turn, colour two side-by-side white tiles "
        "black: 'C3 C4'. After your move, every connected region of 5 or fewer white tiles takes your "
        "colour. When the player to move has no move, the task ends: most tiles of your colour wins. "
        "30 seconds a move; running out of time loses. Anomalies: Hook (touch a tile placed last turn "
        "if you can), Linear (any white tiles in one row or column: 'C3 C4 C6'), Pyramid (tiles worth "
        "4 at D4, then 3, 2, 1 outwards; most points wins), Snipe (on your opponent's turn, send 'snipe "
        "D4' or 'snipe none' by DM; moves are sent by DM too, sealed), Unique (numbered squares; a "
        "region with no repeated number takes your colour, whatever its size)."
    )

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant)
        self.numbers: dict[Point, int] | None = None
        self.board: dict[Point, str] = dict.fromkeys(SQUARES, WHITE)
        self.phase = "move"
        self.turn = "p1"
        self.recent: list[Point] = []
        # Snipe: each turn is a sealed round, the mover's move and the sniper's answer.
        self.sealed: SealedRound[Swab | Snipe] = SealedRound()
        self.history: list[dict[str, Any]] = []
        self.last_move: str | None = None
        self.last_scorer: str | None = None
        self.result: dict[str, Any] | None = None

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The board of the view in text (see :mod:`geniusbot.games.allhands.text`)."""
        from geniusbot.games.allhands.text import swabbing_lines

        return swabbing_lines(cast(DeckSwabbingView, view))  # a host passes the views of this game

    def setup(self, **options: str) -> None:
        """An all-white board (Unique: numbered from the seed); the starter moves first."""
        super().setup(**options)
        self.numbers = generate_numbers(self.seed) if self.has("unique") else None
        self.board = dict.fromkeys(SQUARES, WHITE)
        self.phase = "move"
        self.turn = self.starter
        self._open_turn()

    def opening_events(self) -> list[Event]:
        """The events that open the task: the board (with Unique's numbers) and the first prompt.

        The text says what the board is; the host shows the board itself (a picture, or
        :func:`board_text` where there is none), so the event carries Unique's numbers as data only.
        """
        if self.is_over or self.history:
            return []
        text = say("Deck Swabbing: the board is all white.")
        data = {"numbers": self._numbers_view()} if self.numbers else {}
        return [Event.of(text, kind=DeckSwabbingEvent.BOARD, data=data), *self._prompt()]

    # ---- whose turn, what is legal ---------------------------------------------------------

    @property
    def sniper(self) -> str | None:
        """Snipe: the seat that may snipe this turn (the one not moving); else ``None``."""
        return other_seat(self.turn) if self.has("snipe") and not self.is_over else None

    def to_move(self) -> tuple[str, ...]:
        """The mover; with Snipe also the sniper, each until its sealed submission is in."""
        if self.is_over:
            return ()
        return self.sealed.owed() if self.has("snipe") else (self.turn,)

    def _open_turn(self) -> None:
        """With Snipe, open the turn's sealed round: the mover, then the sniper."""
        self.sealed.open((self.turn, other_seat(self.turn)) if self.has("snipe") else ())

    def _sealed(self) -> tuple[Swab | None, Snipe | None]:
        """Snipe: the mover's sealed move and the sniper's sealed answer, each ``None`` until in."""
        move, snipe = self.sealed.sealed_by(self.turn), self.sealed.sealed_by(other_seat(self.turn))
        return (move if isinstance(move, Swab) else None), (snipe if isinstance(snipe, Snipe) else None)

    def is_private(self, move: Move) -> bool:
        """Snipes are sent by direct message, and with Snipe so are moves (they are sealed)."""
        return isinstance(move, Snipe) or (isinstance(move, Swab) and self.has("snipe"))

    def hook_from(self) -> list[Point]:
        """Hook: the tiles placed last turn, which the next move must touch; ``[]`` before the
        first move or without Hook."""
        return list(self.recent) if self.has("hook") else []

    def hook_zone(self) -> set[Point]:
        """Hook: the white tiles orthogonally next to a tile placed last turn."""
        return {n for p in self.hook_from() for n in neighbours(p) if self.board[n] == WHITE}

    def hook_binds(self) -> bool:
        """Whether Hook restricts the move now: after the first move, while some legal move can
        touch a tile placed last turn (if none can, the restriction is lifted for this move)."""
        zone = self.hook_zone()
        if not self.hook_from():
            return False
        if self.has("linear"):
            return bool(zone)
        return any(self.board[n] == WHITE for p in zone for n in neighbours(p))

    def _candidate_moves(self) -> Iterator[tuple[Point, ...]]:
        """Every set of tiles a move may colour, before Hook: adjacent white pairs, or (Linear)
        non-empty sets of white tiles in one row or one column."""
        board = self.board
        if not self.has("linear"):
            for p in SQUARES:
                if board[p] != WHITE:
                    continue
                for q in (p.offset(1, 0), p.offset(0, 1)):
                    if on_board(q, SIZE, SIZE) and board[q] == WHITE:
                        yield tuple(_sort((p, q)))
            return
        lines = [[Point(c, r) for c in range(SIZE)] for r in range(SIZE)]
        columns = [[Point(c, r) for r in range(SIZE)] for c in range(SIZE)]
        for line, smallest in [(x, 1) for x in lines] + [(x, 2) for x in columns]:
            whites = [p for p in line if board[p] == WHITE]
            # A single tile lies in a row and a column: count it once, with its row.
            for size in range(smallest, len(whites) + 1):
                for combo in itertools.combinations(whites, size):
                    yield tuple(_sort(combo))

    def has_legal_move(self) -> bool:
        """Whether the seat to move can colour anything (Hook never takes every move away)."""
        return next(self._candidate_moves(), None) is not None

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal submission: the mover's moves (Hook applied), the sniper's snipes."""
        movers = self.to_move()
        for mover in movers if seat is None else [seat]:
            if mover not in movers:
                continue
            if mover == self.turn:
                zone = self.hook_zone() if self.hook_binds() else None
                for tiles in self._candidate_moves():
                    if zone is None or any(t in zone for t in tiles):
                        yield Swab(mover, tuple(_sq(t) for t in tiles))
            else:
                yield Snipe(mover, None)
                for point in _sort(SQUARES):
                    if self.board[point] == WHITE:
                        yield Snipe(mover, _sq(point))

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """A :class:`Swab` or :class:`Snipe` for ``seat``, or a GameError saying what to send."""
        self.require_running(seat)
        if self.sealed.has_sealed(seat):
            if seat == self.turn:
                raise NotYourTurnError(
                    say(
                        "You have already sent your move this turn, and the first one stands; it is played "
                        "once {seat} has answered.",
                        seat=Seat(other_seat(seat)),
                    )
                )
            raise NotYourTurnError(
                say(
                    "You have already answered this turn, and the first answer stands; wait for {seat}'s move.",
                    seat=Seat(self.turn),
                )
            )
        self.require_turn(seat)
        if not isinstance(text, str):
            raise MalformedMoveError(say("Write your move as text, such as {example}.", example=MOVE_EXAMPLE))
        points, words = _tokens(text)
        if "snipe" in words:
            return self._parse_snipe(points, [w for w in words if w != "snipe"], seat, private)
        if words == ["none"] and not points and seat != self.turn:
            return self._parse_snipe(points, words, seat, private)
        if seat != self.turn:
            raise IllegalMoveError(
                say(
                    "It is {seat}'s move; on their turn you may only snipe: send me {snipe} (a white "
                    "tile) or {none} by direct message.",
                    seat=Seat(self.turn),
                    snipe=SNIPE_EXAMPLE,
                    none=NO_SNIPE,
                )
            )
        unknown = [w for w in words if w not in _JOINING_WORDS]
        if unknown or not points:
            raise MalformedMoveError(
                say("{word} is not a tile; {how}", word=Verbatim(repr(unknown[0])), how=self._how_to_move())
                if unknown
                else self._how_to_move()
            )
        tiles = [_pt(p) for p in points]
        if self.has("snipe"):
            require_private(
                private,
                say(
                    "Send your move to me by direct message, not in the game room: with Snipe, moves stay "
                    "sealed until your opponent has answered."
                ),
            )
        if not self.has("snipe") and private:
            raise WrongPlaceError(say("Type your move in the game room, not by direct message."), private=False)
        return Swab(seat, tuple(_sq(t) for t in self._check_tiles(tiles)))

    def _how_to_move(self, *, sentence: bool = False) -> Message:
        """What a move names, with a legal example where one is left: a clause (``name two
        side-by-side white tiles, such as C3 C4.``), or with ``sentence`` a sentence of its own
        (``Name ...``; the example's tiles stay upper case)."""
        touch = [_sq(p) for p in self.recent] if self.has("hook") and self.hook_binds() else []
        linear = self.has("linear")
        example = example_move(self._board_view(), linear=linear, touch=touch)
        if example is None:
            if linear:
                return (
                    say("Name one or more white tiles in one row or one column.")
                    if sentence
                    else say("name one or more white tiles in one row or one column.")
                )
            return say("Name two side-by-side white tiles.") if sentence else say("name two side-by-side white tiles.")
        such = Verbatim(example)
        if linear:
            return (
                say("Name one or more white tiles in one row or one column, such as {example}.", example=such)
                if sentence
                else say("name one or more white tiles in one row or one column, such as {example}.", example=such)
            )
        return (
            say("Name two side-by-side white tiles, such as {example}.", example=such)
            if sentence
            else say("name two side-by-side white tiles, such as {example}.", example=such)
        )

    def _check_tiles(self, tiles: list[Point]) -> list[Point]:
        named = Counter(tiles)  # one pass: a long submission costs its length, not its square
        repeated = next((p for p in tiles if named[p] > 1), None)
        if repeated is not None:
            raise IllegalMoveError(say("You named {point} twice; name each tile once.", point=Verbatim(_sq(repeated))))
        if not self.has("linear") and len(tiles) != 2:
            raise MalformedMoveError(
                say(
                    "A move colours exactly two tiles (you named {count}); "
                    "name two side-by-side white tiles, such as {example}.",
                    count=len(tiles),
                    example=MOVE_EXAMPLE,
                )
            )
        taken = [p for p in tiles if self.board[p] != WHITE]
        if taken:
            state, point = self.board[taken[0]], Verbatim(_sq(taken[0]))
            raise IllegalMoveError(
                say("{point} is already black; choose white tiles.", point=point)
                if state == BLACK
                else say("{point} is already {seat}'s colour; choose white tiles.", point=point, seat=Seat(state))
            )
        if self.has("linear"):
            if len({p.row for p in tiles}) > 1 and len({p.col for p in tiles}) > 1:
                raise IllegalMoveError(
                    say(
                        "Linear: your tiles must all lie in one row or one column, such as {example} or {other}.",
                        example=Verbatim("C3 C4 C6"),
                        other=Verbatim("A5 C5 G5"),
                    )
                )
        else:
            a, b = tiles
            if abs(a.col - b.col) + abs(a.row - b.row) != 1:
                raise IllegalMoveError(
                    say(
                        "{first} and {second} are not side by side; choose two tiles next to each other in a row "
                        "or a column, such as {example}.",
                        first=Verbatim(_sq(a)),
                        second=Verbatim(_sq(b)),
                        example=MOVE_EXAMPLE,
                    )
                )
        if self.hook_binds():
            zone = self.hook_zone()
            if not any(p in zone for p in tiles):
                raise IllegalMoveError(
                    say(
                        "Hook: at least one of your tiles must be next to (not diagonal to) a tile placed last "
                        "turn ({placed}); white tiles you may start from: {zone}.",
                        placed=Verbatim(_listing(self.recent)),
                        zone=Verbatim(_listing(_sort(zone))),
                    )
                )
        return _sort(tiles)

    def _parse_snipe(self, points: list[str], words: list[str], seat: str, private: bool) -> Snipe:
        if not self.has("snipe"):
            raise IllegalMoveError(say("There is no Snipe in this task; {how}", how=self._how_to_move()))
        if seat == self.turn:
            raise IllegalMoveError(
                say(
                    "It is your own move: you snipe only on your opponent's turn. {how}",
                    how=self._how_to_move(sentence=True),
                )
            )
        extra = [w for w in words if w != "none"]
        if extra or len(points) + words.count("none") != 1:
            raise MalformedMoveError(
                say(
                    "Name one white tile to snipe, such as {snipe}, or send {none}.",
                    snipe=SNIPE_EXAMPLE,
                    none=NO_SNIPE,
                )
            )
        require_private(private, say("Send your snipe to me by direct message, not in the game room: it is sealed."))
        if not points:
            return Snipe(seat, None)
        tile = _pt(points[0])
        if self.board[tile] != WHITE:
            raise IllegalMoveError(
                say(
                    "{point} is not white; snipe a white tile, or send {none}.",
                    point=Verbatim(_sq(tile)),
                    none=NO_SNIPE,
                )
            )
        return Snipe(seat, _sq(tile))

    # ---- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Play a move (with Snipe: seal it, or a snipe, and play the turn once both are in)."""
        if not isinstance(move, (Swab, Snipe)):
            raise IllegalMoveError(say("That is not a move of Deck Swabbing; {how}", how=self._how_to_move()))
        self.require_as_typed(move)
        if not self.has("snipe"):
            assert isinstance(move, Swab)
            return self._resolve(move.seat, [_pt(t) for t in move.tiles], None)
        self.sealed.seal(move.seat, move)
        shown = Verbatim(move.text())
        if isinstance(move, Swab):
            confirmed = sealed_event(move.seat, say("Your move {move} is sealed.", move=shown), move=move.text())
            sent = say("{seat} has sent their move.", seat=Seat(move.seat))
        else:
            confirmed = sealed_event(move.seat, say("Your answer {move} is sealed.", move=shown), snipe=move.tile)
            sent = say("{seat} has answered.", seat=Seat(move.seat))
        events = [confirmed, Event.of(sent, kind=DeckSwabbingEvent.SUBMITTED, data={"seat": move.seat})]
        return events + self._resolve_if_ready()

    def _resolve_if_ready(self) -> list[Event]:
        move, snipe = self._sealed()
        if move is None or snipe is None:
            return []
        return self._resolve(self.turn, [_pt(t) for t in move.tiles], _pt(snipe.tile) if snipe.tile else None)

    def _resolve(self, seat: str, tiles: list[Point], snipe: Point | None) -> list[Event]:
        """Colour the move (and the snipe) black, fill the regions for the mover, pass the turn."""
        for point in tiles:
            self.board[point] = BLACK
        ignored = snipe is not None and snipe in tiles
        placed = list(tiles)
        if snipe is not None and not ignored:
            self.board[snipe] = BLACK
            placed.append(snipe)
        filled = filled_squares(self.board, self.numbers)
        for point in filled:
            self.board[point] = seat
        if filled:
            self.last_scorer = seat
        filled = _sort(filled)
        self.recent = _sort(placed)
        move_text = _listing(tiles)
        self.history.append(
            {
                "seat": seat,
                "tiles": [_sq(p) for p in tiles],
                "snipe": _sq(snipe) if snipe else None,
                "snipe_ignored": ignored,
                "filled": [_sq(p) for p in filled],
            }
        )
        self.last_move = move_text
        said = [say("{seat} colours {tiles} black.", seat=Seat(seat), tiles=Verbatim(move_text))]
        if self.has("snipe"):
            sniper = Seat(other_seat(seat))
            if snipe is None:
                said.append(say("{seat} sniped nothing.", seat=sniper))
            elif ignored:
                said.append(
                    say(
                        "{seat} sniped {point}, one of the same tiles, so the snipe changes nothing.",
                        seat=sniper,
                        point=Verbatim(_sq(snipe)),
                    )
                )
            else:
                said.append(say("{seat} sniped {point}: it is black too.", seat=sniper, point=Verbatim(_sq(snipe))))
        if filled:
            said.append(
                say_n(
                    "{n} tile takes {seat}'s colour: {tiles}.",
                    "{n} tiles take {seat}'s colour: {tiles}.",
                    n=len(filled),
                    seat=Seat(seat),
                    tiles=Verbatim(_listing(filled)),
                )
            )
        # The board itself is the host's to show after the move (once), not this text's.
        said.append(self._score())
        events = [
            Event.of(
                _sentences(*said), kind=DeckSwabbingEvent.MOVE, data=dict(self.history[-1], board=self._board_view())
            )
        ]
        self.turn = other_seat(seat)
        self._open_turn()
        if not self.has_legal_move():
            return events + self._finish_by_score()
        return events + self._prompt()

    def _prompt(self) -> list[Event]:
        said = [say("{seat}: your move; {how}", seat=Seat(self.turn), how=self._how_to_move())]
        if self.has("hook") and self.recent:
            if self.hook_binds():
                said.append(say("Hook: touch one of {tiles}.", tiles=Verbatim(_listing(self.recent))))
            else:
                said.append(say("Hook: no move can touch the tiles placed last turn, so any move will do."))
        if self.has("snipe"):
            said.append(
                say(
                    "Send it to me by direct message. {seat}: you may snipe a white tile by "
                    "direct message ({snipe}, or {none}).",
                    seat=Seat(other_seat(self.turn)),
                    snipe=SNIPE_EXAMPLE,
                    none=NO_SNIPE,
                )
            )
        return [
            Event.of(_sentences(*said), kind=DeckSwabbingEvent.TURN, data={"seat": self.turn, "sniper": self.sniper})
        ]

    # ---- the end ---------------------------------------------------------------------------

    def tile_counts(self) -> dict[str, int]:
        """Seat -> how many tiles have its colour."""
        return {s: sum(1 for v in self.board.values() if v == s) for s in self.seats}

    def scores(self) -> dict[str, int]:
        """Seat -> the score that decides the task: tiles, or with Pyramid their points."""
        if not self.has("pyramid"):
            return self.tile_counts()
        return {s: sum(pyramid_value(p) for p, v in self.board.items() if v == s) for s in self.seats}

    def tiebreak_seat(self) -> str:
        """The seat a tie goes to: the option, else the seat that most recently coloured tiles
        (the task's own "most recently scored"), else p2."""
        return self.tiebreak or self.last_scorer or "p2"

    def _score(self) -> Message:
        scores = self.scores()
        if self.has("pyramid"):
            return say(
                "Score: {first} {a}, {second} {b} points.",
                first=Seat("p1"),
                a=scores["p1"],
                second=Seat("p2"),
                b=scores["p2"],
            )
        return say(
            "Score: {first} {a}, {second} {b} tiles.",
            first=Seat("p1"),
            a=scores["p1"],
            second=Seat("p2"),
            b=scores["p2"],
        )

    def _finish_by_score(self) -> list[Event]:
        scores = self.scores()
        pyramid = self.has("pyramid")
        tied = scores["p1"] == scores["p2"]
        swabbed = (
            say("No white tile is left to colour: the board is swabbed.")
            if self.has("linear")
            else say("No white pair is left to colour: the board is swabbed.")
        )
        verdict: Message
        if tied:
            winner = self.tiebreak_seat()
            verdict = (
                say_n(
                    "A tie at {n} point each goes to {seat}; {seat} wins the task",
                    "A tie at {n} points each goes to {seat}; {seat} wins the task",
                    n=scores["p1"],
                    seat=Seat(winner),
                )
                if pyramid
                else say_n(
                    "A tie at {n} tile each goes to {seat}; {seat} wins the task",
                    "A tie at {n} tiles each goes to {seat}; {seat} wins the task",
                    n=scores["p1"],
                    seat=Seat(winner),
                )
            )
        else:
            winner = max(self.seats, key=lambda s: scores[s])
            verdict = (
                say_n(
                    "{seat} wins the task, {n} point to {other}",
                    "{seat} wins the task, {n} points to {other}",
                    n=scores[winner],
                    seat=Seat(winner),
                    other=scores[other_seat(winner)],
                )
                if pyramid
                else say_n(
                    "{seat} wins the task, {n} tile to {other}",
                    "{seat} wins the task, {n} tiles to {other}",
                    n=scores[winner],
                    seat=Seat(winner),
                    other=scores[other_seat(winner)],
                )
            )
        self.result = {"reason": "no-move", "scores": dict(scores), "tiebreak": winner if tied else None}
        return self._finish(winner, Termination.POINTS, _sentences(swabbed, verdict))

    def _finish(self, winner: str, ending: Termination, reason: Message, **data: Any) -> list[Event]:
        self.phase = "over"
        self.sealed.clear()
        return self.end(winner, ending, reason, verdict="", scores=self.scores(), **data)

    def timeout(self, seat: str) -> list[Event]:
        """The mover who runs out of time loses the task; a sniper who does snipes nothing."""
        self.require_seat(seat)
        if self.is_over or seat not in self.to_move():
            return []
        if seat != self.turn:
            self.sealed.seal(seat, Snipe(seat, None))
            events = [
                Event.of(
                    say("{seat} sent no snipe in time, so snipes nothing this turn.", seat=Seat(seat)),
                    kind=DeckSwabbingEvent.SUBMITTED,
                    data={"seat": seat, "none": True},
                )
            ]
            return events + self._resolve_if_ready()
        self.result = {"reason": "timeout", "scores": self.scores(), "tiebreak": None}
        return self._finish(other_seat(seat), Termination.TIME, self.lost_task(seat, by="timeout"), seat=seat)

    def resign(self, seat: str) -> list[Event]:
        """The seat concedes the task."""
        self.require_seat(seat)
        if self.is_over:
            return []
        self.result = {"reason": "resign", "scores": self.scores(), "tiebreak": None}
        return self._finish(other_seat(seat), Termination.RESIGNATION, self.lost_task(seat, by="resign"))

    # ---- what a seat sees ------------------------------------------------------------------

    def _board_view(self) -> dict[str, str]:
        return {_sq(p): self.board[p] for p in SQUARES}

    def _numbers_view(self) -> dict[str, int] | None:
        return {_sq(p): n for p, n in self.numbers.items()} if self.numbers else None

    def view(self, seat: str | None = None) -> DeckSwabbingView:
        """What ``seat`` may see: everything but the other seat's sealed submission."""
        over = self.is_over
        hook: Hook | None = None
        mine = self.sealed.sealed_by(seat)
        if self.has("hook") and not over:
            hook = {"from": [_sq(p) for p in self.recent], "lifted": bool(self.recent) and not self.hook_binds()}
        return {
            **self.base_view(),
            "phase": "over" if over else self.phase,
            "size": SIZE,
            "centre": _sq(CENTRE),
            "anomalies": list(self.anomalies),
            "starter": self.starter,
            "tiebreak": self.tiebreak_seat(),
            "turn": None if over else self.turn,
            "sniper": self.sniper,
            "board": self._board_view(),
            "numbers": self._numbers_view(),
            "values": {_sq(p): pyramid_value(p) for p in SQUARES} if self.has("pyramid") else None,
            "tiles": self.tile_counts(),
            "scores": self.scores(),
            "hook": hook,
            "submitted": self.sealed.submitted() if self.has("snipe") and not over else None,
            "sealed": mine.text() if mine is not None else None,
            "history": [_copy_entry(e) for e in self.history],
            "last_move": self.last_move,
            "move_number": len(self.history),
            "result": _copy_result(self.result),
        }

    # ---- serialisation ---------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything, sealed submissions included (the store is not a view)."""
        move, snipe = self._sealed()
        return {
            **self.options_state(),
            "numbers": self._numbers_view(),
            "board": self._board_view(),
            "phase": self.phase,
            "turn": self.turn,
            "recent": [_sq(p) for p in self.recent],
            "sealed_move": list(move.tiles) if move is not None else None,
            "sealed_snipe": snipe.tile if snipe is not None else None,
            "snipe_answered": snipe is not None,
            "history": [_copy_entry(e) for e in self.history],
            "last_move": self.last_move,
            "last_scorer": self.last_scorer,
            "result": _copy_result(self.result),
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`."""
        self.load_options(data)
        self.numbers = {_pt(s): int(n) for s, n in data["numbers"].items()} if data["numbers"] else None
        self.board = {_pt(s): v for s, v in data["board"].items()}
        self.phase = data["phase"]
        self.turn = data["turn"]
        self.recent = [_pt(s) for s in data["recent"]]
        self._open_turn()
        sniper = other_seat(self.turn)
        if data["sealed_move"] is not None:
            self.sealed.seal(self.turn, Swab(self.turn, tuple(data["sealed_move"])))
        if data["snipe_answered"]:
            self.sealed.seal(sniper, Snipe(sniper, data["sealed_snipe"]))
        self.history = [_copy_entry(e) for e in data["history"]]
        self.last_move = data["last_move"]
        self.last_scorer = data["last_scorer"]
        self.result = _copy_result(data["result"])

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    @classmethod
    def determinize(
        cls, seat: str, views: Sequence[Mapping[str, Any]], rng: random.Random, **options: str
    ) -> DeckSwabbing | None:
        """A game ``seat`` cannot tell from the one it plays: every played turn replayed from the
        view's history (Unique's numbers as shown), then the seat's own sealed submission, and
        the other seat's sealed one, which no view shows, drawn from ``rng`` when it is in."""
        if not views or views[-1]["phase"] == "over":
            return None
        view, other = views[-1], other_seat(seat)
        game = cls.blank(options)
        if view["numbers"]:
            game.numbers = {_pt(sq): int(n) for sq, n in view["numbers"].items()}
        try:
            for entry in view["history"]:
                mover = entry["seat"]
                game._submit(mover, " ".join(entry["tiles"]))
                if game.has("snipe") and not game.is_over and other_seat(mover) in game.to_move():
                    game._submit(other_seat(mover), f"snipe {entry['snipe'] or 'none'}")
            if view["sealed"] and seat in game.to_move():
                game._submit(seat, view["sealed"])
        except GameError:
            return None
        if (view["submitted"] or {}).get(other) and other in game.to_move():
            game.play(rng.choice(list(game.legal_moves(other))))
        if game.is_over or list(game.to_move()) != list(view["to_move"]):
            return None
        return game

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A quick play-out policy: two white tiles side by side (Linear: one to three white
        tiles of a row or a column) at random, touching Hook's tiles when Hook binds; a snipe of
        a random white tile or none. ``None`` when a few tries find no move."""
        if self.is_over or seat not in self.to_move():
            return None
        whites = [p for p in SQUARES if self.board[p] == WHITE]
        if seat != self.turn:
            return Snipe(seat, _sq(rng.choice(whites)) if whites and rng.random() < 0.5 else None)
        zone = self.hook_zone() if self.hook_binds() else None
        for _ in range(16 if whites else 0):
            start = rng.choice(whites)
            if self.has("linear"):
                row = rng.random() < 0.5
                line = [p for p in whites if (p.row == start.row if row else p.col == start.col)]
                tiles = rng.sample(line, rng.randint(1, min(3, len(line))))
            else:
                dc, dr = rng.choice(ORTHOGONAL)
                other = start.offset(dc, dr)
                if not on_board(other, SIZE, SIZE) or self.board[other] != WHITE:
                    continue
                tiles = [start, other]
            if zone is None or any(t in zone for t in tiles):
                return Swab(seat, tuple(_sq(t) for t in _sort(tiles)))
        return None

    def search_moves(self, seat: str) -> list[Move] | None:
        """Linear: the moves worth searching among thousands (a row's or a column's white tiles,
        each run of them side by side, each tile alone), those that colour most for the mover first."""
        if self.is_over or not self.has("linear") or seat != self.turn or seat not in self.to_move():
            return None
        zone = self.hook_zone() if self.hook_binds() else None
        # What the choice depends on: the board, Hook's zone, and what a coloured tile is worth
        # (Pyramid) and which regions fill (Unique's numbers).
        key = (
            tuple(self.board[p] for p in SQUARES),
            None if zone is None else tuple(_sort(zone)),
            self.has("pyramid"),
            None if self.numbers is None else tuple(self.numbers[p] for p in SQUARES),
        )
        found = _FOCUS.get(key)
        if found is None:
            found = self._focus(zone)
            if len(_FOCUS) > 20_000:
                _FOCUS.clear()
            _FOCUS[key] = found
        return [Swab(seat, tiles) for tiles in found] or None

    def _focus(self, zone: set[Point] | None) -> list[tuple[str, ...]]:
        board = self.board
        sets: dict[tuple[Point, ...], None] = {}
        for line in _LINES:
            whites = [p for p in line if board[p] == WHITE]
            if whites:
                sets[tuple(whites)] = None
            run: list[Point] = []
            for p in [*line, None]:
                if p is not None and board[p] == WHITE:
                    run.append(p)
                    continue
                if run:
                    sets[tuple(run)] = None
                run = []
        for p in SQUARES:
            if board[p] == WHITE:
                sets[(p,)] = None
        scored = []
        for tiles in sets:
            if zone is not None and not any(t in zone for t in tiles):
                continue
            trial = dict(board)
            for t in tiles:
                trial[t] = BLACK
            gain = sum(self._worth(q) for q in filled_squares(trial, self.numbers))
            scored.append((-gain, len(tiles), tuple(_sq(t) for t in _sort(tiles))))
        scored.sort()
        return [tiles for _, _, tiles in scored[:FOCUS]]

    def evaluate(self, seat: str) -> float | None:
        """The lead in the score that decides the task, over what the white tiles left could
        still be worth."""
        scores = self.scores()
        lead = scores[seat] - scores[other_seat(seat)]
        open_ = sum(self._worth(p) for p, v in self.board.items() if v == WHITE)
        return min(0.98, max(0.02, 0.5 + lead / (2 * max(open_, 1) + abs(lead))))

    def _worth(self, point: Point) -> int:
        """What a tile coloured on ``point`` adds to a score (Pyramid: its value; else 1)."""
        return pyramid_value(point) if self.has("pyramid") else 1

    def _submit(self, seat: str, text: str) -> None:
        """Submit ``text`` for ``seat`` where it belongs (by direct message when it is sealed)."""
        for private in (self.has("snipe"), not self.has("snipe")):
            try:
                self.submit(text, seat, private=private)
                return
            except WrongPlaceError:
                continue


#: How many moves a Linear position's search looks at.
FOCUS = 16
_FOCUS: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}
_LINES: tuple[tuple[Point, ...], ...] = tuple(tuple(Point(c, r) for c in range(SIZE)) for r in range(SIZE)) + tuple(
    tuple(Point(c, r) for r in range(SIZE)) for c in range(SIZE)
)


def _copy_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    return dict(entry, tiles=list(entry["tiles"]), filled=list(entry["filled"]))


def _copy_result(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if result is None else dict(result, scores=dict(result["scores"]))


def _sentences(first: Message, *more: Message) -> Message:
    """Sentences said one after the other (``alice colours C3 C4 black. Score: ...``)."""
    said = first
    for sentence in more:
        said = say_c("sentences in a row", "{sentence} {next}", sentence=said, next=sentence)
    return said


#: What to write instead of a text that is no move at all.
_HINT = say(
    "write the white tiles you colour ({example}) or, on your opponent's turn with Snipe, "
    "{snipe} or {none} by direct message.",
    example=MOVE_EXAMPLE,
    snipe=SNIPE_EXAMPLE,
    none=NO_SNIPE,
)


def _tokens(text: str) -> tuple[list[str], list[str]]:
    """Split a submission into squares and words; anything else is refused."""
    return split_submission(text, _TOKEN, _POINT_TOKEN, _HINT)


__all__ = [
    "ANOMALIES",
    "DeckSwabbing",
    "Snipe",
    "Swab",
    "board_text",
    "filled_squares",
    "generate_numbers",
    "is_permutation_line",
    "neighbours",
    "parse_anomalies",
    "pyramid_value",
    "region_fills",
    "white_regions",
]
