"""Keeping matches: the database. (The plain-text match record is :mod:`geniusbot.record`.)

By module:

* :mod:`.store` -- :class:`Store`, the async API the host keeps everything through;
* :mod:`.matches`, :mod:`.timers`, :mod:`.messages`, :mod:`.guilds`, :mod:`.ratings` -- its methods,
  by group of tables;
* :mod:`.transactions` -- the engines and one retried transaction per call, under them all;
* :mod:`.queueing` -- the order queued transactions are let in (a due timer's first);
* :mod:`.values` -- the frozen dataclasses the store takes and returns;
* :mod:`.errors` -- the errors it raises;
* :mod:`.retry` -- which database errors are transient, and the retry loop;
* :mod:`.rows` and :mod:`.statements` -- values into rows and back, and the prebuilt hot writes;
* :mod:`.models` (tables) and :mod:`.db` (engines, migrations).

Code outside this package imports the public names from the package itself
(``from geniusbot.storage import Store, MatchRecord``), not from the module that defines them.

This package stays import-light on purpose: importing it must not pull in SQLAlchemy, so that a
caller that needs only a value or an error (``geniusbot adjudicate``, the tests) loads no database
driver. So the names below are loaded from their modules on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import (
        CommitUnknown,
        DuplicateSubmission,
        MatchNotFound,
        RoomBusy,
        StaleVersion,
        StorageError,
        StorageUnavailable,
    )
    from .imports import ImportedMatch
    from .models import ENDED_STATUSES, UNFINISHED_STATUSES, MatchStatus
    from .queueing import Priority, at_priority, priority
    from .ratings import FirstSeat, RatingPoint, Standing
    from .retry import RetryState, is_transient, retry_transient
    from .store import Store
    from .values import (
        ActionKind,
        ActionRecord,
        Committed,
        GuildConfig,
        MatchRecord,
        NewAction,
        PostedMessage,
        Practice,
        Result,
        SeatInfo,
        TimerRecord,
    )

_MODULE_OF = {
    "MatchStatus": "models",
    "ENDED_STATUSES": "models",
    "UNFINISHED_STATUSES": "models",
    "CommitUnknown": "errors",
    "DuplicateSubmission": "errors",
    "MatchNotFound": "errors",
    "RoomBusy": "errors",
    "StaleVersion": "errors",
    "StorageError": "errors",
    "StorageUnavailable": "errors",
    "ActionKind": "values",
    "ActionRecord": "values",
    "Committed": "values",
    "GuildConfig": "values",
    "ImportedMatch": "imports",
    "MatchRecord": "values",
    "NewAction": "values",
    "PostedMessage": "values",
    "Practice": "values",
    "Result": "values",
    "SeatInfo": "values",
    "TimerRecord": "values",
    "Priority": "queueing",
    "at_priority": "queueing",
    "priority": "queueing",
    "RetryState": "retry",
    "is_transient": "retry",
    "retry_transient": "retry",
    "Store": "store",
    "FirstSeat": "ratings",
    "RatingPoint": "ratings",
    "Standing": "ratings",
}
"""Where each public name is defined."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for (PEP 562)."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next lookup finds it directly
    return value


def __dir__() -> list[str]:
    """The module's names, the public ones not yet loaded included."""
    return sorted(set(globals()) | set(_MODULE_OF))


__all__ = [
    "ENDED_STATUSES",
    "UNFINISHED_STATUSES",
    "ActionKind",
    "ActionRecord",
    "CommitUnknown",
    "Committed",
    "DuplicateSubmission",
    "FirstSeat",
    "GuildConfig",
    "ImportedMatch",
    "MatchNotFound",
    "MatchRecord",
    "MatchStatus",
    "NewAction",
    "PostedMessage",
    "Practice",
    "Priority",
    "RatingPoint",
    "Result",
    "RetryState",
    "RoomBusy",
    "SeatInfo",
    "StaleVersion",
    "Standing",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "TimerRecord",
    "at_priority",
    "is_transient",
    "priority",
    "retry_transient",
]
