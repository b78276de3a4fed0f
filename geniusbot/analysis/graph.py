"""The review's graph as a picture: the first seat's advantage after each move, a line from -1
(lost) to 1 (won), the marked moves ringed. Drawn with the house toolkit (:mod:`geniusbot.render`)
on the house palette; its alt text is :func:`~.said.graph_said`."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from geniusbot.render.layout import card_words
from geniusbot.render.palette import ink, new_canvas
from geniusbot.render.png import encode_png
from geniusbot.render.text import draw_text
from geniusbot.words import ENGLISH, Seat, say

from .review import Review

WIDTH, HEIGHT = 640, 240
#: The margins around the plot: the labels on the left, the move numbers below.
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 28, 28


def _point(review: Review, step: int, value: float, width: int = WIDTH) -> tuple[float, float]:
    steps = max(len(review.graph) - 1, 1)
    x = LEFT + (width - LEFT - RIGHT) * step / steps
    y = TOP + (HEIGHT - TOP - BOTTOM) * (1 - value) / 2
    return x, y


def draw_graph(
    review: Review, language: str = ENGLISH, names: Mapping[str, str] | None = None, width: int = WIDTH
) -> Image.Image:
    """The graph of ``review`` as a palette image ``width`` wide (a GIF's frame: the boards' width)."""
    words = card_words(language, names)
    canvas = new_canvas((width, HEIGHT))
    draw = ImageDraw.Draw(canvas)
    top, middle, bottom = _point(review, 0, 1)[1], _point(review, 0, 0)[1], _point(review, 0, -1)[1]
    right = width - RIGHT
    draw.rectangle((LEFT, top, right, bottom), fill=ink("slate"))
    draw.line((LEFT, middle, right, middle), fill=ink("muted"), width=1)
    draw_text(canvas, (LEFT - 6, top + 6), words(say("{seat}", seat=Seat(review.seats[0]))), 12, fg="text", anchor="r")
    draw_text(
        canvas, (LEFT - 6, bottom - 6), words(say("{seat}", seat=Seat(review.seats[1]))), 12, fg="text", anchor="r"
    )
    draw_text(canvas, (LEFT, 12), words(say("Who was ahead after each move")), 13, fg="text")
    points = [_point(review, step, value, width) for step, value in enumerate(review.graph)]
    if len(points) > 1:
        draw.line(points, fill=ink("accent"), width=2)
    for index in review.marked:
        x, y = points[index + 1]
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), outline=ink("last"), width=2)
    labels = {0: 0, **{n: m.index for n, m in enumerate(review.moves, 1) if n == len(review.moves)}}
    labels.update({i + 1: review.moves[i].index for i in review.marked})
    for at, step in sorted(labels.items()):
        draw_text(canvas, (points[at][0], HEIGHT - 12), str(step), 11, fg="muted", anchor="m", notation=True)
    return canvas


def graph_png(review: Review, language: str = ENGLISH, names: Mapping[str, str] | None = None) -> bytes:
    """The graph as PNG bytes."""
    return encode_png(draw_graph(review, language, names))
