"""Every registered game and rule set, played at random through the host to the end (or a cap),
then exported and adjudicated: every exported line is accepted, and the adjudicator, the replay
and the host agree on the final game. Clocks run, windows close by their timers, and some moves
come too late."""

from __future__ import annotations

import random
from importlib.metadata import entry_points

import pytest

from geniusbot.adjudicate import adjudicate_text
from geniusbot.games import ENTRY_POINT_GROUP, registry
from geniusbot.host.match import Host
from geniusbot.host.replay import export_record, replay_match
from geniusbot.host.transport import Player, RecordingTransport

from .test_match import FakeTime, fire_due


async def play_at_random(
    host: Host, match_id: int, clock: FakeTime, rng: random.Random, *, cap: int, delays=(1, 3, 8, 25, 40)
) -> None:
    """Play ``cap`` random legal moves (or to the end) of the seats to move, each after one of
    ``delays`` seconds (now and then into the reserve, or past the clock); a window with nobody
    to move is waited out, and the timers due are fired as the clock moves."""
    for _ in range(cap):
        game = (await host.load(match_id)).game
        if game.is_over:
            break
        if game.window() is not None and not game.to_move():
            clock.advance(game.window().seconds)
            await fire_due(host, clock)
            continue
        seat = rng.choice(game.to_move()) if game.to_move() else None
        moves = list(game.legal_moves(seat)) if seat else []
        if not moves:
            clock.advance(5)
            await fire_due(host, clock)
            continue
        move = rng.choice(moves)
        clock.advance(rng.choice(delays))
        await fire_due(host, clock)
        if (await host.load(match_id)).game.is_over:
            break
        reply = await host.submit(match_id, move.seat, move.text(), private=game.is_private(move))
        assert reply.status in ("accepted", "rejected"), reply


CASES = [(name, variant) for name, cls in registry().items() for variant in cls.variants]
CAP = 40


def test_the_cases_are_every_registered_game_and_rule_set_a_plug_in_too():
    # A game installed from outside (examples/blackwhite) is hosted through the same cases as a built-in.
    assert set(CASES) == {(n, v) for n, cls in registry().items() for v in cls.variants}
    outside = {e.name for e in entry_points(group=ENTRY_POINT_GROUP) if e.dist is None or e.dist.name != "geniusbot"}
    assert outside <= {name for name, _ in CASES}


@pytest.mark.slow
@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v}" for n, v in CASES])
async def test_random_play_through_the_host_exports_a_record_that_adjudicates_the_same(store, name, variant):
    rng = random.Random(f"{name}:{variant}")
    clock = FakeTime()
    host = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=0)
    reply = await host.start_match(
        name,
        variant=variant,
        seed=rng.randrange(1000),
        clock="20s+30s",
        players=[Player("p1", 1, "Ann"), Player("p2", 2, "Ben")],
    )
    assert reply.ok, reply.message
    match_id = reply.match_id
    await play_at_random(host, match_id, clock, rng, cap=CAP)
    final = (await host.load(match_id)).game
    judged = adjudicate_text(await export_record(store, match_id))
    assert all(action.accepted for action in judged.actions), [a for a in judged.actions if not a.accepted]
    assert judged.game == final
    steps = await replay_match(store, match_id)
    assert steps[-1].game == final
