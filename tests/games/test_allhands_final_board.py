"""All Hands On Deck says a finished Deck Swabbing task's board (or Tile Decklaration's grid) once: the board shown after the
last move is the next play's, so the task's own texts no longer carry it."""

from __future__ import annotations

import re

from geniusbot.games.allhands.swabbing import DeckSwabbing, board_text
from geniusbot.games.allhands.tiles import TileDecklaration, grid_text
from tests.games.allhands_helpers import make, play_to, skip_selection, win_task


def test_the_finished_swabbing_board_is_said_once_before_the_score():
    game = make(seed=3)
    play_to(game, 3, "p1 p2")
    skip_selection(game)
    assert game.current_task == "swabbing"
    task = game.task
    assert isinstance(task, DeckSwabbing)
    events = win_task(game, "p1")
    assert task.is_over and game.play_no == 4
    final = board_text(task.board, task.numbers)
    shown = [e for e in events if final in e.text]
    assert [e.kind for e in shown] == ["final-board"]
    kinds = [e.kind for e in events]
    assert kinds.index("final-board") == kinds.index("score") - 1
    assert shown[0].public and shown[0].text.startswith("The board as it ended:")
    assert shown[0].data["board"] == {str(p): v for p, v in task.board.items()}
    # The moves themselves say what happened, never the board.
    assert not [e for e in events if e.kind == "move" and "\n" in e.text]


def test_the_finished_tiles_grid_is_said_once_with_its_marks_before_the_score():
    game = make(seed=3)
    skip_selection(game)
    assert game.current_task == "tiles"
    task = game.task
    assert isinstance(task, TileDecklaration)
    events = win_task(game, "p1")
    assert task.is_over and game.play_no == 2
    final = grid_text(task.grid, task.marks)
    shown = [e for e in events if final in e.text]
    assert [e.kind for e in shown] == ["final-board"]
    kinds = [e.kind for e in events]
    assert kinds.index("final-board") == kinds.index("score") - 1
    assert shown[0].public and shown[0].text.startswith("The grid as it was:")
    assert shown[0].data["grid"] == {str(p): c for p, c in task.grid.items()}
    # The task's own final-grid event carries the grid as data only: no second copy.
    [own] = [e for e in events if e.kind == "final-grid"]
    assert own.text == "" and own.data["grid"] == shown[0].data["grid"]
    # No text grid anywhere else (a grid's top row, "7 x x x x x x x", names each of its 7 tiles).
    assert sum(len(re.findall(r"^7( +\S+){7}$", e.text, re.M)) for e in events) == 1


def test_dueling_decks_says_no_final_board():
    game = make(seed=3)
    play_to(game, 2, "p1")
    skip_selection(game)
    assert game.current_task == "decks"
    events = win_task(game, "p1")
    assert game.play_no == 3 and "final-board" not in [e.kind for e in events]
