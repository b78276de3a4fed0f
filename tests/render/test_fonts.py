"""Player names in any script: the FONT_PATH font, and no boxes for characters a font lacks.

Real fonts only: Pillow's built-in Aileron (ASCII and a few signs) and, when the machine has it,
DejaVu Sans (Latin, Greek, Cyrillic and many symbols, but no Hangul).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from geniusbot.games import new_game
from geniusbot.pictures import render_image, renderers
from geniusbot.render.fonts import configure_font, drawable_name, drawable_text, font, font_path, has_glyph
from geniusbot.render.palette import ink
from geniusbot.render.text import glyph_sprite, text_sprite, text_width

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
needs_dejavu = pytest.mark.skipif(not DEJAVU.is_file(), reason=f"no DejaVu Sans at {DEJAVU} on this machine")

FONTS = [
    pytest.param(None, id="built-in"),
    pytest.param(DEJAVU, id="dejavu", marks=needs_dejavu),
]


@pytest.fixture(autouse=True)
def built_in_font():
    configure_font(None)
    yield
    configure_font(None)


def picture(names: dict[str, str], title: str = "Match #1", game: str = "tictacfive") -> bytes:
    """The raw palette pixels of a board with these names (what a player sees, before PNG)."""
    return render_image(new_game(game, seed=3).view(), players=names, title=title).tobytes()


# ----------------------------------------------------------------------------- the text drawn


def test_the_built_in_font_leaves_out_what_it_cannot_draw():
    assert drawable_name("Ann", "p1") == "Ann"
    assert drawable_name("Дмитрий", "p1") == "p1"  # no Cyrillic in Aileron
    assert drawable_name("앨리스", "p2") == "p2"
    assert drawable_name("Alice 앨리스", "p1") == "Alice"
    assert drawable_name("Bob 🎲 Lee", "p2") == "Bob Lee"
    assert drawable_name("🎲🎲", "p2") == "p2"
    # Aileron has no accented letters: the letter stays, without its accent.
    assert drawable_name("José Zoë", "p1") == "Jose Zoe"
    assert drawable_name("Ｋｉｍ", "p1") == "Kim"  # full-width forms
    assert drawable_name("   ", "p1") == "p1"
    assert drawable_name("a\tb\nc", "p1") == "a b c"


@needs_dejavu
def test_dejavu_draws_cyrillic_but_not_hangul():
    configure_font(DEJAVU)
    assert drawable_name("Дмитрий", "p1") == "Дмитрий"
    assert drawable_name("José Zoë", "p1") == "José Zoë"
    assert drawable_name("앨리스", "p2") == "p2"
    assert drawable_name("Дмитрий 앨리스", "p2") == "Дмитрий"
    # A name the font draws whole is drawn whole, symbols and all.
    assert drawable_name("★", "p1") == "★"


def test_invisible_characters_are_never_drawn():
    # Zero-width joiners, direction marks, variation selectors: boxes in a font that maps none.
    assert drawable_text("A\u200dB\u200fC\ufe0fD") == "ABCD"
    assert drawable_name("\u200d\ufe0f", "p1") == "p1"


# ----------------------------------------------------------------------------- what is drawn


@pytest.mark.parametrize("font", FONTS)
def test_a_name_the_font_cannot_draw_at_all_draws_as_its_seat(font):
    configure_font(font)
    korean = picture({"p1": "앨리스", "p2": "Bob"})
    assert korean == picture({"p1": "p1", "p2": "Bob"})
    assert korean != picture({"p1": "Alice", "p2": "Bob"})


@pytest.mark.parametrize("font", FONTS)
def test_the_characters_a_font_lacks_are_left_out_of_the_picture(font):
    configure_font(font)
    assert picture({"p1": "Ann 🎲", "p2": "Bob 앨리스"}) == picture({"p1": "Ann", "p2": "Bob"})
    # In any text, not only names: the title carries the room's label of a seat.
    assert picture({}, title="Match #1: 앨리스 (p1)") == picture({}, title="Match #1: (p1)")


def test_a_missing_glyph_draws_nothing_even_glyph_by_glyph():
    # Text drawn straight from glyphs (tile letters, numbers over a pattern) skips drawable_text.
    blank = glyph_sprite("앨", 30)
    assert blank.image.getcolors() == [(blank.size[0] * blank.size[1], ink("page"))]
    assert text_sprite("A앨B", 30).image.tobytes() == text_sprite("AB", 30).image.tobytes()
    assert text_width("A앨B", 30) == text_width("AB", 30)


@needs_dejavu
def test_cyrillic_draws_with_dejavu_and_falls_back_to_the_seat_with_the_built_in_font():
    built_in = picture({"p1": "Дмитрий", "p2": "Bob"})
    assert built_in == picture({"p1": "p1", "p2": "Bob"})
    configure_font(DEJAVU)
    dejavu = picture({"p1": "Дмитрий", "p2": "Bob"})
    assert dejavu != picture({"p1": "p1", "p2": "Bob"})
    assert dejavu != picture({"p1": "Dmitry", "p2": "Bob"})


# ----------------------------------------------------------------------------- the setting


@needs_dejavu
def test_a_font_change_takes_effect_on_the_next_picture_and_back():
    names = {"p1": "Ann", "p2": "Bob"}
    before = picture(names)
    configure_font(DEJAVU)
    assert font_path() == str(DEJAVU.resolve())
    assert font(30).getname()[0] == "DejaVu Sans"
    changed = picture(names)
    assert changed != before
    configure_font(None)
    assert font(30).getname()[0] == "Aileron"
    assert picture(names) == before


@needs_dejavu
@pytest.mark.parametrize("game", sorted(renderers()))
def test_every_board_renders_with_another_font(game):
    names = {"p1": "Дмитрий", "p2": "앨리스"}
    before = render_image(new_game(game, seed=5).view(), players=names, title="Match #1")
    configure_font(DEJAVU)
    after = render_image(new_game(game, seed=5).view(), players=names, title="Match #1")
    assert after.size == before.size
    assert after.tobytes() != before.tobytes()


def test_a_bad_font_path_is_refused_with_the_reason_and_changes_nothing(tmp_path):
    with pytest.raises(ValueError, match="FONT_PATH: there is no file at"):
        configure_font(tmp_path / "missing.ttf")
    with pytest.raises(ValueError, match="is a directory"):
        configure_font(tmp_path)
    not_a_font = tmp_path / "notes.ttf"
    not_a_font.write_text("not a font", encoding="utf-8")
    with pytest.raises(ValueError, match="is not a font Pillow can read"):
        configure_font(not_a_font)
    assert font_path() is None
    assert font(30).getname()[0] == "Aileron"


def test_the_per_name_check_is_cached_across_pictures():
    names = {"p1": "Alice 앨리스", "p2": "Bob"}
    picture(names)
    checks = has_glyph.cache_info().misses
    names_worked_out = drawable_name.cache_info().misses
    picture(names)
    assert has_glyph.cache_info().misses == checks
    assert drawable_name.cache_info().misses == names_worked_out


@needs_dejavu
def test_a_new_font_empties_the_games_picture_caches():
    # The backgrounds of the games' pictures (games/<game>/) carry coordinates drawn in the font.
    from geniusbot.games.tictacfive import picture as tictacfive

    picture({"p1": "Ann", "p2": "Ben"})
    assert tictacfive.background.cache_info().currsize == 1
    configure_font(DEJAVU)
    assert tictacfive.background.cache_info().currsize == 0
