"""The engine review on the replay page and in the GIF: the graph, the marks (:mod:`geniusbot.analysis`)."""

from __future__ import annotations

import html

from geniusbot.analysis import Review
from geniusbot.analysis.graph import graph_png
from geniusbot.analysis.said import graph_said, how_sure, mark_said, summary
from geniusbot.words import Words, say

from .page import png_uri


def review_parts(review: Review, words: Words) -> tuple[str, dict[int, str]]:
    """The page's review section (the graph with its alt text, the marks, how sure it is) and
    each marked move's line by its step, said by ``words`` (the page's language, the names)."""

    def said(text: str) -> str:
        return html.escape(text, quote=True)

    names = dict(words.names)
    marks = {m.index: words(mark_said(m)) for m in review.marked_moves()}
    items = "".join(f"<li>{said(line)}</li>" for line in marks.values())
    section = (
        f'<section id="review" aria-label="{said(words(say("Engine review")))}">'
        f"<h2>{said(words(say('Engine review')))}</h2>"
        f'<img src="{png_uri(graph_png(review, words.language, names))}" alt="{said(words(graph_said(review)))}">'
        f"<p>{said(words(summary(review)))}</p><ol>{items}</ol><p>{said(words(how_sure(review)))}</p></section>\n"
    )
    return section, marks
