"""How long ``geniusbot adjudicate`` takes from the shell, beside ``python3 -c pass``.

    python bench/bench_startup.py [-n 30] [--ref aa7b3ff] [--example tictacfive.txt]

Runs each command N times as a fresh process (a hyperfine-like loop: the commands take turns in
every round, so a busy spell of the shared machine falls on all of them alike) and prints the
best and the median wall time of each, and each median as a multiple of ``python3 -c pass``'s.
Target (issue 12): ``geniusbot adjudicate`` of an example in at most 4 x ``python3 -c pass``.

``--ref REV`` also times the launcher as it was at a git revision (its tree exported to a temporary
folder and put first on ``sys.path``; the installed entry points then load its games), so a change
is measured before and after in one run. Timing never goes in a test (CONTRIBUTING.md).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "geniusbot" / "examples"


def launcher(tree: Path, *args: str) -> list[str]:
    """``geniusbot ARGS`` run from the source tree ``tree`` (what the console script does)."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from geniusbot.cli import main; raise SystemExit(main())"
    return [sys.executable, "-c", code, *args]


def time_once(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0,):
        raise SystemExit(f"{command} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return elapsed


def export(ref: str, into: Path) -> Path:
    """The tree of ``ref`` in a folder of ``into``."""
    folder = into / ref.replace("/", "_")
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=30, help="runs of each command (default 30)")
    parser.add_argument("--ref", help="also time the launcher of this git revision (before a change)")
    parser.add_argument("--example", default="tictacfive.txt", help="the record to adjudicate")
    args = parser.parse_args()
    example = str(EXAMPLES / args.example)
    python3 = shutil.which("python3") or sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        commands: dict[str, list[str]] = {
            "python3 -c pass": [python3, "-c", "pass"],
            f"{Path(sys.executable).name} -c pass": [sys.executable, "-c", "pass"],
            "geniusbot adjudicate": launcher(REPO, "adjudicate", example),
            "geniusbot --help": launcher(REPO, "--help"),
        }
        if args.ref:
            before = export(args.ref, Path(scratch))
            commands[f"geniusbot adjudicate @ {args.ref}"] = launcher(before, "adjudicate", example)
            commands[f"geniusbot --help @ {args.ref}"] = launcher(before, "--help")
        times: dict[str, list[float]] = {name: [] for name in commands}
        names = list(commands)
        for name in names:  # warm the file cache and the bytecode
            time_once(commands[name])
        for round_ in range(args.n):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                times[name].append(time_once(commands[name]))
    # Each median as a multiple of `python3 -c pass` (the shell's python3, a pyenv shim here) and
    # of the same interpreter's `-c pass` (the venv's, which the launcher runs on: the fair one).
    base = statistics.median(times["python3 -c pass"])
    same = statistics.median(times[f"{Path(sys.executable).name} -c pass"])
    print(f"{args.n} runs each, interleaved; {args.example}; {sys.version.split()[0]}")
    print(f"{'command':<36} {'best':>8} {'median':>8} {'x python3':>10} {'x same':>7}")
    for name, runs in times.items():
        median = statistics.median(runs)
        print(
            f"{name:<36} {min(runs) * 1000:7.1f}ms {median * 1000:7.1f}ms {median / base:9.2f}x {median / same:6.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
