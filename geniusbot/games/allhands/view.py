"""The shapes of the All Hands On Deck family's views, read by their pictures and text boards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from geniusbot.games.base import BaseView


class TileDecklarationView(BaseView):
    """What a seat of Tile Decklaration sees (``TileDecklaration.view``): the grid only in the
    memorize window and after the end, a seat's mines only in its own view until they go off.
    Its ``phase`` is ``"memorize"``, ``"landmines"``, ``"call"``, ``"declare"`` or ``"over"``."""

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
    mines_owner: str | None  # the seat whose mines ``mines`` lists (the viewer), else None
    mines_sent: dict[str, bool] | None  # seat -> whether it has sent its mines (Landmine)
    exploded: list[dict[str, Any]]  # {"tile", "owners"}: the mines that went off
    move_number: int  # tiles declared
    loss: dict[str, str | None] | None  # {"seat", "rule", "tile"}: how the task was lost


class DuelingDecksView(BaseView):
    """What a seat of Dueling Decks sees (``DuelingDecks.view``): a sealed submission only in its
    owner's view until the phase resolves; under Darkness the opponent's hand, backups and plays
    are hidden (None) until the task is over. Its ``phase`` is ``"create"``, ``"play"`` or
    ``"over"``; its ``last_move`` this seat's own last submission (``None`` for the room)."""

    round: int  # the round under way, from 1
    rounds: int  # rounds in the task, one per prize
    anomalies: list[str]
    deck_size: int  # cards a hand holds
    tiebreak: str | None  # the seat the match names for a tie, if any
    prizes: list[int | None]  # the prizes in order (None each under Pick Your Prize)
    prize: int | None  # this round's prize, when known
    power: dict[str, int]  # seat -> power left to create cards with
    start_power: int  # the power each seat starts with
    target: int  # points that win the task
    hands: dict[str, list[int] | None]  # seat -> its cards (None: hidden by Darkness)
    points: dict[str, int | float | None]  # seat -> points (None: hidden by Darkness)
    backups_left: dict[str, int | None] | None  # Backup's uses left (None without Backup)
    submitted: dict[str, bool]  # seat -> whether it has sent this phase's submission
    sealed: dict[str, Any] | None  # {"cards", "backup"}: this seat's own sealed submission
    created: list[dict[str, Any]]  # {"round", "cards": seat -> cards created}
    history: list[dict[str, Any]]  # the resolved rounds, as this seat may see them
    result: dict[str, Any] | None  # {"reason", "tiebreak"} once the task is over


# Hook: the tiles the next move must touch ("from", a keyword: the functional syntax), and whether
# no move can touch them, so the rule is lifted for that move.
Hook = TypedDict("Hook", {"from": list[str], "lifted": bool})


class DeckSwabbingView(BaseView):
    """What a seat of Deck Swabbing sees (``DeckSwabbing.view``): everything but the other
    seat's sealed submission (Snipe). Its ``phase`` is ``"move"`` or ``"over"``."""

    size: int  # tiles on a side
    centre: str
    anomalies: list[str]
    starter: str
    tiebreak: str  # the seat a tie goes to
    turn: str | None  # the seat that colours tiles now (None once over)
    sniper: str | None  # Snipe: the seat that may snipe this turn
    board: dict[str, str]  # square -> "white", "black", "p1" or "p2"
    numbers: dict[str, int] | None  # Unique: square -> its number
    values: dict[str, int] | None  # Pyramid: square -> its points
    tiles: dict[str, int]  # seat -> tiles of its colour
    scores: dict[str, int]  # seat -> the score that decides the task
    hook: Hook | None  # Hook, while the task runs
    submitted: dict[str, bool] | None  # Snipe: seat -> whether it has sent this turn's submission
    sealed: str | None  # this seat's own sealed submission (Snipe)
    history: list[dict[str, Any]]  # the moves made: {"seat", "tiles", "filled", "snipe", ...}
    move_number: int
    result: dict[str, Any] | None  # {"reason", "scores", "tiebreak"} once the task is over


class OverrideState(TypedDict):
    asked: str | None  # the seat asked now whether it uses its Override
    by: str | None  # the seat that used it this play


class AllInState(TypedDict):
    answered: dict[str, bool]  # seat -> whether it has answered this play's All-In question
    used: list[str]  # the seats that played their All-In on this play


class CurrentPlay(TypedDict):
    """The play under way in All Hands On Deck."""

    play: int  # from 1
    task: str  # "tiles", "decks" or "swabbing"
    title: str
    time: int  # the task's how-manyth play this is
    worth: int  # points to its winner
    anomaly_count: int  # anomalies active in this play
    first: str  # the seat that bans first (won the last play)
    pool: list[str]  # the anomalies open to ban or pick
    bans: list[dict[str, Any]]  # {"seat", "anomaly"}
    bans_left: int
    banner: str | None  # the seat to ban now
    override: OverrideState
    anomalies: list[str] | None  # the anomalies chosen, once chosen
    all_in: AllInState


class ItemsLeft(TypedDict):
    all_in: int
    override: int
    clock: bool


class AllHandsView(BaseView):
    """What a seat of All Hands On Deck sees (``AllHandsOnDeck.view``): the scoreboard, the play
    under way, and the running task's own view for that seat. Its ``phase`` is ``"override"``,
    ``"ban"``, ``"items"``, ``"task"`` or ``"over"``."""

    target: int  # points that win the match
    plays_total: int
    all_in_points: int  # the All-In's bonus to a play's winner
    order: list[str]  # the tasks, in the order they take turns
    points: dict[str, int]
    play: int
    current: CurrentPlay | None  # None once the match is over
    plays: list[dict[str, Any]]  # the plays made: {"play", "task", "time", "winner", ...}
    items: dict[str, ItemsLeft]  # seat -> its items left
    sealed: str | None  # this seat's own All-In answer, while the others are awaited
    task: Mapping[str, Any] | None  # the running task's view for this seat (phase "task")
    result: dict[str, Any] | None  # {"winner", "points", "reason"} once over
