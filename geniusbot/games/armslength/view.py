"""The shape of an Arm's Length view (``ArmsLength.view``), read by its picture and text board."""

from __future__ import annotations

from typing import TypedDict

from geniusbot.games.base import BaseView

# A push of the last placement: the stone's square before ("from") and after ("to", None when it
# was knocked off the board), and its colour. ("from" is a keyword: the functional syntax.)
Push = TypedDict("Push", {"from": str, "to": str | None, "color": str})


class ArmsLengthView(BaseView):
    """Arm's Length hides nothing: every seat and the room see the same view. Its ``phase`` is
    ``"choice"``, ``"play"`` or ``"over"``; its ``last_move`` the square of the last placement
    (``"E4"``)."""

    size: int  # squares on a side
    stones: dict[str, str]  # square -> "red" / "blue"
    colors: dict[str, str | None]  # seat -> its colour, None until the DMO chooses
    first: str | None  # the seat that moves first
    dmo: str | None  # the seat that chooses colours and order, if any
    knocked_off: dict[str, int]  # colour -> its stones knocked off the board so far
    knockout_limit: int  # a colour with this many stones knocked off loses (10)
    pushes: list[Push]  # what the last placement pushed
    fours: list[list[str]]  # every straight run of four or more stones of one colour
    move_number: int
