"""A move's round trip through the geniusbot bot on the fake Discord, side by side with a bare
discord.py bot that answers each message with a pre-rendered PNG of the same size.

    python bench/bench_bot_roundtrip.py [--iterations 200] [--warmup 20] [--rounds 3]

Round trip: from just before the player's MESSAGE_CREATE is written to the bot's gateway socket
to the moment the bot's message with the board picture has landed on the fake. The geniusbot
side is the whole product path: on_message, the chatter test, the host (parse, play, commit to
SQLite while a worker thread renders the board, re-arm the clock's timer), and one upload: the
board with the move's announcement and the clock line as its caption (``--boards card,edited``:
also a room whose board is a Components V2 card per move, or one card edited per move). The moves are random legal Tic-Tac-Five moves of the seat to move
(chosen before the clock starts); a match that ends is replaced by a new one, untimed. The bare
bot answers each message with one PNG of the geniusbot board's byte size (a rendered
Tic-Tac-Five board of 40 stones). The two bots alternate in rounds so that load from other
processes hits both alike; the ratio is of the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import discord

from bench.bench_discord_roundtrip import bare_bot_scenario, percentile
from bench.bench_storage import drop_postgres, postgres_database
from geniusbot.bot import GeniusBot
from geniusbot.games import new_game
from geniusbot.host import board
from tests.fakediscord import FakeDiscord
from tests.fakediscord.running import running
from tests.manualtime import ManualTime


def board_png(stones: int = 40, seed: int = 4) -> bytes:
    """A rendered Tic-Tac-Five board with ``stones`` stones: the size the bot uploads mid-game."""
    rng = random.Random(seed)
    game = new_game("tictacfive", seed=seed)
    game.submit("H8", "p1"), game.submit("H9", "p1"), game.submit("I8", "p1"), game.submit("white", "p2")
    while len(game.view()["stones"]) < stones and not game.is_over:
        seat = game.to_move()[0]
        game.play(rng.choice(list(game.legal_moves(seat))))
    png = board.picture(
        game.view(), players={"p1": "alice", "p2": "bob"}, clocks={"p1": "1:00", "p2": "0:52"}, title="Match #1"
    )
    assert png is not None
    return png


async def bare_bot(png: bytes, iterations: int, warmup: int) -> list[float]:
    """The bare bot of bench_discord_roundtrip, answering with ``png``."""
    from bench.bench_discord_roundtrip import measure

    return await measure(bare_bot_scenario(png), iterations=iterations, warmup=warmup)


def floor_scenarios(png: bytes) -> list:
    """Bare bots that add one of geniusbot's unavoidable costs, and nothing else (``--floors``).

    Each answers every player's message with one upload, like the bare bot, but first:

    * **render**: plays a random legal Tic-Tac-Five move on its own game and draws that board with
      the bot's renderer (``board.picture``, band cache and all), inline, then uploads it;
    * **save**: commits one row (the move's text and time) to a SQLite file in WAL with
      ``synchronous=FULL``, the store's setting, on a worker thread, then uploads the
      pre-rendered PNG;
    * **render + save**: both side by side (the drawing on a worker thread while the commit runs),
      then the upload: the least any bot can do that saves each move before it shows the board.

    No parsing, no rules beyond picking the move, no clocks, no timers, no ORM: each is a lower
    bound for geniusbot's round trip, measured in the same run as the bare bot.
    """
    import sqlite3

    from bench.bench_discord_roundtrip import Scenario, answering_bot

    class Drawing:
        """A Tic-Tac-Five game of its own, one random legal move and one board per message."""

        def __init__(self) -> None:
            self.rng = random.Random(7)
            self.game = new_game("tictacfive", seed=7)

        def next_board(self) -> bytes:
            if self.game.is_over or len(self.game.view()["stones"]) > 60:
                self.game = new_game("tictacfive", seed=self.rng.randrange(1 << 30))
            seat = self.game.to_move()[0]
            self.game.play(self.rng.choice(list(self.game.legal_moves(seat))))
            clocks = {"p1": f"0:{self.rng.randrange(10, 60)}", "p2": "1:00"}
            drawn = board.picture(
                self.game.view(), players={"p1": "alice", "p2": "bob"}, clocks=clocks, title="Match #1"
            )
            assert drawn is not None
            return drawn

    class Saving:
        """One SQLite file in WAL with synchronous=FULL; one committed row per message."""

        def __init__(self, path: str) -> None:
            self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, text TEXT, at REAL)")

        def save(self, text: str) -> None:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO moves (text, at) VALUES (?, ?)", (text, time.time()))
            self.db.execute("COMMIT")

    folder = tempfile.mkdtemp(prefix="geniusbot-floor-")
    say = lambda i: f"H{i % 9 + 1}"  # noqa: E731
    answer = lambda m: bool(m.attachments)  # noqa: E731

    def render_bot(fake, world):  # type: ignore[no-untyped-def]
        drawing = Drawing()

        async def handler(text: str) -> bytes:
            return drawing.next_board()

        return answering_bot(handler)

    def save_bot(fake, world):  # type: ignore[no-untyped-def]
        saving = Saving(os.path.join(folder, f"save-{time.perf_counter_ns()}.sqlite3"))

        async def handler(text: str) -> bytes:
            await asyncio.to_thread(saving.save, text)
            return png

        return answering_bot(handler)

    def both_bot(fake, world):  # type: ignore[no-untyped-def]
        drawing = Drawing()
        saving = Saving(os.path.join(folder, f"both-{time.perf_counter_ns()}.sqlite3"))

        async def handler(text: str) -> bytes:
            drawn, _ = await asyncio.gather(asyncio.to_thread(drawing.next_board), asyncio.to_thread(saving.save, text))
            return drawn

        return answering_bot(handler)

    return [
        Scenario(name="floor: bare + render", make_client=render_bot, say=say, is_answer=answer),
        Scenario(name="floor: bare + save (SQLite FULL)", make_client=save_bot, say=say, is_answer=answer),
        Scenario(name="floor: bare + render | save", make_client=both_bot, say=say, is_answer=answer),
    ]


async def geniusbot_bot(
    iterations: int, warmup: int, seed: int = 1, *, postgres: bool = False, style: str = "message"
) -> tuple[list[float], int] | str:
    """Round trips of random legal moves through the real bot; also the board's byte size seen.

    ``postgres``: the store is a new database on the test server (dropped afterwards), else a
    SQLite file in a temporary folder. Returns the reason instead when there is no server.
    ``style``: the room's board (``/setup board``): ``message`` (a picture per move), ``card`` (a
    Components V2 card per move) or ``edited`` (one card edited after every move).
    """
    if postgres:
        made = await postgres_database("bot")
        if isinstance(made, str):
            return made
        url, name = made
        try:
            return await _geniusbot_bot(url, iterations, warmup, seed, style)
        finally:
            await drop_postgres(name)
    with tempfile.TemporaryDirectory() as tmp:
        return await _geniusbot_bot(
            f"sqlite+aiosqlite:///{Path(tmp, 'bench.sqlite3').as_posix()}", iterations, warmup, seed, style
        )


async def _geniusbot_bot(
    url: str, iterations: int, warmup: int, seed: int, style: str = "message"
) -> tuple[list[float], int]:
    rng = random.Random(seed)
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Bench")
        room = fake.create_channel(guild, "match")
        alice, bob = fake.create_user("alice"), fake.create_user("bob")
        for user in (alice, bob):
            fake.add_member(guild, user)
        owner = fake.users[guild.owner_id]
        users = {"p1": alice, "p2": bob}
        bot = GeniusBot(database_url=url, time=ManualTime(), guild_ready_timeout=0.01)
        sizes: list[int] = []
        async with running(fake, bot, timeout=30):
            assert bot.host is not None and bot.store is not None
            bot.settings_changed(await bot.store.set_guild_settings(guild.id, board=style))
            match_id = 0

            async def new_match() -> int:
                if match_id:
                    await bot.host.command(match_id, "abort")
                interaction = await fake.slash(
                    owner, guild, room, "start", {"game": "tictacfive", "first": alice, "second": bob, "clock": "60s"}
                )
                await fake.wait_for_followup(interaction)
                return max(live.id for live in bot.host.unfinished())

            times: list[float] = []
            match_id = await new_match()
            for i in range(warmup + iterations):
                live = bot.host.held(match_id)  # let go of once it is over
                if live is None or live.game.is_over:
                    match_id = await new_match()
                    live = bot.host.held(match_id)
                    assert live is not None
                game = live.game
                seat = game.to_move()[0]
                text = rng.choice(list(game.legal_moves(seat))).text()
                mark = fake.mark()
                start = time.perf_counter()
                REQUESTS.on = i >= warmup
                await fake.user_says(room, users[seat], text)
                # The board posted (a picture, a card) or, in an edited room, the card edited.
                answer = await fake.wait_for(
                    ("message_create", "message_update"),
                    lambda m: bool(m.attachments) and m.author.id == fake.bot_user.id,
                    since=mark,
                    timeout=30,
                )
                elapsed = time.perf_counter() - start
                REQUESTS.on = False
                if i >= warmup:
                    REQUESTS.moves[bot.store.dialect if bot.store else "?"] += 1
                    times.append(elapsed)
                    sizes.append(len(answer.attachments[0].data))
                answer.attachments[0].data = b""
        return times, int(statistics.median(sizes))


STAGES: dict[str, list[float]] = {}


class Requests:
    """What the bot sends its database during the timed round trips (``--stages``), by dialect:
    the statements SQLAlchemy executes, the commits, and on PostgreSQL the driver's own queries
    (``BEGIN``, ``COMMIT``, a ping). On PostgreSQL each of those is a round trip to the server;
    on SQLite the whole transaction is one hop to the store's thread."""

    def __init__(self) -> None:
        self.on = False
        self.moves: collections.Counter[str] = collections.Counter()
        self.counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def count(self, dialect: str, what: str) -> None:
        if self.on:
            self.counts[dialect, what] += 1

    def install(self) -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        @event.listens_for(Engine, "before_cursor_execute")
        def _statement(conn, *_args):  # type: ignore[no-untyped-def]
            self.count(conn.dialect.name, "statements")

        @event.listens_for(Engine, "commit")
        def _commit(conn):  # type: ignore[no-untyped-def]
            self.count(conn.dialect.name, "commits")

        @event.listens_for(Engine, "connect")
        def _connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            driver = getattr(dbapi_connection, "driver_connection", None)
            if hasattr(driver, "add_query_logger"):  # asyncpg
                driver.add_query_logger(lambda record: self.count("postgresql", f"driver queries ({record.query})"))

    def report(self) -> list[str]:
        lines = []
        for dialect, moves in sorted(self.moves.items()):
            parts = [f"{n / moves:.2f} {what}" for (d, what), n in sorted(self.counts.items()) if d == dialect]
            lines.append(f"  database requests per move, {dialect} ({moves} moves): {', '.join(parts) or 'none'}")
        return lines


REQUESTS = Requests()


def time_stages() -> None:
    """Time the stages of a move inside the bot (commit, render, uploads) for ``--stages``."""
    import functools

    from geniusbot.discord_transport import DiscordTransport
    from geniusbot.storage import Store

    def timed(owner: object, name: str, label: str) -> None:
        function = getattr(owner, name)
        if asyncio.iscoroutinefunction(function):

            @functools.wraps(function)
            async def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
                start = time.perf_counter()
                try:
                    return await function(*args, **kwargs)
                finally:
                    STAGES.setdefault(label, []).append(time.perf_counter() - start)
        else:

            @functools.wraps(function)
            def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
                start = time.perf_counter()
                try:
                    return function(*args, **kwargs)
                finally:
                    STAGES.setdefault(label, []).append(time.perf_counter() - start)

        setattr(owner, name, wrapper)

    timed(Store, "commit_action", "commit (Store.commit_action)")
    timed(board, "picture", "render (board.picture, in a thread)")
    timed(DiscordTransport, "post", "post a text message (start, answers; no longer each move)")
    timed(DiscordTransport, "post_picture", "post the board (multipart)")
    timed(DiscordTransport, "post_card", "post the board as a card (multipart)")
    timed(DiscordTransport, "edit_card", "edit the board's card (multipart)")
    REQUESTS.install()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stages", action="store_true", help="also time the stages inside the bot")
    parser.add_argument(
        "--floors", action="store_true", help="also run bare bots that add only a render, only a durable save, or both"
    )
    parser.add_argument(
        "--boards",
        default="message",
        help="the board styles to run geniusbot with, comma-separated: message, card, edited (beyond message: SQLite only)",
    )
    args = parser.parse_args()
    if args.stages:
        time_stages()
    png = board_png()
    print(
        f"Python {sys.version.split()[0]}, discord.py {discord.__version__}, {os.cpu_count()} cpu(s), "
        f"load {os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.iterations} timed round trips each"
    )
    print(f"{'bot':<34} {'png bytes':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    bare_all: list[float] = []
    ours: dict[str, list[float]] = {"SQLite": [], "PostgreSQL": []}
    styles = [s.strip() for s in args.boards.split(",") if s.strip() and s.strip() != "message"]
    ours.update({f"SQLite, {style}": [] for style in styles})
    sizes: dict[str, int] = {}
    skipped: dict[str, str] = {}
    floors = {scenario.name: scenario for scenario in floor_scenarios(png)} if args.floors else {}
    floor_times: dict[str, list[float]] = {name: [] for name in floors}
    for _ in range(args.rounds):
        for name, scenario in floors.items():
            from bench.bench_discord_roundtrip import measure

            floor_times[name] += asyncio.run(measure(scenario, iterations=args.iterations, warmup=args.warmup))
        for backend in ours:
            if backend in skipped:
                continue
            style = backend.partition(", ")[2] or "message"
            result = asyncio.run(
                geniusbot_bot(args.iterations, args.warmup, postgres=backend == "PostgreSQL", style=style)
            )
            if isinstance(result, str):
                skipped[backend] = result
                continue
            ours[backend] += result[0]
            sizes[backend] = result[1]
        bare_all += asyncio.run(bare_bot(png, args.iterations, args.warmup))
    rows = [("bare discord.py bot", bare_all, len(png))]
    rows += [(name, times, len(png)) for name, times in floor_times.items()]
    rows += [(f"geniusbot ({backend})", times, sizes[backend]) for backend, times in ours.items() if times]
    for name, times, nbytes in rows:
        ms = [t * 1000 for t in times]
        print(
            f"{name:<34} {nbytes:>9} {statistics.median(ms):>8.2f} {percentile(ms, 90):>8.2f} {percentile(ms, 99):>8.2f} {statistics.fmean(ms):>8.2f}"
        )
    for name, times in floor_times.items():
        print(f"{name} / bare, medians: {statistics.median(times) / statistics.median(bare_all):.2f} x")
    floor = floor_times.get("floor: bare + render | save")
    for backend, times in ours.items():
        if times:
            ratio = statistics.median(times) / statistics.median(bare_all)
            print(f"geniusbot ({backend}) / bare, medians: {ratio:.2f} x (target: at most 1.25 x)")
            if floor:
                ratio = statistics.median(times) / statistics.median(floor)
                print(f"geniusbot ({backend}) / bare + render | save, medians: {ratio:.2f} x (target: at most 1.25 x)")
        else:
            print(f"geniusbot ({backend}): not measured, {skipped.get(backend)}")
    for label, times in STAGES.items():
        ms = [t * 1000 for t in times]
        print(
            f"  stage, both backends: {label:<38} p50 {statistics.median(ms):6.2f} ms, p90 {percentile(ms, 90):6.2f} ms (n={len(ms)})"
        )
    for line in REQUESTS.report():
        print(line)


if __name__ == "__main__":
    main()
