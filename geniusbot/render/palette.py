"""The house palette: the named colours of every picture, their blend ramps, blank canvases.

Every picture is a palette ("P") image with one fixed palette for the whole package. A palette
image encodes several times faster than RGB and a fixed palette keeps the output byte-for-byte
deterministic. Palette images have no anti-aliasing of their own, so what must look smooth
(stones, text) is drawn onto a known background colour and mapped onto the palette, which holds
blend ramps (:data:`RAMP_STEPS` shades) for the colour pairs of :data:`_RAMP_PAIRS`.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

RGB = tuple[int, int, int]


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
    # A wooden go board, its grid and stones
    "wood": (222, 178, 104),
    "grid": (70, 48, 20),
    "black_stone": (20, 20, 22),
    "white_stone": (250, 250, 246),
    "last": (230, 30, 60),  # the last-move marker, used by nothing else
    # A stone-grey board of squares and its coloured stones
    "cell": (214, 210, 200),
    "cell_line": (120, 114, 104),
    "red_stone": (214, 40, 52),
    "blue_stone": (30, 100, 210),
    "symbol": (255, 255, 255),
    "ghost": (150, 142, 128),
    "frame": (16, 16, 16),  # last-move corners on the stone-grey board
    "outline": (48, 40, 30),  # the dark edge of a winning bar
    # Dots and lines on a dark slate
    "slate": (44, 50, 62),
    "dot": (196, 202, 214),
    "wire": (232, 232, 236),
    "slack": (120, 200, 255),
    "orange_piece": (250, 140, 30),
    "blue_piece": (60, 140, 255),
    "path": (255, 230, 120),
    # Tiles of six colours (red, orange and blue are the colours above), and the empty tile of a
    # hidden grid; every coloured tile also carries its letter
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
            entries.append(
                (round(b[0] + (a[0] - b[0]) * t), round(b[1] + (a[1] - b[1]) * t), round(b[2] + (a[2] - b[2]) * t))
            )
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
def palette_image() -> Image.Image:
    """A 1 x 1 image with the house palette, for ``quantize`` to map RGB pixels onto it."""
    image = Image.new("P", (1, 1))
    image.putpalette(PALETTE)
    return image


def new_canvas(size: tuple[int, int], background: str = "page") -> Image.Image:
    """A blank palette image of ``size`` filled with a named colour, with the house palette."""
    image = Image.new("P", size, ink(background))
    image.putpalette(PALETTE)
    return image
