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
    "other_seat",
    "register",
    "registry",
    "get_game",
    "new_game",
    "load",
]

_REGISTRY: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}
_discovered = False

G = TypeVar("G", bound=type[Game])


def register(*aliases: str):
    """Class decorator: make a game known by its ``name`` (and any aliases)."""

    def decorate(cls: G) -> G:
        _REGISTRY[cls.name] = cls
        for alias in aliases:
            _ALIASES[alias.lower()] = cls.name
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
    key = name.strip().lower().replace(" ", "").replace("-", "").replace("'", "")
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise OptionError(
            f"There is no game called {name!r}; choose one of: {', '.join(sorted(_REGISTRY))}."
        ) from None


def new_game(name: str, *, seed: int = 0, variant: str | None = None, **options: str) -> Game:
    """A new game of the named kind."""
    return get_game(name).new(seed=seed, variant=variant, **options)


def load(data: Mapping[str, Any]) -> Game:
    """Rebuild any game from :meth:`Game.to_dict`."""
    return get_game(str(data["game"])).from_dict(data)
