"""The Dueling Decks card table: prizes in order with the current one marked, hands, power and
points, the last round; Darkness draws only what the view holds; sealed plays only for their owner."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import new_game
from geniusbot.games.allhands import picture_common as allhands_common, picture_decks as decks
from geniusbot.pictures import render_view
from geniusbot.render.palette import rgb
from geniusbot.render.text import glyph_sprite, text_sprite

from .support import colour_at, colour_bbox, decode

NAMES = {"p1": "Ann", "p2": "Ben"}
SIZE = decks.canvas_size()


def picture(view, **kwargs):
    return decode(render_view(view, players=NAMES, **kwargs))


def card_box(seat: str, index: int) -> tuple[int, int, int, int]:
    x, y = decks.card_xy(seat, index)
    return x, y, x + decks.CARD_W, y + decks.CARD_H


def panel_box(seat: str) -> tuple[int, int, int, int]:
    top = decks.panel_top(seat)
    return 0, top, decks.WIDTH, top + decks.PANEL_H - 6


def card_face(image, seat: str, index: int):
    x, y = decks.card_xy(seat, index)
    return colour_at(image, (x + 8, y + 8))


def after(anomalies: str = "", *steps: tuple[str, str]):
    """A real game after the given (seat, text) sealed submissions, each sent by DM."""
    game = new_game("decks", seed=5, anomalies=anomalies)
    for seat, text in steps:
        game.submit(text, seat, private=True)
    return game


ROUND_ONE = (("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 20"), ("p2", "play 5"))


def test_the_start_shows_seven_prizes_with_the_first_marked_and_empty_hands():
    view = after().view()
    assert view["prizes"] == [10, 5, 9, 4, 6, 8, 7]
    image = picture(view)
    assert image.size == SIZE
    for index in range(7):
        x, y = decks.prize_xy(index)
        assert colour_at(image, (x + 6, y + 6)) == rgb("wood")
        frame = colour_at(image, (x - 4, y + decks.PRIZE_H // 2))
        assert (frame == rgb("accent")) == (index == 0)
    for seat in ("p1", "p2"):
        for index in range(view["deck_size"]):
            assert colour_bbox(image, "white_stone", card_box(seat, index)) is None
            assert colour_bbox(image, "ghost", card_box(seat, index)) is not None  # an empty slot


def test_hands_are_white_cards_and_the_deck_size_sets_the_slots():
    game = after("overshadow", ("p1", "create 20 15"), ("p2", "create 30"))
    view = game.view()
    assert view["deck_size"] == 3 and view["hands"] == {"p1": [20, 15], "p2": [30]}
    image = picture(view)
    assert card_face(image, "p1", 0) == rgb("white_stone")
    assert card_face(image, "p1", 1) == rgb("white_stone")
    assert card_face(image, "p1", 2) != rgb("white_stone")
    assert card_face(image, "p2", 0) == rgb("white_stone")
    assert card_face(image, "p2", 1) != rgb("white_stone")
    # The value is printed on the card.
    assert (
        colour_bbox(image, "black_stone", tuple(a + d for a, d in zip(card_box("p1", 0), (10, 10, -10, -10))))
        is not None
    )


def test_a_won_round_marks_its_prize_with_the_winners_mark_and_moves_the_marker():
    view = after("", *ROUND_ONE).view()
    assert view["history"][0]["winner"] == "p1" and view["round"] == 2
    image = picture(view)
    x, y = decks.prize_xy(0)
    below = (x, y + decks.PRIZE_H + 8, x + decks.PRIZE_W, y + decks.PRIZE_H + 46)
    assert colour_bbox(image, "red_stone", below) is not None
    assert colour_bbox(image, "blue_stone", below) is None
    x1, y1 = decks.prize_xy(1)
    assert colour_at(image, (x1 - 4, y1 + decks.PRIZE_H // 2)) == rgb("accent")
    assert colour_at(image, (x - 4, y + decks.PRIZE_H // 2)) != rgb("accent")
    assert decks.last_round_lines(view, NAMES) == ["Round 1, prize 10: Ann wins it (+10)", "Ann 20 = 20 · Ben 5 = 5"]


def test_points_fill_the_winners_bar():
    view = after("", *ROUND_ONE).view()
    image = picture(view)
    top = decks.panel_top("p1")
    bar_x = decks.WIDTH - 22 - decks.BAR_W
    assert colour_at(image, (bar_x + 5, top + 20)) == rgb("red_stone")
    assert colour_at(image, (bar_x + decks.BAR_W * 0.39, top + 20)) == rgb("red_stone")  # 10/25
    assert colour_at(image, (bar_x + decks.BAR_W * 0.45, top + 20)) == rgb("band")
    assert (
        colour_bbox(image, "blue_stone", (bar_x, decks.panel_top("p2"), decks.WIDTH, decks.panel_top("p2") + 40))
        is None
    )


def test_the_points_bar_runs_to_the_views_target():
    view = dict(after("", *ROUND_ONE).view(), target=50)  # 10 of 50: a fifth of the bar
    image = picture(view)
    top = decks.panel_top("p1")
    bar_x = decks.WIDTH - 22 - decks.BAR_W
    assert colour_at(image, (bar_x + decks.BAR_W * 0.18, top + 20)) == rgb("red_stone")
    assert colour_at(image, (bar_x + decks.BAR_W * 0.25, top + 20)) == rgb("band")


def test_a_sealed_play_is_marked_in_its_owners_view_only():
    game = after("", ("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 15"))
    own, other, public = (game.view(seat) for seat in ("p1", "p2", None))
    assert own["sealed"] == {"cards": [15], "backup": 0}
    image = picture(own)
    x, y = decks.card_xy("p1", 1)  # the hand is [20, 15]: the 15 is the second card
    assert colour_at(image, (x - 3, y + 20)) == rgb("accent")
    x0, y0 = decks.card_xy("p1", 0)
    assert colour_at(image, (x0 - 3, y0 + 20)) != rgb("accent")
    for view in (other, public):
        assert colour_bbox(picture(view), "accent", panel_box("p1")) is None
    assert render_view(other) == render_view(public)


def test_a_sealed_creation_fills_the_empty_slots_in_its_owners_view_only():
    game = after("", ("p2", "create 12 7"))
    own = picture(game.view("p2"))
    assert colour_bbox(own, "accent", card_box("p2", 0)) is not None
    assert colour_bbox(own, "accent", card_box("p2", 1)) is not None
    assert colour_bbox(picture(game.view("p1")), "accent", panel_box("p2")) is None


def test_darkness_public_view_shows_no_hand_and_no_play():
    game = after("darkness", *ROUND_ONE)
    public = game.view(None)
    assert public["hands"] == {"p1": None, "p2": None}
    image = picture(public)
    for seat in ("p1", "p2"):
        assert colour_bbox(image, "white_stone", panel_box(seat)) is None
    text = decks.last_round_text(public, NAMES)
    assert text == "Round 1, prize 10: Ann wins it (+10)"
    # The owner still sees its own hand and play; not the opponent's hand.
    own = game.view("p1")
    image = picture(own)
    assert card_face(image, "p1", 0) == rgb("white_stone")
    assert colour_bbox(image, "white_stone", panel_box("p2")) is None
    assert decks.last_round_lines(own, NAMES) == ["Round 1, prize 10: Ann wins it (+10)", "Ann 20"]


def test_darkness_public_picture_does_not_depend_on_the_hidden_plays():
    # Same creations and the same winner, different cards played: the public pictures are equal.
    one = after("darkness", ("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 20"), ("p2", "play 5"))
    two = after("darkness", ("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 15"), ("p2", "play none"))
    assert one.view(None)["history"][0]["winner"] == two.view(None)["history"][0]["winner"] == "p1"
    assert render_view(one.view(None), players=NAMES) == render_view(two.view(None), players=NAMES)
    assert render_view(one.view("p1"), players=NAMES) != render_view(two.view("p1"), players=NAMES)


def test_darkness_with_pick_your_prize_shows_no_prize_value_or_points():
    game = after(
        "darkness, pick-your-prize", ("p1", "create 3 2"), ("p2", "create 4 1"), ("p1", "play 3"), ("p2", "play 1")
    )
    public = game.view(None)
    assert public["prizes"] == [None] * 7 and public["points"] == {"p1": None, "p2": None}
    assert decks.number(public["history"][0]["prize"]) == "?"
    assert "?" in decks.last_round_text(public, NAMES)
    assert picture(public).size == SIZE


def test_pick_your_prize_shows_the_value_a_round_gave_its_prize():
    game = after("pick-your-prize", ("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 20"), ("p2", "play 5"))
    view = game.view()
    assert view["prizes"][0] is None and view["history"][0]["prize"] == 13
    image = picture(view)
    changed = dict(view, history=[dict(view["history"][0], prize=14)])
    assert render_view(changed) != render_view(view)
    x, y = decks.prize_xy(1)
    assert colour_bbox(image, "black_stone", (x + 10, y + 10, x + decks.PRIZE_W - 10, y + decks.PRIZE_H - 10))  # "?"


def random_game(seed: int, anomalies: str, steps: int):
    game = new_game("decks", seed=seed, anomalies=anomalies)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_move()[0]
        moves = list(game.legal_moves(seat))
        game.play(rng.choice(moves[:200]) if rng.random() < 0.5 else rng.choice(moves))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("anomalies", ["", "backup, revolution", "darkness, overshadow, pick-your-prize"])
def test_every_phase_renders_to_the_end(anomalies):
    game = new_game("decks", seed=2, anomalies=anomalies)
    rng = random.Random(2)
    phases = set()
    while not game.is_over:
        for seat in (None, "p1", "p2"):
            assert picture(game.view(seat)).size == SIZE
        phases.add(game.view()["phase"])
        seat = game.to_move()[0]
        game.play(rng.choice(list(game.legal_moves(seat))))
    phases.add(game.view()["phase"])
    assert phases == {"create", "play", "over"}
    image = picture(game.view())
    assert colour_at(image, (4, SIZE[1] - 4)) == rgb("accent")


def test_the_same_view_gives_the_same_bytes():
    view = after("backup", *ROUND_ONE).view("p1")
    first = render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 2")
    for cache in (
        decks.background,
        decks.card_sprite,
        allhands_common.seat_sprite,
        glyph_sprite,
        text_sprite,
    ):
        cache.cache_clear()
    assert render_view(view, players=NAMES, clocks={"p1": "0:30"}, title="Play 2") == first


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 20),
    anomalies=st.sampled_from(["", "darkness", "backup, overshadow", "pick-your-prize, revolution"]),
)
def test_any_reachable_position_renders_its_hands(seed, steps, anomalies):
    game = random_game(seed, anomalies, steps)
    for seat in (None, "p1", "p2"):
        view = game.view(seat)
        image = picture(view)
        assert image.size == SIZE
        for owner, hand in view["hands"].items():
            if hand is None:
                assert colour_bbox(image, "white_stone", panel_box(owner)) is None
                continue
            for index in range(view["deck_size"]):
                assert (card_face(image, owner, index) == rgb("white_stone")) == (index < len(hand))
