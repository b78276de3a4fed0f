"""Tightwire: a grid of dots on dark slate, the lines drawn between them, and the pieces.

Normal lines are single solid wires; slack lines are double wires (two thin parallel lines) in a
different colour, so the two kinds differ in shape as well as colour. Orange pieces are discs,
blue pieces squares. The last action is drawn in gold: the new line, or the path a piece moved
along (with a dashed ghost where it was), or a ring round a revived piece. Dots emptied by
captures in that action carry a crossed ghost in the shape of the piece taken there.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.tightwire.view import TightwireView
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
from geniusbot.render.sprites import Sprite, arrow, ghost_sprite, paste_centred, smooth_sprite, stamp
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, Words, say, say_c

WIDTH = 900
MARGIN = 46  # the coordinate band on each side of the board
INSET = 64  # from the edge of the slate to the outer dots
SPAN = WIDTH - 2 * (MARGIN + INSET)
COORD_SIZE = 26
WIRE_WIDTH = 6
SLACK_WIDTH = 4  # each of a slack line's two wires
SLACK_SHIFT = 5  # from the middle of a slack line to the middle of each wire
DOT_RADIUS = 9
#: The items as a player row and the draft's line name them.
ITEM_WORDS = {
    "turn_order": say_c("item", "turn order"),
    "extra_slack": say_c("item", "extra slack"),
    "woven_revive": say_c("item", "woven revive"),
}
#: The pieces' colours as a player row names them.
COLOUR_WORDS = {"orange": say_c("colour", "orange"), "blue": say_c("colour", "blue")}


def canvas_size(cols: int = 5, rows: int = 5) -> tuple[int, int]:
    """The picture's width and height for a grid of ``cols`` x ``rows`` dots."""
    return WIDTH, HEADER_HEIGHT + WIDTH + FOOTER_HEIGHT


def spacing(cols: int, rows: int) -> int:
    """Pixels between neighbouring dots (the same across and up)."""
    return SPAN // max(1, cols - 1, rows - 1)


def _origin(cols: int, rows: int) -> tuple[int, int]:
    step = spacing(cols, rows)
    # Centre a grid that is not square (or not a divisor of SPAN) on the slate.
    left = MARGIN + INSET + (SPAN - step * (cols - 1)) // 2
    top = HEADER_HEIGHT + MARGIN + INSET + (SPAN - step * (rows - 1)) // 2
    return left, top


def dot_xy(dot: str, cols: int = 5, rows: int = 5) -> tuple[int, int]:
    """The pixel centre of ``dot`` ("B5"): column A on the left, row 1 at the bottom."""
    col = ord(dot[0].upper()) - ord("A")
    row = int(dot[1:]) - 1
    left, top = _origin(cols, rows)
    step = spacing(cols, rows)
    return left + col * step, top + (rows - 1 - row) * step


def piece_radius(cols: int = 5, rows: int = 5) -> int:
    """Half the width of a piece in pixels."""
    return min(36, spacing(cols, rows) * 30 // 100)


def dot_names(cols: int, rows: int) -> list[str]:
    """Every dot of the grid, A1 first."""
    return [f"{chr(ord('A') + c)}{r + 1}" for r in range(rows) for c in range(cols)]


@lru_cache(maxsize=4)
def _centres(cols: int, rows: int) -> dict[str, tuple[int, int]]:
    return {name: dot_xy(name, cols, rows) for name in dot_names(cols, rows)}


@lru_cache(maxsize=4)
def background(cols: int, rows: int) -> Image.Image:
    """The static part of the card: the slate, the coordinates (the dots go on after the lines)."""
    canvas = new_canvas(canvas_size(cols, rows))
    draw = ImageDraw.Draw(canvas)
    top = HEADER_HEIGHT + MARGIN
    draw.rounded_rectangle(
        [MARGIN, top, WIDTH - MARGIN - 1, top + WIDTH - 2 * MARGIN - 1], radius=18, fill=ink("slate")
    )
    bottom = top + WIDTH - 2 * MARGIN
    letters = [chr(ord("A") + c) for c in range(cols)]
    coordinate_bands(
        canvas,
        [(letter, dot_xy(f"{letter}1", cols, rows)[0]) for letter in letters],
        [(str(r), dot_xy(f"A{r}", cols, rows)[1]) for r in range(1, rows + 1)],
        top=top - MARGIN / 2,
        bottom=bottom + MARGIN / 2,
        left=MARGIN / 2,
        right=WIDTH - MARGIN / 2,
        size=COORD_SIZE,
    )
    return canvas


@lru_cache(maxsize=8)
def dot_sprite(radius: int = DOT_RADIUS) -> Sprite:
    """A smooth dot of the grid."""
    side = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c, r = side * scale / 2, radius * scale
        draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("dot"))

    return smooth_sprite(side, "slate", paint)


@lru_cache(maxsize=32)
def piece_sprite(colour: str, radius: int, background: str = "slate") -> Sprite:
    """A smooth piece with a dark rim: ``orange`` a disc, ``blue`` a rounded square."""
    side = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c, r = side * scale / 2, radius * scale
        rim = max(2.0, radius / 10) * scale
        dark = rgb("frame")
        if colour == "orange":
            draw.ellipse([c - r, c - r, c + r, c + r], fill=dark)
            r -= rim
            draw.ellipse([c - r, c - r, c + r, c + r], fill=rgb("orange_piece"))
        else:
            s = r * 0.9  # a square looks larger than a disc of the same width
            draw.rounded_rectangle([c - s, c - s, c + s, c + s], radius=s * 0.25, fill=dark)
            s -= rim
            draw.rounded_rectangle([c - s, c - s, c + s, c + s], radius=s * 0.22, fill=rgb("blue_piece"))

    return smooth_sprite(side, background, paint)


def _offset_segment(a: tuple[int, int], b: tuple[int, int], shift: float) -> list[tuple[float, float]]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    nx, ny = -dy / length * shift, dx / length * shift
    return [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)]


def draw_line(
    draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], slack: bool, colour: str | None = None
) -> None:
    """A normal line as one solid wire, a slack line as two thin parallel wires."""
    if slack:
        fill = ink(colour or "slack")
        # Wide enough apart that the two wires stay two (or a band) on a phone-sized picture.
        for shift in (-SLACK_SHIFT, SLACK_SHIFT):
            draw.line(_offset_segment(a, b, shift), fill=fill, width=SLACK_WIDTH)
    else:
        # The newest line is drawn a little wider as well as in gold.
        draw.line([a, b], fill=ink(colour or "wire"), width=WIRE_WIDTH + (3 if colour else 0))


def _action_kind(last_move: str | None) -> str:
    text = (last_move or "").strip().lower()
    if text.startswith("move"):
        return "move"
    if text.endswith("and move"):
        return "draw_move"
    if "revive" in text:
        return "revive"
    if text.startswith(("draw", "slack", "extra slack")):
        return "draw"
    return "other"


def _shape(colour: str | None) -> str:
    """The ghost shape of a piece of ``colour``: blue pieces are squares, the rest discs."""
    return "square" if colour == "blue" else "disc"


def _shortened(a: tuple[int, int], b: tuple[int, int], by: float) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    return b[0] - dx / length * by, b[1] - dy / length * by


def _item(name: str) -> Argument:
    return ITEM_WORDS.get(name) or Verbatim(name)


def seat_detail(view: TightwireView, seat: str, words: Words | None = None) -> str:
    """The small words beside a player's name (:func:`seat_detail_said`), in English without ``words``."""
    said = seat_detail_said(view, seat)
    return (words or Words())(said) if said is not None else ""


def seat_detail_said(view: TightwireView, seat: str) -> Message | None:
    """The small words beside a player's name: colour, slack lines left, pieces to revive, items."""
    colour = view["colors"].get(seat)
    bits: list[Argument] = [COLOUR_WORDS.get(colour) or Verbatim(colour)] if colour else []
    slack = view["slack_left"].get(seat, 0)
    items = view["items"].get(seat) or []
    if slack:
        bits.append(say("{n} slack", n=int(slack)))
    off = view["captured"].get(colour, 0) if colour else 0
    if off:
        bits.append(say("{n} to revive", n=int(off)))
    bits.extend(_item(item) for item in items)
    return dotted(bits)


def status_line(view: TightwireView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says under the board while the game runs, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    return said_line(_status(view), words)


def _status(view: TightwireView) -> Message | None:
    movers = view["to_move"]
    mover = Seat(movers[0]) if movers else None
    phase = view["phase"]
    if phase == "draft":
        draft = view["draft"]
        available = [_item(item) for item in (draft["available"] if draft else [])]
        if len(available) > 1:
            items: Argument = say("{items} or {last}", items=Listing(tuple(available[:-1])), last=available[-1])
        elif available:
            items = available[0]
        else:
            items = Verbatim("")
        if mover is None:
            return say("A player picks an item: {items}", items=items)
        return say("{seat} picks an item: {items}", seat=mover, items=items)
    if phase == "order":
        if mover is None:
            return say("The Turn Order holder chooses to move first or second")
        return say("{seat} chooses to move first or second", seat=mover)
    parts: list[Argument] = []
    if mover:
        parts.append(say("{seat} to move", seat=mover))
    if view["last_move"]:
        parts.append(say("last {move}", move=Verbatim(view["last_move"])))
    if view["captured_last"]:
        parts.append(say("captured {dots}", dots=Listing(tuple(Verbatim(dot) for dot in view["captured_last"]))))
    return dotted(parts)


def render(
    view: TightwireView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of a Tightwire view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    cols, rows = view["cols"], view["rows"]
    canvas = background(cols, rows).copy()
    draw = ImageDraw.Draw(canvas)
    centres = _centres(cols, rows)
    radius = piece_radius(cols, rows)
    pieces = view["pieces"]
    colours = view["colors"]
    lines = view["lines"]
    path = [dot for dot in view["last_path"] if dot in centres]
    kind = _action_kind(view["last_move"])
    new_line = tuple(sorted(path[:2])) if kind in ("draw", "draw_move") and len(path) >= 2 and lines else None

    # Normal wires first, slack ones on top of them: a slack line may cross normal lines.
    for line in sorted(lines, key=lambda ln: ln["slack"]):
        if tuple(sorted((line["a"], line["b"]))) == new_line:
            continue
        draw_line(draw, centres[line["a"]], centres[line["b"]], line["slack"])
    if new_line is not None:
        newest = next(ln for ln in reversed(lines) if tuple(sorted((ln["a"], ln["b"]))) == new_line)
        draw_line(draw, centres[newest["a"]], centres[newest["b"]], newest["slack"], "path")
    stamp(canvas, dot_sprite(), [xy for name, xy in centres.items() if name not in pieces])

    taken = view["captured_last_colors"]
    if kind in ("move", "draw_move") and len(path) >= 2:
        start, end = centres[path[0]], centres[path[1]]
        # The piece that moved stands at the end of its path, unless it was captured there.
        mover = pieces.get(path[1]) or taken.get(path[1])
        paste_centred(canvas, ghost_sprite(_shape(mover), radius, False, "slate"), start)
        arrow(
            draw,
            _shortened(end, start, radius * 0.6),
            _shortened(start, end, radius + 6),
            ink("path"),
            width=5,
            head=20,
        )
    for dot in view["captured_last"]:
        if dot in centres:
            paste_centred(canvas, ghost_sprite(_shape(taken.get(dot)), radius, True, "slate"), centres[dot])
    for colour in ("orange", "blue"):
        stamp(
            canvas,
            piece_sprite(colour, radius),
            [centres[d] for d, c in pieces.items() if c == colour and d in centres],
        )
    if kind == "revive" and path:
        x, y = centres[path[0]]
        ring = radius + 9
        draw.ellipse([x - ring, y - ring, x + ring, y + ring], outline=ink("path"), width=5)

    def symbol(seat: str, row_background: str) -> Sprite | None:
        colour = colours.get(seat)
        return piece_sprite(colour, 16, row_background) if colour in ("orange", "blue") else None

    def detail(seat: str) -> Message | None:
        return seat_detail_said(view, seat)

    rows_ = player_rows(view, words, clocks, symbol, detail)
    head = title_of(title, say("Tightwire"))
    variant = view["variant"]
    if variant and variant != "classic":
        head = say("{title} ({variant})", title=head, variant=Verbatim(variant))
    moves = [say("move {n}", n=view["move_number"])] if view["move_number"] else []
    draw_header(canvas, heading(words, head, *moves), rows_)
    draw_footer(canvas, status_line(view, words), outcome_line(Outcome.from_dict(view["outcome"]), words))
    return canvas
