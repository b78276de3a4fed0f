"""The skeleton of a stone board's card (stones on points or on squares): a square
board of ``size`` x ``size`` places named "A1" (column A on the left, row 1 at the bottom), its
coordinates round it, the stones by colour, and the card round the board (the title with the move
number, the two player rows with each seat's stone, the status or the result banner).

A picture says where its board lies (:class:`Board`), draws the board itself (wood and grid
lines, or squares) and its own marks (the last move, a winning line), and leaves the rest here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from geniusbot.words import Message, Words, say

from .grid import coordinate_bands
from .layout import FOOTER_HEIGHT, HEADER_HEIGHT, draw_footer, draw_header, heading, player_rows, title_of
from .sprites import Sprite, stamp

#: The card's width: the board is a square as wide as the card, between the header and the footer.
WIDTH = 900


def canvas_size() -> tuple[int, int]:
    """The card's width and height (the same for every size of board)."""
    return WIDTH, HEADER_HEIGHT + WIDTH + FOOTER_HEIGHT


def letters(size: int) -> list[str]:
    """The column letters of a board ``size`` places wide (the letter I is used)."""
    return [chr(ord("A") + k) for k in range(size)]


@dataclass(frozen=True)
class Board:
    """Where the places of a ``size`` x ``size`` board lie on the card: ``corner`` is the centre
    of the top-left place (A at the top row), ``step`` the pixels between neighbouring places."""

    size: int
    corner: tuple[int, int]
    step: int

    def xy(self, place: str) -> tuple[int, int]:
        """The pixel centre of ``place`` ("H8"): column A on the left, row 1 at the bottom."""
        col = ord(place[0].upper()) - ord("A")
        row = int(place[1:]) - 1
        return self.corner[0] + col * self.step, self.corner[1] + (self.size - 1 - row) * self.step

    def centres(self) -> dict[str, tuple[int, int]]:
        """Every place's pixel centre."""
        return _centres(self)

    def coordinates(
        self, canvas: Image.Image, *, top: float, bottom: float, left: float, right: float, size: int
    ) -> None:
        """The column letters on the lines ``top`` and ``bottom``, the row numbers on ``left`` and
        ``right`` (notation, the same in every language)."""
        coordinate_bands(
            canvas,
            [(letter, self.xy(f"{letter}1")[0]) for letter in letters(self.size)],
            [(str(row), self.xy(f"A{row}")[1]) for row in range(1, self.size + 1)],
            top=top,
            bottom=bottom,
            left=left,
            right=right,
            size=size,
        )

    def place_stones(
        self, canvas: Image.Image, stones: Mapping[str, str], colours: Iterable[str], stone: Callable[[str], Sprite]
    ) -> None:
        """The ``stones`` (place -> colour), a colour at a time in the order of ``colours``, each
        colour's ``stone(colour)`` sprite centred on its places."""
        centres = self.centres()
        for colour in colours:
            stamp(canvas, stone(colour), [centres[p] for p, c in stones.items() if c == colour])


@lru_cache(maxsize=8)
def _centres(board: Board) -> dict[str, tuple[int, int]]:
    return {f"{c}{r}": board.xy(f"{c}{r}") for c in letters(board.size) for r in range(1, board.size + 1)}


def seat_stones(
    seat_colours: Mapping[str, str | None], colours: Iterable[str], stone: Callable[[str, str], Sprite]
) -> Callable[[str, str], Sprite | None]:
    """A player row's symbol: the seat's stone (``stone(colour, background)``) once it has one of
    ``colours``, else none."""
    known = set(colours)

    def symbol(seat: str, background: str) -> Sprite | None:
        colour = seat_colours.get(seat)
        return stone(colour, background) if colour is not None and colour in known else None

    return symbol


def draw_card(
    canvas: Image.Image,
    view: Mapping[str, Any],
    words: Words,
    clocks: Mapping[str, str] | None,
    *,
    title: str | None,
    game: Message,
    symbol: Callable[[str, str], Sprite | None],
    detail: Callable[[str], Message | None],
    status: str,
    banner: str | None,
) -> None:
    """The card round the board: the title (the host's ``title``, else the ``game``'s name) with
    the move number, the two player rows, and the ``status`` or the result ``banner`` at the
    bottom (:func:`~geniusbot.render.layout.outcome_line`)."""
    rows = player_rows(view, words, clocks, symbol, detail)
    move_number = view["move_number"]
    moves = [say("move {n}", n=move_number)] if move_number else []
    draw_header(canvas, heading(words, title_of(title, game), *moves), rows)
    draw_footer(canvas, status, banner)
