"""The All Hands On Deck card: points toward 23, the table of plays with winners and anomalies,
items, the ban chips, sealed All-In answers only for their sender, and the running task's own
picture under the scoreboard, drawn from the task view this viewer may see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.allhands import (
    picture_common as allhands_common,
    picture_final as allhands,
    picture_tiles as tiles,
)
from geniusbot.pictures import render_image, render_view
from geniusbot.render.layout import FOOTER_HEIGHT
from geniusbot.render.palette import rgb
from geniusbot.render.png import encode_png
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode

NAMES = {"p1": "Ann", "p2": "Ben"}
CLOCKS = {"p1": "0:25", "p2": "1:10"}
ITEMS = "p1 all-in clock override; p2 override all-in"


def picture(view, **kwargs):
    return decode(render_view(view, players=NAMES, **kwargs))


def step(game, rng: random.Random) -> None:
    """One step of a random playout: close an open window, else a random legal move."""
    if game.window() is not None:
        game.close_window()
        return
    seat = game.to_move()[0]
    game.play(rng.choice(list(game.legal_moves(seat))))


def drive(seed: int = 1, until=None, **options: str):
    """A real match played at random until ``until(view)`` holds (or it ends)."""
    game = new_game("allhands", seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over or (until and until(game.view())):
            break
        step(game, rng)
    return game


def in_phase(phase: str, **more):
    def check(view) -> bool:
        return view["phase"] == phase and all(view.get(k) == v for k, v in more.items())

    return check


def test_a_running_task_is_the_scoreboard_band_above_the_tasks_own_picture():
    game = new_game("allhands", seed=3)
    view = game.view()
    assert view["phase"] == "task" and view["task"]["phase"] == "memorize"
    card = render_image(view, players=NAMES, clocks=CLOCKS)
    task = tiles.render(view["task"], players=NAMES, clocks=CLOCKS, title="Play 1: Tile Decklaration")
    assert card.size == (allhands.WIDTH, allhands.BAND_H + task.height)
    below = card.crop((0, allhands.BAND_H, card.width, card.height))
    assert below.tobytes() == task.tobytes()


def test_the_memory_grid_vanishes_from_the_match_card_when_the_task_hides_it():
    game = new_game("allhands", seed=3)
    shown = decode(render_view(game.view()))
    game.close_window()
    hidden = decode(render_view(game.view()))
    grid = game.view()  # the task's own view no longer holds the grid
    assert grid["task"]["grid"] is None
    for square in tiles.squares():
        if square == "D4":
            continue
        x, y = tiles.square_xy(square)
        corner = (x - tiles.tile_side() * 0.4, y - tiles.tile_side() * 0.4 + allhands.BAND_H)
        assert colour_at(hidden, corner) == rgb("empty_tile")
        assert colour_at(shown, corner) != rgb("empty_tile")


def test_points_fill_each_seats_bar_toward_23():
    game = drive(until=lambda v: v["phase"] == "ban")
    view = game.view()
    points = view["points"]
    image = picture(view)
    bar_x, bar_w = allhands.bar_box()
    for seat, fill in (("p1", "red_stone"), ("p2", "blue_stone")):
        y = allhands.score_row_top(seat) + allhands.SCORE_ROW_H // 2
        length = bar_w * points[seat] / 23
        if points[seat]:
            assert colour_at(image, (bar_x + length - 2, y)) == rgb(fill)
        assert colour_at(image, (bar_x + length + 3, y)) != rgb(fill)


def test_each_played_cell_shows_its_winners_mark_and_the_current_play_is_framed():
    game = drive(seed=1, until=in_phase("task", play=8))
    view = game.view()
    image = picture(view)
    assert len(view["plays"]) == 7
    for play in view["plays"]:
        box = allhands.cell_box(play["task"], play["time"])
        mark = (box[0], box[1], box[0] + 40, box[1] + 40)
        winner_fill = allhands_common.SEAT_FILL[play["winner"]]
        loser_fill = allhands_common.SEAT_FILL["p2" if play["winner"] == "p1" else "p1"]
        assert colour_bbox(image, winner_fill, mark) is not None
        assert colour_bbox(image, loser_fill, mark) is None
        # The anomalies (or "no anomaly") are written under the mark.
        assert colour_bbox(image, "muted", (box[0], box[1] + 34, box[2], box[3])) is not None
    current = view["current"]
    x0, y0, x1, y1 = allhands.cell_box(current["task"], current["time"])
    assert colour_at(image, (x0 + 1, (y0 + y1) / 2)) == rgb("accent")
    future = allhands.cell_box("tiles", 5)
    assert colour_bbox(image, "muted", future) is None and colour_bbox(image, "accent", future) is None


def test_ban_chips_strike_the_banned_anomaly_with_the_banners_mark():
    game = drive(seed=1, until=lambda v: v["phase"] == "ban" and v["current"]["bans"])
    view = game.view()
    current = view["current"]
    banned = current["bans"][0]
    image = picture(view)
    names = ["chain", "implode", "landmine", "rainbow", "rectangle-adverse"]
    assert current["task"] == "tiles"
    for index, name in enumerate(names):
        x0, y0, x1, y1 = allhands.chip_box(index)
        inside = colour_at(image, (x0 + 6, y0 + 6))
        if name == banned["anomaly"]:
            assert inside == rgb("page")
            fill = allhands_common.SEAT_FILL[banned["seat"]]
            assert colour_bbox(image, fill, (x1 - 20, y0 - 16, x1 + 12, y0 + 20)) is not None
        else:
            assert inside == rgb("band")
    assert allhands.status_line(view, NAMES).startswith(f"{NAMES[current['banner']]} bans an anomaly")
    left = current["bans_left"]
    assert allhands.status_line(view, NAMES).endswith(f" · {left} ban{'' if left == 1 else 's'} to go")
    one = dict(view, current=dict(current, bans_left=1))
    assert allhands.status_line(one, NAMES).endswith(" · 1 ban to go")


def test_chosen_anomalies_are_gold_chips():
    # All-In is asked about once the anomalies are chosen: the card shows them then.
    wanted = lambda v: v["phase"] == "items" and v["current"]["time"] > 1  # noqa: E731
    view = drive(12, items=ITEMS, until=wanted).view()  # seed 12 gets there at play 4
    assert wanted(view)
    chosen = view["current"]["anomalies"]
    assert chosen
    image = picture(view)
    from geniusbot.games.allhands.common import TASK_ANOMALIES

    for index, name in enumerate(TASK_ANOMALIES[view["current"]["task"]]):
        x0, y0, _, _ = allhands.chip_box(index)
        assert (colour_at(image, (x0 + 6, y0 + 6)) == rgb("accent")) == (name in chosen)


def test_items_left_are_written_under_each_name():
    view = new_game("allhands", seed=1, items=ITEMS).view()
    assert allhands.items_text(view["items"]["p1"]) == "All-In, Override x2, Clock"
    assert allhands.items_text(view["items"]["p2"]) == "All-In, Override x2"
    assert allhands.items_text({"all_in": 0, "override": 0, "clock": False}) == "no items"
    without = dict(view, items={"p1": {"all_in": 0, "override": 0, "clock": False}, "p2": view["items"]["p2"]})
    assert render_view(view) != render_view(without)


def test_a_sealed_all_in_answer_shows_only_in_its_senders_view():
    game = drive(
        seed=1, items=ITEMS, until=lambda v: v["phase"] == "items" and any(v["current"]["all_in"]["answered"].values())
    )
    public = game.view(None)
    sender = next(s for s, done in public["current"]["all_in"]["answered"].items() if done)
    other = "p2" if sender == "p1" else "p1"
    own = game.view(sender)
    assert own["sealed"] in ("use all-in", "pass")
    own_picture = picture(own)
    panel = (0, allhands.PANEL_TOP, allhands.WIDTH, allhands.HEIGHT - FOOTER_HEIGHT)
    assert colour_bbox(own_picture, "accent", panel) is not None
    assert colour_bbox(picture(game.view(other)), "accent", panel) is None
    assert render_view(game.view(other)) == render_view(public)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"items": ITEMS}])
def test_every_phase_renders_to_the_end(options):
    game = new_game("allhands", seed=4, **options)
    rng = random.Random(4)
    phases = set()
    tasks = set()
    while not game.is_over:
        view = game.view()
        phases.add(view["phase"])
        if view["phase"] == "task":
            tasks.add(view["task"]["game"])
        if rng.random() < 0.15:  # a sample of the positions keeps the test quick
            image = picture(view, clocks=CLOCKS)
            assert image.width == allhands.WIDTH
        step(game, rng)
    phases.add(game.view()["phase"])
    image = picture(game.view())
    assert image.size == allhands.canvas_size()
    assert colour_at(image, (4, image.height - 4)) == rgb("accent")
    assert tasks == {"tiles", "decks", "swabbing"}
    assert {"ban", "task", "over"} <= phases


def test_the_same_view_gives_the_same_bytes():
    view = drive(seed=2, until=in_phase("task", play=5)).view("p1")
    first = render_view(view, players=NAMES, clocks=CLOCKS, title="Final")
    for cache in (allhands.band_background, allhands_common.seat_sprite, glyph_sprite, text_sprite):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks=CLOCKS, title="Final") == first


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), seat=st.sampled_from([None, "p1", "p2"]))
def test_the_task_part_is_always_the_tasks_own_picture_of_this_viewers_task_view(seed, steps, seat):
    game = new_game("allhands", seed=seed, items=ITEMS)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        step(game, rng)
    view = game.view(seat)
    card = render_image(view, players=NAMES)
    if view["phase"] == "task":
        task = allhands.TASK_RENDERERS[view["task"]["game"]](
            view["task"], players=NAMES, title=f"Play {view['play']}: {allhands.TASK_TITLES[view['task']['game']]}"
        )
        assert card.crop((0, allhands.BAND_H, card.width, card.height)).tobytes() == task.tobytes()
    else:
        assert card.size == allhands.canvas_size()


@pytest.mark.parametrize("name", ["tiles", "decks", "swabbing", "allhands"])
def test_the_family_is_registered_and_render_view_is_the_png_of_render_image(name):
    from geniusbot.pictures import has_renderer

    assert has_renderer(name)
    view = new_game(name, seed=7).view()
    data = render_view(view, players=NAMES, title="Match 1")
    assert data == encode_png(render_image(view, players=NAMES, title="Match 1"))


def test_the_title_names_the_phase():
    view = drive(seed=1, until=lambda v: v["phase"] == "ban").view()
    title = (0, 0, allhands.WIDTH, allhands.TITLE_H)
    pictures = {
        phase: render_image(dict(view, phase=phase)).crop(title).tobytes() for phase in ("ban", "items", "override")
    }
    assert len(set(pictures.values())) == 3


def test_the_plays_of_the_match_are_spelled_from_the_view():
    assert allhands._spelled(15) == "fifteen"
    assert allhands._spelled(21) == "21"
