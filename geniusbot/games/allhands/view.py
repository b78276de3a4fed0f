"""The shapes of the All Hands On Deck family's views, read by their pictures and text boards."""

from __future__ import annotations

from typing import Any

from geniusbot.games.base import BaseView


class TileDecklarationView(BaseView):
    """What a seat of Tile Decklaration sees (``TileDecklaration.view``): the grid only in the
    memorize window and after the end, a seat's mines only in its own view until they go off."""

    last_move: str | None
    phase: str  # "memorize", "landmines", "call", "declare" or "over"
    size: int  # tiles on a side
    centre: str  # the black centre tile ("D4")
    anomalies: list[str]
    palette: list[str]  # the colours of the grid
    memorize_seconds: int  # how long the grid is shown before it is hidden for good
    mines_per_seat: int  # the tiles each seat mines (Landmine)
    starter: str  # the seat that calls first
    grid: dict[str, str] | None  # square -> colour, while it may be seen; else None
    original_grid: dict[str, str] | None  # the grid before Implode's marks changed it (at the end)
    marks: list[str]  # Implode's marked squares (none shown while memorizing)
    declared: list[dict[str, str]]  # {"tile", "color", "seat"} in the order declared
    called: str | None  # the colour called for the declarer
    caller: str | None
    chain_from: str | None  # the tile the next declaration must touch (Chain)
    must_move_again: bool  # a landmine went off: the caller declares its own colour next
    mines: list[str] | None  # this seat's own mines (Landmine), else None
    mines_sent: dict[str, bool] | None  # seat -> whether it has sent its mines (Landmine)
    exploded: list[dict[str, Any]]  # {"tile", "owners"}: the mines that went off
    move_number: int  # tiles declared
    loss: dict[str, str | None] | None  # {"seat", "rule", "tile"}: how the task was lost
