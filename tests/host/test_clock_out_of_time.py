"""A seat whose clock has run out shows 0:00 on the board, the status line and the clock line,
not the allowance a seat off turn has ahead (through the host, with an injected clock)."""

from __future__ import annotations

import pytest

from geniusbot.host.clock import Clock, TimeControl
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.support import FakeTime
from tests.host.test_clock_notices import run


@pytest.mark.parametrize(("control", "alice"), [("60s+5m", "1:00 +5:00"), ("5x60s", "1:00 (5 periods)")])
async def test_a_seat_out_of_time_shows_0_00_on_the_board_and_in_the_status(
    store: Store, transport: RecordingTransport, clock: FakeTime, control: str, alice: str
) -> None:
    host = Host(store, transport, now=clock, pictures=False)
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock=control
    )
    clock.t += 3
    for stone in ("H8", "H9", "H10"):
        assert (await host.submit(reply.match_id, "p1", stone)).ok
    transport.clear()
    await run(host, clock, 400, 10)  # Bob's 6 minutes (5 in byo-yomi) run out
    board = next(t for t in transport.room_texts() if "clocks:" in t)
    assert f"clocks: Alice {alice}, Bob 0:00\n" in board  # the seats named as the lines name them
    live = await host.load(reply.match_id)
    assert host.clocks(live, clock.t) == {"p1": alice, "p2": "0:00"}
    assert f"Clocks: Alice (p1) {alice}, Bob (p2) 0:00." in host.status_text(live)


def test_the_flag_is_kept_in_storage_and_cleared_by_the_next_turn() -> None:
    c = Clock.new(TimeControl.parse("30s"))
    c.start("p1", 0)
    assert c.stop("p1", 31).flagged
    assert c.display("p1", 31) == "0:00" and c.display("p2", 31) == "0:30"
    stored = c.to_dict()
    assert stored["seats"]["p1"]["flagged"] is True and "flagged" not in stored["seats"]["p2"]
    again = Clock.from_dict(stored)
    assert again == c and again.display("p1", 40) == "0:00"
    again.start("p1", 40)  # a game that plays on after a timeout: the seat's next turn has its time
    assert again.display("p1", 45) == "0:25" and "flagged" not in again.to_dict()["seats"]["p1"]
