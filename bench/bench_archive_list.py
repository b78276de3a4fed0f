"""The archive's search on 100,000 ended matches: ``/replay``'s list and ``geniusbot archive list``.

A guild's archive of N finished matches (default 100,000) is written in bulk: five games with
their rule sets, 1,000 players (each a Discord user id and a name), results of every kind, a
finished time spread over two years, and a tournament (``Event``) on one match in ten; 10,000
matches of another guild sit beside them. Each filtered query (:func:`geniusbot.storage.archive.find_matches`:
the page's ids, its rows and the count of all found) is run 5 times; the table gives the median
and the worst, against the target of 1 s.

Run: ``python bench/bench_archive_list.py [N]``. SQLite uses a temporary file; PostgreSQL a
temporary database made from ``GENIUSBOT_TEST_POSTGRES_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``) and dropped at the end; it is left out,
with the reason, when no server answers.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, text

from bench.bench_storage import drop_postgres, postgres_database
from geniusbot.storage import Store, models as m
from geniusbot.storage.archive import ArchiveQuery, find_matches
from geniusbot.storage.db import upgrade

TARGET_S = 1.0
GUILD = 1
GAMES = (
    ("tictacfive", "standard"),
    ("armslength", "standard"),
    ("tightwire", "classic"),
    ("tightwire", "influx"),
    ("tiles", "standard"),
    ("decks", "standard"),
)
PLAYERS = 1000
T0 = datetime(2025, 1, 1, tzinfo=UTC)
STATE = {"board": ["." * 15] * 15, "moves": ["H8"] * 40, "phase": "over"}  # a finished snapshot's size


async def fill(store: Store, count: int) -> None:
    """``count`` finished matches of :data:`GUILD` and a tenth as many of another guild."""
    rng = random.Random(count)
    async with store.engine.begin() as conn:
        for guild, total in ((GUILD, count), (2, count // 10)):
            for start in range(0, total, 1000):
                rows, seats = [], []
                for n in range(start, min(start + 1000, total)):
                    game, variant = GAMES[n % len(GAMES)]
                    ended = T0 + timedelta(minutes=rng.randrange(2 * 365 * 24 * 60))
                    roll = rng.random()
                    status = "aborted" if roll < 0.03 else "finished"
                    winner = None if roll < 0.08 else ("p1" if roll < 0.55 else "p2")
                    rows.append(
                        dict(
                            guild_id=guild,
                            channel_id=None,
                            game=game,
                            variant=variant,
                            seed=str(n),
                            options={},
                            status=status,
                            state=STATE,
                            clock=None,
                            host={"imported": True, "event": f"Season {n // 10 % 10}"}
                            if n % 10 == 0
                            else {"saved_at": 0},
                            version=40,
                            last_seq=41,
                            created_at=ended - timedelta(minutes=20),
                            updated_at=ended,
                            finished_at=ended,
                            winner=winner,
                            reason="p1 wins" if winner else None,
                        )
                    )
                result = await conn.execute(insert(m.Match).returning(m.Match.id), rows)
                for match_id in result.scalars():
                    a, b = rng.sample(range(PLAYERS), 2)
                    for seat, player in (("p1", a), ("p2", b)):
                        seats.append(
                            {
                                "match_id": match_id,
                                "seat": seat,
                                "user_id": 10**17 + player,
                                "display_name": f"player{player}",
                            }
                        )
                await conn.execute(insert(m.Seat), seats)


QUERIES: tuple[tuple[str, ArchiveQuery], ...] = (
    ("all, page 1", ArchiveQuery(GUILD)),
    ("all, page 5,000", ArchiveQuery(GUILD, page=5000)),
    ("game", ArchiveQuery(GUILD, game="tictacfive")),
    ("game + rule set", ArchiveQuery(GUILD, game="tightwire", variant="influx")),
    ("player (user id)", ArchiveQuery(GUILD, player=10**17 + 7)),
    ("player (name)", ArchiveQuery(GUILD, player="player7")),
    ("player + game + p1 won", ArchiveQuery(GUILD, player="player7", game="tictacfive", result="p1")),
    ("date range (one month)", ArchiveQuery(GUILD, since=date(2025, 6, 1), until=date(2025, 6, 30))),
    ("result: draw", ArchiveQuery(GUILD, result="draw")),
    ("result: aborted", ArchiveQuery(GUILD, result="aborted")),
    ("game + date range + p2 won", ArchiveQuery(GUILD, game="tiles", since=date(2026, 1, 1), result="p2")),
    ("tournament (no index)", ArchiveQuery(GUILD, tournament="Season 3")),
    (
        "everything at once",
        ArchiveQuery(
            GUILD, player="player7", game="tictacfive", since=date(2025, 1, 1), until=date(2026, 12, 31), result="p1"
        ),
    ),
)


async def run(label: str, url: str, count: int) -> None:
    await upgrade(url)
    store = await Store.open(url)
    try:
        began = time.perf_counter()
        await fill(store, count)
        print(
            f"{label}: {count:,} matches (+{count // 10:,} of another guild) written in {time.perf_counter() - began:.1f} s"
        )
        async with store.engine.begin() as conn:
            await conn.execute(text("ANALYZE"))  # as a server's database is, after a while
        print(f"| {label} query | found | median ms | worst ms |")
        print("| --- | ---: | ---: | ---: |")
        worst_all = 0.0
        for name, query in QUERIES:
            times = []
            for _ in range(5):
                began = time.perf_counter()
                page = await find_matches(store, query)
                times.append(time.perf_counter() - began)
            worst_all = max(worst_all, max(times))
            print(f"| {name} | {page.total:,} | {statistics.median(times) * 1000:.1f} | {max(times) * 1000:.1f} |")
        verdict = "OK" if worst_all < TARGET_S else "OVER TARGET"
        print(f"{label}: the slowest query took {worst_all * 1000:.0f} ms (target {TARGET_S:.0f} s: {verdict})\n")
    finally:
        await store.close()


async def main(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="geniusbot-bench-") as tmp:
        await run("SQLite", f"sqlite+aiosqlite:///{Path(tmp) / 'archive.db'}", count)
    made = await postgres_database("archive")
    if isinstance(made, str):
        print(f"PostgreSQL: skipped, {made}")
        return
    url, name = made
    try:
        await run("PostgreSQL", url, count)
    finally:
        await drop_postgres(name)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))
