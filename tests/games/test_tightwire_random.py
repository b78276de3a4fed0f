"""Random Tightwire games of all three rule sets, checked for invariants; random text is refused cleanly."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import load
from geniusbot.games.base import GameError
from geniusbot.games.tightwire.geometry import geometry
from geniusbot.games.tightwire.rules import COLOURS, Tightwire, TightwireMove

MAX_ACTIONS = 160


def choose(rng, moves):
    """A random legal move, leaning towards moves and revives so that games reach their end."""
    active = [m for m in moves if m.action in ("move", "revive", "woven_revive") or m.and_move]
    if active and rng.random() < 0.6:
        return rng.choice(active)
    return rng.choice(moves)


def surrounded(view, colour, by):
    """Dots of ``color`` joined by single lines to two or more ``by`` pieces."""
    joined = {}
    for line in view["lines"]:
        joined.setdefault(line["a"], []).append(line["b"])
        joined.setdefault(line["b"], []).append(line["a"])
    return [
        dot
        for dot, piece in view["pieces"].items()
        if piece == colour and sum(1 for n in joined.get(dot, []) if view["pieces"].get(n) == by) >= 2
    ]


def every_conceivable_text(g):
    geo = g.geo
    texts = [f"revive {n}" for n in geo.names] + [f"woven revive {n}" for n in geo.names]
    for i in range(geo.dot_count):
        for j in range(geo.dot_count):
            if i < j:
                a, b = geo.names[i], geo.names[j]
                for verb in ("draw", "slack", "extra slack"):
                    texts += [f"{verb} {a}-{b}", f"{verb} {a}-{b} and move", f"{verb} {b}-{a} and move"]
                texts += [f"move {a}-{b}", f"move {b}-{a}"]
    return texts


def check_invariants(g, totals, seen_keys):
    v = g.view()
    for colour in COLOURS:
        on_board = sum(1 for p in v["pieces"].values() if p == colour)
        assert on_board + v["captured"][colour] == totals[colour]
    geo = geometry(v["cols"], v["rows"])
    ids = [geo.pair_id[(geo.names.index(line["a"]), geo.names.index(line["b"]))] for line in v["lines"]]
    assert len(set(ids)) == len(ids), "a line was drawn twice"
    for k, (pid, line) in enumerate(zip(ids, v["lines"])):
        if not line["slack"]:
            assert not any(geo.crossing[pid] >> earlier & 1 for earlier in ids[:k]), f"{line} crosses an earlier line"
    for seat in ("p1", "p2"):
        slack_lines = sum(1 for line in v["lines"] if line["slack"] and line["by"] == seat)
        drafted_extra = {"seat": seat, "item": "extra_slack"} in (v["draft"] or {"picks": []})["picks"]
        unused_extra = "extra_slack" in v["items"][seat]
        assert slack_lines + v["slack_left"][seat] + unused_extra == 1 + drafted_extra
    if v["phase"] == "play" and v["move_number"]:
        mover = "p2" if v["to_move"] == ["p1"] else "p1"
        mover_colour, enemy_colour = v["colors"][mover], v["colors"]["p1" if mover == "p2" else "p2"]
        if g.variant == "influx":
            assert surrounded(v, enemy_colour, mover_colour) == []
        else:
            assert surrounded(v, "orange", "blue") == [] and surrounded(v, "blue", "orange") == []
    if g.variant == "influx":
        assert len(g.history) == len(set(g.history))
        assert seen_keys <= set(g.history)
    if g.is_over:
        assert g.to_move() == () and list(g.legal_moves()) == [] and v["phase"] == "over"
    else:
        assert len(g.to_move()) == 1 and next(iter(g.legal_moves()), None) is not None


def random_game(variant, seed, max_actions=MAX_ACTIONS, **options):
    rng = random.Random(f"tightwire:{variant}:{seed}")
    g = Tightwire.new(variant=variant, seed=seed, **options)
    v = g.view()
    totals = {c: sum(1 for p in v["pieces"].values() if p == c) for c in COLOURS}
    seen = set(g.history)
    for step in range(max_actions):
        if g.is_over:
            break
        moves = list(g.legal_moves())
        assert len(moves) == len(set(moves)), "a legal move is listed twice"
        move = choose(rng, moves)
        assert g.parse_move(move.text(), move.seat) == move
        if step % 40 == 7:
            legal = set(moves)
            accepted = set()
            for text in every_conceivable_text(g) if g.phase == "play" else []:
                try:
                    accepted.add(g.parse_move(text, move.seat))
                except GameError:
                    pass
            if g.phase == "play":
                assert accepted == legal
        g.play(move)
        seen |= set(g.history)
        check_invariants(g, totals, seen)
        if step % 25 == 0:
            assert load(g.to_dict()) == g
    return g


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "influx", "fate"])
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_keep_the_invariants(variant, seed):
    g = random_game(variant, seed, **({"p1_color": "blue"} if seed % 2 else {}))
    h = load(g.to_dict())
    assert h == g and h.view() == g.view()


@pytest.mark.slow
def test_random_playouts_reach_the_end():
    finished = [random_game(v, seed) for v in ("classic", "influx", "fate") for seed in (3, 5)]
    assert sum(g.is_over for g in finished) >= 4
    reasons = {g.outcome().reason for g in finished if g.is_over}
    assert any("left on the board" in r for r in reasons)


@pytest.mark.slow
def test_random_playout_on_the_large_board():
    g = random_game("classic", 1, max_actions=40, board="large7")
    assert g.move_number == 40 or g.is_over


TOKENS = st.sampled_from(
    [
        "draw",
        "slack",
        "extra",
        "move",
        "revive",
        "woven",
        "pick",
        "turn",
        "order",
        "first",
        "second",
        "and",
        "A1",
        "b5",
        "C3",
        "e5",
        "F1",
        "Z9",
        "c0",
        "A10",
        "-",
        " ",
        "--",
        "`",
        ".",
        "to",
        "thread",
        "",
        "B5-C3",
    ]
)
texts = st.one_of(
    st.text(max_size=30), st.lists(TOKENS, max_size=8).map(" ".join), st.lists(TOKENS, max_size=6).map("".join)
)


def positions():
    """A few games in every phase: draft, order, play (with lines and captures), over."""
    fate = Tightwire.new(variant="fate")
    order = fate.copy()
    order.submit("pick turn order", "p1")
    order.submit("pick extra slack", "p2")
    play = random_game("influx", 9)
    mid = Tightwire.new(setup="orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines B4-C3")
    mid.submit("draw C3-D4", "p1")
    return [fate, order, play, mid, Tightwire.new()]


POSITIONS = positions()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(POSITIONS))), texts, st.sampled_from(["p1", "p2", "p3"]))
def test_random_text_raises_only_game_errors_and_changes_nothing(index, text, seat):
    g = POSITIONS[index]
    before = g.to_dict()
    try:
        move = g.parse_move(text, seat)
    except GameError as error:
        assert str(error).strip()
    else:
        assert isinstance(move, TightwireMove) and g.is_legal(move)
    assert g.to_dict() == before
