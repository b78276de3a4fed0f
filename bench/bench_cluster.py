"""Several ``geniusbot run`` processes on one PostgreSQL database and one loopback Discord.

    python bench/bench_cluster.py [--quick] [--per-shard 4] [--seconds 10] [--rounds 3]
                                  [--handovers 5] [--postgres URL] [--takeovers-only]

1. **Throughput and round trip by process count.** One, two and three real ``geniusbot run``
   processes (``SHARD_COUNT`` 1, 2, 3; each process serves one shard, ``SHARD_IDS=i``), each with
   a fresh database and a fresh fake Discord. Every shard has ``--per-shard`` game rooms (one
   guild per shard), each with a Tic-Tac-Five match (60 s clock; the clocks stand still, the
   processes read the time from a file) between two players of its own. All rooms play at once:
   a player answers as soon as the bot's board has landed, with a random legal move chosen on a
   copy of the game kept here; a match that ends is replaced by a new one in its room. A round
   trip is from just before the player's message is written to the bot's gateway socket to the
   moment the bot's message with the board has landed on the fake. Counted: the moves whose
   board landed within ``--seconds`` after a warm-up of a few seconds; moves per second is their
   number over that window. The three process counts alternate in ``--rounds`` rounds, so that
   the load of other processes on the machine falls on each alike; ratios are to one process.
2. **Takeover after a kill, a freeze and a cut link.** ``SHARD_COUNT=2``: a process for shard 0,
   an owner of shard 1 with ``--per-shard`` live matches, and a standby (``STANDBY=true``)
   waiting for shard 1. The owner stops answering in one of three ways: killed (SIGKILL: its
   sockets close at once), frozen (SIGSTOP: its sockets stay open and silent, as on a stalled
   machine) or cut off (its database link stops forwarding anything, either way, at the
   ``COMMIT`` of a move, as a network that drops every packet does). Every process of shard 1
   reaches PostgreSQL through a TCP proxy of its own on the loopback (tests/cluster/proxy.py), so
   the three are measured alike and a cut falls on one process alone. From just before the fault
   (for a cut, from the moment the link is cut) a player of one of its matches sends the move
   again every 0.1 s, and at once when the standby's "The bot is back" notice lands in the room,
   until the standby's board for it lands. Each repetition starts a new standby and stops the
   process that took over in the one before; the three faults take turns (kill, freeze, cut),
   ``--handovers`` times each, so the machine's load falls on each alike. A frozen owner is
   thawed afterwards, and must then stop by itself (exit 2), as must a cut-off one. Target: at
   most 5 s from the fault to the first accepted move, for each fault.

The fake Discord and the players run in this process, on the same cores as the bots and
PostgreSQL. The database comes from ``--postgres`` or ``GENIUSBOT_TEST_POSTGRES_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``); each scene creates a database of its own
there and drops it at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_discord_roundtrip import percentile
from bench.bench_storage import drop_postgres, postgres_database
from geniusbot.games import new_game
from geniusbot.games.base import Game
from tests.cluster.harness import BotProcess, Cluster, make_cluster, poll
from tests.cluster.proxy import CutProxy
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser

GAME = "tictacfive"
HANDOVER_TARGET = 5.0
#: The ways an owner stops answering, in the order they take turns.
FAULTS = ("kill", "freeze", "cut")
#: Throughput's CPU figures, in the order of the table's column.
CPU_FIELDS = ("bots_cpu", "postgres_cpu", "bench_cpu", "bots_waiting")
#: How long a player waits for the bot's board before the benchmark gives up on the run.
ANSWER_TIMEOUT = 60.0


@dataclass
class Table:
    """One game room, its two players, and the benchmark's copy of the match being played there."""

    shard: int
    guild: FakeGuild
    room: FakeChannel
    players: dict[str, FakeUser]
    rng: random.Random
    game: Game = field(default_factory=lambda: new_game(GAME))


def lay_tables(cluster: Cluster, per_shard: int) -> list[Table]:
    """``per_shard`` rooms in each shard's guild (the harness made one guild a shard), two new
    players in each; made before any process starts, so every guild is in its shard's READY."""
    fake = cluster.fake
    tables = []
    for shard, where in cluster.rooms.items():
        for n in range(per_shard):
            room = fake.create_channel(where.guild, f"table-{shard}-{n}")
            players = {seat: fake.create_user(f"{seat}-{shard}-{n}") for seat in ("p1", "p2")}
            for user in players.values():
                fake.add_member(where.guild, user)
            tables.append(Table(shard, where.guild, room, players, random.Random(shard * 1000 + n)))
    return tables


async def start_match(cluster: Cluster, table: Table) -> None:
    """``/start`` in the table's room; a fresh copy of the game here."""
    options = {"game": GAME, "first": table.players["p1"], "second": table.players["p2"], "clock": "60s"}
    interaction = await cluster.fake.slash(cluster.owner, table.guild, table.room, "start", options)
    answer = await cluster.answer(interaction, timeout=ANSWER_TIMEOUT)
    if not answer.startswith("Match #"):
        raise RuntimeError(f"/start in #{table.room.name} was refused: {answer}")
    table.game = new_game(GAME)


def has_board(message: FakeMessage) -> bool:
    return bool(message.attachments)


async def move(cluster: Cluster, table: Table) -> float:
    """The player to move plays a random legal move; the round trip in seconds."""
    fake = cluster.fake
    seat = table.game.to_move()[0]
    chosen = table.rng.choice(list(table.game.legal_moves(seat)))
    mark = fake.mark()
    start = time.perf_counter()
    await fake.user_says(table.room, table.players[seat], chosen.text())
    answer = await fake.wait_for_message(table.room, predicate=has_board, since=mark, timeout=ANSWER_TIMEOUT)
    elapsed = time.perf_counter() - start
    answer.attachments[0].data = b""  # the fake keeps every message; not its pictures
    table.game.play(chosen)
    return elapsed


@dataclass
class Throughput:
    processes: int
    matches: int
    moves: int
    seconds: float
    times: list[float]
    bench_cpu: float  # cores busy in this process (the fake Discord and the players) in the window
    bots_cpu: float  # cores busy in the bot processes, all together, in the window
    postgres_cpu: float  # cores busy in the PostgreSQL backends of the benchmark's database
    bots_waiting: float  # the bots' threads ready to run but waiting for a core, in cores


def run_queue_waits(pids: list[int]) -> dict[tuple[int, int], float]:
    """Seconds each thread of ``pids`` has spent ready to run but waiting for a core (the second
    field of Linux's /proc/<pid>/task/<tid>/schedstat), by (pid, tid)."""
    waits = {}
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                waits[(pid, int(task.name))] = int((task / "schedstat").read_text().split()[1]) / 1e9
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                pass
    return waits


async def backends(url: str) -> list[int]:
    """The process ids of the PostgreSQL backends connected to ``url``'s database (the bots' pools,
    locks and inbox connections; the server's shared writers and checkpointer are not counted)."""
    import asyncpg

    from geniusbot.cluster.ownership import asyncpg_dsn

    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await conn.close()
    return [row["pid"] for row in rows]


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds so far of each of ``pids`` still running (a process may end meanwhile)."""
    seen = {}
    for pid in pids:
        try:
            seen[pid] = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return seen


def cores(before: dict[Any, float], after: dict[Any, float], seconds: float) -> float:
    return sum(after[pid] - before[pid] for pid in after if pid in before) / seconds


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_cluster(
    fake: FakeDiscord, tmp: Path, url: str, shard_count: int, per_shard: int
) -> tuple[Cluster, list[Table]]:
    cluster = make_cluster(fake, tmp, url, shard_count=shard_count)
    return cluster, lay_tables(cluster, per_shard)


async def with_database(suffix: str, scene: Callable[[str], object]) -> object:
    """Run ``scene(url)`` on a new database of the test server, dropped afterwards."""
    made = await postgres_database(suffix)
    if isinstance(made, str):
        raise SystemExit(f"bench_cluster: {made}")
    url, name = made
    try:
        return await scene(url)  # type: ignore[misc]
    finally:
        await drop_postgres(name)


async def throughput(processes: int, per_shard: int, warmup: float, seconds: float) -> Throughput:
    """``processes`` processes, one shard each, every room playing at once (part 1)."""

    async def scene(url: str) -> Throughput:
        with tempfile.TemporaryDirectory(prefix="geniusbot-cluster-") as folder:
            async with FakeDiscord() as fake:
                cluster, tables = await open_cluster(fake, Path(folder), url, processes, per_shard)
                try:
                    bots = [cluster.start(f"p{shard}", str(shard)) for shard in range(processes)]
                    for shard, bot in enumerate(bots):
                        await bot.serving(shard)
                    await fake.wait_until(lambda: fake.find_command("start") is not None, timeout=60, what="/start")
                    for table in tables:
                        await start_match(cluster, table)
                    loop = asyncio.get_running_loop()
                    begin = loop.time() + warmup
                    end = begin + seconds
                    times: list[float] = []

                    async def play(table: Table) -> None:
                        while loop.time() < end:
                            if table.game.is_over:
                                await start_match(cluster, table)
                            elapsed = await move(cluster, table)
                            if begin <= loop.time() <= end:
                                times.append(elapsed)

                    pids = [bot.process.pid for bot in bots]
                    used: dict[str, float] = {}

                    async def sample() -> None:
                        await asyncio.sleep(max(0.0, begin - loop.time()))
                        database = await backends(url)
                        bench, bots_before, db_before = time.process_time(), cpu_of(pids), cpu_of(database)
                        waits_before = run_queue_waits(pids)
                        await asyncio.sleep(max(0.0, end - loop.time()))
                        used["bench"] = (time.process_time() - bench) / seconds
                        used["bots"] = cores(bots_before, cpu_of(pids), seconds)
                        used["postgres"] = cores(db_before, cpu_of(database), seconds)
                        used["waiting"] = cores(waits_before, run_queue_waits(pids), seconds)

                    await asyncio.gather(sample(), *(play(table) for table in tables))
                    if cluster.tracebacks():
                        raise RuntimeError(f"a bot process logged a traceback:\n{cluster.tracebacks()}")
                    return Throughput(
                        processes,
                        len(tables),
                        len(times),
                        seconds,
                        times,
                        used["bench"],
                        used["bots"],
                        used["postgres"],
                        used["waiting"],
                    )
                finally:
                    await cluster.close()

    return await with_database(f"t{processes}", scene)  # type: ignore[return-value]


@dataclass
class Handover:
    fault: str  # "kill", "freeze" or "cut"
    serving: float  # fault -> the standby logs that it serves the shard
    notice: float  # fault -> "The bot is back" in the probed room
    accepted: float  # fault -> the board of the re-sent move in the probed room
    sends: int  # how many times the player sent the move


async def handovers(repetitions: int, per_shard: int) -> list[Handover]:
    """Make shard 1's owner stop answering ``repetitions`` times in each of the :data:`FAULTS`,
    taking turns, a standby waiting each time (part 2)."""

    async def scene(url: str) -> list[Handover]:
        from sqlalchemy.engine import make_url

        server = make_url(url)
        proxies: dict[str, CutProxy] = {}

        async def start(name: str, *, standby: bool) -> BotProcess:
            """A process of shard 1 that reaches the database through a proxy of its own."""
            proxy = proxies[name] = CutProxy(server.host or "127.0.0.1", server.port or 5432)
            await proxy.start()
            through = server.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
            return cluster.start(name, "1", standby=standby, db_url=through)

        with tempfile.TemporaryDirectory(prefix="geniusbot-handover-") as folder:
            async with FakeDiscord() as fake:
                cluster, tables = await open_cluster(fake, Path(folder), url, 2, per_shard)
                try:
                    zero, owner = cluster.start("zero", "0"), await start("owner-0", standby=False)
                    await zero.serving(0)
                    await owner.serving(1)
                    await fake.wait_until(lambda: fake.find_command("start") is not None, timeout=60, what="/start")
                    for table in tables:
                        await start_match(cluster, table)
                        for _ in range(6):  # past the swap opening: the probe's move is a stone
                            await move(cluster, table)
                    ones = [table for table in tables if table.shard == 1]
                    results = []
                    for rep in range(repetitions * len(FAULTS)):
                        fault = FAULTS[rep % len(FAULTS)]
                        standby = await start(f"owner-{rep + 1}", standby=True)
                        await poll(lambda: "standby: waiting for shard(s) 1" in standby.text(), 90, "the standby")
                        table = ones[rep % len(ones)]
                        if table.game.is_over or len(table.game.view()["stones"]) > 150:
                            await start_match(cluster, table)
                            for _ in range(6):
                                await move(cluster, table)
                        results.append(await handover(cluster, owner, standby, table, fault, proxies[owner.name]))
                        await proxies.pop(owner.name).close()
                        owner = standby
                    if cluster.tracebacks():
                        raise RuntimeError(f"a bot process logged a traceback:\n{cluster.tracebacks()}")
                    return results
                finally:
                    await cluster.close()
                    for proxy in proxies.values():
                        await proxy.close()

    return await with_database("h", scene)  # type: ignore[return-value]


async def handover(
    cluster: Cluster, owner: BotProcess, standby: BotProcess, table: Table, fault: str, proxy: CutProxy
) -> Handover:
    """``owner`` stops answering by ``fault`` and ``standby`` takes over, timed from the fault."""
    fake = cluster.fake
    seat = table.game.to_move()[0]
    chosen = table.rng.choice(list(table.game.legal_moves(seat)))
    text = chosen.text()
    mark = fake.mark()
    loop = asyncio.get_running_loop()
    board = asyncio.ensure_future(
        fake.wait_for_message(
            table.room,
            predicate=lambda m: bool(m.attachments) and text in m.content and not m.content.startswith("The bot is"),
            since=mark,
            timeout=ANSWER_TIMEOUT,
        )
    )
    notice = asyncio.ensure_future(
        fake.wait_for_message(
            table.room, predicate=lambda m: m.content.startswith("The bot is back"), since=mark, timeout=ANSWER_TIMEOUT
        )
    )
    sends = 0
    if fault == "cut":
        # The owner takes the move and commits it; the link is cut as the COMMIT is sent.
        proxy.cut_at_commit("INSERT INTO actions")
        await fake.user_says(table.room, table.players[seat], text)
        sends += 1
        await asyncio.wait_for(proxy.was_cut.wait(), ANSWER_TIMEOUT)
        assert proxy.cut_at is not None
        start = proxy.cut_at
    else:
        start = time.perf_counter()
        if fault == "kill":
            owner.process.kill()  # SIGKILL
            await asyncio.to_thread(owner.process.wait, 10)
        else:
            owner.signal(signal.SIGSTOP)  # frozen: its sockets open, its lock session silent
    stamps: dict[str, float] = {}
    notice.add_done_callback(lambda _: stamps.setdefault("notice", time.perf_counter() - start))
    board.add_done_callback(lambda _: stamps.setdefault("accepted", time.perf_counter() - start))

    async def serving() -> None:
        await poll(lambda: "serving shard(s) 1 of 2" in standby.text(), ANSWER_TIMEOUT, "the standby serving")
        stamps.setdefault("serving", time.perf_counter() - start)

    watcher = asyncio.ensure_future(serving())
    deadline = loop.time() + ANSWER_TIMEOUT
    while not board.done():
        if loop.time() > deadline:
            raise RuntimeError(
                f"no board for {text} {ANSWER_TIMEOUT:.0f} s after the {fault}:\n{standby.text()[-3000:]}"
            )
        await fake.user_says(table.room, table.players[seat], text)
        sends += 1
        heard_before = notice.done()
        await asyncio.wait([board, notice] if not heard_before else [board], timeout=0.1)
    answer = await board
    answer.attachments[0].data = b""
    table.game.play(chosen)
    await asyncio.wait_for(notice, ANSWER_TIMEOUT)
    await asyncio.wait_for(watcher, ANSWER_TIMEOUT)
    if fault != "kill":
        # Thawed, or cut off, the old owner must find its lock session gone and stop by itself.
        if fault == "freeze":
            owner.signal(signal.SIGCONT)
        code = await owner.exited(ANSWER_TIMEOUT)
        if code != 2 or "lost the locks of shard(s) 1 of 2" not in owner.text():
            raise RuntimeError(f"the {fault} owner ended with {code}:\n{owner.text()[-3000:]}")
        if fault == "cut":
            await proxy.heal()  # what it held reaches sessions the server has ended
    return Handover(fault, stamps["serving"], stamps["notice"], stamps["accepted"], sends)


def load() -> str:
    return "/".join(f"{n:.2f}" for n in os.getloadavg())


def print_throughput(runs: dict[int, list[Throughput]]) -> None:
    """Part 1's table, each figure beside its ratio to one process."""
    print(
        "\n| processes (shards) | matches | moves/s | p50 ms | p99 ms | CPU ms a move: bots, PostgreSQL, fake "
        "| bots' wait for a core, ms a move | moves/s by round |\n| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    base: tuple[float, float, float] | None = None
    for count, done in runs.items():
        times = [t * 1000 for run in done for t in run.times]
        moves = sum(run.moves for run in done)
        rate = moves / sum(run.seconds for run in done)
        p50, p99 = statistics.median(times), percentile(times, 99)
        base = base or (rate, p50, p99)
        cpu = [1000 * sum(getattr(run, f) * run.seconds for run in done) / moves for f in CPU_FIELDS]
        print(
            f"| {count} | {done[0].matches} | {rate:.1f} ({rate / base[0]:.2f} x) | {p50:.1f} ({p50 / base[1]:.2f} x) "
            f"| {p99:.1f} ({p99 / base[2]:.2f} x) | {', '.join(f'{c:.1f}' for c in cpu[:3])} | {cpu[3]:.1f} | "
            + ", ".join(f"{run.moves / run.seconds:.1f}" for run in done)
            + " |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="a tiny run: 2 rooms a shard, 3 s, 1 round, 2 takeovers of each fault"
    )
    parser.add_argument("--per-shard", type=int, default=4, help="game rooms (matches) on each shard")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measured window of each run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before the window opens")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three process counts")
    parser.add_argument("--handovers", type=int, default=5, help="takeovers after each fault (kill, freeze, cut)")
    parser.add_argument("--takeovers-only", action="store_true", help="part 2 alone: no throughput rounds")
    parser.add_argument(
        "--postgres", help="the server's URL (default: GENIUSBOT_TEST_POSTGRES_URL or the local test one)"
    )
    args = parser.parse_args()
    if args.quick:
        args.per_shard, args.seconds, args.warmup, args.rounds, args.handovers = 2, 3.0, 1.0, 1, 2
    if args.takeovers_only:
        args.rounds = 0
    if args.postgres:
        os.environ["GENIUSBOT_TEST_POSTGRES_URL"] = args.postgres
    counts = (1, 2, 3)
    start_load = load()
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cpu(s) shared with other work, load at start {start_load}; "
        f"{args.per_shard} matches a shard, {args.rounds} round(s) of {args.seconds:.0f} s (after {args.warmup:.0f} s) "
        f"for each of {', '.join(map(str, counts))} process(es); {args.handovers} takeovers after each of "
        f"{', '.join(FAULTS)}",
        flush=True,
    )
    runs: dict[int, list[Throughput]] = {count: [] for count in counts}
    for round_number in range(args.rounds):
        order = counts if round_number % 2 == 0 else tuple(reversed(counts))
        for count in order:
            result = asyncio.run(throughput(count, args.per_shard, args.warmup, args.seconds))
            runs[count].append(result)
            print(
                f"  round {round_number + 1}, {count} process(es), {result.matches} matches: "
                f"{result.moves / result.seconds:.1f} moves/s, p50 {statistics.median(result.times) * 1000:.1f} ms, "
                f"cores busy: bots {result.bots_cpu:.2f}, PostgreSQL {result.postgres_cpu:.2f}, "
                f"fake + players {result.bench_cpu:.2f}; bots waiting for a core {result.bots_waiting:.2f} "
                f"(load {load()})",
                flush=True,
            )
    taken = asyncio.run(handovers(args.handovers, args.per_shard))
    end_load = load()

    if not args.takeovers_only:
        print_throughput(runs)
    print(
        "\n| takeover | fault | fault -> standby serving, s | fault -> room told, s | fault -> move accepted, s "
        "| sends |\n| --- | --- | --- | --- | --- | --- |"
    )
    for n, h in enumerate(taken, 1):
        print(f"| {n} | {h.fault} | {h.serving:.2f} | {h.notice:.2f} | {h.accepted:.2f} | {h.sends} |")
    print(
        "\n| fault | takeovers | standby serving, median / max s | move accepted, median / max s | target |\n"
        "| --- | --- | --- | --- | --- |"
    )
    for fault in FAULTS:
        these = [h for h in taken if h.fault == fault]
        serving, accepted = [h.serving for h in these], [h.accepted for h in these]
        verdict = "met" if max(accepted) <= HANDOVER_TARGET else "MISSED"
        print(
            f"| {fault} | {len(these)} | {statistics.median(serving):.2f} / {max(serving):.2f} "
            f"| {statistics.median(accepted):.2f} / {max(accepted):.2f} | at most {HANDOVER_TARGET:.0f} s: {verdict} |"
        )
    print(f"load average (1/5/15 min) at start {start_load}, at end {end_load}")


if __name__ == "__main__":
    main()
