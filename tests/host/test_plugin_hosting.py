"""The example plug-in (examples/blackwhite) through the real host: what the conformance suite's
random play may not reach. Both clocks of a simultaneous phase run out at once, and each seat's
timeout plays for it; a room that hosts a whole match with pictures is never shown a tile, and
its boards are the plug-in's picture of the room's view."""

from __future__ import annotations

import re

import pytest

from geniusbot.games import registry
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from tests.fakediscord import png_size
from tests.host.support import FakeTime

from .test_match import fire_due

pytestmark = pytest.mark.skipif(
    "blackwhite" not in registry(),
    reason="the example game is not installed (pip install -e examples/blackwhite, as the README's test command does)",
)

ROOM = 7
PLAYERS = [Player("p1", 11, "Ann"), Player("p2", 22, "Ben")]


async def start(host: Host, **kw) -> int:
    reply = await host.start_match("blackwhite", seed=0, players=PLAYERS, channel_id=ROOM, **kw)
    assert reply.ok, reply.message
    return reply.match_id


async def test_both_clocks_running_out_at_once_play_both_lowest_tiles(store):
    clock = FakeTime()
    transport = RecordingTransport()
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    match_id = await start(host, clock="10s")
    clock.advance(11)
    await fire_due(host, clock)
    game = (await host.load(match_id)).game
    assert game.view(None)["rounds"] == [{"p1": "black", "p2": "black", "winner": None}]  # 0 against 0
    assert game.to_move() == ("p1", "p2") and not game.is_over
    # One seat plays, the other's time runs out: the round resolves on the timeout.
    await host.submit(match_id, "p1", "play 8", private=True)
    clock.advance(11)
    await fire_due(host, clock)
    game = (await host.load(match_id)).game
    assert game.view(None)["rounds"][-1] == {"p1": "black", "p2": "white", "winner": "p1"}  # 8 against 1
    assert game.view("p2")["mine"] == [0, 1]
    # The game's own timeout event (EventKind.TIMEOUT) is the room's line for it, said once.
    timeouts = [s.text for s in transport.sent if s.room == ROOM and "ran out of time" in s.text]
    said = [line for text in timeouts for line in text.splitlines() if "ran out of time" in line]
    assert len(said) == 3, said  # both seats in round 1, p2 alone in round 2
    assert all("their lowest tile is played for them" in line for line in said), said


@pytest.mark.slow
async def test_a_hosted_match_never_shows_the_room_a_tile_before_the_reveal(store):
    from blackwhite.picture import HEIGHT, WIDTH

    transport = RecordingTransport()
    host = Host(store, transport, now=FakeTime(), heartbeat=0)
    match_id = await start(host, clock="none")
    tiles = [(4, 6), (8, 7), (0, 8), (7, 5), (3, 3), (2, 4), (6, 2), (5, 1), (1, 0)]
    for a, b in tiles:
        assert (await host.submit(match_id, "p1", f"play {a}", private=True)).status == "accepted"
        assert (await host.submit(match_id, "p2", f"play {b}", private=True)).status == "accepted"
    game = (await host.load(match_id)).game
    assert game.outcome() is not None and game.outcome().winner == "p1"
    room = [s for s in transport.sent if s.room == ROOM]
    pictures = [s for s in room if s.op == "picture"]
    assert len(pictures) == 1 + 2 * len(tiles)  # the start, then a board after every tile
    # The boards are the plug-in's picture (its card's size), the last one of the finished game.
    assert all(p.png is not None and png_size(p.png) == (WIDTH, HEIGHT) for p in pictures)
    assert pictures[-1].text.endswith("Result: Ann (p1) wins. Ann won 5 rounds to 3.")
    said = [s.text for s in room if "The tiles, round by round" not in s.text and "Result:" not in s.text]
    leaks = [t for t in said if "Taken" in t or re.search(r"play [0-8]", t.replace("such as play 4", ""))]
    assert leaks == []
    private = [s for s in transport.sent if s.op == "private" and s.to == "p1"]
    assert [s.text for s in private if s.text.startswith("Taken")][:2] == ["Taken: play 4.", "Taken: play 8."]
