"""The standing's pictures, drawn with the house toolkit: a leaderboard page (a table) and a
player's rating history (a line graph). Every text comes here said already, or is notation (a
rank, a rating, a count)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

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


@dataclass(frozen=True)
class BracketGame:
    """A game of a bracket: its two lines (a player and their score each; ``second`` ``None``: a
    bye), the winner's line marked."""

    first: tuple[str, str]
    second: tuple[str, str] | None
    winner: int | None  # 0: the first line, 1: the second, None: not played yet


COLUMN = 190
BOX = 46
GAP = 14


def bracket_picture(title: str, heads: Sequence[str], rounds: Sequence[Sequence[BracketGame]], tree: bool) -> bytes:
    """The rounds side by side, ``heads`` over them, each game a box of two lines. ``tree``: a
    single elimination's bracket, each game of a round centred between the two it follows."""
    first = max((len(r) for r in rounds), default=1)  # a tree's first round is its tallest
    slot = BOX + GAP
    height = MARGIN + 36 + 28 + slot * max(first, 1) + MARGIN
    width = max(WIDTH, 2 * MARGIN + COLUMN * max(len(rounds), 1))
    canvas = new_canvas((width, height))
    draw = ImageDraw.Draw(canvas)
    draw_text(
        canvas, (MARGIN, MARGIN + 10), fit_text(title, TITLE_SIZE, width - 2 * MARGIN, True), TITLE_SIZE, bold=True
    )
    top = MARGIN + 36 + 28
    centres: list[list[float]] = []
    for r, games in enumerate(rounds):
        x = MARGIN + r * COLUMN
        draw_text(canvas, (x, MARGIN + 36 + 10), fit_text(heads[r], SMALL_SIZE, COLUMN - 20), SMALL_SIZE, fg="muted")
        mine: list[float] = []
        for i, game in enumerate(games):
            if tree and r and len(centres[r - 1]) >= 2 * i + 2:
                y = (centres[r - 1][2 * i] + centres[r - 1][2 * i + 1]) / 2
            elif tree and r:
                y = top + slot * (2**r) * (i + 0.5)
            else:
                y = top + slot * i + BOX / 2
            mine.append(y)
            _game_box(canvas, draw, x, y, game)
            if tree and r and len(centres[r - 1]) >= 2 * i + 2:
                for before in centres[r - 1][2 * i : 2 * i + 2]:
                    draw.line((x - 20, before, x - 10, before, x - 10, y, x, y), fill=ink("muted"), width=1)
        centres.append(mine)
    return encode_png(canvas)


def _game_box(canvas: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, game: BracketGame) -> None:
    inner = COLUMN - 20
    draw.rectangle((x, y - BOX / 2, x + inner, y + BOX / 2), fill=ink("band"))
    lines = [game.first] if game.second is None else [game.first, game.second]
    for i, (name, score) in enumerate(lines):
        at = y - BOX / 4 + i * BOX / 2 if len(lines) == 2 else y
        won = game.winner == i
        fg = "accent" if won else "text"
        room = inner - 40
        draw_text(canvas, (x + 6, at), fit_text(name, SMALL_SIZE, room, won), SMALL_SIZE, fg=fg, bg="band", bold=won)
        if score:
            draw_text(canvas, (x + inner - 6, at), score, SMALL_SIZE, fg=fg, bg="band", anchor="r", notation=True)
