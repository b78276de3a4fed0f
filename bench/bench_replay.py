"""Replays and records of a long match, the archive's old way and its new way side by side.

    python bench/bench_replay.py [--moves 5000] [--rounds 3]

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
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
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
from geniusbot.storage import Store
from geniusbot.storage.record import format_record, record_from_game
from geniusbot.storage.values import MatchRecord
from tests.host.longmatch import store_long_match


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", choices=("old", "new"))
    parser.add_argument("--url")
    parser.add_argument("--match", type=int)
    args = parser.parse_args()
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
