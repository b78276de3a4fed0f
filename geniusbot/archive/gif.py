"""A match as an animated GIF: one frame per step, stored as differences, in parts under 10 MB.

Each frame is the board picture of the step's public view (:mod:`geniusbot.render`, so it shows
exactly what the room saw) with a caption strip under it: the step, the action in words, the
clocks, and on the last frame the result. A game without a picture is refused
(:class:`NoPicture`): its text board's diagrams need a fixed-width font the pictures do not have.

:class:`GifWriter` writes the GIF itself, a frame at a time, holding only the frame before (a
match of thousands of steps never has its pictures in memory at once, as Pillow's ``save_all``
does). Every picture is drawn on the one house palette, so it is the GIF's global colour table and
no frame is quantised or carries a palette of its own. A frame after the first is cropped to the
bounding box of the pixels that changed; inside it, the pixels that did not change are set to a
transparent index (disposal 1 keeps the frame before under it), so the LZW encoder sees long runs
of one index. Pillow encodes each cropped frame's pixels (its ``getdata``); this module writes the
header, the frames' control blocks and the trailer. A step that changes nothing visible still
has its frame (one pixel), so the GIF has exactly one frame per step.

A GIF's frames share one logical screen: here it is as large as the largest frame of the part,
and each frame is as large as its own picture, placed at the top left. Nothing is padded: where
a frame is smaller than the one before (a game whose card between two rounds is half as tall as
a round's), the frame before is disposed of with method 2 over a box that takes in the rows and
columns the smaller frame leaves, so those are cleared to transparent and the viewer's own
background shows there (a browser's page, Discord's chat) rather than a band of empty card
below the picture. A frame is written once the next one is known, to choose its disposal. A
match whose frames are all one size is written byte for byte as when every frame was padded to
the screen.

The frames go into parts of at most :data:`PART_BYTES` each (under Discord's 10 MB upload limit):
when the next frame would take a part past it, the part is closed and the next one starts with a
whole frame. The last frame of each part is held for :data:`HOLD_MS`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from PIL import GifImagePlugin, Image, ImageChops

from geniusbot.analysis import Review
from geniusbot.analysis.graph import draw_graph
from geniusbot.analysis.said import mark_said
from geniusbot.pictures import has_renderer, render_image
from geniusbot.render.palette import PALETTE, PALETTE_ENTRIES, ink, palette_image
from geniusbot.render.text import draw_text, fit_text
from geniusbot.words import Listing, Verbatim, say

from .steps import Refusal, Shown, Steps

#: Discord's upload limit for a bot (10 MB), counted in decimal megabytes to stay clear of it.
MAX_BYTES = 10_000_000
#: What a part may reach while frames are added: the first frame is encoded again when the
#: part closes (padded to the part's final size, which may have grown), plus the trailer.
PART_BYTES = MAX_BYTES - 256 * 1024
#: How long a frame shows, and the last frame of a part.
FRAME_MS = 1000
HOLD_MS = 5000
#: The caption strip under each picture (up to three lines): its height, margins and type size.
CAPTION_HEIGHT = 112
CAPTION_MARGIN = 24
CAPTION_SIZE = 22
#: The index that marks an unchanged pixel: the first the house palette leaves unused (a frame
#: that uses it, which no house picture does, is stored without transparency).
TRANSPARENT = len(PALETTE_ENTRIES) if len(PALETTE_ENTRIES) < 256 else None
#: Pixel index -> 255 where a difference image is zero (the pixel did not change), else 0.
_UNCHANGED = [255] + [0] * 255
_PALETTE_BYTES = bytes(PALETTE)
#: The index the writer's copy of the screen marks a cleared (transparent) pixel with.
_CLEARED = TRANSPARENT if TRANSPARENT is not None else 255
#: Disposal methods: 1 leaves the frame for the next to be drawn on; 2 clears its box.
KEEP, CLEAR = 1, 2

Size = tuple[int, int]
Box = tuple[int, int, int, int]


class NoPicture(Refusal):
    """The game has no board picture, so no GIF is drawn of it (``said`` says so)."""


# --------------------------------------------------------------------------- frames


def caption(shown: Shown, steps: Steps) -> list[str]:
    """The caption lines of a step: what happened, the clocks, the result on the last step."""
    total, names, result, words = len(steps), steps.names, steps.result, steps.words
    what = say("the start") if shown.action is None else shown.action
    lines = [words(say("Step {step} of {last}: {what}", step=shown.index, last=total - 1, what=what))]
    clocks = [Verbatim(f"{names.get(s) or s} {t}") for s, t in shown.clocks.items() if t]
    if clocks:
        lines.append(words(say("Clocks: {clocks}", clocks=Listing(tuple(clocks)))))
    elif shown.index and any(steps.start_clocks.values()):
        lines.append(words(say("Clocks: not in the record at this step")))  # a record line without {p1=... p2=...}
    lines.extend(words(note.said(names)) for note in shown.refused)  # where they happened: after this step
    mark = steps.review.mark_of(shown.index) if steps.review is not None else None
    if mark is not None:
        lines.append(words(mark_said(mark)))
    if shown.index == total - 1 and result:
        lines.append(words(result))
    return lines


def frame_image(shown: Shown, steps: Steps, title: str | None = None) -> Image.Image:
    """The frame of one step: its picture, then the caption strip (on the house palette)."""
    picture = render_image(shown.view, words=steps.words, players=steps.names, clocks=dict(shown.clocks), title=title)
    palette = picture.getpalette() if picture.mode == "P" else None
    if not palette or palette != PALETTE[: len(palette)]:  # a plug-in's picture on a palette of its own
        picture = picture.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)
    width, height = picture.size
    lines = caption(shown, steps)
    # Three lines fit the strip; a step with refused lines after it gets a taller one.
    strip = max(CAPTION_HEIGHT, CAPTION_HEIGHT * (len(lines) + 1) // 4)
    frame = Image.new("P", (width, height + strip), ink("page"))
    frame.putpalette(PALETTE)
    frame.paste(picture, (0, 0))
    room = width - 2 * CAPTION_MARGIN
    for row, line in enumerate(lines):
        y = height + CAPTION_HEIGHT * (row + 1) / 4
        draw_text(
            frame, (CAPTION_MARGIN, y), fit_text(line, CAPTION_SIZE, room, bold=row == 0), CAPTION_SIZE, bold=row == 0
        )
    return frame


def check_picture(steps: Steps) -> None:
    """Raise :class:`NoPicture` for a game that has none."""
    if not has_renderer(steps.game):
        raise NoPicture(
            say(
                "{title} has no board picture, so no GIF can be drawn of it; "
                "{adjudicate} or {replay} show its text board step by step.",
                title=Verbatim(steps.title),
                adjudicate=Verbatim("'geniusbot adjudicate'"),
                replay=Verbatim("/replay"),
            )
        )


def frames(steps: Steps, title: str | None = None) -> Iterable[Image.Image]:
    """The frame of every step, one at a time."""
    check_picture(steps)
    for shown in steps:
        yield frame_image(shown, steps, title)


# --------------------------------------------------------------------------- the writer


def _encode(image: Image.Image, offset: tuple[int, int] = (0, 0)) -> bytes:
    """An image descriptor and the LZW data of ``image`` (no control block, no palette)."""
    return b"".join(GifImagePlugin.getdata(image, offset))


def _control(duration_ms: int, transparent: bool, disposal: int = KEEP) -> bytes:
    """A graphic control extension: the disposal (1 keeps the frame under the next, 2 clears its
    box), the delay and, for a difference frame, the transparent index."""
    flags = (disposal << 2) | (1 if transparent else 0)
    return b"!\xf9\x04" + struct.pack("<BHB", flags, duration_ms // 10, TRANSPARENT or 0) + b"\0"


def _header(size: Size) -> bytes:
    """GIF89a, the logical screen, the house palette as the global colour table, loop forever."""
    screen = struct.pack("<HHBBB", size[0], size[1], 0x80 | 7, ink("page"), 0)
    return b"GIF89a" + screen + _PALETTE_BYTES + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"


def _cleared(size: Size) -> Image.Image:
    """A screen of ``size`` with nothing on it (every pixel cleared)."""
    screen = Image.new("P", size, _CLEARED)
    screen.putpalette(PALETTE)
    return screen


def _union(a: Box | None, b: Box | None) -> Box | None:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _left_by(size: Size, after: Size) -> Box | None:
    """The box of what a frame of ``size`` leaves on the screen when one of size ``after`` follows
    it (the rows below and the columns right of it), ``None`` when the next covers it."""
    (width, height), (next_width, next_height) = size, after
    box = None
    if next_height < height:
        box = (0, next_height, width, height)
    if next_width < width:
        box = _union(box, (next_width, 0, width, height))
    return box


@dataclass
class Part:
    """One GIF file: its bytes and the steps it shows (``first`` to ``last``, counted from 0)."""

    data: bytes
    first: int
    last: int

    @property
    def frames(self) -> int:
        return self.last - self.first + 1


@dataclass
class _Open:
    first_index: int
    size: Size
    #: Each frame written: its descriptor and data, whether it marks unchanged pixels, its
    #: disposal, its size.
    frames: list[tuple[bytes, bool, int, Size]] = field(default_factory=list)
    nbytes: int = 0


class GifWriter:
    """An animated GIF written a frame at a time (:meth:`add`), in parts under ``part_bytes``.

    The writer keeps the frame before (``_under``; the screen shows it at the top left with
    everything around it cleared, and ``_cleared_box`` cleared too when it was disposed of with
    method 2) and the frame it holds back (``_pending``), written once the next frame's size
    says how it is to be disposed of.
    """

    def __init__(
        self,
        *,
        frame_ms: int = FRAME_MS,
        hold_ms: int = HOLD_MS,
        part_bytes: int | None = None,
        diff: bool = True,
    ) -> None:
        self.frame_ms, self.hold_ms, self.diff = frame_ms, hold_ms, diff
        self.part_bytes = PART_BYTES if part_bytes is None else part_bytes  # read now: a test may lower it
        self.parts: list[Part] = []
        self.count = 0
        self._open: _Open | None = None
        self._pending: tuple[Image.Image, int] | None = None  # the frame held back, and its step
        self._under: Image.Image | None = None  # the frame before it (None: a part's first)
        self._cleared_box: Box | None = None  # what its disposal cleared

    def add(self, image: Image.Image) -> None:
        """The next frame: a palette image on the house palette, of any size."""
        index, self.count = self.count, self.count + 1
        if self._pending is not None:
            self._write(*self._pending, after=image.size)
        self._pending = (image, index)

    def _write(self, image: Image.Image, index: int, after: Size | None) -> None:
        """Write the frame held back, now that the next one's size (``after``) is known."""
        part = self._open
        if part is None:
            part = self._start(index)
        blob, transparent, disposal, box = self._frame(image, after)
        if part.frames and part.nbytes + len(blob) + 8 > self.part_bytes:
            self._close()
            part = self._start(index)
            blob, transparent, disposal, box = self._frame(image, after)
        part.size = (max(part.size[0], image.size[0]), max(part.size[1], image.size[1]))
        part.frames.append((blob, transparent, disposal, image.size))
        part.nbytes += len(blob) + 8
        # The screen once this frame is disposed of: the frame, cleared around it (what the frame
        # before left was cleared when it was disposed of), and its box too for disposal 2.
        self._under = image  # only read, never drawn on
        self._cleared_box = box if disposal == CLEAR else None

    def _start(self, index: int) -> _Open:
        self._open = _Open(index, (0, 0))
        self._under, self._cleared_box = None, None
        return self._open

    def _screen(self, size: Size) -> Image.Image:
        """The screen under a frame of ``size``, as large as it (cleared pixels marked)."""
        under = self._under
        if under is None:
            return _cleared(size)
        if self._cleared_box is not None:
            under = under.copy()
            under.paste(_CLEARED, self._cleared_box)
        if under.size == size:
            return under
        if under.size[0] >= size[0] and under.size[1] >= size[1]:
            return under.crop((0, 0, *size))
        screen = _cleared(size)
        screen.paste(under, (0, 0))
        return screen

    def _frame(self, frame: Image.Image, after: Size | None) -> tuple[bytes, bool, int, Box]:
        """The frame drawn over the screen as it is: its encoded bytes, whether it marks the
        unchanged pixels transparent, its disposal, and its box."""
        width, height = frame.size
        left = _left_by(frame.size, after) if after is not None else None
        disposal = CLEAR if left is not None else KEEP
        whole = (0, 0, width, height)
        if not self.diff or not self._open or not self._open.frames:  # a part's first frame is whole
            return _encode(frame), False, disposal, whole
        delta = ImageChops.subtract_modulo(frame, self._screen(frame.size))
        changed = delta.getbbox(alpha_only=False)
        box = _union(changed, left)
        if box is None:  # nothing changed: one pixel, so that the step keeps its frame
            return _encode(frame.crop((0, 0, 1, 1))), False, disposal, (0, 0, 1, 1)
        crop = frame.crop(box)
        highest = crop.getextrema()[1]  # a palette image: its lowest and highest index
        if TRANSPARENT is None or (isinstance(highest, int) and highest >= _CLEARED and crop.histogram()[_CLEARED]):
            # The frame uses the index that marks a cleared pixel: drawn whole, nothing transparent.
            box = _union(box, whole) or whole
            return _encode(frame.crop(box), box[:2]), False, disposal, box
        crop.paste(TRANSPARENT, mask=delta.crop(box).point(_UNCHANGED, "1"))
        return _encode(crop, box[:2]), True, disposal, box

    def _close(self) -> None:
        part = self._open
        if part is None:
            return
        durations = [self.frame_ms] * (len(part.frames) - 1) + [self.hold_ms]
        chunks = [_header(part.size)]
        for (blob, transparent, disposal, size), duration in zip(part.frames, durations, strict=True):
            # A frame smaller than the screen names the transparent index even with none of its
            # pixels: a viewer then clears the screen around it (the first frame) and its box
            # (disposal 2) to transparent, as browsers always do, not to the background colour.
            transparent = transparent or size != part.size
            chunks.append(_control(duration, transparent, disposal))
            chunks.append(blob)
        chunks.append(b";")
        self.parts.append(Part(b"".join(chunks), part.first_index, part.first_index + len(part.frames) - 1))
        self._open = None
        self._under, self._cleared_box = None, None

    def finish(self) -> list[Part]:
        """Write the last frame and close the last part; the parts, in order."""
        if self._pending is not None:
            self._write(*self._pending, after=None)
            self._pending = None
        self._close()
        return self.parts


def make_gif(
    steps: Steps,
    *,
    title: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    writer: GifWriter | None = None,
) -> list[Part]:
    """The GIF of every step of ``steps``, in parts; ``progress(done, total)`` after each frame.

    Raises :class:`NoPicture` for a game without a picture. A plain function: the bot runs it in a
    worker thread.
    """
    writer = writer or GifWriter()
    total = len(steps)
    if steps.review is not None:  # the graph first, as wide as the boards
        check_picture(steps)
        writer.add(_graph_frame(steps, steps.review))
    for done, image in enumerate(frames(steps, title), 1):
        writer.add(image)
        if progress is not None:
            progress(done, total)
    return writer.finish()


def _graph_frame(steps: Steps, review: Review) -> Image.Image:
    """The review's graph, as wide as the first board's frame, centred on a frame of its size."""
    first = frame_image(next(iter(steps)), steps)
    graph = draw_graph(review, steps.language, steps.names, width=first.size[0])
    frame = Image.new("P", first.size, ink("page"))
    frame.putpalette(PALETTE)
    frame.paste(graph, (0, (frame.size[1] - graph.size[1]) // 2))
    return frame
