"""Timed messages: a message the host posts that must be gone at a set time (a memory grid, a
board under a timed window), its deletion made durable before it can exist, and the deletions
themselves (an object of the host's own)."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from geniusbot.storage import PostedMessage, StorageError, TimerRecord

from .arming import DELETE_TIMER, Arming
from .live import LiveMatch, epoch, utc
from .transport import KeyedTransport, TextFinder, TransportError, text_digest

if TYPE_CHECKING:
    from geniusbot.storage import Store

    from .transport import Transport

log = logging.getLogger(__name__)

#: The ``messages`` kind of a message the host deletes at a set time.
TIMED_MESSAGE = "timed"

#: Test-only: the environment variable naming a boundary at which the process kills itself with
#: SIGKILL, written ``boundary`` or ``boundary:n`` (the n-th time it is reached; default the
#: first). The boundaries are those :func:`kill_point` is called with: ``message-intent`` (a timed
#: message's intent is written, nothing posted yet) and ``message-posted`` (it is posted, its id
#: not yet written). The crash tests use it to hit each gap; a bot never sets it.
KILL_AT_ENV = "GENIUSBOT_TEST_KILL_AT"
_reached: dict[str, int] = {}


def kill_point(boundary: str) -> None:
    """Die here, at once and without cleaning up, if :data:`KILL_AT_ENV` names this boundary
    (and this is the time it asks for). A no-op unless that test-only variable is set."""
    wanted = os.environ.get(KILL_AT_ENV)
    if not wanted:
        return
    name, _, nth = wanted.partition(":")
    if name.strip() != boundary:
        return
    _reached[boundary] = _reached.get(boundary, 0) + 1
    if _reached[boundary] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)


def message_key(row_id: int) -> str:
    """The key a timed message is posted with (:class:`~.transport.KeyedTransport`): its row's
    (short: a transport may carry it in a file's name)."""
    return f"m{row_id}"


class TimedMessages:
    """Posting a message to be deleted at a set time, and deleting it then (``now``: the host's
    time source, epoch seconds)."""

    def __init__(self, store: Store, transport: Transport, now: Callable[[], float], arming: Arming) -> None:
        self.store = store
        self.transport = transport
        self.now = now
        self.arming = arming

    async def delete_message(self, timer: TimerRecord) -> None:
        await self.delete_posted(timer.payload.get("channel_id"), int(timer.payload["message_id"]))

    async def delete_posted(self, channel: int | None, message_id: int) -> None:
        try:
            await self.transport.delete(channel, message_id)
        except TransportError as error:
            log.info("deleting message %s: %s (already gone?)", message_id, error)
        await self.store.mark_message_deleted(channel, message_id)

    async def post_timed(
        self, live: LiveMatch, delete_at: float, send: Callable[[str], Awaitable[int]], *, text: str | None = None
    ) -> int | None:
        """Post a message that must be gone at ``delete_at`` (epoch seconds): ``send(key)`` posts it.
        A ``text`` message's intent keeps its digest and the time, so that a transport on which a
        text carries no key can still find it (:class:`~.transport.TextFinder`).

        The deletion is durable before the message can exist: its intent (a ``messages`` row with
        no message id) is written first, then the message is posted (with the intent's key), then
        its id and the deletion's timer row are written in one transaction. A crash in between
        leaves an intent, which the restart settles (:meth:`settle_intent`). If the intent cannot
        be written, nothing is posted: a message whose deletion is not kept must not be shown.
        Raises :class:`TransportError` as the post does.
        """
        try:
            intent = await self.store.add_message(
                live.room,
                None,
                TIMED_MESSAGE,
                match_id=live.id,
                delete_at=utc(delete_at),
                text_digest=None if text is None else text_digest(text),
                intended_at=None if text is None else utc(self.now()),
            )
        except StorageError as error:
            log.warning("match %s: a message to delete later is not posted: %s", live.id, error)
            return None
        kill_point("message-intent")
        try:
            message_id = await send(message_key(intent.id))
        except TransportError:
            await self.settle_intent(intent)  # it may be on show all the same
            raise
        kill_point("message-posted")
        await self.store.fill_message(intent.id, message_id, timer_kind=DELETE_TIMER)
        await self.arming.wake(delete_at)
        return message_id

    async def settle_intent(self, intent: PostedMessage) -> tuple[int, TimerRecord | None] | None:
        """Finish or undo an intent whose post may or may not have happened: a transport that
        can find its messages by key (:class:`~.transport.KeyedTransport`) is asked; the message
        found gets its id and its deletion's timer row (returned with it), else the intent is
        dropped. ``None`` when nothing was found (or the transport could not be asked: the
        intent then stays open, for the next restart)."""
        found: int | None = None
        if isinstance(self.transport, KeyedTransport):
            try:
                if intent.text_digest is not None and isinstance(self.transport, TextFinder):
                    # A text carries no key here: found by its words, posted after its intent.
                    since = epoch(intent.intended_at) if intent.intended_at is not None else 0.0
                    found = await self.transport.find_posted_text(intent.channel_id, intent.text_digest, since)
                else:
                    found = await self.transport.find_posted(intent.channel_id, message_key(intent.id))
            except TransportError as error:
                log.warning("message intent %s: the transport could not be asked: %s", intent.id, error)
                return None
        if found is None:
            await self.store.drop_message(intent.id)
            return None
        return found, await self.store.fill_message(intent.id, found, timer_kind=DELETE_TIMER)
