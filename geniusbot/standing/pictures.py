"""The standing's pictures, drawn with the house toolkit: a leaderboard page (a table) and a
player's rating history (a line graph). Every text comes here said already, or is notation (a
rank, a rating, a count)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from geniusbot.render.palette import ink, new_canvas
from geniusbot.render.png import encode_png
from geniusbot.render.text import draw_text, fit_text

WIDTH = 640
MARGIN = 24
TITLE_SIZE = 22
TEXT_SIZE = 17
SMALL_SIZE = 14
ROW = 32


@dataclass(frozen=True)
class TableRow:
    """One line of a table: its cells, and whether it is marked (drawn on a band, bold)."""

    cells: tuple[str, ...]
    marked: bool = False


@dataclass(frozen=True)
class Column:
    """Where a table's column stands: ``x``, its anchor (``l`` or ``r``), and whether its cells are
    words (a name, a game; cut to fit) or notation (a rank, a rating, a count)."""

    x: int
    anchor: str = "r"
    words: bool = False


def table_picture(
    title: str, heads: Sequence[str], rows: Sequence[TableRow], notes: Sequence[str], columns: Sequence[Column]
) -> bytes:
    """A titled table: ``heads`` over ``rows``, ``notes`` below in a smaller muted line each."""
    height = MARGIN + 36 + ROW * (len(rows) + 1) + 10 + 22 * len(notes) + MARGIN
    canvas = new_canvas((WIDTH, height))
    draw_text(
        canvas, (MARGIN, MARGIN + 10), fit_text(title, TITLE_SIZE, WIDTH - 2 * MARGIN, True), TITLE_SIZE, bold=True
    )
    # A left-aligned column may run up to the next one's right-aligned numbers.
    rooms = [(columns[i + 1].x - 80 if i + 1 < len(columns) else WIDTH - MARGIN) - c.x for i, c in enumerate(columns)]

    def line(y: int, cells: Sequence[str], fg: str, bg: str, *, heads: bool = False, bold: bool = False) -> None:
        for column, room, cell in zip(columns, rooms, cells):
            text = fit_text(cell, TEXT_SIZE, room, bold) if column.anchor == "l" else cell
            notation = not heads and not column.words
            draw_text(
                canvas, (column.x, y), text, TEXT_SIZE, fg=fg, bg=bg, bold=bold, anchor=column.anchor, notation=notation
            )

    y = MARGIN + 36 + ROW // 2
    line(y, heads, "muted", "page", heads=True)
    for row in rows:
        y += ROW
        bg = "band" if row.marked else "page"
        if row.marked:
            box = (MARGIN - 8, y - ROW // 2 + 1, WIDTH - MARGIN + 8, y + ROW // 2 - 1)
            ImageDraw.Draw(canvas).rectangle(box, fill=ink(bg))
        line(y, row.cells, "text", bg, bold=row.marked)
    y += ROW // 2 + 20
    for note in notes:
        draw_text(canvas, (MARGIN, y), fit_text(note, SMALL_SIZE, WIDTH - 2 * MARGIN), SMALL_SIZE, fg="muted")
        y += 22
    return encode_png(canvas)


GRAPH_HEIGHT = 260


def graph_picture(title: str, points: Sequence[float], axis: str) -> bytes:
    """A line graph of ``points`` (a rating after each match, the first the rating before any),
    titled, its lowest and highest value on the left, ``axis`` said under it."""
    height = MARGIN + 36 + GRAPH_HEIGHT + 40 + MARGIN
    canvas = new_canvas((WIDTH, height))
    draw_text(
        canvas, (MARGIN, MARGIN + 10), fit_text(title, TITLE_SIZE, WIDTH - 2 * MARGIN, True), TITLE_SIZE, bold=True
    )
    left, right = MARGIN + 56, WIDTH - MARGIN
    top, bottom = MARGIN + 44, MARGIN + 44 + GRAPH_HEIGHT
    low, high = min(points), max(points)
    if high - low < 50:  # a flat history still reads as one, not as noise blown up
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((left, top, right, bottom), outline=ink("band"))
    for value in (low, high):
        y = bottom - (value - low) / (high - low) * (bottom - top)
        draw_text(canvas, (left - 8, y), str(round(value)), SMALL_SIZE, fg="muted", anchor="r", notation=True)
    steps = max(len(points) - 1, 1)
    xy = [
        (left + 8 + i * (right - left - 16) / steps, bottom - (p - low) / (high - low) * (bottom - top))
        for i, p in enumerate(points)
    ]
    if len(xy) > 1:
        draw.line(xy, fill=ink("accent"), width=3)
    for x, y in xy:
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=ink("accent"))
    draw_text(canvas, (left, bottom + 20), "0", SMALL_SIZE, fg="muted", anchor="m", notation=True)
    draw_text(canvas, (right, bottom + 20), str(len(points) - 1), SMALL_SIZE, fg="muted", anchor="m", notation=True)
    draw_text(canvas, ((left + right) / 2, bottom + 20), axis, SMALL_SIZE, fg="muted", anchor="m")
    return encode_png(canvas)
