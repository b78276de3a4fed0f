"""The coordinate bands round a square board: column letters above and below it, row numbers on
its left and right, in the muted colour on the card's background."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from .text import draw_text


def coordinate_bands(
    canvas: Image.Image,
    columns: Iterable[tuple[str, float]],
    rows: Iterable[tuple[str, float]],
    *,
    top: float,
    bottom: float,
    left: float,
    right: float,
    size: int,
) -> None:
    """Each column's label centred at its ``x`` on the lines ``top`` and ``bottom``, and each
    row's label centred at its ``y`` on the lines ``left`` and ``right``.

    ``columns`` and ``rows`` are ``(label, x)`` and ``(label, y)`` pairs; ``size`` is the text's size.
    """
    for label, x in columns:
        draw_text(canvas, (x, top), label, size, fg="muted", anchor="m", notation=True)
        draw_text(canvas, (x, bottom), label, size, fg="muted", anchor="m", notation=True)
    for label, y in rows:
        draw_text(canvas, (left, y), label, size, fg="muted", anchor="m", notation=True)
        draw_text(canvas, (right, y), label, size, fg="muted", anchor="m", notation=True)
