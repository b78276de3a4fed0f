"""The console's input, a line at a time: read so that a Ctrl-C never waits for one, decoded
so that bytes that are not UTF-8 are a line it cannot read, and quoted back cut."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import IO, Any

from geniusbot.words import Message, Verbatim, say

#: The longest line the console reads (a Discord message holds at most 2,000 characters); a
#: longer one is refused unread, and a line quoted back is cut at :data:`QUOTED` characters.
MAX_LINE = 2000
QUOTED = 60

UNREADABLE = say("That line is not UTF-8 text, so it cannot be read; nothing was taken. Type it again.")

#: How much one read of the input's file descriptor asks for.
_CHUNK = 65536


def quoted(text: str) -> Verbatim | Message:
    """``text`` quoted back to the typist, cut at :data:`QUOTED` characters (and saying so)."""
    if len(text) <= QUOTED:
        return Verbatim(repr(text))
    return say(
        "{text}... ({length} characters, cut here)",
        text=Verbatim(repr(text[:QUOTED])),
        length=Verbatim(f"{len(text):,}"),
    )


class LineReader:
    """The lines of one input stream, each read in a daemon thread of its own.

    A Ctrl-C cancels the coroutine waiting for a line, never the thread: that one stays blocked
    until the process ends. So it reads the stream's file descriptor itself (``os.read``), and
    splits the lines here: blocked in ``readline()`` of the stream's buffer, it would hold the
    buffer's lock, which the interpreter takes as it shuts down (a "Fatal Python error", exit
    134, not the console's 130). A stream without a descriptor (a test's ``StringIO``) is read
    with its own ``readline()``.
    """

    def __init__(self, stream: IO[str]) -> None:
        self._source: Any = getattr(stream, "buffer", None) or stream
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
            self._fd = None
        self._held = b""  # what was read past the last line handed out
        self._ended = False
        # The read under way: a Ctrl-C may leave it waiting; the next call waits for the same one.
        self._future: asyncio.Future[str | bytes] | None = None

    def _line_from_fd(self) -> bytes:
        assert self._fd is not None
        searched = 0
        while not self._ended:
            end = self._held.find(b"\n", searched)
            if end >= 0:
                line, self._held = self._held[: end + 1], self._held[end + 1 :]
                return line
            searched = len(self._held)
            chunk = os.read(self._fd, _CHUNK)
            if chunk:
                self._held += chunk
            else:
                self._ended = True
        end = self._held.find(b"\n")
        if end >= 0:
            line, self._held = self._held[: end + 1], self._held[end + 1 :]
            return line
        line, self._held = self._held, b""
        return line

    def _start(self) -> asyncio.Future[str | bytes]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | bytes] = loop.create_future()

        def deliver(result: str | bytes | None, error: BaseException | None) -> None:
            if future.done():
                return  # nobody waits any more
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result or "")

        def work() -> None:
            try:
                result = self._line_from_fd() if self._fd is not None else self._source.readline()
                error = None
            except Exception as caught:  # a closed or broken input: the loop says so
                result, error = None, caught
            try:
                loop.call_soon_threadsafe(deliver, result, error)
            except RuntimeError:
                pass  # the loop has closed: the console has left

        threading.Thread(target=work, name="console-input", daemon=True).start()
        return future

    async def read(self) -> str | None:
        """The next line (``""`` at the end of the input), or ``None`` for a line that is not
        UTF-8. A terminal's bytes are decoded here: invalid UTF-8 is a line the console cannot
        read, not an error later."""
        if self._future is None:
            self._future = self._start()
        raw = await asyncio.shield(self._future)
        self._future = None
        if isinstance(raw, bytes):
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                return None
        try:
            raw.encode("utf-8")  # a text stream decoded with surrogateescape keeps bad bytes so
        except UnicodeEncodeError:
            return None
        return raw
