"""In a memory task the levels differ in memory, as players do: of Tile Decklaration's grid,
shown for 30 seconds, `easy` remembers half, `normal` three quarters and `hard` all of it
(``Game.recall``). What a level forgot is dealt anew, by the colours left, at every draw of the
search; it declares a tile it is sure of when it has one, and guesses only when it has none."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from geniusbot.games.allhands.final import AllHandsOnDeck
from geniusbot.games.allhands.tiles import CENTRE, TILES, TileDecklaration
from geniusbot.games.grid import Point
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.practice import LEVELS, MEMORY, Budget, Choice, Knowledge, choose, seat as seat_module
from geniusbot.practice.seat import BotSeat
from geniusbot.storage import Practice, Store
from tests.host.support import FakeTime

from ..games.tiles_helpers import make, play


def _sq(point: Point) -> str:
    return f"{chr(65 + point.col)}{point.row + 1}"


def _pt(square: str) -> Point:
    return Point(ord(square[0]) - 65, int(square[1:]) - 1)


def test_each_level_remembers_its_share_of_the_grid_and_nothing_false():
    game = TileDecklaration.new(seed=3)
    shown = game.view("p1")["grid"]
    assert len(shown) == 49
    kept = {}
    for level, memory in MEMORY.items():
        grid = TileDecklaration.recall("p1", [game.view("p1")], memory)[0]["grid"]
        kept[level] = set(grid)
        assert grid[_sq(CENTRE)] == "black"  # black on every grid: nothing to remember
        assert len(grid) - 1 == round(48 * memory)
        assert all(shown[sq] == colour for sq, colour in grid.items())
    assert kept["hard"] == set(shown)
    assert len(kept["easy"]) == 25 and len(kept["normal"]) == 37


def test_a_grid_is_remembered_the_same_way_at_every_move():
    game = make()
    memorize = TileDecklaration.new(seed=5)
    views = [memorize.view("p2")]
    once = TileDecklaration.recall("p2", views, 0.75)
    again = TileDecklaration.recall("p2", [*views, game.view("p2")], 0.75)
    assert once[0] == again[0]
    assert again[1] == game.view("p2")  # a view without the grid is kept as it is


def test_a_level_that_knows_the_grid_keeps_the_views_as_they_are():
    views = [TileDecklaration.new(seed=5).view("p1")]
    assert TileDecklaration.recall("p1", views, 1.0) is views


def _hidden_grid_knowledge(keep: set[Point], *, memory: float = 1.0) -> tuple[TileDecklaration, Knowledge]:
    """The bands grid; p1 has called blue for p2, who saw only the tiles of ``keep`` (and the
    black centre) while the grid was shown."""
    game = make(hide=False)
    seen = game.view("p2")
    seen = dict(seen, grid={sq: c for sq, c in seen["grid"].items() if _pt(sq) in keep or _pt(sq) == CENTRE})
    game.close_window()
    play(game, "call blue")
    views = [seen, game.view("p2")]
    return game, Knowledge(game.name, game.variant, {}, "p2", views, memory=memory)


def test_what_a_seat_forgot_is_dealt_by_the_colours_left():
    keep = set(TILES[::2])
    game, knowledge = _hidden_grid_knowledge(keep)
    for seed in range(5):
        drawn = TileDecklaration.determinize("p2", knowledge.views, random.Random(seed), variant="")
        assert drawn is not None
        assert Counter(c for p, c in drawn.original.items() if p != CENTRE) == Counter(
            {"red": 16, "blue": 16, "green": 16}
        )
        assert all(drawn.original[p] == game.original[p] for p in keep)
        assert drawn.sure == {"p2": frozenset(keep)}


def test_with_a_tile_of_the_colour_called_remembered_it_declares_one_it_is_sure_of():
    # p2 remembers one blue tile, E5, and every red and green one.
    game, knowledge = _hidden_grid_knowledge({p for p in TILES if make(hide=False).original[p] != "blue"} | {_pt("E5")})
    drawn = TileDecklaration.determinize("p2", knowledge.views, random.Random(0), variant="")
    assert drawn is not None
    assert {m.text().split()[0] for m in drawn.search_moves("p2") or []} == {"E5"}
    for seed in range(4):
        assert choose(knowledge, Budget(32), seed=seed).text.startswith("E5 ")


def test_with_no_tile_of_the_colour_called_remembered_it_guesses_among_the_tiles_it_forgot():
    bands = make(hide=False).original
    # p2 remembers the red tiles and none of the rest: no blue tile is sure.
    red = {p for p in TILES if bands[p] == "red"}
    game, knowledge = _hidden_grid_knowledge(red)
    drawn = TileDecklaration.determinize("p2", knowledge.views, random.Random(0), variant="")
    assert drawn is not None
    guesses = {_pt(m.text().split()[0]) for m in drawn.search_moves("p2") or []}
    assert guesses == set(TILES) - red  # any tile it does not know, whatever this draw made it
    for seed in range(4):
        tile = _pt(choose(knowledge, Budget(32), seed=seed).text.split()[0])
        assert tile not in red


def test_a_seat_that_knows_the_grid_declares_only_true_tiles():
    game, knowledge = _hidden_grid_knowledge(set(TILES))
    drawn = TileDecklaration.determinize("p2", knowledge.views, random.Random(0), variant="")
    assert drawn is not None and drawn.sure == {}
    declared = {_pt(m.text().split()[0]) for m in drawn.search_moves("p2") or []}
    assert declared == {p for p in TILES if game.grid[p] == "blue"}


def test_an_imploding_tile_is_sure_only_with_its_neighbours_remembered():
    game = make(marks="C3 F6", hide=False, anomalies="implode")
    seen = game.view("p1")
    forgot = {"C2"}  # a neighbour of C3; F6's neighbours are all remembered
    seen = dict(seen, grid={sq: c for sq, c in seen["grid"].items() if sq not in forgot})
    game.close_window()
    drawn = TileDecklaration.determinize(
        "p1", [seen, game.view("p1")], random.Random(1), variant="", anomalies="implode"
    )
    assert drawn is not None
    assert _pt("F6") in drawn.sure["p1"] and _pt("C3") not in drawn.sure["p1"]


@pytest.mark.parametrize("memory", [0.5, 0.75])
def test_the_final_match_recalls_its_tile_decklaration_as_the_task_does(memory):
    final = AllHandsOnDeck.new(seed=2, items="p1 all-in; p2 all-in")
    views = []
    for _ in range(40):
        view = final.view("p1")
        views.append(view)
        task = view.get("task")
        if task and task.get("phase") == "memorize" and task.get("grid"):
            break
        movers = final.to_move()
        if movers:
            move = final.rollout_move(movers[0], random.Random(0)) or next(iter(final.legal_moves(movers[0])))
            final.play(move)
        else:
            final.close_window()
    else:
        pytest.fail("the final match never showed its grid")
    recalled = AllHandsOnDeck.recall("p1", views, memory)
    grid = recalled[-1]["task"]["grid"]
    assert grid == TileDecklaration.recall("p1", [views[-1]["task"]], memory)[0]["grid"]
    assert len(grid) - 1 == round(48 * memory)
    assert len(views[-1]["task"]["grid"]) == 49  # the views given are not changed


@pytest.mark.parametrize("level", sorted(MEMORY))
async def test_the_opponent_at_a_level_searches_with_that_levels_memory(level, sqlite_db_url, monkeypatch):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        clock = FakeTime()
        host = Host(store, RecordingTransport(), now=clock, heartbeat=0)
        started = await host.start_match(
            "tiles",
            players=[Player("p1", 11, "alice"), Player("p2", None, "geniusbot")],
            seed=4,
            clock="none",
            practice=Practice("p2", level),
        )
        assert started.ok and started.match_id is not None
        clock.advance(60)
        await host.command(started.match_id, "close window")
        assert (await host.submit(started.match_id, "p1", "call red")).ok
        searched: list[Knowledge] = []
        budgets: list[Budget] = []
        real = seat_module.search

        def spy(knowledge: Knowledge, budget: Budget, seed: int) -> Choice:
            searched.append(knowledge)
            budgets.append(budget)
            return real(knowledge, dataclasses.replace(budget, iterations=4), seed)  # a quick search

        monkeypatch.setattr(seat_module, "search", spy)
        bot = BotSeat(host, store, started.match_id, "p2", level=level, say=lambda _: None)
        assert await bot.step()
        assert [k.memory for k in searched] == [MEMORY[level]]
        # The level's search: its iterations, and whom it answers (a typical player or a searched one).
        assert [(b.iterations, b.modelled) for b in budgets] == [(LEVELS[level].iterations, LEVELS[level].modelled)]
    finally:
        await store.close()
