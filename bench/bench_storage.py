"""Storage speed on SQLite and PostgreSQL.

1. Committing one action (``Store.commit_action``: log row + snapshot, one transaction) while
   500 matches are live: p50 / p99 / max, one writer at a time and 20 writers at once.
2. A restart: opening the store (schema check included) and loading 1,000 live matches with
   their seats and timers. Target: at most 2 s (the host's restart of 1,000 live matches).

Run: ``python bench/bench_storage.py [commits]``. SQLite uses a temporary file; PostgreSQL a
temporary database created from ``GENIUSBOT_TEST_POSTGRES_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``) and dropped at the end; it is left out,
with the reason, when no server answers.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert
from sqlalchemy.engine import make_url

from geniusbot.storage import NewAction, Store, models as m
from geniusbot.storage.db import upgrade

RESTART_TARGET = 2.0
T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def game_state(rng: random.Random, moves: int) -> dict:
    """A snapshot about the size of a mid-game Tic-Tac-Five (15 x 15 board and its move list)."""
    board = [["." for _ in range(15)] for _ in range(15)]
    history = []
    for n in range(moves):
        col, row = rng.randrange(15), rng.randrange(15)
        board[row][col] = "XO"[n % 2]
        history.append(f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}")
    return {
        "game": "tictacfive",
        "variant": "standard",
        "seed": rng.randrange(2**32),
        "options": {},
        "outcome": None,
        "state": {"board": ["".join(r) for r in board], "moves": history, "phase": "play", "colors": {"p1": "B"}},
    }


async def seed_matches(store: Store, count: int, timers_each: int) -> list[int]:
    """Write ``count`` live matches (with seats and timers) in bulk; return their ids."""
    rng = random.Random(count)
    now = T0
    ids = []
    async with store.engine.begin() as conn:
        for start in range(0, count, 200):
            rows = [
                dict(
                    guild_id=1,
                    channel_id=1000 + n,
                    game="tictacfive",
                    variant="standard",
                    seed=str(n),
                    options={},
                    status="live",
                    state=game_state(rng, 30),
                    clock={"p1": {"main": 300.0, "periods": 5}, "p2": {"main": 287.5, "periods": 5}, "running": "p1"},
                    host={"last_board_message": 123456789012345678, "phase": "play"},
                    version=0,
                    last_seq=0,
                    created_at=now,
                    updated_at=now,
                )
                for n in range(start, min(start + 200, count))
            ]
            result = await conn.execute(insert(m.Match).returning(m.Match.id), rows)
            batch = [r[0] for r in result.all()]
            ids.extend(batch)
            await conn.execute(
                insert(m.Seat),
                [
                    {"match_id": i, "seat": seat, "user_id": 10**17 + i * 2 + k, "display_name": f"Player {k}"}
                    for i in batch
                    for k, seat in enumerate(("p1", "p2"))
                ],
            )
            await conn.execute(
                insert(m.Timer),
                [
                    {
                        "match_id": i,
                        "kind": ("clock", "warning", "window")[k % 3],
                        "due_at": now + timedelta(seconds=30 + k * 10 + i % 60),
                        "payload": {"seat": "p1", "version": 0},
                        "attempts": 0,
                    }
                    for i in batch
                    for k in range(timers_each)
                ],
            )
    return ids


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def bench_commits(url: str, commits: int, writers: int) -> dict[str, float]:
    """Latency of commit_action with 500 live matches, ``writers`` tasks committing at once."""
    store = await Store.open(url)
    try:
        ids = await seed_matches(store, 500, 2)
        rng = random.Random(7)
        versions = dict.fromkeys(ids, 0)
        states = {i: game_state(rng, 30) for i in ids}
        latencies: list[float] = []
        # Each writer owns its own matches, as the host does (one task per match).
        owned = [ids[w::writers] for w in range(writers)]

        async def writer(mine: list[int]) -> None:
            for n in range(commits // writers):
                match_id = mine[n % len(mine)]
                state = states[match_id]
                state["state"]["moves"].append("H8")
                action = NewAction("move", "H8", seat="p1", clocks={"p1": 280.0, "p2": 290.0})
                started = time.perf_counter()
                committed = await store.commit_action(
                    match_id, versions[match_id], action, state=state, clock={"p1": 280.0, "p2": 290.0}
                )
                latencies.append(time.perf_counter() - started)
                versions[match_id] = committed.version

        wall = time.perf_counter()
        await asyncio.gather(*(writer(mine) for mine in owned))
        wall = time.perf_counter() - wall
        return {
            "n": len(latencies),
            "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "max_ms": max(latencies) * 1000,
            "per_s": len(latencies) / wall,
        }
    finally:
        await store.close()


async def bench_restart(url: str) -> dict[str, float]:
    """Open the store and load 1,000 live matches with their seats and timers."""
    store = await Store.open(url)
    try:
        await seed_matches(store, 1000, 3)
    finally:
        await store.close()
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        store = await Store.open(url)
        try:
            matches = await store.live_matches()
            timers = await store.timers()
            by_match: dict[int | None, list] = {}
            for timer in timers:
                by_match.setdefault(timer.match_id, []).append(timer)
            elapsed = time.perf_counter() - started
        finally:
            await store.close()
        assert len(matches) == 1000 and len(timers) == 3000 and all(len(by_match[x.id]) == 3 for x in matches)
        runs.append(elapsed)
    return {"best_s": min(runs), "worst_s": max(runs)}


async def postgres_database(suffix: str) -> tuple[str, str] | str:
    """(url, name) of a new database on the test server, or the reason there is none."""
    import asyncpg

    base = os.environ.get("GENIUSBOT_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    parsed = make_url(base)
    name = f"geniusbot_bench_{os.getpid()}_{secrets.token_hex(3)}_{suffix}"
    try:
        conn = await asyncpg.connect(
            user=parsed.username,
            password=parsed.password,
            host=parsed.host,
            port=parsed.port,
            database=parsed.database,
            timeout=5,
        )
    except Exception as error:
        return f"no PostgreSQL at {base} ({type(error).__name__}: {error})"
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return parsed.set(database=name).render_as_string(hide_password=False), name


async def drop_postgres(name: str) -> None:
    import asyncpg

    base = os.environ.get("GENIUSBOT_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    parsed = make_url(base)
    conn = await asyncpg.connect(
        user=parsed.username, password=parsed.password, host=parsed.host, port=parsed.port, database=parsed.database
    )
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def one_backend(label: str, make_url_for, commits: int) -> None:
    for writers in (1, 20):
        url, cleanup = await make_url_for(f"c{writers}")
        if url is None:
            print(f"{label}: skipped, {cleanup}")
            return
        try:
            await upgrade(url)
            r = await bench_commits(url, commits, writers)
        finally:
            await cleanup()
        print(
            f"{label:10} commit_action, 500 live matches, {writers:2} writer(s): n={r['n']} "
            f"p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  max {r['max_ms']:.2f} ms  "
            f"({r['per_s']:.0f} commits/s)"
        )
    url, cleanup = await make_url_for("r")
    try:
        await upgrade(url)
        r = await bench_restart(url)
    finally:
        await cleanup()
    verdict = "OK" if r["worst_s"] <= RESTART_TARGET else "OVER TARGET"
    print(
        f"{label:10} restart: open + load 1,000 live matches + 3,000 timers: best {r['best_s'] * 1000:.0f} ms, "
        f"worst {r['worst_s'] * 1000:.0f} ms (target {RESTART_TARGET:.0f} s: {verdict})"
    )


async def main(commits: int) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="geniusbot-bench-")

    async def sqlite_url(suffix: str):
        path = Path(tmp.name) / f"bench-{suffix}.db"

        async def cleanup() -> None:
            for extra in ("", "-wal", "-shm"):
                Path(f"{path}{extra}").unlink(missing_ok=True)

        return f"sqlite+aiosqlite:///{path}", cleanup

    async def pg_url(suffix: str):
        made = await postgres_database(suffix)
        if isinstance(made, str):
            return None, made
        url, name = made

        async def cleanup() -> None:
            await drop_postgres(name)

        return url, cleanup

    try:
        await one_backend("SQLite", sqlite_url, commits)
        await one_backend("PostgreSQL", pg_url, commits)
    finally:
        tmp.cleanup()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
