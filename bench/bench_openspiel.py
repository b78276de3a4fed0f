"""The practice levels against an opponent nobody here wrote: OpenSpiel's C++ Monte Carlo tree
search bot on OpenSpiel's gomoku, kept to Tic-Tac-Five's rules.

The wrapper. Every match is played in geniusbot's own rules (the referee); OpenSpiel's gomoku
state is rebuilt from the stones placed, in order (Tic-Tac-Five's stones alternate black, white
from the first, as OpenSpiel's do, and both games count five or more in a row on 15 x 15 as a
win), and OpenSpiel's ``MCTSBot`` (UCT, c = 2, one random rollout per leaf, the MCTS-solver on)
searches it. Of the root's moves the bot plays the most visited one (a proven win first) that
Tic-Tac-Five allows: the double-three ban, which OpenSpiel's gomoku does not know, is applied at
the root; inside its tree the bot plays plain gomoku. The swap opening: as ``p1`` the bot places
the three opening stones as its search finds them for each colour; as ``p2`` at the colour
choice it searches the position with white to place the fourth stone and takes white when its
best move's mean value is positive for white, else black.

The practice levels play by their iteration budgets alone (no clock), as bench_practice.py
measures them. ``review`` is the engine review as a player (:func:`geniusbot.analysis.best_move`):
the first move of a forced win when Tic-Tac-Five's VCF/VCT search finds one, else the best of
``--review`` candidates by play-outs (as ``geniusbot analyse --candidates --playouts`` values
them); seeded per game and move. Both sides' seconds per move are timed. Each pairing plays ``--games`` games,
seats alternating; a draw counts half. Then ``hard`` plays OpenSpiel's bot at the count of
simulations that spends ``hard``'s mean time per move (measured in the same run, from the
largest count's seconds per simulation), and a Bradley-Terry model fitted to every game by
maximum likelihood (draws as half a win, one virtual draw in each pairing that played so a
clean sweep stays finite) gives the rating ladder on the Elo scale, the smallest count at 0.

Run: pip install -e ".[bench]"; python bench/bench_openspiel.py [--games 4] [--sims 100,400,1600]
[--levels easy,normal,hard,review] [--review 8,16] [--jobs 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Run from a checkout without installing: the package sits next to bench/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.analysis import Effort, best_move
from geniusbot.games import Game, GameError, get_game
from geniusbot.games.grid import Point, parse_point
from geniusbot.practice import LEVELS, Budget, Knowledge, choose
from geniusbot.record import ActionKind, GameAction

try:
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    sys.exit('This benchmark needs OpenSpiel: pip install -e ".[bench]" (or pip install "open_spiel>=2").')

GAME = "tictacfive"
SIZE = 15
UCT_C = 2.0
MEMORY_MB = 500
#: The review engine as a player (``review`` in ``--levels``): its candidates and play-outs a move.
REVIEW = Effort(candidates=8, playouts=16)


def _action(point: str) -> int:
    at = parse_point(point, SIZE, SIZE)
    return at.row * SIZE + at.col


def _point(action: int) -> str:
    return str(Point(action % SIZE, action // SIZE))


@dataclass
class Tally:
    """What one game gave: the first player's reward, and each side's seconds and moves."""

    reward: float
    first_seconds: float
    first_moves: int
    second_seconds: float
    second_moves: int
    stones: int


class OpenSpielSide:
    """OpenSpiel's MCTS bot, searching OpenSpiel's gomoku rebuilt from the referee's stones."""

    def __init__(self, simulations: int, seed: int) -> None:
        self.game = pyspiel.load_game("gomoku")
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(self.game, evaluator, UCT_C, simulations, MEMORY_MB, True, seed, False)

    def _state(self, referee: Game) -> Any:
        state = self.game.new_initial_state()
        for point, colour in referee.view(None)["stones"].items():
            assert state.current_player() == (0 if colour == "black" else 1), "colours alternate from black"
            state.apply_action(_action(point))
        return state

    def move(self, referee: Game, seat: str) -> str:
        state = self._state(referee)
        root = self.bot.mcts_search(state)
        if referee.view(None)["phase"] == "choice":
            # White places the fourth stone: take white when its best move is worth it to white.
            best = root.best_child()
            return "white" if best.total_reward / max(best.explore_count, 1) > 0 else "black"

        def key(child: Any) -> tuple[int, int, float]:
            proven = 1 if child.outcome and child.outcome[child.player] > 0 else 0
            return proven, child.explore_count, child.total_reward

        for child in sorted(root.children, key=key, reverse=True):
            text = _point(child.action)
            try:
                referee.parse_move(text, seat)
            except GameError:  # a double three (or a point taken): not a Tic-Tac-Five move
                continue
            return text
        return next(referee.legal_moves(seat)).text()


def _side(spec: str, number: int) -> OpenSpielSide | Budget | Effort:
    """A player: ``mcts-N`` (OpenSpiel's bot at N simulations), ``review`` (the review engine's
    best move, :func:`geniusbot.analysis.best_move`) or a practice level's budget."""
    if spec == "review":
        return REVIEW
    if spec.startswith("mcts-"):
        simulations = int(spec.removeprefix("mcts-"))
        return OpenSpielSide(simulations, seed=number * 7919 + simulations)
    return dataclasses.replace(LEVELS[spec], seconds=None)  # iterations alone, as bench_practice.py plays


def play(first: str, second: str, number: int) -> Tally:
    """Game ``number`` of ``first`` against ``second`` (a level or ``mcts-N``); ``first`` plays
    ``p1`` in even games and ``p2`` in odd ones. The reward is ``first``'s."""
    referee = get_game(GAME).new(seed=number)
    first_seat = "p1" if number % 2 == 0 else "p2"
    sides = {first_seat: _side(first, number), ("p2" if first_seat == "p1" else "p1"): _side(second, number)}
    actions: list[GameAction] = []
    seconds = {True: 0.0, False: 0.0}
    moves = {True: 0, False: 0}
    while not referee.is_over:
        seat = referee.to_move()[0]
        side, mine = sides[seat], seat == first_seat
        start = time.perf_counter()
        if isinstance(side, Budget):
            knowledge = Knowledge(GAME, referee.variant, {}, seat, [referee.view(seat)], referee.seed, list(actions))
            text = choose(knowledge, side, seed=number * 1000 + len(actions)).text
        elif isinstance(side, Effort):
            text = best_move(referee, seat, dataclasses.replace(side, seed=number * 1000 + len(actions))).text()
        else:
            text = side.move(referee, seat)
        seconds[mine] += time.perf_counter() - start
        moves[mine] += 1
        referee.submit(text, seat)
        actions.append(GameAction(ActionKind.MOVE, seat, text, False))
    outcome = referee.outcome()
    reward = 0.5 if outcome is None or outcome.winner is None else float(outcome.winner == first_seat)
    stones = len(referee.view(None)["stones"])
    return Tally(reward, seconds[True], moves[True], seconds[False], moves[False], stones)


Task = tuple[str, str, int]


def _play(task: Task) -> tuple[Task, Tally]:
    tally = play(*task)
    print(f"{task[0]} against {task[1]}, game {task[2]}: {tally.reward:g}", file=sys.stderr, flush=True)
    return task, tally


def run(tasks: list[Task], jobs: int) -> list[tuple[Task, Tally]]:
    if jobs <= 1:
        return [_play(task) for task in tasks]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, tasks))


def ladder(results: dict[tuple[str, str], list[float]], anchor: str) -> dict[str, float]:
    """Elo ratings from a Bradley-Terry model fitted by maximum likelihood (Hunter's MM
    iterations) to ``results`` (the first player's rewards by pairing); ``anchor`` at 0."""
    wins: dict[str, float] = defaultdict(float)
    games: dict[tuple[str, str], float] = defaultdict(float)
    players: set[str] = set()
    for (a, b), rewards in results.items():
        if not rewards:
            continue
        players |= {a, b}
        won = sum(rewards) + 0.5  # one virtual draw a pairing
        wins[a] += won
        wins[b] += len(rewards) + 1 - won
        games[a, b] += len(rewards) + 1
        games[b, a] += len(rewards) + 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(5000):
        new = {}
        for p in players:
            denominator = sum(n / (strength[p] + strength[q]) for (x, q), n in games.items() if x == p)
            new[p] = wins[p] / denominator if denominator else strength[p]
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {p: v / scale for p, v in new.items()}
    return {p: 400 * math.log10(strength[p] / strength[anchor]) for p in players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of each pairing, seats alternating")
    parser.add_argument("--sims", default="100,400,1600", help="OpenSpiel MCTS simulation counts, comma-separated")
    parser.add_argument(
        "--levels", default="easy,normal,hard,review", help="practice levels and review, comma-separated"
    )
    parser.add_argument(
        "--review", default="8,16", help="the review player's candidates and play-outs a move (CANDIDATES,PLAYOUTS)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    args = parser.parse_args()
    counts = [int(n) for n in args.sims.split(",")]
    candidates, playouts = (int(n) for n in args.review.split(","))
    global REVIEW
    REVIEW = Effort(candidates=candidates, playouts=playouts)
    levels = args.levels.split(",")
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    started = time.monotonic()
    bots = [f"mcts-{n}" for n in counts]
    pairs = [(level, bot) for level in levels for bot in bots]
    # The ladder's rungs: each level against the next, each count against the next.
    pairs += list(zip(levels, levels[1:], strict=False)) + list(zip(bots, bots[1:], strict=False))
    played = run([(a, b, i) for a, b in pairs for i in range(args.games)], args.jobs)
    # The seconds a move of each player, and the count at which OpenSpiel spends hard's.
    clock: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for (a, b, _), tally in played:
        for player, seconds, moves in (
            (a, tally.first_seconds, tally.first_moves),
            (b, tally.second_seconds, tally.second_moves),
        ):
            clock[player][0] += seconds
            clock[player][1] += moves
    top = max(counts)
    per_simulation = clock[f"mcts-{top}"][0] / clock[f"mcts-{top}"][1] / top
    equal = None
    if "hard" in levels:
        hard_move = clock["hard"][0] / clock["hard"][1]
        equal = max(10, round(hard_move / per_simulation / 10) * 10)
        if equal not in counts:
            more = run([("hard", f"mcts-{equal}", i) for i in range(args.games)], args.jobs)
            played += more
            for _, tally in more:
                clock[f"mcts-{equal}"][0] += tally.second_seconds
                clock[f"mcts-{equal}"][1] += tally.second_moves
    results: dict[tuple[str, str], list[float]] = defaultdict(list)
    stones: list[int] = []
    for (a, b, _), tally in played:
        results[a, b].append(tally.reward)
        stones.append(tally.stones)
    columns = sorted({int(b.removeprefix("mcts-")) for (_, b, _), _ in played if b.startswith("mcts-")})
    header = [f"MCTS {n}" + (" (hard's time)" if n == equal else "") for n in columns]
    print()
    print("| level (iterations) | " + " | ".join(header) + " | s a move |")
    print("| --- | " + " | ".join("---" for _ in columns) + " | --- |")
    for level in levels:
        cells = []
        for n in columns:
            rewards = results.get((level, f"mcts-{n}"), [])
            cells.append(f"{sum(rewards) / len(rewards):.0%} of {len(rewards)}" if rewards else "")
        seconds = clock[level][0] / clock[level][1]
        effort = f"{REVIEW.candidates} x {REVIEW.playouts}" if level == "review" else LEVELS[level].iterations
        print(f"| {level} ({effort}) | " + " | ".join(cells) + f" | {seconds:.3f} |")
    timing = ", ".join(f"{n}: {clock[f'mcts-{n}'][0] / clock[f'mcts-{n}'][1]:.3f} s" for n in columns)
    print(f"\nOpenSpiel MCTS, s a move: {timing}; equal time to hard: {equal} simulations")
    rungs = [(a, b) for a, b in results if not (a in levels and b.startswith("mcts-"))]
    for a, b in rungs:
        rewards = results[a, b]
        print(f"{a} against {b}: {sum(rewards) / len(rewards):.0%} of {len(rewards)}")
    print(f"stones a game: mean {sum(stones) / len(stones):.0f}, {min(stones)} to {max(stones)}")
    ratings = ladder(results, f"mcts-{min(counts)}")
    print("\n| player | Elo (MCTS " + str(min(counts)) + " = 0) |\n| --- | --- |")
    for player, rating in sorted(ratings.items(), key=lambda kv: -kv[1]):
        print(f"| {player} | {rating:+.0f} |")
    print(f"\nminutes: {(time.monotonic() - started) / 60:.1f}; load average now: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
