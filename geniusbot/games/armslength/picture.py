"""Arm's Length: an 8 x 8 board of squares; red stones are discs with a white cross, blue stones
are squares with a white frame, so shape alone tells them apart.

The last placed stone sits in a square with black corner brackets. The pushes of that move are
shown subtly: a dashed ghost where a pushed stone was and a grey arrow to where it went; a
stone knocked off the board leaves a crossed-out ghost and an arrow to the edge. Fours are
dark-edged gold bars through their stones.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.armslength.rules import COLOUR_WORDS, ORDER_WORDS
from geniusbot.games.armslength.view import ArmsLengthView
from geniusbot.render import stones as board_card
from geniusbot.render.layout import HEADER_HEIGHT, card_words, dotted, outcome_line, words_of
from geniusbot.render.palette import ink, new_canvas, rgb
from geniusbot.render.sprites import Sprite, arrow, ghost_sprite, paste_centred, smooth_sprite
from geniusbot.render.stones import WIDTH, Board
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, Words, say

MARGIN = 46  # the coordinate band on each side of the board
COORD_SIZE = 26


def cell_size(size: int) -> int:
    """The side of one square in pixels."""
    return (WIDTH - 2 * MARGIN) // max(1, size)


def canvas_size(size: int = 8) -> tuple[int, int]:
    """The picture's width and height for a board of ``size`` x ``size`` squares."""
    return board_card.canvas_size()


def _board_box(size: int) -> tuple[int, int, int, int]:
    side = cell_size(size) * size
    left = (WIDTH - side) // 2
    top = HEADER_HEIGHT + (WIDTH - side) // 2
    return left, top, left + side, top + side


@lru_cache(maxsize=4)
def board(size: int) -> Board:
    """Where the squares of a board of ``size`` x ``size`` lie: their centres, a cell apart."""
    left, top, _, _ = _board_box(size)
    cell = cell_size(size)
    return Board(size, (left + cell // 2, top + cell // 2), cell)


def square_xy(square: str, size: int = 8) -> tuple[int, int]:
    """The pixel centre of ``square`` ("E4"): column A on the left, row 1 at the bottom."""
    return board(size).xy(square)


def stone_radius(size: int = 8) -> int:
    """Half the width of a stone in pixels."""
    return cell_size(size) * 37 // 100


@lru_cache(maxsize=4)
def background(size: int) -> Image.Image:
    """The static part of the card: the squares, their lines and the coordinates."""
    canvas = new_canvas(canvas_size(size))
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = _board_box(size)
    cell = cell_size(size)
    draw.rectangle([left, top, right, bottom], fill=ink("cell"))
    for k in range(size + 1):
        width = 3 if k in (0, size) else 2
        draw.line([(left + k * cell, top), (left + k * cell, bottom)], fill=ink("cell_line"), width=width)
        draw.line([(left, top + k * cell), (right, top + k * cell)], fill=ink("cell_line"), width=width)
    board(size).coordinates(
        canvas,
        top=top - MARGIN / 2,
        bottom=bottom + MARGIN / 2,
        left=left / 2,
        right=(right + WIDTH) / 2,
        size=COORD_SIZE,
    )
    return canvas


@lru_cache(maxsize=32)
def stone_sprite(colour: str, radius: int, background: str = "cell") -> Sprite:
    """A smooth stone: ``red`` a disc with a white cross, ``blue`` a rounded square with a white frame."""
    side = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = radius * scale
        white = rgb("symbol")
        bar = max(2.0, radius * 0.16) * scale
        if colour == "red":
            draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("red_stone"))
            arm = r * 0.58
            draw.rectangle([c - arm, c - bar, c + arm, c + bar], fill=white)
            draw.rectangle([c - bar, c - arm, c + bar, c + arm], fill=white)
        else:
            s = r * 0.9  # a square looks larger than a disc of the same width
            draw.rounded_rectangle([c - s, c - s, c + s, c + s], radius=s * 0.22, fill=rgb("blue_stone"))
            inner = s * 0.52
            draw.rectangle([c - inner, c - inner, c + inner, c + inner], fill=white)
            hole = inner - bar * 1.2
            draw.rectangle([c - hole, c - hole, c + hole, c + hole], fill=rgb("blue_stone"))

    return smooth_sprite(side, background, paint)


def _push_direction(origin: str | None, square: str) -> tuple[int, int] | None:
    if not origin:
        return None
    dc = ord(square[0].upper()) - ord(origin[0].upper())
    dr = int(square[1:]) - int(origin[1:])
    return _sign(dc), -_sign(dr)  # rows grow upwards, pixels downwards


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def draw_pushes(canvas: Image.Image, view: ArmsLengthView, size: int) -> None:
    """Ghosts and arrows for the stones the last placement pushed (drawn under the stones)."""
    draw = ImageDraw.Draw(canvas)
    radius = stone_radius(size)
    cell = cell_size(size)
    left, top, right, bottom = _board_box(size)
    for push in view["pushes"]:
        source, destination = push["from"], push["to"]
        if not source:
            continue
        start = square_xy(source, size)
        shape = "square" if push["color"] == "blue" else "disc"
        paste_centred(canvas, ghost_sprite(shape, radius, destination is None, "cell"), start)
        if destination:
            end = square_xy(destination, size)
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = (dx * dx + dy * dy) ** 0.5 or 1.0
            stop = radius + 6
            tip = (end[0] - dx / length * stop, end[1] - dy / length * stop)
            arrow(draw, start, tip, ink("ghost"), width=4, head=16)
        else:
            direction = _push_direction(view["last_move"], source)
            if direction is None:
                continue
            # To the board's edge in the push direction: the stone left the board there.
            tip = (
                min(max(start[0] + direction[0] * cell * 0.5, left + 2), right - 2),
                min(max(start[1] + direction[1] * cell * 0.5, top + 2), bottom - 2),
            )
            tail = (start[0] + direction[0] * radius * 0.55, start[1] + direction[1] * radius * 0.55)
            if tip != tail:
                arrow(draw, tail, tip, ink("ghost"), width=4, head=14)


def draw_fours(draw: ImageDraw.ImageDraw, fours: list[list[str]], size: int) -> None:
    """A dark-edged gold bar through each four (or longer line)."""
    radius = stone_radius(size)
    for line in fours:
        if len(line) < 2:
            continue
        ends = sorted(line, key=lambda sq: (ord(sq[0].upper()), int(sq[1:])))
        a, b = square_xy(ends[0], size), square_xy(ends[-1], size)
        # Narrow enough that the stones' own symbols stay readable under it.
        draw.line([a, b], fill=ink("outline"), width=radius // 3 + 4)
        draw.line([a, b], fill=ink("accent"), width=radius // 3 - 4)
        for sq in (ends[0], ends[-1]):
            x, y = square_xy(sq, size)
            r = radius // 4 + 3
            draw.ellipse([x - r, y - r, x + r, y + r], fill=ink("outline"))
            r -= 4
            draw.ellipse([x - r, y - r, x + r, y + r], fill=ink("accent"))


def draw_last_move(draw: ImageDraw.ImageDraw, square: str, size: int) -> None:
    """Black corner brackets inside the square of the last placement."""
    x, y = square_xy(square, size)
    half = cell_size(size) // 2 - 5
    arm = cell_size(size) // 4
    fill = ink("frame")
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = x + sx * half, y + sy * half
            draw.line([(cx, cy), (cx - sx * arm, cy)], fill=fill, width=6)
            draw.line([(cx, cy), (cx, cy - sy * arm)], fill=fill, width=6)


def _colour(name: str | None) -> Argument:
    return COLOUR_WORDS.get(name or "") or Verbatim(str(name))


def status_line(view: ArmsLengthView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says under the board while the game runs, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    words = words_of(words)
    movers = view["to_move"]
    phase = view["phase"]
    if phase == "choice":
        who = Seat(str(movers[0] if movers else view["dmo"]))
        return words(say("{seat} chooses a colour and to go first or second (e.g. red first)", seat=who))
    parts: list[Argument] = []
    colours = view["colors"]
    if movers:
        colour = colours.get(movers[0])
        if colour:
            parts.append(say("{seat} to play {colour}", seat=Seat(movers[0]), colour=_colour(colour)))
        else:
            parts.append(say("{seat} to play", seat=Seat(movers[0])))
    if view["last_move"]:
        parts.append(say("last {point}", point=Verbatim(view["last_move"])))
    off = [p for p in view["pushes"] if p["to"] is None and p["from"]]
    if off:
        stones = tuple(
            say("{square} {colour}", square=Verbatim(p["from"]), colour=_colour(p["color"]))
            if p["color"]
            else Verbatim(p["from"])
            for p in off
        )
        parts.append(say("knocked off {stones}", stones=Listing(stones)))
    said = dotted(parts)
    return words(said) if said is not None else ""


def seat_detail(view: ArmsLengthView, seat: str, words: Words | None = None) -> str:
    """The small words beside a player's name (:func:`seat_detail_said`), in English without ``words``."""
    said = seat_detail_said(view, seat)
    return (words or Words())(said) if said is not None else ""


def seat_detail_said(view: ArmsLengthView, seat: str) -> Message | None:
    """The small words beside a player's name: colour, who moves first, stones knocked off."""
    colour = view["colors"].get(seat)
    knocked = view["knocked_off"]
    bits: list[Argument] = []
    if colour:
        bits.append(_colour(colour))
        if view["first"] == seat:
            bits.append(ORDER_WORDS["first"])
        bits.append(say("{n}/{limit} knocked off", n=int(knocked.get(colour, 0)), limit=int(view["knockout_limit"])))
    elif view["dmo"] == seat:
        bits.append(say("DMO"))
    return dotted(bits)


def render(
    view: ArmsLengthView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of an Arm's Length view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    size = view["size"]
    canvas = background(size).copy()
    draw = ImageDraw.Draw(canvas)
    radius = stone_radius(size)
    stones = view["stones"]
    colours = view["colors"]

    draw_pushes(canvas, view, size)
    board(size).place_stones(canvas, stones, ("red", "blue"), lambda colour: stone_sprite(colour, radius))
    draw_fours(draw, [list(line) for line in view["fours"]], size)
    last = view["last_move"]
    if last:
        draw_last_move(draw, last, size)

    board_card.draw_card(
        canvas,
        view,
        words,
        clocks,
        title=title,
        game=say("Arm's Length"),
        symbol=board_card.seat_stones(colours, ("red", "blue"), lambda colour, bg: stone_sprite(colour, 16, bg)),
        detail=lambda seat: seat_detail_said(view, seat),
        status=status_line(view, words),
        banner=outcome_line(Outcome.from_dict(view["outcome"]), words),
    )
    return canvas
