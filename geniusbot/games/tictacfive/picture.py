"""Tic-Tac-Five: a go board of points, black stones as filled discs, white stones as rings.

The shapes differ as well as the colours (a disc against a ring with a hole), so the board reads
in grey scale and for colour-blind players. The last stone carries a small red square; a winning
line is a dark-edged gold bar through its stones. An empty point the next stone may not take (a
double three, the view's ``forbidden``) carries a small dark diagonal cross, a shape no stone or
grid crossing has, and the footer then ends with the cross and what it means.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.tictacfive.rules import COLOUR_WORDS
from geniusbot.games.tictacfive.view import TicTacFiveView
from geniusbot.render import stones as board_card
from geniusbot.render.layout import (
    FOOTER_HEIGHT,
    HEADER_HEIGHT,
    STATUS_SIZE,
    card_words,
    dotted,
    outcome_line,
    said_line,
)
from geniusbot.render.palette import ink, new_canvas, rgb
from geniusbot.render.sprites import Sprite, paste_centred, smooth_sprite, stamp
from geniusbot.render.stones import WIDTH, Board
from geniusbot.render.text import draw_text, fit_text
from geniusbot.words import Message, Seat, Verbatim, Words, say

MARGIN = 46  # the coordinate band on each side of the board
INSET = 26  # from the edge of the wood to the outer grid lines
SPAN = WIDTH - 2 * (MARGIN + INSET)
COORD_SIZE = 24


def letters(size: int) -> list[str]:
    """Column letters of a board of ``size`` points (the letter I is used: docs/rules/tictacfive.md, ruling 12)."""
    return board_card.letters(size)


def spacing(size: int) -> int:
    """Pixels between neighbouring points."""
    return SPAN // max(1, size - 1)


def canvas_size(size: int = 15) -> tuple[int, int]:
    """The picture's width and height for a board of ``size`` points."""
    return board_card.canvas_size()


@lru_cache(maxsize=4)
def board(size: int) -> Board:
    """Where the points of a board of ``size`` lie: the grid centred in the wood when SPAN does
    not divide evenly."""
    extra = SPAN - spacing(size) * (size - 1)
    left = MARGIN + INSET + extra // 2
    top = HEADER_HEIGHT + MARGIN + INSET + extra // 2
    return Board(size, (left, top), spacing(size))


def point_xy(point: str, size: int = 15) -> tuple[int, int]:
    """The pixel centre of ``point`` ("H8"): column A on the left, row 1 at the bottom."""
    return board(size).xy(point)


def stone_radius(size: int = 15) -> int:
    """The radius of a stone in pixels."""
    return max(6, spacing(size) * 23 // 50)


def _star_points(size: int) -> list[str]:
    if size < 9:
        return []
    edge = 3 if size >= 13 else 2
    cols = letters(size)
    far = size - 1 - edge
    mid = size // 2
    points = [(edge, edge), (far, edge), (edge, far), (far, far)]
    if size % 2:
        points.append((mid, mid))
    return [f"{cols[c]}{r + 1}" for c, r in points]


@lru_cache(maxsize=4)
def background(size: int) -> Image.Image:
    """The static part of the card for a board of ``size`` points: wood, grid, coordinates."""
    canvas = new_canvas(canvas_size(size))
    draw = ImageDraw.Draw(canvas)
    board_top = HEADER_HEIGHT + MARGIN
    draw.rectangle([MARGIN, board_top, WIDTH - MARGIN - 1, board_top + WIDTH - 2 * MARGIN - 1], fill=ink("wood"))
    first, last = point_xy("A1", size), point_xy(f"{letters(size)[-1]}{size}", size)
    for k in range(size):
        x = first[0] + k * spacing(size)
        y = last[1] + k * spacing(size)
        width = 3 if k in (0, size - 1) else 2
        draw.line([(x, last[1]), (x, first[1])], fill=ink("grid"), width=width)
        draw.line([(first[0], y), (last[0], y)], fill=ink("grid"), width=width)
    for point in _star_points(size):
        x, y = point_xy(point, size)
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=ink("grid"))
    board(size).coordinates(
        canvas,
        top=board_top - MARGIN / 2,
        bottom=board_top + WIDTH - 2 * MARGIN + MARGIN / 2,
        left=MARGIN / 2,
        right=WIDTH - MARGIN / 2,
        size=COORD_SIZE,
    )
    return canvas


@lru_cache(maxsize=32)
def stone_sprite(colour: str, radius: int, background: str = "wood") -> Sprite:
    """A smooth stone: ``black`` a filled disc, ``white`` a ring whose hole shows the wood.

    Off the board (``background`` not ``"wood"``) the stone comes on a small square of wood.
    """
    side = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = radius * scale
        dark = rgb("black_stone")
        if background != "wood":
            # Off the board (beside a name) the stone sits on a small square of wood, as on the
            # board: a black disc on the dark card would vanish, and outlining it would make
            # it look like the white ring.
            draw.rounded_rectangle(
                [0, 0, side * scale - 1, side * scale - 1], radius=side * scale / 5, fill=rgb("wood")
            )
            r = (radius - 2) * scale
        if colour == "black":
            draw.ellipse([c - r, c - r, c + r, c + r], fill=dark)
        else:
            hole = r * 0.42
            edge = max(2.0, radius / 11) * scale
            draw.ellipse([c - r, c - r, c + r, c + r], fill=dark)
            draw.ellipse([c - r + edge, c - r + edge, c + r - edge, c + r - edge], fill=rgb("white_stone"))
            draw.ellipse([c - hole - edge, c - hole - edge, c + hole + edge, c + hole + edge], fill=dark)
            draw.ellipse([c - hole, c - hole, c + hole, c + hole], fill=rgb("wood"))

    return smooth_sprite(side, background, paint)


@lru_cache(maxsize=8)
def forbidden_sprite(radius: int, background: str = "wood") -> Sprite:
    """The mark of a forbidden point: a diagonal cross in the black stones' ink, about half a
    stone across, masked so that the grid shows round it (off the board, on a square of wood)."""
    side = 2 * radius + 4
    reach = radius * 0.42
    thick = max(3.0, radius / 5)

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = reach * scale
        if background != "wood":
            draw.rounded_rectangle(
                [0, 0, side * scale - 1, side * scale - 1], radius=side * scale / 5, fill=rgb("wood")
            )
        for sign in (1, -1):
            draw.line(
                [(c - r, c - sign * r), (c + r, c + sign * r)], fill=rgb("black_stone"), width=round(thick * scale)
            )

    return smooth_sprite(side, background, paint)


FORBIDDEN_LEGEND_SAID = say("forbidden: double three")
#: The legend in English.
FORBIDDEN_LEGEND = Words()(FORBIDDEN_LEGEND_SAID)
LEGEND_SIZE = 25


def status_parts(view: TicTacFiveView) -> list[Message]:
    """What the card says under the board while the game runs, part by part."""
    movers = view["to_move"]
    mover = Seat(movers[0]) if movers else None
    phase = view["phase"]
    last = view["last_move"]
    tail = [say("last {point}", point=Verbatim(last))] if last else []
    colour: Message | Verbatim | None = COLOUR_WORDS.get(view["next_color"] or "")
    if phase == "opening":
        placed, stones = len(view["stones"]), view["opening_stones"]
        k = min(placed + 1, stones)
        colour = colour or Verbatim(str(view["next_color"]))
        if mover is None:
            opening = say("Opening: the first player places stone {k} of {n} ({colour})", k=k, n=stones, colour=colour)
        else:
            opening = say(
                "Opening: {seat} places stone {k} of {n} ({colour})", seat=mover, k=k, n=stones, colour=colour
            )
        return [opening, *tail]
    if phase == "choice":
        if mover is None:
            return [say("The second player chooses a colour: black or white"), *tail]
        return [say("{seat} chooses a colour: black or white", seat=mover), *tail]
    if phase == "play" and mover:
        if colour is None:
            return [say("{seat} to play", seat=mover), *tail]
        return [say("{seat} to play {colour}", seat=mover, colour=colour), *tail]
    return tail


def status_line(view: TicTacFiveView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says under the board while the game runs, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    return said_line(dotted(status_parts(view)), words)


def render(
    view: TicTacFiveView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of a Tic-Tac-Five view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    size = view["size"]
    canvas = background(size).copy()
    draw = ImageDraw.Draw(canvas)
    radius = stone_radius(size)
    stones = view["stones"]
    colours = view["colors"]

    winning = [p for p in (view["winning_line"] or []) if p]
    centres = board(size).centres()
    board(size).place_stones(canvas, stones, ("black", "white"), lambda colour: stone_sprite(colour, radius))
    if len(winning) >= 2:
        ends = sorted(winning, key=lambda p: (ord(p[0].upper()), int(p[1:])))
        a, b = point_xy(ends[0], size), point_xy(ends[-1], size)
        draw.line([a, b], fill=ink("frame"), width=max(6, radius // 2 + 2))
        draw.line([a, b], fill=ink("accent"), width=max(3, radius // 2 - 4))
    for point in winning:
        x, y = point_xy(point, size)
        ring = radius + 2
        draw.ellipse([x - ring, y - ring, x + ring, y + ring], outline=ink("accent"), width=3)
    last = view["last_move"]
    if last and last in stones:
        x, y = point_xy(last, size)
        half = max(3, radius // 3)
        draw.rectangle([x - half, y - half, x + half, y + half], fill=ink("last"))
    forbidden = [p for p in view.get("forbidden") or [] if p in centres and p not in stones]
    stamp(canvas, forbidden_sprite(radius), [centres[p] for p in forbidden])

    def detail(seat: str) -> Message | None:
        return COLOUR_WORDS.get(colours.get(seat) or "")  # the colour word, so the row reads without colour too

    status = status_line(view, words)
    banner = outcome_line(Outcome.from_dict(view["outcome"]), words)
    if forbidden and banner is None:
        # The status keeps to the left of the legend: 22 pixels in from the edge, 24 short of the mark.
        status = fit_text(status, STATUS_SIZE, max(0, _draw_legend(canvas, words(FORBIDDEN_LEGEND_SAID)) - 24 - 22))
    board_card.draw_card(
        canvas,
        view,
        words,
        clocks,
        title=title,
        game=say("Tic-Tac-Five"),
        symbol=board_card.seat_stones(colours, ("black", "white"), lambda colour, bg: stone_sprite(colour, 16, bg)),
        detail=detail,
        status=status,
        banner=banner,
    )
    return canvas


def _draw_legend(canvas: Image.Image, legend: str) -> int:
    """The forbidden mark and what it means (``legend``) at the right end of the footer; the
    mark's left edge."""
    mid = canvas.height - FOOTER_HEIGHT / 2
    right = WIDTH - 22 - draw_text(canvas, (WIDTH - 22, mid), legend, LEGEND_SIZE, fg="muted", anchor="r")
    mark = forbidden_sprite(16, "page")
    left = right - 10 - mark.size[0]
    paste_centred(canvas, mark, (left + mark.size[0] / 2, mid))
    return left
