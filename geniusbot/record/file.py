"""Reading a record file: at most :data:`MAX_RECORD_BYTES` (and one byte more) from a file or
standard input, as UTF-8 text, or :class:`RecordUnreadable` with the sentence that says why not."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

#: The largest record file a command reads (``adjudicate``, ``import``, ``replay``, ``/import``):
#: 1 MiB (a long match's record is a few tens of kilobytes).
#: :func:`read_record_bytes` reads at most one byte more, so a larger file costs no more to refuse.
MAX_RECORD_BYTES = 1024 * 1024


class RecordUnreadable(Exception):
    """A record file that cannot be read as text: missing, unreadable, over :data:`MAX_RECORD_BYTES`
    or not UTF-8. ``str(error)`` is the sentence that says which and what to do."""


def _capital(what: str) -> str:
    """``what`` at the start of a sentence: a phrase of ours ("the file 'x.txt'", "standard
    input") capitalised, a file's own name ("latin.txt") as it is."""
    return what[:1].upper() + what[1:] if what.startswith(("the ", "standard ")) else what


def _too_large(what: str, size: int | None) -> RecordUnreadable:
    if size is None:
        said = f"holds more than {MAX_RECORD_BYTES // 1024} KiB"
    elif size < 10 * 2**20:
        said = f"is {size // 1024} KiB"
    else:
        said = f"is {size // 2**20:,} MiB"
    return RecordUnreadable(
        f"{_capital(what)} {said}; a record file may be at most {MAX_RECORD_BYTES // 1024} KiB (1 MiB). "
        "Give the record of one match."
    )


def read_record_bytes(file: str, *, stdin: BinaryIO | None = None) -> tuple[bytes, str]:
    """The bytes of the record file ``file`` (``-``: standard input, or ``stdin``) and how a
    sentence names it ("the file 'x.txt'", "standard input"). At most :data:`MAX_RECORD_BYTES`
    and one more are read, whatever the file's size; :class:`RecordUnreadable` for a file that
    cannot be read or is larger."""
    if file == "-":
        what = "standard input"
        stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        try:
            if stream is None:  # a text stream with no bytes under it (a test's): its characters as UTF-8
                data = sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "surrogateescape")
            else:
                data = stream.read(MAX_RECORD_BYTES + 1)
        except OSError as error:
            raise RecordUnreadable(f"cannot read standard input: {error.strerror or error}.") from None
        if len(data) > MAX_RECORD_BYTES:
            raise _too_large(what, None)
        return data, what
    what = f"the file {file!r}"
    try:
        with open(file, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
            size = os.fstat(handle.fileno()).st_size if len(data) > MAX_RECORD_BYTES else 0
    except OSError as error:
        raise RecordUnreadable(f"cannot read {file!r}: {error.strerror or error}.") from None
    if len(data) > MAX_RECORD_BYTES:
        raise _too_large(what, size if size > MAX_RECORD_BYTES else None)  # a pipe or device has no size
    return data, what


def record_text(data: bytes, what: str = "the record", *, again: str = "try again") -> str:
    """The text of a record file's bytes, or :class:`RecordUnreadable` (over :data:`MAX_RECORD_BYTES`,
    not UTF-8); ``what`` names the file in the sentence, ``again`` is what to do once it is saved
    as UTF-8."""
    if len(data) > MAX_RECORD_BYTES:
        raise _too_large(what, len(data))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordUnreadable(
            f"{_capital(what)} is not UTF-8 text; save it as UTF-8 (plain text) and {again}."
        ) from None


def read_record(file: str, *, stdin: BinaryIO | None = None) -> tuple[str, str]:
    """The text of the record file ``file`` (``-``: standard input) and how a sentence names it:
    :func:`read_record_bytes`, then :func:`record_text`."""
    data, what = read_record_bytes(file, stdin=stdin)
    return record_text(data, what), what
