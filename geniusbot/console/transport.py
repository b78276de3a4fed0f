"""The console's transport: what ``geniusbot play`` prints for the room and each seat, and
its source of time (the system clock, or a test's time file)."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from geniusbot.host.transport import Player, TextBoard
from geniusbot.words import Message, Verbatim, Words, say

TIME_FILE_ENV = "GENIUSBOT_TEST_TIME_FILE"


#: Markdown's inline code (`draw B5-C3`), which a Discord room shows as code and a terminal would
#: print with its backticks.
_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def plain(text: str) -> str:
    """``text`` as a terminal prints it: inline code in quotes ('draw B5-C3'), bold plain."""
    text = text.replace("**", "")
    return _INLINE_CODE.sub(r"'\1'", text) if "`" in text else text


class FileTime:
    """Test-only time source: the epoch seconds written in a file, re-read at every call."""

    def __init__(self, path: str | Path, poll: float = 0.01) -> None:
        self.path = Path(path)
        self.poll = poll

    def seconds(self) -> float:
        """The time in the file, as epoch seconds."""
        for _ in range(100):
            text = self.path.read_text().strip()
            if text:  # a writer may be half-way through replacing it
                return float(text)
        raise RuntimeError(f"the time file {self.path} is empty")

    def now(self) -> datetime:
        """The time in the file, as an aware datetime."""
        return datetime.fromtimestamp(self.seconds(), UTC)

    async def sleep_until(self, when: datetime) -> None:
        """Wait until the file says ``when`` has come."""
        while self.now() < when:
            await asyncio.sleep(self.poll)


class ConsoleTransport:
    """Prints the room to ``out``; private messages are marked; pictures are saved as files."""

    #: Commands are typed as they are named: "resume".
    command_prefix = ""
    #: Every host command can be typed here.
    commands: frozenset[str] | None = None

    #: A resumed match's first line names the match: there is no bot that was away.
    bot_returns = False

    #: The last message id handed out in this process, by any console.
    _last = 0

    def __init__(self, out: IO[str], boards_dir: Path | None, words: Words | None = None) -> None:
        self.out = out
        self.boards_dir = boards_dir
        #: The console's own words (a private line's mark, a saved picture, a deletion), in its language.
        self.words = words or Words()
        # Message ids outlive the process: the store keeps them (a board to delete when a window
        # closes, even in a later run). Each id is the microsecond it was made, or one more than
        # the last this process handed out (whichever console made it), so that no two runs of
        # the console share one; the saved pictures are numbered 1, 2, ... in each run.
        self._saved = 0
        # The first line of each message printed, by id: a deletion or an edit names the message by it.
        self._heads: dict[int, str] = {}
        #: Whether ``out`` was found closed by its reader.
        self.closed = False

    def _id(self, text: str = "", key: str | None = None) -> int:
        if key is not None:
            # A keyed message's id is its key's, so that a later run finds it by the key alone
            # (see find_posted); negative, apart from the numbered ones.
            message_id = _keyed_id(key)
        else:
            message_id = ConsoleTransport._last = max(ConsoleTransport._last + 1, time.time_ns() // 1000)
        self._heads[message_id] = text.strip().split("\n", 1)[0]
        return message_id

    def _named(self, message_id: int) -> Message:
        if message_id not in self._heads:
            return say("a message from an earlier run")
        head = self._heads[message_id]
        return say("the message {head}", head=Verbatim(repr(head))) if head else say("a message")

    def _save(self, png: bytes, filename: str) -> Path | None:
        if self.boards_dir is None:
            return None
        self._saved += 1
        self.boards_dir.mkdir(parents=True, exist_ok=True)
        path = self.boards_dir / f"{Path(filename).stem}-{self._saved:04d}.png"  # names sort as saved
        path.write_bytes(png)
        return path

    def _print(self, text: str) -> None:
        try:
            print(plain(text), file=self.out, flush=True)
        except BrokenPipeError:
            # The terminal's reader went away (`| head`): not the host's fault, so not raised into
            # it (which would log it as a bug); the console's own next line meets the same closed
            # pipe outside the host, and the launcher stops there quietly.
            self.closed = True

    async def post(self, room: int | None, text: str, *, key: str | None = None) -> int:
        """Print a room message."""
        self._print(text)
        return self._id(text, key)

    async def post_board(self, room: int | None, board: TextBoard, *, key: str | None = None) -> int:
        """Print a text board with the lines around it, as one room message."""
        return await self.post(room, board.text, key=key)

    async def post_picture(
        self,
        room: int | None,
        png: bytes,
        *,
        filename: str,
        text: str = "",
        alt: str = "",
        key: str | None = None,
        ping: Sequence[Player] = (),
    ) -> int:
        """Print the caption, then save the picture (if a folder is set) and print where it went:
        the caption reads first (a match's heading opens the terminal), the text board follows
        (so ``alt``, the picture in words, is said there already). A terminal pings nobody: the
        players sit at it."""
        mid = self._id(text or self.words(say("the board picture")), key)
        if text:
            self._print(text)
        path = self._save(png, filename)
        if path is not None:
            self._print(self.words(say("(board saved to {path})", path=Verbatim(str(path)))))
        return mid

    async def find_posted(self, room: int | None, key: str) -> int | None:
        """The message posted with ``key``, in this run or an earlier one. A terminal cannot be
        read back, so the console cannot tell a line it printed before a crash from one it never
        got to: it names the message either way, and its deletion says so at worst once too often."""
        return _keyed_id(key)

    async def delete(self, room: int | None, message_id: int) -> None:
        """Say that a message is gone, named by its first line (a terminal cannot take it back)."""
        self._print(self.words(say("(deleted: {message})", message=self._named(message_id))))

    async def send_private(self, player: Player, text: str) -> int:
        """Print a private message, marked with its addressee."""
        self._print(self._to(player, text))
        return self._id()

    def _to(self, player: Player, text: str) -> str:
        """A private line, marked with its addressee: ``[to p1 only] ...``."""
        return self.words(say("[to {seat} only] {text}", seat=Verbatim(player.seat), text=Verbatim(text)))

    async def send_private_board(self, player: Player, board: TextBoard) -> int:
        """Print a private text board with the lines around it, marked with its addressee."""
        return await self.send_private(player, board.text)

    async def send_private_picture(self, player: Player, png: bytes, *, filename: str, text: str = "") -> int:
        """Save a private picture (if a folder is set) and print its caption, marked with its addressee."""
        mid = self._id()
        path = self._save(png, filename)
        if path is not None:
            text = self.words(say("{text} (saved to {path})", text=Verbatim(text), path=Verbatim(str(path)))).strip()
        self._print(self._to(player, text).rstrip())
        return mid


def _keyed_id(key: str) -> int:
    """The console's id of the message posted with ``key``: the same in every run."""
    return -int.from_bytes(hashlib.blake2b(key.encode(), digest_size=7).digest(), "big") - 1
