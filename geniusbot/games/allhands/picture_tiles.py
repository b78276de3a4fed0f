"""Tile Decklaration: the 7 x 7 grid of coloured tiles on dark slate.

While the grid may be seen (the memorize window) every tile shows its colour and its initial
(R B G; Rainbow R O Y G B P), so colour-blind players read it by the letters. Once hidden, the
grid is empty grey tiles (the black centre stays black); declared tiles come back in their colour
with their letter, the last one framed in white. Implode's marked tiles carry a gold ``!`` badge;
mines show only in the view that holds them (the owner's), shaped by their owner as the seats'
marks are (p1's round, p2's square), and a mine that went off shows a gold burst. Chain's
allowed neighbourhood is outlined in gold. Once the task is over the whole grid is revealed: undeclared tiles as a smaller inset of their colour, a tile that imploded shows its
old colour in a corner, and the tile that lost the task is drawn whole and crossed out by an X
whose arms leave its letter clear.

The renderer draws only what the view holds: with ``grid`` ``None`` no undeclared tile has a
colour in the picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.allhands.picture_common import SEAT_SHAPE, anomaly_heading, tile_inks, tile_letter, tile_sprite
from geniusbot.games.allhands.tiles import COLOUR_WORDS, SIZE
from geniusbot.games.allhands.view import TileDecklarationView
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
from geniusbot.render.palette import ink, new_canvas, rgb
from geniusbot.render.sprites import Sprite, paste, smooth_sprite
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, Words, say

WIDTH = 900
MARGIN = 46  # the coordinate band on each side of the board
COORD_SIZE = 26
GAP = 5  # slate between a tile and its cell's edge
LETTER_SIZE = 46
INSET_LETTER_SIZE = 30
BADGE_RADIUS = 15
MINE_SIDE = 56
CROSS_GAP = 21  # the losing tile's X leaves this much room round the middle, for the letter


def cell_size() -> int:
    """The side of one cell (tile plus its share of the gaps) in pixels."""
    return (WIDTH - 2 * MARGIN) // SIZE


def tile_side() -> int:
    """The side of a tile in pixels."""
    return cell_size() - 2 * GAP


def canvas_size() -> tuple[int, int]:
    """The picture's width and height."""
    return WIDTH, HEADER_HEIGHT + WIDTH + FOOTER_HEIGHT


def _board_box() -> tuple[int, int, int, int]:
    side = cell_size() * SIZE
    left = (WIDTH - side) // 2
    top = HEADER_HEIGHT + (WIDTH - side) // 2
    return left, top, left + side, top + side


@lru_cache(maxsize=128)
def square_xy(square: str) -> tuple[int, int]:
    """The pixel centre of ``square`` ("D5"): column A on the left, row 1 at the bottom."""
    col = ord(square[0].upper()) - ord("A")
    row = int(square[1:]) - 1
    left, top, _, _ = _board_box()
    cell = cell_size()
    return left + col * cell + cell // 2, top + (SIZE - 1 - row) * cell + cell // 2


def squares() -> list[str]:
    """All 49 squares, A1 ... G7."""
    return [f"{chr(ord('A') + c)}{r}" for r in range(1, SIZE + 1) for c in range(SIZE)]


def _corner(square: str) -> tuple[int, int]:
    x, y = square_xy(square)
    half = tile_side() // 2
    return x - half, y - half


@lru_cache(maxsize=2)
def background(centre: str = "D4") -> Image.Image:
    """The static part: the slate, every tile empty, the black centre and the coordinates."""
    canvas = new_canvas(canvas_size())
    draw = ImageDraw.Draw(canvas)
    left, top, right, bottom = _board_box()
    draw.rectangle([left, top, right - 1, bottom - 1], fill=ink("slate"))
    empty = tile_sprite("empty", tile_side(), 0)
    for square in squares():
        paste(canvas, empty if square != centre else tile_sprite("black", tile_side(), 0), _corner(square))
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


@lru_cache(maxsize=32)
def badge_sprite(background_name: str) -> Sprite:
    """Implode's mark: a gold disc with a dark ``!``, drawn over a tile of ``background_name``."""
    side = 2 * BADGE_RADIUS + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = BADGE_RADIUS * scale
        # A dark rim keeps the gold disc apart from a yellow or orange tile.
        draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("banner_text"))
        r -= 2.5 * scale
        draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("accent"))
        bar = 2.6 * scale
        draw.rounded_rectangle([c - bar, c - r * 0.62, c + bar, c + r * 0.18], radius=bar, fill=rgb("banner_text"))
        dot = 2.9 * scale
        draw.ellipse([c - dot, c + r * 0.42 - dot, c + dot, c + r * 0.42 + dot], fill=rgb("banner_text"))

    return smooth_sprite(side, background_name, paint)


@lru_cache(maxsize=64)
def mine_sprite(background_name: str, exploded: bool, owner: str = "p1") -> Sprite:
    """A landmine: a dark body with spikes, shaped by its owner as the seats' marks are (p1's
    round, p2's square), so the two players' mines tell apart without colour; one that went off
    sits on a gold burst."""
    side = MINE_SIDE if not exploded else MINE_SIDE - 8  # the burst stays clear of the letter

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:

        c = side * scale / 2
        if exploded:
            points = []
            for k in range(16):
                radius = (side / 2 - 1 if k % 2 == 0 else side / 4) * scale
                angle = math.pi * k / 8
                points.append((c + radius * math.cos(angle), c + radius * math.sin(angle)))
            draw.polygon(points, fill=rgb("accent"))
        r = side * 0.21 * scale
        for k in range(8):
            angle = math.pi * k / 4
            draw.line(
                [(c, c), (c + r * 1.55 * math.cos(angle), c + r * 1.55 * math.sin(angle))],
                fill=rgb("black_stone"),
                width=round(3.2 * scale),
            )
        h = r * 0.32
        hx = hy = c - r * 0.45
        if SEAT_SHAPE.get(owner) == "square":
            s = r * 0.9
            draw.rectangle([c - s, c - s, c + s, c + s], fill=rgb("black_stone"))
            draw.rectangle([hx - h, hy - h, hx + h, hy + h], fill=rgb("white_stone"))
        else:
            draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("black_stone"))
            draw.ellipse([hx - h, hy - h, hx + h, hy + h], fill=rgb("white_stone"))

    return smooth_sprite(side, background_name, paint)


def _frame(draw: ImageDraw.ImageDraw, square: str, fill: int, width: int, reach: int = GAP + 1) -> None:
    """A square outline just outside a tile, in the slate gap."""
    x0, y0 = _corner(square)
    side = tile_side()
    draw.rectangle([x0 - reach, y0 - reach, x0 + side + reach - 1, y0 + side + reach - 1], outline=fill, width=width)


def _chain_outline(draw: ImageDraw.ImageDraw, square: str) -> None:
    """Gold outline round the 3 x 3 neighbourhood the next declaration must lie in (inside the board)."""
    col = ord(square[0].upper()) - ord("A")
    row = int(square[1:]) - 1
    c0, c1 = max(0, col - 1), min(SIZE - 1, col + 1)
    r0, r1 = max(0, row - 1), min(SIZE - 1, row + 1)
    x0, _ = _corner(f"{chr(ord('A') + c0)}{r1 + 1}")
    _, y0 = _corner(f"{chr(ord('A') + c0)}{r1 + 1}")
    x1, y1 = _corner(f"{chr(ord('A') + c1)}{r0 + 1}")
    side = tile_side()
    draw.rectangle(
        [x0 - GAP + 1, y0 - GAP + 1, x1 + side + GAP - 2, y1 + side + GAP - 2], outline=ink("accent"), width=4
    )


def _cross(draw: ImageDraw.ImageDraw, square: str) -> None:
    """A white-edged black X over the tile that lost the task (readable on every colour), its
    four arms stopping short of the middle so that the tile's letter stays whole: the letter, not
    the colour, is what a colour-blind player reads."""
    x, y = square_xy(square)
    arm = tile_side() * 0.44
    gap = CROSS_GAP
    for width, fill in ((16, ink("white_stone")), (7, ink("black_stone"))):
        for dx, dy in ((-1, -1), (1, 1), (-1, 1), (1, -1)):
            draw.line([(x + dx * gap, y + dy * gap), (x + dx * arm, y + dy * arm)], fill=fill, width=width)


def _colour(colour: str) -> Argument:
    return COLOUR_WORDS.get(colour) or Verbatim(colour)


def colour_word(colour: str | None) -> Argument:
    """The called colour as the status line says it, with its letter: "red (R)"."""
    if not colour:
        return Verbatim("")
    said = tile_letter(colour)
    return say("{colour} ({letter})", colour=_colour(colour), letter=said) if said is not None else _colour(colour)


def status_line(
    view: TileDecklarationView, words: Words | Mapping[str, str] | None = None, seat_view: bool = False
) -> str:
    """What the card says under the grid while the task runs, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    return said_line(_status(view), words)


def _status(view: TileDecklarationView) -> Message | None:
    phase = view["phase"]
    if phase == "memorize":
        letters = Listing(
            tuple(
                say("{letter} {colour}", letter=tile_letter(c) or Verbatim(""), colour=_colour(c))
                for c in view["palette"]
            )
        )
        return say("Memorize! Hidden in {n} s · {letters}", n=int(view["memorize_seconds"]), letters=letters)
    if phase == "landmines":
        sent = view["mines_sent"] or {}
        waiting = [Seat(s) for s in ("p1", "p2") if not sent.get(s)]
        own = view["mines"]
        if own is not None:
            # Only the owner's view holds its mines.
            head = say("Your mines: {squares}", squares=Verbatim(" ".join(own))) if own else say("Your mines: none")
        else:
            head = say("Landmine: send {n} tiles by DM (mines A1 B2 C3 E6 G7)", n=int(view["mines_per_seat"]))
        if not waiting:
            return head
        who: Argument = waiting[0]
        for seat in waiting[1:]:
            who = say("{seats} and {seat}", seats=who, seat=seat)
        return say("{head} · waiting for {seats}", head=head, seats=who)
    movers = view["to_move"]
    mover = Seat(movers[0]) if movers else None
    if phase == "call" and mover:
        return say("{seat} calls a colour for {other} (e.g. call red)", seat=mover, other=Seat(_other(movers[0])))
    if phase == "declare" and mover:
        called = view["called"]
        article = "an" if (called or "")[:1].lower() in "aeiou" else "a"
        colour = colour_word(called)
        if view["chain_from"]:
            chain = Verbatim(view["chain_from"])
            if article == "an":
                first = say(
                    "{seat}: declare an {colour} tile next to {square}", seat=mover, colour=colour, square=chain
                )
            else:
                first = say("{seat}: declare a {colour} tile next to {square}", seat=mover, colour=colour, square=chain)
        elif article == "an":
            first = say("{seat}: declare an {colour} tile", seat=mover, colour=colour)
        else:
            first = say("{seat}: declare a {colour} tile", seat=mover, colour=colour)
        parts: list[Argument] = [first]
        parts.append(say("then call a colour") if not view["must_move_again"] else say("mine! move again"))
        last = _last_said(view)
        if last is not None:
            parts.append(last)
        return dotted(parts)
    return None


def _last_said(view: TileDecklarationView) -> Message | None:
    """The last move for the status line. A declaration ("F3 green": F3 declared, green called)
    says the tile's colour, "last F3 was red": the call is the colour the line asks for, and
    "last F3 green" read as if F3 were green."""
    last = view["last_move"]
    if not last:
        return None
    tile = last.split()[0]
    declared = view["declared"][-1] if view["declared"] else None
    if declared and declared.get("tile") == tile and declared.get("color"):
        return say("last {tile} was {colour}", tile=Verbatim(tile), colour=_colour(str(declared["color"])))
    return say("last {move}", move=Verbatim(last))


def _other(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


def seat_detail(view: TileDecklarationView, seat: str, words: Words | None = None) -> str:
    """The small words beside a player's name (:func:`seat_detail_said`), in English without ``words``."""
    said = seat_detail_said(view, seat)
    return (words or Words())(said) if said is not None else ""


def seat_detail_said(view: TileDecklarationView, seat: str) -> Message | None:
    """The small words beside a player's name: the colour to declare, declarations, mines."""
    bits: list[Argument] = []
    movers = set(view["to_move"])
    if view["phase"] == "declare" and seat in movers and view["called"]:
        bits.append(say("declare {colour}", colour=_colour(view["called"])))
    elif view["phase"] in ("call", "memorize", "landmines") and view["starter"] == seat:
        bits.append(say("calls first"))
    count = sum(1 for d in view["declared"] if d.get("seat") == seat)
    if count:
        bits.append(say("{n} declared", n=count))
    sent = view["mines_sent"]
    if sent is not None and view["phase"] == "landmines":
        bits.append(say("mines sent") if sent.get(seat) else say("mines: waiting"))
    return dotted(bits)


def _called_symbol(colour: str, language: str) -> Sprite:
    # A small tile of the called colour, letter included, for the mover's row.
    return tile_sprite(colour, 34, 24, language)


def _draw_board(canvas: Image.Image, view: TileDecklarationView, language: str) -> None:
    draw = ImageDraw.Draw(canvas)
    side = tile_side()
    grid = view["grid"]
    original = view["original_grid"]
    declared = {d["tile"]: d for d in view["declared"] if d.get("tile")}
    centre = view["centre"]
    over = view["phase"] == "over"
    lost_on = (view["loss"] or {}).get("tile")  # drawn whole, as the declaration it was

    # Colours known: the whole grid (memorize window, end of task), else only declared tiles.
    colours: dict[str, str] = {t: str(d.get("color")) for t, d in declared.items()}
    if grid:
        for square, colour in grid.items():
            if square == centre:
                continue
            if over and square not in declared and square != lost_on:
                # Revealed, never declared: a smaller inset on the empty tile, so the declared
                # tiles stand out as the game's own moves.
                inset = side * 62 // 100
                x, y = square_xy(square)
                paste(canvas, tile_sprite(colour, inset, INSET_LETTER_SIZE, language), (x - inset // 2, y - inset // 2))
            else:
                colours[square] = colour
    for square, colour in colours.items():
        if square != centre:
            paste(canvas, tile_sprite(colour, side, LETTER_SIZE, language), _corner(square))

    if original and grid:
        # Implode changed these tiles: the old colour in the bottom-left corner.
        small = 30
        for square, old in original.items():
            if grid.get(square) != old and square != centre:
                x0, y0 = _corner(square)
                draw.rectangle([x0, y0 + side - small - 4, x0 + small + 3, y0 + side - 1], fill=ink("page"))
                paste(canvas, tile_sprite(old, small, 20, language), (x0, y0 + side - small))

    for square in view["marks"]:
        fill = _fill_at(square, colours, grid, over, centre)
        x0, y0 = _corner(square)
        paste(canvas, badge_sprite(fill), (x0 + side - 2 * BADGE_RADIUS - 8, y0 + 4))

    exploded = {str(e["tile"]): list(e.get("owners") or ()) for e in view["exploded"] if e.get("tile")}
    own_seat = _own_seat(view)
    for square in view["mines"] or []:
        if square in exploded:
            continue
        x0, y0 = _corner(square)
        fill = _fill_at(square, colours, grid, over, centre)
        paste(canvas, mine_sprite(fill, False, own_seat), (x0 + 2, y0 + 2))
    for square, owners in exploded.items():
        x0, y0 = _corner(square)
        fill = _fill_at(square, colours, grid, over, centre)
        # A tile both seats mined shows both mines, p1's round one first, p2's square one beside it.
        for k, owner in enumerate(sorted(owners) or ["p1"]):
            paste(canvas, mine_sprite(fill, True, owner), (x0 + k * MINE_SIDE // 2, y0))

    chain_from = view["chain_from"]
    if chain_from and view["phase"] == "declare":
        _chain_outline(draw, chain_from)
    order = [d["tile"] for d in view["declared"] if d.get("tile")]
    if order:
        _frame(draw, order[-1], ink("text"), 5)
    if lost_on:
        _cross(draw, lost_on)


def _own_seat(view: TileDecklarationView) -> str:
    """The seat whose mines the view lists (the viewer's own, the only ones shown before they go off)."""
    seat = view.get("mines_owner")
    return str(seat) if seat in SEAT_SHAPE else "p1"


def _fill_at(square: str, colours: Mapping[str, str], grid: Mapping[str, str] | None, over: bool, centre: str) -> str:
    """The named colour under a badge at the top corner of ``square``."""
    if square == centre:
        return "black_stone"
    if square in colours:
        return tile_inks(colours[square])[0]
    return "empty_tile"


def render(
    view: TileDecklarationView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of a Tile Decklaration view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    canvas = background(view["centre"]).copy()
    _draw_board(canvas, view, words.language)

    called = view["called"]
    movers = set(view["to_move"])

    def symbol(seat: str, row_background: str) -> Sprite | None:
        if called and seat in movers and view["phase"] == "declare":
            return _called_symbol(called, words.language)
        # No seat mark here: a red disc or blue square would read as a tile colour.
        return None

    rows = player_rows(view, words, clocks, symbol, lambda seat: seat_detail_said(view, seat))
    parts = anomaly_heading(list(view["anomalies"]))
    phase = view["phase"]
    if phase == "memorize":
        parts.append(say("MEMORIZE"))
    elif view["move_number"]:
        parts.append(say("{n} declared", n=view["move_number"]))
    draw_header(canvas, heading(words, title_of(title, say("Tile Decklaration")), *parts), rows)
    draw_footer(
        canvas,
        status_line(view, words),
        outcome_line(Outcome.from_dict(view["outcome"]), words, how_names_winner=True),
    )
    return canvas
