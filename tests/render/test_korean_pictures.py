"""A Korean room's pictures: drawn in Korean when the boards' font has Hangul (FONT_PATH, such as
NanumGothic), and in English when it has not, so that a picture never loses its words to missing
glyphs (Pillow's built-in font has Latin letters only)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from geniusbot.games import registry
from geniusbot.pictures import render_image
from geniusbot.render import text
from geniusbot.render.fonts import configure_font, drawable_text
from geniusbot.render.layout import drawn_language
from geniusbot.words import Words

NANUM = Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
needs_nanum = pytest.mark.skipif(not NANUM.is_file(), reason=f"no NanumGothic at {NANUM} (Debian's fonts-nanum)")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
PICTURED = sorted(name for name, cls in registry().items() if cls.picture)


@pytest.fixture(autouse=True)
def built_in_font():
    configure_font(None)
    yield
    configure_font(None)


def heard(game: str, moves: int = 6) -> list[str]:
    """The words a picture of ``game`` draws in Korean after a few random moves."""
    cls = registry()[game]
    match = cls.new(seed=4)
    rng = random.Random(4)
    for _ in range(moves):
        if match.is_over or not match.to_move():
            break
        move = match.rollout_move(rng.choice(match.to_move()), rng)
        if move is not None:
            match.play(move)
    with text.listening() as said:
        render_image(match.view(), words=Words("ko", {"p1": "민수", "p2": "bob"}))
    return [line for line, notation in said if not notation]


def test_without_a_font_for_hangul_a_korean_picture_speaks_english():
    assert drawn_language("ko") == "en" and drawn_language("qps") == "qps" and drawn_language("en-GB") == "en-GB"
    for game in PICTURED:
        words = heard(game)
        assert words and not any(HANGUL.search(line) for line in words), (game, words)


@needs_nanum
@pytest.mark.parametrize("game", PICTURED)
def test_with_a_korean_font_every_picture_speaks_korean_and_loses_no_letter(game: str):
    configure_font(NANUM)
    assert drawn_language("ko") == "ko"
    words = heard(game)
    assert any(HANGUL.search(line) for line in words), words
    assert all(drawable_text(line) == " ".join(line.split()) for line in words), words
