"""The one renderer: a :class:`~geniusbot.words.message.Message` made into text for a language.

English is the templates themselves. Another language's words come from a gettext catalogue,
``<package>/locales/<language>/LC_MESSAGES/<package>.po`` for the message's domain (geniusbot's
own, or a plug-in's package), read once with Babel; a message it lacks stays English. The plural
form is chosen by the catalogue's own ``Plural-Forms`` rule. :data:`PSEUDO` is the pseudo-language
that localisation teams use to find hard-coded text: every message accented and bracketed
(``⟦Ṕ2 ŕáñ óúţ óƒ ţíḿé⟧``), so that a line with words outside the brackets did not come from here.
"""

from __future__ import annotations

import functools
import gettext
import importlib.util
import io
import logging
import re
from collections.abc import Mapping
from pathlib import Path

from .message import Argument, Listing, Message, Seat, Verbatim, fields, say_c

log = logging.getLogger(__name__)

#: The source language: the templates as written.
ENGLISH = "en"
#: The pseudo-language (the code Windows gives its own): every message accented and bracketed.
PSEUDO = "qps"

_ACCENTED = str.maketrans(
    "abcdefghijklmnoprstuvwyzABCDEFGHIJKLMNOPRSTUVWYZ",
    "áƀçđéƒĝĥíĵķĺḿñóṕŕśţúṽŵýźÁƁÇĐÉƑĜĤÍĴĶĹḾÑÓṔŔŚŢÚṼŴÝŹ",
)
_FIELD = re.compile(r"(\{[^{}]*\})")
#: What joins the phrases of a list (a language's own, from its catalogue).
_SEPARATOR = say_c("list separator", ", ")


#: What each remembering :class:`Words` (a card's: ``remember=True``) said of each message lately,
#: by identity (``say`` hands out the same message for the same parts, and a picture says the same
#: labels on every move): the words and the message are kept with the text, so an id is never taken
#: for another's. One table for every such ``Words``, of at most ``_REMEMBERED`` entries (then it
#: starts again), so memory stays bounded however many matches are drawn at once; the ``Words``
#: made for one sentence remember nothing, so what they say is not held after them.
_SAID: dict[tuple[int, int], tuple[Words, Message, str]] = {}
_REMEMBERED = 8192


class Words:
    """Makes messages into text in ``language`` (``"en"``, ``"ko"``, a Discord locale such as
    ``"en-US"``, or :data:`PSEUDO`), naming the seats by ``names`` (seat -> display name)."""

    def __init__(
        self, language: str = ENGLISH, names: Mapping[str, str] | None = None, *, remember: bool = False
    ) -> None:
        self.language = language
        self.names = spoken_names(names or {})
        # English is the templates themselves: no catalogue to look in (a picture says some
        # thirty messages, so the look-up is skipped rather than cached).
        self._source = languages(language)[-1] == ENGLISH
        self._remember = remember

    def __call__(self, message: Message) -> str:
        if not self._remember:
            return self._say(message)
        key = (id(self), id(message))
        known = _SAID.get(key)
        if known is not None and known[0] is self and known[1] is message:
            return known[2]
        said = self._say(message)
        if len(_SAID) >= _REMEMBERED:
            _SAID.clear()
        _SAID[key] = (self, message, said)
        return said

    def _say(self, message: Message) -> str:
        template = self._template(message)
        if not message.args and "{" not in template:
            return template  # nothing to fill in (and no brace to unescape)
        values = {name: self._argument(value) for name, value in message.args.items()}
        try:
            return template.format_map(values)
        except (KeyError, IndexError, ValueError) as error:
            # A catalogue's template that names a field the message lacks: say it in English.
            log.warning("the %s words of %r do not fit its arguments (%s)", self.language, message.text, error)
            return self._english(message).format_map(values)

    def _argument(self, value: Argument) -> str:
        if isinstance(value, Seat):
            return self.names.get(value.seat, value.seat)
        if isinstance(value, Verbatim):
            return value.text
        if isinstance(value, Message):
            return self(value)
        if isinstance(value, Listing):
            return self(_SEPARATOR).join(self._argument(item) for item in value.items)
        return str(value)

    @staticmethod
    def _english(message: Message) -> str:
        if message.plural is not None and message.count != 1:
            return message.plural
        return message.text

    def _template(self, message: Message) -> str:
        if not message.text:
            return ""  # gettext's "" is the catalogue's header, never a message
        if self._source:
            return message.plural if message.plural is not None and message.count != 1 else message.text
        if self.language == PSEUDO:
            return pseudo(self._english(message))
        translations = catalogue(message.domain, self.language)
        if translations is None:
            return self._english(message)
        if message.plural is not None:
            count = message.count or 0
            if message.context is not None:
                return translations.npgettext(message.context, message.text, message.plural, count)
            return translations.ngettext(message.text, message.plural, count)
        if message.context is not None:
            return translations.pgettext(message.context, message.text)
        return translations.gettext(message.text)


def pseudo(template: str) -> str:
    """``template`` in the pseudo-language: its words accented, its fields as they are, bracketed."""
    return (
        "⟦"
        + "".join(part if _FIELD.fullmatch(part) else part.translate(_ACCENTED) for part in _FIELD.split(template))
        + "⟧"
    )


def unsaid(text: str) -> str:
    """What of ``text`` (said in :data:`PSEUDO`) no message said: the text without its bracketed
    messages, nested ones with them. A test that finds letters here has found words that did not
    come from a catalogue. A bracket that never closes, or closes unopened, raises ``ValueError``."""
    kept: list[str] = []
    depth = 0
    for char in text:
        if char == "⟦":
            depth += 1
        elif char == "⟧":
            if depth == 0:
                raise ValueError(f"a bracket closes that never opened: {text!r}")
            depth -= 1
        elif depth == 0:
            kept.append(char)
    if depth:
        raise ValueError(f"a bracket never closes: {text!r}")
    return "".join(kept)


def spoken_names(names: Mapping[str, str]) -> dict[str, str]:
    """What each seat is called in a sentence: its player's name, or the seat id where it has none.

    A name that reads as another seat's id ("p2" in p1's seat, "P2", "p2 fan"), or one that two
    players share, would make a sentence ambiguous: then every seat is said in the label form
    "alice (p1)", which always says whose it is.
    """
    cleaned = {seat: (name or "").strip() for seat, name in names.items()}
    real = {seat: name for seat, name in cleaned.items() if name and name != seat}
    if not real:
        return {}
    folded = [name.casefold() for name in real.values()]
    seat_words = {seat: re.compile(rf"\b{re.escape(seat.casefold())}\b") for seat in cleaned}
    clash = len(set(folded)) < len(folded) or any(
        other != seat and pattern.search(name.casefold())
        for seat, name in real.items()
        for other, pattern in seat_words.items()
    )
    if clash:
        return {seat: f"{cleaned[seat]} ({seat})" if seat in real else seat for seat in cleaned}
    return {seat: real.get(seat, seat) for seat in cleaned}


def languages(language: str) -> list[str]:
    """The catalogues to look in for ``language``, most particular first: ``"en-US"`` ->
    ``["en_US", "en"]`` (Discord writes a locale with a hyphen, gettext with an underscore)."""
    code = language.replace("-", "_")
    return [code, code.split("_")[0]] if "_" in code else [code]


@functools.lru_cache(maxsize=64)
def catalogue(domain: str, language: str) -> gettext.GNUTranslations | None:
    """The translations of ``domain`` into ``language`` (``None`` for English, or where none is
    installed), read from the domain package's ``locales`` folder once."""
    if languages(language)[-1] == ENGLISH:
        return None
    folder = locales(domain)
    if folder is None:
        return None
    for code in languages(language):
        path = folder / code / "LC_MESSAGES" / f"{domain}.po"
        if path.is_file():
            return read_po(path, code)
    return None


def locales(domain: str) -> Path | None:
    """The ``locales`` folder of the package ``domain``, or ``None``."""
    try:
        spec = importlib.util.find_spec(domain)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        if (Path(root) / "locales").is_dir():
            return Path(root) / "locales"
    return None


def read_po(path: Path, language: str) -> gettext.GNUTranslations:
    """A ``.po`` catalogue as translations (Babel reads it; fuzzy entries are left out, as
    ``msgfmt`` leaves them)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as source:
        catalog = babel_read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def same_fields(english: str, translated: str) -> bool:
    """Whether a translation names exactly the fields of its English template."""
    return fields(english) == fields(translated)
