"""The store's errors: what a caller of :class:`~geniusbot.storage.store.Store` may catch.

Standard library only (the database's own error is named for type checkers alone), so a caller
can name these without loading SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.exc import IntegrityError


class StorageError(Exception):
    """Base of the store's errors."""


class MatchNotFound(StorageError, LookupError):
    """No match has that id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no match #{match_id}; check the match number and try again.")
        self.match_id = match_id


class StaleVersion(StorageError):
    """Another writer committed to the match since the caller read it; nothing was written.

    The caller reloads the match (:meth:`Store.get_match`) and decides again.
    """

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"Match #{match_id} changed while this action was being decided "
            f"(expected version {expected}, found {actual}); reload it and try again."
        )
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class RoomBusy(StorageError):
    """The game room already holds an unfinished (live or paused) match."""

    def __init__(self, channel_id: int) -> None:
        super().__init__("A match is already running in this room; finish or abort it first, or use another game room.")
        self.channel_id = channel_id


class StorageUnavailable(StorageError):
    """The database could not be reached (or stayed locked) after several tries."""


class CommitUnknown(StorageUnavailable):
    """A write's COMMIT was sent but its answer never came, and the database stayed away past the
    retries: the write may have landed or not. A caller that gave the write a submission key
    finds out later with :meth:`Store.find_submission`; it must not say either way meanwhile."""


class DuplicateSubmission(StorageError):
    """The match's log holds a taken action of this submission key already; nothing was written."""

    def __init__(self, match_id: int, key: str, seq: int | None = None) -> None:
        super().__init__(f"Match #{match_id} has taken submission {key!r} already; it is not taken twice.")
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
