"""All Hands On Deck says a finished Deck Swabbing task's board once: the board shown after the
last move is the next play's, so the task's own texts no longer carry it."""

from __future__ import annotations

from geniusbot.games.swabbing import DeckSwabbing, board_text
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


def test_other_tasks_say_no_final_board():
    game = make(seed=3)
    skip_selection(game)
    events = win_task(game, "p1")
    assert game.play_no == 2 and "final-board" not in [e.kind for e in events]
