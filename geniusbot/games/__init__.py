"""The rules of every game geniusbot hosts: standard library only, no I/O, no clocks.

Every game is a package (its rules, its picture, its text board) that declares its
:class:`~geniusbot.games.base.Game` subclass under the ``geniusbot.games`` entry-point group; the
built-in games register through the same group in ``pyproject.toml`` as a game installed from
outside. The registry loads them on first use, so a new game needs no edit here: asked for one
game by its entry point's name (``get_game("<name>")``), it loads that one only; asked for any
other name, or for the whole registry, it loads them all.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from geniusbot.words import Verbatim, say

from .base import (
    IN_THE_ROOM,
    SEATS,
    AmbiguousMoveError,
    Event,
    EventKind,
    Game,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotYourTurnError,
    OptionError,
    Outcome,
    Termination,
    Window,
    WrongPlaceError,
    notation_words,
    other_seat,
    typed,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "IN_THE_ROOM",
    "SEATS",
    "AmbiguousMoveError",
    "Event",
    "EventKind",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MalformedMoveError",
    "Move",
    "NotYourTurnError",
    "OptionError",
    "Outcome",
    "Termination",
    "Window",
    "WrongPlaceError",
    "default_variant",
    "get_game",
    "load",
    "new_game",
    "notation_words",
    "other_seat",
    "register",
    "registry",
    "typed",
    "unregister",
]

#: The entry-point group through which every game, built-in or not, is found.
ENTRY_POINT_GROUP = "geniusbot.games"

log = logging.getLogger(__name__)

_REGISTRY: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}
_VARIANT_ALIASES: dict[str, str] = {}
_discovered = False
# The entry points already loaded (or refused), by name: each is loaded once.
_loaded: set[str] = set()


def register(cls: type[Game]) -> type[Game]:
    """Make a game known by its ``name``, its ``aliases`` and the names of its rule sets
    (``variant_aliases``). The entry points do this for every installed game; a test may
    register a game of its own (and :func:`unregister` it)."""
    _REGISTRY[cls.name] = cls
    for alias in cls.aliases:
        _ALIASES[_key(alias)] = cls.name
    for alias, variant in cls.variant_aliases.items():
        _ALIASES[_key(alias)] = cls.name
        _VARIANT_ALIASES[_key(alias)] = variant
    return cls


def unregister(name: str) -> None:
    """Forget the game called ``name`` and its aliases (a test's own game)."""
    _REGISTRY.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        _ALIASES.pop(alias, None)
        _VARIANT_ALIASES.pop(alias, None)


@dataclass(frozen=True)
class GameEntryPoint:
    """One ``geniusbot.games`` entry point: its ``name`` and its ``value`` (``module:Class``)."""

    name: str
    value: str

    def load(self) -> Any:
        """The object the entry point names (its module imported)."""
        module, _, attribute = self.value.partition(":")
        target: Any = importlib.import_module(module.strip())
        for part in filter(None, attribute.strip().split(".")):
            target = getattr(target, part)
        return target


_DIST_INFO = re.compile(r"^([^-]+)(?:-[^/]*)?\.(?:dist|egg)-info$", re.IGNORECASE)


def entry_points_of_group(group: str = ENTRY_POINT_GROUP) -> list[GameEntryPoint]:
    """The entry points of ``group`` of every distribution on ``sys.path``, as
    ``importlib.metadata.entry_points(group=group)`` finds them: each distribution's
    ``entry_points.txt`` in its ``*.dist-info`` (or ``*.egg-info``) folder, the first
    distribution of a name on the path winning. Read directly, it costs a few folder listings
    where ``importlib.metadata`` (and the ``email`` package it imports) cost some 40 ms of every
    start. A path entry that is not a folder (a zip) is left to ``importlib.metadata``."""
    found: list[GameEntryPoint] = []
    seen: set[str] = set()
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.isfile(folder):  # a zip on the path: the full machinery reads it
                from importlib.metadata import entry_points

                return [GameEntryPoint(e.name, e.value) for e in entry_points(group=group)]
            continue
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            match = _DIST_INFO.match(name)
            if match is None:
                continue
            dist = re.sub(r"[-_.]+", "-", match.group(1)).lower()
            if dist in seen:
                continue
            seen.add(dist)
            found.extend(_read_entry_points(os.path.join(folder, name, "entry_points.txt"), group))
    return found


def _read_entry_points(path: str, group: str) -> Iterator[GameEntryPoint]:
    """The entry points of ``group`` in one ``entry_points.txt`` (an INI file: a section per group)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return
    section = None
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        if section != group:
            continue
        name, eq, value = line.partition("=")
        if eq:
            yield GameEntryPoint(name.strip(), value.split("[", 1)[0].strip())


def _discover() -> None:
    """Load every game of the ``geniusbot.games`` entry points (once)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for entry in entry_points_of_group():
        _load_entry(entry)


def _load_entry(entry: GameEntryPoint) -> None:
    """Register the game of one entry point, unless it was loaded before or cannot be."""
    if entry.name in _loaded:
        return
    _loaded.add(entry.name)
    try:
        cls = entry.load()
    except Exception:  # a broken plug-in must not take the other games down with it
        log.exception("the game %r (%s) cannot be loaded; it is left out", entry.name, entry.value)
        return
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        log.error("the entry point %r (%s) is not a Game subclass; it is left out", entry.name, entry.value)
        return
    if cls.name != entry.name:
        log.error("the entry point %r names the game %r; it is left out", entry.name, cls.name)
        return
    register(cls)


def _find(key: str) -> str | None:
    """The registered game ``key`` (a :func:`_key`) names, loading only the entry point of that
    name if it has one; every game only when that does not find it."""
    key = _ALIASES.get(key, key)
    if key in _REGISTRY or _discovered:
        return key if key in _REGISTRY else None
    for entry in entry_points_of_group():
        if _key(entry.name) == key:
            _load_entry(entry)
            break
    if key not in _REGISTRY:  # an alias, a rule set's name, or no game at all
        _discover()
        key = _ALIASES.get(key, key)
    return key if key in _REGISTRY else None


def registry() -> dict[str, type[Game]]:
    """Every registered game by name, sorted by name."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def get_game(name: str) -> type[Game]:
    """The game class called ``name`` (case and spaces, hyphens ignored), or :class:`OptionError`."""
    key = _find(_key(name))
    if key is None:
        _discover()
        raise OptionError(
            say(
                "There is no game called {name}; choose one of: {names}.",
                name=Verbatim(repr(name)),
                names=Verbatim(", ".join(sorted(_REGISTRY))),
            )
        )
    return _REGISTRY[key]


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "").replace("-", "").replace("_", "").replace("'", "")


def default_variant(name: str) -> str | None:
    """The rule set a rule set's own name implies (``Game.variant_aliases``), or ``None``."""
    key = _key(name)
    if key not in _VARIANT_ALIASES:
        _find(key)  # a game's own name implies none; anything else may be a rule set's name
    return _VARIANT_ALIASES.get(key)


def new_game(name: str, *, seed: int = 0, variant: str | None = None, **options: str) -> Game:
    """A new game of the named kind (a rule set's own name picks that rule set)."""
    return get_game(name).new(seed=seed, variant=variant or default_variant(name), **options)


def load(data: Mapping[str, Any]) -> Game:
    """Rebuild any game from :meth:`Game.to_dict`."""
    return get_game(str(data["game"])).from_dict(data)
