"""Rendering speed against PNG encoding: how long a board picture takes, next to the time that
PNG-encoding a blank image of the same size alone takes (same mode "P", same palette, same
encoder settings: ``geniusbot.render.common.PNG_SETTINGS``, zlib level 1, no optimize pass).

Target: rendering a board (drawing + encoding) takes at most 1.5 x the blank encode.

Run: ``python bench/bench_render.py [rounds]``. Blank and board are timed alternately, round
by round, so that both see the same machine load; medians are compared. Clocks change every
round (as a live match's do), and so does the title (as the status line does after each move),
so that text is laid out afresh rather than served from a cache.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from geniusbot.games import new_game  # noqa: E402
from geniusbot.render import common, render_image, render_view  # noqa: E402

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
    for text, seat in [("H8", "p1"), ("H9", "p1"), ("I8", "p1"), ("black", "p2"), ("G9", "p1"), ("J8", "p2"),
                       ("A1", "p1"), ("K8", "p2"), ("A2", "p1"), ("G8", "p2")]:
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
    for seat, text in (("p1", "create 20 15"), ("p2", "create 30 5"), ("p1", "play 20 backup 3"), ("p2", "play 5"),
                       ("p1", "create 10"), ("p2", "create 12")):
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


def time_pair(view: dict, rounds: int) -> dict[str, float]:
    """Blank encode, full render (draw + encode) and draw alone, timed round by round."""
    blank = common.new_canvas(render_image(view).size)
    blank_times, render_times, draw_times, encode_times, ratios = [], [], [], [], []
    data = b""
    for k in range(rounds + 5):
        # Unique clock strings every round, and one fresh line of text (the title here, as the
        # status line is after each move): no round finds that text in a cache.
        clocks = {"p1": f"{k // 60}:{k % 60:02d} +4:10", "p2": f"{k // 60}:{(k * 7) % 60:02d} +5:00"}
        t0 = time.perf_counter()
        common.encode_png(blank)
        t1 = time.perf_counter()
        data = render_view(view, players=NAMES, clocks=clocks, title=f"Death Match {k}")
        t2 = time.perf_counter()
        card = render_image(view, players=NAMES, clocks=clocks, title=f"Death Match {k}'")
        t3 = time.perf_counter()
        common.encode_png(card)
        t4 = time.perf_counter()
        if k >= 5:  # the first rounds fill the background, sprite and glyph caches
            blank_times.append(t1 - t0)
            render_times.append(t2 - t1)
            draw_times.append(t3 - t2)
            encode_times.append(t4 - t3)
            ratios.append((t2 - t1) / (t1 - t0))
    return {
        "blank": min(blank_times),
        "render": min(render_times),
        "draw": min(draw_times),
        "ratio_best": min(render_times) / min(blank_times),
        "ratio_median": statistics.median(ratios),
        "draw_ratio": min(draw_times) / min(blank_times),
        "encode_ratio": min(encode_times) / min(blank_times),
        "bytes": len(data),
    }


def main(argv: list[str]) -> int:
    rounds = int(argv[1]) if len(argv) > 1 else 300
    print(f"PNG settings {dict(common.PNG_SETTINGS)}, mode P, 256-entry palette; {rounds} rounds.")
    print("Times are best of the rounds (the machine is shared; the best is the least disturbed);")
    print("'median' is the median of the per-round ratios (blank and render timed back to back).")
    print(
        f"{'position':32} {'blank ms':>8} {'render ms':>9} {'draw ms':>7} "
        f"{'ratio':>6} {'median':>6} {'draw/blank':>10} {'card enc/blank':>14} {'PNG kB':>6}"
    )
    worst = worst_draw = worst_encode = 0.0
    for label, view in positions():
        r = time_pair(view, rounds)
        worst = max(worst, r["ratio_best"])
        worst_draw = max(worst_draw, r["draw_ratio"])
        worst_encode = max(worst_encode, r["encode_ratio"])
        print(
            f"{label:32} {r['blank'] * 1e3:8.2f} {r['render'] * 1e3:9.2f} {r['draw'] * 1e3:7.2f} "
            f"{r['ratio_best']:6.2f} {r['ratio_median']:6.2f} {r['draw_ratio']:10.2f} {r['encode_ratio']:14.2f} {r['bytes'] / 1000:6.1f}"
        )
    size = "x".join(map(str, render_image(positions()[0][1]).size))
    print(f"picture size {size}")
    print(f"worst render/blank {worst:.2f} ({'meets' if worst <= TARGET else 'MISSES'} the target of {TARGET});")
    print(f"worst draw/blank {worst_draw:.2f} (drawing alone, without the PNG encoding of the card)")
    print(f"worst card-encode/blank {worst_encode:.2f} (encoding the finished card alone, no drawing)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
