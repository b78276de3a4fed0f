"""Tic-Tac-Five speed.

Targets: legality (the double-three check included) of one point on a mid-game board of 60 stones
in at most 50 microseconds; a whole game replayed from its record through parse_move + play in at
most 20 ms; the view's forbidden points (every empty point the stone to place may not take) at most
0.5 ms a move, a small part of the picture (about 1.2 ms) and the database commit (about 2 ms) a
move already costs.

Run: python bench/bench_tictacfive.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

# Run from a checkout without installing: the package sits next to bench/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.games import GameError
from geniusbot.games.tictacfive import rules
from geniusbot.games.tictacfive.rules import TicTacFive

POINTS = [f"{c}{r}" for r in range(1, 16) for c in "ABCDEFGHIJKLMNO"]
STONES = 60


def random_record(seed: int, stop: int | None = None, *, scattered: bool = False) -> list[str]:
    """The texts of a random legal game, played to its end (or to ``stop`` stones).

    Stones fall near the ones already down (as in real play), so threes, fours and double
    threes are common; ``scattered`` games place anywhere and run much longer (up to a full board).
    """
    rng = random.Random(seed)
    game = TicTacFive.new(seed=seed)
    record: list[str] = []
    while not game.is_over and (stop is None or len(game.view()["stones"]) < stop):
        seat = game.to_move()[0]
        if game.phase == "choice":
            text = rng.choice(["black", "white"])
        elif scattered:
            text = rng.choice(POINTS)
        else:
            stones = game.view()["stones"]
            near = [
                f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}"
                for name in stones
                for c in range(ord(name[0]) - 67, ord(name[0]) - 62)
                for r in range(int(name[1:]) - 3, int(name[1:]) + 2)
                if 0 <= c < 15 and 0 <= r < 15
            ]
            text = rng.choice(near or ["H8"])
        try:
            game.submit(text, seat)
        except GameError:
            continue
        record.append(text)
    return record


def drawn_record() -> list[str]:
    """A legal game that fills the whole board and ends in a draw: 225 stones, the longest game.

    Colours follow the no-five fill BBWWBB... with the colours swapped row to row; each colour
    fills its points in reading order (every one of those stones is legal).
    """
    todo: dict[str, list[str]] = {"black": [], "white": []}
    for text in POINTS:
        col, row = "ABCDEFGHIJKLMNO".index(text[0]), int(text[1:]) - 1
        todo["black" if (col // 2 + row) % 2 == 0 else "white"].append(text)
    game = TicTacFive.new()
    record: list[str] = []
    while not game.is_over:
        text = "white" if game.phase == "choice" else todo[game.view()["next_color"]].pop(0)
        game.submit(text, game.to_move()[0])
        record.append(text)
    return record


def replay(record: list[str]) -> TicTacFive:
    game = TicTacFive.new()
    for text in record:
        game.submit(text, game.to_move()[0])
    return game


def per_point_micros(game: TicTacFive, check) -> list[float]:
    """Microseconds per empty point for ``check(text, seat)``.

    Each point is timed in five batches of 100 calls and keeps its fastest batch: the machine
    is shared, and a batch that another process interrupts says nothing about the check.
    """
    seat = game.to_move()[0]
    empty = [p for p in POINTS if p not in game.view()["stones"]]
    batch = 100
    samples = []
    for text in empty:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(batch):
                check(text, seat)
            best = min(best, time.perf_counter() - start)
        samples.append(best / batch * 1e6)
    return samples


def parse(text: str, seat: str, game: TicTacFive) -> None:
    try:
        game.parse_move(text, seat)
    except GameError:
        pass


def p99(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.99)]


def every_point_scan(game: TicTacFive) -> list[str]:
    """The forbidden points found the plain way, every empty point through the double-three check
    (what the view's ``forbidden`` would cost without its filter of the points near two stones)."""
    board, own = game._board, rules._CODE[game.view()["next_color"]]
    return [str(p) for at, p in rules._POINTS if board[at] == rules._EMPTY and not rules._allowed(board, at, own)]


def fresh_forbidden(game: TicTacFive) -> list[str]:
    game._forbidden_memo = None  # as after a move: nothing computed yet for this position
    return game.forbidden()


def fresh_view(game: TicTacFive) -> object:
    game._forbidden_memo = None
    return game.view(None)


def best_micros(call, repeat: int = 10, rounds: int = 5) -> float:
    """Microseconds per call, the fastest of ``rounds`` batches (see per_point_micros)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            call()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def positions_of(record: list[str]) -> list[TicTacFive]:
    """Every position of a game where a stone is to be placed, in order."""
    game, out = TicTacFive.new(), []
    for text in record:
        game.submit(text, game.to_move()[0])
        if not game.is_over and game.phase != "choice":
            out.append(game.copy())
    return out


def forbidden_figures() -> None:
    """The view's forbidden points: computed once a move (the first view after it), so the cost of
    a move's view is measured at every position of whole games, before (the view without them)
    and after."""
    drawn = positions_of(drawn_record())
    print(f"forbidden points (the view's, computed once a move; {len(drawn[-1].view()['stones'])} stones at most):")
    for label, scattered in (("close", False), ("scattered", True)):
        games = [positions_of(random_record(2000 + seed, scattered=scattered)) for seed in range(10)]
        if scattered:
            games.append(drawn)
        fresh, scan, before, after, marked = [], [], [], [], 0
        for positions in games:
            for game in positions:
                assert fresh_forbidden(game) == every_point_scan(game)
                marked += bool(game.forbidden())
                fresh.append(best_micros(lambda g=game: fresh_forbidden(g)))
                scan.append(best_micros(lambda g=game: every_point_scan(g), repeat=3))
                after.append(best_micros(lambda g=game: fresh_view(g)))
                plain = game.copy()
                plain.forbidden = lambda: []  # type: ignore[method-assign]  # the view as it was before
                before.append(best_micros(lambda g=plain: g.view(None)))
        print(
            f"  {len(fresh)} positions of {len(games)} random {label} games"
            f"{' and the full-board draw' if scattered else ''} ({marked} with marks):"
        )
        print(
            f"    forbidden(): median {statistics.median(fresh):.0f} us, p99 {p99(fresh):.0f} us, "
            f"max {max(fresh):.0f} us; every empty point checked instead: median "
            f"{statistics.median(scan):.0f} us, max {max(scan):.0f} us"
        )
        print(
            f"    view() after a move: median {statistics.median(before):.0f} us before, "
            f"{statistics.median(after):.0f} us with the forbidden points; p99 {p99(before):.0f} / {p99(after):.0f} us"
        )
    game = drawn[len(drawn) // 2]
    game.forbidden()
    print(f"  view() again on the same position (the memo): {best_micros(lambda: game.view(None), repeat=100):.1f} us")


def main() -> None:
    parse_samples, legal_samples, legal_moves_ms, forbidden = [], [], [], 0
    boards = (replay(random_record(seed, stop=STONES)) for seed in range(1000))
    # Close play often ends in five before 60 stones; keep the first ten boards still running.
    boards = list(islice((g for g in boards if not g.is_over), 10))
    for game in boards:
        seat = game.to_move()[0]
        places = {}
        for text in POINTS:
            if text in game.view()["stones"]:
                continue
            try:
                places[text] = game.parse_move(text, seat)
            except GameError:
                forbidden += 1
        parse_samples += per_point_micros(game, lambda text, seat, g=game: parse(text, seat, g))
        legal_samples += per_point_micros(game, lambda text, seat, g=game: text in places and g.is_legal(places[text]))
        best = float("inf")
        for _ in range(20):
            start = time.perf_counter()
            list(game.legal_moves())
            best = min(best, time.perf_counter() - start)
        legal_moves_ms.append(best * 1000)
    print(
        f"mid-game boards of {STONES} stones, {len(boards)} boards, {len(parse_samples)} empty points ({forbidden} forbidden):"
    )
    print(
        f"  parse_move (syntax + taken + double three): mean {statistics.mean(parse_samples):.1f} us, "
        f"p99 {p99(parse_samples):.1f} us per point"
    )
    print(
        f"  is_legal of a Place: mean {statistics.mean(legal_samples):.1f} us, "
        f"p99 {p99(legal_samples):.1f} us per point"
    )
    print(f"  legal_moves(), every empty point: median over boards {statistics.median(legal_moves_ms):.2f} ms")
    data = TicTacFive.new().to_dict()
    data["state"] = {
        "phase": "play",
        "stones": [[p, "black"] for p in ("F8", "G8", "H6", "H7", "F6", "G7")] + [["A1", "white"]],
        "colors": {"p1": "black", "p2": "white"},
        "next_color": "black",
        "winning_line": None,
    }
    crowded = TicTacFive.from_dict(data)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(1000):
            parse("H8", "p1", crowded)
        best = min(best, (time.perf_counter() - start) / 1000)
    print(f"  a refused triple three (H8, refusal message built): {best * 1e6:.1f} us")

    record = drawn_record()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        game = replay(record)
        best = min(best, time.perf_counter() - start)
    assert game.is_over and game.outcome().winner is None
    print(f"a full-board draw (225 stones) replayed through parse_move + play: {best * 1000:.2f} ms")
    for label, scattered in (("close", False), ("scattered", True)):
        records = [random_record(1000 + seed, scattered=scattered) for seed in range(30)]
        game_ms, stones = [], []
        for record in records:
            best = float("inf")
            for _ in range(3):  # fastest of three, for the same reason as per_point_micros
                start = time.perf_counter()
                game = replay(record)
                best = min(best, time.perf_counter() - start)
            game_ms.append(best * 1000)
            assert game.is_over
            stones.append(len(game.view()["stones"]))
        print(
            f"whole games replayed through parse_move + play, 30 random {label} games "
            f"({min(stones)}-{max(stones)} stones, mean {statistics.mean(stones):.0f}): "
            f"median {statistics.median(game_ms):.2f} ms, max {max(game_ms):.2f} ms per game"
        )


if __name__ == "__main__":
    main()
    forbidden_figures()
