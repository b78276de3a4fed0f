"""Shared drawing for every renderer: the palette, fonts, text and sprite caches, frames, PNG.

Every picture is a palette ("P") image with one fixed palette for the whole package. A palette
image encodes several times faster than RGB and a fixed palette keeps the output byte-for-byte
deterministic. Palette images have no anti-aliasing of their own, so what must look smooth
(stones, text) is drawn once, super-sampled, onto a known background colour, mapped onto the
palette (which holds blend ramps for those colour pairs) and cached as a sprite; a render then only
pastes sprites onto a cached background.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from . import png

RGB = tuple[int, int, int]

# ----------------------------------------------------------------------------- colours

# Named colours of every renderer. High contrast on a dark card, which reads well in Discord's
# dark theme and still stands out as a card in the light one.
COLOURS: dict[str, RGB] = {
    "page": (30, 33, 40),  # the card behind everything
    "band": (52, 58, 72),  # the row of the player to move
    "text": (238, 240, 244),
    "muted": (160, 168, 182),  # coordinates, secondary text
    "accent": (255, 196, 0),  # to-move marker, winning lines, banners
    "banner_text": (28, 24, 10),
    "draw_banner": (150, 160, 178),
    # Tic-Tac-Five: a wooden go board
    "wood": (222, 178, 104),
    "grid": (70, 48, 20),
    "black_stone": (20, 20, 22),
    "white_stone": (250, 250, 246),
    "last": (230, 30, 60),  # the last-move marker, used by nothing else
    # Arm's Length: a stone-grey board of squares
    "cell": (214, 210, 200),
    "cell_line": (120, 114, 104),
    "red_stone": (214, 40, 52),
    "blue_stone": (30, 100, 210),
    "symbol": (255, 255, 255),
    "ghost": (150, 142, 128),
    "frame": (16, 16, 16),  # Arm's Length last-move corners, used by nothing else there
    "outline": (48, 40, 30),  # the dark edge of a winning bar
    # Tightwire: dots on a dark slate
    "slate": (44, 50, 62),
    "dot": (196, 202, 214),
    "wire": (232, 232, 236),
    "slack": (120, 200, 255),
    "orange_piece": (250, 140, 30),
    "blue_piece": (60, 140, 255),
    "path": (255, 230, 120),
    # All Hands On Deck: tiles of six colours (red, orange and blue are the colours above), the
    # empty tile of a hidden grid; every coloured tile also carries its letter
    "green_tile": (40, 150, 76),
    "yellow_tile": (240, 222, 60),
    "purple_tile": (142, 72, 196),
    "empty_tile": (84, 92, 110),
}

# Colour pairs (foreground, background) that get a blend ramp in the palette, for smooth text
# and smooth sprite edges. Add a pair here when something new is drawn onto a new background.
_RAMP_PAIRS: tuple[tuple[str, str], ...] = (
    ("text", "page"),
    ("text", "band"),
    ("muted", "page"),
    ("muted", "band"),
    ("accent", "page"),
    ("accent", "band"),
    ("banner_text", "accent"),
    ("banner_text", "draw_banner"),
    ("black_stone", "wood"),
    ("white_stone", "wood"),
    ("black_stone", "white_stone"),
    ("black_stone", "page"),
    ("black_stone", "band"),
    ("white_stone", "page"),
    ("white_stone", "band"),
    ("last", "black_stone"),
    ("last", "wood"),
    ("accent", "wood"),
    ("accent", "black_stone"),
    ("accent", "white_stone"),
    ("red_stone", "cell"),
    ("blue_stone", "cell"),
    ("symbol", "red_stone"),
    ("symbol", "blue_stone"),
    ("red_stone", "page"),
    ("red_stone", "band"),
    ("blue_stone", "page"),
    ("blue_stone", "band"),
    ("frame", "cell"),
    ("ghost", "cell"),
    ("ghost", "slate"),
    ("outline", "cell"),
    ("accent", "cell"),
    ("accent", "red_stone"),
    ("accent", "blue_stone"),
    ("orange_piece", "slate"),
    ("blue_piece", "slate"),
    ("orange_piece", "page"),
    ("orange_piece", "band"),
    ("blue_piece", "page"),
    ("blue_piece", "band"),
    ("frame", "orange_piece"),
    ("frame", "blue_piece"),
    ("frame", "slate"),
    ("dot", "slate"),
    ("muted", "slate"),
    ("symbol", "green_tile"),
    ("symbol", "purple_tile"),
    ("banner_text", "orange_piece"),
    ("banner_text", "yellow_tile"),
    ("text", "empty_tile"),
    ("text", "slate"),
)
RAMP_STEPS = 4  # intermediate shades between the two ends of a pair


def _build_palette() -> tuple[list[RGB], dict[str, int], dict[tuple[str, str], list[int]]]:
    entries: list[RGB] = []
    index: dict[str, int] = {}
    for name, rgb in COLOURS.items():
        index[name] = len(entries)
        entries.append(rgb)
    ramps: dict[tuple[str, str], list[int]] = {}
    for fg, bg in _RAMP_PAIRS:
        a, b = COLOURS[fg], COLOURS[bg]
        steps = [index[bg]]
        for k in range(1, RAMP_STEPS + 1):
            t = k / (RAMP_STEPS + 1)
            steps.append(len(entries))
            entries.append(tuple(round(b[i] + (a[i] - b[i]) * t) for i in range(3)))  # type: ignore[misc]
        steps.append(index[fg])
        ramps[(fg, bg)] = steps
    if len(entries) > 256:
        raise RuntimeError(f"the render palette needs {len(entries)} entries; a PNG palette holds 256")
    return entries, index, ramps


PALETTE_ENTRIES, _INDEX, _RAMPS = _build_palette()
# Unused entries repeat the page colour, so nearest-colour mapping never lands on them.
PALETTE: list[int] = [c for rgb in PALETTE_ENTRIES for c in rgb] + list(COLOURS["page"]) * (256 - len(PALETTE_ENTRIES))


def ink(name: str) -> int:
    """The palette index of a named colour."""
    return _INDEX[name]


def rgb(name: str) -> RGB:
    """The RGB value of a named colour (what a test reads back from the PNG)."""
    return COLOURS[name]


def ramp(fg: str, bg: str) -> list[int]:
    """Palette indices from ``bg`` (coverage 0) to ``fg`` (full coverage)."""
    try:
        return _RAMPS[(fg, bg)]
    except KeyError:
        pass
    if (bg, fg) in _RAMPS:
        # The same two colours the other way round: the same shades, read backwards.
        return _RAMPS[(bg, fg)][::-1]
    # No ramp declared: fall back to a hard edge rather than fail a render.
    return [_INDEX[bg]] * (RAMP_STEPS + 1) + [_INDEX[fg]]


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(PALETTE)
    return image


def new_canvas(size: tuple[int, int], background: str = "page") -> Image.Image:
    """A blank palette image of ``size`` filled with a named colour, with the house palette."""
    image = Image.new("P", size, ink(background))
    image.putpalette(PALETTE)
    return image


# ----------------------------------------------------------------------------- PNG

# Pillow's own PNG settings for these cards, the baseline the renderers are timed against
# (bench/bench_render.py): zlib level 2 packs the flat cards to a few tens of kilobytes for the CPU
# of level 1, while higher levels cost several times the CPU for a few kilobytes less.
PNG_SETTINGS: Mapping[str, object] = {"format": "PNG", "compress_level": 2, "optimize": False}


def encode_png(image: Image.Image) -> bytes:
    """The PNG bytes of ``image``, encoded in bands of rows with the unchanged bands of earlier
    pictures reused (``geniusbot.render.png``); zlib level 2, as ``PNG_SETTINGS``."""
    return png.encode_png(image)


# ----------------------------------------------------------------------------- fonts and text


# The font file every picture's text is drawn with (the FONT_PATH setting); None = Pillow's
# built-in Aileron, which has ASCII and a few signs only. Set once at start-up by configure_font.
_font_path: str | None = None

# Characters every font for the boards must have: the coordinates, clocks and status lines.
_NEEDED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def check_font(path: str | os.PathLike[str]) -> str:
    """The absolute path of the font file at ``path``, after checking that Pillow can draw the
    boards' letters and digits with it; ``ValueError`` saying what is wrong otherwise."""
    where = Path(path).expanduser()
    if not where.exists():
        raise ValueError(f"FONT_PATH: there is no file at {str(where)!r}")
    if where.is_dir():
        raise ValueError(f"FONT_PATH: {str(where)!r} is a directory; give the path of a .ttf, .otf or .ttc file")
    try:
        face = ImageFont.truetype(str(where), 24)
    except OSError as error:
        raise ValueError(
            f"FONT_PATH: {str(where)!r} is not a font Pillow can read ({error}); give a TrueType or "
            "OpenType file (.ttf, .otf, .ttc)"
        ) from None
    notdef = _signature(face, _NO_SUCH_CHAR)
    missing = "".join(ch for ch in _NEEDED if _signature(face, ch) == notdef)
    if missing:
        raise ValueError(
            f"FONT_PATH: {str(where)!r} cannot draw {missing[:12]!r}, which every board uses; choose a "
            "font with Latin letters and digits (Noto Sans CJK and NanumGothic have them)"
        )
    return str(where.resolve())


def configure_font(path: str | os.PathLike[str] | None) -> None:
    """Draw every picture's text with the font file at ``path``; ``None``: Pillow's built-in font.

    Called once at start-up from the FONT_PATH setting (see :func:`check_font` for what it
    refuses, with ``ValueError``). A change empties the caches of the package that hold drawn
    text, so the next picture uses the new font throughout.
    """
    global _font_path
    chosen = None if path is None else check_font(path)
    if chosen == _font_path:
        return
    _font_path = chosen
    _clear_caches()


def font_path() -> str | None:
    """The font file the pictures use, or ``None`` for Pillow's built-in font."""
    return _font_path


def _clear_caches() -> None:
    # Every renderer caches sprites and backgrounds with text on them (coordinates, card values):
    # empty every function cache of the package rather than keep a list that could fall behind.
    package = __name__.rpartition(".")[0]
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) == name and callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The boards' font at ``size`` pixels: the FONT_PATH file, else Pillow's built-in Aileron."""
    if _font_path is not None:
        return ImageFont.truetype(_font_path, size)
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


# ----------------------------------------------------------------------------- missing glyphs

# A font draws a character it has no glyph for as its .notdef glyph (a box: "tofu"). Pillow does
# not tell which characters a font maps, so a character counts as missing when it draws exactly
# like a noncharacter that no font maps. The answer is cached per character and font.
_NO_SUCH_CHAR = "\U0010ffff"
_PROBE_SIZE = 24
# Never drawn: control and format characters (zero-width joiners, direction marks), surrogates,
# and variation selectors (emoji presentation), which mean nothing glyph by glyph.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _is_variation_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _signature(face: ImageFont.FreeTypeFont, char: str) -> tuple[float, bytes]:
    side = face.size * 3
    probe = Image.new("L", (side, side), 0)
    ImageDraw.Draw(probe).text((face.size, face.size // 2), char, font=face, fill=255)
    return face.getlength(char), probe.tobytes()


@lru_cache(maxsize=1)
def _notdef() -> tuple[float, bytes]:
    return _signature(font(_PROBE_SIZE), _NO_SUCH_CHAR)


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """Whether the boards' font draws ``char`` as itself (not as its missing-glyph box)."""
    if char == " ":
        return True
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES or _is_variation_selector(char):
        return False
    try:
        return _signature(font(_PROBE_SIZE), char) != _notdef()
    except (OSError, ValueError, UnicodeError):
        return False


@lru_cache(maxsize=8192)
def _stand_in(char: str) -> str:
    """What is drawn for ``char``: itself, a space for any space or control character, the
    character without its accents when only those are missing ("é" -> "e", full-width "Ａ" ->
    "A"), else nothing."""
    if char.isspace() or unicodedata.category(char) == "Cc":
        return " "
    if has_glyph(char):
        return char
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if plain and plain != char and all(has_glyph(c) for c in plain):
        return plain
    return ""


@lru_cache(maxsize=4096)
def _drawable(text: str) -> tuple[str, bool]:
    pieces = [_stand_in(ch) for ch in unicodedata.normalize("NFC", text)]
    shown = "".join(pieces)
    lost = not all(pieces)
    if lost:
        # "Bob 🎲 Lee" -> "Bob Lee", not "Bob  Lee"
        shown = " ".join(shown.split())
    return shown, lost


def drawable_text(text: str) -> str:
    """``text`` as the boards' font can draw it: characters it has no glyph for are left out
    (never drawn as boxes), accents it lacks are dropped from their letters, spaces and control
    characters become plain spaces. Pure and cached."""
    return _drawable(text)[0]


@lru_cache(maxsize=1024)
def drawable_name(name: str, seat: str) -> str:
    """A player's display name as the boards draw it: :func:`drawable_text` of ``name``, or the
    seat id (``p1``) when the font cannot draw enough of it to read (no letter or digit is left
    of a name that lost characters, e.g. a Korean name in a Latin font). Pure and cached: names
    are drawn on every picture."""
    shown, lost = _drawable(name)
    shown = " ".join(shown.split())
    if not shown or (lost and not any(unicodedata.category(c)[0] in "LN" for c in shown)):
        return seat
    return shown


@lru_cache(maxsize=4096)
def _advance(char: str, size: int) -> float:
    shown = _stand_in(char)
    return font(size).getlength(shown) if shown else 0.0


def text_width(text: str, size: int, bold: bool = False) -> int:
    """The advance width of ``text`` in pixels, as :func:`draw_text` lays it out."""
    return int(round(sum(_advance(ch, size) for ch in text))) + (2 if bold else 0)


@dataclass(frozen=True)
class Sprite:
    """A cached piece of picture: palette pixels and, if its shape is not a full box, a mask."""

    image: Image.Image
    mask: Image.Image | None

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def _coverage_to_sprite(coverage: Image.Image, fg: str, bg: str) -> Image.Image:
    steps = ramp(fg, bg)
    n = len(steps) - 1
    lut = [steps[(value * n + 127) // 255] for value in range(256)]
    indices = coverage.point(lut)
    sprite = Image.frombytes("P", indices.size, indices.tobytes())
    sprite.putpalette(PALETTE)
    return sprite


_GLYPH_PAD = 3  # room for side bearings and the bold stroke on either side of the advance box


@lru_cache(maxsize=8192)
def glyph_sprite(char: str, size: int, fg: str = "text", bg: str = "page", bold: bool = False) -> Sprite:
    """One character drawn smoothly in ``fg`` over ``bg``, ``_GLYPH_PAD`` pixels in from the left.

    Text is laid out glyph by glyph from these: a clock or a status line changes with every
    picture, and drawing whole strings afresh with FreeType would cost more than the rest of the
    picture together.
    """
    face = font(size)
    ascent, descent = face.getmetrics()
    width = int(_advance(char, size)) + 2 * _GLYPH_PAD + 2
    coverage = Image.new("L", (width, ascent + descent + 2), 0)
    stroke = 1 if bold else 0
    shown = _stand_in(char)  # a glyph the font lacks draws as nothing, never as a box
    if shown.strip():
        ImageDraw.Draw(coverage).text((_GLYPH_PAD, 0), shown, font=face, fill=255, stroke_width=stroke, stroke_fill=255)
    mask = coverage.point([0] + [255] * 255).convert("1")
    return Sprite(_coverage_to_sprite(coverage, fg, bg), mask)


def paste(canvas: Image.Image, sprite: Sprite, xy: tuple[int, int]) -> None:
    """Paste ``sprite`` with its top-left corner at ``xy`` (it must lie inside the canvas)."""
    x, y = xy
    w, h = sprite.size
    # The core paste skips Image.paste's argument juggling, which costs more than the copy itself
    # for sprites this small; both images share the house palette, so no conversion is needed.
    box = (x, y, x + w, y + h)
    if sprite.mask is None:
        canvas.im.paste(sprite.image.im, box)
    else:
        canvas.im.paste(sprite.image.im, box, sprite.mask.im)


def paste_centred(canvas: Image.Image, sprite: Sprite, centre: tuple[float, float]) -> None:
    """Paste ``sprite`` centred on ``centre``."""
    w, h = sprite.size
    paste(canvas, sprite, (int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))))


def stamp(canvas: Image.Image, sprite: Sprite, centres: Iterable[tuple[float, float]]) -> None:
    """Paste ``sprite`` centred on each of ``centres``: the stones of a board, in one loop."""
    w, h = sprite.size
    core, image = canvas.im, sprite.image.im
    mask = sprite.mask.im if sprite.mask is not None else None
    for cx, cy in centres:
        x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
        if mask is None:
            core.paste(image, (x, y, x + w, y + h))
        else:
            core.paste(image, (x, y, x + w, y + h), mask)


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, fg: str = "text", bg: str = "page", bold: bool = False) -> Sprite:
    """One line of ``text`` on a solid ``bg`` box, laid out glyph by glyph from cached glyphs.

    A clock or a status line changes with every picture; composing it from cached glyphs costs a
    small fraction of drawing it with FreeType, which would cost more than the rest of the picture.
    """
    width = text_width(text, size, bold)
    ascent, descent = font(size).getmetrics()
    line = Image.new("P", (width + 2 * _GLYPH_PAD, ascent + descent + 2), ink(bg))
    pen = _GLYPH_PAD + (1 if bold else 0)
    for char in text:
        if char != " ":
            paste(line, glyph_sprite(char, size, fg, bg, bold), (int(round(pen)) - _GLYPH_PAD, 0))
        pen += _advance(char, size)
    line.putpalette(PALETTE)
    return Sprite(line, None)


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
) -> int:
    """Draw one line of text vertically centred on ``xy[1]``; ``anchor`` l/m/r places ``xy[0]``.

    Returns the width drawn. The text sits on a solid box of ``bg``, so it must go on that colour.
    """
    # No boxes for characters the font lacks; a newline or tab in a display name is a space.
    text = drawable_text(text)
    if not text:
        return 0
    sprite = text_sprite(text, size, fg, bg, bold)
    width = sprite.size[0] - 2 * _GLYPH_PAD
    x = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor]
    # Centre on the cap height, not on the full line box, so digits and capitals look centred.
    top = xy[1] - font(size).getmetrics()[0] * 0.62
    paste(canvas, sprite, (int(round(x)) - _GLYPH_PAD, int(round(top))))
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


# ----------------------------------------------------------------------------- smooth sprites

SUPERSAMPLE = 4


def smooth_sprite(
    size: int,
    background: str,
    paint: Callable[[ImageDraw.ImageDraw, float], None],
    *,
    masked: bool = True,
) -> Sprite:
    """A ``size`` x ``size`` sprite painted by ``paint(draw, scale)`` on an RGBA canvas drawn
    ``SUPERSAMPLE`` times larger, shrunk, laid on ``background`` and mapped onto the palette.

    With ``masked``, pixels that ``paint`` left transparent are left out when pasting, so the
    board under the sprite (grid lines) shows through.
    """
    big = size * SUPERSAMPLE
    layer = Image.new("RGBA", (big, big), (*COLOURS[background], 0))
    paint(ImageDraw.Draw(layer), SUPERSAMPLE)
    small = layer.resize((size, size), Image.Resampling.BOX)
    flat = Image.new("RGB", (size, size), COLOURS[background])
    flat.paste(small, (0, 0), small)
    mapped = flat.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    mapped.putpalette(PALETTE)
    mask = None
    if masked:
        mask = small.getchannel("A").point(lambda a: 255 if a >= 40 else 0).convert("1")
    return Sprite(mapped, mask)


# ----------------------------------------------------------------------------- shapes


def arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    fill: int,
    width: int = 4,
    head: float = 14,
) -> None:
    """A straight arrow from ``start`` to ``end`` with a filled triangular head at ``end``."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    bx, by = x1 - ux * head, y1 - uy * head
    draw.line([(x0, y0), (bx, by)], fill=fill, width=width)
    px, py = -uy * head * 0.55, ux * head * 0.55
    draw.polygon([(x1, y1), (bx + px, by + py), (bx - px, by - py)], fill=fill)


@lru_cache(maxsize=32)
def ghost_sprite(shape: str, radius: int, crossed: bool, background: str) -> Sprite:
    """A dashed outline (``"disc"`` or ``"square"``) where a piece was, crossed out if ``crossed``.

    Cached: dashes are many small strokes, too slow to draw afresh for every picture.
    """
    side = 2 * radius + 4
    colour = COLOURS["ghost"]

    def paint(draw: ImageDraw.ImageDraw, scale: float) -> None:
        c = side * scale / 2
        r = (radius - 2) * scale
        width = max(2, round(3 * scale))
        if shape == "square":
            s = r * 0.9
            dash = 8 * scale
            for a, b, horizontal, fixed in (
                (c - s, c + s, True, c - s),
                (c - s, c + s, True, c + s),
                (c - s, c + s, False, c - s),
                (c - s, c + s, False, c + s),
            ):
                pos = a
                while pos < b:
                    end = min(pos + dash, b)
                    if horizontal:
                        draw.rectangle([pos, fixed - width / 2, end, fixed + width / 2], fill=colour)
                    else:
                        draw.rectangle([fixed - width / 2, pos, fixed + width / 2, end], fill=colour)
                    pos += dash * 2
        else:
            dashes = 14
            step = 360 / dashes
            for k in range(dashes):
                draw.arc([c - r, c - r, c + r, c + r], k * step, k * step + step * 0.55, fill=colour, width=width)
        if crossed:
            arm = radius * 0.5 * scale
            stroke = round(4.5 * scale)
            draw.line([(c - arm, c - arm), (c + arm, c + arm)], fill=colour, width=stroke)
            draw.line([(c - arm, c + arm), (c + arm, c - arm)], fill=colour, width=stroke)

    return smooth_sprite(side, background, paint)


def triangle_right(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, fill: int) -> None:
    """A right-pointing filled triangle: the mark of the player to move."""
    x, y = centre
    draw.polygon(
        [(x - size * 0.45, y - size * 0.55), (x - size * 0.45, y + size * 0.55), (x + size * 0.6, y)], fill=fill
    )


# ----------------------------------------------------------------------------- cards


def seat_name(seat: str | None, players: Mapping[str, str] | None) -> str:
    """The display name of ``seat`` as the boards' font can draw it (:func:`drawable_name`): the
    host's name for it, else "Player 1" / "Player 2"."""
    if seat is None:
        return "nobody"
    if players and players.get(seat):
        return drawable_name(str(players[seat]), seat)
    return {"p1": "Player 1", "p2": "Player 2"}.get(seat, seat)


_SEAT_WORD = re.compile(r"\b(p1|p2)\b")


def with_names(text: str, players: Mapping[str, str] | None) -> str:
    """``text`` (an outcome reason from the rules) with the seat ids replaced by display names."""
    return _SEAT_WORD.sub(lambda m: seat_name(m.group(1), players), text)


def outcome_line(outcome: Mapping[str, object] | None, players: Mapping[str, str] | None) -> str | None:
    """The banner text for an outcome, or ``None`` while the game runs."""
    if not outcome:
        return None
    winner = outcome.get("winner")
    reason = with_names(str(outcome.get("reason") or ""), players).strip().rstrip(".")
    head = f"{seat_name(str(winner), players)} wins" if winner else "Draw"
    if not reason:
        return head
    # Reasons from the rules often already name the winner ("...; p2 wins", "p2 makes five
    # and wins"): say it once.
    name = seat_name(str(winner), players).lower() if winner else ""
    if winner and name in reason.lower() and "win" in reason.lower():
        return reason
    return f"{head}: {reason}"


@dataclass(frozen=True)
class PlayerRow:
    """What one player's row of the card shows."""

    seat: str
    name: str
    symbol: Sprite | None  # the player's stone, if they have a colour yet
    detail: str  # e.g. "black", "red · first", "knocked off 3/10"
    clock: str | None
    to_move: bool


ROW_HEIGHT = 54
TITLE_HEIGHT = 46
FOOTER_HEIGHT = 62
HEADER_HEIGHT = TITLE_HEIGHT + 2 * ROW_HEIGHT + 8
NAME_SIZE = 30
DETAIL_SIZE = 25
TITLE_SIZE = 25
STATUS_SIZE = 27


def draw_header(canvas: Image.Image, title: str, rows: Sequence[PlayerRow]) -> None:
    """The title line and the two player rows at the top of the card."""
    width = canvas.width
    draw = ImageDraw.Draw(canvas)
    draw_text(canvas, (22, TITLE_HEIGHT / 2 + 2), fit_text(title, TITLE_SIZE, width - 44), TITLE_SIZE, fg="muted")
    for k, row in enumerate(rows):
        top = TITLE_HEIGHT + k * ROW_HEIGHT
        mid = top + ROW_HEIGHT / 2
        bg = "band" if row.to_move else "page"
        if row.to_move:
            draw.rectangle([0, top + 2, width - 1, top + ROW_HEIGHT - 3], fill=ink("band"))
            triangle_right(draw, (24, mid), 22, ink("accent"))
        x = 48
        if row.symbol is not None:
            paste_centred(canvas, row.symbol, (x + 18, mid))
        x += 46
        right = width - 22
        if row.clock:
            right -= draw_text(canvas, (right, mid), row.clock, NAME_SIZE, fg="text", bg=bg, bold=True, anchor="r")
            right -= 22
        if row.detail:
            # The detail may use what a short name leaves; a long name still keeps half the row.
            room = max((right - x) // 2, right - x - text_width(row.name, NAME_SIZE, True) - 18)
            detail = fit_text(row.detail, DETAIL_SIZE, max(0, room))
            right -= draw_text(canvas, (right, mid), detail, DETAIL_SIZE, fg="muted", bg=bg, anchor="r")
            right -= 18
        name = fit_text(row.name, NAME_SIZE, max(0, right - x), True)
        draw_text(canvas, (x, mid), name, NAME_SIZE, fg="text", bg=bg, bold=True)


def draw_footer(canvas: Image.Image, status: str, banner: str | None) -> None:
    """The bottom line: the outcome as a banner once the game is over, else the status."""
    width, height = canvas.size
    top = height - FOOTER_HEIGHT
    mid = top + FOOTER_HEIGHT / 2
    if banner is not None:
        bg = "accent" if not banner.startswith("Draw") else "draw_banner"
        ImageDraw.Draw(canvas).rectangle([0, top + 4, width - 1, height - 1], fill=ink(bg))
        size = NAME_SIZE
        if text_width(banner, size, True) > width - 40:
            size = STATUS_SIZE
        text = fit_text(banner, size, width - 40, True)
        draw_text(canvas, (width / 2, mid + 2), text, size, fg="banner_text", bg=bg, bold=True, anchor="m")
    elif status:
        text = fit_text(status, STATUS_SIZE, width - 44)
        draw_text(canvas, (22, mid), text, STATUS_SIZE, fg="text")


def player_rows(
    view: Mapping[str, object],
    players: Mapping[str, str] | None,
    clocks: Mapping[str, str] | None,
    symbol: Callable[[str, str], Sprite | None],
    detail: Callable[[str], str],
    *,
    order: Sequence[str] = ("p1", "p2"),
) -> list[PlayerRow]:
    """The two player rows, built from the view with the renderer's symbol and detail.

    ``symbol(seat, background)`` gives the seat's stone drawn on the row's background colour.
    """
    movers = set(view.get("to_move") or ())  # type: ignore[arg-type]
    rows = []
    for seat in order:
        to_move = seat in movers and not view.get("outcome")
        rows.append(
            PlayerRow(
                seat=seat,
                name=seat_name(seat, players),
                symbol=symbol(seat, "band" if to_move else "page"),
                detail=detail(seat),
                clock=(clocks or {}).get(seat),
                to_move=to_move,
            )
        )
    return rows
