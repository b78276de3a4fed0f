"""The practice opponent's strength and speed, on fixed seeds.

Two measurements, kept apart so that the load of the machine changes neither:

* Strength, per game and rule set: the win rate of ``normal`` against a player of uniformly
  random legal moves (target: at least 90 %) and of ``hard`` against ``normal`` (target: at
  least 60 %). The levels play by their iteration budgets alone, with no wall clock: for fixed
  seeds every game is the same game however loaded the machine is. Seats alternate from game
  to game. A draw counts half.
* Time: the p99 time a move of ``hard`` (the largest budget) takes with the real time cap,
  on a smaller sample of positions (taken from the games above, ``--timed`` of them), against
  the cap (target: at most the cap plus 100 ms). This one depends on the load: it asks whether
  the search keeps to its deadline.

Run: python bench/bench_practice.py [--games 100] [--hard-games 100] [--timed 20] [--only tightwire]
[--seconds 2] [--jobs 2]

``--jobs`` plays the games of a case in that many processes at once; the games and so the rates
are the same for any number (each game's seed fixes it), only the minutes change. The timed moves
are always played one at a time, after the games.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run from a checkout without installing: the package sits next to bench/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.games import Game, get_game
from geniusbot.practice import LEVELS, MEMORY, Knowledge, choose
from geniusbot.record import ActionKind, GameAction, host_action

CASES: list[tuple[str, str | None, dict[str, str]]] = [
    ("tictacfive", None, {}),
    ("armslength", None, {}),
    ("tightwire", "classic", {}),
    ("tightwire", "influx", {}),
    ("tightwire", "fate", {}),
    ("tiles", None, {}),
    ("tiles", None, {"anomalies": "landmine"}),
    ("tiles", None, {"anomalies": "chain,implode,landmine,rainbow,rectangle-adverse"}),
    ("decks", None, {}),
    ("decks", None, {"anomalies": "backup,darkness,overshadow"}),
    ("decks", None, {"anomalies": "darkness,pick-your-prize,revolution"}),
    ("swabbing", None, {}),
    ("swabbing", None, {"anomalies": "snipe,hook"}),
    ("swabbing", None, {"anomalies": "linear,pyramid,unique,snipe"}),
    ("allhands", None, {"items": "p1 all-in override; p2 clock all-in override"}),
]

Case = tuple[str, str | None, dict[str, str]]


def label(case: Case) -> str:
    return "-".join(filter(None, [case[0], case[1], case[2].get("anomalies", "").replace(",", "+")]))


def _random(game: Game, seat: str, rng: random.Random) -> tuple[str, bool]:
    if game.view(None).get("phase") == "landmines":  # 1.7 million mine sets: the policy samples one
        move = game.rollout_move(seat, rng)
    else:
        move = None
    move = move or rng.choice(list(game.legal_moves(seat)))
    return move.text(), game.is_private(move)


def play(case: Case, seed: int, levels: dict[str, str | None], positions: list[Knowledge]) -> float:
    """One game on iteration budgets alone; the reward of the seat playing ``levels``' first
    key's level (``None``: random). The engine's knowledge at each of its moves is added to
    ``positions``."""
    name, variant, options = case
    game = get_game(name).new(seed=seed, variant=variant, **options)
    views: dict[str, list[Any]] = {s: [] for s in game.seats}
    actions: list[GameAction] = []
    rng = random.Random(seed)
    for _ in range(400):
        for s, seen in views.items():
            view = game.view(s)
            if not seen or seen[-1] != view:
                seen.append(view)
        if game.is_over:
            break
        if not game.to_move():
            game.close_window()
            actions.append(host_action(ActionKind.WINDOW))
            continue
        seat = game.to_move()[0]
        level = levels[seat]
        if level is None:
            text, private = _random(game, seat, rng)
        else:
            knowledge = Knowledge(
                name,
                game.variant,
                options,
                seat,
                list(views[seat]),
                game.seed if game.perfect_information else None,
                list(actions),
                MEMORY[level],
            )
            positions.append(knowledge)
            choice = choose(
                knowledge, dataclasses.replace(LEVELS[level], seconds=None), seed=seed * 1000 + len(actions)
            )
            text, private = choice.text, choice.private
        game.submit(text, seat, private=private)
        actions.append(GameAction(ActionKind.MOVE, seat, text, private))
    outcome = game.outcome()
    first = next(iter(levels))
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == first else 0.0


def _game(case: Case, hard: bool, seed: int) -> tuple[float, list[Knowledge]]:
    """Game ``seed`` of ``case``: ``normal`` against random play, or (``hard``) ``hard`` against
    ``normal``, seats alternating with the seed; the first level's reward and its positions."""
    if hard:
        seats = {"p1": "hard", "p2": "normal"} if seed % 2 == 0 else {"p2": "hard", "p1": "normal"}
        seed += 10_000
    else:
        seats = {"p1": "normal", "p2": None} if seed % 2 == 0 else {"p2": "normal", "p1": None}
    positions: list[Knowledge] = []
    return play(case, seed, seats, positions), positions


def games(case: Case, hard: bool, count: int, jobs: int) -> Iterator[tuple[float, list[Knowledge]]]:
    """The results of ``count`` games of ``case`` in seed order, played in ``jobs`` processes."""
    work = functools.partial(_game, case, hard)
    if jobs <= 1:
        yield from map(work, range(count))
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(work, range(count))


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def rate(won: float, games: int) -> str:
    return f"{won / games:.0%} of {games}" if games else "not run"


def timed(positions: list[Knowledge], count: int, seconds: float) -> list[float]:
    """The wall time of ``hard``'s move, with the real time cap, at ``count`` of ``positions``
    spread evenly."""
    if not positions or count <= 0:
        return []
    step = max(1, len(positions) // count)
    budget = dataclasses.replace(LEVELS["hard"], seconds=seconds)
    times = []
    for number, knowledge in enumerate(positions[::step][:count]):
        start = time.monotonic()
        choose(knowledge, budget, seed=number, now=time.monotonic)
        times.append(time.monotonic() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games of normal against random, per case")
    parser.add_argument("--hard-games", type=int, default=100, help="games of hard against normal, per case")
    parser.add_argument("--timed", type=int, default=20, help="moves of hard timed with the cap, per case")
    parser.add_argument("--only", help="only the cases whose name contains this (exactly, with --exact)")
    parser.add_argument("--exact", action="store_true", help="--only names one case exactly")
    parser.add_argument("--seconds", type=float, default=2.0, help="the time cap of a move in seconds")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing a case's games at once")
    args = parser.parse_args()
    levels = ", ".join(f"{name} {budget.iterations}" for name, budget in LEVELS.items())
    print(f"iterations: {levels}; load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    print("| game | normal vs random | hard vs normal | p99 move, hard | cap | minutes |")
    print("| --- | --- | --- | --- | --- | --- |")
    for case in CASES:
        name = label(case)
        if args.only and (name != args.only if args.exact else args.only not in name):
            continue
        start = time.monotonic()
        positions: list[Knowledge] = []
        won = 0.0
        for number, (reward, seen) in enumerate(games(case, False, args.games, args.jobs), 1):
            won += reward
            positions += seen
            if number % 10 == 0:
                print(f"{name}: normal vs random {won:g} of {number}", file=sys.stderr, flush=True)
        hard = 0.0
        for number, (reward, seen) in enumerate(games(case, True, args.hard_games, args.jobs), 1):
            hard += reward
            if not args.games:
                positions += seen
            print(f"{name}: hard vs normal {hard:g} of {number}", file=sys.stderr, flush=True)
        times = timed(positions, args.timed, args.seconds)
        print(
            f"| {name} | {rate(won, args.games)} | {rate(hard, args.hard_games)} "
            f"| {f'{p99(times) * 1000:.0f} ms of {len(times)}' if times else 'not run'} | {args.seconds * 1000:.0f} ms "
            f"| {(time.monotonic() - start) / 60:.1f} |",
            flush=True,
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
