"""Helpers for the renderer tests: decode the PNG and read colours back."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from geniusbot.render.palette import rgb

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    """The PNG ``data`` as an RGB image, after checking it is a complete, valid PNG."""
    assert data.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(data)) as probe:
        assert probe.format == "PNG"
        probe.verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def colour_at(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    """The RGB colour at ``xy`` (rounded to whole pixels)."""
    return image.getpixel((int(round(xy[0])), int(round(xy[1]))))  # type: ignore[return-value]


def colour_bbox(
    image: Image.Image, name: str, box: tuple[int, int, int, int] | None = None
) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1 exclusive) of the pixels of the named colour inside
    ``box`` (default: the whole image), or ``None`` when there are none."""
    target = rgb(name)
    region = image if box is None else image.crop(box)
    masks = [band.point([255 if v == want else 0 for v in range(256)]) for band, want in zip(region.split(), target)]
    found = ImageChops.multiply(ImageChops.multiply(masks[0], masks[1]), masks[2]).getbbox()
    if found is None or box is None:
        return found
    return found[0] + box[0], found[1] + box[1], found[2] + box[0], found[3] + box[1]


def within(found: tuple[int, int, int, int] | None, centre: tuple[float, float], reach: float) -> bool:
    """Whether a bounding box exists and lies within ``reach`` pixels of ``centre`` on every side."""
    if found is None:
        return False
    x0, y0, x1, y1 = found
    cx, cy = centre
    return cx - reach <= x0 and x1 - 1 <= cx + reach and cy - reach <= y0 and y1 - 1 <= cy + reach
