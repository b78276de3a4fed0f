"""Shared helpers for the Tile Decklaration tests: grids written as the players would draw them."""

from __future__ import annotations

from collections import Counter

from geniusbot.games.allhands.tiles import BLACK, CENTRE, TileDecklaration
from geniusbot.games.grid import Point

NAMES = {
    "R": "red",
    "B": "blue",
    "G": "green",
    "O": "orange",
    "Y": "yellow",
    "P": "purple",
    "*": BLACK,
}

# Bands: red on top, blue through the middle, green at the bottom; the eight tiles around the
# black centre are all blue.
BANDS = """
7 R R R R R R R
6 R R R R R R R
5 R R B B B B B
4 B B B * B B B
3 B B B B B G G
2 G G G G G G G
1 G G G G G G G
"""

# Diagonal stripes: the colour of a square is red, blue, green by (column + row) mod 3, so every
# interior tile has two orthogonal neighbours of each other colour (an Implode tie), a corner
# has two of one colour, and an edge tile two of one and one of the other.
STRIPES = """
7 R B G R B G R
6 G R B G R B G
5 B G R B G R B
4 R B G * B G R
3 G R B G R B G
2 B G R B G R B
1 R B G R B G R
"""

# Rainbow: eight of each of the six colours.
RAINBOW = """
7 R R R R R R R
6 R O O O O O O
5 O O Y Y Y Y Y
4 Y Y Y * G G G
3 G G G G G B B
2 B B B B B B P
1 P P P P P P P
"""


def parse_grid(text: str) -> dict[Point, str]:
    """A grid written as rows 7 to 1, one letter a square (``*`` the black centre)."""
    grid: dict[Point, str] = {}
    for line in text.strip().splitlines():
        row_label, *cells = line.split()
        assert len(cells) == 7, line
        for col, cell in enumerate(cells):
            grid[Point(col, int(row_label) - 1)] = NAMES[cell]
    assert len(grid) == 49 and grid[CENTRE] == BLACK
    return grid


def counts(grid: dict[Point, str]) -> Counter[str]:
    return Counter(c for c in grid.values() if c != BLACK)


def make(grid: str = BANDS, *, marks: str | None = None, hide: bool = True, **options: str) -> TileDecklaration:
    """A game on ``grid`` (Implode's marks as ``"A1 B2"``), hidden if ``hide``, with ``options``."""
    game = TileDecklaration.new(seed=7, **options)
    game.original = parse_grid(grid)
    game.grid = dict(game.original)
    if marks is not None:
        game.marks = [Point(ord(s[0]) - 65, int(s[1:]) - 1) for s in marks.split()]
    if hide:
        game.close_window()
    return game


def play(game: TileDecklaration, *moves: str, seat: str | None = None) -> list:
    """Play public moves in turn; each is submitted by the seat to move."""
    events = []
    for text in moves:
        mover = seat or game.to_move()[0]
        events += game.submit(text, mover)[1]
    return events
