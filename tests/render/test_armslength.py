"""The Arm's Length card: disc and square stones, pushes, knock-offs, fours, every phase."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.armslength import picture as armslength
from geniusbot.games.armslength.picture import cell_size, square_xy, stone_radius
from geniusbot.pictures import render_view
from geniusbot.render.palette import rgb
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode, within

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = armslength.canvas_size(8)
R = stone_radius(8)
CELL = cell_size(8)


def game_after(setup: str, *moves: tuple[str, str], **options: str):
    """A real game from a given layout after the given (text, seat) submissions."""
    game = new_game("armslength", seed=3, setup=setup, **options)
    for text, seat in moves:
        game.submit(text, seat)
    return game


def picture(game, **kwargs):
    return decode(render_view(game.view(), players=NAMES, **kwargs))


def cell_box(square: str) -> tuple[int, int, int, int]:
    x, y = square_xy(square)
    half = CELL // 2
    return x - half, y - half, x + half, y + half


# p1 (red) places G5: F5 (red) is pushed to E5, H5 (blue) is pushed off the right edge.
PUSHING = ("red F5; blue H5 A1", ("G5", "p1"))
# p1 (red) places D4 and completes A1 B2 C3 D4 (C3 is not pushed: B2 stands behind it).
FOUR = ("red A1 B2 C3; blue H8 H7 G8", ("D4", "p1"))


def test_the_choice_phase_renders_with_the_dmo_named():
    game = new_game("armslength", seed=3, dmo="p2")
    view = game.view()
    assert view["phase"] == "choice"
    assert picture(game).size == SIZE
    assert armslength.seat_detail(view, "p2") == "DMO"
    assert armslength.status_line(view, NAMES).startswith("Ben chooses a colour")


@pytest.mark.parametrize("layout", [PUSHING, FOUR])
def test_play_and_over_render_pngs_of_the_card_size(layout):
    setup, move = layout
    assert picture(game_after(setup)).size == SIZE
    assert picture(game_after(setup, move)).size == SIZE


def test_red_is_a_disc_and_blue_a_square_in_shape_as_well_as_colour():
    image = picture(game_after("red C3; blue F6"))
    red, blue = square_xy("C3"), square_xy("F6")
    assert colour_at(image, (red[0] + R * 0.8, red[1])) == rgb("red_stone")
    assert colour_at(image, (blue[0] + R * 0.8, blue[1])) == rgb("blue_stone")
    # At the corner of the stone's box a square has ink and a disc has none.
    assert colour_at(image, (blue[0] + R * 0.8, blue[1] + R * 0.8)) == rgb("blue_stone")
    assert colour_at(image, (red[0] + R * 0.8, red[1] + R * 0.8)) == rgb("cell")
    # Each carries a white symbol: a cross through the disc's centre, a frame in the square.
    assert colour_at(image, red) == rgb("symbol")
    assert colour_at(image, blue) == rgb("blue_stone")
    assert colour_at(image, (blue[0] + R * 0.4, blue[1])) == rgb("symbol")


def test_the_last_move_is_marked_in_its_square_only():
    image = picture(game_after(*PUSHING))
    assert within(colour_bbox(image, "frame"), square_xy("G5"), CELL // 2)


def test_no_last_move_marker_before_the_first_move():
    assert colour_bbox(picture(game_after(PUSHING[0])), "frame") is None


def test_pushes_leave_ghosts_where_the_stones_were():
    image = picture(game_after(*PUSHING))
    # F5's stone went west to E5: its dashed outline shows on the east side, away from the arrow.
    fx, fy = square_xy("F5")
    assert colour_at(image, (fx + R - 3, fy)) == rgb("ghost")
    # H5's stone left the board: a crossed-out ghost, the cross through its centre.
    assert colour_at(image, square_xy("H5")) == rgb("ghost")
    assert colour_bbox(image, "ghost", cell_box("H5"))
    assert colour_bbox(image, "ghost", cell_box("B2")) is None
    assert colour_at(image, (square_xy("E5")[0] + R * 0.8, square_xy("E5")[1])) == rgb("red_stone")
    assert colour_at(image, square_xy("H5")) != rgb("blue_stone")


def test_a_move_that_pushes_nothing_draws_no_ghosts():
    game = game_after(*PUSHING)
    game.submit("B7", "p2")
    assert game.view()["pushes"] == []
    assert colour_bbox(picture(game), "ghost") is None


def test_knocked_off_stones_are_counted_and_named():
    view = game_after(*PUSHING).view()
    assert armslength.seat_detail(view, "p2") == "blue · 1/10 knocked off"
    assert armslength.seat_detail(view, "p1") == "red · first · 0/10 knocked off"
    assert armslength.status_line(view, NAMES) == "Ben to play blue · last G5 · knocked off H5 blue"


def test_the_knockout_limit_shown_is_the_views():
    view = dict(game_after(*PUSHING).view(), knockout_limit=7)
    assert armslength.seat_detail(view, "p2") == "blue · 1/7 knocked off"


def test_knocked_off_counts_change_the_picture():
    game = game_after(*PUSHING)
    view = game.view()
    more = dict(view, knocked_off={"red": 0, "blue": 7})
    assert render_view(view) != render_view(more)


def test_a_four_is_highlighted_and_the_winner_announced():
    game = game_after(*FOUR)
    assert game.outcome().winner == "p1"
    image = picture(game)
    (ax, ay), (bx, by) = square_xy("B2"), square_xy("C3")
    assert colour_at(image, ((ax + bx) / 2, (ay + by) / 2)) == rgb("accent")
    assert colour_at(image, (4, SIZE[1] - 4)) == rgb("accent")
    board = (*square_xy("A8"), *square_xy("H1"))
    assert colour_bbox(picture(game_after(FOUR[0])), "accent", board) is None


def test_an_empty_board_differs_from_one_with_a_stone():
    empty = render_view(game_after("none").view())
    one = render_view(game_after("none", ("D4", "p1")).view())
    assert empty != one


def test_the_same_view_gives_the_same_bytes():
    view = game_after(*PUSHING).view()
    first = render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="DM 7A")
    for cache in (armslength.background, armslength.stone_sprite, glyph_sprite, text_sprite):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="DM 7A") == first


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 40), dmo=st.sampled_from(["", "p1", "p2"]))
def test_any_reachable_position_renders(seed, length, dmo):
    game = new_game("armslength", seed=seed, **({"dmo": dmo} if dmo else {}))
    rng = random.Random(seed)
    for _ in range(length):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))
    view = game.view()
    image = decode(render_view(view, players=NAMES))
    assert image.size == SIZE
    in_fours = {sq for line in view["fours"] for sq in line}
    for square, colour in view["stones"].items():
        if square in in_fours:
            continue
        x, y = square_xy(square)
        assert colour_at(image, (x + R * 0.8, y)) == rgb(f"{colour}_stone")
