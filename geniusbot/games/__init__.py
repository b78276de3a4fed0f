"""The rules of every game geniusbot hosts: standard library only, no I/O, no clocks.

Each game module registers its :class:`~geniusbot.games.base.Game` subclass with
:func:`register`; every module in this package is imported on first use of the registry, so a new
game needs no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any, TypeVar

from .base import (
    SEATS,
    AmbiguousMoveError,
    Event,
    Game,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    OptionError,
    Outcome,
    Window,
    notation_words,
    other_seat,
)

__all__ = [
    "SEATS",
    "AmbiguousMoveError",
    "Event",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MalformedMoveError",
    "Move",
    "NotYourTurnError",
    "OptionError",
    "Outcome",
    "Window",
    "default_variant",
    "get_game",
    "load",
    "new_game",
    "notation_words",
    "other_seat",
    "register",
    "registry",
]

_REGISTRY: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}
_VARIANT_ALIASES: dict[str, str] = {}
_discovered = False

G = TypeVar("G", bound=type[Game])


def register(*aliases: str, variant_aliases: Mapping[str, str] | None = None):
    """Class decorator: make a game known by its ``name`` (and any aliases).

    ``variant_aliases`` names a rule set by a name of its own (``"threadsoffate"`` -> ``"fate"``):
    :func:`new_game` called with such a name and no variant plays that rule set.
    """

    def decorate(cls: G) -> G:
        _REGISTRY[cls.name] = cls
        for alias in aliases:
            _ALIASES[_key(alias)] = cls.name
        for alias, variant in (variant_aliases or {}).items():
            _ALIASES[_key(alias)] = cls.name
            _VARIANT_ALIASES[_key(alias)] = variant
        return cls

    return decorate


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_") and module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")


def registry() -> dict[str, type[Game]]:
    """Every registered game by name, sorted by name."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def get_game(name: str) -> type[Game]:
    """The game class called ``name`` (case and spaces, hyphens ignored), or :class:`OptionError`."""
    _discover()
    key = _key(name)
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise OptionError(f"There is no game called {name!r}; choose one of: {', '.join(sorted(_REGISTRY))}.") from None


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "").replace("-", "").replace("_", "").replace("'", "")


def default_variant(name: str) -> str | None:
    """The rule set a name implies (``"threadsoffate"`` -> ``"fate"``), or ``None``."""
    _discover()
    return _VARIANT_ALIASES.get(_key(name))


def new_game(name: str, *, seed: int = 0, variant: str | None = None, **options: str) -> Game:
    """A new game of the named kind (a rule set's own name picks that rule set)."""
    return get_game(name).new(seed=seed, variant=variant or default_variant(name), **options)


def load(data: Mapping[str, Any]) -> Game:
    """Rebuild any game from :meth:`Game.to_dict`."""
    return get_game(str(data["game"])).from_dict(data)
