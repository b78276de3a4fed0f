"""Input that costs too much: what a long submission and a huge record cost to read.

* Deck Swabbing: one 60 kB submission (``c3 c4 c3 c4 ...``, some 20,000 tiles) through
  ``parse_move``, best of three (target: linear, well under a second).
* ``geniusbot adjudicate`` of a 20 MB record, run as a child process, its peak resident memory
  (``ru_maxrss`` of the child): a record with one 20 MB header value, one with a 20 MB move line,
  one with 20 MB of ordinary move lines, one of 1.67 million empty headers, one move line with
  some 1.9 million annotations (target: under 500 MB for each).

Run: python bench/bench_input.py [--mb 20] [--only swabbing|header|move|lines|headers|annotations] [--root CHECKOUT]
(``--root``: run another checkout, an older commit exported with ``git archive``, for before and after)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Every measure runs in a child process in a checkout (this one unless --root says another), whose
# geniusbot is the one imported: the child's working folder comes first on its path.
ROOT = Path(__file__).resolve().parent.parent


SWABBING = """
import sys, time
from geniusbot.games import GameError
from geniusbot.games.allhands.swabbing import DeckSwabbing
game, size = DeckSwabbing.new(seed=1), int(sys.argv[1])
text = ("c3 c4 " * (size // 6 + 1))[:size]
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    try:
        game.parse_move(text, game.to_move()[0])
    except GameError:
        pass
    best = min(best, time.perf_counter() - start)
print(best)
"""


def swabbing_seconds(size: int = 60_000, root: Path = ROOT) -> float:
    """Best of three: Deck Swabbing reads one ``size``-character move, in a child run in ``root``."""
    done = subprocess.run(
        [sys.executable, "-c", SWABBING, str(size)], cwd=root, capture_output=True, text=True, check=True
    )
    return float(done.stdout)


def big_record(kind: str, size: int) -> str:
    """A record of ``size`` characters whose bulk is one header value, one move line, or many lines."""
    head = '[Game "tictacfive"]\n'
    if kind == "header":
        return head + '[Event "' + "x" * size + '"]\np1: H8\n'
    if kind == "move":
        return head + "p1: " + "H8 " * (size // 3) + "\n"
    if kind == "headers":
        return head + "".join(f'[H{i} ""]\n' for i in range(size // 12))
    if kind == "annotations":
        keys = " ".join(f"k{i}=v" for i in range(size // 8))[:size].rsplit(" ", 1)[0]
        return head + "p1: H8 {" + keys + "}\n"
    line = "p1: H8 {at=2026-11-29T12:00:03Z p1=0:52+5:00}\n"
    return head + line * (size // len(line))


def adjudicate_peak_mb(text: str, *, as_json: bool = True, root: Path = ROOT) -> tuple[float, float]:
    """Peak resident memory (MB) and wall time (s) of ``geniusbot adjudicate [--json]`` on ``text``,
    in a child process run in ``root`` (a checkout: this one, or another to compare with)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.txt"
        path.write_text(text, encoding="utf-8")
        # The command refuses a record over 1 MiB unread; the parsers past that limit are what is
        # measured here, so the child lifts it to this file's size (a checkout from before the
        # limit has none to lift, and is given one it does not read).
        code = (
            "import importlib, importlib.util, resource, sys\n"
            # Where the limit is (or was): the record package, then storage's modules of before.
            "r = next(importlib.import_module(m) for m in ('geniusbot.record.file', 'geniusbot.storage.record_file',"
            " 'geniusbot.storage.record') if importlib.util.find_spec(m.rpartition('.')[0]) and importlib.util.find_spec(m))\n"
            f"r.MAX_RECORD_BYTES = {path.stat().st_size}; "
            "from geniusbot.cli import main; code = main(['adjudicate', *sys.argv[1:]]); "
            "sys.stderr.write(f'peak={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'); sys.exit(code)"
        )
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", code, str(path), *(["--json"] if as_json else [])],
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - start
    if done.returncode != 0:  # a figure of a command that failed would measure nothing
        raise SystemExit(f"adjudicate exited {done.returncode}: {done.stderr}")
    peak = next(line for line in done.stderr.splitlines() if line.startswith("peak="))
    return int(peak.removeprefix("peak=")) / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20)
    parser.add_argument("--only", choices=["swabbing", "header", "move", "lines", "headers", "annotations"])
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the checkout whose adjudicate is run (default: this one)"
    )
    args = parser.parse_args()
    if args.only in (None, "swabbing"):
        seconds = swabbing_seconds(root=args.root)
        print(f"Deck Swabbing, one 60 kB submission: {seconds * 1000:.1f} ms (best of 3)", flush=True)
    size = int(args.mb * 1_000_000)
    for kind in ("header", "move", "lines", "headers", "annotations"):
        if args.only not in (None, kind):
            continue
        text = big_record(kind, size)
        for as_json in (True, False):
            peak, seconds = adjudicate_peak_mb(text, as_json=as_json, root=args.root)
            how = "--json" if as_json else "report"
            print(f"adjudicate {how}, {args.mb:g} MB record ({kind}): peak {peak:.0f} MB, {seconds:.1f} s", flush=True)


if __name__ == "__main__":
    main()
