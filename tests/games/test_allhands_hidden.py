"""All Hands On Deck keeps every task's secrets: whole random matches are scanned, step by step,
for a hidden value in a public event or the public view (and, for a seat's secret, in the
opponent's view) before the rules reveal it: the memory grid after its window, an unexploded
mine, a sealed creation, play, move, snipe or All-In answer."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from geniusbot.games import SEATS, other_seat
from geniusbot.games.allhands.tiles import TILES, Mines

from .allhands_helpers import make, random_move

ITEMS = ["", "p1 all-in; p2 all-in", "p1 all-in override; p2 all-in override clock"]


def tiles_hidden(game) -> bool:
    """Whether a Tile Decklaration grid is hidden now (after its window, before its end)."""
    task = game.task if game.phase == "task" else None
    return task is not None and game.current_task == "tiles" and not task.is_over and task.phase != "memorize"


def grid_secrets(game) -> list[str]:
    """The JSON fragments that would give away an undeclared tile's colour: ``"D5": "red"``."""
    task = game.task
    named = {d["tile"] for d in task.declared}
    return [
        f'"{point}": "{colour}"'
        for grid in (task.original, task.grid)
        for point, colour in grid.items()
        if str(point) not in named and colour != "black"
    ]


def unexploded_mines(game) -> dict[str, str]:
    """Seat -> its mines as a listing (``A1 B1 C1 D1 E1``), while none of them has gone off."""
    task = game.task
    exploded = {e["tile"] for e in task.exploded}
    out = {}
    for seat in SEATS:
        mines = [str(p) for p in task.mines.sealed_by(seat) or []]
        if mines and not exploded & set(mines):
            out[seat] = " ".join(mines)
    return out


def public_text(events) -> str:
    return "\n".join(e.text + json.dumps(dict(e.data), sort_keys=True) for e in events if e.public)


def seen_by(events, seat) -> list[tuple]:
    return [
        (e.text, e.kind, json.dumps(dict(e.data), sort_keys=True)) for e in events if e.seats is None or seat in e.seats
    ]


def check_static(game, events) -> None:
    """What may never be seen now, in the views and in the events of the last step."""
    room = game.view(None)
    assert room["sealed"] is None
    if room["task"] is not None:
        assert room["task"].get("sealed") is None
        assert room["task"].get("mines") is None
    assert not any(e.public and e.kind in ("mines", "sealed") for e in events)
    if not tiles_hidden(game):
        return
    secrets = grid_secrets(game)
    for seat in (None, *SEATS):
        view = game.view(seat)
        assert view["task"]["grid"] is None and view["task"]["original_grid"] is None
        dumped = json.dumps(view)
        assert not any(secret in dumped for secret in secrets), "a hidden colour is in a view"
    said = public_text(events)
    assert not any(secret in said for secret in secrets), "a hidden colour is in an event"
    for seat, listing in unexploded_mines(game).items():
        assert listing not in said
        assert game.view(None)["task"]["mines"] is None and listing not in json.dumps(game.view(None))
        # The opponent's view shows its own mines under "mines", never these.
        opponent = game.view(other_seat(seat))["task"]
        if opponent["mines"] is None or " ".join(opponent["mines"]) != listing:
            assert listing not in json.dumps(opponent)


def alternative(game, move, rng: random.Random):
    """Another legal private submission of the same seat, or ``None``."""
    seat = move.seat
    if isinstance(move, Mines):
        for _ in range(20):
            tiles = sorted(rng.sample(list(TILES), 5), key=lambda p: (p.col, p.row))
            other = Mines(seat, tuple(str(p) for p in tiles))
            if other != move:
                return other
        return None
    options = []
    for candidate in game.legal_moves(seat):
        if candidate != move and game.is_private(candidate):
            options.append(candidate)
        if len(options) >= 200:
            break
    return rng.choice(options) if options else None


def check_sealed(game, move, rng: random.Random) -> bool:
    """A sealed submission that leaves the opponent still to answer changes nothing that the room
    or the opponent sees or is told, whatever it was. Returns whether the comparison was made."""
    other = alternative(game, move, rng)
    opponent = other_seat(move.seat)
    if other is None or opponent not in game.to_move():
        return False
    a, b = game.copy(), game.copy()
    events_a, events_b = a.play(move), b.play(other)
    if opponent not in a.to_move() or opponent not in b.to_move():
        return False  # the phase resolved: both are revealed together, as the rules say
    assert seen_by(events_a, opponent) == seen_by(events_b, opponent)
    assert public_text(events_a) == public_text(events_b)
    assert a.view(None) == b.view(None)
    assert a.view(opponent) == b.view(opponent)
    return True


def scan_match(seed: int, items: str, *, steps: int = 3000) -> dict[str, int]:
    rng = random.Random(f"hidden:{seed}")
    game = make(seed=seed, items=items, first=rng.choice(SEATS))
    counts = {"hidden-grid": 0, "mines": 0, "sealed": 0}
    check_static(game, game.opening_events())
    for _ in range(steps):
        if game.is_over:
            break
        kind, what = random_move(game, rng)
        if kind == "window":
            events = game.close_window()
        elif kind == "timeout":
            events = game.timeout(what)
        else:
            if game.is_private(what):
                counts["sealed"] += check_sealed(game, what, rng)
            events = game.play(what)
        check_static(game, events)
        if tiles_hidden(game):
            counts["hidden-grid"] += 1
            counts["mines"] += bool(unexploded_mines(game))
    assert game.is_over
    return counts


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), items=st.sampled_from(ITEMS))
def test_no_public_event_or_view_ever_holds_a_hidden_value(seed, items):
    scan_match(seed, items)


@pytest.mark.slow
def test_the_scan_meets_every_kind_of_secret():
    totals = {"hidden-grid": 0, "mines": 0, "sealed": 0}
    for seed in range(6):
        for key, value in scan_match(seed, ITEMS[1]).items():
            totals[key] += value
    assert all(value > 0 for value in totals.values()), totals


def test_the_grid_is_public_during_its_window_and_revealed_at_the_end_of_the_task():
    game = make(seed=4)
    assert len(game.view(None)["task"]["grid"]) == 49
    game.close_window()
    assert all(game.view(s)["task"]["grid"] is None for s in (None, *SEATS))
    events = game.timeout("p1")  # p1 was to call: it loses the task, and the grid is shown
    final = next(e for e in events if e.kind == "final-grid")
    assert final.public and len(final.data["grid"]) == 49 and final.data["play"] == 1
