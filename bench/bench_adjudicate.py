"""Adjudicate speed: a full random Tic-Tac-Five game ruled from its record text (target: at most 20 ms).

The measured path is what ``geniusbot adjudicate`` does after reading the file: parse the record,
build the game from its headers, and replay every line. Games are played to a five (or a full
board) by seeded random choice from the legal moves; a few refused lines (taken points, a move
out of turn) are mixed in, as in a typed transcript.

Run: python bench/bench_adjudicate.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

# Run from a checkout without installing: the package sits next to bench/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.adjudicate import adjudicate_text
from geniusbot.games import new_game
from geniusbot.record import format_record, record_from_game

GAMES = 20
REPEAT = 10


def random_record(seed: int) -> tuple[str, int]:
    """The record text of one random Tic-Tac-Five game, and its number of lines."""
    rng = random.Random(seed)
    game = new_game("tictacfive", seed=seed)
    start = game.copy()
    lines: list[tuple[str, str]] = []
    taken: list[str] = []
    while not game.is_over:
        move = rng.choice(list(game.legal_moves()))
        if taken and rng.random() < 0.05:
            lines.append((move.seat, rng.choice(taken)))  # refused: taken
        game.play(move)
        lines.append((move.seat, move.text()))
        if move.text() not in ("black", "white"):
            taken.append(move.text())
    return format_record(record_from_game(start, lines, headers={"P1": "Alice", "P2": "Bob"})), len(lines)


def main() -> None:
    records = [random_record(seed) for seed in range(GAMES)]
    per_game: list[float] = []
    for text, _ in records:
        best = float("inf")
        for _ in range(REPEAT):
            start = time.perf_counter()
            result = adjudicate_text(text)
            best = min(best, time.perf_counter() - start)
        assert result.outcome is not None
        per_game.append(best * 1000)
    sizes = [n for _, n in records]
    per_game.sort()
    print(
        f"Tic-Tac-Five records: {GAMES} random games, {min(sizes)}-{max(sizes)} lines (mean {statistics.mean(sizes):.0f})"
    )
    print(
        f"parse + replay per game (best of {REPEAT}): median {statistics.median(per_game):.2f} ms, "
        f"max {per_game[-1]:.2f} ms (target 20 ms)"
    )
    text, n = max(records, key=lambda r: r[1])
    start = time.perf_counter()
    for _ in range(REPEAT):
        adjudicate_text(text)
    print(f"longest game ({n} lines): {(time.perf_counter() - start) / REPEAT * 1000:.2f} ms mean")


if __name__ == "__main__":
    main()
