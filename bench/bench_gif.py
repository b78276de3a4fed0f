"""GIF encoding of whole matches: the archive's writer against Pillow's ``save_all``, side by side.

    python bench/bench_gif.py [--rounds 3] [RECORD ...]

The frames: every step of each record (default: the All Hands On Deck and Tic-Tac-Five records
of tests/records), drawn once as ``geniusbot replay`` draws them (the public view's picture and
the caption strip) and held in memory, so only the encoding is timed. The archive's writer
takes them as drawn, each its own size; Pillow's takes them padded to one size. Each encoder
then writes its frames, the median of ``--rounds`` runs in one process, the encoders taking
turns within each round (after one round not counted, to warm up):

* archive: :class:`geniusbot.archive.gif.GifWriter`, the changed box of each frame with its
  unchanged pixels transparent, the house palette as the global table, a frame at a time, each
  frame as large as its picture (a smaller one after a larger clears what it leaves);
* archive, padded (before): the same writer given the frames padded to the largest, which is
  byte for byte the GIF the archive wrote before its frames kept their own size (a record whose
  frames are all one size gives the same GIF both ways);
* archive, whole frames: the same writer with ``diff=False`` (every frame whole), to show what
  the differences save;
* Pillow plain: ``frames[0].save(out, "GIF", save_all=True, append_images=frames[1:],
  duration=1000, loop=0)``, Pillow's defaults;
* Pillow optimize + disposal 1: the same with ``optimize=True, disposal=1``.

Figures: frames per second of encoding, the file's size, and the frames a viewer counts
(``n_frames``: Pillow merges a frame identical to the one before into it). The drawing of the
frames is timed too, once, for scale. The machine's load average is printed with them.

Memory: each encoder once more in a fresh process, given the frames one at a time as they are
drawn (a generator; Pillow's ``append_images`` takes one too), and the peak resident set of that
process less the peak of a process that only draws them.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from geniusbot.archive.gif import GifWriter, frames
from geniusbot.archive.steps import from_record
from geniusbot.render.palette import PALETTE, ink

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "records"


def padded(images: list[Image.Image]) -> list[Image.Image]:
    size = (max(i.size[0] for i in images), max(i.size[1] for i in images))
    out = []
    for image in images:
        if image.size != size:
            card = Image.new("P", size, ink("page"))
            card.putpalette(PALETTE)
            card.paste(image, (0, 0))
            image = card
        out.append(image)
    return out


def archive(images: list[Image.Image], diff: bool = True) -> bytes:
    writer = GifWriter(diff=diff, part_bytes=1 << 40)  # one part: the same work as Pillow's one file
    for image in images:
        writer.add(image)
    return writer.finish()[0].data


def pillow(images: list[Image.Image], **options: object) -> bytes:
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=1000, loop=0, **options)
    return out.getvalue()


#: Each encoder, and whether it is given the frames padded to one size.
ENCODERS: dict[str, tuple[Callable[[list[Image.Image]], bytes], bool]] = {
    "archive (differences)": (archive, False),
    "archive, padded (before)": (archive, True),
    "archive, whole frames": (lambda images: archive(images, diff=False), False),
    "Pillow save_all, plain": (pillow, True),
    "Pillow save_all, optimize + disposal 1": (lambda images: pillow(images, optimize=True, disposal=1), True),
}


def child(path: Path, encoder: str) -> None:
    """Draw the frames of ``path`` one at a time into ``encoder`` (``draw``: into nothing) and
    print the peak resident set in kB."""
    steps = from_record(path.read_bytes(), path.name)
    size = (0, 0)
    for image in frames(steps):  # a first pass for the size Pillow's frames must share
        size = (max(size[0], image.size[0]), max(size[1], image.size[1]))

    pad = ENCODERS[encoder][1] if encoder in ENCODERS else False

    def drawn():  # type: ignore[no-untyped-def]
        for image in frames(steps):
            yield padded([image, Image.new("P", size)])[0] if pad else image

    if encoder == "draw":
        for _ in drawn():
            pass
    elif encoder.startswith("archive"):
        writer = GifWriter(diff=encoder != "archive, whole frames", part_bytes=1 << 40)
        for image in drawn():
            writer.add(image)
        writer.finish()
    else:
        images = drawn()
        first = next(images)
        options = {"optimize": True, "disposal": 1} if "optimize" in encoder else {}
        first.save(io.BytesIO(), "GIF", save_all=True, append_images=images, duration=1000, loop=0, **options)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def peak_kb(path: Path, encoder: str) -> int:
    done = subprocess.run(
        [sys.executable, __file__, "--child", encoder, str(path)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("records", nargs="*", type=Path, default=[RECORDS / "allhands.txt", RECORDS / "tictacfive.txt"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.child:
        child(args.records[0], args.child)
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for path in args.records:
        # The memory first, while this process holds no frames: a child's peak resident set
        # counts the pages it shared with this process when it was forked.
        base = peak_kb(path, "draw")
        memory = {name: (peak_kb(path, name) - base) / 1024 for name in ENCODERS}
        steps = from_record(path.read_bytes(), path.name)
        started = time.perf_counter()
        drawn = list(frames(steps))
        draw = time.perf_counter() - started
        images = padded(drawn)
        heights = sorted({image.size[1] for image in drawn})
        print(
            f"\n{path.name}: {len(images)} frames of {images[0].size[0]}x{images[0].size[1]} at most "
            f"(heights {', '.join(map(str, heights))}), drawn at {len(images) / draw:.0f} frames/s"
        )
        print(f"{'encoder':42} {'frames/s':>9} {'size':>10} {'n_frames':>9} {'memory':>9}")
        # The encoders take turns within each round (one warm-up round first, not counted), so
        # none is timed alone on a quieter or busier stretch of a shared machine.
        times: dict[str, list[float]] = {name: [] for name in ENCODERS}
        written: dict[str, bytes] = {}
        for round_ in range(args.rounds + 1):
            for name, (encode, pad) in ENCODERS.items():
                started = time.perf_counter()
                written[name] = encode(images if pad else drawn)
                if round_:
                    times[name].append(time.perf_counter() - started)
        for name in ENCODERS:
            data = written[name]
            fps = len(drawn) / statistics.median(times[name])
            counted = Image.open(io.BytesIO(data)).n_frames
            print(f"{name:42} {fps:9.1f} {len(data) / 1e6:8.2f} MB {counted:9d} {memory[name]:6.0f} MB")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
