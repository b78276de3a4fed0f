"""While a timed window runs, its timer is the only clock: the board's clock line gives the
window's time left, never the move clocks, which wait and would read the same on every board."""

from __future__ import annotations

import re

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import RecordingTransport
from geniusbot.storage import Store
from tests.host.support import FakeTime
from tests.host.test_allhands_hosting import fire_due, start


def _said(transport: RecordingTransport, mark: int) -> list[str]:
    return [s.text for s in transport.sent[mark:] if s.op in ("post", "picture")]


@pytest.mark.parametrize("pictures", [False, True])
@pytest.mark.parametrize("clock_text", ["30s", "none"])
async def test_the_landmine_window_s_clock_line_counts_its_own_time_down(
    store: Store, transport: RecordingTransport, clock: FakeTime, pictures, clock_text
):
    host = Host(store, transport, now=clock, pictures=pictures, heartbeat=0)
    match_id = await start(host, "tiles", anomalies="landmine", clock=clock_text)
    live = host.matches[match_id]
    mark = len(transport.sent)
    clock.advance(30)  # the memorize window closes; the landmine window opens
    await fire_due(host, clock)
    assert live.game.phase == "landmines"
    opened = _said(transport, mark)
    line = "To move: Alice (p1), Bob (p2); the window closes in 30 s."
    assert host.clock_line(live, clock()) == line
    assert sum(t.count(line) for t in opened) == 1, opened
    # No frozen move clocks in a "To move" line ("alice (p1) 0:30").
    assert not [t for t in opened if re.search(r"To move:.*\d:\d\d", t)], opened
    clock.advance(12)
    mark = len(transport.sent)
    assert (await host.submit(match_id, "p1", "mines A7 B6 C5 E2 F1", private=True)).ok
    later = _said(transport, mark)
    assert sum(t.count("To move: Bob (p2); the window closes in 18 s.") for t in later) == 1, later
    # Once the window is gone, the move clocks are the clock line again.
    clock.advance(18)
    await fire_due(host, clock)
    assert live.game.phase == "call" and live.host["window"] is None
    starter = live.label(live.game.to_move()[0])
    expected = f"To move: {starter} 0:30." if clock_text == "30s" else f"To move: {starter}."
    assert host.clock_line(live, clock()) == expected


async def test_a_window_where_nobody_moves_has_no_clock_line(
    store: Store, transport: RecordingTransport, clock: FakeTime
):
    host = Host(store, transport, now=clock, pictures=True, heartbeat=0)
    match_id = await start(host, "tiles")
    live = host.matches[match_id]
    assert live.game.phase == "memorize"
    assert host.clock_line(live, clock()) == ""
    assert host.window_line(live, clock()) == "Memorize the grid: it is hidden in 30 s."
