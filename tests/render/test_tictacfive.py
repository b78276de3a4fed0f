"""The Tic-Tac-Five card: stones, the last move, the winning line, every phase."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.tictacfive import picture as tictacfive
from geniusbot.games.tictacfive.picture import point_xy, stone_radius
from geniusbot.pictures import render_view
from geniusbot.render.layout import FOOTER_HEIGHT, ROW_HEIGHT, TITLE_HEIGHT
from geniusbot.render.palette import rgb
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode, within

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = tictacfive.canvas_size(15)
ALL_POINTS = [f"{c}{r}" for r in range(1, 16) for c in "ABCDEFGHIJKLMNO"]
R = stone_radius(15)


def played(*moves: tuple[str, str]):
    """A real game after the given (text, seat) submissions."""
    game = new_game("tictacfive", seed=1)
    for text, seat in moves:
        game.submit(text, seat)
    return game


OPENING = [("H8", "p1"), ("H9", "p1"), ("I8", "p1")]
# p2 takes black, so p1 holds white and places the fourth stone.
IN_PLAY = OPENING + [("black", "p2"), ("G9", "p1"), ("J8", "p2")]
# Black (p2) fills row 8 from G to K: G8 H8 I8 J8 K8.
BLACK_WINS = IN_PLAY + [("A1", "p1"), ("K8", "p2"), ("A2", "p1"), ("G8", "p2")]


def board_box():
    top_left = point_xy("A15")
    bottom_right = point_xy("O1")
    return top_left[0] - R - 4, top_left[1] - R - 4, bottom_right[0] + R + 5, bottom_right[1] + R + 5


def picture(game, **kwargs):
    return decode(render_view(game.view(), players=NAMES, **kwargs))


@pytest.mark.parametrize(
    "moves, phase",
    [([], "opening"), (OPENING, "choice"), (IN_PLAY, "play"), (BLACK_WINS, "over")],
)
def test_every_phase_renders_a_png_of_the_card_size(moves, phase):
    game = played(*moves)
    assert game.view()["phase"] == phase or (phase == "over" and game.is_over)
    assert picture(game).size == SIZE


def test_black_is_a_filled_disc_and_white_a_hollow_ring():
    image = picture(played(*IN_PLAY))  # last move J8; H8 black, H9 white are older stones
    black, white = point_xy("H8"), point_xy("H9")
    assert colour_at(image, black) == rgb("black_stone")
    assert colour_at(image, (black[0] + R * 0.7, black[1])) == rgb("black_stone")
    assert colour_at(image, (white[0] + R * 0.7, white[1])) == rgb("white_stone")
    assert colour_at(image, (white[0], white[1] + R * 0.7)) == rgb("white_stone")
    # The hole: the board shows through the centre of a white stone.
    assert colour_at(image, white) == rgb("wood")


def test_an_empty_point_shows_the_board():
    image = picture(played(*IN_PLAY))
    x, y = point_xy("C3")
    assert colour_at(image, (x + R * 0.5, y + R * 0.5)) == rgb("wood")


def test_the_last_move_is_marked_there_and_nowhere_else():
    image = picture(played(*IN_PLAY))
    x, y = point_xy("J8")
    assert colour_at(image, (x, y)) == rgb("last")
    assert within(colour_bbox(image, "last"), (x, y), R)


def test_a_board_with_no_stone_has_no_last_move_marker():
    image = picture(played())
    assert colour_bbox(image, "last") is None


def test_a_stone_changes_the_picture():
    empty = render_view(played().view(), players=NAMES)
    one = render_view(played(("H8", "p1")).view(), players=NAMES)
    assert empty != one
    assert colour_at(decode(one), point_xy("H8")) != colour_at(decode(empty), point_xy("H8"))


def test_the_winning_line_is_highlighted():
    game = played(*BLACK_WINS)
    assert game.outcome() is not None and game.outcome().winner == "p2"
    assert sorted(game.view()["winning_line"]) == ["G8", "H8", "I8", "J8", "K8"]
    image = picture(game)
    # Between two stones of the line the gold bar crosses the bare board.
    (ax, ay), (bx, by) = point_xy("H8"), point_xy("I8")
    assert colour_at(image, ((ax + bx) / 2, (ay + by) / 2)) == rgb("accent")
    running = picture(played(*IN_PLAY))
    assert colour_bbox(running, "accent", board_box()) is None


def test_the_outcome_is_a_banner_and_nobody_is_to_move():
    image = picture(played(*BLACK_WINS))
    width, height = image.size
    assert colour_at(image, (4, height - 4)) == rgb("accent")
    # No to-move band once the game is over.
    assert colour_at(image, (4, TITLE_HEIGHT + ROW_HEIGHT / 2)) == rgb("page")
    assert colour_at(image, (4, TITLE_HEIGHT + 1.5 * ROW_HEIGHT)) == rgb("page")


def test_the_player_to_move_is_marked():
    game = played(*IN_PLAY)  # p1 (white) to move
    assert game.to_move() == ("p1",)
    image = picture(game)
    p1_row = TITLE_HEIGHT + ROW_HEIGHT / 2
    p2_row = p1_row + ROW_HEIGHT
    assert colour_at(image, (24, p1_row)) == rgb("accent")
    assert colour_at(image, (4, p1_row)) == rgb("band")
    assert colour_at(image, (4, p2_row)) == rgb("page")


def test_clocks_and_names_appear_in_their_own_rows():
    game = played(*IN_PLAY)
    plain = picture(game)
    timed = picture(game, clocks={"p2": "0:42 +4:10"})
    renamed = decode(render_view(game.view(), players={"p1": "Ann", "p2": "Someone Else"}))
    p2_rows = (0, TITLE_HEIGHT + ROW_HEIGHT, SIZE[0], TITLE_HEIGHT + 2 * ROW_HEIGHT)
    rest = (0, TITLE_HEIGHT + 2 * ROW_HEIGHT, SIZE[0], SIZE[1])
    assert plain.crop(p2_rows).tobytes() != timed.crop(p2_rows).tobytes()
    assert plain.crop(rest).tobytes() == timed.crop(rest).tobytes()
    assert plain.crop(p2_rows).tobytes() != renamed.crop(p2_rows).tobytes()


def test_status_lines_say_what_happens_next():
    assert tictacfive.status_line(played().view(), NAMES).startswith("Opening: Ann places stone 1 of 3 (black)")
    assert tictacfive.status_line(dict(played().view(), opening_stones=4), NAMES).startswith(
        "Opening: Ann places stone 1 of 4 (black)"
    )
    assert tictacfive.status_line(played(*OPENING).view(), NAMES).startswith("Ben chooses a colour")
    assert tictacfive.status_line(played(*IN_PLAY).view(), NAMES) == "Ann to play white · last J8"


def test_the_same_view_gives_the_same_bytes():
    view = played(*BLACK_WINS).view()
    first = render_view(view, players=NAMES, clocks={"p1": "0:01"}, title="Death Match")
    for cache in (tictacfive.background, tictacfive.stone_sprite, glyph_sprite, text_sprite):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:01"}, title="Death Match") == first
    marked = marked_game().view()
    first = render_view(marked, players=NAMES)
    tictacfive.forbidden_sprite.cache_clear()
    assert render_view(marked, players=NAMES) == first


def test_a_drawn_game_shows_the_draw_banner():
    view = dict(played(*IN_PLAY).view(), outcome={"winner": None, "reason": "The board is full."}, phase="over")
    view["to_move"] = []
    image = decode(render_view(view))
    assert colour_at(image, (4, SIZE[1] - 4)) == rgb("draw_banner")


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 40))
def test_any_reachable_position_renders(seed, length):
    game = new_game("tictacfive", seed=seed)
    rng = random.Random(seed)
    for _ in range(length):
        if game.is_over:
            break
        seat = game.to_move()[0]
        game.play(rng.choice(list(game.legal_moves(seat))))
    image = decode(render_view(game.view(), players=NAMES))
    assert image.size == SIZE
    view = game.view()
    skip = {view["last_move"], *(view["winning_line"] or [])}  # marked stones carry extra ink
    for point, colour in view["stones"].items():
        if point in skip:
            continue
        x, y = point_xy(point)
        assert colour_at(image, (x + R * 0.7, y)) == rgb(f"{colour}_stone")


# --------------------------------------------------------------------------- forbidden points

# Black's F6 H6 and G7 G8: G6 would make two open threes (row 6, column G), so black may not play there.
MARKED = [("F6", "p1"), ("O15", "p1"), ("H6", "p1"), ("black", "p2"), ("O13", "p1"), ("G7", "p2")]
MARKED += [("O11", "p1"), ("G8", "p2"), ("A1", "p1")]


def marked_game():
    game = played(*MARKED)
    assert game.view()["next_color"] == "black" and "G6" in game.view()["forbidden"]
    return game


def footer_box():
    return 0, SIZE[1] - FOOTER_HEIGHT, SIZE[0], SIZE[1]


def test_a_forbidden_point_carries_a_dark_diagonal_cross():
    image = picture(marked_game())
    x, y = point_xy("G6")
    assert colour_at(image, (x, y)) == rgb("black_stone")
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):  # the four arms
        assert colour_at(image, (x + dx * R * 0.28, y + dy * R * 0.28)) == rgb("black_stone")
    # Between the arms the board shows: a cross, not a disc (where a black stone is solid).
    assert colour_at(image, (x + R * 0.4, y + R * 0.15)) == rgb("wood")
    assert colour_at(image, (x + R * 0.7, y + R * 0.3)) == rgb("wood")
    stone = point_xy("F6")
    assert colour_at(image, (stone[0] + R * 0.4, stone[1] + R * 0.15)) == rgb("black_stone")


def test_the_cross_reads_without_colour():
    """In grey scale the cross is as dark as a black stone against the light wood, and its
    shape, not its colour, tells it from the stones (checked above) and the grid crossings."""

    def grey(name):
        r, g, b = rgb(name)
        return 0.299 * r + 0.587 * g + 0.114 * b

    assert grey("wood") - grey("black_stone") > 140
    assert grey("wood") - grey("grid") > 80


def test_only_the_forbidden_points_change_on_the_board():
    game = marked_game()
    view = game.view()
    marks = decode(render_view(view, players=NAMES))
    plain = decode(render_view(dict(view, forbidden=[]), players=NAMES))
    for point in ALL_POINTS:
        changed = colour_at(marks, point_xy(point)) != colour_at(plain, point_xy(point))
        assert changed == (point in view["forbidden"]), point
    # Away from the marks the board is the same picture.
    box = board_box()
    for point in view["forbidden"]:
        x, y = point_xy(point)
        for image in (marks, plain):
            image.paste((0, 0, 0), (int(x - R), int(y - R), int(x + R), int(y + R)))
    assert marks.crop(box).tobytes() == plain.crop(box).tobytes()


def test_the_footer_shows_the_cross_and_what_it_means_only_while_points_are_marked():
    game = marked_game()
    view = game.view()
    marks = picture(game)
    plain = decode(render_view(dict(view, forbidden=[]), players=NAMES))
    # The legend's cross sits on a small square of wood, as the stones beside the names do.
    found = colour_bbox(marks, "black_stone", footer_box())
    assert found is not None and found[0] > SIZE[0] / 2  # at the right end of the line
    assert colour_bbox(marks, "wood", footer_box()) is not None
    assert colour_bbox(plain, "wood", footer_box()) is None
    assert tictacfive.FORBIDDEN_LEGEND == "forbidden: double three"
    # The status line still starts the footer.
    left = (0, SIZE[1] - FOOTER_HEIGHT, SIZE[0] // 3, SIZE[1])
    assert marks.crop(left).tobytes() == plain.crop(left).tobytes()


def test_a_long_status_line_is_cut_before_the_legend():
    game = marked_game()
    names = {"p1": "Ann", "p2": "A Very Long Display Name Indeed, Longer Than Most"}  # p2 holds black
    image = decode(render_view(game.view(), players=names))
    cross = colour_bbox(image, "wood", footer_box())
    assert cross is not None
    text = colour_bbox(image, "text", (0, SIZE[1] - FOOTER_HEIGHT, cross[0], SIZE[1]))
    assert text is not None and text[2] < cross[0] - 12


def test_in_random_close_games_the_picture_marks_exactly_the_views_forbidden_points():
    rng = random.Random(5)
    shown = 0
    for seed in range(4):
        game = new_game("tictacfive", seed=seed)
        while not game.is_over:
            seat = game.to_move()[0]
            if game.phase == "choice":
                game.play(rng.choice(list(game.legal_moves(seat))))
                continue
            stones = game.view()["stones"]
            near = [m for m in game.legal_moves(seat) if any(_close(str(m.point), s) for s in stones)]
            game.play(rng.choice(near or list(game.legal_moves(seat))))
            view = game.view()
            if not view["forbidden"]:
                continue
            shown += 1
            image = decode(render_view(view, players=NAMES))
            for point in ALL_POINTS:
                if point not in view["stones"]:
                    centre = colour_at(image, point_xy(point)) == rgb("black_stone")
                    assert centre == (point in view["forbidden"]), point
    assert shown >= 5


def _close(a, b):
    return abs(ord(a[0]) - ord(b[0])) <= 2 and abs(int(a[1:]) - int(b[1:])) <= 2
