"""Coordinates on square boards: columns are letters from A, rows numbers from 1 (row 1 at the bottom)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from geniusbot.words import Message, Verbatim, say

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
            say(
                "{text} is not a point; write a column letter A-{last} and a row number 1-{rows}, such as {last}{rows}.",
                text=Verbatim(repr(text.strip())),
                last=Verbatim(last_col),
                rows=rows,
            )
        )
    col = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise MalformedMoveError(
            say(
                "{point} is off the board; columns run A-{last} and rows 1-{rows}.",
                point=Verbatim(f"{match.group(1).upper()}{match.group(2)}"),
                last=Verbatim(last_col),
                rows=rows,
            )
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
    text: str, token: re.Pattern[str], point: re.Pattern[str], hint: str | Message
) -> tuple[list[str], list[str]]:
    """Split a typed submission into point tokens (``c3``) and words (``snipe``), lower-cased.

    ``token`` finds the tokens and ``point`` tells which are points; anything between tokens other
    than spaces and light punctuation makes the text no move: :class:`MalformedMoveError`, whose
    sentence ends with ``hint`` (what to write instead: a message, or plain English from a game
    not yet made of words as data).
    """
    lowered = text.lower()
    tokens = token.findall(lowered)
    if not tokens or not _FILLER.match(token.sub(" ", lowered)):
        shown = text.strip()[:40]
        if isinstance(hint, Message):
            raise MalformedMoveError(
                say("{text} is not a move; {hint}", text=Verbatim(repr(shown)), hint=hint) if shown else hint
            )
        raise MalformedMoveError((f"{shown!r} is not a move; " if shown else "") + hint)
    points = [t.replace(" ", "") for t in tokens if point.match(t)]
    words = [t for t in tokens if not point.match(t)]
    return points, words


# --------------------------------------------------------------------------- text boards

#: Letters for the colours the games name on a text board; a colour not listed gets its first letter.
SYMBOLS = {"black": "X", "white": "O", "red": "R", "blue": "B", "orange": "O"}


def symbol(colour: Any) -> str:
    """The letter of ``colour`` on a text board."""
    return SYMBOLS.get(str(colour), str(colour)[:1].upper())


def grid_lines(cols: int, rows: int, cells: Mapping[str, str], marks: Iterable[str] = ()) -> list[str]:
    """A text board of a square grid: a letter a colour (:data:`SYMBOLS`), ``.`` an empty point,
    row 1 at the bottom as on the pictures; the points in ``marks`` (the last move) in the other case."""
    marked = set(marks)
    width = 2
    header = "   " + "".join(f"{chr(ord('A') + c):>{width}}" for c in range(cols))
    lines = [header]
    for row in range(rows, 0, -1):
        cells_text = ""
        for col in range(cols):
            name = f"{chr(ord('A') + col)}{row}"
            colour = cells.get(name)
            letter = symbol(colour) if colour else "."
            if name in marked and colour:
                letter = letter.lower() if letter.isupper() else letter.upper()
            cells_text += f"{letter:>{width}}"
        lines.append(f"{row:>2} {cells_text}")
    lines.append(header)
    return lines


def points_of(cells: Mapping[str, Any] | None, size: int) -> dict[Point, Any]:
    """A view's square-name mapping keyed by :class:`Point`."""
    return {parse_point(name, size, size): value for name, value in (cells or {}).items()}


def seat_list(seats: Iterable[Any] | None) -> str:
    """``p1 and p2``."""
    return " and ".join(str(s) for s in seats or ())


def with_article(word: str) -> str:
    """``word`` after the indefinite article it takes: ``a red``, ``an orange``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def stones_said(stones: Mapping[str, str], colour_words: Mapping[str, Message]) -> list[Message]:
    """A stone board in words, a line a colour in ``colour_words``' order ("black stones: H8, I9",
    "white stones: none"), each colour's points in reading order (row by row from the top, A to
    the right): what a game's ``describe`` says of a board of stones."""
    said = []
    for colour, word in colour_words.items():
        points = sorted((p for p, c in stones.items() if c == colour), key=lambda p: (-int(p[1:]), p[0]))
        where = Verbatim(", ".join(points)) if points else say("none")
        said.append(say("{colour} stones: {points}", colour=word, points=where))
    return said
