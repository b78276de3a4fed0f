"""The match host against real databases (SQLite and PostgreSQL), with an injected clock.

The transport is a recording fake: it is the outside world, not the thing under test.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from geniusbot.host.match import CLOCK_TIMER, DELETE_TIMER, WINDOW_TIMER, Host, ReplyStatus
from geniusbot.host.routing import match_number
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import MatchStatus, Store
from geniusbot.storage.models import MATCH_STATUSES
from tests.host.support import T0, FakeTime

from .sealedbid import registered


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False)


async def fire_due(host: Host, clock: FakeTime) -> int:
    """Deliver due timers the way the dispatcher does: callback, then delete the row."""
    fired = 0
    for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
        await host.on_timer(timer)
        await host.store.delete_timer(timer.id)
        fired += 1
    return fired


async def start(host: Host, game: str = "tictacfive", **kw) -> int:
    reply = await host.start_match(game, players=[Player("p1", 11, "Alice"), Player("p2", 22, "Bob")], seed=5, **kw)
    assert reply.ok, reply.message
    return reply.match_id


# ---- starting ------------------------------------------------------------------------------


async def test_start_commits_announces_and_shows_the_board(host, transport):
    match_id = await start(host, clock="60s+5m", channel_id=700)
    record = await host.store.get_match(match_id)
    assert record.status == "live" and record.channel_id == 700
    log = await host.store.actions(match_id)
    assert [(a.kind, a.text) for a in log] == [("start", "start 60s+5m")]
    texts = transport.room_texts()
    assert "Alice (p1) vs Bob (p2)" in texts[0] and "60 s a move, then a 5:00 reserve" in texts[0]
    # The game's own opening line says what to do first, then the board.
    assert texts[1] == "Alice places the three opening stones, black, white, black (a point is written like H8)."
    assert " A B C" in texts[2].replace("  ", " ")  # the text board
    timers = await host.store.timers(match_id)
    assert [(t.kind, t.payload["alert"]) for t in timers] == [(CLOCK_TIMER, "overtime")]


@pytest.mark.parametrize(
    "game, kw, fragment",
    [
        ("nosuchgame", {}, "There is no game called"),
        ("tictacfive", {"clock": "fast"}, "not a duration"),
        ("tictacfive", {"variant": "blitz"}, "has no rule set"),
        ("armslength", {"options": {"colour": "red"}}, "takes no option"),
    ],
)
async def test_bad_start_options_get_a_clear_message(host, game, kw, fragment):
    reply = await host.start_match(game, **kw)
    assert reply.status == "error" and fragment in reply.message
    assert await host.store.live_matches() == []


async def test_one_match_per_room(host):
    await start(host, channel_id=5)
    reply = await host.start_match("tictacfive", channel_id=5)
    assert reply.status == "error" and "already running in this room" in reply.message


# ---- submissions ---------------------------------------------------------------------------


async def test_a_legal_move_is_committed_before_it_is_announced(store, clock):
    seen: list[list[str]] = []

    class Checking(RecordingTransport):
        async def post(self, room, text):
            # Whatever the room hears about has reached the database already.
            seen.append([a.text for a in await store.actions(1)])
            return await super().post(room, text)

    host = Host(store, Checking(), now=clock, pictures=False)
    match_id = await start(host)
    assert match_id == 1
    clock.advance(5)
    reply = await host.submit(match_id, "p1", " h8 ")
    assert reply.ok and reply.message == "H8"
    assert "H8" in seen[-1]
    actions = await store.actions(match_id)
    assert actions[-1].kind == "move" and actions[-1].seat == "p1" and actions[-1].accepted
    assert actions[-1].clocks["seats"]["p1"]["on_turn"]  # p1 places the next opening stone too


async def test_an_illegal_move_is_answered_logged_and_changes_nothing(host, transport):
    match_id = await start(host)
    await host.submit(match_id, "p1", "H8")
    before = (await host.store.get_match(match_id)).state
    transport.clear()
    reply = await host.submit(match_id, "p1", "H8")
    assert reply.status == "rejected" and "taken" in reply.message
    assert transport.room_texts() == [f"Alice (p1): {reply.message}"]
    record = await host.store.get_match(match_id)
    assert record.state == before
    last = (await host.store.actions(match_id))[-1]
    assert (last.accepted, last.error, last.text) == (False, reply.message, "H8")
    assert (await host.submit(match_id, "p1", "H9")).ok  # the turn stood


async def test_out_of_turn_is_answered_non_players_and_chat_are_ignored(host, transport):
    match_id = await start(host, channel_id=9)
    transport.clear()
    reply = await host.submit(match_id, "p2", "H8")
    assert reply.status == "rejected" and "not your turn" in reply.message.lower()
    assert (await host.room_message(9, 999, "H8")).status == "ignored"  # a spectator
    assert (await host.room_message(9, 11, "# nice opening")).status == "ignored"
    assert (await host.room_message(9, 11, "H8")).ok  # Alice is p1
    assert (await host.room_message(10, 11, "H9")).status == "ignored"  # no match in that room


async def test_unknown_match_gets_a_clear_answer(host):
    reply = await host.submit(424242, "p1", "H8")
    assert reply.status == "error" and "no match #424242" in reply.message
    match_id = await start(host)
    reply = await host.submit(match_id, "p9", "H8")
    assert (
        reply.status == "error" and reply.message == f"'p9' is not a seat of match #{match_id}; its seats are p1, p2."
    )
    reply = await host.command(424242, "pause")
    assert reply.status == "error"


async def test_after_the_end_room_talk_is_ignored_and_dms_are_answered(host, transport, clock):
    match_id = await start(host)
    assert (await host.command(match_id, "resign", seat="p2")).ok
    record = await host.store.get_match(match_id)
    assert record.status == "finished" and record.result.winner == "p1"
    assert record.result.termination == "resignation"  # how it ended is kept as data, not only said
    transport.clear()
    assert (await host.submit(match_id, "p1", "H8")).status == "ignored"
    reply = await host.submit(match_id, "p1", "H8", private=True)
    assert reply.status == "rejected" and transport.private_texts("p1") == [
        "This match is over; no more moves are taken."
    ]
    assert (await host.command(match_id, "resign", seat="p1")).status == "error"
    clock.advance(400)  # the clock row armed before the end fires, finds the match over, goes
    transport.clear()
    assert await fire_due(host, clock) == 1
    assert transport.sent == [] and await host.store.timers(match_id) == []


# ---- clocks and timers ---------------------------------------------------------------------


async def test_warnings_then_timeout_through_the_timers(host, transport, clock):
    match_id = await start(host, clock="60s")
    transport.clear()
    clock.advance(30)
    assert await fire_due(host, clock) == 1
    assert transport.room_texts() == ["Alice (p1): 30 s left."]
    clock.advance(20)
    await fire_due(host, clock)
    assert transport.room_texts()[-1] == "Alice (p1): 10 s left."
    clock.advance(10)
    await fire_due(host, clock)
    record = await host.store.get_match(match_id)
    assert record.status == "finished" and record.result.winner == "p2"
    last = (await host.store.actions(match_id))[-1]
    # The seat whose clock ran out is in its column, and how the match ended is kept as data.
    assert (last.kind, last.text, last.seat) == ("timeout", "timeout p1", "p1")
    assert record.result.termination == "time"
    assert any("ran out of time" in t for t in transport.room_texts())
    assert await host.store.timers(match_id) == []


async def test_a_move_after_the_deadline_loses_even_if_the_timer_is_late(host, clock):
    match_id = await start(host, clock="60s")
    clock.advance(61)
    reply = await host.submit(match_id, "p1", "H8")
    assert reply.status == "rejected" and "Time ran out" in reply.message
    record = await host.store.get_match(match_id)
    assert record.result.winner == "p2"
    # Charged at the deadline, not when the host noticed.
    timeout = [a for a in await host.store.actions(match_id) if a.kind == "timeout"][0]
    assert timeout.at.timestamp() == T0 + 60


async def test_reserve_is_spent_and_the_timer_follows_the_new_deadline(host, clock):
    match_id = await start(host, clock="60s+5m")
    clock.advance(75)
    assert (await host.submit(match_id, "p1", "H8")).ok
    record = await host.store.get_match(match_id)
    assert record.clock["seats"]["p1"]["reserve_ms"] == 285_000
    clock.advance(1)
    assert (await host.submit(match_id, "p1", "H9")).ok
    (timer,) = await host.store.timers(match_id)
    assert timer.due_at.timestamp() == T0 + 60  # the first turn's row stays: it is earlier
    assert await fire_due(host, clock) == 1  # fires early, finds nothing due, re-arms
    (timer,) = await host.store.timers(match_id)
    assert timer.due_at.timestamp() == clock.t + 60  # the next overtime
    assert "reserve" not in " ".join(host.transport.room_texts()[-1:])


async def test_pause_stops_the_clocks_and_resume_restarts_them(host, transport, clock):
    match_id = await start(host, clock="60s")
    clock.advance(20)
    assert (await host.command(match_id, "pause")).ok
    transport.clear()
    reply = await host.submit(match_id, "p1", "H8")
    assert reply.status == "rejected" and "paused" in reply.message
    assert (await host.command(match_id, "pause")).status == "error"
    clock.advance(1000)
    assert await fire_due(host, clock) == 1  # the row armed before the pause: no warning, no loss
    assert len(transport.sent) == 1 and (await host.store.get_match(match_id)).status == "paused"
    assert (await host.command(match_id, "resume")).ok
    assert "Alice (p1) 0:40" in transport.room_texts()[-1]
    (timer,) = await host.store.timers(match_id)
    assert timer.due_at.timestamp() == clock.t + 10  # the 30 s warning
    assert (await host.command(match_id, "status")).message.startswith("Match #")


async def test_abort_ends_without_result(host):
    match_id = await start(host)
    assert (await host.command(match_id, "abort")).ok
    record = await host.store.get_match(match_id)
    assert record.status == "aborted" and record.result.winner is None
    assert (await host.command(match_id, "fly")).status == "error"


# ---- hidden information, simultaneous phases, windows --------------------------------------


async def test_sealed_bids_stay_private_until_both_are_in(host, transport, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="30s+1m@bout")
        record = await host.store.get_match(match_id)
        assert record.clock["seats"]["p1"]["on_turn"] and record.clock["seats"]["p2"]["on_turn"]
        transport.clear()
        reply = await host.submit(match_id, "p1", "bid 7")
        assert reply.status == "rejected" and "privately" in reply.message
        assert (await host.submit(match_id, "p1", "bid 7", private=True)).ok
        assert all("7" not in t for t in transport.room_texts())
        assert "Your bid of 7 is in." in transport.private_texts("p1")
        # Its own view, by DM, readable (pictures are off here): never a JSON dump.
        [view] = [t for t in transport.private_texts("p1") if t.startswith("Your view")]
        assert "my bid: 7" in view and "{" not in view and '"' not in view
        assert transport.private_texts("p2") == []
        clock.advance(40)  # p2 thinks into the reserve
        assert (await host.submit(match_id, "p2", "bid 3", private=True)).ok
        assert any(t == "Bids revealed: Alice 7, Bob 3." for t in transport.room_texts())
        record = await host.store.get_match(match_id)
        assert record.clock["seats"]["p2"]["reserve_ms"] == 60_000  # a new bout resets it


async def test_a_timed_out_bid_is_nothing_and_the_game_goes_on(host, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="30s")
        assert (await host.submit(match_id, "p1", "bid 1", private=True)).ok
        clock.advance(31)
        await fire_due(host, clock)
        record = await host.store.get_match(match_id)
        assert record.status == "live" and record.state["state"]["round"] == 2
        assert record.state["state"]["scores"] == {"p1": 1, "p2": 0}


async def test_a_window_closes_by_its_timer_and_clocks_wait_for_it(host, transport, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="30s", options={"memorize": "1"})
        kinds = sorted(t.kind for t in await host.store.timers(match_id))
        assert kinds == [DELETE_TIMER, WINDOW_TIMER]  # no clock runs; the board goes with the window
        clock.advance(29)
        await fire_due(host, clock)
        assert (await host.store.get_match(match_id)).state["state"]["window_open"]
        clock.advance(1)
        await fire_due(host, clock)
        record = await host.store.get_match(match_id)
        assert not record.state["state"]["window_open"]
        assert (await host.store.actions(match_id))[-1].text == "close window"
        assert "The number is hidden; bid now." in transport.room_texts()
        assert {t.kind for t in await host.store.timers(match_id)} == {CLOCK_TIMER}
        assert len([s for s in transport.sent if s.op == "delete"]) == 1


async def test_a_message_marked_for_deletion_is_deleted_by_a_durable_timer(host, transport, clock):
    with registered():
        match_id = await start(host, "sealedbid", clock="none")
        await host.submit(match_id, "p1", "bid 1", private=True)
        await host.submit(match_id, "p2", "bid 2", private=True)
        (timer,) = [t for t in await host.store.timers(match_id) if t.kind == DELETE_TIMER]
        assert timer.due_at.timestamp() == T0 + 60
        clock.advance(60)
        await fire_due(host, clock)
        deleted = [s for s in transport.sent if s.op == "delete"]
        assert [d.message_id for d in deleted] == [timer.payload["message_id"]]
        assert await host.store.messages_to_delete() == []


async def test_a_closed_dm_is_reported_without_the_secret(host, transport):
    with registered():
        match_id = await start(host, "sealedbid", clock="none")
        transport.fail_private.add("p1")
        assert (await host.submit(match_id, "p1", "bid 8", private=True)).ok
        room = " ".join(transport.room_texts())
        assert "could not send you a private message" in room and "8" not in room.replace("p1", "")


# ---- restarts and failures -----------------------------------------------------------------


async def test_recover_gives_back_the_outage_and_rearms(store, clock):
    first = Host(store, RecordingTransport(), now=clock, pictures=False)
    match_id = await start(first, clock="60s")
    clock.advance(20)
    assert (await first.submit(match_id, "p1", "H8")).ok
    clock.advance(15)  # p1 thinks 15 s on its second stone, then the bot dies
    clock.advance(3600)
    transport = RecordingTransport()
    second = Host(store, transport, now=clock, pictures=False)
    assert await second.recover() == [match_id]
    assert "back after 1:00:15" in transport.room_texts()[0]
    live = second.matches[match_id]
    assert live.clock.deadline("p1") == clock.t + 60
    assert await fire_due(second, clock) == 1  # the row from before the outage, now early
    assert not any("left" in t for t in transport.room_texts())
    (timer,) = await store.timers(match_id)
    assert timer.due_at.timestamp() == clock.t + 30
    assert (await second.submit(match_id, "p1", "H9")).ok


async def test_the_heartbeat_bounds_what_an_outage_gives_back(store, clock):
    first = Host(store, RecordingTransport(), now=clock, pictures=False)
    await first.recover()  # a host's start: nothing to resume, the heartbeat begins
    match_id = await start(first, clock="60s+5m")
    for _ in range(8):  # p1 thinks 40 s while the host beats every 5 s
        clock.advance(5)
        await fire_due(first, clock)
    clock.advance(3)  # the host dies 3 s after its last heartbeat
    clock.advance(1000)
    transport = RecordingTransport()
    second = Host(store, transport, now=clock, pictures=False)
    assert await second.recover() == [match_id]
    assert "back after 16:43" in transport.room_texts()[0]  # 1003 s: from the last heartbeat
    assert second.matches[match_id].clock.remaining("p1", clock.t).total_ms == 360_000 - 40_000
    beats = [t for t in await store.timers(None) if t.kind == "heartbeat"]
    assert [b.payload["alive_at"] for b in beats] == [clock.t]


async def test_a_second_crash_before_any_commit_loses_no_outage(store, clock):
    a = Host(store, RecordingTransport(), now=clock, pictures=False)
    await a.recover()
    match_id = await start(a, clock="60s")
    clock.advance(5)  # a dies 5 s into p1's turn, right after a heartbeat
    assert await fire_due(a, clock) == 1
    clock.advance(100)
    b = Host(store, RecordingTransport(), now=clock, pictures=False)
    version = (await store.get_match(match_id)).version
    await b.recover()
    assert (await store.get_match(match_id)).version == version  # one heartbeat write, no match writes
    for _ in range(4):  # p1 thinks 20 s more under b
        clock.advance(5)
        await fire_due(b, clock)
    clock.advance(1000)
    c = Host(store, RecordingTransport(), now=clock, pictures=False)
    await c.recover()
    assert c.matches[match_id].clock.remaining("p1", clock.t).total_ms == 60_000 - 25_000
    assert (await c.submit(match_id, "p1", "H8")).ok
    clock.advance(10)
    d = Host(store, RecordingTransport(), now=clock, pictures=False)
    await d.recover()
    assert d.heartbeat.outages == [(clock.t - 10, clock.t)]  # the older outages are in the match's row now
    assert d.matches[match_id].clock.remaining("p1", clock.t).total_ms == 60_000


async def test_recover_skips_paused_and_finished_matches(store, clock):
    first = Host(store, RecordingTransport(), now=clock, pictures=False)
    paused = await start(first)
    await first.command(paused, "pause")
    done = (await first.start_match("tictacfive")).match_id
    await first.command(done, "abort")
    clock.advance(100)
    transport = RecordingTransport()
    second = Host(store, transport, now=clock, pictures=False)
    assert await second.recover() == [paused]
    assert transport.room_texts() == []
    assert (await second.command(paused, "resume")).ok
    assert second.matches[paused].clock.deadline("p1") == clock.t + 360  # 60 s + 5:00, untouched


async def test_a_locked_database_refuses_the_move_and_a_retry_succeeds(db_url, clock, tmp_path):
    if not db_url.startswith("sqlite"):
        pytest.skip("the lock is a SQLite lock")

    async def no_sleep(_):
        return None

    store = await Store.open(db_url, migrate=False, busy_timeout_ms=20, retries=1, sleep=no_sleep)
    try:
        transport = RecordingTransport()
        host = Host(store, transport, now=clock, pictures=False)
        match_id = await start(host)
        locker = sqlite3.connect(db_url.split("///", 1)[1], isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        reply = await host.submit(match_id, "p1", "H8")
        assert reply.status == "unavailable" and "send it again" in reply.message
        locker.execute("ROLLBACK")
        locker.close()
        assert host.matches[match_id].game.view()["stones"] == {}
        assert (await host.submit(match_id, "p1", "H8")).ok
        record = await store.get_match(match_id)
        assert record.state["state"] != {} and [a.text for a in await store.actions(match_id)][-1] == "H8"
    finally:
        await store.close()


async def test_a_second_host_process_sees_a_stale_version_and_reloads(store, clock):
    a = Host(store, RecordingTransport(), now=clock, pictures=False)
    match_id = await start(a)
    b = Host(store, RecordingTransport(), now=clock, pictures=False)
    assert (await b.submit(match_id, "p1", "H8")).ok
    reply = await a.submit(match_id, "p1", "H9")  # a still holds version 1
    assert reply.status == "unavailable"
    assert (await a.submit(match_id, "p1", "H9")).ok  # reloaded: H8 is there, H9 goes on
    stones = (await store.get_match(match_id)).state["state"]
    assert "H8" in str(stones) and "H9" in str(stones)


# ---- with the real timer dispatcher ----------------------------------------------------------


async def test_the_dispatcher_drives_warnings_and_the_timeout(store, transport):
    from geniusbot.host.timers import TimerDispatcher
    from tests.manualtime import ManualTime

    manual = ManualTime(datetime.fromtimestamp(T0, UTC))
    # The dispatcher delivers to the host, which tells it when to wake: each is wired in its constructor.
    dispatcher = TimerDispatcher(store, lambda timer: host.on_timer(timer), time=manual)
    host = Host(store, transport, now=lambda: manual.now().timestamp(), pictures=False, wake=dispatcher.wake)
    dispatcher.start()
    try:
        match_id = await start(host, clock="60s+1m")
        manual.advance(30)
        assert (await host.submit(match_id, "p1", "H8")).ok
        for step in (30, 30, 30, 20, 10):  # the first row (T+60) fires early and re-arms
            manual.advance(step)
            await dispatcher.settle()
        texts = transport.room_texts()
        assert "Alice (p1): the move time is up; now on reserve, 1:00 left." in texts
        assert "Alice (p1): 30 s left." in texts and "Alice (p1): 10 s left." in texts
        record = await store.get_match(match_id)
        assert record.status == "finished" and record.result.winner == "p2"
        assert await store.timers(match_id) == []
    finally:
        await dispatcher.stop()


async def test_private_messages_find_the_players_match(host, transport):
    with registered():
        first = await start(host, "sealedbid", clock="none", channel_id=1)
        assert (await host.private_message(11, "bid 3")).ok
        assert (await host.private_message(99, "bid 3")).status == "ignored"
        second = await start(host, "sealedbid", clock="none", channel_id=2)
        reply = await host.private_message(11, "bid 4")
        assert reply.status == "error" and f"such as #{first} bid 4" in reply.message
        assert (await host.private_message(11, f"#{second} bid 4")).ok
        record = await host.store.get_match(second)
        assert record.state["state"]["bids"] == {"p1": 4}


async def test_a_memory_grid_and_every_board_showing_it_are_deleted_when_the_window_closes(host, transport, clock):
    match_id = await start(host, "tiles", clock="30s")
    posted = [s for s in transport.sent if s.op in ("post", "picture")]
    reveal = next(s for s in posted if s.text.startswith("Memorize the grid"))
    board = posted[-1]
    deletions = {
        t.payload["message_id"]: t.due_at.timestamp()
        for t in await host.store.timers(match_id)
        if t.kind == DELETE_TIMER
    }
    assert deletions == {reveal.message_id: T0 + 30, board.message_id: T0 + 30}
    assert (await host.submit(match_id, "p1", "call red")).status == "rejected"  # nobody moves yet
    clock.advance(30)
    await fire_due(host, clock)
    assert {s.message_id for s in transport.sent if s.op == "delete"} == {reveal.message_id, board.message_id}
    record = await host.store.get_match(match_id)
    assert record.state["state"]["phase"] != "memorize"
    assert (await host.submit(match_id, "p1", "call red")).ok
    later = [s.text for s in transport.sent if s.op == "post"][-1]
    assert "D4 black" not in later and '"grid": {' not in later  # the board after the window shows no colours


@pytest.mark.parametrize("talk", ["// brb", "(thinking)", "# gg"])
async def test_table_talk_is_never_a_submission(host, transport, talk):
    match_id = await start(host, channel_id=3)
    transport.clear()
    assert (await host.room_message(3, 11, talk)).status == "ignored"
    assert transport.sent == [] and len(await host.store.actions(match_id)) == 1


async def test_a_move_at_the_deadline_itself_is_too_late(host, clock):
    match_id = await start(host, clock="60s")
    clock.advance(60)
    assert (await host.submit(match_id, "p1", "H8")).status == "rejected"
    assert (await host.store.get_match(match_id)).result.winner == "p2"


async def test_a_corrupt_match_is_answered_not_raised(host, store):
    record = await store.create_match(game="tictacfive", seats=[], state={"game": "tictacfive", "broken": True})
    reply = await host.submit(record.id, "p1", "H8")
    assert reply.status == "error" and "cannot be loaded" in reply.message
    assert (await host.command(record.id, "pause")).status == "error"


async def test_a_vanishing_window_keeps_its_wall_time_across_a_restart(store, clock):
    with registered():
        a = Host(store, RecordingTransport(), now=clock, pictures=False)
        await a.recover()
        match_id = await start(a, "sealedbid", clock="30s", options={"memorize": "1"})
        clock.advance(10)
        await fire_due(a, clock)  # heartbeats: a is alive at T+10
        clock.advance(5)
        b = Host(store, RecordingTransport(), now=clock, pictures=False)
        await b.recover()  # back at T+15: what the window shows stayed on show meanwhile
        clock.advance(14)
        await fire_due(b, clock)
        assert (await store.get_match(match_id)).state["state"]["window_open"]
        clock.advance(1)  # T+30: its 30 s of wall time are over, the outage not added
        await fire_due(b, clock)
        assert not (await store.get_match(match_id)).state["state"]["window_open"]


async def test_a_vanishing_window_whose_time_ran_out_while_the_bot_was_down_closes_on_its_return(store, clock):
    with registered():
        a = Host(store, RecordingTransport(), now=clock, pictures=False)
        await a.recover()
        match_id = await start(a, "sealedbid", clock="30s", options={"memorize": "1"})
        clock.advance(100)
        b = Host(store, RecordingTransport(), now=clock, pictures=False)
        await b.recover()
        said = b.transport.room_texts()
        assert said[0] == (
            "The bot is back after 1:40; the clocks were stopped meanwhile, but not the window's time "
            "(what it shows stayed on show): its time ran out meanwhile, so it closes now."
        )
        assert "The number is hidden; bid now." in said
        assert not (await store.get_match(match_id)).state["state"]["window_open"]


async def test_byoyomi_periods_are_announced_as_they_go(host, transport, clock):
    match_id = await start(host, clock="3x60s")
    transport.clear()
    clock.advance(60)
    await fire_due(host, clock)
    assert "Alice (p1): a period is used up; 2 left." in transport.room_texts()
    clock.advance(1)
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert host.matches[match_id].clock.remaining("p1", clock.t).periods_left == 2


async def test_a_final_match_gives_the_clock_item_and_each_task_its_own_clock(host, clock):
    from geniusbot.games import Event, EventKind

    match_id = await start(host, "allhands", options={"items": "p1 clock; p2 override"})
    live = host.matches[match_id]
    assert live.clock.control.spec() == "30s"  # Tile Decklaration first
    assert live.clock.seats["p1"].extra_ms == 180_000 and live.clock.seats["p2"].extra_ms == 0
    host.committer.after_change(
        live, clock.t, [Event("Play 2", kind=EventKind.BOUT, data={"task": "decks", "clock": "30s+1m"})]
    )
    assert live.clock.control.spec() == "30s+60s" and live.clock.seats["p2"].reserve_ms == 60_000
    assert live.clock.seats["p1"].extra_ms == 180_000  # the Clock item lasts the whole match
    own = await start(host, "allhands", clock="60s+5m", channel_id=77)
    host.committer.after_change(
        host.matches[own], clock.t, [Event("Play 2", kind=EventKind.BOUT, data={"task": "decks", "clock": "30s+1m"})]
    )
    assert host.matches[own].clock.control.spec() == "60s+5m"  # a host's own clock stays


async def test_a_timer_delivered_while_a_move_opens_a_window_leaves_the_window_timer_alone(host, store, clock):
    # The race seen in the bot: a clock row falls due; before its delivery gets the match's
    # lock, a move opens a window (no clock runs); then the delivery runs and the dispatcher
    # deletes the delivered row by id. The window's row must survive (SQLite reuses ids).
    with registered():
        match_id = await start(host, "sealedbid", clock="60s", options={"rewindow": "1"})
        await host.submit(match_id, "p1", "bid 3", private=True)
        clock.advance(30)
        due = await store.due_timers(datetime.fromtimestamp(clock.t, UTC))
        assert [t.kind for t in due] == [CLOCK_TIMER]
        assert (await host.submit(match_id, "p2", "bid 5", private=True)).ok  # round 2: a window
        await host.on_timer(due[0])
        await store.delete_timer(due[0].id)  # what the dispatcher does after the callback
        assert WINDOW_TIMER in {t.kind for t in await store.timers(match_id)}
        clock.advance(30)
        await fire_due(host, clock)
        assert not (await store.get_match(match_id)).state["state"]["window_open"]


def test_a_private_message_is_read_for_its_match_number_once_in_one_grammar():
    assert match_number("#12 mines A1 B2") == (12, "mines A1 B2", True)
    assert match_number("#12: bid 3") == (12, "bid 3", True)
    assert match_number("  12, bid 3 ") == (12, "bid 3", False)
    assert match_number("#12 line one\nline two") == (12, "line one\nline two", True)
    assert match_number("bid 3") is None and match_number("#12") is None and match_number("15") is None


async def test_a_dm_names_its_match_by_number_with_or_without_the_hash(host, transport):
    with registered():
        first = await start(host, "sealedbid", clock="none", channel_id=1)
        second = await start(host, "sealedbid", clock="none", channel_id=2)
        # With several matches, a bare number that names one of them picks it, as "#" does.
        assert (await host.private_message(11, f"{first}: bid 2")).ok
        assert (await host.private_message(11, f"#{second}, bid 5")).ok
        assert (await host.store.get_match(first)).state["state"]["bids"] == {"p1": 2}
        assert (await host.store.get_match(second)).state["state"]["bids"] == {"p1": 5}
        # Full-width, as a Korean or Japanese keyboard types it: "＃" is "#" (host ruling 1).
        wide = str(first).translate({ord(d): ord(d) + 0xFEE0 for d in "0123456789"})
        assert (await host.private_message(22, f"＃{wide}　ｂｉｄ　７")).ok  # round 1 of match 1 is bid out
        assert (await host.store.get_match(first)).state["state"]["scores"] == {"p1": 0, "p2": 1}
        # A number that names none of them is no match number: the sender is asked which match.
        reply = await host.private_message(22, "99 bid 4")
        assert reply.status == "error" and f"such as #{first} 99 bid 4" in reply.message
        # "#" names a match whatever it is: one the sender does not play in finds nothing.
        assert (await host.private_message(22, "#99 bid 4")).status == "ignored"


async def test_statuses_are_enums_that_read_as_their_words(host, store, transport, clock):
    reply = await host.start_match("tictacfive", players=[Player("p1", 11), Player("p2", 22)], seed=5)
    assert reply.status is ReplyStatus.ACCEPTED and reply.status == "accepted" and reply.ok
    assert (await host.room_message(1, 99, "H8")).status is ReplyStatus.IGNORED
    assert host.matches[reply.match_id].status is MatchStatus.LIVE
    assert (await host.command(reply.match_id, "pause")).ok
    # Loaded again from the store, a match's status is the enum; the store keeps the word.
    again = Host(store, transport, now=clock)
    live = await again.load(reply.match_id)
    assert live is not None and live.status is MatchStatus.PAUSED
    assert (await store.get_match(reply.match_id)).status == "paused"
    assert f"{live.status}" == "paused" and tuple(MatchStatus) == MATCH_STATUSES
