"""The store on SQLite and PostgreSQL: every method, concurrency, the append-only log."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from geniusbot.storage import (
    UNFINISHED_STATUSES,
    GuildConfig,
    MatchNotFound,
    NewAction,
    Result,
    RoomBusy,
    SeatInfo,
    StaleVersion,
    Store,
)
from tests.storage.timer_rows import delete_timers

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
SEATS = (SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Bob", 222))


async def new_match(store: Store, **overrides):
    values = dict(
        game="tictacfive",
        seats=SEATS,
        state={"board": [[0, 1], [2, 0]], "to_move": "p1"},
        seed=42,
        options={"setup": "swap"},
        guild_id=1,
        channel_id=10,
        clock={"p1": 300.0, "p2": 300.0},
        host={"phase": "opening"},
    )
    values.update(overrides)
    return await store.create_match(**values)


# --------------------------------------------------------------------------- matches


async def test_a_created_match_reads_back_whole(store: Store):
    seed = 2**70 + 3  # wider than any SQL integer
    created = await new_match(store, seed=seed, variant="influx")
    got = await store.get_match(created.id)
    assert got == created
    assert (got.game, got.variant, got.seed, got.status) == ("tictacfive", "influx", seed, "live")
    assert got.options == {"setup": "swap"}
    assert got.state == {"board": [[0, 1], [2, 0]], "to_move": "p1"}
    assert got.clock == {"p1": 300.0, "p2": 300.0}
    assert got.host == {"phase": "opening"}
    assert (got.version, got.last_seq, got.result, got.finished_at) == (0, 0, None, None)
    assert got.seats == SEATS
    assert got.seat_of(222) == "p2" and got.seat_of(999) is None
    assert got.created_at.tzinfo is not None and got.created_at.utcoffset() == timedelta(0)
    assert got.status in UNFINISHED_STATUSES


async def test_console_matches_have_no_guild_channel_or_user(store: Store):
    seats = (SeatInfo("p1", "you"), SeatInfo("p2", "them"))
    a = await new_match(store, guild_id=None, channel_id=None, seats=seats, clock=None, host=None)
    b = await new_match(store, guild_id=None, channel_id=None, seats=seats)
    got = await store.get_match(a.id)
    assert got.seats[0].user_id is None and got.clock is None and got.host is None
    assert a.id != b.id


async def test_an_unknown_match_is_not_found(store: Store):
    with pytest.raises(MatchNotFound, match="no match #999"):
        await store.get_match(999)
    with pytest.raises(MatchNotFound):
        await store.actions(999)
    with pytest.raises(MatchNotFound):
        await store.commit_action(999, 0, NewAction("move", "H8", seat="p1"), state={})
    with pytest.raises(MatchNotFound):
        await store.append_rejected(999, NewAction("move", "zz", seat="p1"), "no")


async def test_a_room_holds_one_unfinished_match(store: Store):
    first = await new_match(store, channel_id=10)
    with pytest.raises(RoomBusy, match="already running in this room"):
        await new_match(store, channel_id=10)
    await store.commit_action(first.id, 0, None, status="paused")
    with pytest.raises(RoomBusy):
        await new_match(store, channel_id=10)
    await store.commit_action(first.id, 1, None, status="finished", result=Result("p1", "five in a row"))
    second = await new_match(store, channel_id=10)
    assert (await store.live_match_in_channel(10)).id == second.id


async def test_live_matches_are_the_live_and_paused_ones(store: Store):
    live = await new_match(store, channel_id=1)
    paused = await new_match(store, channel_id=2)
    done = await new_match(store, channel_id=3)
    aborted = await new_match(store, channel_id=4)
    await store.commit_action(paused.id, 0, None, status="paused")
    await store.commit_action(done.id, 0, None, status="finished", result=Result("p2", "p1 resigned"))
    await store.commit_action(aborted.id, 0, None, status="aborted", result=Result(None, "host aborted"))
    assert [m.id for m in await store.live_matches()] == [live.id, paused.id]
    assert [m.id for m in await store.live_matches(include_paused=False)] == [live.id]
    assert (await store.live_match_in_channel(2)).id == paused.id
    assert await store.live_match_in_channel(3) is None
    assert await store.live_match_in_channel(12345) is None


async def test_live_matches_of_a_user(store: Store):
    a = await new_match(store, channel_id=1, seats=(SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Bob", 222)))
    b = await new_match(store, channel_id=2, seats=(SeatInfo("p1", "Carol", 333), SeatInfo("p2", "Alice", 111)))
    c = await new_match(store, channel_id=3, seats=(SeatInfo("p1", "Alice", 111), SeatInfo("p2", "Dan", 444)))
    await store.commit_action(c.id, 0, None, status="finished", result=Result("p1", "won"))
    assert [m.id for m in await store.live_matches_of_user(111)] == [a.id, b.id]
    assert [m.id for m in await store.live_matches_of_user(333)] == [b.id]
    assert await store.live_matches_of_user(444) == []


async def test_finished_matches_filter_and_order(db_url: str):
    clock = [T0]
    store = await Store.open(db_url, migrate=False, now=lambda: clock[0])
    try:
        ids = {}
        plan = [
            ("g1-a", 1, "tictacfive", (111, 222), "finished"),
            ("g1-b", 1, "armslength", (111, 333), "finished"),
            ("g1-c", 1, "tictacfive", (333, 444), "finished"),
            ("g1-x", 1, "tictacfive", (111, 222), "aborted"),
            ("g2-a", 2, "tictacfive", (111, 222), "finished"),
            ("g1-live", 1, "tictacfive", (111, 222), "live"),
        ]
        for n, (name, guild, game, users, status) in enumerate(plan):
            seats = (SeatInfo("p1", "a", users[0]), SeatInfo("p2", "b", users[1]))
            match = await store.create_match(game=game, seats=seats, state={}, guild_id=guild, channel_id=n)
            clock[0] = T0 + timedelta(minutes=n)
            if status != "live":
                await store.commit_action(match.id, 0, None, status=status, result=Result("p1", name))
            ids[name] = match.id
        names = lambda ms: [m.result.reason for m in ms]  # noqa: E731
        assert names(await store.finished_matches(1)) == ["g1-c", "g1-b", "g1-a"]
        assert names(await store.finished_matches(1, include_aborted=True)) == ["g1-x", "g1-c", "g1-b", "g1-a"]
        assert names(await store.finished_matches(1, player=111)) == ["g1-b", "g1-a"]
        assert names(await store.finished_matches(1, game="tictacfive")) == ["g1-c", "g1-a"]
        assert names(await store.finished_matches(1, player=111, game="armslength")) == ["g1-b"]
        assert names(await store.finished_matches(1, limit=1)) == ["g1-c"]
        assert names(await store.finished_matches(2)) == ["g2-a"]
        assert names(await store.finished_matches(1, channel=1)) == ["g1-b"]
        assert names(await store.finished_matches(1, channel=3, include_aborted=True)) == ["g1-x"]
        assert await store.finished_matches(1, channel=3) == []
        assert await store.finished_matches(2, channel=1) == []
        assert await store.finished_matches(None) == []
        finished = await store.get_match(ids["g1-c"])
        assert finished.finished_at == T0 + timedelta(minutes=2)
        assert finished.result == Result("p1", "g1-c") and finished.status not in UNFINISHED_STATUSES
    finally:
        await store.close()


# --------------------------------------------------------------------------- committing


async def test_commit_appends_and_replaces_only_what_is_given(store: Store):
    match = await new_match(store)
    action = NewAction("move", "H8", seat="p1", clocks={"p1": 290.5, "p2": 300.0})
    committed = await store.commit_action(match.id, 0, action, state={"board": "after H8"}, clock={"p1": 290.5})
    assert (committed.seq, committed.version) == (1, 1)
    got = await store.get_match(match.id)
    assert got.state == {"board": "after H8"}
    assert got.clock == {"p1": 290.5}
    assert got.host == {"phase": "opening"}  # not given: unchanged
    assert got.status == "live" and got.version == 1 and got.last_seq == 1
    assert got.updated_at >= match.updated_at
    [logged] = await store.actions(match.id)
    assert (logged.seq, logged.seat, logged.kind, logged.text) == (1, "p1", "move", "H8")
    assert logged.accepted and logged.error is None and not logged.private
    assert logged.clocks == {"p1": 290.5, "p2": 300.0}

    host_action = NewAction("timeout", "p2 ran out of time", at=T0)
    committed = await store.commit_action(
        match.id, 1, host_action, status="finished", result=Result("p1", "p2 ran out of time; p1 wins."), host=None
    )
    assert (committed.seq, committed.version) == (2, 2)
    got = await store.get_match(match.id)
    assert got.status == "finished" and got.finished_at is not None and got.host is None
    assert got.result == Result("p1", "p2 ran out of time; p1 wins.")
    last = (await store.actions(match.id))[-1]
    assert last.seat is None and last.at == T0


async def test_a_snapshot_may_be_saved_without_an_action(store: Store):
    match = await new_match(store)
    committed = await store.commit_action(match.id, 0, None, clock={"p1": 1.0})
    assert committed.seq is None and committed.version == 1
    assert (await store.get_match(match.id)).clock == {"p1": 1.0}
    assert await store.actions(match.id) == []


async def test_a_stale_commit_changes_nothing(store: Store):
    match = await new_match(store)
    await store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1})
    before = await store.get_match(match.id)
    with pytest.raises(StaleVersion, match="reload it and try again") as caught:
        await store.commit_action(match.id, 0, NewAction("move", "H9", seat="p1"), state={"n": 99})
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert await store.get_match(match.id) == before
    assert [a.text for a in await store.actions(match.id)] == ["H8"]


async def test_two_writers_one_wins(db_url: str):
    # Two stores stand for two processes (or two tasks) that read the same version.
    first = await Store.open(db_url, migrate=False)
    second = await Store.open(db_url, migrate=False)
    try:
        match = await new_match(first)
        outcomes = await asyncio.gather(
            first.commit_action(match.id, 0, NewAction("move", "A1", seat="p1"), state={"by": "first"}),
            second.commit_action(match.id, 0, NewAction("move", "B2", seat="p1"), state={"by": "second"}),
            return_exceptions=True,
        )
        wins = [o for o in outcomes if not isinstance(o, BaseException)]
        losses = [o for o in outcomes if isinstance(o, StaleVersion)]
        assert len(wins) == 1 and len(losses) == 1, outcomes
        assert wins[0].version == 1 and wins[0].seq == 1
        got = await first.get_match(match.id)
        [logged] = await first.actions(match.id)
        assert got.state == {"by": "first" if logged.text == "A1" else "second"}
    finally:
        await first.close()
        await second.close()


async def test_many_concurrent_writers_keep_the_log_and_versions_consistent(store: Store):
    match = await new_match(store)

    async def writer(name: str) -> int:
        wins = 0
        for _ in range(5):
            current = await store.get_match(match.id)
            try:
                await store.commit_action(
                    match.id,
                    current.version,
                    NewAction("move", f"{name}{current.version}", seat="p1"),
                    state={"count": current.state.get("count", 0) + 1},
                )
                wins += 1
            except StaleVersion:
                pass
        return wins

    total = sum(await asyncio.gather(*(writer(n) for n in "abcd")))
    got = await store.get_match(match.id)
    log = await store.actions(match.id)
    assert got.version == total == got.state["count"] == len(log)
    assert [a.seq for a in log] == list(range(1, total + 1))


async def test_rejected_submissions_are_logged_without_touching_the_snapshot(store: Store):
    match = await new_match(store)
    await store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"), state={"n": 1})
    seq = await store.append_rejected(
        match.id, NewAction("move", "Z99", seat="p2", private=True), "Write a point such as H8."
    )
    assert seq == 2
    got = await store.get_match(match.id)
    assert got.version == 1 and got.state == {"n": 1} and got.last_seq == 2
    committed = await store.commit_action(match.id, 1, NewAction("move", "H9", seat="p2"), state={"n": 2})
    assert committed == type(committed)(3, 2)
    log = await store.actions(match.id)
    assert [(a.seq, a.text, a.accepted, a.error) for a in log] == [
        (1, "H8", True, None),
        (2, "Z99", False, "Write a point such as H8."),
        (3, "H9", True, None),
    ]
    assert log[1].private and log[1].seat == "p2"
    assert [a.seq for a in await store.actions(match.id, accepted_only=True)] == [1, 3]
    assert [a.seq for a in await store.actions(match.id, after_seq=1)] == [2, 3]


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["commit", "reject", "stale"]), st.text(max_size=12)), min_size=1, max_size=8
    )
)
async def test_the_log_is_append_only(store: Store, steps):
    match = await new_match(store, channel_id=None)
    expected = []
    version = 0
    for step, text in steps:
        if step == "commit":
            committed = await store.commit_action(match.id, version, NewAction("move", text, seat="p1"), state={})
            version = committed.version
            expected.append((text.replace("\x00", "\ufffd"), True))
        elif step == "reject":
            await store.append_rejected(match.id, NewAction("move", text, seat="p2"), "refused")
            expected.append((text.replace("\x00", "\ufffd"), False))
        else:
            with pytest.raises(StaleVersion):
                await store.commit_action(match.id, version + 1, NewAction("move", text, seat="p1"), state={})
        log = await store.actions(match.id)
        # Earlier rows never change; the new one (if any) comes last; seqs have no gaps.
        assert [(a.text, a.accepted) for a in log] == expected
        assert [a.seq for a in log] == list(range(1, len(expected) + 1))
    assert (await store.get_match(match.id)).version == version


async def test_nul_characters_are_logged_as_a_visible_stand_in(store: Store):
    # PostgreSQL text cannot hold NUL; both databases must log the same thing.
    match = await new_match(store, seats=(SeatInfo("p1", "A\x00", 1), SeatInfo("p2", "B", 2)))
    await store.append_rejected(match.id, NewAction("move", "H\x008", seat="p1"), "bad\x00")
    [logged] = await store.actions(match.id)
    assert (logged.text, logged.error) == ("H\ufffd8", "bad\ufffd")
    assert (await store.get_match(match.id)).seats[0].display_name == "A\ufffd"


async def test_times_given_in_another_zone_come_back_in_utc(store: Store):
    match = await new_match(store)
    seoul = timezone(timedelta(hours=9))
    await store.commit_action(
        match.id, 0, NewAction("move", "H8", seat="p1", at=datetime(2026, 3, 2, 3, 0, tzinfo=seoul))
    )
    [logged] = await store.actions(match.id)
    assert logged.at == datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    assert logged.at.utcoffset() == timedelta(0)
    with pytest.raises(ValueError, match="naive"):
        await store.add_timer("clock", datetime(2026, 3, 1, 18, 0))


async def test_over_long_values_are_treated_alike_on_both_databases(store: Store):
    long_name = "Ada " * 40  # a console player may type anything
    match = await new_match(store, seats=(SeatInfo("p1", long_name), SeatInfo("p2", "B")))
    assert (await store.get_match(match.id)).seats[0].display_name == long_name[:100]
    with pytest.raises(ValueError, match="longer than 64"):
        await new_match(store, channel_id=None, game="g" * 65)
    with pytest.raises(ValueError, match="longer than 32"):
        await store.commit_action(match.id, 0, NewAction("k" * 33, "x"))
    with pytest.raises(ValueError, match="longer than 16"):
        await store.append_rejected(match.id, NewAction("move", "x", seat="s" * 17), "no")
    with pytest.raises(ValueError, match="longer than 32"):
        await store.add_timer("t" * 33, T0)
    with pytest.raises(ValueError, match="longer than 32"):
        await store.add_message(1, 2, "m" * 33)
    assert (await store.get_match(match.id)).version == 0 and await store.actions(match.id) == []


async def test_an_invalid_status_is_refused(store: Store):
    match = await new_match(store)
    with pytest.raises(ValueError, match="status"):
        await store.commit_action(match.id, 0, None, status="won")
    assert (await store.get_match(match.id)).version == 0


# --------------------------------------------------------------------------- timers


async def test_timers(store: Store):
    match = await new_match(store)
    other = await new_match(store, channel_id=11)
    assert await store.next_timer() is None
    late = await store.add_timer("clock", T0 + timedelta(seconds=60), match_id=match.id, payload={"seat": "p1"})
    warn = await store.add_timer("warning", T0 + timedelta(seconds=50), match_id=match.id)
    tie = await store.add_timer("window", T0 + timedelta(seconds=50), match_id=other.id)
    free = await store.add_timer("purge", T0 + timedelta(seconds=10))
    assert late.payload == {"seat": "p1"} and late.due_at == T0 + timedelta(seconds=60)
    assert await store.next_timer() == free
    assert await store.due_timers(T0) == []
    assert await store.due_timers(T0 + timedelta(seconds=50)) == [free, warn, tie]
    assert await store.due_timers(T0 + timedelta(hours=1), limit=2) == [free, warn]
    assert await store.timers() == [free, warn, tie, late]
    assert await store.timers(match.id) == [warn, late]
    assert await store.timers(None) == [free]

    assert await store.postpone_timer(free.id, T0 + timedelta(seconds=100))
    [moved] = [t for t in await store.timers() if t.id == free.id]
    assert moved.due_at == T0 + timedelta(seconds=100) and moved.attempts == 1

    assert await store.delete_timer(free.id) is True
    assert await store.delete_timer(free.id) is False
    assert await store.postpone_timer(free.id, T0) is False
    assert await delete_timers(store, match.id, kind="warning") == 1
    assert await store.timers(match.id) == [late]
    assert await delete_timers(store, match.id) == 1
    assert await store.timers() == [tie]


# --------------------------------------------------------------------------- messages


async def test_posted_messages_and_their_deletion(store: Store):
    match = await new_match(store)
    grid = await store.add_message(10, 9001, "grid", match_id=match.id, delete_at=T0 + timedelta(seconds=30))
    board = await store.add_message(10, 9002, "board", match_id=match.id)
    console = await store.add_message(None, 1, "grid", delete_at=T0 + timedelta(seconds=5))
    assert (grid.channel_id, grid.message_id, grid.kind, grid.deleted) == (10, 9001, "grid", False)
    assert await store.messages(match.id) == [grid, board]
    assert await store.messages_to_delete() == [console, grid]
    assert await store.messages_to_delete(before=T0 + timedelta(seconds=10)) == [console]
    assert await store.mark_message_deleted(None, 1) is True
    assert await store.mark_message_deleted(None, 1) is False
    assert await store.mark_message_deleted(99, 9001) is False  # wrong channel
    assert await store.messages_to_delete() == [grid]
    assert await store.mark_message_deleted(10, 9001) is True
    assert await store.messages_to_delete() == []
    assert [m.deleted for m in await store.messages(match.id)] == [True, False]


# --------------------------------------------------------------------------- guilds


async def test_guild_settings(store: Store):
    assert await store.get_guild_settings(5) == GuildConfig(5, None, ())
    assert await store.set_guild_settings(5, host_role_id=77) == GuildConfig(5, 77, ())
    assert await store.set_guild_settings(5, game_room_ids=[30, 20, 30]) == GuildConfig(5, 77, (20, 30))
    assert await store.set_guild_settings(5, game_room_ids=[40]) == GuildConfig(5, 77, (40,))
    assert await store.set_guild_settings(5, host_role_id=None) == GuildConfig(5, None, (40,))
    assert await store.set_guild_settings(6, game_room_ids=[41]) == GuildConfig(6, None, (41,))
    big = 1_234_567_890_123_456_789  # Discord snowflakes need 64 bits
    assert await store.set_guild_settings(big, host_role_id=big, game_room_ids=[big]) == GuildConfig(big, big, (big,))
    assert await store.get_guild_settings(5) == GuildConfig(5, None, (40,))


async def test_room_settings_default_to_no_threads_and_pings_and_change_alone(store: Store):
    assert await store.get_guild_settings(7) == GuildConfig(7, None, (), threads=False, pings=True)
    # A guild's first settings may be a room setting alone.
    assert await store.set_guild_settings(7, threads=True) == GuildConfig(7, None, (), threads=True, pings=True)
    assert await store.set_guild_settings(7, pings=False) == GuildConfig(7, None, (), threads=True, pings=False)
    # The others stay as they were when one changes.
    assert await store.set_guild_settings(7, host_role_id=9, game_room_ids=[3]) == GuildConfig(
        7, 9, (3,), threads=True, pings=False
    )
    assert await store.set_guild_settings(7, threads=False) == GuildConfig(7, 9, (3,), threads=False, pings=False)
    assert await store.get_guild_settings(7) == GuildConfig(7, 9, (3,), threads=False, pings=False)


async def test_counts(store: Store):
    match = await new_match(store)
    await store.commit_action(match.id, 0, NewAction("move", "H8", seat="p1"))
    counts = await store.counts()
    assert counts["matches"] == 1 and counts["seats"] == 2 and counts["actions"] == 1 and counts["timers"] == 0


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5), host=JSON_VALUES)
async def test_snapshots_come_back_exactly(store: Store, state, host):
    # A game's to_dict() must survive the database unchanged, whatever it holds.
    match = await new_match(store, channel_id=None, state=state, host={"h": host})
    assert (await store.get_match(match.id)).state == state
    await store.commit_action(match.id, 0, NewAction("move", "x", clocks={"c": host}), state={"s": state})
    got = await store.get_match(match.id)
    assert got.state == {"s": state} and got.host == {"h": host}
    assert (await store.actions(match.id))[-1].clocks == {"c": host}
