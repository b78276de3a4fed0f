"""The example records shipped in geniusbot/examples: each one replays to the result it claims.

Every file is pinned here (its game, rule set, winner, and exactly which lines are refused and
why) or in tests/test_adjudicate.py; a new example that is pinned nowhere fails
:func:`test_every_example_is_pinned`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import geniusbot
from geniusbot.adjudicate import GAME_OVER, adjudicate_text, format_report
from geniusbot.record import RecordLine, format_record, parse_record, record_from_game

EXAMPLES = Path(geniusbot.__file__).parent / "examples"

# Pinned, with their own assertions, in tests/test_adjudicate.py.
PINNED_ELSEWHERE = {"tictacfive.txt", "armslength.txt"}


@dataclass(frozen=True)
class Pin:
    game: str
    variant: str
    winner: str | None
    reason: str  # a fragment of the outcome's reason
    rejected: tuple[tuple[int, str, str, str], ...]  # (line, seat, text, a fragment of the reason)
    accepted: int


PINS: dict[str, Pin] = {
    "tightwire-classic.txt": Pin(
        "tightwire",
        "classic",
        "p1",
        "Blue (p2) has one piece left on the board",
        (
            (25, "p1", "draw A5-A3 and move", "would pass over the dot A4"),
            (31, "p2", "draw C3-C4", "C3-C4 crosses the line A1-D5"),
            (44, "p2", "revive A2", GAME_OVER),
        ),
        23,
    ),
    "tightwire-influx.txt": Pin(
        "tightwire",
        "influx",
        "p1",
        "p2 ran out of time",
        (
            (21, "p1", "D5-D4", "could mean drawing the line alone or drawing it and moving"),
            (30, "p1", "move D4-C3", "would repeat an earlier position"),
        ),
        24,
    ),
    "threadsoffate.txt": Pin(
        "tightwire",
        "fate",
        "p1",
        "Blue (p2) has one piece left on the board",
        (
            (24, "p2", "first", "It is not your turn; waiting for p1."),
            (
                40,
                "p2",
                "woven revive C2",
                "C2 has no line at it; the Woven Revive places a piece on an empty dot "
                "with exactly one line, and `revive C2` revives",
            ),
        ),
        26,
    ),
    "tiles.txt": Pin(
        "tiles",
        "standard",
        "p1",
        "p2 declared G2 as blue, but it is red",
        (
            (31, "p1", "mines A1 C6 E2 F5 G7", "by direct message"),
            (33, "p2", "mines B3 D5 E6 F2", "exactly five different tiles"),
        ),
        16,
    ),
    "decks.txt": Pin(
        "decks",
        "standard",
        "p1",
        "p1 reached 25 points (p1 25.5, p2 23.5)",
        (
            (24, "p1", "play 9", "by direct message"),
            (50, "p2", "play backup 2", "You have nothing to play this phase"),
        ),
        22,
    ),
    "swabbing.txt": Pin(
        "swabbing",
        "standard",
        "p2",
        "p2 wins the task, 11 tiles to 6",
        (
            (28, "p2", "E5 F6", "E5 and F6 are not side by side"),
            (38, "p1", "C4 D4", "C4 is already black"),
        ),
        16,
    ),
    "allhands.txt": Pin(
        "allhands",
        "standard",
        "p2",
        "p2 reaches 23 points and wins All Hands On Deck, 23 to 16",
        (
            (39, "p2", "use all-in", "by direct message, not in the game room: the All-In answers are sealed"),
            (111, "p2", "ban backup", "It is not your turn; waiting for p1."),
        ),
        227,
    ),
}


def _files() -> list[str]:
    return sorted(path.name for path in EXAMPLES.glob("*.txt"))


def test_every_example_is_pinned():
    assert set(_files()) == set(PINS) | PINNED_ELSEWHERE


@pytest.mark.parametrize("name", sorted(PINS))
def test_an_example_replays_to_its_pinned_result(name):
    pin = PINS[name]
    result = adjudicate_text((EXAMPLES / name).read_text(encoding="utf-8"))
    assert (result.game.name, result.game.variant) == (pin.game, pin.variant)
    refused = [a for a in result.actions if not a.accepted]
    assert [(a.line, a.seat, a.text) for a in refused] == [r[:3] for r in pin.rejected]
    for action, (*_, reason) in zip(refused, pin.rejected):
        assert reason in (action.error or ""), (action.line, action.error)
    assert sum(a.accepted for a in result.actions) == pin.accepted
    assert result.outcome is not None
    assert result.outcome.winner == pin.winner
    assert pin.reason in result.outcome.reason
    # The Result header agrees with the replay.
    assert result.notes == []


@pytest.mark.parametrize("name", _files())
def test_an_example_says_how_to_try_it_and_names_its_players(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert f"geniusbot adjudicate geniusbot/examples/{name}" in text
    record = parse_record(text)
    assert record.header("P1") and record.header("P2") and record.header("Result")


@pytest.mark.parametrize("name", sorted(PINS))
def test_an_example_gives_the_documented_json_and_report(name):
    result = adjudicate_text((EXAMPLES / name).read_text(encoding="utf-8"))
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data) == {"game", "actions", "outcome"}
    assert data["outcome"]["winner"] == PINS[name].winner
    report = format_report(result)
    assert f"{PINS[name].accepted} of {len(result.actions)} lines accepted." in report


def test_the_final_match_example_plays_thirteen_tasks_with_every_item_and_bans():
    result = adjudicate_text((EXAMPLES / "allhands.txt").read_text(encoding="utf-8"))
    view = result.game.view()
    plays = view["plays"]
    assert [p["task"] for p in plays] == ["tiles", "decks", "swabbing"] * 4 + ["tiles"]
    assert [(p["winner"], p["points"]) for p in plays] == [
        ("p2", 1),
        ("p2", 3),
        ("p2", 1),
        ("p1", 4),
        ("p2", 2),
        ("p1", 2),
        ("p1", 3),
        ("p2", 3),
        ("p1", 3),
        ("p2", 4),
        ("p1", 4),
        ("p2", 4),
        ("p2", 5),
    ]
    assert view["points"] == {"p1": 16, "p2": 23}
    # Both All-Ins and both of Yujin's Overrides are spent; the 2nd play of Dueling Decks was banned
    # down to one anomaly, and the 5th Tile Decklaration keeps three of five.
    assert [p["all_in"] for p in plays if p["all_in"]] == [["p2"], ["p1"]]
    assert [p["play"] for p in plays if p["override"] == "p1"] == [4, 8]
    assert plays[4]["anomalies"] == ["revolution"] and len(plays[4]["bans"]) == 4
    assert plays[12]["anomalies"] == ["chain", "rainbow", "rectangle-adverse"]
    assert view["items"]["p1"] == {"all_in": 0, "override": 0, "clock": False}
    # Every memory grid was taken down by a host line, and the mines went by DM.
    host_lines = [a.text for a in result.actions if a.seat == "host"]
    assert host_lines == ["close window"] * 5
    assert all(a.private for a in result.actions if a.text.startswith("mines"))


def test_the_fate_example_drafts_every_item_and_keeps_the_unused_ones():
    result = adjudicate_text((EXAMPLES / "threadsoffate.txt").read_text(encoding="utf-8"))
    view = result.game.view()
    assert [(p["seat"], p["item"]) for p in view["draft"]["picks"]] == [
        ("p1", "turn_order"),
        ("p2", "woven_revive"),
        ("p1", "extra_slack"),
    ]
    assert view["first"] == "p1"
    # Turn Order is spent; the refused Woven Revive left the item with p2.
    assert view["items"] == {"p1": ["extra_slack"], "p2": ["woven_revive"]}


@pytest.mark.parametrize("name", ["tiles.txt", "decks.txt"])
def test_the_dm_examples_send_their_sealed_moves_privately(name):
    result = adjudicate_text((EXAMPLES / name).read_text(encoding="utf-8"))
    assert any(a.private and a.accepted for a in result.actions)
    # Every sealed line that was accepted came by DM; the room lines refused say so.
    for action in result.actions:
        if not action.accepted and "by direct message" in (action.error or ""):
            assert not action.private


@pytest.mark.parametrize("name", _files())
def test_an_example_written_back_from_its_game_replays_the_same(name):
    # What a host exports: the game's own headers and only the accepted lines, DMs and host lines
    # included. It must replay to the same game, with every line accepted.
    first = adjudicate_text((EXAMPLES / name).read_text(encoding="utf-8"))
    accepted = [RecordLine(0, a.seat, a.private, a.text) for a in first.actions if a.accepted]
    text = format_record(record_from_game(first.game, accepted))
    again = adjudicate_text(text)
    assert all(a.accepted for a in again.actions), [a.error for a in again.actions if not a.accepted]
    assert again.game == first.game
    assert again.notes == []
