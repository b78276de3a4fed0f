"""Adjudication: a record replayed the way a careful host rules a typed transcript."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from geniusbot.adjudicate import (
    GAME_OVER,
    Adjudication,
    adjudicate,
    adjudicate_text,
    format_report,
    rule_on,
)
from geniusbot.games import IN_THE_ROOM, Game, IllegalMoveError, MalformedMoveError, Move, Termination, new_game
from geniusbot.record import RecordError, RecordLine, parse_record

# Red holds A1 B1 C1: red D1 makes four (C1 cannot be pushed, B1 stands behind it).
ARMS = """\
[Game "armslength"]
[Seed "3"]
[Setup "red A1 B1 C1; blue A8 B8 C8"]
[P1 "Alice"]
[P2 "Bob"]
[Result "p1"]

p1: E5
p2: E5        # taken
p2: Z9        # off the board
p1: A2        # not p1's turn
p2: H1
p1: D1        # four in a row: A1 B1 C1 D1
p2: H2        # after the end
"""


def test_each_line_is_accepted_or_rejected_with_the_players_reason():
    result = adjudicate_text(ARMS)
    assert [(a.line, a.seat, a.text, a.accepted) for a in result.actions] == [
        (8, "p1", "E5", True),
        (9, "p2", "E5", False),
        (10, "p2", "Z9", False),
        (11, "p1", "A2", False),
        (12, "p2", "H1", True),
        (13, "p1", "D1", True),
        (14, "p2", "H2", False),
    ]
    errors = [a.error for a in result.actions]
    assert errors[0] is None
    assert errors[1] == "E5 is taken; choose an empty square."
    assert "Z9 is off the board" in errors[2]
    assert errors[3] == "It is not your turn; waiting for p2."
    assert errors[6] == GAME_OVER
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert "four in a row" in result.outcome.reason
    assert result.notes == []


def test_the_replay_equals_the_accepted_moves_played_directly():
    result = adjudicate_text(ARMS)
    game = new_game("armslength", seed=3, setup="red A1 B1 C1; blue A8 B8 C8")
    for seat, square in [("p1", "E5"), ("p2", "H1"), ("p1", "D1")]:
        game.submit(square, seat)
    assert result.game == game


def test_a_record_typed_with_full_width_letters_rules_as_the_ascii_one():
    # A Korean or Japanese keyboard types Ｈ８ for H8 (and a full-width colon): the same record.
    wide = ARMS.replace("p1: E5", "ｐ１：Ｅ５").replace("p2: H1", "p2: Ｈ１").replace("p1: D1", "p1: Ｄ１")
    assert wide != ARMS
    ruled, plain = adjudicate_text(wide), adjudicate_text(ARMS)
    assert [(a.seat, a.text, a.error) for a in ruled.actions] == [(a.seat, a.text, a.error) for a in plain.actions]
    assert ruled.game == plain.game and ruled.outcome == plain.outcome


def test_a_rejected_line_changes_nothing():
    record = parse_record(ARMS)
    game = new_game("armslength", seed=3, setup="red A1 B1 C1; blue A8 B8 C8")
    for line in record.lines:
        before = game.to_dict()
        if rule_on(game, line) is not None:
            assert game.to_dict() == before


def test_json_shape_is_exactly_the_documented_one():
    data = json.loads(json.dumps(adjudicate_text(ARMS).to_dict()))
    assert set(data) == {"game", "actions", "outcome"}
    assert data["game"] == "armslength"
    for action in data["actions"]:
        assert set(action) == {"line", "seat", "text", "accepted", "error"}
        assert isinstance(action["line"], int) and isinstance(action["seat"], str)
        assert isinstance(action["text"], str) and isinstance(action["accepted"], bool)
        assert (action["error"] is None) == action["accepted"]
        assert action["error"] is None or isinstance(action["error"], str)
    assert data["actions"][1] == {
        "line": 9,
        "seat": "p2",
        "text": "E5",
        "accepted": False,
        "error": "E5 is taken; choose an empty square.",
    }
    assert set(data["outcome"]) == {"winner", "termination", "reason"} and data["outcome"]["winner"] == "p1"
    assert data["outcome"]["termination"] == "line"


def test_a_record_that_stops_before_the_end_has_no_outcome():
    data = adjudicate_text('[Game "armslength"]\np1: E5\n').to_dict()
    assert data["outcome"] is None
    assert data["actions"] == [{"line": 2, "seat": "p1", "text": "E5", "accepted": True, "error": None}]


def test_a_draw_is_an_outcome_with_no_winner():
    result = adjudicate_text('[Game "armslength"]\np1: E5\n')
    result.game.end(None, Termination.OTHER, "Agreed drawn", verdict="")
    assert result.to_dict()["outcome"] == {"winner": None, "termination": "other", "reason": "Agreed drawn."}


# --------------------------------------------------------------------------- lines a host must rule on


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("E5", "A line needs the seat and a colon before the move; write it as 'p1: E5'."),
        ("p2 E5", "A line needs the seat and a colon before the move; write it as 'p2: E5'."),
        ("p3: E5", "'p3' is not a seat; start the line with p1 or p2 and a colon (p1 (dm): for a private submission)."),
        (
            "Alice: E5",
            "'Alice' is not a seat; start the line with p1 or p2 and a colon (p1 (dm): for a private submission).",
        ),
        ("p1:", "Nothing follows 'p1:'; write the move after the colon."),
        ("host: dance", "A host line is 'host: timeout p1', 'host: resign p1' or 'host: close window'."),
        ("host: close window", "There is no timed phase to close."),
    ],
)
def test_lines_without_a_known_seat_or_a_move_are_rejected_with_how_to_write_them(line, reason):
    result = adjudicate_text(f'[Game "armslength"]\n{line}\np1: E5\n')
    assert (result.actions[0].accepted, result.actions[0].error) == (False, reason)
    # The rest of the record is still ruled on.
    assert result.actions[1].accepted


def test_a_line_after_the_end_is_rejected_whatever_it_is():
    record = '[Game "armslength"]\nhost: resign p2\nE5\np3: x\nhost: timeout p1\np1: E5\n'
    result = adjudicate_text(record)
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert [a.error for a in result.actions[1:]] == [GAME_OVER] * 4


def test_host_lines_apply_timeouts_and_resignations():
    result = adjudicate_text('[Game "armslength"]\np1: E5\nHOST: Timeout P2\n')
    assert result.actions[1].accepted and result.actions[1].seat == "host"
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert "p2 ran out of time" in result.outcome.reason
    result = adjudicate_text('[Game "armslength"]\nhost: resign p1\n')
    assert result.outcome is not None and result.outcome.winner == "p2"


def test_a_dmo_choice_then_play():
    result = adjudicate_text(
        '[Game "armslength"]\n[DMO "p2"]\n[Setup "red A1; blue H8"]\np1: E4\np2: blue first\np2: E4\n'
    )
    assert [a.accepted for a in result.actions] == [False, True, True]
    assert result.game.view()["colors"] == {"p1": "red", "p2": "blue"}


# --------------------------------------------------------------------------- the Result header


def test_a_result_header_that_disagrees_is_a_note_not_an_error():
    result = adjudicate_text(ARMS.replace('[Result "p1"]', '[Result "0-1"]'))
    assert result.notes == ["The record's Result header says p2 wins, but the replay gives p1 wins."]
    assert "Note: The record's Result header says p2 wins, but the replay gives p1 wins." in format_report(result)
    assert "notes" not in result.to_dict()


def test_a_result_header_for_a_game_that_has_not_ended_is_noted():
    result = adjudicate_text('[Game "armslength"]\n[Result "draw"]\np1: E5\n')
    assert result.notes == ["The record's Result header says a draw, but the replay gives a game still running."]


def test_an_unreadable_result_header_is_noted_and_an_empty_or_agreeing_one_is_not():
    assert "not a result this bot reads" in adjudicate_text('[Game "armslength"]\n[Result "??"]\n').notes[0]
    assert adjudicate_text('[Game "armslength"]\n[Result ""]\n').notes == []
    assert adjudicate_text('[Game "armslength"]\n[Result "*"]\n').notes == []


# --------------------------------------------------------------------------- the human report


def test_the_report_is_a_table_of_every_line_then_the_result():
    report = format_report(adjudicate_text(ARMS))
    lines = report.splitlines()
    assert lines[0] == "Arm's Length (armslength), rule set standard, seed 3"
    assert lines[2].split() == ["line", "seat", "submission", "ruling"]
    assert lines[3].split() == ["8", "p1", "E5", "OK"]
    assert lines[4].split(maxsplit=3) == ["9", "p2", "E5", "rejected: E5 is taken; choose an empty square."]
    assert "3 of 7 lines accepted." in lines
    assert lines[-1].startswith("Result: p1 wins. p1 (red) has four in a row")
    # The ruling column starts at one place on every row.
    columns = {line.index("OK") if line.endswith("OK") else line.index("rejected") for line in lines[3:10]}
    assert len(columns) == 1


def test_the_report_of_an_unfinished_game_says_who_is_to_move_and_marks_private_lines():
    report = format_report(adjudicate_text('[Game "armslength"]\np1 (dm): E5\nE6\n'))
    # Arm's Length's moves are made in the room: the DM'd E5 is refused, so p1 is still to move.
    assert "Result: the game has not ended; waiting for p1." in report
    assert any(line.split()[:2] == ["2", "p1"] and "(dm)" in line for line in report.splitlines())
    assert any(line.split()[:2] == ["3", "-"] for line in report.splitlines())


def test_headers_that_describe_no_game_raise_record_error():
    with pytest.raises(RecordError):
        adjudicate_text('[Game "chess"]\np1: e4\n')


# --------------------------------------------------------------------------- privacy reaches the game


@dataclass(frozen=True)
class Say(Move):
    word: str
    private: bool

    def text(self) -> str:
        return self.word


class Whisper(Game):
    """A tiny game (not registered) that keeps whether each word was sent privately."""

    name = "whisper"
    title = "Whisper"

    def setup(self, **options: str) -> None:
        self.said: list[list[Any]] = []

    def to_move(self) -> tuple[str, ...]:
        return () if self.is_over else ("p1", "p2")

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        self.require_turn(seat)
        if not text.isalpha():
            raise MalformedMoveError("Write one word.")
        if text == "shout" and private:
            raise IllegalMoveError("You cannot shout in a DM; say it in the room.")
        return Say(seat, text, private)

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        return iter(())

    def play(self, move: Move) -> list:
        assert isinstance(move, Say)
        self.said.append([move.seat, move.word, move.private])
        return []

    def view(self, seat: str | None = None) -> dict[str, Any]:
        return self.base_view()

    def state_dict(self) -> dict[str, Any]:
        return {"said": self.said}

    def load_state(self, data: Mapping[str, Any]) -> None:
        self.said = [list(x) for x in data["said"]]


def test_a_dm_line_is_submitted_privately_and_a_room_line_is_not():
    game = Whisper.new()
    assert rule_on(game, RecordLine(1, "p1", True, "hello")) is None
    assert rule_on(game, RecordLine(2, "p2", False, "hi")) is None
    assert rule_on(game, RecordLine(3, "p2", True, "shout")) == "You cannot shout in a DM; say it in the room."
    assert game.said == [["p1", "hello", True], ["p2", "hi", False]]


@pytest.mark.parametrize(
    ("game", "move"), [("tictacfive", "H8"), ("armslength", "E5"), ("tightwire", "draw B5-B4 and move")]
)
def test_a_dm_line_in_a_game_whose_moves_are_made_in_the_room_is_rejected_and_says_to_type_it_there(game, move):
    result = adjudicate_text(f'[Game "{game}"]\np1 (dm): {move}\np1: {move}\n')
    dm, room = result.actions
    assert (dm.accepted, dm.private, dm.error) == (False, True, IN_THE_ROOM)
    assert "game room" in IN_THE_ROOM
    assert room.accepted  # the same move typed in the room is taken: the DM changed nothing


def test_a_timeout_of_a_seat_whose_clock_is_not_running_is_rejected_and_the_game_goes_on():
    # p1 is to move, so only p1's clock runs: p2 cannot run out of time, and does not lose.
    result = adjudicate_text('[Game "tictacfive"]\nhost: timeout p2\np1: H8\n')
    timeout, move = result.actions
    assert not timeout.accepted
    assert timeout.error == "p2's clock is not running (waiting for p1), so p2 cannot run out of time now."
    assert move.accepted and result.outcome is None


def test_a_timeout_while_a_timed_window_runs_is_rejected_since_no_clock_runs():
    # A memory grid's window: the host's only clock is the window's timer.
    result = adjudicate_text('[Game "tiles"]\nhost: timeout p1\nhost: close window\n')
    timeout, close = result.actions
    assert timeout.error == "p1's clock is not running (the memorize window is open), so p1 cannot run out of time now."
    assert close.accepted


def test_adjudication_json_of_any_game_uses_its_registry_name():
    game = Whisper.new()
    assert Adjudication(game).to_dict() == {"game": "whisper", "actions": [], "outcome": None}


def test_adjudicate_takes_a_parsed_record():
    record = parse_record('[Game "armslength"]\n[Setup "red A1; blue H8"]\np1: E5\n')
    assert adjudicate(record).game.view()["stones"] == {"A1": "red", "E5": "red", "H8": "blue"}


# --------------------------------------------------------------------------- the shipped examples

EXAMPLES = __import__("pathlib").Path(__import__("geniusbot").__file__).parent / "examples"


def test_the_tictacfive_example_is_a_whole_game_with_a_taken_point_and_a_double_three():
    result = adjudicate_text((EXAMPLES / "tictacfive.txt").read_text(encoding="utf-8"))
    rejected = [a.error for a in result.actions if not a.accepted]
    assert len(rejected) == 4
    assert "a forbidden double three" in rejected[0]
    assert rejected[1] == "I9 is taken; choose an empty point."
    assert rejected[2].startswith("It is not your turn")
    assert rejected[3] == GAME_OVER
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert "five" in result.outcome.reason.lower() or "5 in a row" in result.outcome.reason
    assert result.notes == []


def test_the_armslength_example_is_a_whole_game_with_a_dmo_choice_and_knock_offs():
    result = adjudicate_text((EXAMPLES / "armslength.txt").read_text(encoding="utf-8"))
    rejected = [(a.text, a.error) for a in result.actions if not a.accepted]
    assert rejected == [
        ("E5", "It is not your turn; waiting for p2."),
        ("D1", "D1 is taken; choose an empty square."),
        ("I4", "I4 is off the board; columns run A-H and rows 1-8."),
        ("B1", GAME_OVER),
    ]
    view = result.game.view()
    assert view["dmo"] == "p2" and view["colors"] == {"p1": "red", "p2": "blue"}
    assert view["knocked_off"] == {"red": 1, "blue": 5}
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert view["fours"] == [["E3", "F3", "G3", "H3"]]
    assert result.notes == []


# --------------------------------------------------------------------------- Tic-Tac-Five, crafted

TTF = """\
[Game "gomoku"]
p1: black          # a colour before the opening stones are down
p1: H8
p1: H8             # taken
p1: J9
p2: H10            # p1 places all three opening stones
p1: K8
p2: I9             # a point at the colour choice
p2: purple
p2: Black          # p2 takes black: p1 is white and places the fourth stone
p2: A1             # not p2's turn: white places the fourth stone
p1: A1
"""


def test_tictacfive_opening_and_colour_choice_rulings():
    result = adjudicate_text(TTF)
    assert result.game.name == "tictacfive"
    verdicts = [(a.text, a.error) for a in result.actions]
    assert verdicts[0][1] is not None and "type a point such as H8" in verdicts[0][1]
    assert verdicts[1] == ("H8", None)
    assert verdicts[2] == ("H8", "H8 is taken; choose an empty point.")
    assert verdicts[4][1] == "It is not your turn; waiting for p1."
    assert verdicts[6] == ("I9", "Choose a colour first: type black or white.")
    assert verdicts[7] == ("purple", "'purple' is not a colour; type black or white.")
    assert verdicts[8] == ("Black", None)
    assert verdicts[9][1] == "It is not your turn; waiting for p1."
    assert verdicts[10] == ("A1", None)
    assert result.game.view()["colors"] == {"p1": "white", "p2": "black"}
    assert result.game.to_move() == ("p2",)


def test_tictacfive_double_three_is_refused_and_five_ends_the_game():
    # p2 takes white, so p1 is black and builds H8 I8 and J9 J10; J8 would be a double three.
    record = "\n".join(
        [
            '[Game "tictacfive"]',
            "p1: H8",
            "p1: A15",
            "p1: I8",
            "p2: white",
            "p2: O15",
            "p1: J10",
            "p2: O1",
            "p1: J9",
            "p2: A1",
            "p1: J8",  # row H8 I8 J8 and column J8 J9 J10: two open threes
            "p1: G8",
            "p2: N1",
            "p1: F8",
            "p2: M1",
            "p1: E8",  # E8 F8 G8 H8 I8: five
            "p2: L1",
            "",
        ]
    )
    result = adjudicate_text(record)
    refused = {a.text: a.error for a in result.actions if not a.accepted}
    assert set(refused) == {"J8", "L1"}
    assert "J8 would make two open threes at once" in refused["J8"]
    assert refused["L1"] == GAME_OVER
    assert result.outcome is not None and result.outcome.winner == "p1"
    assert result.game.view()["winning_line"] == ["E8", "F8", "G8", "H8", "I8"]


def test_the_report_of_a_record_stopped_in_a_timed_window_says_which_line_closes_it():
    report = format_report(adjudicate_text('[Game "tiles"]\n[Seed "1"]\np1: call red\n'))
    assert report.splitlines()[-1] == (
        "Result: the game has not ended; the memorize window is open until a 'host: close window' line closes it."
    )
    # Once the window is closed, the report names the seat to move as usual.
    report = format_report(adjudicate_text('[Game "tiles"]\n[Seed "1"]\nhost: close window\n'))
    assert report.splitlines()[-1] == "Result: the game has not ended; waiting for p1."


# ---- a newcomer's records: standard input, control characters, a seat that resigns ---------------


def test_a_seats_own_resign_is_told_the_host_line_and_an_empty_line_what_to_write():
    result = adjudicate_text('[Game "tictacfive"]\n\np1:\np1: resign\np2: Resign p2\np1: H8\n')
    errors = [a.error for a in result.actions]
    assert errors == [
        "Nothing follows 'p1:'; write the move after the colon.",
        "A resignation is the host's line; write it as 'host: resign p1'.",
        "A resignation is the host's line; write it as 'host: resign p2'.",
        None,
    ]


def test_the_report_escapes_control_characters_in_the_submission_as_in_the_ruling():
    report = format_report(adjudicate_text('[Game "tictacfive"]\n\np1: H\x1b[31m8\tx\n'))
    assert "\x1b" not in report and "\t" not in report
    [row] = [line for line in report.splitlines() if line.lstrip().startswith("3 ")]
    assert "p1    H\\x1b[31m8\\tx  rejected: 'H\\x1b[31m8\\tx' is not a point" in row


def test_adjudicate_dash_reads_standard_input(monkeypatch, capsys):
    import io

    from geniusbot.cli import main

    record = '[Game "tictacfive"]\n\np1: H8\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record.encode()), encoding="ascii"))
    assert main(["adjudicate", "-"]) == 0
    assert "1 of 1 lines accepted." in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe"), encoding="utf-8"))
    assert main(["adjudicate", "-"]) == 2
    said = "geniusbot adjudicate: Standard input is not UTF-8 text; save it as UTF-8 (plain text) and try again."
    assert said in capsys.readouterr().err
