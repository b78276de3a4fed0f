"""Clock notices ("30 s left", "a period is used up") when timers fire late or in coarse steps.

The test clock is advanced in whole steps and every due timer row is then delivered, as the
dispatcher does when it wakes: a row fires up to one step after its own time. Every notice due
must still be posted exactly once, in order; several due in one delivery are summed up.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.support import FakeTime


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False)


async def run(host: Host, clock: FakeTime, seconds: float, step: float) -> None:
    """Let ``seconds`` pass ``step`` at a time, delivering the due rows after each step."""
    end = clock.t + seconds
    while clock.t < end - 1e-9:
        clock.t = min(end, clock.t + step)
        # Rows armed by a delivery are due after now, so one pass delivers everything due.
        for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
            if not await host.on_timer(timer):
                await host.store.delete_timer(timer.id)


async def start_byoyomi(host: Host, clock: FakeTime, transport: RecordingTransport) -> int:
    """A 5x60s match in which Alice lays the opening stones in 3 s: Bob's periods end at 63, 123, 183, 243 s."""
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock="5x60s"
    )
    assert reply.ok, reply.message
    clock.t += 3
    # Alice's row for her first period (due at 60 s) stays: it is earlier than Bob's first alert,
    # so it is the row left over that fires first in Bob's turn (the colour choice). In 5 s or
    # 20 s steps from 3 s it fires at 63 s, the very moment Bob's first period ends.
    for stone in ("H8", "H9", "H10"):
        assert (await host.submit(reply.match_id, "p1", stone)).ok
    assert host.matches[reply.match_id].game.to_move() == ("p2",)
    transport.clear()
    return reply.match_id


def notices(transport: RecordingTransport) -> list[str]:
    return [t for t in transport.room_texts() if t.startswith(("Alice (p1):", "Bob (p2):"))]


EVERY_NOTICE = [f"Bob (p2): a period is used up; {n} left." for n in (4, 3, 2, 1)] + [
    "Bob (p2): 30 s left.",
    "Bob (p2): 10 s left.",
]


@pytest.mark.parametrize("step", [1, 5, 7])
async def test_every_notice_is_posted_once_in_order_with_fine_and_coarse_steps(host, clock, transport, step):
    match_id = await start_byoyomi(host, clock, transport)
    await run(host, clock, 299, step)  # Bob's deadline is 300 s into his turn
    assert notices(transport) == EVERY_NOTICE
    assert (await host.store.get_match(match_id)).status == "live"
    await run(host, clock, 1, step)
    assert (await host.store.get_match(match_id)).status == "finished"
    assert notices(transport) == EVERY_NOTICE
    assert any(t.startswith("Bob (p2) ran out of time.") for t in transport.room_texts())


async def test_twenty_second_steps_lose_no_period_and_say_only_the_warning_still_true(host, clock, transport):
    match_id = await start_byoyomi(host, clock, transport)
    # Steps end 20, 40, ..., 280 s into Bob's turn (which began at 3 s).
    await run(host, clock, 280, 20)
    # The 30 s warning (270 s into the turn) is posted at 280 s; the 10 s warning (290 s) would
    # be posted at 300 s, when the time is out and the timeout says it all.
    assert notices(transport) == EVERY_NOTICE[:5]
    await run(host, clock, 20, 20)
    assert (await host.store.get_match(match_id)).status == "finished"
    assert notices(transport) == EVERY_NOTICE[:5]


async def test_a_jump_past_several_notices_posts_one_summary_then_the_rest_in_turn(host, clock, transport):
    match_id = await start_byoyomi(host, clock, transport)
    await run(host, clock, 200, 200)  # past the periods ending at 60, 120 and 180 s of Bob's turn
    assert notices(transport) == ["Bob (p2): 3 periods are used up; 2 left."]
    assert host.matches[match_id].clock.remaining("p2", clock.t).periods_left == 2
    await run(host, clock, 75, 5)  # 275 s into the turn: the fourth period and the 30 s warning
    assert notices(transport) == [
        "Bob (p2): 3 periods are used up; 2 left.",
        "Bob (p2): a period is used up; 1 left.",
        "Bob (p2): 30 s left.",
    ]
    await run(host, clock, 200, 200)
    assert notices(transport)[3:] == []  # out of time: the timeout alone is said
    assert (await host.store.get_match(match_id)).status == "finished"


async def test_a_jump_over_a_warning_and_a_period_says_both_in_time_order(host, clock, transport):
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock="2x40s"
    )
    transport.clear()
    # Alice's deadline is 80 s: the 30 s warning falls at 50 s, after her first period (40 s).
    await run(host, clock, 55, 55)
    assert notices(transport) == ["Alice (p1): a period is used up; 1 left.", "Alice (p1): 30 s left."]
    await run(host, clock, 20, 20)
    assert notices(transport)[2:] == ["Alice (p1): 10 s left."]
    assert (await host.store.get_match(reply.match_id)).status == "live"


async def test_a_reserve_clock_announces_overtime_once_when_its_row_fires_late(host, clock, transport):
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock="60s+5m"
    )
    transport.clear()
    await run(host, clock, 80, 20)  # the row for 60 s fires at 60; then nothing until 330 s
    await run(host, clock, 255, 255)  # 335 s: the 30 s warning (330 s) fires 5 s late
    texts = notices(transport)
    assert texts[0] == "Alice (p1): the move time is up; now on reserve, 5:00 left."
    assert texts[1:] == ["Alice (p1): 30 s left."]
    assert (await host.store.get_match(reply.match_id)).status == "live"


# ---- a timeout is said once --------------------------------------------------------------------


def said_after(transport: RecordingTransport, mark: int) -> str:
    """Everything the room was shown since ``mark`` (posts and picture captions), as one text."""
    return "\n".join(s.text for s in transport.sent[mark:] if s.op in ("post", "picture"))


@pytest.mark.parametrize("pictures", [False, True])
@pytest.mark.parametrize("spec", ["60s", "5x60s"])
async def test_a_timeout_is_said_once_with_the_name_then_the_result(store, transport, clock, spec, pictures):
    host = Host(store, transport, now=clock, pictures=pictures)
    reply = await host.start_match(
        "tictacfive", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock=spec
    )
    mark = len(transport.sent)
    await run(host, clock, 301, 301)
    assert (await host.store.get_match(reply.match_id)).status == "finished"
    text = said_after(transport, mark)
    assert text.count("ran out of time") == 1 and text.count("wins") == 1
    assert "Alice (p1) ran out of time." in text
    assert text.endswith("Result: Bob (p2) wins.")
    if pictures:  # one message: the announcement above the result, on the board
        caption = [s.text for s in transport.sent[mark:] if s.op == "picture"][-1]
        assert caption == "Alice (p1) ran out of time.\nResult: Bob (p2) wins."
    # The status command still says why, since nothing above it does, with the names; the store
    # keeps the game's own words.
    status = await host.command(reply.match_id, "status")
    assert status.message.endswith("Result: Bob (p2) wins. Alice ran out of time.")  # the winner named once
    stored = await host.store.get_match(reply.match_id)
    assert stored.result.reason == "p1 ran out of time; p2 wins."


@pytest.mark.parametrize("pictures", [False, True])
async def test_a_dueling_decks_timeout_submits_nothing_and_names_no_winner(store, transport, clock, pictures):
    host = Host(store, transport, now=clock, pictures=pictures)
    reply = await host.start_match(
        "decks", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock="30s"
    )
    mark = len(transport.sent)
    await run(host, clock, 30, 30)
    assert (await host.store.get_match(reply.match_id)).status == "live"
    text = said_after(transport, mark)
    assert "wins" not in text and "Result" not in text
    for who in ("Alice (p1)", "Bob (p2)"):
        assert text.count(f"{who} ran out of time") == 1
        assert f"{who} ran out of time and creates nothing this phase." in text
    assert text.count("ran out of time") == 2


@pytest.mark.parametrize("pictures", [False, True])
async def test_when_both_clocks_run_out_the_board_comes_after_both_timeouts(store, transport, clock, pictures):
    host = Host(store, transport, now=clock, pictures=pictures)
    reply = await host.start_match(
        "decks", players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, clock="30s"
    )
    mark = len(transport.sent)
    await run(host, clock, 30, 30)
    room = [s for s in transport.sent[mark:] if s.op in ("post", "picture")]
    boards = [i for i, s in enumerate(room) if s.op == "picture" or "To move:" in s.text]
    # Nothing claims Bob is to move on a spent clock: the next phase's board, after both lines.
    assert "0:00" not in "\n".join(s.text for s in room)
    alice = next(i for i, s in enumerate(room) if "Alice (p1) ran out of time" in s.text)
    bob = next(i for i, s in enumerate(room) if "Bob (p2) ran out of time" in s.text)
    assert boards and alice <= bob <= boards[0]
    assert room[boards[0]].text.endswith("To move: Alice (p1) 0:30, Bob (p2) 0:30.")  # round 2's create phase
    if pictures:  # one message for the two timeouts and what they brought about
        [picture] = [s for s in room if s.op == "picture"]
        assert picture.text.startswith(
            "Alice (p1) ran out of time and creates nothing this phase.\n"
            "Bob (p2) ran out of time and creates nothing this phase.\n"
        )
    # Each timeout is still an action of its own in the record.
    actions = [(a.kind, a.text) for a in await host.store.actions(reply.match_id)]
    assert actions[-2:] == [("timeout", "timeout p1"), ("timeout", "timeout p2")]


async def test_the_result_says_a_timeout_once_by_its_termination_not_by_its_words(store, transport, clock):
    # Players with no names: the host's timeout line is "p1 ran out of time." and the game's own
    # sentence begins the same way; the caption knows which timeout was said from the data alone.
    host = Host(store, transport, now=clock, pictures=False)
    reply = await host.start_match("tictacfive", players=[Player("p1", 11), Player("p2", 22)], seed=5, clock="60s")
    mark = len(transport.sent)
    await run(host, clock, 301, 301)
    text = said_after(transport, mark)
    assert text.count("ran out of time") == 1 and text.endswith("Result: p2 wins.")
    live = await host.load(reply.match_id)
    assert live is not None
    outcome = live.game.outcome()
    assert outcome is not None and outcome.termination == "time" and outcome.data["seat"] == "p1"
    # Said already for p1: the result alone; for another seat, or none, the result says why.
    assert host.announcer.caption(live, clock.t, timed_out=frozenset({"p1"})) == "Result: p2 wins."
    assert host.announcer.caption(live, clock.t, timed_out=frozenset({"p2"})) == "Result: p2 wins. p1 ran out of time."
    assert host.announcer.caption(live, clock.t) == "Result: p2 wins. p1 ran out of time."
