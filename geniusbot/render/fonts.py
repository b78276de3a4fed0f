"""The boards' font (the FONT_PATH setting) and what it can draw: glyph checks, stand-ins.

A picture's text is drawn with one font file, or Pillow's built-in Aileron; a character the font
has no glyph for is left out or drawn without its accents, never drawn as a box.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


# The packages whose function caches hold text drawn in the font, beside this one: the games'
# pictures' (games/<game>/, where Game.picture points), each told by follow_font when it is loaded.
_followers: set[str] = set()


def follow_font(package: str) -> None:
    """Empty the function caches of ``package`` (its modules') too when the font changes: a
    picture's package, whose backgrounds and sprites carry text (coordinates, card values)."""
    _followers.add(package)


def empty_caches() -> None:
    """Empty every cache of drawn text (as a new font does): the next picture draws all of its
    text afresh (what a test that hears every text drawn, ``text.listening``, needs)."""
    _clear_caches()


def _clear_caches() -> None:
    # Every picture caches sprites and backgrounds with text on them: empty every function cache
    # of this package and of the packages that follow the font, rather than keep a list of caches
    # that could fall behind.
    packages = {__name__.rpartition(".")[0], *_followers}
    for name, module in list(sys.modules.items()):
        if module is None or not any(name == package or name.startswith(package + ".") for package in packages):
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
    size = int(face.size)
    side = size * 3
    probe = Image.new("L", (side, side), 0)
    ImageDraw.Draw(probe).text((size, size // 2), char, font=face, fill=255)
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
def stand_in(char: str) -> str:
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
    pieces = [stand_in(ch) for ch in unicodedata.normalize("NFC", text)]
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
