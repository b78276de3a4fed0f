"""A match's actions as data: their kinds, the ``host:`` line grammar, and the one way an action is
applied to a game.

An action is a seat's submission or something the host did to the game. The log keeps one per
row (its kind, seat, text and privacy in columns), a record writes one per line, and the practice
opponent's knowledge carries the public ones; whichever holds it, :func:`apply_action` applies it.

The host's lines, read by :func:`read_host_line` (in any case, with any spacing) and written by
:func:`write_host_line`::

    record line             kind       seat   the log's text
    host: timeout p1        timeout    p1     timeout p1
    host: resign p2         resign     p2     resign
    host: close window      window     -      close window

The seat is a host line's one parameter; the grammar has no other. Nothing reads an action's text
back into data: a log row's seat is its column, a record line's is read once, here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple, Protocol

from geniusbot.games import SEATS

if TYPE_CHECKING:
    from geniusbot.games import Game, Move


class ActionKind(StrEnum):
    """What a logged action is (``actions.kind``; a member equals its string)."""

    #: A submission typed in the room (``text`` is the move's notation).
    MOVE = "move"
    #: A submission sent privately.
    PRIVATE = "private"
    #: A seat's clock ran out: ``seat`` is whose (``text``: ``timeout p1``, for a reader).
    TIMEOUT = "timeout"
    #: A seat resigned.
    RESIGN = "resign"
    #: A timed window closed (``text``: ``close window``).
    WINDOW = "window"
    #: The match started: ``clocks`` holds its clocks then (``text``, ``start SPEC``, says the time
    #: control to a reader; nothing reads it back). A command before revision ``0009``.
    START = "start"
    #: A host command: ``pause``, ``resume``, ``abort``.
    COMMAND = "command"


#: A seat's submissions, in the room or private.
MOVE_KINDS: tuple[ActionKind, ...] = (ActionKind.MOVE, ActionKind.PRIVATE)
#: What the host does to the game: a ``host:`` line of a record.
HOST_KINDS: tuple[ActionKind, ...] = (ActionKind.TIMEOUT, ActionKind.RESIGN, ActionKind.WINDOW)
#: The actions that change a game (a replay's steps): the seats' submissions and the host's.
GAME_KINDS: tuple[ActionKind, ...] = (*MOVE_KINDS, *HOST_KINDS)


class Action(Protocol):
    """What :func:`apply_action` reads of an action: a log row (``ActionRecord``, ``NewAction``)
    and a :class:`GameAction` both are one."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> str | None: ...
    @property
    def text(self) -> str: ...
    @property
    def private(self) -> bool: ...


class GameAction(NamedTuple):
    """One action as plain data (it crosses a process boundary to the practice opponent):
    ``text`` is a submission as typed, or the log's text of a host's action."""

    kind: str
    seat: str | None
    text: str = ""
    private: bool = False


# The host lines: each kind's words, whether a seat follows them, and the text the log keeps.
_HOST_LINES: dict[str, tuple[tuple[str, ...], bool, str]] = {
    ActionKind.TIMEOUT: (("timeout",), True, "timeout {seat}"),
    ActionKind.RESIGN: (("resign",), True, "resign"),
    ActionKind.WINDOW: (("close", "window"), False, "close window"),
}
# A host line has at most this many words (its kind's and a seat); more, and it is none.
_MOST_WORDS = max(len(words) + seated for words, seated, _ in _HOST_LINES.values())


def host_action(kind: str, seat: str | None = None) -> GameAction:
    """The host's action of ``kind`` (of ``seat``, for a timeout or a resignation), with the
    text the log keeps."""
    _, seated, logged = _HOST_LINES[kind]
    return GameAction(kind, seat if seated else None, logged.format(seat=seat))


def read_host_line(text: str) -> GameAction | None:
    """The action a ``host:`` line's text names (``timeout p1``, ``resign p2``, ``close window``,
    in any case), or ``None`` when it names none. Its cost does not grow with a long line's words."""
    words = text.lower().split(None, _MOST_WORDS)
    for kind, (said, seated, _) in _HOST_LINES.items():
        if tuple(words[: len(said)]) != said:
            continue
        rest = words[len(said) :]
        if not seated and not rest:
            return host_action(kind)
        if seated and len(rest) == 1 and rest[0] in SEATS:
            return host_action(kind, rest[0])
    return None


def write_host_line(kind: str, seat: str | None = None) -> str:
    """The text of the ``host:`` line of an action of ``kind`` (of ``seat``): ``timeout p1``."""
    said, seated, _ = _HOST_LINES[kind]
    return " ".join((*said, str(seat)) if seated else said)


def apply_action(game: Game, action: Action, *, require_clock: bool = False) -> Move | None:
    """Apply one action to ``game``: a submission (its text parsed as typed) or the host's.

    Returns the move played, ``None`` for the host's action (and for a kind that changes no
    game, a start or a command, which is passed over). Raises
    :class:`~geniusbot.games.GameError` for an action the game refuses, leaving it unchanged.
    ``require_clock``: a timeout is refused unless the seat's clock runs, as the adjudicator rules
    a record (a logged timeout was taken when the clock ran out, and is applied as it was).
    """
    kind, seat = action.kind, action.seat
    if kind in MOVE_KINDS:
        assert seat is not None
        move, _ = game.submit(action.text, seat, private=action.private)
        return move
    if kind == ActionKind.TIMEOUT:
        assert seat is not None
        if require_clock:
            game.require_clock(seat)  # only a running clock runs out
        game.timeout(seat)
    elif kind == ActionKind.RESIGN:
        assert seat is not None
        game.resign(seat)
    elif kind == ActionKind.WINDOW:
        game.close_window()
    return None
