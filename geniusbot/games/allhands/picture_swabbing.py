"""Deck Swabbing: the 7 x 7 grid of white, black and claimed tiles.

White tiles are white, swabbed tiles black. A tile in a seat's colour carries that seat's mark
as a pattern, as in every picture of the family: p1 red with a white ring, p2 blue with a white
square frame, so the two differ in shape as well as colour. Unique's numbers sit in the middle
of every tile (inside the ring or frame on a claimed one); Pyramid's ring values sit small in
the top-left corner of every tile. The tiles of the last move carry gold corner brackets; a
snipe that was played shows as a gold cross-hair on its tile. In its sender's view only, a sealed
move or snipe shows as a dashed frame on the tiles it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.allhands.picture_common import SEAT_FILL, anomaly_heading, draw_text_over, either, seat_symbol
from geniusbot.games.allhands.picture_tiles import _board_box, _corner, square_xy, squares, tile_side
from geniusbot.games.allhands.swabbing import SIZE, example_move
from geniusbot.games.allhands.view import DeckSwabbingView
from geniusbot.render.grid import coordinate_bands
from geniusbot.render.layout import (
    FOOTER_HEIGHT,
    HEADER_HEIGHT,
    card_words,
    dotted,
    draw_footer,
    draw_header,
    heading,
    outcome_line,
    player_rows,
    said_line,
    title_of,
)
from geniusbot.render.palette import PALETTE, ink, new_canvas, rgb
from geniusbot.render.sprites import Sprite, paste, paste_centred, smooth_sprite
from geniusbot.render.text import text_width
from geniusbot.words import Argument, Message, Seat, Verbatim, Words, say, say_n

WIDTH = 900
MARGIN = 46
COORD_SIZE = 26
NUMBER_SIZE = 44
VALUE_SIZE = 22
INK_ON = {
    "white": ("white_stone", "black_stone"),
    "black": ("black_stone", "white_stone"),
    "p1": ("red_stone", "symbol"),
    "p2": ("blue_stone", "symbol"),
}

COLUMNS = "".join(chr(ord("A") + k) for k in range(SIZE))  # the board's column letters


def canvas_size() -> tuple[int, int]:
    """The picture's width and height."""
    return WIDTH, HEADER_HEIGHT + WIDTH + FOOTER_HEIGHT


@lru_cache(maxsize=1)
def background() -> Image.Image:
    """The static part: the slate, all tiles white, the coordinates."""
    canvas = new_canvas(canvas_size())
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = _board_box()
    draw.rectangle([left, top, right - 1, bottom - 1], fill=ink("slate"))
    white = tile_sprite("white", None, None)
    for square in squares():
        paste(canvas, white, _corner(square))
    letters = [chr(ord("A") + k) for k in range(SIZE)]
    coordinate_bands(
        canvas,
        [(col, square_xy(f"{col}1")[0]) for col in letters],
        [(str(k), square_xy(f"A{k}")[1]) for k in range(1, SIZE + 1)],
        top=top - MARGIN / 2,
        bottom=bottom + MARGIN / 2,
        left=left / 2,
        right=(right + WIDTH) / 2,
        size=COORD_SIZE,
    )
    return canvas


@lru_cache(maxsize=1024)
def tile_sprite(state: str, number: int | None, value: int | None) -> Sprite:
    """One tile: ``state`` white, black, p1 or p2, with its Unique ``number`` and Pyramid ``value``."""
    side = tile_side()
    fill, fg = INK_ON.get(state, INK_ON["white"])
    if state in SEAT_FILL:
        image = _pattern(state, side).image.copy()
    else:
        image = new_canvas((side, side), fill)
    if number is not None:
        draw_text_over(image, (side / 2, side / 2), str(number), NUMBER_SIZE, fg=fg, bg=fill, bold=True, notation=True)
    if value is not None:
        _value_text(image, (0, 0), value, fg, fill)
    image.putpalette(PALETTE)
    return Sprite(image, None)


@lru_cache(maxsize=4)
def _pattern(seat: str, side: int) -> Sprite:
    """A claimed tile's fill with the seat's mark: p1 a white ring, p2 a white square frame."""
    fill = rgb(SEAT_FILL[seat])

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        s = side * scale
        c = s / 2
        draw.rectangle([0, 0, s, s], fill=fill)
        r = s * 0.36
        bar = s * 0.065
        white = rgb("symbol")
        if seat == "p1":
            draw.ellipse([c - r, c - r, c + r, c + r], fill=white)
            draw.ellipse([c - r + bar, c - r + bar, c + r - bar, c + r - bar], fill=fill)
        else:
            r *= 0.82  # clear of the Pyramid value in the corner
            draw.rectangle([c - r, c - r, c + r, c + r], fill=white)
            draw.rectangle([c - r + bar, c - r + bar, c + r - bar, c + r - bar], fill=fill)

    return smooth_sprite(side, SEAT_FILL[seat], paint, masked=False)


def _brackets(draw: ImageDraw.ImageDraw, square: str) -> None:
    """Gold corner brackets just inside a tile: a tile of the last move."""
    x0, y0 = _corner(square)
    side = tile_side()
    arm, width, pad = side // 4, 7, 5
    fill = ink("accent")
    for cx, sx in ((x0 + pad, 1), (x0 + side - 1 - pad, -1)):
        for cy, sy in ((y0 + pad, 1), (y0 + side - 1 - pad, -1)):
            draw.line([(cx, cy), (cx + sx * arm, cy)], fill=fill, width=width)
            draw.line([(cx, cy), (cx, cy + sy * arm)], fill=fill, width=width)


@lru_cache(maxsize=8)
def crosshair_sprite(background_name: str) -> Sprite:
    """Snipe's mark: a gold ring with four ticks, on a tile of ``background_name``."""
    side = tile_side()

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = side * 0.34 * scale
        width = round(5 * scale)
        gold = rgb("accent")
        draw.ellipse([c - r, c - r, c + r, c + r], outline=gold, width=width)
        # Ticks across the ring but short of the middle, where Unique's number stays readable.
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            draw.line(
                [(c + dx * r * 0.72, c + dy * r * 0.72), (c + dx * r * 1.35, c + dy * r * 1.35)], fill=gold, width=width
            )

    return smooth_sprite(side, background_name, paint)


def _dashed_frame(draw: ImageDraw.ImageDraw, square: str) -> None:
    """A dashed dark frame inside a white tile: a sealed move or snipe, in its sender's view."""
    x0, y0 = _corner(square)
    side = tile_side()
    pad, dash, width = 9, 12, 5
    fill = ink("frame")
    a, b = pad, side - pad
    pos = a
    while pos < b:
        end = min(pos + dash, b)
        for x, y, horizontal in ((pos, a, True), (pos, b - width, True), (a, pos, False), (b - width, pos, False)):
            if x < 30 and y < 30:
                continue  # Pyramid's value sits in that corner
            if horizontal:
                draw.rectangle([x0 + x, y0 + y, x0 + end, y0 + y + width - 1], fill=fill)
            else:
                draw.rectangle([x0 + x, y0 + y, x0 + x + width - 1, y0 + end], fill=fill)
        pos += 2 * dash


def _value_on_top(canvas: Image.Image, square: str, board: Mapping[str, str], values: Mapping[str, int]) -> None:
    # A mark drawn over a tile crosses the corner where Pyramid's value sits: put the value back.
    if values.get(square) is None:
        return
    x0, y0 = _corner(square)
    fill, fg = INK_ON.get(board.get(square, "white"), INK_ON["white"])
    _value_text(canvas, (x0, y0), values[square], fg, fill)


def _value_text(canvas: Image.Image, origin: tuple[int, int], value: int, fg: str, fill: str) -> None:
    text = str(value)
    centre = (origin[0] + 11 + text_width(text, VALUE_SIZE, True) / 2, origin[1] + 15)
    draw_text_over(canvas, centre, text, VALUE_SIZE, fg=fg, bg=fill, bold=True, notation=True)


def status_line(view: DeckSwabbingView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says under the grid while the task runs, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    return said_line(_status(view), words)


def _status(view: DeckSwabbingView) -> Message | None:
    if view["phase"] != "move":
        return None
    anomalies = set(view["anomalies"])
    turn = Seat(str(view["turn"]))
    hook = view["hook"]
    touch = hook["from"] if hook and not hook["lifted"] else []
    example = example_move(view["board"], linear="linear" in anomalies, touch=touch)
    parts: list[Argument] = []
    if "snipe" in anomalies and view["sniper"]:
        # Who has sent what shows in the player rows; the line says what each may do.
        parts.append(say("{seat} moves, {sniper} may snipe", seat=turn, sniper=Seat(str(view["sniper"]))))
    elif example:
        # A legal move of this board: never a tile already coloured.
        if "linear" in anomalies:
            parts.append(say("{seat} to swab a line of white tiles, e.g. {move}", seat=turn, move=Verbatim(example)))
        else:
            parts.append(say("{seat} to swab two adjacent white tiles, e.g. {move}", seat=turn, move=Verbatim(example)))
    elif "linear" in anomalies:
        parts.append(say("{seat} to swab a line of white tiles", seat=turn))
    else:
        parts.append(say("{seat} to swab two adjacent white tiles", seat=turn))
    if hook and hook["from"] and not hook["lifted"]:
        parts.append(say("touch {squares} (Hook)", squares=either(list(hook["from"]))))
    if view["sealed"]:
        parts.insert(0, say("You sent {move}", move=Verbatim(str(view["sealed"]))))
    history = view["history"]
    if history and not view["sealed"]:
        last = history[-1]
        tiles = Verbatim(" ".join(last.get("tiles") or []))
        snipe = last.get("snipe")
        if snipe and last.get("snipe_ignored"):
            parts.append(say("last {tiles}, snipe {square} ignored", tiles=tiles, square=Verbatim(snipe)))
        elif snipe:
            parts.append(say("last {tiles}, snipe {square}", tiles=tiles, square=Verbatim(snipe)))
        else:
            parts.append(say("last {tiles}", tiles=tiles))
    return dotted(parts)


def seat_detail(view: DeckSwabbingView, seat: str, words: Words | None = None) -> str:
    """The small words beside a player's name (:func:`seat_detail_said`), in English without ``words``."""
    said = seat_detail_said(view, seat)
    return (words or Words())(said) if said is not None else ""


def seat_detail_said(view: DeckSwabbingView, seat: str) -> Message | None:
    """The small words beside a player's name: tiles (and Pyramid points), who moved first."""
    tiles_count = int(view["tiles"].get(seat, 0))
    bits: list[Argument] = [say_n("{n} tile", "{n} tiles", n=tiles_count)]
    if "pyramid" in view["anomalies"]:
        bits.append(say("{n} pts", n=int(view["scores"].get(seat, 0))))
    if view["phase"] == "move" and view["sniper"] == seat:
        submitted = (view["submitted"] or {}).get(seat)
        bits.insert(0, say("snipe sent") if submitted else say("may snipe"))
    elif view["phase"] == "move" and view["sniper"] and view["turn"] == seat and (view["submitted"] or {}).get(seat):
        bits.insert(0, say("move sent"))
    return dotted(bits)


def render(
    view: DeckSwabbingView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of a Deck Swabbing view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    canvas = background().copy()
    draw = ImageDraw.Draw(canvas)
    board = view["board"]
    numbers = view["numbers"] or {}
    values = view["values"] or {}
    for square in squares():
        state = board.get(square, "white")
        number, value = numbers.get(square), values.get(square)
        if state == "white" and number is None and value is None:
            continue  # the background already has it
        paste(canvas, tile_sprite(state, number, value), _corner(square))

    history = view["history"]
    if history:
        last = history[-1]
        for square in last.get("tiles") or []:
            _brackets(draw, square)
            _value_on_top(canvas, square, board, values)
        snipe = last.get("snipe")
        if snipe:
            fill = INK_ON.get(board.get(snipe, "black"), INK_ON["black"])[0]
            paste_centred(canvas, crosshair_sprite(fill), square_xy(snipe))
    sealed = view["sealed"] or ""
    for word in sealed.split():
        word = word.upper()
        if len(word) >= 2 and word[0] in COLUMNS and word[1:].isdigit() and board.get(word) == "white":
            _dashed_frame(draw, word)

    def symbol(seat: str, row_background: str) -> Sprite | None:
        return seat_symbol(seat, row_background)

    rows = player_rows(view, words, clocks, symbol, lambda seat: seat_detail_said(view, seat))
    moves = [say("move {n}", n=view["move_number"])] if view["move_number"] else []
    head = title_of(title, say("Deck Swabbing"))
    draw_header(canvas, heading(words, head, *anomaly_heading(list(view["anomalies"])), *moves), rows)
    draw_footer(
        canvas,
        status_line(view, words),
        outcome_line(Outcome.from_dict(view["outcome"]), words, how_names_winner=True),
    )
    return canvas
