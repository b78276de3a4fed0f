"""Rendering speed against PNG encoding: how long a board picture takes (drawing + encoding, what
``render_view`` returns), next to the time Pillow takes to PNG-encode a blank image of the same
size alone (mode "P", the house palette, ``geniusbot.render.png.PNG_SETTINGS``: zlib level 2,
no optimize pass). Target: rendering a board takes at most 1.5 x the blank encode.

Two parts, in one run:

* **Matches.** Each game is played as a match (random legal moves, the host's windows closed as
  they come), and every board the room would see is rendered in turn, so the band cache of the
  encoder (``geniusbot.render.png``) is as warm as it is during a match. The cache is emptied
  before each match's first board, so that board is encoded cold. Every board's render is timed
  back to back with a blank encode; a board's ratio is the median over the rounds (each round
  replays the same matches), and p50 / p90 / p99 are taken over the boards of the match (with
  fewer than 100 boards, p99 is the worst board). "first" is the match's first board (cold), "rest
  max" the worst board after it. "next
  match" is the first board of a second match of the game rendered right after the first one
  (other seed, other names), the cache left as the first match left it: the usual case in a bot
  that has hosted a match before. Clocks change every board, as a live match's do; the title is
  the match's own ("Match #12"), as the host passes it.
* **Positions.** The fixed positions that earlier versions of this script timed, each encoded
  cold (the cache emptied before every render: the worst case), next to the render as it was
  before the band encoder (the same drawing, encoded by Pillow).

Times are the CPU time of the benchmark's thread (``time.thread_time``): on a machine shared with
other engineers' tests, wall-clock times of a few ms jump 3-5 x whenever the scheduler runs
someone else, on either side of a ratio; CPU time counts only the work done. ``--wall`` times by
the wall clock instead.

``--sweep 12,16,24,32 --levels 1,2`` instead times the encoding alone (no drawing) of every board of
the matches under each band height and level, all configurations back to back on the same board
(each with a band cache of its own), for choosing them: p50 / p99 of encode / blank, and kB.

Run: ``python bench/bench_render.py [--rounds 7] [--band-rows N] [--level N] [--matches-only]
[--wall] [--sweep ROWS,... [--levels L,...]]``.
"""

from __future__ import annotations

import argparse
import io
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import geniusbot.pictures
from geniusbot.games import new_game
from geniusbot.pictures import render_image, render_view
from geniusbot.render import png
from geniusbot.render.palette import new_canvas

TARGET = 1.5
NAMES = {"p1": "Alice Wonderland", "p2": "Bob"}


def random_game(name: str, seed: int, moves: int, **options: str):
    """A real game after ``moves`` random legal moves (fewer if it ends)."""
    game = new_game(name, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))
    return game


def positions() -> list[tuple[str, dict]]:
    """The positions timed: typical, crowded and finished boards of each game."""
    result = []
    for label, moves in (("start", 0), ("30 stones", 30), ("100 stones", 100)):
        result.append((f"tictacfive {label}", random_game("tictacfive", 11, moves).view()))
    game = new_game("tictacfive", seed=1)
    for text, seat in [
        ("H8", "p1"),
        ("H9", "p1"),
        ("I8", "p1"),
        ("black", "p2"),
        ("G9", "p1"),
        ("J8", "p2"),
        ("A1", "p1"),
        ("K8", "p2"),
        ("A2", "p1"),
        ("G8", "p2"),
    ]:
        game.submit(text, seat)
    result.append(("tictacfive won (line)", game.view()))
    for moves in (10, 30):
        game = random_game("armslength", 5, moves)
        result.append((f"armslength {game.view()['move_number']} moves", game.view()))
    game = new_game("armslength", seed=3, setup="red F5 A1 B2 C3; blue H5 H8 G8")
    game.submit("G5", "p1")
    result.append(("armslength pushes + knock-off", game.view()))
    for moves in (12, 40):
        game = random_game("tightwire", 2, moves)
        result.append((f"tightwire {len(game.view()['lines'])} lines", game.view()))
    game = random_game("tightwire", 3, 30, board="large7")
    result.append((f"tightwire large7 {len(game.view()['lines'])} lines", game.view()))
    result.extend(allhands_positions())
    return result


def allhands_positions() -> list[tuple[str, dict]]:
    """All Hands On Deck: the memory grid, a hidden grid with declarations, a swabbed board with
    Unique's numbers, the card table, and the final match's scoreboard above a task."""
    result = []
    game = new_game("tiles", seed=9, anomalies="rainbow, implode")
    result.append(("tiles memory grid (rainbow)", game.view()))
    grid = game.view()["grid"]
    game.close_window()
    game.submit("call red", "p1")
    for _ in range(12):
        named = {d["tile"] for d in game.view()["declared"]}
        tile = next((sq for sq, c in grid.items() if c == game.view()["called"] and sq not in named), None)
        if tile is None or game.is_over:
            break
        game.submit(f"{tile} {game.view()['palette'][len(named) % 6]}", game.to_move()[0])
    result.append((f"tiles {game.view()['move_number']} declared + marks", game.view()))
    game = random_game("swabbing", 4, 12, anomalies="unique, pyramid")
    result.append((f"swabbing {game.view()['move_number']} moves unique+pyramid", game.view()))
    game = new_game("decks", seed=5, anomalies="backup")
    for seat, text in (
        ("p1", "create 20 15"),
        ("p2", "create 30 5"),
        ("p1", "play 20 backup 3"),
        ("p2", "play 5"),
        ("p1", "create 10"),
        ("p2", "create 12"),
    ):
        game.submit(text, seat, private=True)
    result.append(("decks round 2", game.view()))
    game = new_game("allhands", seed=2)
    rng = random.Random(2)
    while not (game.view()["play"] == 6 and game.view()["phase"] == "task") and not game.is_over:
        if game.window() is not None:
            game.close_window()
            continue
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))
    result.append(("allhands play 6 (scoreboard + task)", game.view()))
    return result


MATCHES: list[tuple[str, str, int, dict[str, str]]] = [
    # (label, game, seed, options)
    ("Tic-Tac-Five", "tictacfive", 11, {}),
    ("Arm's Length", "armslength", 6, {}),
    ("Tightwire", "tightwire", 2, {}),
    ("Tightwire large7", "tightwire", 3, {"board": "large7"}),
    ("Tile Decklaration", "tiles", 9, {"anomalies": "rainbow, implode"}),
    ("Deck Swabbing", "swabbing", 4, {"anomalies": "unique, pyramid"}),
    ("Dueling Decks", "decks", 6, {"anomalies": "backup"}),
    ("All Hands On Deck", "allhands", 2, {}),
]
clock = time.thread_time
MAX_BOARDS = 80  # a match's boards timed, at most
OTHER_NAMES = {"p1": "Carol Danvers", "p2": "Dave"}


def pillow_png(image) -> bytes:
    """The PNG bytes of ``image`` as Pillow writes them with the house settings (the baseline)."""
    buffer = io.BytesIO()
    image.save(buffer, **png.PNG_SETTINGS)
    return buffer.getvalue()


def match_views(game_name: str, seed: int, options: dict[str, str]) -> list[dict]:
    """The public views a room sees during one match: the first board and one after every move
    or closed window, at most ``MAX_BOARDS``. Players pick random moves that do not lose at once
    (a random declaration in Tile Decklaration loses within a few moves)."""
    game = new_game(game_name, seed=seed, **options)
    rng = random.Random(seed)
    views = [game.view()]
    while not game.is_over and len(views) < MAX_BOARDS:
        if not game.to_move():
            game.close_window()
        else:
            game.play(sensible_move(game, rng))
        views.append(game.view())
    return views


def sensible_move(game, rng: random.Random):
    """A random legal move after which the mover has not lost (any move when all of them lose)."""
    moves = list(itertools.islice(game.legal_moves(), 500))
    rng.shuffle(moves)
    for move in moves[:40]:
        trial = game.copy()
        trial.play(move)
        if trial.outcome() is None or trial.outcome().winner == move.seat:
            return move
    return moves[0]


def clocks_at(k: int) -> dict[str, str]:
    return {"p1": f"{k // 60}:{k % 60:02d} +4:10", "p2": f"{k // 60}:{(k * 7) % 60:02d} +5:00"}


class Blank:
    """Blank canvases by size, encoded by Pillow; ``time`` returns one encode's seconds."""

    def __init__(self) -> None:
        self.canvases: dict[tuple[int, int], object] = {}

    def time(self, size: tuple[int, int]) -> float:
        canvas = self.canvases.setdefault(size, new_canvas(size))
        t0 = clock()
        pillow_png(canvas)
        return clock() - t0


def time_match(views: list[dict], next_view: dict, rounds: int, blank: Blank) -> dict[str, object]:
    """Per board: the median over rounds of render / blank (back to back), the render and blank
    times, PNG sizes (ours and Pillow's) and the cache hits of the band encoder."""
    sizes = [render_image(view).size for view in views]
    next_size = render_image(next_view).size
    ratios = [[] for _ in views]
    render_ms = [[] for _ in views]
    blank_ms = [[] for _ in views]
    next_ratios = []
    ours = pillow = 0
    hits = misses = 0
    for r in range(-1, rounds):
        # Round -1 only warms the drawing's caches (glyphs, sprites, backgrounds), as a bot's
        # are after its first match; the band cache is emptied before every match's first board.
        png.clear_cache()
        for k, view in enumerate(views):
            title = "Match #12"
            b = blank.time(sizes[k])
            t0 = clock()
            data = render_view(view, players=NAMES, clocks=clocks_at(k), title=title)
            t = clock() - t0
            if r < 0:
                continue
            ratios[k].append(t / b)
            render_ms[k].append(t * 1e3)
            blank_ms[k].append(b * 1e3)
            if r == 0:
                ours += len(data)
                pillow += len(pillow_png(render_image(view, players=NAMES, clocks=clocks_at(k), title=title)))
        info = png.cache_info()
        b = blank.time(next_size)
        t0 = clock()
        render_view(next_view, players=OTHER_NAMES, clocks=clocks_at(0), title="Match #13")
        if r >= 0:
            next_ratios.append((clock() - t0) / b)
            hits, misses = hits + info.hits, misses + info.misses
    per_board = sorted(statistics.median(x) for x in ratios)
    return {
        "boards": len(views),
        "blank": statistics.median(statistics.median(x) for x in blank_ms),
        "render": statistics.median(statistics.median(x) for x in render_ms),
        "p50": statistics.median(per_board),
        "p90": per_board[min(len(per_board) - 1, int(0.90 * len(per_board)))],
        "p99": per_board[min(len(per_board) - 1, int(0.99 * len(per_board)))],
        "first": statistics.median(ratios[0]),
        "rest_max": max((statistics.median(x) for x in ratios[1:]), default=0.0),
        "next": statistics.median(next_ratios),
        "hit_rate": hits / max(1, hits + misses),
        "ours_kb": ours / len(views) / 1000,
        "pillow_kb": pillow / len(views) / 1000,
    }


def time_position(view: dict, rounds: int, blank: Blank) -> dict[str, float]:
    """One fixed position: the blank encode, the render with the cache emptied first (cold), and
    the render as it was before (the same drawing, encoded by Pillow); best of the rounds."""
    size = render_image(view).size
    blanks, cold, before = [], [], []
    for k in range(rounds + 3):
        clocks, title = clocks_at(k), f"Death Match {k}"
        b = blank.time(size)
        png.clear_cache()
        t0 = clock()
        render_view(view, players=NAMES, clocks=clocks, title=title)
        t1 = clock()
        pillow_png(render_image(view, players=NAMES, clocks=clocks, title=title + "'"))
        t2 = clock()
        if k >= 3:  # the first rounds fill the background, sprite and glyph caches
            blanks.append(b)
            cold.append(t1 - t0)
            before.append(t2 - t1)
    return {"blank": min(blanks) * 1e3, "cold": min(cold) / min(blanks), "before": min(before) / min(blanks)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--band-rows", type=int, default=png.BAND_ROWS)
    parser.add_argument("--level", type=int, default=png.LEVEL)
    parser.add_argument("--matches-only", action="store_true", help="skip the fixed positions")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU time")
    parser.add_argument("--sweep", help="band heights to compare, e.g. 12,16,24,32")
    parser.add_argument("--levels", default=str(png.LEVEL), help="levels to compare with --sweep")
    args = parser.parse_args(argv[1:])
    global clock
    clock = time.perf_counter if args.wall else time.thread_time
    if args.sweep:
        configs = [(int(rows), int(level)) for level in args.levels.split(",") for rows in args.sweep.split(",")]
        return sweep(configs, args.rounds)
    rounds, rows, level = args.rounds, args.band_rows, args.level
    if (rows, level) != (png.BAND_ROWS, png.LEVEL):
        # render_view takes no encoder options: point the house encoder at these settings.
        geniusbot.pictures.png = _Configured(rows, level)  # type: ignore[assignment]
    print(f"Baseline: Pillow, {dict(png.PNG_SETTINGS)}, mode P.")
    print(f"Encoder: bands of {rows} rows, level {level}, deflate by {png.DEFLATE_LIBRARY}.")
    print(f"Clock: {'wall (perf_counter)' if args.wall else 'CPU time of this thread (thread_time)'}.")
    print(f"Matches: {rounds} rounds, cache emptied before each match; ratios are render / blank encode.")
    print(
        f"{'match':18} {'boards':>6} {'blank ms':>8} {'render ms':>9} {'p50':>5} {'p90':>5} {'p99':>5} "
        f"{'first':>5} {'rest max':>8} {'next':>5} {'hits':>5} {'kB ours/Pillow':>14}"
    )
    blank = Blank()
    worst = worst_warm = 0.0
    for label, game_name, seed, options in MATCHES:
        views = match_views(game_name, seed, options)
        next_view = match_views(game_name, seed + 100, options)[0]
        r = time_match(views, next_view, rounds, blank)
        worst, worst_warm = max(worst, r["p99"], r["first"]), max(worst_warm, r["rest_max"], r["next"])
        print(
            f"{label:18} {r['boards']:6} {r['blank']:8.2f} {r['render']:9.2f} {r['p50']:5.2f} {r['p90']:5.2f} "
            f"{r['p99']:5.2f} {r['first']:5.2f} {r['rest_max']:8.2f} {r['next']:5.2f} {r['hit_rate']:5.0%} "
            f"{r['ours_kb']:6.1f} / {r['pillow_kb']:5.1f}"
        )
    print(f"worst board {worst:.2f}; worst but each match's cold first board {worst_warm:.2f} (target {TARGET})")
    if args.matches_only:
        return 0
    position_rounds = max(10, 4 * rounds)
    print(f"\nPositions, best of {position_rounds} rounds; every render cold (the band cache emptied first).")
    print(f"{'position':32} {'blank ms':>8} {'cold / blank':>12} {'before / blank':>14}")
    for label, view in positions():
        r = time_position(view, position_rounds, blank)
        print(f"{label:32} {r['blank']:8.2f} {r['cold']:12.2f} {r['before']:14.2f}")
    return 0


def sweep(configs: list[tuple[int, int]], rounds: int) -> int:
    """Encode alone / blank for each (band rows, level), every configuration timed on each board
    right after the others, each with its own band cache (emptied before every match)."""
    caches = {config: png._BandCache(png.CACHE_BANDS) for config in configs}
    ratios: dict[tuple[int, int], dict[tuple[str, int], list[float]]] = {c: {} for c in configs}
    sizes = {config: 0 for config in configs}
    blank = Blank()
    boards = 0
    house_cache = png._cache
    try:
        for label, game_name, seed, options in MATCHES:
            views = match_views(game_name, seed, options)
            cards = [
                render_image(view, players=NAMES, clocks=clocks_at(k), title="Match #12")
                for k, view in enumerate(views)
            ]
            boards += len(cards)
            for r in range(rounds):
                for cache in caches.values():
                    cache.clear()
                for k, card in enumerate(cards):
                    b = blank.time(card.size)
                    for rows, level in configs:
                        png._cache = caches[(rows, level)]
                        t0 = clock()
                        data = png.encode_png(card, band_rows=rows, level=level)
                        ratios[(rows, level)].setdefault((label, k), []).append((clock() - t0) / b)
                        if r == 0:
                            sizes[(rows, level)] += len(data)
    finally:
        png._cache = house_cache
    print(f"Encode alone / blank, deflate by {png.DEFLATE_LIBRARY}; {boards} boards, median of {rounds} rounds.")
    print(f"{'rows':>4} {'level':>5} {'p50':>5} {'p90':>5} {'p99':>5} {'max':>5} {'kB':>5}")
    for rows, level in configs:
        per_board = sorted(statistics.median(x) for x in ratios[(rows, level)].values())
        n = len(per_board)
        print(
            f"{rows:4} {level:5} {per_board[n // 2]:5.2f} {per_board[int(0.9 * n)]:5.2f} "
            f"{per_board[int(0.99 * n)]:5.2f} {per_board[-1]:5.2f} {sizes[(rows, level)] / boards / 1000:5.1f}"
        )
    return 0


class _Configured:
    """``geniusbot.render.png`` with other band rows and level, for measuring the choice."""

    def __init__(self, band_rows: int, level: int) -> None:
        self.band_rows, self.level = band_rows, level

    def encode_png(self, image) -> bytes:
        return png.encode_png(image, band_rows=self.band_rows, level=self.level)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
