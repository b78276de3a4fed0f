"""What the public entry points of the match host's parts share: none raises.

:func:`never_raises` wraps each input of the host (:meth:`.actions.Actions.start_match`,
:meth:`.actions.Actions.submit`, :meth:`.commands.Commands.command`, the routing's inputs,
:meth:`.match.Host.show_board`): a bug is logged and answered, never raised into the loop, and a
match that the input ended is let go from the live-match cache of the part (an :class:`Entry`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from geniusbot.storage.errors import StorageFault
from geniusbot.words import Words

from .live import Reply, ReplyStatus

if TYPE_CHECKING:
    from .cache import MatchCache

log = logging.getLogger(__name__)


class Entry(Protocol):
    """A part with public entry points: it holds the host's live-match cache."""

    @property
    def cache(self) -> MatchCache: ...


_P = ParamSpec("_P")
_H = TypeVar("_H", bound=Entry)


def never_raises(
    method: Callable[Concatenate[_H, _P], Coroutine[Any, Any, Reply]],
) -> Callable[Concatenate[_H, _P], Coroutine[Any, Any, Reply]]:
    """A public entry point answers every input; a bug is logged, never raised into the loop."""

    async def wrapper(self: _H, /, *args: _P.args, **kwargs: _P.kwargs) -> Reply:
        try:
            reply = await method(self, *args, **kwargs)
        except asyncio.CancelledError:
            raise
        except StorageFault as fault:
            # The database's disk is full, or its file read-only or damaged: no bug, and the same
            # for every input until someone mends it, so one line (no traceback) and the reason.
            log.error("host: %s: %s", method.__name__, fault)
            return Reply(ReplyStatus.UNAVAILABLE, Words(self.cache.language)(fault.told()))
        except Exception:
            log.exception("host: %s%r failed", method.__name__, args)
            return Reply(
                ReplyStatus.ERROR, "Something went wrong on the bot's side; nothing changed. Try again in a moment."
            )
        if reply.match_id is not None:
            self.cache.let_go(reply.match_id)  # its end (if this was it) is announced by now
        return reply

    functools.update_wrapper(wrapper, method)  # its name and docstring; its type stays the method's
    return wrapper
