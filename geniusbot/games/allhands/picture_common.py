"""What the All Hands On Deck pictures share: the tile colours with their letters, the seats'
marks (p1 a red disc, p2 a blue square, as in every picture of the family) and anomaly words.

Colour is never the only sign: a coloured tile carries its colour's initial (R O Y G B P) and a
seat's mark has its own shape, so a colour-blind player reads the picture by letters and shapes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from geniusbot.games.allhands.common import ANOMALY_WORDS as ANOMALY_PHRASES
from geniusbot.render.palette import new_canvas, rgb
from geniusbot.render.sprites import Sprite, smooth_sprite
from geniusbot.render.text import draw_text
from geniusbot.words import ENGLISH, Argument, Listing, Message, Verbatim, Words, say, say_c

# tile colour -> (fill, letter ink)
TILE_INKS: dict[str, tuple[str, str]] = {
    "red": ("red_stone", "symbol"),
    "orange": ("orange_piece", "banner_text"),
    "yellow": ("yellow_tile", "banner_text"),
    "green": ("green_tile", "symbol"),
    "blue": ("blue_stone", "symbol"),
    "purple": ("purple_tile", "symbol"),
    "black": ("black_stone", "white_stone"),
}
SEAT_FILL = {"p1": "red_stone", "p2": "blue_stone"}
SEAT_SHAPE = {"p1": "disc", "p2": "square"}


#: The letter each tile colour carries, as the language writes it.
TILE_LETTERS: dict[str, Message] = {
    "red": say_c("tile letter", "R"),
    "orange": say_c("tile letter", "O"),
    "yellow": say_c("tile letter", "Y"),
    "green": say_c("tile letter", "G"),
    "blue": say_c("tile letter", "B"),
    "purple": say_c("tile letter", "P"),
}


def tile_letter(colour: str) -> Message | None:
    """The letter a tile of ``colour`` carries, as a message (none on the black centre)."""
    return TILE_LETTERS.get(colour) or (
        say_c("written as it is", "{text}", text=Verbatim(letter(colour))) if letter(colour) else None
    )


def letter(colour: str) -> str:
    """The letter a tile of ``colour`` carries: its initial (none on the black centre)."""
    return "" if colour == "black" else colour[:1].upper()


def tile_inks(colour: str) -> tuple[str, str]:
    """The named fill and letter ink of a tile colour (an unknown colour draws as an empty tile)."""
    return TILE_INKS.get(colour, ("empty_tile", "text"))


@lru_cache(maxsize=256)
def tile_sprite(colour: str, side: int, letter_size: int, language: str = ENGLISH) -> Sprite:
    """A square tile of ``colour`` with its letter in the middle, in ``language`` (``letter_size``
    0: no letter)."""
    fill, fg = tile_inks(colour)
    image = new_canvas((side, side), fill)
    said = tile_letter(colour)
    text = Words(language)(said) if said is not None and letter_size else ""
    if text and letter_size:
        draw_text(image, (side / 2, side / 2), text, letter_size, fg=fg, bg=fill, bold=True, anchor="m")
    return Sprite(image, None)


@lru_cache(maxsize=64)
def seat_sprite(seat: str, radius: int, background: str = "page") -> Sprite:
    """A seat's mark: p1 a red disc with a white ring, p2 a blue square with a white frame."""
    side = 2 * radius + 4

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = radius * scale
        white = rgb("symbol")
        fill = rgb(SEAT_FILL.get(seat, "ghost"))
        bar = max(2.0, radius * 0.16) * scale
        if SEAT_SHAPE.get(seat) == "disc":
            draw.ellipse([c - r, c - r, c + r, c + r], fill=fill)
            inner = r * 0.55
            draw.ellipse([c - inner, c - inner, c + inner, c + inner], fill=white)
            hole = inner - bar
            draw.ellipse([c - hole, c - hole, c + hole, c + hole], fill=fill)
        else:
            s = r * 0.9  # a square looks larger than a disc of the same width
            draw.rectangle([c - s, c - s, c + s, c + s], fill=fill)
            inner = s * 0.52
            draw.rectangle([c - inner, c - inner, c + inner, c + inner], fill=white)
            hole = inner - bar
            draw.rectangle([c - hole, c - hole, c + hole, c + hole], fill=fill)

    return smooth_sprite(side, background, paint)


def seat_symbol(seat: str, background: str) -> Sprite | None:
    """The seat's mark for a player row (drawn on the row's background)."""
    return seat_sprite(seat, 16, background) if seat in SEAT_FILL else None


ANOMALY_WORDS = {
    "rectangle-adverse": "rect.-adverse",
    "pick-your-prize": "pick prize",
}


#: The anomalies whose names a narrow cell abbreviates.
SHORT_ANOMALY_PHRASES: dict[str, Message] = {
    "rectangle-adverse": say_c("anomaly, short", "rect.-adverse"),
    "pick-your-prize": say_c("anomaly, short", "pick prize"),
}


def anomaly_phrase(name: str, short: bool = False) -> Argument:
    """An anomaly's name (canonical) as a phrase of a message (``short``: abbreviated for a
    narrow cell)."""
    if short and name in SHORT_ANOMALY_PHRASES:
        return SHORT_ANOMALY_PHRASES[name]
    return ANOMALY_PHRASES.get(name) or Verbatim(name)


def anomaly_word(name: str, short: bool = False) -> str:
    """An anomaly's name as a player reads it (``short``: abbreviated for a narrow cell)."""
    if short:
        return ANOMALY_WORDS.get(name, name)
    return name.replace("-", " ")


def draw_text_over(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fg: str,
    bg: str,
    bold: bool = False,
    notation: bool = False,
) -> None:
    """One line of text centred on ``xy``, glyph by glyph through each glyph's mask, so that what
    lies under the text box (a ring, a frame) shows between the letters (``draw_text``'s
    ``masked``; its plain way lays a solid box of ``bg`` under the text, which would cut a pattern).
    """
    draw_text(canvas, xy, text, size, fg=fg, bg=bg, bold=bold, anchor="m", notation=notation, masked=True)


def either(items: list[str]) -> Argument:
    """Squares (notation) as alternatives: "C3 or C4 or D5"."""
    said: Argument = Verbatim(items[0])
    for item in items[1:]:
        said = say("{first} or {then}", first=said, then=Verbatim(item))
    return said


def anomaly_names(names: list[str]) -> Listing:
    """Anomalies (canonical names) as the title line lists them: "chain, rainbow"."""
    return Listing(tuple(anomaly_phrase(name) for name in names))


def anomaly_heading(names: list[str]) -> list[Argument]:
    """The title line's part that names the anomalies, or none for none."""
    return [anomaly_names(names)] if names else []
