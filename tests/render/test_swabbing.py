"""The Deck Swabbing card: white, black and claimed tiles with their patterns, Unique's numbers,
Pyramid's ring values, the last move, Snipe's tile, sealed moves only in their sender's view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.allhands import picture_common as allhands_common, picture_swabbing as swabbing
from geniusbot.games.allhands.picture_tiles import square_xy, tile_side
from geniusbot.pictures import render_view
from geniusbot.render.layout import ROW_HEIGHT, TITLE_HEIGHT
from geniusbot.render.palette import rgb
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode, within

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = swabbing.canvas_size()
SIDE = tile_side()
FILL = {"white": "white_stone", "black": "black_stone", "p1": "red_stone", "p2": "blue_stone"}


def picture(view, **kwargs):
    return decode(render_view(view, players=NAMES, **kwargs))


def tile_box(square: str, shrink: int = 0) -> tuple[int, int, int, int]:
    x, y = square_xy(square)
    half = SIDE // 2 - shrink
    return x - half, y - half, x + half, y + half


def fill_at(image, square: str):
    """The colour at the middle of the tile's right edge: clear of numbers, patterns and marks."""
    x, y = square_xy(square)
    return colour_at(image, (x + SIDE * 0.42, y + SIDE * 0.12))


def played(anomalies: str = "", seed: int = 5, moves: int = 8):
    """A real game after ``moves`` random turns (each seat that may act does)."""
    game = new_game("swabbing", seed=seed, anomalies=anomalies)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        for seat in game.to_move():
            game.play(rng.choice(list(game.legal_moves(seat))))
    return game


def test_an_empty_board_is_all_white_with_no_marks():
    game = new_game("swabbing", seed=1)
    image = picture(game.view())
    assert image.size == SIZE
    for square in game.view()["board"]:
        assert fill_at(image, square) == rgb("white_stone")
    board = tile_box("A7")[:2] + tile_box("G1")[2:]
    for name in ("accent", "black_stone", "red_stone", "blue_stone"):
        assert colour_bbox(image, name, board) is None


def test_every_tile_shows_its_state():
    game = played(moves=12)
    view = game.view()
    image = picture(view)
    states = set(view["board"].values())
    assert {"white", "black"} <= states and states & {"p1", "p2"}
    for square, state in view["board"].items():
        assert fill_at(image, square) == rgb(FILL[state]), square


def test_the_two_seats_colours_differ_in_pattern_as_well_as_colour():
    game = played(moves=12)
    view = game.view()
    image = picture(view)
    for seat, ring_white, corner_white in (("p1", True, False), ("p2", False, True)):
        square = next((sq for sq, s in view["board"].items() if s == seat), None)
        if square is None:
            continue
        x, y = square_xy(square)
        # p1: a white ring (white on the horizontal axis, not at the diagonal corner);
        # p2: a white square frame (white at the frame's corner).
        assert (colour_at(image, (x + SIDE * 0.33, y)) == rgb("symbol")) == ring_white
        assert (colour_at(image, (x + SIDE * 0.27, y + SIDE * 0.27)) == rgb("symbol")) == corner_white


def test_the_seats_patterns_are_in_the_player_rows_too():
    image = picture(new_game("swabbing", seed=1).view())
    rows = [(40, TITLE_HEIGHT + k * ROW_HEIGHT, 100, TITLE_HEIGHT + (k + 1) * ROW_HEIGHT) for k in (0, 1)]
    assert colour_bbox(image, "red_stone", rows[0]) and not colour_bbox(image, "red_stone", rows[1])
    assert colour_bbox(image, "blue_stone", rows[1]) and not colour_bbox(image, "blue_stone", rows[0])


def test_the_last_move_is_marked_with_gold_brackets_on_its_tiles_only():
    game = played(moves=3)
    view = game.view()
    last = view["history"][-1]["tiles"]
    image = picture(view)
    for square in view["board"]:
        marked = colour_bbox(image, "accent", tile_box(square)) is not None
        assert marked == (square in last), square


def test_unique_numbers_are_drawn_in_every_tile():
    game = played("unique", moves=6)
    view = game.view()
    image = picture(view)
    for square, number in view["numbers"].items():
        state = view["board"][square]
        ink_name = swabbing.INK_ON[state][1]
        assert within(colour_bbox(image, ink_name, tile_box(square, 8)), square_xy(square), SIDE * 0.3), square
    # A different number is a different picture.
    other = dict(view, numbers={sq: (n % 7) + 1 for sq, n in view["numbers"].items()})
    assert render_view(other) != render_view(view)


def test_pyramid_values_sit_in_the_corner_of_every_tile():
    game = new_game("swabbing", seed=2, anomalies="pyramid")
    view = game.view()
    assert view["values"]["D4"] == 4 and view["values"]["A1"] == 1
    image = picture(view)
    for square in view["board"]:
        x0, y0, _, _ = tile_box(square)
        assert colour_bbox(image, "black_stone", (x0, y0, x0 + 32, y0 + 32)) is not None, square
        assert fill_at(image, square) == rgb("white_stone")
    assert swabbing.seat_detail(view, "p1") == "0 tiles · 0 pts"


def test_a_played_snipe_shows_as_a_crosshair_on_its_tile():
    game = new_game("swabbing", seed=1, anomalies="snipe")
    game.submit("C3 C4", "p1", private=True)
    game.submit("snipe F6", "p2", private=True)
    view = game.view()
    assert view["history"][-1]["snipe"] == "F6" and view["board"]["F6"] == "black"
    image = picture(view)
    assert within(colour_bbox(image, "accent", tile_box("F6")), square_xy("F6"), SIDE / 2)
    assert swabbing.status_line(view, NAMES).endswith("last C3 C4, snipe F6")


def test_a_sealed_move_shows_only_in_its_senders_view():
    game = new_game("swabbing", seed=1, anomalies="snipe")
    game.submit("C3 C4", "p1", private=True)
    own, other, public = (game.view(seat) for seat in ("p1", "p2", None))
    assert own["sealed"] == "C3 C4"
    image = picture(own)
    for square in ("C3", "C4"):
        assert colour_bbox(image, "frame", tile_box(square)) is not None
        assert fill_at(image, square) == rgb("white_stone")
    assert colour_bbox(picture(other), "frame") is None
    assert render_view(other) == render_view(public)
    assert "C3" not in swabbing.status_line(other, NAMES)
    assert swabbing.status_line(own, NAMES).startswith("You sent C3 C4")


def test_a_sealed_snipe_shows_only_in_the_snipers_view():
    game = new_game("swabbing", seed=1, anomalies="snipe")
    game.submit("snipe E5", "p2", private=True)
    assert colour_bbox(picture(game.view("p2")), "frame", tile_box("E5")) is not None
    assert render_view(game.view("p1")) == render_view(game.view(None))


@pytest.mark.parametrize("anomalies", ["", "hook, linear", "pyramid, snipe, unique"])
def test_every_phase_renders_to_the_end(anomalies):
    game = played(anomalies, seed=3, moves=60)
    assert game.is_over
    image = picture(game.view())
    assert image.size == SIZE
    assert colour_at(image, (4, SIZE[1] - 4)) in (rgb("accent"), rgb("draw_banner"))


def test_the_same_view_gives_the_same_bytes():
    view = played("unique, pyramid", moves=5).view()
    first = render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 3")
    for cache in (
        swabbing.background,
        swabbing.tile_sprite,
        swabbing._pattern,
        allhands_common.seat_sprite,
        glyph_sprite,
        text_sprite,
    ):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 3") == first


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 25),
    anomalies=st.sampled_from(["", "linear", "unique", "pyramid, hook", "snipe"]),
)
def test_any_reachable_position_renders_each_tile_in_its_state(seed, moves, anomalies):
    view = played(anomalies, seed=seed, moves=moves).view()
    image = picture(view)
    assert image.size == SIZE
    for square, state in view["board"].items():
        assert fill_at(image, square) == rgb(FILL[state]), square


@pytest.mark.parametrize("anomalies", ["", "linear", "hook"])
def test_the_status_line_suggests_a_legal_move_never_a_coloured_tile(anomalies):
    game = new_game("swabbing", seed=1, anomalies=anomalies)
    game.submit("C3 C4", game.to_move()[0])
    line = swabbing.status_line(game.view(), NAMES)
    suggested = line.split("e.g. ", 1)[1].split(" · ", 1)[0].split()
    assert suggested and not {"C3", "C4"} & set(suggested)
    mover = game.to_move()[0]
    assert game.is_legal(game.parse_move(" ".join(suggested), mover))
