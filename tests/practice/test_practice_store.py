"""A practice match is marked in the store (the opponent's seat and level), an old console match
whose seat is named ``bot`` still reads as one, the host sends nothing private to the opponent's
seat, and the opponent's seat log played through in parts knows what one played through whole
knows."""

from __future__ import annotations

import random

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.practice.seat import SeatLog, knowledge_of
from geniusbot.storage import Practice, SeatInfo, Store
from tests.host.support import FakeTime


async def test_a_practice_match_keeps_the_opponents_seat_and_level(store: Store) -> None:
    seats = [SeatInfo("p1", "alice", 11), SeatInfo("p2", "geniusbot")]
    record = await store.create_match(
        game="tictacfive", seats=seats, state={}, channel_id=5, guild_id=6, practice=Practice("p2", "hard")
    )
    again = await store.get_match(record.id)
    assert (again.practice_seat, again.practice_level) == ("p2", "hard")
    assert again.practice == Practice("p2", "hard")
    assert again.practice.describe() == "practice (bot at hard)"
    people = await store.create_match(game="tictacfive", seats=seats, state={}, channel_id=7, guild_id=6)
    assert people.practice is None


async def test_an_old_console_match_with_a_seat_named_bot_is_still_practice(store: Store) -> None:
    old = await store.create_match(game="tictacfive", seats=[SeatInfo("p1", "p1"), SeatInfo("p2", "bot")], state={})
    assert old.practice == Practice("p2", None)
    assert old.practice.describe() == "practice (bot)"
    # A member called "bot" on Discord plays a match between people.
    member = await store.create_match(
        game="tictacfive", seats=[SeatInfo("p1", "alice", 1), SeatInfo("p2", "bot", 2)], state={}, channel_id=3
    )
    assert member.practice is None


async def test_the_opponents_seat_must_be_a_seat_of_the_match(store: Store) -> None:
    with pytest.raises(ValueError, match="not a seat of the match"):
        await store.create_match(
            game="tictacfive", seats=[SeatInfo("p1", "a"), SeatInfo("p2", "b")], state={}, practice=Practice("p3")
        )


@pytest.mark.slow
async def test_nothing_private_goes_to_the_opponents_seat_and_its_log_adds_up(sqlite_db_url: str) -> None:
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        transport = RecordingTransport()
        clock = FakeTime()
        host = Host(store, transport, now=clock, heartbeat=0)
        started = await host.start_match(
            "tiles",
            players=[Player("p1", 11, "alice"), Player("p2", None, "geniusbot")],
            seed=4,
            options={"anomalies": "landmine"},
            clock="none",
            practice=Practice("p2", "easy"),
        )
        assert started.ok and started.match_id is not None
        match_id = started.match_id
        rng = random.Random(4)
        log = SeatLog(await store.get_match(match_id), "p2")
        for _ in range(60):
            live = host.matches.get(match_id)  # let go of once the match is over
            if live is None or live.game.is_over:
                break
            game = live.game
            if not game.to_move():
                clock.advance(60)
                await host.command(match_id, "close window")
                continue
            seat = game.to_move()[0]
            move = game.rollout_move(seat, rng) or rng.choice(list(game.legal_moves(seat)))
            await host.submit(match_id, seat, move.text(), private=game.is_private(move))
            # Played through a few actions at a time, it knows what one played through whole knows.
            log.add(await store.actions(match_id, accepted_only=True))
            assert log.knowledge() == await knowledge_of(store, match_id, "p2")
        actions = await store.actions(match_id, accepted_only=True)
        assert any(a.seat == "p2" and a.private for a in actions), "p2 made no private move"
        assert any(s.to == "p1" for s in transport.sent if s.op.startswith("private"))
        assert not [s for s in transport.sent if s.op.startswith("private") and s.to == "p2"]
    finally:
        await store.close()
