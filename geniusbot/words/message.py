"""A message: what to say as data, never finished words.

A :class:`Message` holds its English template, which is also its id in every catalogue (as
gettext has it: ``msgid``), the plural template where a number picks the form, a context where one
English text means two things, and typed arguments. The words are made from it at the edge, for
one language and one match's players, by :class:`geniusbot.words.Words`.

The arguments are typed, so that nothing English slips into a sentence through them:

========================  ===================================================================
``Seat("p1")``            a seat: the player's name, or the seat id where no name is known
``int``                   a number (the count a plural is chosen by, a score, seconds)
``Verbatim("H8")``        what is written as it is in every language: notation, what a player typed
``Message``               a phrase of its own, made in the same language (a colour, an item's name)
``Listing((m1, m2))``     phrases in a row, joined as the language joins a list (``, `` in English)
========================  ===================================================================

This module is the standard library only: a game's rules build messages too.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias

#: The catalogue domain of geniusbot's own words; a plug-in's messages name its own package.
DOMAIN = "geniusbot"


@dataclass(frozen=True)
class Seat:
    """A seat in a sentence: said as its player's name where the match has one."""

    seat: str


@dataclass(frozen=True)
class Verbatim:
    """Text said as it is in every language: a point (``H8``), a typed line, a command's name."""

    text: str


@dataclass(frozen=True)
class Listing:
    """Phrases in a row (``E3 to E4, F3 to F2``), joined by the language's list separator."""

    items: tuple[Argument, ...]


Argument: TypeAlias = "Seat | Verbatim | int | Message | Listing"


@dataclass(frozen=True, init=False)
class Message:
    """What to say: ``text`` (the English template and the catalogue's id), ``plural`` (the
    plural template; the form is picked by the ``n`` argument), ``context`` (gettext's
    ``msgctxt``, where one English text means two things), ``domain`` (the catalogue: geniusbot's,
    or a plug-in's package) and ``args`` (the values of the ``{name}`` fields)."""

    text: str
    args: Mapping[str, Argument] = field(default_factory=lambda: MappingProxyType({}))
    plural: str | None = None
    context: str | None = None
    domain: str = DOMAIN

    def __init__(
        self,
        text: str,
        args: Mapping[str, Argument] | None = None,
        plural: str | None = None,
        context: str | None = None,
        domain: str = DOMAIN,
    ) -> None:
        # Checked on every message made (a picture makes some thirty), so the common case is
        # quick: the exact types first, a template's fields read once for its argument names.
        args = args or {}
        for name, value in args.items():
            if value.__class__ not in _ARGUMENT_CLASSES and (
                isinstance(value, bool) or not isinstance(value, Seat | Verbatim | int | Message | Listing)
            ):
                raise TypeError(
                    f"argument {name!r} of {text!r} is a {type(value).__name__}; an argument is a "
                    "Seat, a Verbatim, an int, a Message or a Listing (words come from the catalogue, not from arguments)"
                )
        missing = _missing(text, plural, tuple(args))
        if missing:
            raise TypeError(f"{text!r} needs {', '.join(missing)}")
        if plural is not None and (isinstance(args.get("n"), bool) or not isinstance(args.get("n"), int)):
            raise TypeError(f"{text!r} has a plural form: its int argument n picks it")
        # Frozen: the fields are set once, here, past the frozen class's __setattr__.
        self.__dict__.update(
            text=text, args=MappingProxyType(dict(args)), plural=plural, context=context, domain=domain
        )

    def __hash__(self) -> int:
        # Kept once reckoned (a message never changes): a message is a key where it is made again.
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.text, self.plural, self.context, self.domain, tuple(sorted(self.args.items()))))
            self.__dict__["_hash"] = found
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # A game's state is copied and pickled with its outcome's messages; a mapping proxy is not.
        return (Message, (self.text, dict(self.args), self.plural, self.context, self.domain))

    def to_dict(self) -> dict[str, Any]:
        """The message as plain JSON values (a stored outcome keeps it, to be said again in any language)."""
        data: dict[str, Any] = {"text": self.text, "args": {name: _pack(value) for name, value in self.args.items()}}
        if self.plural is not None:
            data["plural"] = self.plural
        if self.context is not None:
            data["context"] = self.context
        if self.domain != DOMAIN:
            data["domain"] = self.domain
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        """The message of :meth:`to_dict`."""
        return cls(
            str(data["text"]),
            {str(name): _unpack(value) for name, value in dict(data.get("args") or {}).items()},
            plural=data.get("plural"),
            context=data.get("context"),
            domain=str(data.get("domain") or DOMAIN),
        )

    def names_seat(self, seat: str) -> bool:
        """Whether the message (or a phrase inside it) names ``seat``: a host that says who won
        need not say it twice."""
        for value in self.args.values():
            if value == Seat(seat) or (isinstance(value, Message) and value.names_seat(seat)):
                return True
            if isinstance(value, Listing) and any(
                item == Seat(seat) or (isinstance(item, Message) and item.names_seat(seat)) for item in value.items
            ):
                return True
        return False

    @property
    def count(self) -> int | None:
        """The number that picks a plural form (``n``), or ``None`` for a message of one form."""
        n = self.args.get("n")
        return n if self.plural is not None and isinstance(n, int) else None


def _pack(value: Argument) -> Any:
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Verbatim):
        return {"verbatim": value.text}
    if isinstance(value, Message):
        return {"message": value.to_dict()}
    if isinstance(value, Listing):
        return {"listing": [_pack(item) for item in value.items]}
    return value


def _unpack(value: Any) -> Argument:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, Mapping):
        if "seat" in value:
            return Seat(str(value["seat"]))
        if "verbatim" in value:
            return Verbatim(str(value["verbatim"]))
        if "message" in value:
            return Message.from_dict(value["message"])
        if "listing" in value:
            return Listing(tuple(_unpack(item) for item in value["listing"]))
    raise ValueError(f"not a message's argument: {value!r}")


def joined(items: Sequence[Argument]) -> Argument:
    """Two or more things said as one ("p1 and p2"): a phrase of the language's "and"."""
    if len(items) == 1:
        return items[0]
    return Message("{first} and {rest}", {"first": items[0], "rest": joined(items[1:])})


def listed(items: Sequence[Argument]) -> Argument:
    """Things in a list whose last two the language's "and" joins ("G8, H8 and I8")."""
    if len(items) == 1:
        return items[0]
    return Message("{items} and {last}", {"items": Listing(tuple(items[:-1])), "last": items[-1]})


#: The classes of an argument as they are (a subclass, or a bool, is checked the long way).
_ARGUMENT_CLASSES = frozenset({Seat, Verbatim, int, Message, Listing})


@functools.lru_cache(maxsize=4096)
def _missing(text: str, plural: str | None, names: tuple[str, ...]) -> tuple[str, ...]:
    """The fields of ``text`` and ``plural`` not among ``names``, sorted (one answer a call site:
    a template is made with the same argument names each time)."""
    wanted = fields(text) | (fields(plural) if plural is not None else frozenset())
    return tuple(sorted(wanted - set(names)))


def fields(template: str) -> frozenset[str]:
    """The names of the ``{name}`` fields of ``template`` (read once a template: a message is made
    on every board drawn)."""
    return _fields(template)


@functools.lru_cache(maxsize=4096)
def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


# The four ways to make a message, one a gettext keyword (the catalogue's template is extracted
# from calls to them: ``pybabel extract -k say -k say_n:1,2 -k say_c:1c,2 -k say_nc:1c,2,3``).


def say(text: str, /, *, domain: str = DOMAIN, **args: Argument) -> Message:
    """A message: ``say("{seat} ran out of time", seat=Seat("p2"))``."""
    return _made(text, None, None, domain, args)


def say_n(singular: str, plural: str, /, *, domain: str = DOMAIN, **args: Argument) -> Message:
    """A message whose form the number ``n`` picks, by the language's plural rules:
    ``say_n("{n} anomaly", "{n} anomalies", n=3)``."""
    return _made(singular, plural, None, domain, args)


def say_c(context: str, text: str, /, *, domain: str = DOMAIN, **args: Argument) -> Message:
    """A message whose English is not enough to translate it: ``say_c("colour", "red")``."""
    return _made(text, None, context, domain, args)


def say_nc(context: str, singular: str, plural: str, /, *, domain: str = DOMAIN, **args: Argument) -> Message:
    """:func:`say_n` with a context."""
    return _made(singular, plural, context, domain, args)


def _made(text: str, plural: str | None, context: str | None, domain: str, args: dict[str, Argument]) -> Message:
    """The message of these parts, the same object each time it is made again while it is among
    the last few thousand made (a picture says the same labels on every move; a message never
    changes, and :class:`~geniusbot.words.Words` remembers what it said of each). Arguments of
    another class (a bool, a float, a subclass) go to :class:`Message` as they are, to be checked
    there: ``True`` and ``1`` are equal keys, never the same argument."""
    for value in args.values():
        if value.__class__ not in _ARGUMENT_CLASSES:
            return Message(text, args, plural=plural, context=context, domain=domain)
    try:
        return _interned(text, plural, context, domain, tuple(args.items()))
    except TypeError:  # an argument that cannot be a key (a Listing of a list): made, not kept
        return Message(text, args, plural=plural, context=context, domain=domain)


@functools.lru_cache(maxsize=8192)
def _interned(
    text: str, plural: str | None, context: str | None, domain: str, items: tuple[tuple[str, Argument], ...]
) -> Message:
    return Message(text, dict(items), plural=plural, context=context, domain=domain)
