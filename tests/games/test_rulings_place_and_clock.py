"""The rulings on where a move is made and whose clock runs, game by game, as the rule texts read.

Tic-Tac-Five (rulings 17-18), Arm's Length (16-17) and Tightwire (17-18): "moves are made in the
game room", so a move sent by direct message is refused, whatever it says, and changes nothing;
only the clock of a seat to move runs, so only that seat can run out of time. Deck Swabbing
(ruling 6) and Tile Decklaration (ruling 14): a timeout reported for a seat whose clock is not
running is refused and changes nothing.
"""

from __future__ import annotations

import pytest

from geniusbot.games import IN_THE_ROOM, Game, NotYourTurnError, WrongPlaceError
from geniusbot.games.allhands.swabbing import DeckSwabbing
from geniusbot.games.allhands.tiles import TileDecklaration
from geniusbot.games.armslength.rules import ArmsLength
from geniusbot.games.tictacfive.rules import TicTacFive
from geniusbot.games.tightwire.rules import Tightwire


def refused_by_dm(game: Game, text: str, seat: str) -> WrongPlaceError:
    before = game.to_dict()
    with pytest.raises(WrongPlaceError) as refusal:
        game.parse_move(text, seat, private=True)
    assert game.to_dict() == before
    return refusal.value


def test_tictacfive_a_stone_sent_by_dm_is_refused_and_belongs_in_the_game_room():
    game = TicTacFive.new()
    refusal = refused_by_dm(game, "H8", "p1")
    assert refusal.private is False and str(refusal) == IN_THE_ROOM
    game.submit("H8", "p1")  # typed in the room, it is taken


def test_tictacfive_a_dm_is_refused_whatever_it_says_even_what_is_no_point():
    # A direct message is never a Tic-Tac-Five move: it is told where moves go, not how to write one.
    assert str(refused_by_dm(TicTacFive.new(), "hello", "p1")) == IN_THE_ROOM


def test_tictacfive_the_colour_choice_is_made_in_the_room_too():
    game = TicTacFive.new()
    for point in ("H8", "H9", "H10"):
        game.submit(point, "p1")
    assert game.to_move() == ("p2",)
    assert refused_by_dm(game, "white", "p2").private is False


def test_tictacfive_only_the_seat_to_move_can_run_out_of_time():
    game = TicTacFive.new()
    assert game.clock_running("p1") and not game.clock_running("p2")
    with pytest.raises(NotYourTurnError, match="p2's clock is not running"):
        game.require_clock("p2")
    game.require_clock("p1")


def test_armslength_a_square_sent_by_dm_is_refused_and_belongs_in_the_game_room():
    game = ArmsLength.new(seed=3)
    refusal = refused_by_dm(game, "E5", "p1")
    assert refusal.private is False and str(refusal) == IN_THE_ROOM


def test_armslength_the_dmo_choice_is_made_in_the_room_and_only_the_dmo_clock_runs_then():
    game = ArmsLength.new(seed=3, dmo="p2")
    assert game.to_move() == ("p2",)
    assert refused_by_dm(game, "red first", "p2").private is False
    assert game.clock_running("p2") and not game.clock_running("p1")
    with pytest.raises(NotYourTurnError, match="p1's clock is not running"):
        game.require_clock("p1")


def test_tightwire_an_action_sent_by_dm_is_refused_and_belongs_in_the_game_room():
    game = Tightwire.new(variant="classic")
    refusal = refused_by_dm(game, "draw B5-B4 and move", "p1")
    assert refusal.private is False and str(refusal) == IN_THE_ROOM


def test_tightwire_the_draft_is_made_in_the_room_and_only_the_drafter_clock_runs():
    game = Tightwire.new(variant="fate")
    assert game.to_move() == ("p1",)
    assert refused_by_dm(game, "pick turn order", "p1").private is False
    assert not game.clock_running("p2")
    with pytest.raises(NotYourTurnError, match="waiting for p1"):
        game.require_clock("p2")


def test_swabbing_a_timeout_reported_for_the_seat_not_to_move_is_refused():
    game = DeckSwabbing.new(seed=7)
    (mover,) = game.to_move()
    other = "p2" if mover == "p1" else "p1"
    with pytest.raises(NotYourTurnError, match=f"{other}'s clock is not running"):
        game.require_clock(other)
    game.require_clock(mover)


def test_tiles_no_clock_runs_in_the_landmine_window_so_a_timeout_then_is_refused():
    game = TileDecklaration.new(seed=1, anomalies="landmine")
    game.close_window()  # the memorize window ends: the landmine window opens
    assert game.view()["phase"] == "landmines" and set(game.to_move()) == {"p1", "p2"}
    for seat in ("p1", "p2"):
        assert not game.clock_running(seat)
        with pytest.raises(NotYourTurnError, match="the landmines window is open"):
            game.require_clock(seat)
