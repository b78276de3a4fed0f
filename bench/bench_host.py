"""Match host speed on SQLite and PostgreSQL (rendering and Discord excluded).

1. **Submissions**: 500 live Tic-Tac-Five matches with running clocks in one process; one
   submission at a time, round-robin over the matches, each a legal move typed as text. Measured
   per ``Host.submit``: parse, apply, clocks, commit, timer re-arm, announcements to a recording
   transport. Target p99 <= 5 ms. Also the same with 20 submissions in flight at once.
2. **Timers**: 500 live matches whose clocks run out at random moments over ``--spread`` seconds
   (default 30, about the rate of 500 matches on 60 s clocks), with
   the real :class:`TimerDispatcher` on the system clock; lateness = when the host's callback
   began minus the timer's due time. Target p99 <= 50 ms.
3. **Restart**: 1,000 live matches in the store; a new host's ``recover()`` (reload, give back
   the outage, commit, re-arm, announce). Target <= 2 s.
4. **Starting**: ``--starting`` (2,000) matches started at once (one ``Host.start_match`` task
   each, as a burst of ``/start`` commands makes them) while ``--early`` (300) matches started
   before them have their clocks' alerts falling due over the time the starts take; then the
   2,000 run on clocks whose alerts fall over ``--run-spread`` seconds (default 60). Timer
   lateness while starting (alerts due between the first start and the last start's answer) and
   once they run (due after it). Target: while starting, p99 under 1 s. ``--order all`` (the
   default) runs the same burst three times in one run, side by side on the same machine: the
   store's queue letting every transaction in as it came and every start at work at once
   (``fifo``: as before the priorities), by priority (timers first, starts last) with every start
   at work at once (``priority``), and by priority with the host's gate on starts
   (``gated``: at most ``STARTS_AT_ONCE`` at work, the host as it ships).

Run: ``python bench/bench_host.py [--only sqlite|postgres] [--part submissions|timers|restart|starting]
[--matches 500] [--restart 1000] [--starting 2000] [--early 300] [--run-spread 60]
[--order all|fifo|priority|gated] [--boards off|text|picture]``.
PostgreSQL uses a temporary database created from ``GENIUSBOT_TEST_POSTGRES_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``) and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from geniusbot.host.actions import STARTS_AT_ONCE
from geniusbot.host.match import Host
from geniusbot.host.timers import SystemTime, TimerDispatcher
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import NewAction, Store

BASE_PG = os.environ.get("GENIUSBOT_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(samples_ms: list[float]) -> str:
    return (
        f"p50 {percentile(samples_ms, 0.5):.2f} ms, p99 {percentile(samples_ms, 0.99):.2f} ms, "
        f"max {max(samples_ms):.2f} ms (n={len(samples_ms)})"
    )


class Quiet(RecordingTransport):
    """A recording transport that forgets, so memory stays flat over thousands of posts."""

    async def post(self, room, text):
        self._next_id += 1
        return self._next_id

    async def send_private(self, player, text):
        return None


async def start_matches(
    host: Host, count: int, clock: str, rng: random.Random, spread: tuple[float, float] | None = None, first: int = 0
) -> list[int]:
    ids = []
    for n in range(first, first + count):
        spec = clock if spread is None else f"{rng.uniform(*spread):.2f}s"
        reply = await host.start_match(
            "tictacfive",
            players=[Player("p1", 10 * n + 1, "A"), Player("p2", 10 * n + 2, "B")],
            seed=n,
            clock=spec,
            channel_id=100_000 + n,
        )
        assert reply.ok, reply.message
        ids.append(reply.match_id)
    return ids


def next_move(host: Host, match_id: int, rng: random.Random) -> tuple[str, str] | None:
    live = host.held(match_id)  # the host lets go of a match once it is over
    if live is None or live.game.is_over:
        return None
    game = live.game
    seat = game.to_move()[0]
    moves = list(game.legal_moves(seat))
    return (seat, rng.choice(moves).text()) if moves else None


async def bench_submissions(url: str, matches: int, rounds: int, boards: str = "off") -> dict[str, str]:
    store = await Store.open(url)
    host = Host(store, Quiet(), boards=boards != "off", pictures=boards == "picture")
    rng = random.Random(1)
    ids = await start_matches(host, matches, "10m+10m", rng)
    out: dict[str, str] = {}
    # A control match, committed to directly after each submission: the store's own cost in the
    # same moment, so the host's share can be told from the database's (and the machine's).
    control = host.held(ids[-1])
    assert control is not None
    ids = ids[:-1]
    # One at a time; the commit inside each submission is timed too, so the host's own share
    # (everything but the commit) can be given exactly.
    samples: list[float] = []
    own: list[float] = []
    bare: list[float] = []
    inside: list[float] = []
    commit = store.commit_action

    async def timed_commit(*args, **kwargs):
        t = time.perf_counter()
        try:
            return await commit(*args, **kwargs)
        finally:
            inside.append((time.perf_counter() - t) * 1000)

    for _ in range(rounds):
        for match_id in ids:
            move = next_move(host, match_id, rng)
            if move is None:
                continue
            inside.clear()
            store.commit_action = timed_commit
            t = time.perf_counter()
            reply = await host.submit(match_id, move[0], move[1])
            samples.append((time.perf_counter() - t) * 1000)
            store.commit_action = commit
            assert reply.ok, reply
            own.append(samples[-1] - sum(inside))
            t = time.perf_counter()
            done = await store.commit_action(
                control.id,
                control.version,
                NewAction("move", move[1], move[0], clocks=control.clock.to_dict()),
                state=control.game.to_dict(),
                clock=control.clock.to_dict(),
                host=control.host,
                status="live",
            )
            bare.append((time.perf_counter() - t) * 1000)
            control.version = done.version
    out["one at a time"] = summary(samples)
    out["the host's own share (submission minus its commit)"] = summary(own)
    out["bare Store.commit_action, same run"] = summary(bare)
    # Twenty in flight (different matches): what a busy server sees.
    samples = []
    queue = list(ids) * rounds
    rng.shuffle(queue)

    async def worker() -> None:
        while queue:
            match_id = queue.pop()
            move = next_move(host, match_id, rng)
            if move is None:
                continue
            t = time.perf_counter()
            await host.submit(match_id, move[0], move[1])
            samples.append((time.perf_counter() - t) * 1000)

    await asyncio.gather(*(worker() for _ in range(20)))
    out["20 in flight"] = summary(samples)
    await store.close()
    return out


async def bench_timers(url: str, matches: int, spread: float) -> dict[str, str]:
    store = await Store.open(url)
    system = SystemTime()
    lateness: list[float] = []

    async def on_timer(timer):
        lateness.append((system.now() - timer.due_at).total_seconds() * 1000)
        return await host.on_timer(timer)

    dispatcher = TimerDispatcher(store, on_timer, time=system)
    host = Host(store, Quiet(), boards=False, wake=dispatcher.wake)
    rng = random.Random(2)
    # Every alert (the 30 s and 10 s warnings too) must fall after all the matches are started,
    # so that only the timers' own work competes with them.
    t0 = time.perf_counter()
    await start_matches(host, 1, "none", rng)
    lead = (time.perf_counter() - t0) * matches * 1.5 + 1.0
    ids = await start_matches(host, matches, "", rng, spread=(lead + 30, lead + 30 + spread), first=1)
    # From here on, count the database calls of the deliveries (the dispatcher's and the host's)
    # and the time spent in them: what one delivery costs the database.
    calls: dict[str, int] = {}
    spent = [0.0]

    def counted(name, method):
        async def call(*args, **kwargs):
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started
                calls[name] = calls.get(name, 0) + 1

        return call

    for name in READS + WRITES:
        if hasattr(store, name):
            setattr(store, name, counted(name, getattr(store, name)))
    dispatcher.start()
    deadline = time.perf_counter() + lead + 30 + spread + 20
    # The host lets go of a match once it is over (nothing here aborts one): held = still live.
    while time.perf_counter() < deadline and any(host.held(i) is not None for i in ids):
        await asyncio.sleep(0.2)
    finished = sum(host.held(i) is None for i in ids)
    await dispatcher.stop()
    await store.close()
    n = max(1, len(lateness))
    reads = sum(calls.get(name, 0) for name in READS)
    writes = sum(calls.get(name, 0) for name in WRITES)
    return {
        f"timer lateness, {matches} matches running out over {spread:g} s "
        f"(warnings and expiries; {finished} timed out)": summary(lateness),
        "database calls per delivery (dispatcher and host)": (
            f"{reads / n:.2f} reads + {writes / n:.2f} writes, {spent[0] * 1000 / n:.2f} ms in them "
            f"(n={len(lateness)}; {', '.join(f'{k} {v}' for k, v in sorted(calls.items()))})"
        ),
    }


async def bench_starting(url: str, starting: int, early: int, run_spread: float, order: str) -> dict[str, str]:
    store = await Store.open(url)
    queue = store.transaction_queue
    assert queue is not None, "the store's transactions do not queue here"
    queue.by_priority = order != "fifo"
    load = [os.getloadavg()[0]]
    system = SystemTime()
    seen: list[tuple[float, float]] = []  # (due, lateness), epoch seconds and ms

    async def on_timer(timer):
        seen.append((timer.due_at.timestamp(), (system.now() - timer.due_at).total_seconds() * 1000))
        return await host.on_timer(timer)

    dispatcher = TimerDispatcher(store, on_timer, time=system)
    at_once = STARTS_AT_ONCE if order == "gated" else starting + early + 5
    host = Host(store, Quiet(), boards=False, wake=dispatcher.wake, starts_at_once=at_once)
    dispatcher.start()
    rng = random.Random(4)
    # What one start costs alone, to place the early matches' alerts over the burst of starts.
    t0 = time.perf_counter()
    await start_matches(host, 5, "none", rng)
    one = (time.perf_counter() - t0) / 5
    burst = max(3.0, one * starting * 3)  # a guess of how long the burst of starts takes
    # The early matches: started one by one, their clocks running out over the burst of starts
    # that follows (and those of over 10 s giving their 10 s warning before it, or in it).
    begin = time.time() + early * one * 3 + 1.0
    for n in range(5, 5 + early):
        expiry = begin + 0.5 + rng.uniform(0.0, burst)
        await start_matches(host, 1, f"{expiry - time.time():.2f}s", rng, first=n)
    while time.time() < begin:
        await asyncio.sleep(0.05)
    # The burst: every start at once; the new matches' alerts fall after it (if it is not
    # longer than guessed).
    lead = burst * 1.5 + 3.0
    first = 5 + early
    started = time.time()
    replies = await asyncio.gather(
        *(
            host.start_match(
                "tictacfive",
                players=[Player("p1", 10 * n + 1, "A"), Player("p2", 10 * n + 2, "B")],
                seed=n,
                clock=f"{lead + 30 + rng.uniform(0.0, run_spread):.2f}s",
                channel_id=100_000 + n,
            )
            for n in range(first, first + starting)
        )
    )
    ended = time.time()
    refused = [reply.message for reply in replies if not reply.ok]
    ids = [reply.match_id for reply in replies if reply.ok]
    deadline = time.perf_counter() + lead + 30 + run_spread + 30
    try:
        while time.perf_counter() < deadline and any(host.held(i) is not None for i in ids):
            await asyncio.sleep(0.2)
    finally:
        await dispatcher.stop()
        await store.close()
    finished = sum(host.held(i) is None for i in ids)
    during = [late for due, late in seen if started <= due <= ended]
    after = [late for due, late in seen if due > ended]
    load.append(os.getloadavg()[0])
    return {
        "order": (
            f"{order}: {'by priority' if queue.by_priority else 'first come first served'} "
            f"({queue.places} place(s)), at most {at_once} starts at work; "
            f"load average (1 min) {load[0]:.2f} at the start, {load[1]:.2f} at the end"
        ),
        f"{starting} starts at once": (
            f"{ended - started:.1f} s ({starting / (ended - started):.0f} starts/s); {len(refused)} refused"
            + (f" ({refused[0]!r})" if refused else "")
        ),
        f"timer lateness while starting (alerts of {early} earlier matches)": summary(during or [0.0]),
        f"timer lateness once they run ({run_spread:g} s of alerts; {finished} of {starting} timed out)": summary(
            after or [0.0]
        ),
    }


READS = ("due_and_next", "due_timers", "next_timer", "timers", "get_match")
WRITES = ("add_timer", "replace_timer", "delete_timer", "postpone_timer", "commit_action", "append_rejected")


async def bench_restart(url: str, matches: int) -> dict[str, str]:
    store = await Store.open(url)
    host = Host(store, Quiet(), boards=False)
    rng = random.Random(3)
    ids = await start_matches(host, matches, "60s+5m", rng)
    for match_id in ids[: matches // 2]:
        move = next_move(host, match_id, rng)
        await host.submit(match_id, *move)
    await store.close()
    t = time.perf_counter()
    store = await Store.open(url)
    fresh = Host(store, Quiet(), boards=False, now=lambda: time.time() + 600)  # down for 10 min
    resumed = await fresh.recover()
    elapsed = time.perf_counter() - t
    assert len(resumed) == matches, len(resumed)
    await store.close()
    return {f"restart, {matches} live matches (open + recover)": f"{elapsed:.2f} s"}


async def pg_database() -> tuple[str, str] | None:
    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(BASE_PG)
    name = f"geniusbot_bench_host_{os.getpid()}_{secrets.token_hex(2)}"
    try:
        conn = await asyncpg.connect(
            user=base.username, host=base.host, port=base.port or 5432, database=base.database, timeout=5
        )
    except Exception as error:
        print(f"PostgreSQL left out: {error}")
        return None
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return base.set(database=name).render_as_string(hide_password=False), name


async def pg_drop(name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(BASE_PG)
    conn = await asyncpg.connect(user=base.username, host=base.host, port=base.port or 5432, database=base.database)
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--part", choices=["submissions", "timers", "restart", "starting"], help="run only this part")
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--restart", type=int, default=1000)
    parser.add_argument("--starting", type=int, default=2000, help="starting: matches started at once")
    parser.add_argument("--early", type=int, default=300, help="starting: matches whose alerts fall during the starts")
    parser.add_argument(
        "--run-spread", type=float, default=60.0, help="starting: seconds over which the started matches' alerts fall"
    )
    parser.add_argument(
        "--order",
        choices=["all", "fifo", "priority", "gated"],
        default="all",
        help="starting: first come first served (fifo), by priority, by priority behind the host's gate (gated), or all in turn",
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=30.0,
        help="seconds over which the 500 expiries fall (30 s: about the rate of 500 matches on 60 s clocks)",
    )
    parser.add_argument(
        "--boards",
        choices=["off", "text", "picture"],
        default="off",
        help="submissions: the host posts no board (the default), a text board, or a picture",
    )
    args = parser.parse_args()
    for backend in ("sqlite", "postgres"):
        if args.only and backend != args.only:
            continue
        orders = ["fifo", "priority", "gated"] if args.order == "all" else [args.order]
        parts: list[tuple[str, Callable[[str], Awaitable[dict[str, str]]]]] = [
            ("submissions", lambda url: bench_submissions(url, args.matches, args.rounds, args.boards)),
            ("timers", lambda url: bench_timers(url, args.matches, args.spread)),
            ("restart", lambda url: bench_restart(url, args.restart)),
        ]
        parts += [
            (
                "starting",
                lambda url, order=order: bench_starting(url, args.starting, args.early, args.run_spread, order),
            )
            for order in orders
        ]
        for label, run in parts:
            if args.part and label != args.part:
                continue
            if backend == "sqlite":
                tmp = tempfile.mkdtemp()
                url, name = f"sqlite+aiosqlite:///{tmp}/bench.db", None
            else:
                made = await pg_database()
                if made is None:
                    break
                url, name = made
            try:
                for key, value in (await run(url)).items():
                    print(f"{backend:9} {label:12} {key}: {value}", flush=True)
            finally:
                if name:
                    await pg_drop(name)


if __name__ == "__main__":
    asyncio.run(main())
