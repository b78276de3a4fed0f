"""Reading a record file: at most :data:`MAX_RECORD_BYTES` (and one byte more) from a file or
standard input, as UTF-8 text, or :class:`RecordUnreadable` with the message that says why not."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from geniusbot.words import Message, Verbatim, Words, say

#: The largest record file a command reads (``adjudicate``, ``import``, ``replay``, ``/import``):
#: 1 MiB (a long match's record is a few tens of kilobytes).
#: :func:`read_record_bytes` reads at most one byte more, so a larger file costs no more to refuse.
MAX_RECORD_BYTES = 1024 * 1024

_ENGLISH = Words()


class RecordUnreadable(Exception):
    """A record file that cannot be read as text: missing, unreadable, over :data:`MAX_RECORD_BYTES`
    or not UTF-8. ``said`` is the message that says which and what to do; ``str(error)`` its English."""

    def __init__(self, message: str | Message = "", *args: object) -> None:
        self.said: Message = message if isinstance(message, Message) else Message("{text}", {"text": Verbatim(message)})
        super().__init__(_ENGLISH(message) if isinstance(message, Message) else message, *args)


class RecordName(str):
    """How a sentence names a record file: its English (``"the file 'x.txt'"``, ``"standard
    input"``, a file's own name), carrying the message that says it mid-sentence (:attr:`said`)
    and at a sentence's start (:attr:`start`)."""

    said: Message
    start: Message

    def __new__(cls, said: Message, start: Message | None = None) -> RecordName:
        name = super().__new__(cls, _ENGLISH(said))
        name.said = said
        name.start = start if start is not None else said
        return name

    @classmethod
    def of(cls, what: str) -> RecordName:
        """``what`` as a record's name: itself when it is one, else a file's own name (or an
        English phrase of an older caller) as it is, capitalised at a sentence's start when it
        is a phrase of ours ("the file 'x.txt'")."""
        if isinstance(what, RecordName):
            return what
        return cls(_verbatim(what), _verbatim(_capital(what)))


def _verbatim(text: str) -> Message:
    return Message("{name}", {"name": Verbatim(text)})


#: Standard input, as a sentence names it.
STANDARD_INPUT = RecordName(say("standard input"), say("Standard input"))
#: A record whose file has no name to give.
THE_RECORD = RecordName(say("the record"), say("The record"))


def file_named(file: str) -> RecordName:
    """The file ``file``, as a sentence names it: ``the file 'x.txt'``."""
    return RecordName(
        say("the file {file}", file=Verbatim(repr(file))), say("The file {file}", file=Verbatim(repr(file)))
    )


def _capital(what: str) -> str:
    """``what`` at the start of a sentence: a phrase of ours ("the file 'x.txt'", "standard
    input") capitalised, a file's own name ("latin.txt") as it is."""
    return what[:1].upper() + what[1:] if what.startswith(("the ", "standard ")) else what


def _too_large(what: RecordName, size: int | None) -> RecordUnreadable:
    most = MAX_RECORD_BYTES // 1024
    if size is None:
        return RecordUnreadable(
            say(
                "{what} holds more than {most} KiB; a record file may be at most {most} KiB (1 MiB). "
                "Give the record of one match.",
                what=what.start,
                most=most,
            )
        )
    if size < 10 * 2**20:
        return RecordUnreadable(
            say(
                "{what} is {size} KiB; a record file may be at most {most} KiB (1 MiB). Give the record of one match.",
                what=what.start,
                size=size // 1024,
                most=most,
            )
        )
    return RecordUnreadable(
        say(
            "{what} is {size} MiB; a record file may be at most {most} KiB (1 MiB). Give the record of one match.",
            what=what.start,
            size=Verbatim(f"{size // 2**20:,}"),
            most=most,
        )
    )


#: The standard input read last and what it held: a stream is read once, so a command that reads
#: its record from ``-`` twice (``replay - --html OUT --review``: the review, then the page) is
#: given the same bytes the second time.
_read_in: tuple[object, bytes] | None = None


def read_record_bytes(file: str, *, stdin: BinaryIO | None = None) -> tuple[bytes, RecordName]:
    """The bytes of the record file ``file`` (``-``: standard input, or ``stdin``) and how a
    sentence names it ("the file 'x.txt'", "standard input"). At most :data:`MAX_RECORD_BYTES`
    and one more are read, whatever the file's size; :class:`RecordUnreadable` for a file that
    cannot be read or is larger."""
    if file == "-":
        what = STANDARD_INPUT
        stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        source = stream if stream is not None else sys.stdin
        global _read_in
        if _read_in is not None and _read_in[0] is source:
            data = _read_in[1]  # read already: a command that reads its record twice reads the same
        else:
            try:
                if stream is None:  # a text stream with no bytes under it (a test's): its characters as UTF-8
                    data = sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "surrogateescape")
                else:
                    data = stream.read(MAX_RECORD_BYTES + 1)
            except OSError as error:
                raise RecordUnreadable(
                    say("cannot read standard input: {error}.", error=Verbatim(error.strerror or str(error)))
                ) from None
            _read_in = (source, data)
        if len(data) > MAX_RECORD_BYTES:
            raise _too_large(what, None)
        return data, what
    what = file_named(file)
    try:
        with open(file, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
            size = os.fstat(handle.fileno()).st_size if len(data) > MAX_RECORD_BYTES else 0
    except OSError as error:
        raise RecordUnreadable(
            say(
                "cannot read {file}: {error}.",
                file=Verbatim(repr(file)),
                error=Verbatim(error.strerror or str(error)),  # the system's own words
            )
        ) from None
    if len(data) > MAX_RECORD_BYTES:
        raise _too_large(what, size if size > MAX_RECORD_BYTES else None)  # a pipe or device has no size
    return data, what


def record_text(data: bytes, what: str = THE_RECORD, *, again: Message | None = None) -> str:
    """The text of a record file's bytes, or :class:`RecordUnreadable` (over :data:`MAX_RECORD_BYTES`,
    not UTF-8); ``what`` names the file in the sentence (a :class:`RecordName`, or a file's own
    name), ``again`` is what to do once it is saved as UTF-8 (default "try again")."""
    name = RecordName.of(what)
    if len(data) > MAX_RECORD_BYTES:
        raise _too_large(name, len(data))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordUnreadable(
            say(
                "{what} is not UTF-8 text; save it as UTF-8 (plain text) and {again}.",
                what=name.start,
                again=again if again is not None else say("try again"),
            )
        ) from None


def read_record(file: str, *, stdin: BinaryIO | None = None) -> tuple[str, RecordName]:
    """The text of the record file ``file`` (``-``: standard input) and how a sentence names it:
    :func:`read_record_bytes`, then :func:`record_text`."""
    data, what = read_record_bytes(file, stdin=stdin)
    return record_text(data, what), what
