"""The shape of a Tightwire view (``Tightwire.view``), read by its picture and text board."""

from __future__ import annotations

from typing import TypedDict

from geniusbot.games.base import BaseView


class Line(TypedDict):
    """A line drawn between two neighbouring dots, by a seat (None: there from the start)."""

    a: str
    b: str
    slack: bool
    by: str | None


class Pick(TypedDict):
    seat: str
    item: str


class Draft(TypedDict):
    """Threads of Fate's item draft: the order of picks, the picks made, the items left."""

    order: list[str]
    picks: list[Pick]
    available: list[str]


class TightwireView(BaseView):
    """Tightwire hides nothing: every seat and the room see the same view. Its ``phase`` is
    ``"draft"``, ``"order"``, ``"play"`` or ``"over"``; its ``last_move`` the last action's
    canonical text."""

    board: str  # the board's name ("classic5", "large7")
    cols: int
    rows: int
    pieces: dict[str, str]  # dot -> "orange" / "blue"
    colors: dict[str, str]  # seat -> its colour
    lines: list[Line]
    captured: dict[str, int]  # colour -> its pieces captured and not revived
    slack_left: dict[str, int]  # seat -> slack lines it may still draw
    items: dict[str, list[str]]  # seat -> the items it holds
    draft: Draft | None  # None outside Threads of Fate
    last_path: list[str]  # the dots of the last action: a new line's ends, a move's path, a revival
    captured_last: list[str]  # the dots emptied by captures in the last action
    captured_last_colors: dict[str, str]  # dot -> the colour of the piece captured there
    first: str | None  # the seat that moves first (None until the Turn Order holder chooses)
    move_number: int
