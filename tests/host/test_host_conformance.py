"""Every registered game and rule set, played at random through the host to the end (or a cap),
then exported and adjudicated: every exported line is accepted, and the adjudicator, the replay
and the host agree on the final game. Clocks run, windows close by their timers, and some moves
come too late. The check is :func:`geniusbot.conformance.hosted.check_hosted_play` (``geniusbot
check GAME`` runs it as ``hosted-play``), here on each database."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from geniusbot.conformance.hosted import check_hosted_play
from geniusbot.games import ENTRY_POINT_GROUP, registry

CASES = [(name, variant) for name, cls in registry().items() for variant in cls.variants]


def test_the_cases_are_every_registered_game_and_rule_set_a_plug_in_too():
    # A game installed from outside (examples/blackwhite) is hosted through the same cases as a built-in.
    assert set(CASES) == {(n, v) for n, cls in registry().items() for v in cls.variants}
    outside = {e.name for e in entry_points(group=ENTRY_POINT_GROUP) if e.dist is None or e.dist.name != "geniusbot"}
    assert outside <= {name for name, _ in CASES}


@pytest.mark.slow
@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v}" for n, v in CASES])
async def test_random_play_through_the_host_exports_a_record_that_adjudicates_the_same(store, name, variant):
    await check_hosted_play(store, registry()[name], variant)
