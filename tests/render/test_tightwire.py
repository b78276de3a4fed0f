"""The Tightwire card: wires and slack wires, disc and square pieces, the last action, captures."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.tightwire import picture as tightwire
from geniusbot.games.tightwire.picture import dot_xy, piece_radius
from geniusbot.pictures import render_view
from geniusbot.render.layout import DETAIL_SIZE, NAME_SIZE, ROW_HEIGHT, TITLE_HEIGHT
from geniusbot.render.palette import rgb
from geniusbot.render.text import glyph_sprite, text_sprite, text_width

from .support import colour_at, colour_bbox, decode, within

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = tightwire.canvas_size(5, 5)
R = piece_radius(5, 5)

# Orange (p1) draws C3-B3: blue B3 is then joined by lines to orange A3 and C3 and is captured.
CAPTURE = "orange A3 C3 A5; blue B3 E1 D1; lines A3-B3"


def game_after(*moves: tuple[str, str], **options: str):
    """A real game after the given (text, seat) submissions."""
    game = new_game("tightwire", seed=4, **options)
    for text, seat in moves:
        game.submit(text, seat)
    return game


def picture(game, **kwargs):
    return decode(render_view(game.view(), players=NAMES, **kwargs))


def midpoint(a: str, b: str) -> tuple[float, float]:
    (ax, ay), (bx, by) = dot_xy(a), dot_xy(b)
    return (ax + bx) / 2, (ay + by) / 2


def test_the_start_renders_pieces_by_shape_and_colour():
    image = picture(game_after())
    orange, blue = dot_xy("B5"), dot_xy("B1")
    assert image.size == SIZE
    assert colour_at(image, orange) == rgb("orange_piece")
    assert colour_at(image, blue) == rgb("blue_piece")
    # At the corner of the piece's box a square has ink and a disc has none.
    assert colour_at(image, (blue[0] + R * 0.72, blue[1] + R * 0.72)) == rgb("blue_piece")
    assert colour_at(image, (orange[0] + R * 0.72, orange[1] + R * 0.72)) == rgb("slate")
    assert colour_at(image, dot_xy("C3")) == rgb("dot")
    assert colour_bbox(image, "path") is None  # nothing has happened yet


def test_the_newest_line_is_gold_and_older_lines_are_wires():
    game = game_after(("draw B5-C4", "p1"))
    image = picture(game)
    assert colour_at(image, midpoint("B5", "C4")) == rgb("path")
    game.submit("draw B1-C2", "p2")
    image = picture(game)
    assert colour_at(image, midpoint("B5", "C4")) == rgb("wire")
    assert colour_at(image, midpoint("B1", "C2")) == rgb("path")
    x0, y0, x1, y1 = colour_bbox(image, "path")
    (ax, ay), (bx, by) = dot_xy("B1"), dot_xy("C2")
    assert min(ax, bx) - 8 <= x0 and x1 <= max(ax, bx) + 8 and min(ay, by) - 8 <= y0 and y1 <= max(ay, by) + 8


def test_a_slack_line_is_a_double_wire():
    game = game_after(("slack B5-C3", "p1"), ("draw B1-C2", "p2"))
    assert game.view()["lines"][0]["slack"]
    image = picture(game)
    mid = midpoint("B5", "C3")
    # The centre of a slack line is the gap between its two wires.
    assert colour_at(image, mid) == rgb("slate")
    (ax, ay), (bx, by) = dot_xy("B5"), dot_xy("C3")
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    normal = (-(by - ay) / length, (bx - ax) / length)
    for side in (-4, 4):
        assert colour_at(image, (mid[0] + normal[0] * side, mid[1] + normal[1] * side)) == rgb("slack")


def test_a_move_shows_a_ghost_where_the_piece_was_and_a_gold_arrow():
    game = game_after(("draw B5-C4 and move", "p1"))
    assert game.view()["pieces"].get("C4") == "orange"
    image = picture(game)
    assert within(colour_bbox(image, "ghost"), dot_xy("B5"), R + 2)
    assert colour_at(image, midpoint("B5", "C4")) == rgb("path")
    assert colour_at(image, dot_xy("C4")) == rgb("orange_piece")


def test_a_capture_crosses_out_the_emptied_dot():
    game = game_after(("draw C3-B3", "p1"), setup=CAPTURE)
    view = game.view()
    assert view["captured_last"] == ["B3"]
    image = picture(game)
    assert within(colour_bbox(image, "ghost"), dot_xy("B3"), R + 2)
    assert colour_at(image, dot_xy("B3")) == rgb("ghost")  # the cross goes through the centre
    assert tightwire.seat_detail(view, "p2") == "blue · 1 slack · 1 to revive"
    assert tightwire.status_line(view, NAMES) == "Ben to move · last draw B3-C3 · captured B3"


def test_a_revived_piece_gets_a_gold_ring():
    game = game_after(("draw C3-B3", "p1"), ("revive C1", "p2"), setup=CAPTURE)
    image = picture(game)
    x, y = dot_xy("C1")
    assert colour_at(image, (x, y)) == rgb("blue_piece")
    assert within(colour_bbox(image, "path"), (x, y), R + 12)
    assert colour_bbox(image, "ghost") is None


def test_draft_and_order_phases_render_and_say_what_to_do():
    draft = game_after(variant="fate")
    assert draft.view()["phase"] == "draft"
    assert picture(draft).size == SIZE
    assert tightwire.status_line(draft.view(), NAMES) == "Ann picks an item: turn order, extra slack or woven revive"
    order = game_after(("pick turn order", "p1"), ("pick extra slack", "p2"), variant="fate")
    assert order.view()["phase"] == "order"
    assert picture(order).size == SIZE
    assert tightwire.status_line(order.view(), NAMES) == "Ann chooses to move first or second"
    assert "extra slack" in tightwire.seat_detail(order.view(), "p2")


def test_a_finished_game_shows_the_banner():
    game = game_after(("draw C3-B3", "p1"), setup=CAPTURE)
    game.resign("p2")
    image = picture(game)
    assert colour_at(image, (4, SIZE[1] - 4)) == rgb("accent")


@pytest.mark.slow
@pytest.mark.parametrize("board", ["classic5", "large7"])
def test_every_board_preset_renders(board):
    game = game_after(board=board)
    view = game.view()
    image = picture(game)
    assert image.size == SIZE
    for dot, colour in view["pieces"].items():
        assert colour_at(image, dot_xy(dot, view["cols"], view["rows"])) == rgb(f"{colour}_piece")


def test_the_same_view_gives_the_same_bytes():
    view = game_after(("draw B5-C4 and move", "p1")).view()
    first = render_view(view, players=NAMES, clocks={"p1": "0:59"}, title="DM 4")
    for cache in (
        tightwire.background,
        tightwire.piece_sprite,
        tightwire.dot_sprite,
        glyph_sprite,
        text_sprite,
    ):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:59"}, title="DM 4") == first


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 30), variant=st.sampled_from(["classic", "influx", "fate"]))
def test_any_reachable_position_renders(seed, length, variant):
    game = new_game("tightwire", seed=seed, variant=variant)
    rng = random.Random(seed)
    for _ in range(length):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))
    view = game.view()
    image = decode(render_view(view, players=NAMES))
    assert image.size == SIZE
    for dot, colour in view["pieces"].items():
        assert colour_at(image, dot_xy(dot, view["cols"], view["rows"])) == rgb(f"{colour}_piece")


# Blue steps from B2 to B3, between orange A3 and C3, and is captured there at once.
TRAP = "orange A3 C3 A5; blue B2 E1 D1; lines A3-B3 B3-C3 B2-B3"


def corners_inked(image, centre: tuple[float, float]) -> int:
    """How many corners of a square ghost's outline (around ``centre``) carry ghost ink."""
    s = (R - 2) * 0.9
    count = 0
    for dx in (-s, s):
        for dy in (-s, s):
            x, y = int(centre[0] + dx), int(centre[1] + dy)
            count += colour_bbox(image, "ghost", (x - 3, y - 3, x + 4, y + 4)) is not None
    return count


def test_ghosts_take_the_shape_of_the_piece_that_was_there():
    game = game_after(("draw A4-A5", "p1"), ("move B2-B3", "p2"), setup=TRAP)
    view = game.view()
    assert view["captured_last"] == ["B3"] and view["captured_last_colors"] == {"B3": "blue"}
    assert "B3" not in view["pieces"] and "B2" not in view["pieces"]
    image = picture(game)
    # Blue pieces are squares: the origin's ghost and the crossed ghost of the captured piece are too.
    assert corners_inked(image, dot_xy("B2")) >= 3
    assert corners_inked(image, dot_xy("B3")) >= 3
    assert colour_at(image, dot_xy("B3")) == rgb("ghost")  # crossed out
    # A blue piece captured where it stood (a line drawn to it) is crossed out as a square too.
    taken = game_after(("draw C3-B3", "p1"), setup=CAPTURE)
    assert taken.view()["captured_last_colors"] == {"B3": "blue"}
    assert corners_inked(picture(taken), dot_xy("B3")) >= 3


def test_an_orange_piece_that_steps_into_a_trap_leaves_round_ghosts():
    setup = "orange B2 E5 D5; blue A3 C3 A1; lines A3-B3 B3-C3 B2-B3"
    game = game_after(("move B2-B3", "p1"), setup=setup)
    view = game.view()
    assert view["captured_last_colors"] == {"B3": "orange"}
    image = picture(game)
    assert corners_inked(image, dot_xy("B2")) == 0 and corners_inked(image, dot_xy("B3")) == 0
    assert colour_bbox(image, "ghost", _box(dot_xy("B2"), R)) is not None


def _box(centre: tuple[float, float], reach: float) -> tuple[int, int, int, int]:
    x, y = centre
    return int(x - reach), int(y - reach), int(x + reach + 1), int(y + reach + 1)


def test_a_short_name_leaves_room_for_every_item_in_the_row():
    # p1 holds Turn Order and (the forced last pick) the Woven Revive; the clock is Threads of Fate's.
    game = game_after(("pick turn order", "p1"), ("pick extra slack", "p2"), variant="fate")
    detail = tightwire.seat_detail(game.view(), "p1")
    assert detail == "orange · 1 slack · turn order · woven revive"
    clock = "1:30 +5:00"
    image = decode(render_view(game.view(), players=NAMES, clocks={"p1": clock, "p2": clock}))
    top = TITLE_HEIGHT
    row = (0, top + 4, SIZE[0], top + ROW_HEIGHT - 4)
    muted = colour_bbox(image, "muted", row)
    assert muted is not None
    # The detail is drawn whole: its ink starts where the whole text, set right of the clock, starts.
    right = SIZE[0] - 22 - text_width(clock, NAME_SIZE, True) - 22
    start = right - text_width(detail, DETAIL_SIZE)
    assert abs(muted[0] - start) <= 6
