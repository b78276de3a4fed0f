"""Transient database errors: which failures are worth another try, and the loop that retries them.

Transient failures (SQLite "database is locked", a dropped PostgreSQL connection, a restarting
server) are retried a few times with a growing pause; if they persist, :class:`StorageUnavailable`
is raised. Each retry is a warning, except a connection the server refused or a host that was
not found (:func:`is_unreachable`): every try of those says the same, so they are retried
quietly (DEBUG) and the :class:`StorageUnavailable` that may follow says it once (a bot started
with its PostgreSQL down prints its one sentence, not six warnings before it). A write whose COMMIT was cut off mid-way is reported to the next try
(:attr:`RetryState.ambiguous`), which checks whether it landed before redoing it, so an
acknowledged write is never doubled and a lost one is never reported as done.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError

from geniusbot.words import Message, Words

from .errors import CommitUnknown, StorageError, StorageUnavailable, unavailable as unavailable_said

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_RETRIES = 5
DEFAULT_BACKOFF = 0.05
DEFAULT_MAX_BACKOFF = 2.0

# Serialization failure, deadlock, server shutting down or starting, too many connections, and a
# lock not had within its timeout (a row still held by a transaction whose client is gone).
_TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "57P01", "57P02", "57P03", "53300", "55P03"})


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` is worth a retry: a lock, a dropped connection, a restarting server."""
    if isinstance(error, IntegrityError):
        return False
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        text = str(error.orig if error.orig is not None else error).lower()
        if "database is locked" in text or "database table is locked" in text or "busy" in text:
            return True
        orig = error.orig
        sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if sqlstate is None and orig is not None:
            cause = getattr(orig, "__cause__", None)
            sqlstate = getattr(cause, "sqlstate", None)
        if sqlstate and (sqlstate.startswith("08") or sqlstate in _TRANSIENT_SQLSTATES):
            return True
        for name in ("connection", "closed", "terminat", "reset by peer", "broken pipe"):
            if name in text:
                return True
        return isinstance(orig, OSError | ConnectionError)
    return isinstance(error, OSError | ConnectionError | asyncio.TimeoutError)


def is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps) is a connection refused or a host name not found: no
    database answers there at all (as opposed to one that answered, then failed)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ConnectionRefusedError | socket.gaierror):
            return True
        orig = getattr(cause, "orig", None)
        cause = orig if isinstance(orig, BaseException) else (cause.__cause__ or cause.__context__)
    return False


class AmbiguousCommit(Exception):
    """A write's commit failed in a way that leaves unknown whether it landed.

    A try raises it (from the database's error) for :func:`retry_transient` to retry with
    :attr:`RetryState.ambiguous` set.
    """


@dataclass
class RetryState:
    """What :func:`retry_transient` tells each try: ``ambiguous`` is true while an earlier try's
    COMMIT broke and no later try has yet found out whether it landed (the try clears it once
    it has checked)."""

    ambiguous: bool = False


async def retry_transient(
    attempt: Callable[[RetryState], Awaitable[T]],
    *,
    what: Message,
    retries: int = DEFAULT_RETRIES,
    backoff: float = DEFAULT_BACKOFF,
    max_backoff: float = DEFAULT_MAX_BACKOFF,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Call ``attempt`` until it returns, retrying transient failures (:func:`is_transient`).

    Up to ``retries`` retries, pausing ``backoff`` seconds before the first and doubling up to
    ``max_backoff``; then :class:`StorageUnavailable`. Any other error is raised at once, as it
    is. A try whose COMMIT failed raises :class:`AmbiguousCommit`; the next tries see
    ``state.ambiguous`` and check whether it landed before redoing it. When none of them could
    check, the error is :class:`CommitUnknown` (a :class:`StorageUnavailable`).
    """
    doing = Words()(what)  # the log's English
    delay = backoff
    last_error: BaseException | None = None
    state = RetryState()
    for number in range(retries + 1):
        if number:
            await sleep(delay)
            delay = min(delay * 2, max_backoff)
        try:
            return await attempt(state)
        except AmbiguousCommit as error:
            state.ambiguous = True
            last_error = error.__cause__
            log.warning("storage: %s: the commit failed (%s); checking whether it landed", doing, last_error)
        except StorageError:
            raise
        except Exception as error:
            if not is_transient(error):
                raise
            last_error = error
            if number < retries:  # after the last try, the error below says it
                level = logging.DEBUG if is_unreachable(error) else logging.WARNING
                log.log(level, "storage: %s failed on try %d (%s); retrying", doing, number + 1, error)
    # Said plainly when a try's commit broke and no later try could check it: it may have landed,
    # and the caller must find out (CommitUnknown) rather than assume either way.
    unavailable = CommitUnknown if state.ambiguous else StorageUnavailable
    raise unavailable(unavailable_said(what, retries + 1, last_error, ambiguous=state.ambiguous)) from last_error
