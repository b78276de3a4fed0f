"""The shape of a Tic-Tac-Five view (``TicTacFive.view``), read by its picture and text board."""

from __future__ import annotations

from geniusbot.games.base import BaseView


class TicTacFiveView(BaseView):
    """Every seat and the room see the same view (docs/rules/tictacfive.md, "The view"). Its
    ``phase`` is ``"opening"``, ``"choice"``, ``"play"`` or ``"over"``; its ``last_move`` the last
    stone placed (``"H8"``)."""

    size: int  # points on a side
    stones: dict[str, str]  # point -> "black" / "white", in the order placed
    colors: dict[str, str | None]  # seat -> its colour, None until p2 chooses
    next_color: str | None  # the colour of the next stone; None at the choice and after the end
    opening_stones: int  # stones placed in the opening (3)
    move_number: int  # stones on the board
    winning_line: list[str] | None  # every stone of the winning run, from its left (bottom) end
    forbidden: list[str]  # empty points the next stone may not take (a double three), in reading order
