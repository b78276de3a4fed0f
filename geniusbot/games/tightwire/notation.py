"""Tightwire's notation, shared by its three rule sets: the colours, the items, the event kinds,
the move value and how a typed action is read (``rules`` checks what it names).

Notation (case-insensitive; ``-`` or a space between two dots): ``draw B5-C3``, ``slack B5-C3``,
``extra slack B5-C3`` (each may end in ``and move``: the drawer's piece on one end moves along the
new line to the empty other end), ``move B5-C3`` (along a line, from the end holding your piece),
``revive C3``, ``woven revive C3``; a bare ``B5-C3`` is a move when a line joins the two dots and a
draw otherwise. Draft: ``pick turn order``, ``pick extra slack``, ``pick woven revive``; then the
Turn Order holder writes ``first`` or ``second``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from geniusbot.games.base import Move
from geniusbot.words import Listing, Message, Verbatim, say_c

ORANGE, BLUE = "orange", "blue"
COLOURS: tuple[str, str] = (ORANGE, BLUE)

TURN_ORDER, EXTRA_SLACK, WOVEN_REVIVE = "turn_order", "extra_slack", "woven_revive"
ITEMS: tuple[str, ...] = (TURN_ORDER, EXTRA_SLACK, WOVEN_REVIVE)
ITEM_TITLES: dict[str, str] = {
    TURN_ORDER: "Turn Order",
    EXTRA_SLACK: "Extra Slack Thread",
    WOVEN_REVIVE: "Woven Revive",
}
ITEM_WORDS: dict[str, str] = {TURN_ORDER: "turn order", EXTRA_SLACK: "extra slack", WOVEN_REVIVE: "woven revive"}

#: The colours as a sentence names a player by one ("Orange (p1) draws B5-C3."), words as data.
COLOUR_NAMES: dict[str, Message] = {ORANGE: say_c("colour", "Orange"), BLUE: say_c("colour", "Blue")}
#: The items' titles as a sentence says them (:data:`ITEM_TITLES`, words as data).
ITEM_NAMES: dict[str, Message] = {
    TURN_ORDER: say_c("item", "Turn Order"),
    EXTRA_SLACK: say_c("item", "Extra Slack Thread"),
    WOVEN_REVIVE: say_c("item", "Woven Revive"),
}
# Draft order from the seed ("Violet, Jamie, Violet"): player A is p1.
DRAFT_ORDER: tuple[str, str, str] = ("p1", "p2", "p1")

DRAW_ACTIONS: tuple[str, ...] = ("draw", "slack", "extra_slack")
VERBS = {
    "draw": "draw",
    "slack": "slack",
    "extra_slack": "extra slack",
    "move": "move",
    "revive": "revive",
    "woven_revive": "woven revive",
}


class TightwireEvent(StrEnum):
    """Tightwire's own event kinds, for its three rule sets (a host treats them as :attr:`EventKind.INFO`)."""

    #: The item draft and Turn Order (Threads of Fate): ``data["seat"]`` with the ``item`` picked, or ``first``.
    PHASE = "phase"
    #: An action is played: ``data`` has the ``seat``, the ``move`` as text and the ``path`` of dots it runs on.
    MOVE = "move"
    #: The pieces of one colour are captured: ``data`` has the ``color`` and the ``dots`` they stood on.
    CAPTURE = "capture"


@dataclass(frozen=True)
class TightwireMove(Move):
    """One submission of Tightwire.

    ``action`` is ``draw``, ``slack``, ``extra_slack`` (a line from ``a`` to ``b``; with
    ``and_move`` the drawer's piece goes from ``a`` to ``b`` along it), ``move`` (from ``a`` to
    ``b``), ``revive`` or ``woven_revive`` (onto ``a``), ``pick`` (``choice`` is an item id) or
    ``order`` (``choice`` is ``"first"`` or ``"second"``). A line drawn without a move names its
    dots in alphabetical order, so every action has one canonical form.
    """

    action: str
    a: str | None = None
    b: str | None = None
    and_move: bool = False
    choice: str | None = None

    def text(self) -> str:
        """The canonical notation: ``draw B5-C3 and move``, ``move B5-C3``, ``pick turn order``."""
        if self.action == "pick":
            return f"pick {ITEM_WORDS[self.choice or '']}"
        if self.action == "order":
            return str(self.choice)
        verb = VERBS[self.action]
        if self.action in ("revive", "woven_revive"):
            return f"{verb} {self.a}"
        return f"{verb} {self.a}-{self.b}" + (" and move" if self.and_move else "")


# ------------------------------------------------------------------------------- notation

_DOT = r"([a-z]\d{1,2})"
_PAIR = rf"{_DOT}\s*(?:-|\s|\bto\b)?\s*{_DOT}"
# "slack line" and "slack thread" are how the rule texts name the slack line, so players write them.
RE_DRAW = re.compile(rf"^(?:(draw|slack(?: line| thread)?|extra slack(?: line| thread)?)\s+)?{_PAIR}(\s+and\s+move)?$")
RE_MOVE = re.compile(rf"^move\s+{_PAIR}$")
RE_REVIVE = re.compile(rf"^(revive|woven revive)\s+{_DOT}$")
# An item's first word names it alone ("pick woven"): no two items share one.
RE_PICK = re.compile(r"^(?:pick\s+)?(turn(?: order)?|extra(?: slack(?: thread)?)?|woven(?: revive)?)$")
RE_ORDER = re.compile(r"^(first|second)$")


def normalize(text: str) -> str:
    """Lower case, single spaces, no code quotes or final full stop: how players really type."""
    text = text.replace("`", " ").replace("\u2013", "-").replace("\u2014", "-").lower()
    text = re.sub(r"\s+", " ", text).strip().rstrip(".!").strip()
    # "b 5" -> "b5": a dot split by a space is still one dot.
    return re.sub(r"\b([a-z]) (\d)", r"\1\2", text)


def written(texts: Iterable[str]) -> Listing:
    """Dots, lines or names as they are written (``D2, C3``), a list in a sentence."""
    return Listing(tuple(say_c("written as it is", "{text}", text=Verbatim(text)) for text in texts))


def command(text: str) -> Message:
    """A command to type, quoted as code: `` `pick turn order` ``."""
    return say_c("a command to type", "`{command}`", command=Verbatim(text))


def item_from_words(words: str) -> str:
    if words.startswith("turn"):
        return TURN_ORDER
    if words.startswith("extra"):
        return EXTRA_SLACK
    return WOVEN_REVIVE
