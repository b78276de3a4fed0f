"""Tournament pairing and standings for 16, 64 and 256 players.

    python bench/bench_pairing.py [--sizes 16 64 256] [--rounds N] [--caissify SECONDS]

A Swiss of each size is played out (the better seed wins every game, which packs the score
groups as a real event does in its early rounds): each round's Dutch pairing
(:func:`geniusbot.tournaments.pair`, py4swiss underneath) and the standings after it
(:func:`geniusbot.tournaments.standings`, Buchholz and Sonneborn-Berger) are timed; a round robin
round and a double elimination round of the same field beside them. Figures: the median over
the rounds of a tournament, and the slowest round.

``--caissify SECONDS`` also times caissify-pairings' Dutch engine (the one used before) on the
same tournaments, side by side, in a child process stopped after SECONDS a round.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from geniusbot.tournaments import DOUBLE_ELIMINATION, LOSS, ROUND_ROBIN, SWISS, WIN, Game, pair, standings


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def caissify_round(seeds: list[int], games: list[Game], number: int, rounds: int) -> None:
    """caissify-pairings' Dutch pairing of the round, as geniusbot called it before py4swiss."""
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    total: dict[int, float] = {}
    for game in games:
        for player in (game.first, game.second):
            if player is not None:
                total[player] = total.get(player, 0.0) + (game.score_of(player) or 0.0)
    players = []
    for seed, player in enumerate(seeds, 1):
        mine = sorted((g for g in games if player in (g.first, g.second)), key=lambda g: g.round)
        colours = ["none" if g.second is None else "white" if g.first == player else "black" for g in mine]
        players.append(
            {
                "id": player,
                "name": str(player),
                "score": total.get(player, 0.0),
                "rating": 3000 - seed,
                "starting_number": seed,
                "color_hist": colours,
                "float_history": ["none"] * len(mine),
                "bye_count": sum(1 for g in mine if g.second is None),
            }
        )
    met = {(g.first, g.second) for g in games if g.second is not None}
    generate_pairings(system="dutch", players=players, previous_pairings=met, round_number=number, total_rounds=rounds)


def swiss(players: int, rounds: int, caissify: float) -> tuple[list[float], list[float], list[float] | str]:
    seeds = list(range(1, players + 1))
    games: list[Game] = []
    pairing, table, other = [], [], []
    for number in range(1, rounds + 1):
        if caissify and len(other) == number - 1:
            child = multiprocessing.Process(target=caissify_round, args=(seeds, list(games), number, rounds))
            start = time.perf_counter()
            child.start()
            child.join(caissify)
            if child.is_alive():
                child.kill()
                child.join()
            else:
                other.append(time.perf_counter() - start)
        pairs, took = timed(lambda: pair(SWISS, seeds, seeds, games, number, rounds))
        pairing.append(took)
        for first, second in pairs:
            games.append(Game(number, first, second, WIN if second is None or first < second else LOSS))
        _, took = timed(lambda: standings(SWISS, seeds, games))
        table.append(took)
    if caissify and len(other) < rounds:
        return pairing, table, f"round {len(other) + 1} not done in {caissify:g} s"
    return pairing, table, other


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=0, help="Swiss rounds (default: log2 of the players)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument(
        "--caissify", type=float, default=0, help="also time caissify-pairings, SECONDS a round at most"
    )
    args = parser.parse_args()
    if args.caissify:  # loaded before the child processes fork, as a bot would have them loaded
        import caissify_pairings.engines.dutch  # type: ignore[import-untyped]  # noqa: F401
        import networkx  # type: ignore[import-untyped]  # noqa: F401
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(
        "| players | Swiss rounds | py4swiss pairing a round: median, slowest | caissify: median, slowest "
        "| standings: median | round robin round | double elimination round 1 |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for players in args.sizes:
        rounds = args.rounds or math.ceil(math.log2(players))
        pairing, table, other = swiss(players, rounds, args.caissify)
        seeds = list(range(1, players + 1))
        _, robin = timed(lambda: pair(ROUND_ROBIN, seeds, seeds, [], 1, players - 1))
        _, double = timed(lambda: pair(DOUBLE_ELIMINATION, seeds, seeds, [], 1, 2 * rounds + 2))
        if isinstance(other, str):
            theirs = other
        elif other:
            theirs = f"{ms(statistics.median(other))}, {ms(max(other))}"
        else:
            theirs = "-"
        print(
            f"| {players} | {rounds} | {ms(statistics.median(pairing))}, {ms(max(pairing))} | {theirs} "
            f"| {statistics.median(table) * 1000:.2f} ms | {robin * 1000:.1f} ms | {double * 1000:.2f} ms |",
            flush=True,
        )


if __name__ == "__main__":
    main()
