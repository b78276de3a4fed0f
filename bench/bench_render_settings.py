"""PNG encoder settings side by side: for each setting, render (draw + encode) / blank encode,
with the blank encoded the same way as the card, every setting timed in the same rounds so that
all see the same machine load. The positions are those of ``bench_render.py``.

Run: ``python bench/bench_render_settings.py [rounds]``. Prints, per setting, the range and the
worst of render / blank over the positions, the best blank encode time, and the largest PNG.
"no-AA" maps every blended shade of the palette to the nearer end of its ramp before encoding
(the mapping's own cost left out): an upper bound on what dropping anti-aliasing could gain.
"bits=4" is timed only: it keeps the low 4 bits of each index, so its pictures are wrong.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_render import NAMES, positions

from geniusbot.pictures import render_image
from geniusbot.render import palette

SETTINGS: dict[str, dict[str, object]] = {
    "level 2 (house)": {"compress_level": 2},
    "level 1": {"compress_level": 1},
    "2 Z_FILTERED": {"compress_level": 2, "compress_type": 1},
    "2 Z_RLE": {"compress_level": 2, "compress_type": 3},
    "2 Z_FIXED": {"compress_level": 2, "compress_type": 4},
    "2 Z_HUFFMAN_ONLY": {"compress_level": 2, "compress_type": 2},
    "2 no-AA": {"compress_level": 2},
    "2 bits=4": {"compress_level": 2, "bits": 4},
}


def encode(image, settings) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **settings)
    return buffer.getvalue()


def no_aa_table() -> list[int]:
    table = list(range(256))
    for steps in palette._RAMPS.values():
        n = len(steps) - 1
        for k, index in enumerate(steps[1:-1], start=1):
            table[index] = steps[-1] if 2 * k >= n else steps[0]
    return table


def main(argv: list[str]) -> int:
    rounds = int(argv[1]) if len(argv) > 1 else 30
    table = no_aa_table()
    ratios: dict[str, list[float]] = {name: [] for name in SETTINGS}
    blank_ms = {name: 9e9 for name in SETTINGS}
    largest = {name: 0 for name in SETTINGS}
    for label, view in positions():
        blank = palette.new_canvas(render_image(view).size)
        best = {name: [9e9, 9e9] for name in SETTINGS}
        draw_best = 9e9
        for k in range(rounds):
            clocks = {"p1": f"{k // 60}:{k % 60:02d}", "p2": "5:00"}
            t0 = time.perf_counter()
            card = render_image(view, players=NAMES, clocks=clocks, title=f"Death Match {k}")
            draw_best = min(draw_best, time.perf_counter() - t0)
            flat = card.point(table)
            flat.putpalette(palette.PALETTE)
            for name, settings in SETTINGS.items():
                source = flat if name.endswith("no-AA") else card
                t1 = time.perf_counter()
                encode(blank, settings)
                t2 = time.perf_counter()
                data = encode(source, settings)
                t3 = time.perf_counter()
                best[name][0] = min(best[name][0], t2 - t1)
                best[name][1] = min(best[name][1], t3 - t2)
                largest[name] = max(largest[name], len(data))
        for name in SETTINGS:
            ratios[name].append((draw_best + best[name][1]) / best[name][0])
            blank_ms[name] = min(blank_ms[name], best[name][0] * 1e3)
        print(f"{label:36} " + " ".join(f"{ratios[n][-1]:5.2f}" for n in SETTINGS), flush=True)
    print(f"{'setting':18} {'render/blank':>14} {'worst':>6} {'blank ms':>8} {'largest kB':>10}")
    for name in SETTINGS:
        r = ratios[name]
        print(
            f"{name:18} {min(r):6.2f}-{max(r):<7.2f} {max(r):6.2f} {blank_ms[name]:8.2f} {largest[name] / 1000:10.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
