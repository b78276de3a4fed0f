"""Boards for the room: the game's picture when it has one, its text board otherwise.

The text board is the console's board and the room's for a game without a picture (or whose
picture failed). It reads only the view it is given, so a public view can never show hidden
information, and it is always prose and diagrams for a person, never JSON. The game gives its
lines as drawings (``str``, said as they are) and messages, which :func:`text_board` says with
the :class:`~geniusbot.words.Words` it is given: the seats are named by the renderer, never by
reading the text.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from geniusbot import pictures
from geniusbot.games import Game, OptionError, get_game
from geniusbot.games.base import BaseView
from geniusbot.words import Listing, Message, Seat, Verbatim, Words, joined, say

log = logging.getLogger(__name__)

# The keys every view carries (BaseView's), which the footer says in words (or the caption does);
# not the phase, which neither says: a game without a text board of its own lists it.
_COMMON_KEYS = BaseView.__required_keys__ - {"phase"}


class Views:
    """The views of one state of a game, each built once (``Game.view`` on first asking): the
    host makes one an action and hands it to everything that shows that state (the room's board
    and picture, each seat's private view, the choice offers), so that none builds it again."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._built: dict[str | None, Mapping[str, Any]] = {}

    def of(self, seat: str | None = None) -> Mapping[str, Any]:
        """``game.view(seat)`` of the state this was made for (``None``: the public view)."""
        if seat not in self._built:
            self._built[seat] = self.game.view(seat)
        return self._built[seat]

    @property
    def public(self) -> Mapping[str, Any]:
        """The public view (the room's)."""
        return self.of(None)


def has_picture(game: str) -> bool:
    """Whether ``game`` has a picture."""
    return pictures.has_renderer(game)


def picture(
    view: Mapping[str, Any],
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> bytes | None:
    """PNG bytes of the view (its words said by ``words``), or ``None`` when the game has no
    picture or drawing it failed."""
    if not has_picture(str(view.get("game"))):
        return None
    try:
        return pictures.render_view(dict(view), words=words, players=players, clocks=clocks, title=title)
    except Exception:  # a broken picture (a plug-in's too) must not stop a match: the text board stands in
        log.exception("drawing %s failed; falling back to text", view.get("game"))
        return None


# --------------------------------------------------------------------------- any other game


def _plain(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    return "none" if value is None else str(value)


def _generic_lines(view: Mapping[str, Any]) -> list[str | Message]:
    """Every other key of a view as ``name: value``, for a game with no board of its own: the
    view's data as it is (its keys and values are the game's data, not words)."""
    return [
        say("{key}: {value}", key=Verbatim(key.replace("_", " ")), value=Verbatim(_plain(value)))
        for key, value in sorted(view.items())
        if key not in _COMMON_KEYS
    ]


def _game(view: Mapping[str, Any]) -> type[Game] | None:
    """The game of ``view``, ``None`` when it is not installed."""
    try:
        return get_game(str(view.get("game")))
    except OptionError:
        return None


def _body(game: type[Game] | None, view: Mapping[str, Any]) -> list[str | Message]:
    """The board itself, without the footer: the game's own text board, or the view's keys."""
    lines = game.text_board(view) if game is not None else None
    return list(lines) if lines is not None else _generic_lines(view)


def described(view: Mapping[str, Any], *, words: Words | None = None) -> str:
    """The position of ``view`` in words, for who cannot see its picture (a board's alt text):
    the game's sentences (``Game.describe``) with the text board's footer, or the text board."""
    words = words or Words()
    game = _game(view)
    sentences = game.describe(view) if game is not None else None
    if sentences is None:
        return text_board(view, words=words)
    return "\n".join([*(words(sentence) for sentence in sentences), *_footer(game, view, None, words)])


def text_board(view: Mapping[str, Any], *, clocks: Mapping[str, str] | None = None, words: Words | None = None) -> str:
    """A plain-text board of a view (row 1 at the bottom; the last move in lower case), then a
    footer: what each seat plays as (``Game.legend``), last move, who is to move, and the clocks
    of a timed match. The game's drawing lines stay as they are; its messages and the footer are
    said by ``words`` (English with the seat ids by default), which names the seats."""
    words = words or Words()
    game = _game(view)
    lines = [line if isinstance(line, str) else words(line) for line in _body(game, view)]
    lines += _footer(game, view, clocks, words)
    return "\n".join(lines)


def _footer(
    game: type[Game] | None, view: Mapping[str, Any], clocks: Mapping[str, str] | None, words: Words
) -> list[str]:
    """The board's footer line (none when it has nothing to say): what each seat plays as, the
    last move, who is to move, the clocks."""
    last = view.get("last_move")
    legend = game.legend(view) if game is not None else {}
    footer = []
    if legend:  # the game's own words for what each seat plays as
        plays = [say("{seat} {colour}", seat=Seat(seat), colour=colour) for seat, colour in legend.items()]
        footer.append(words(say("{legend}", legend=Listing(tuple(plays)))))
    if last:
        footer.append(words(say("last move {move}", move=Verbatim(str(last)))))
    if view.get("to_move"):
        footer.append(words(say("to move: {seats}", seats=joined([Seat(s) for s in view["to_move"]]))))
    shown = [say("{seat} {clock}", seat=Seat(s), clock=Verbatim(t)) for s, t in (clocks or {}).items() if t]
    if shown:  # an untimed match has no clocks to show
        footer.append(words(say("clocks: {clocks}", clocks=Listing(tuple(shown)))))
    return [" | ".join(footer)] if footer else []
