"""Sprites: cached pieces of picture (stones, glyphs, ghosts) pasted onto a canvas, and shapes.

What must look smooth is painted once, super-sampled, onto a known background colour, mapped onto
the house palette and cached as a :class:`Sprite`; a render then only pastes sprites onto a cached
background (:func:`paste`, :func:`paste_centred`, :func:`stamp`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from .palette import COLOURS, PALETTE, palette_image, ramp


@dataclass(frozen=True)
class Sprite:
    """A cached piece of picture: palette pixels and, if its shape is not a full box, a mask."""

    image: Image.Image
    mask: Image.Image | None

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def coverage_sprite(coverage: Image.Image, fg: str, bg: str) -> Image.Image:
    """A coverage mask (``L``, 0-255) as palette pixels: ``fg`` over ``bg`` along their ramp."""
    steps = ramp(fg, bg)
    n = len(steps) - 1
    lut = [steps[(value * n + 127) // 255] for value in range(256)]
    indices = coverage.point(lut)
    sprite = Image.frombytes("P", indices.size, indices.tobytes())
    sprite.putpalette(PALETTE)
    return sprite


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
    mapped = flat.quantize(palette=palette_image(), dither=Image.Dither.NONE)
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
