"""The console's input, a line at a time: read so that a Ctrl-C never waits for one, decoded
so that bytes that are not UTF-8 are a line it cannot read, and quoted back cut."""

from __future__ import annotations

import asyncio
import threading
from typing import IO, Any

#: The longest line the console reads (a Discord message holds at most 2,000 characters); a
#: longer one is refused unread, and a line quoted back is cut at :data:`QUOTED` characters.
MAX_LINE = 2000
QUOTED = 60

UNREADABLE = "That line is not UTF-8 text, so it cannot be read; nothing was taken. Type it again."


def quoted(text: str) -> str:
    """``text`` quoted back to the typist, cut at :data:`QUOTED` characters (and saying so)."""
    if len(text) <= QUOTED:
        return repr(text)
    return f"{text[:QUOTED]!r}... ({len(text):,} characters, cut here)"


async def read_line(stdin: IO[str]) -> str | None:
    """The next line of ``stdin`` (``""`` at its end), or ``None`` for a line that is not UTF-8.

    It is read in a daemon thread of its own, so that a Ctrl-C (which cancels the waiting
    coroutine) never waits for the line, nor keeps the process alive for one. A terminal's bytes
    are decoded here: invalid UTF-8 is a line the console cannot read, not an error later.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | bytes] = loop.create_future()
    source: Any = getattr(stdin, "buffer", None) or stdin

    def deliver(result: str | bytes | None, error: BaseException | None) -> None:
        if future.done():
            return  # nobody waits any more (Ctrl-C)
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or "")

    def work() -> None:
        try:
            result, error = source.readline(), None
        except Exception as caught:  # a closed or broken input: the loop says so
            result, error = None, caught
        try:
            loop.call_soon_threadsafe(deliver, result, error)
        except RuntimeError:
            pass  # the loop has closed: the console has left

    threading.Thread(target=work, name="console-input", daemon=True).start()
    raw = await future
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
