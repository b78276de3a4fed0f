"""The Tile Decklaration card: the memory grid with letters, the hidden grid, declared tiles,
Implode marks, mines only in their owner's view, the chain neighbourhood, the end reveal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.allhands import picture_common as allhands_common, picture_tiles as tiles
from geniusbot.games.allhands.picture_tiles import square_xy, tile_side
from geniusbot.pictures import render_view
from geniusbot.render.layout import ROW_HEIGHT, TITLE_HEIGHT
from geniusbot.render.palette import rgb
from geniusbot.render.png import encode_png
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode, within

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = tiles.canvas_size()
SIDE = tile_side()
TILE_FILLS = ["red_stone", "orange_piece", "yellow_tile", "green_tile", "blue_stone", "purple_tile"]


def picture(view, **kwargs):
    return decode(render_view(view, players=NAMES, **kwargs))


def tile_box(square: str, shrink: int = 0) -> tuple[int, int, int, int]:
    x, y = square_xy(square)
    half = SIDE // 2 - shrink
    return x - half, y - half, x + half, y + half


def fill_at(image, square: str):
    """The colour near the middle of the tile's left edge (away from its letter, its badge, its
    mine and the arms of the losing tile's cross)."""
    x, y = square_xy(square)
    return colour_at(image, (x - SIDE * 0.4, y))


def memorized(seed: int = 5, **options: str):
    """A game in its memorize window and the grid its public view shows."""
    game = new_game("tiles", seed=seed, **options)
    return game, dict(game.view()["grid"])


def hidden_with_call(seed: int = 5, **options: str):
    """A game after the grid is hidden and p1 has called red; the grid as it was shown."""
    game, grid = memorized(seed, **options)
    game.close_window()
    game.submit("call red", "p1")
    return game, grid


def declare_right(game, grid, colour_for_next: str = "blue") -> str:
    """The seat to move declares a correct, unnamed tile of the called colour; returns it."""
    named = {d["tile"] for d in game.view()["declared"]}
    anchor = game.view()["chain_from"]
    for square, colour in grid.items():
        if colour != game.view()["called"] or square in named:
            continue
        if anchor and (abs(ord(square[0]) - ord(anchor[0])) > 1 or abs(int(square[1:]) - int(anchor[1:])) > 1):
            continue
        game.submit(f"{square} {colour_for_next}", game.to_move()[0])
        return square
    raise AssertionError("no correct tile left")


def test_the_memory_grid_shows_every_tile_in_its_colour_with_its_letter():
    game, grid = memorized()
    image = picture(game.view())
    assert image.size == SIZE
    for square, colour in grid.items():
        fill, letter_ink = allhands_common.tile_inks(colour)
        assert fill_at(image, square) == rgb(fill), square
        if colour != "black":
            # The letter: its ink in the middle of the tile, nowhere near the edge.
            assert within(colour_bbox(image, letter_ink, tile_box(square, 4)), square_xy(square), SIDE * 0.3), square


def test_rainbow_memory_grid_has_six_colours_each_with_its_own_letter():
    game, grid = memorized(seed=9, anomalies="rainbow")
    assert set(grid.values()) == {"red", "orange", "yellow", "green", "blue", "purple", "black"}
    image = picture(game.view())
    for colour in ("red", "orange", "yellow", "green", "blue", "purple"):
        square = next(sq for sq, c in grid.items() if c == colour)
        assert fill_at(image, square) == rgb(allhands_common.tile_inks(colour)[0])
    letters = {allhands_common.letter(c) for c in grid.values() if c != "black"}
    assert letters == {"R", "O", "Y", "G", "B", "P"}


def test_letters_tell_tiles_apart_where_colour_might_not():
    # Red and green both carry a white letter; the letters' shapes differ, pixel for pixel.
    def letter_pixels(colour: str) -> list[bool]:
        image = decode(encode_png(allhands_common.tile_sprite(colour, SIDE, 46).image))
        return [image.getpixel((x, y)) == rgb("symbol") for x in range(SIDE) for y in range(SIDE)]

    red, green = letter_pixels("red"), letter_pixels("green")
    assert any(red) and any(green) and red != green


def test_the_hidden_grid_shows_no_colour_for_undeclared_tiles():
    game, grid = hidden_with_call()
    view = game.view()
    assert view["grid"] is None
    image = picture(view)
    for square in grid:
        if square == "D4":
            assert fill_at(image, square) == rgb("black_stone")
            continue
        assert fill_at(image, square) == rgb("empty_tile")
        for fill in TILE_FILLS:
            assert colour_bbox(image, fill, tile_box(square)) is None, (square, fill)


def test_memorize_and_hidden_pictures_differ_and_the_hidden_one_is_the_same_for_every_seat():
    game, _ = memorized()
    shown = render_view(game.view(), players=NAMES)
    game.close_window()
    hidden = [render_view(game.view(seat), players=NAMES) for seat in (None, "p1", "p2")]
    assert shown not in hidden
    assert hidden[0] == hidden[1] == hidden[2]


def test_a_declared_tile_shows_its_colour_and_letter_and_is_framed_as_the_last():
    game, grid = hidden_with_call()
    first = declare_right(game, grid)
    image = picture(game.view())
    assert fill_at(image, first) == rgb("red_stone")
    assert colour_bbox(image, "symbol", tile_box(first, 4)) is not None
    # The white frame sits in the slate gap round the last declared tile only.
    x, y = square_xy(first)
    assert colour_at(image, (x - SIDE // 2 - 4, y)) == rgb("text")
    second = declare_right(game, grid, "red")
    image = picture(game.view())
    assert colour_at(image, (x - SIDE // 2 - 4, y)) == rgb("slate")
    x2, y2 = square_xy(second)
    assert colour_at(image, (x2 - SIDE // 2 - 4, y2)) == rgb("text")
    assert fill_at(image, second) == rgb("blue_stone")


def test_no_frame_before_the_first_declaration():
    game, _ = hidden_with_call()
    image = picture(game.view())
    left, top, right, bottom = (
        tile_box("A7")[0] - 8,
        tile_box("A7")[1] - 8,
        tile_box("G1")[2] + 8,
        tile_box("G1")[3] + 8,
    )
    assert colour_bbox(image, "text", (left, top, right, bottom)) is None


def test_the_called_colour_shows_as_a_lettered_swatch_in_the_movers_row():
    game, _ = hidden_with_call()
    image = picture(game.view())
    row = (40, TITLE_HEIGHT + ROW_HEIGHT, 90, TITLE_HEIGHT + 2 * ROW_HEIGHT)
    assert colour_bbox(image, "red_stone", row) is not None
    assert tiles.status_line(game.view(), NAMES).startswith("Ben: declare a red (R) tile")


def test_the_memorize_line_gives_the_views_seconds():
    view = new_game("tiles", seed=3).view()
    assert tiles.status_line(view, NAMES).startswith("Memorize! Hidden in 30 s · ")
    assert tiles.status_line(dict(view, memorize_seconds=45), NAMES).startswith("Memorize! Hidden in 45 s · ")


def test_implode_marks_are_gold_badges_on_the_marked_tiles_only_after_the_grid_is_hidden():
    game, _ = memorized(anomalies="implode")
    assert colour_bbox(picture(game.view()), "accent", tile_box("A7", -6)[:2] + tile_box("G1", -6)[2:]) is None
    game.close_window()
    view = game.view()
    image = picture(view)
    marks = set(view["marks"])
    assert len(marks) == 15
    for square in tiles.squares():
        badge = colour_bbox(image, "accent", tile_box(square))
        assert (badge is not None) == (square in marks), square


def test_mines_show_in_their_owners_view_only():
    game, _ = memorized(anomalies="landmine")
    game.close_window()
    game.submit("mines B7 C6 E2 F5 G1", "p1", private=True)
    mine = lambda image, sq: colour_bbox(image, "black_stone", tile_box(sq))  # noqa: E731
    own, other, public = (picture(game.view(seat)) for seat in ("p1", "p2", None))
    for square in ("B7", "C6", "E2", "F5", "G1"):
        assert mine(own, square) is not None
        assert mine(other, square) is None
        assert mine(public, square) is None
    assert render_view(game.view("p2")) == render_view(game.view(None))
    assert tiles.status_line(game.view("p1"), NAMES).startswith("Your mines: B7 C6 E2 F5 G1")
    for seat in ("p2", None):
        assert "F5" not in tiles.status_line(game.view(seat), NAMES)


def test_a_mine_that_went_off_is_public_with_a_gold_burst():
    game, grid = memorized(anomalies="landmine")
    game.close_window()
    red = [sq for sq, c in grid.items() if c == "red"]
    game.submit("mines " + " ".join(red[:5]), "p1", private=True)
    game.timeout("p2")  # p2 sends no mines
    game.submit("call red", "p1")
    game.submit(f"{red[0]} blue", "p2")
    view = game.view(None)
    assert view["exploded"] and view["exploded"][0]["tile"] == red[0]
    image = picture(view)
    assert colour_bbox(image, "accent", tile_box(red[0])) is not None
    assert colour_bbox(image, "black_stone", tile_box(red[0])) is not None
    assert colour_bbox(image, "black_stone", tile_box(red[1])) is None  # not gone off: not public


def test_the_two_seats_mines_differ_in_shape_a_round_one_and_a_square_one():
    game, grid = memorized(anomalies="landmine")
    game.close_window()
    red = [sq for sq, c in grid.items() if c == "red"]
    p1_mines, p2_mines = red[:5], [sq for sq in grid if sq not in red and sq != "D4"][:4] + [red[0]]
    game.submit("mines " + " ".join(p1_mines), "p1", private=True)
    game.submit("mines " + " ".join(p2_mines), "p2", private=True)
    # Before any goes off: each seat sees its own, on empty tiles alike; the icons differ.
    mine = lambda image, sq: image.crop(tile_box(sq))  # noqa: E731
    own_p1, own_p2 = picture(game.view("p1")), picture(game.view("p2"))
    assert colour_bbox(own_p1, "black_stone", tile_box(p1_mines[0])) is not None
    assert mine(own_p1, p1_mines[0]).tobytes() != mine(own_p2, p2_mines[0]).tobytes()
    assert mine(own_p1, p1_mines[0]).tobytes() == mine(own_p1, p1_mines[1]).tobytes()  # one seat, one icon
    # A tile both seats mined goes off: both mines show on it, side by side, and everyone sees them.
    game.submit("call red", "p1")
    game.submit(f"{red[0]} blue", "p2")
    view = game.view(None)
    assert [(e["tile"], e["owners"]) for e in view["exploded"]] == [(red[0], ["p1", "p2"])]
    found = colour_bbox(picture(view), "black_stone", tile_box(red[0]))
    assert found is not None and found[2] - found[0] > 45  # one mine with its spikes spans about 31 px


def test_chain_outlines_the_neighbourhood_of_the_last_declared_tile():
    game, grid = hidden_with_call(anomalies="chain")
    view = game.view()
    assert view["chain_from"] == "D4"
    image = picture(view)
    found = colour_bbox(image, "accent", (tiles._board_box()))
    assert within(found, square_xy("D4"), tiles.cell_size() * 1.5 + 2)
    assert not within(found, square_xy("D4"), tiles.cell_size())


def test_the_end_reveals_the_grid_and_crosses_out_the_losing_tile():
    game, grid = hidden_with_call()
    first = declare_right(game, grid)
    wrong = next(sq for sq, c in grid.items() if c not in ("blue", "black") and sq != first)
    game.submit(f"{wrong} red", game.to_move()[0])
    view = game.view()
    assert view["phase"] == "over" and view["loss"]["tile"] == wrong
    image = picture(view)
    # Declared: a full tile. Undeclared: an inset of its colour on the empty tile.
    assert fill_at(image, first) == rgb("red_stone")
    other = next(sq for sq in grid if sq not in (first, wrong, "D4"))
    assert fill_at(image, other) == rgb("empty_tile")
    assert colour_at(image, square_xy(other)[:1] + (square_xy(other)[1] - SIDE * 0.2,)) == rgb(
        allhands_common.tile_inks(grid[other])[0]
    )
    # The losing tile: drawn whole, as the declaration it was, crossed by a black X edged in
    # white whose arms stop short of the middle, so its letter is whole: a colour-blind player
    # reads the tile by it.
    x, y = square_xy(wrong)
    for dx, dy in ((-1, -1), (1, 1), (-1, 1), (1, -1)):
        assert colour_at(image, (x + dx * SIDE * 0.33, y + dy * SIDE * 0.33)) == rgb("black_stone")
    clean = allhands_common.tile_sprite(grid[wrong], SIDE, tiles.LETTER_SIZE).image.convert("RGB")
    x0, y0, _, _ = tile_box(wrong)
    middle = (SIDE // 2 - 20, SIDE // 2 - 20, SIDE // 2 + 20, SIDE // 2 + 20)
    assert colour_bbox(clean, "symbol", middle) is not None  # the letter is in that middle
    shown = image.crop((x0 + middle[0], y0 + middle[1], x0 + middle[2], y0 + middle[3]))
    assert list(shown.getdata()) == list(clean.crop(middle).getdata())
    assert colour_at(image, (4, SIZE[1] - 4)) == rgb("accent")


def test_implode_end_shows_the_old_colour_of_a_tile_that_changed():
    game, _ = memorized(seed=11, anomalies="implode")
    game.close_window()
    game.resign("p1")
    view = game.view()
    changed = [sq for sq, c in view["original_grid"].items() if view["grid"][sq] != c]
    assert changed
    image = picture(view)
    square = changed[0]
    x0, y0, _, y1 = tile_box(square)
    old_fill = allhands_common.tile_inks(view["original_grid"][square])[0]
    assert colour_bbox(image, old_fill, (x0, y1 - 32, x0 + 32, y1)) is not None


@pytest.mark.parametrize("options", [{}, {"anomalies": "landmine"}, {"anomalies": "chain, implode, rainbow"}])
def test_every_phase_renders(options):
    game = new_game("tiles", seed=4, **options)
    seen = set()
    rng = random.Random(4)
    while not game.is_over:
        view = game.view()
        seen.add(view["phase"])
        assert picture(view).size == SIZE
        if game.window() is not None:
            game.close_window()
            continue
        seat = game.to_move()[0]
        if view["phase"] == "landmines":
            game.submit("mines A1 B2 C3 E6 G7", seat, private=True)
        else:
            game.play(rng.choice(list(game.legal_moves(seat))))
    seen.add(game.view()["phase"])
    assert picture(game.view()).size == SIZE
    assert {"memorize", "call", "declare", "over"} <= seen


def test_the_same_view_gives_the_same_bytes():
    game, grid = hidden_with_call(anomalies="implode")
    declare_right(game, grid)
    view = game.view()
    first = render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 4")
    for cache in (
        tiles.background,
        tiles.badge_sprite,
        allhands_common.tile_sprite,
        glyph_sprite,
        text_sprite,
    ):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 4") == first


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 30), rainbow=st.booleans())
def test_any_reachable_position_renders_with_declared_tiles_in_their_colour(seed, length, rainbow):
    game = new_game("tiles", seed=seed, **({"anomalies": "rainbow"} if rainbow else {}))
    grid = game.view()["grid"]
    game.close_window()
    rng = random.Random(seed)
    game.play(rng.choice(list(game.legal_moves("p1"))))
    for _ in range(length):
        if game.is_over:
            break
        if rng.random() < 0.9:
            try:
                declare_right(game, grid, rng.choice(game.view()["palette"]))
                continue
            except AssertionError:
                pass
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))
    view = game.view()
    image = picture(view)
    assert image.size == SIZE
    for entry in view["declared"]:
        assert fill_at(image, entry["tile"]) == rgb(allhands_common.tile_inks(entry["color"])[0])
    if view["grid"] is None:
        named = {d["tile"] for d in view["declared"]}
        for square in grid:
            if square not in named and square != "D4":
                assert fill_at(image, square) == rgb("empty_tile")


def test_the_status_line_gives_a_called_orange_its_article():
    game, _ = hidden_with_call()
    view = dict(game.view(), called="orange")
    assert tiles.status_line(view, NAMES).startswith("Ben: declare an orange (O) tile")


def test_the_status_line_says_the_last_tiles_colour_apart_from_the_call():
    # "F3 green" is F3 declared and green called: "last F3 green" read as if F3 were green.
    game, grid = hidden_with_call()
    square = declare_right(game, grid, colour_for_next="green")
    assert grid[square] == "red" and game.view()["last_move"] == f"{square} green"
    line = tiles.status_line(game.view(), NAMES)
    assert f"last {square} was red" in line
    assert f"{square} green" not in line
    assert "declare a green (G) tile" in line  # the call, said as what the mover must do
