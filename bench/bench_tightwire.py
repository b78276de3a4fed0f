"""Tightwire speed: every legal action on the default board with 30 lines drawn (target: at most 5 ms).

Run: python bench/bench_tightwire.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

# Run from a checkout without installing: the package sits next to bench/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.games.tightwire.geometry import geometry
from geniusbot.games.tightwire.rules import Tightwire

LINES = 30


def position(variant: str, seed: int) -> Tightwire:
    """A game with ``LINES`` lines drawn at random, some pieces moved along them."""
    rng = random.Random(seed)
    g = Tightwire.new(variant=variant)
    if variant == "fate":
        for text in ("pick turn order", "pick extra slack", "first"):
            g.submit(text, g.to_move()[0])
    while len(g.lines) < LINES and not g.is_over:
        moves = [m for m in g.legal_moves() if m.action == "draw"]
        g.play(rng.choice(moves))
    return g


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    start = time.perf_counter()
    geometry.cache_clear()
    geometry(5, 5)
    print(f"geometry of classic5 (200 lines, crossing masks): {(time.perf_counter() - start) * 1000:.1f} ms once")
    start = time.perf_counter()
    geometry(7, 7)
    print(f"geometry of large7 (748 lines, crossing masks): {(time.perf_counter() - start) * 1000:.1f} ms once")
    for variant in ("classic", "influx", "fate"):
        samples, counts = [], []
        for seed in range(20):
            g = position(variant, seed)
            counts.append(len(list(g.legal_moves())))
            samples += timed(lambda: list(g.legal_moves()), 50)
        print(
            f"{variant:8s} all legal actions, {LINES} lines drawn: median {statistics.median(samples):.2f} ms, "
            f"p95 {sorted(samples)[int(len(samples) * 0.95)]:.2f} ms, max {max(samples):.2f} ms "
            f"({statistics.mean(counts):.0f} actions on average)"
        )
    g = position("classic", 0)
    texts = [m.text() for m in g.legal_moves()]
    seat = g.to_move()[0]
    parse = timed(lambda: [g.parse_move(t, seat) for t in texts], 20)
    print(f"parse_move: {statistics.median(parse) / len(texts) * 1000:.1f} us per text")
    play = timed(lambda: g.copy().play(next(iter(g.legal_moves()))), 200)
    print(f"copy + play one action: median {statistics.median(play):.2f} ms")


if __name__ == "__main__":
    main()
