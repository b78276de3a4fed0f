"""Replays and records of a long match, the archive's old way and its new way side by side.

    python bench/bench_replay.py [--moves 5000] [--rounds 3]
    python bench/bench_replay.py --page [--before DIR] [--timeout 120] [--rounds 1]

The match: a stored Tightwire match of ``--moves`` legal moves and a resignation (SQLite, the
log written in bulk). Each measurement runs in a fresh process, old and new alternating, and
the figures are the medians over the rounds.

* old: what the archive did before: ``replay_match`` (the game copied once per step, on the
  event loop) cached whole; ``/record`` replayed it the same way, on the loop.
* new: ``open_replay`` (the log packed in a worker thread), then ``Replay.step`` in a worker
  thread, from a snapshot every 64 steps; ``export_record`` plays the game through once,
  without copies, in a worker thread.

Figures: the time to the first step (from the command to the step's game, store reads
included; the board picture, the same either way, is left out), the time to the last step
after it (the new replay takes its snapshots then), a step in the middle once they are taken,
the record's export, the longest stretch the event loop's thread was kept busy (CPU time between
two wake-ups of a 2 ms sampler) and the memory the cached replay holds: every object it
reaches, the growth of the process's resident set (which also keeps what reading the log from
the store took, as the allocator rarely hands memory back), and for the new replay its own
count of bytes (``Replay.nbytes``, what the cache counts).

``--page``: ``geniusbot replay FILE --html OUT`` of records of several lengths (All Hands On
Deck's, and Tightwire records of 900, 2,000 and 40,000 moves and the most a 1 MiB record holds,
69,890), each run in a fresh process: the wall time, the CPU time and the peak resident set of
that process (``wait4``), and the page's size. With ``--before DIR`` (a checkout of an earlier
commit, ``git archive COMMIT | tar -x -C DIR``) the same command is run there too, alternating
with this tree's, and a run longer than ``--timeout`` seconds is stopped and said as such.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.host.replay import export_record, open_replay, record_line, replay_actions, replay_match
from geniusbot.record import format_record, record_from_game
from geniusbot.storage import Store
from geniusbot.storage.values import MatchRecord
from tests.host.longmatch import shuttle_moves, store_long_match

ROOT = Path(__file__).resolve().parent.parent
#: The page's records: a name, and the moves of a Tightwire record (``None``: the file itself).
PAGE_RECORDS: list[tuple[str, Path | int]] = [
    ("All Hands On Deck, tests/records/allhands.txt (227 lines)", ROOT / "tests" / "records" / "allhands.txt"),
    ("Tightwire, 900 moves", 900),
    ("Tightwire, 2,000 moves", 2_000),
    ("Tightwire, 40,000 moves", 40_000),
    ("Tightwire, 69,890 moves (the most a 1 MiB record holds)", 69_890),
]


def rss() -> int:
    """The process's resident set, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def old_export(record: MatchRecord, actions: list[Any]) -> str:
    """The record text as the archive wrote it before: every step replayed with a copy."""
    steps = replay_actions(record, actions)
    lines = [record_line(s.action, s.clocks) for s in steps[1:] if s.action is not None]
    return format_record(record_from_game(steps[-1].game, lines))


class Sampler:
    """The longest stretch the loop's thread was busy (CPU) or late (wall) between wake-ups."""

    def __init__(self) -> None:
        self.busy = 0.0
        self.late = 0.0

    async def run(self) -> None:
        while True:
            wall, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.002)
            self.busy = max(self.busy, time.thread_time() - cpu)
            self.late = max(self.late, time.perf_counter() - wall - 0.002)


def held(root: object) -> int:
    """The bytes of every object reachable from ``root`` (classes, modules and functions, which
    the program shares, left out): what keeping ``root`` in a cache costs."""
    seen: set[int] = set()
    stack, total = [root], 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


async def measure(variant: str, url: str, match_id: int) -> dict[str, float]:
    store = await Store.open(url, migrate=False)
    sampler = Sampler()
    task = asyncio.create_task(sampler.run())
    await asyncio.sleep(0.01)
    out: dict[str, float] = {}
    kept: object
    try:
        base = rss()
        start = time.perf_counter()
        if variant == "old":
            await store.get_match(match_id)  # the cog's check that the match has ended
            steps = await replay_match(store, match_id)
            steps[0].game.view(None)
            out["first"] = time.perf_counter() - start
            start = time.perf_counter()
            steps[-1].game.view(None)
            out["last"] = time.perf_counter() - start
            start = time.perf_counter()
            steps[len(steps) // 2].game.view(None)
            out["middle"] = time.perf_counter() - start
            start = time.perf_counter()
            record, actions = await store.get_match(match_id), await store.actions(match_id)
            old_export(record, list(actions))
            out["export"] = time.perf_counter() - start
            del record, actions
            kept = steps
        else:
            await store.get_match(match_id)
            replay = await open_replay(store, match_id)
            (await asyncio.to_thread(replay.step, 0)).game.view(None)
            out["first"] = time.perf_counter() - start
            start = time.perf_counter()
            (await asyncio.to_thread(replay.step, replay.last)).game.view(None)
            out["last"] = time.perf_counter() - start
            start = time.perf_counter()
            (await asyncio.to_thread(replay.step, len(replay) // 2)).game.view(None)
            out["middle"] = time.perf_counter() - start
            start = time.perf_counter()
            await export_record(store, match_id)
            out["export"] = time.perf_counter() - start
            out["nbytes"] = replay.nbytes
            kept = replay
    finally:
        task.cancel()
        await store.close()
    out["busy"], out["late"] = sampler.busy, sampler.late
    gc.collect()
    out["rss"] = rss() - base
    out["held"] = held(kept)
    return out


async def prepare(url: str, moves: int) -> int:
    store = await Store.open(url)
    try:
        return await store_long_match(store, moves)
    finally:
        await store.close()


def one(variant: str, url: str, match_id: int) -> dict[str, float]:
    """One measurement in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", variant, "--url", url, "--match", str(match_id)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def tightwire_record(moves: int) -> str:
    """A Tightwire record of ``moves`` legal moves and a resignation, every line accepted."""
    lines = ['[Game "tightwire"]', '[Variant "classic"]', '[Seed "0"]', '[P1 "alice"]', '[P2 "bob"]', ""]
    lines += [f"{seat}: {text}" for seat, text in shuttle_moves(moves)]
    return "\n".join([*lines, "host: resign p2"]) + "\n"


def run_page(root: Path, record: Path, out: Path, timeout: float) -> dict[str, float] | None:
    """``geniusbot replay RECORD --html OUT`` in ``root``: wall and CPU seconds, peak RSS in MB,
    the page's bytes; ``None`` when stopped after ``timeout`` seconds."""
    out.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(root)}
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "geniusbot", "replay", str(record), "--html", str(out)],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - started > timeout:
            os.killpg(child.pid, signal.SIGKILL)
            os.wait4(child.pid, 0)
            return None
        time.sleep(0.05)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"replay --html exited {child.returncode} in {root}: {child.stderr.read()!r}")  # type: ignore[union-attr]
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "bytes": out.stat().st_size,
    }


def page_main(args: argparse.Namespace) -> None:
    trees = {"after": ROOT}
    if args.before:
        trees = {"before": Path(args.before).resolve(), "after": ROOT}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| record | tree | wall | CPU | peak RSS | page |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for name, source in PAGE_RECORDS:
            if isinstance(source, Path):
                record = source
            else:
                record = Path(folder) / f"tightwire-{source}.txt"
                record.write_text(tightwire_record(source), encoding="utf-8")
            runs: dict[str, list[dict[str, float] | None]] = {tree: [] for tree in trees}
            for _ in range(args.rounds):
                for tree, root in trees.items():
                    if runs[tree] and runs[tree][-1] is None:
                        continue  # stopped once: it is not run again
                    runs[tree].append(run_page(root, record, Path(folder) / "page.html", args.timeout))
            for tree, done in runs.items():
                finished = [r for r in done if r is not None]
                if not finished:
                    print(f"| {name} | {tree} | > {args.timeout:.0f} s (stopped) | - | - | - |")
                    continue
                med = {k: statistics.median(r[k] for r in finished) for k in finished[0]}
                print(
                    f"| {name} | {tree} | {med['wall']:,.1f} s | {med['cpu']:,.1f} s | {med['rss']:,.0f} MB "
                    f"| {med['bytes'] / 1e6:,.1f} MB |"
                )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=None, help="3, or 1 with --page")
    parser.add_argument("--one", choices=("old", "new"))
    parser.add_argument("--url")
    parser.add_argument("--match", type=int)
    parser.add_argument("--page", action="store_true", help="time replay --html of records of several lengths")
    parser.add_argument("--before", metavar="DIR", help="with --page: a checkout of an earlier commit, run beside")
    parser.add_argument("--timeout", type=float, default=120.0, help="with --page: stop a run after this many seconds")
    args = parser.parse_args()
    if args.page:
        args.rounds = args.rounds or 1
        page_main(args)
        return
    args.rounds = args.rounds or 3
    if args.one:
        print(json.dumps(asyncio.run(measure(args.one, args.url, args.match))))
        return
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.sqlite3"
        match_id = asyncio.run(prepare(url, args.moves))
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            for variant in ("old", "new"):
                runs[variant].append(one(variant, url, match_id))
    med = {v: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for v, rs in runs.items()}
    print(f"Tightwire match of {args.moves} moves and a resignation, median of {args.rounds} rounds")
    print("| measure | old | new |")
    print("| --- | --- | --- |")
    rows = [
        ("time to the first /replay step", "first", 1000, "ms"),
        ("then the last step", "last", 1000, "ms"),
        ("then a step in the middle", "middle", 1000, "ms"),
        ("/record: the export", "export", 1000, "ms"),
        ("longest busy stretch of the event loop", "busy", 1000, "ms"),
        ("longest lateness of the event loop (wall clock)", "late", 1000, "ms"),
        ("memory held by the cached replay (every object it reaches)", "held", 2**-20, "MB"),
        ("growth of the process's resident set, the log read included", "rss", 2**-20, "MB"),
    ]
    for title, key, scale, unit in rows:
        old, new = med["old"][key] * scale, med["new"][key] * scale
        print(f"| {title} | {old:,.1f} {unit} | {new:,.1f} {unit} |")
    print(f"| the replay's own count of its bytes (Replay.nbytes) | - | {med['new']['nbytes'] / 1024:,.0f} KB |")


if __name__ == "__main__":
    main()
