"""The store's errors: what a caller of :class:`~geniusbot.storage.store.Store` may catch.

Each error is words as data (as a game's refusal is, :class:`geniusbot.games.GameError`): its
``said`` is the message a person reads, which the caller says in its own language with its
:class:`~geniusbot.words.Words`; ``str(error)`` is its English (what the log keeps).

Standard library and the words only (the database's own error is named for type checkers
alone), so a caller can name these without loading SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geniusbot.words import Message, Verbatim, Words, say

if TYPE_CHECKING:
    from sqlalchemy.exc import IntegrityError

_ENGLISH = Words()


class StorageError(Exception):
    """Base of the store's errors: ``said`` is what it says (a message), ``str(error)`` its English.

    Made of a plain string (a test's, or an error whose words are not yet data), ``said`` says
    that string as it is.
    """

    def __init__(self, message: str | Message = "", *args: object) -> None:
        self.said: Message = message if isinstance(message, Message) else Message("{text}", {"text": Verbatim(message)})
        super().__init__(_ENGLISH(message) if isinstance(message, Message) else message, *args)


class MatchNotFound(StorageError, LookupError):
    """No match has that id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(say("There is no match #{id}; check the match number and try again.", id=match_id))
        self.match_id = match_id


class StaleVersion(StorageError):
    """Another writer committed to the match since the caller read it; nothing was written.

    The caller reloads the match (:meth:`Store.get_match`) and decides again.
    """

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(
            say(
                "Match #{id} changed while this action was being decided "
                "(expected version {expected}, found {actual}); reload it and try again.",
                id=match_id,
                expected=expected,
                actual=actual,
            )
        )
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class RoomBusy(StorageError):
    """The game room already holds an unfinished (live or paused) match."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(
            say("A match is already running in this room; finish or abort it first, or use another game room.")
        )
        self.channel_id = channel_id


class StorageUnavailable(StorageError):
    """The database could not be reached (or stayed locked) after several tries."""


def unavailable(what: Message, tries: int, error: BaseException | None, *, ambiguous: bool = False) -> Message:
    """What :class:`StorageUnavailable` says: ``what`` failed ``tries`` times with ``error`` (the
    driver's own words, as they are), and, when a try's commit broke unanswered (``ambiguous``),
    that the last try may have been saved."""
    if ambiguous:
        return say(
            "The database is unavailable ({what} failed {tries} times: {error}) (the last try may have been saved; "
            "reload before retrying); check that it is running and not locked by another program, then try again.",
            what=what,
            tries=tries,
            error=Verbatim(str(error)),
        )
    return say(
        "The database is unavailable ({what} failed {tries} times: {error}); check that it is running and not "
        "locked by another program, then try again.",
        what=what,
        tries=tries,
        error=Verbatim(str(error)),
    )


class CommitUnknown(StorageUnavailable):
    """A write's COMMIT was sent but its answer never came, and the database stayed away past the
    retries: the write may have landed or not. A caller that gave the write a submission key
    finds out later with :meth:`Store.find_submission`; it must not say either way meanwhile."""


class StorageFault(StorageUnavailable):
    """The database refused the work for a cause retrying does not cure: its disk is full, its
    file is read-only, or its file is damaged. Nothing of the work was written.

    ``said`` (and ``str(fault)``, its English) says the cause and what to do, for whoever runs the
    bot (the log, the command line, the console); :meth:`told` says it to a player, who can only
    ask them. ``cause`` is ``"full"``, ``"read-only"`` or ``"damaged"``.
    """

    def __init__(self, cause: str, detail: str = "") -> None:
        said = fault_said(cause)
        super().__init__(
            say("{fault} (The database said: {detail}.)", fault=said, detail=Verbatim(detail)) if detail else said
        )
        self.cause = cause
        self.detail = detail

    def told(self, undone: Message | None = None) -> Message:
        """What a player is told: ``undone`` ("That move was not taken"; "That was not done" by
        default) and why, and to ask the bot's host (only they can free the disk or mend the file)."""
        return say(
            "{undone}: {why}. Ask whoever runs the bot to fix it, then try again.",
            undone=undone or say("That was not done"),
            why=fault_told(self.cause),
        )


def fault_said(cause: str) -> Message:
    """For whoever runs the bot: the cause of a :class:`StorageFault` and what to do."""
    if cause == "full":
        return say(
            "The disk that holds the bot's database is full, so nothing more can be saved; free some "
            "space on it, then try again."
        )
    if cause == "read-only":
        return say(
            "The bot's database cannot be written: the database file, or its folder, is read-only "
            "for the bot; let the bot's user write to both (or give a database it may write), then try again."
        )
    if cause == "damaged":
        return say(
            "The bot's database file is damaged; restore it from a backup (or move it aside to start "
            "with an empty one), then try again."
        )
    raise KeyError(cause)


def fault_told(cause: str) -> Message:
    """For a player: what is wrong, in their words."""
    if cause == "full":
        return say("the bot's disk is full")
    if cause == "read-only":
        return say("the bot may not write its database")
    if cause == "damaged":
        return say("the bot's database is damaged")
    raise KeyError(cause)


#: SQLite's result codes (``sqlite3.Error.sqlite_errorname``) and PostgreSQL's SQLSTATEs of a
#: :class:`StorageFault`, and the words of each in an error's text (a driver that gives no code).
_FAULT_CODES = {
    "SQLITE_FULL": "full",
    "53100": "full",  # disk_full
    "SQLITE_READONLY": "read-only",
    "25006": "read-only",  # read_only_sql_transaction (a server in recovery, a read-only replica)
    "SQLITE_CORRUPT": "damaged",
    "SQLITE_NOTADB": "damaged",
    "XX001": "damaged",  # data_corrupted
    "XX002": "damaged",  # index_corrupted
}
_FAULT_WORDS = {
    "database or disk is full": "full",
    "no space left on device": "full",
    "attempt to write a readonly database": "read-only",
    "database disk image is malformed": "damaged",
    "file is not a database": "damaged",
}


def storage_fault(error: BaseException) -> StorageFault | None:
    """The :class:`StorageFault` a database error is (a full disk, a read-only or damaged file),
    or ``None`` for any other error. ``error`` is SQLAlchemy's wrapper or the driver's own."""
    orig = getattr(error, "orig", None)
    # The driver's error first (its code, its own words), then what it came from, then the wrapper.
    for link in (orig, getattr(orig, "__cause__", None), error):
        if link is None:
            continue
        code = getattr(link, "sqlite_errorname", None) or getattr(link, "sqlstate", None)
        text = str(link).split("\n", 1)[0]
        cause = _FAULT_CODES.get(str(code)) if code else None
        cause = cause or next((c for words, c in _FAULT_WORDS.items() if words in text.lower()), None)
        if cause is not None:
            return StorageFault(cause, text)
    return None


class DuplicateSubmission(StorageError):
    """The match's log holds a taken action of this submission key already; nothing was written."""

    def __init__(self, match_id: int, key: str, seq: int | None = None) -> None:
        super().__init__(
            say(
                "Match #{id} has taken submission {key} already; it is not taken twice.",
                id=match_id,
                key=Verbatim(repr(key)),
            )
        )
        self.match_id = match_id
        self.key = key
        self.seq = seq


def is_duplicate_key(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing a second taken action of one submission key
    (the unique index on ``actions (match_id, key)``), which :class:`DuplicateSubmission` reports."""
    text = str(error.orig).lower()
    return "uq_actions_match_id_key" in text or "unique constraint failed: actions.match_id, actions.key" in text


def is_room_taken(error: IntegrityError) -> bool:
    """Whether ``error`` is the database refusing a second unfinished match in one game room
    (the partial unique index on ``matches.channel_id``), which :class:`RoomBusy` reports."""
    text = str(error.orig).lower()
    return "uq_matches_channel_id_unfinished" in text or "unique constraint failed: matches.channel_id" in text
