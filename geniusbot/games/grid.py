"""Coordinates on square boards: columns are letters from A, rows numbers from 1 (row 1 at the bottom)."""

from __future__ import annotations

import re
from typing import NamedTuple

from .base import MalformedMoveError

_POINT = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


class Point(NamedTuple):
    """A point by zero-based column and row: ``Point(0, 0)`` is A1."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{chr(ord('A') + self.col)}{self.row + 1}"

    def offset(self, dc: int, dr: int) -> Point:
        return Point(self.col + dc, self.row + dr)


def parse_point(text: str, cols: int, rows: int) -> Point:
    """The point ``text`` names (``"h8"`` -> H8), or :class:`MalformedMoveError` saying what to write."""
    last_col = chr(ord("A") + cols - 1)
    match = _POINT.match(text)
    if not match:
        raise MalformedMoveError(
            f"{text.strip()!r} is not a point; write a column letter A-{last_col} and a row number "
            f"1-{rows}, such as {last_col}{rows}."
        )
    col = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise MalformedMoveError(
            f"{match.group(1).upper()}{match.group(2)} is off the board; columns run A-{last_col} and rows 1-{rows}."
        )
    return Point(col, row)


def on_board(point: Point, cols: int, rows: int) -> bool:
    return 0 <= point.col < cols and 0 <= point.row < rows


# The four line directions (horizontal, vertical, two diagonals) and all eight neighbours.
LINE_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
NEIGHBOURS: tuple[tuple[int, int], ...] = tuple(
    (dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)
)


_FILLER = re.compile(r"^[\s,.;:!?/&+()\-]*$")


def split_submission(
    text: str, token: re.Pattern[str], point: re.Pattern[str], hint: str
) -> tuple[list[str], list[str]]:
    """Split a typed submission into point tokens (``c3``) and words (``snipe``), lower-cased.

    ``token`` finds the tokens and ``point`` tells which are points; anything between tokens other
    than spaces and light punctuation makes the text no move: :class:`MalformedMoveError`, whose
    sentence ends with ``hint`` (what to write instead).
    """
    lowered = text.lower()
    tokens = token.findall(lowered)
    if not tokens or not _FILLER.match(token.sub(" ", lowered)):
        shown = text.strip()[:40]
        raise MalformedMoveError((f"{shown!r} is not a move; " if shown else "") + hint)
    points = [t.replace(" ", "") for t in tokens if point.match(t)]
    words = [t for t in tokens if not point.match(t)]
    return points, words
