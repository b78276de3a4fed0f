"""Tournament pairing and standings for 16, 64 and 256 players.

    python bench/bench_tournaments.py [--rounds 3] [--sizes 16 64 256]

A Swiss of each size is played out (the better seed wins every game, which packs the score
groups as a real event does in its early rounds): each round's Dutch pairing
(:func:`geniusbot.tournaments.pair`, caissify-pairings underneath) and the standings after it
(:func:`geniusbot.tournaments.standings`, Buchholz and Sonneborn-Berger) are timed; a round robin
round and a double elimination round of the same field beside them. Figures: the median over
the rounds of a tournament, and the slowest round.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from geniusbot.tournaments import DOUBLE_ELIMINATION, LOSS, ROUND_ROBIN, SWISS, WIN, Game, pair, standings


def timed(work):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def swiss(players: int, rounds: int) -> tuple[list[float], list[float]]:
    seeds = list(range(1, players + 1))
    games: list[Game] = []
    pairing, table = [], []
    for number in range(1, rounds + 1):
        pairs, took = timed(lambda: pair(SWISS, seeds, seeds, games, number, rounds))
        pairing.append(took)
        for first, second in pairs:
            games.append(Game(number, first, second, WIN if second is None or first < second else LOSS))
        _, took = timed(lambda: standings(SWISS, seeds, games))
        table.append(took)
    return pairing, table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=0, help="Swiss rounds (default: log2 of the players)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256])
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(
        "| players | Swiss rounds | pairing a round: median, slowest | standings: median | round robin round | double elimination round 1 |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for players in args.sizes:
        rounds = args.rounds or math.ceil(math.log2(players))
        pairing, table = swiss(players, rounds)
        seeds = list(range(1, players + 1))
        _, robin = timed(lambda: pair(ROUND_ROBIN, seeds, seeds, [], 1, players - 1))
        _, double = timed(lambda: pair(DOUBLE_ELIMINATION, seeds, seeds, [], 1, 2 * rounds + 2))
        print(
            f"| {players} | {rounds} | {statistics.median(pairing) * 1000:.1f} ms, {max(pairing) * 1000:.1f} ms "
            f"| {statistics.median(table) * 1000:.2f} ms | {robin * 1000:.1f} ms | {double * 1000:.2f} ms |"
        )


if __name__ == "__main__":
    main()
