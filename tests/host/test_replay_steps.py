"""A :class:`Replay` shows exactly the steps of :func:`replay_match` (the same game, board, clocks
and action at every step, in any order of asking), for every game (the check is
:func:`geniusbot.conformance.hosted.check_replay_steps`); a :class:`ReplayCache` holds
no more bytes than its bound, which a replay's own count of bytes does not undercount; and a
5,000-move match opens, steps and exports on both databases without holding the event loop."""

from __future__ import annotations

import asyncio
import gc
import random
import tracemalloc

import pytest

from geniusbot.conformance.hosted import assert_replays_alike, check_replay_steps
from geniusbot.games import registry
from geniusbot.host.replay import Replay, ReplayCache, export_record, open_replay, read_log
from geniusbot.storage import Store

from .longmatch import sampled, shuttle_moves, store_long_match
from .test_host_conformance import CASES
from .test_match import FakeTime, fire_due
from .test_replay import played


async def test_a_replay_gives_the_steps_of_the_log_with_a_refused_line_and_a_timeout(store):
    clock = FakeTime()
    host, match_id = await played(store, clock)
    await host.submit(match_id, "p2", "H8")  # refused: makes no step
    clock.advance(400)
    await fire_due(host, clock)  # p2's clock runs out: a host step
    replay = await open_replay(store, match_id, every=2)
    assert replay.last == 7 and replay.step(7).action.kind == "timeout"
    assert replay.step(7).game.outcome().winner == "p1"
    assert replay.step(0).clock.control.spec() == "60s+5m" and replay.step(0).action is None
    await assert_replays_alike(store, match_id, random.Random(1))


@pytest.mark.slow
@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v}" for n, v in CASES])
async def test_every_game_replays_the_same_from_snapshots(store, name, variant):
    # The check of `geniusbot check GAME` called replay: a random match through the host.
    await check_replay_steps(store, registry()[name], variant)


@pytest.mark.slow
async def test_the_cache_holds_no_more_bytes_than_its_bound(sqlite_db_url):
    """Replays of a 5,000-move match, each stepped to its end (every snapshot taken), in a cache
    of 1 MiB: it keeps the newest that fit. What a replay holds by the interpreter's own count
    (tracemalloc) is within its count of its bytes, so the cache's count is not below the memory
    it holds."""
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        match_id = await store_long_match(store, 5000)
        record, actions = await store.get_match(match_id), await store.actions(match_id)
    finally:
        await store.close()
    gc.collect()
    tracemalloc.start()
    try:
        # A first replay fills what the interpreter keeps once and for all (its caches).
        warm = Replay(record, actions)
        warm.step(warm.last)
        del warm
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        measured = Replay(record, actions)
        measured.step(measured.last)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= measured.nbytes < 400_000, (held, measured.nbytes)

    bound = 2**20
    cache = ReplayCache(bound)
    for key in range(20):
        replay = Replay(record, actions)
        cache.put(key, replay)
        replay.step(replay.last)  # it grows as it takes its snapshots; the next use trims
        cache.get(key)
        assert cache.nbytes <= bound
    assert 1 < len(cache) < 20
    assert [k for k in range(20) if k in cache] == list(range(20 - len(cache), 20))  # the newest are kept
    # The least recently used goes first; a replay over the bound alone is not kept.
    oldest = 20 - len(cache)
    assert cache.get(oldest) is not None
    cache.put(99, measured)
    assert oldest in cache and oldest + 1 not in cache and 99 in cache and cache.nbytes <= bound
    small = ReplayCache(measured.nbytes - 1)
    small.put(1, measured)
    assert len(small) == 0 and small.nbytes == 0


@pytest.mark.slow
async def test_a_long_match_opens_steps_and_exports_without_holding_the_loop(store):
    """The event loop's thread is kept busy for 50 ms at most at a stretch (its CPU time between
    two wake-ups of a 2 ms sampler; see tests/e2e/test_bot_archive_long.py) while the log of a
    5,000-move match is read (on PostgreSQL its rows become records on the loop), its replay
    stepped to the end and back to the middle, and its record exported."""
    match_id = await store_long_match(store, 5000)
    moves = shuttle_moves(5000)
    gc.collect()  # what writing the match left behind is the test's, not the archive's
    async with sampled() as lag:
        replay = await open_replay(store, match_id)
        last = await asyncio.to_thread(replay.step, replay.last)
        middle = await asyncio.to_thread(replay.step, 2501)
        text = await export_record(store, match_id)
    assert last.game.outcome().winner == "p1" and middle.action.text == moves[2500][1]
    assert len(text.splitlines()) > 5000
    assert await read_log(store, match_id) == await store.actions(match_id)  # read in pages, the same log
    busy, late = lag.worst()
    assert busy <= 0.050, f"the loop was busy for {busy * 1000:.0f} ms at a stretch (late {late * 1000:.0f} ms)"
