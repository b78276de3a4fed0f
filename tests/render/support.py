"""Helpers for the renderer tests: decode the PNG and read colours back."""

from __future__ import annotations

import io

from PIL import Image

from geniusbot.render import common

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


def pixels_of(image: Image.Image, name: str, box: tuple[int, int, int, int] | None = None) -> list[tuple[int, int]]:
    """Every pixel (x, y) inside ``box`` (default: the whole image) that has the named colour."""
    target = common.rgb(name)
    region = image if box is None else image.crop(box)
    dx, dy = (0, 0) if box is None else box[:2]
    width = region.width
    data = region.tobytes()
    found = []
    for k in range(0, len(data), 3):
        if (data[k], data[k + 1], data[k + 2]) == target:
            n = k // 3
            found.append((dx + n % width, dy + n // width))
    return found
