"""A pause during a vanishing window (docs/host.md ruling 22, docs/rules/tiles.md ruling 18): the window's
time is wall time during a pause as across an outage. The grid stays on show while the match is
paused and goes at its time; a resume after that time closes the window at once, so the room
is never left without the grid while moves are still refused. A window that is not vanishing
keeps the pause's length, as the clocks do. Real SQLite, an injected clock, a recording transport.
"""

from __future__ import annotations

from geniusbot.host.match import DELETE_TIMER

from .sealedbid import registered
from .test_match import fire_due, host, start  # noqa: F401 - host: a fixture


async def test_the_grid_goes_at_its_time_during_a_pause_and_the_resume_closes_its_window(host, transport, clock):
    match_id = await start(host, "tiles", clock="30s")
    grid = {t.payload["message_id"] for t in await host.store.timers(match_id) if t.kind == DELETE_TIMER}
    assert grid
    clock.advance(10)
    transport.clear()
    assert (await host.command(match_id, "pause")).ok
    assert transport.room_texts() == [
        "The host paused the match; the clocks are stopped, but not the window's time "
        "(what it shows stays on show until its time)."
    ]
    clock.advance(30)  # T+40: the grid's 30 s of wall time are over, the match still paused
    await fire_due(host, clock)
    assert {s.message_id for s in transport.sent if s.op == "delete"} == grid
    transport.clear()
    assert (await host.command(match_id, "resume")).ok
    said = transport.room_texts()
    assert said[0] == (
        "The match goes on; the window's time ran on during the pause (what it shows stayed on show): "
        "its time ran out meanwhile, so it closes now."
    )
    live = host.matches[match_id]
    assert live.game.window() is None and not live.host.get("window")
    assert [a.text for a in await host.store.actions(match_id)][-2:] == ["resume", "close window"]
    # The calls start now: a move is not refused as though the grid were still on show.
    reply = await host.submit(match_id, live.game.to_move()[0], "A1 red")
    assert "memorize" not in reply.message


async def test_a_resume_inside_the_window_leaves_its_end_where_it_was(host, transport, clock):
    match_id = await start(host, "tiles", clock="30s")
    clock.advance(10)
    assert (await host.command(match_id, "pause")).ok
    clock.advance(5)
    transport.clear()
    assert (await host.command(match_id, "resume")).ok  # T+15
    assert transport.room_texts()[0].startswith(
        "The match goes on; the window's time ran on during the pause (what it shows stayed on show): "
        "it closes in 15 s."
    )
    clock.advance(14)
    await fire_due(host, clock)
    assert host.matches[match_id].game.window() is not None
    clock.advance(1)  # T+30: the grid goes, and the window with it
    await fire_due(host, clock)
    assert host.matches[match_id].game.window() is None
    assert await host.store.messages_to_delete() == []


async def test_a_pause_moves_the_end_of_a_window_that_is_not_vanishing(host, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="30s", options={"memorize": "1"})
        live = host.matches[match_id]
        live.host["window"]["vanishing"] = False  # as a window whose messages stay (the landmine window)
        clock.advance(10)
        await host.command(match_id, "pause")
        clock.advance(500)
        await host.command(match_id, "resume")
        clock.advance(19)
        await fire_due(host, clock)
        assert (await host.store.get_match(match_id)).state["state"]["window_open"]
        clock.advance(1)
        await fire_due(host, clock)
        assert not (await host.store.get_match(match_id)).state["state"]["window_open"]
