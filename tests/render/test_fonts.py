"""Player names in any script: the FONT_PATH font, and no boxes for characters a font lacks.

Real fonts only: Pillow's built-in Aileron (ASCII and a few signs) and, when the machine has it,
DejaVu Sans (Latin, Greek, Cyrillic and many symbols, but no Hangul).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from geniusbot.games import new_game
from geniusbot.render import common, render_image, renderers

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
needs_dejavu = pytest.mark.skipif(not DEJAVU.is_file(), reason=f"no DejaVu Sans at {DEJAVU} on this machine")

FONTS = [
    pytest.param(None, id="built-in"),
    pytest.param(DEJAVU, id="dejavu", marks=needs_dejavu),
]


@pytest.fixture(autouse=True)
def built_in_font():
    common.configure_font(None)
    yield
    common.configure_font(None)


def picture(names: dict[str, str], title: str = "Match #1", game: str = "tictacfive") -> bytes:
    """The raw palette pixels of a board with these names (what a player sees, before PNG)."""
    return render_image(new_game(game, seed=3).view(), players=names, title=title).tobytes()


# ----------------------------------------------------------------------------- the text drawn


def test_the_built_in_font_leaves_out_what_it_cannot_draw():
    assert common.drawable_name("Ann", "p1") == "Ann"
    assert common.drawable_name("Дмитрий", "p1") == "p1"  # no Cyrillic in Aileron
    assert common.drawable_name("앨리스", "p2") == "p2"
    assert common.drawable_name("Alice 앨리스", "p1") == "Alice"
    assert common.drawable_name("Bob 🎲 Lee", "p2") == "Bob Lee"
    assert common.drawable_name("🎲🎲", "p2") == "p2"
    # Aileron has no accented letters: the letter stays, without its accent.
    assert common.drawable_name("José Zoë", "p1") == "Jose Zoe"
    assert common.drawable_name("Ｋｉｍ", "p1") == "Kim"  # full-width forms
    assert common.drawable_name("   ", "p1") == "p1"
    assert common.drawable_name("a\tb\nc", "p1") == "a b c"


@needs_dejavu
def test_dejavu_draws_cyrillic_but_not_hangul():
    common.configure_font(DEJAVU)
    assert common.drawable_name("Дмитрий", "p1") == "Дмитрий"
    assert common.drawable_name("José Zoë", "p1") == "José Zoë"
    assert common.drawable_name("앨리스", "p2") == "p2"
    assert common.drawable_name("Дмитрий 앨리스", "p2") == "Дмитрий"
    # A name the font draws whole is drawn whole, symbols and all.
    assert common.drawable_name("★", "p1") == "★"


def test_invisible_characters_are_never_drawn():
    # Zero-width joiners, direction marks, variation selectors: boxes in a font that maps none.
    assert common.drawable_text("A\u200dB\u200fC\ufe0fD") == "ABCD"
    assert common.drawable_name("\u200d\ufe0f", "p1") == "p1"


# ----------------------------------------------------------------------------- what is drawn


@pytest.mark.parametrize("font", FONTS)
def test_a_name_the_font_cannot_draw_at_all_draws_as_its_seat(font):
    common.configure_font(font)
    korean = picture({"p1": "앨리스", "p2": "Bob"})
    assert korean == picture({"p1": "p1", "p2": "Bob"})
    assert korean != picture({"p1": "Alice", "p2": "Bob"})


@pytest.mark.parametrize("font", FONTS)
def test_the_characters_a_font_lacks_are_left_out_of_the_picture(font):
    common.configure_font(font)
    assert picture({"p1": "Ann 🎲", "p2": "Bob 앨리스"}) == picture({"p1": "Ann", "p2": "Bob"})
    # In any text, not only names: the title carries the room's label of a seat.
    assert picture({}, title="Match #1: 앨리스 (p1)") == picture({}, title="Match #1: (p1)")


def test_a_missing_glyph_draws_nothing_even_glyph_by_glyph():
    # Text drawn straight from glyphs (tile letters, numbers over a pattern) skips drawable_text.
    blank = common.glyph_sprite("앨", 30)
    assert blank.image.getcolors() == [(blank.size[0] * blank.size[1], common.ink("page"))]
    assert common.text_sprite("A앨B", 30).image.tobytes() == common.text_sprite("AB", 30).image.tobytes()
    assert common.text_width("A앨B", 30) == common.text_width("AB", 30)


@needs_dejavu
def test_cyrillic_draws_with_dejavu_and_falls_back_to_the_seat_with_the_built_in_font():
    built_in = picture({"p1": "Дмитрий", "p2": "Bob"})
    assert built_in == picture({"p1": "p1", "p2": "Bob"})
    common.configure_font(DEJAVU)
    dejavu = picture({"p1": "Дмитрий", "p2": "Bob"})
    assert dejavu != picture({"p1": "p1", "p2": "Bob"})
    assert dejavu != picture({"p1": "Dmitry", "p2": "Bob"})


# ----------------------------------------------------------------------------- the setting


@needs_dejavu
def test_a_font_change_takes_effect_on_the_next_picture_and_back():
    names = {"p1": "Ann", "p2": "Bob"}
    before = picture(names)
    common.configure_font(DEJAVU)
    assert common.font_path() == str(DEJAVU.resolve())
    assert common.font(30).getname()[0] == "DejaVu Sans"
    changed = picture(names)
    assert changed != before
    common.configure_font(None)
    assert common.font(30).getname()[0] == "Aileron"
    assert picture(names) == before


@needs_dejavu
@pytest.mark.parametrize("game", sorted(renderers()))
def test_every_board_renders_with_another_font(game):
    names = {"p1": "Дмитрий", "p2": "앨리스"}
    before = render_image(new_game(game, seed=5).view(), players=names, title="Match #1")
    common.configure_font(DEJAVU)
    after = render_image(new_game(game, seed=5).view(), players=names, title="Match #1")
    assert after.size == before.size
    assert after.tobytes() != before.tobytes()


def test_a_bad_font_path_is_refused_with_the_reason_and_changes_nothing(tmp_path):
    with pytest.raises(ValueError, match="FONT_PATH: there is no file at"):
        common.configure_font(tmp_path / "missing.ttf")
    with pytest.raises(ValueError, match="is a directory"):
        common.configure_font(tmp_path)
    not_a_font = tmp_path / "notes.ttf"
    not_a_font.write_text("not a font", encoding="utf-8")
    with pytest.raises(ValueError, match="is not a font Pillow can read"):
        common.configure_font(not_a_font)
    assert common.font_path() is None
    assert common.font(30).getname()[0] == "Aileron"


def test_the_per_name_check_is_cached_across_pictures():
    names = {"p1": "Alice 앨리스", "p2": "Bob"}
    picture(names)
    checks = common.has_glyph.cache_info().misses
    names_worked_out = common.drawable_name.cache_info().misses
    picture(names)
    assert common.has_glyph.cache_info().misses == checks
    assert common.drawable_name.cache_info().misses == names_worked_out
