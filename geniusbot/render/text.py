"""One line of text on a picture: widths, cut-to-fit, glyph sprites, drawing.

Text is laid out glyph by glyph from cached glyph sprites: a clock or a status line changes with
every picture, and drawing whole strings afresh with FreeType would cost more than the rest of the
picture together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import drawable_text, font, stand_in
from .palette import PALETTE, ink
from .sprites import Sprite, coverage_sprite, paste


@lru_cache(maxsize=4096)
def advance(char: str, size: int) -> float:
    """The advance width of ``char`` at ``size`` pixels, as drawn (its stand-in: nothing for a
    character the font lacks)."""
    shown = stand_in(char)
    return font(size).getlength(shown) if shown else 0.0


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """The advance width of ``text`` in pixels, as :func:`draw_text` lays it out (each text
    measured once: a picture measures its labels on every move)."""
    return int(round(sum(advance(ch, size) for ch in text))) + (2 if bold else 0)


GLYPH_PAD = 3  # room for side bearings and the bold stroke on either side of the advance box


@lru_cache(maxsize=8192)
def glyph_sprite(char: str, size: int, fg: str = "text", bg: str = "page", bold: bool = False) -> Sprite:
    """One character drawn smoothly in ``fg`` over ``bg``, ``GLYPH_PAD`` pixels in from the left.

    Text is laid out glyph by glyph from these: a clock or a status line changes with every
    picture, and drawing whole strings afresh with FreeType would cost more than the rest of the
    picture together.
    """
    face = font(size)
    ascent, descent = face.getmetrics()
    width = int(advance(char, size)) + 2 * GLYPH_PAD + 2
    coverage = Image.new("L", (width, ascent + descent + 2), 0)
    stroke = 1 if bold else 0
    shown = stand_in(char)  # a glyph the font lacks draws as nothing, never as a box
    if shown.strip():
        ImageDraw.Draw(coverage).text((GLYPH_PAD, 0), shown, font=face, fill=255, stroke_width=stroke, stroke_fill=255)
    mask = coverage.point([0] + [255] * 255).convert("1")
    return Sprite(coverage_sprite(coverage, fg, bg), mask)


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, fg: str = "text", bg: str = "page", bold: bool = False) -> Sprite:
    """One line of ``text`` on a solid ``bg`` box, laid out glyph by glyph from cached glyphs.

    A clock or a status line changes with every picture; composing it from cached glyphs costs a
    small fraction of drawing it with FreeType, which would cost more than the rest of the picture.
    """
    width = text_width(text, size, bold)
    ascent, descent = font(size).getmetrics()
    line = Image.new("P", (width + 2 * GLYPH_PAD, ascent + descent + 2), ink(bg))
    pen: float = GLYPH_PAD + (1 if bold else 0)
    for char in text:
        if char != " ":
            paste(line, glyph_sprite(char, size, fg, bg, bold), (int(round(pen)) - GLYPH_PAD, 0))
        pen += advance(char, size)
    line.putpalette(PALETTE)
    return Sprite(line, None)


#: Who hears every text a picture draws (:func:`listening`): ``(text, notation)``.
_listeners: list[Callable[[str, bool], None]] = []


@contextmanager
def listening() -> Iterator[list[tuple[str, bool]]]:
    """Every text given to :func:`draw_text` while the block runs, as ``(text, notation)`` pairs
    in the order drawn (what a test of a picture's words reads). The picture is drawn as ever;
    what a cache drew before (a background, a sprite) is not drawn again, so it is not heard:
    empty the caches first (:func:`geniusbot.render.fonts.empty_caches`) to hear it all."""
    heard: list[tuple[str, bool]] = []

    def hear(text: str, notation: bool) -> None:
        heard.append((text, notation))

    _listeners.append(hear)
    try:
        yield heard
    finally:
        _listeners.remove(hear)


def draw_text(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fg: str = "text",
    bg: str = "page",
    bold: bool = False,
    anchor: str = "l",
    notation: bool = False,
    masked: bool = False,
) -> int:
    """Draw one line of text vertically centred on ``xy[1]``; ``anchor`` l/m/r places ``xy[0]``.

    Every text a picture draws goes through here. ``text`` is said already (a message made text
    by the card's :class:`~geniusbot.words.Words`), or is ``notation``: a coordinate, a number,
    a square's name, the same in every language.

    Returns the width drawn. The text sits on a solid box of ``bg``, so it must go on that colour;
    ``masked`` draws it glyph by glyph through each glyph's mask instead, so that what lies under
    it (a ring, a frame) shows between the letters.
    """
    for hear in _listeners:
        hear(text, notation)
    if masked:
        return _draw_masked(canvas, xy, text, size, fg=fg, bg=bg, bold=bold, anchor=anchor)
    # No boxes for characters the font lacks; a newline or tab in a display name is a space.
    text = drawable_text(text)
    if not text:
        return 0
    sprite = text_sprite(text, size, fg, bg, bold)
    width = sprite.size[0] - 2 * GLYPH_PAD
    x = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor]
    top = xy[1] - _cap_offset(size)
    paste(canvas, sprite, (int(round(x)) - GLYPH_PAD, int(round(top))))
    return width


@lru_cache(maxsize=64)
def _cap_offset(size: int) -> float:
    """How far above a line's middle its box starts: text is centred on the cap height, not on
    the full line box, so that digits and capitals look centred."""
    return float(font(size).getmetrics()[0] * 0.62)


def _draw_masked(
    canvas: Image.Image, xy: tuple[float, float], text: str, size: int, *, fg: str, bg: str, bold: bool, anchor: str
) -> int:
    width = text_width(text, size, bold)
    pen = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor] + (1 if bold else 0)
    top = int(round(xy[1] - _cap_offset(size)))
    for char in text:
        if char != " ":
            paste(canvas, glyph_sprite(char, size, fg, bg, bold), (int(round(pen)) - GLYPH_PAD, top))
        pen += advance(char, size)
    return width


@lru_cache(maxsize=1024)
def fit_text(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text``, cut with an ellipsis so that it fits ``max_width`` pixels."""
    if text_width(text, size, bold) <= max_width:
        return text
    cut = text
    while cut and text_width(cut + "…", size, bold) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + "…") if cut else ""
