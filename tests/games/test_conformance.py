"""Conformance, OpenSpiel-style: every registered game (a plug-in too), every rule set, held to
the contract by the checks of :mod:`geniusbot.conformance`, the code ``geniusbot check GAME``
runs on an installed game. The checks are the package's; these tests run them on each game.

Random games are played by seeded choice from ``legal_moves()`` to their end (every game ends
within 1000 actions of random play), half the moves typed through ``parse_move(move.text())``,
and every invariant of the rules API is checked after every action; each game's record replays
through the adjudicator to the same game. Every event of a playout (moves, closed windows,
timeouts, resignations) has a kind that is data. The checks through the host are in
``tests/host/test_host_conformance.py``, ``test_replay_steps.py`` and ``test_view_once.py``;
the others here, in ``test_conformance_place.py``, ``test_keywords.py``, ``test_purity.py`` and
the tests of the host's words (``test_chatter.py``, ``test_board_text.py``, ``test_console_help.py``).
"""

from __future__ import annotations

import enum
from importlib.metadata import entry_points

import pytest

from geniusbot.conformance import CheckFailed, purity, rules, texts
from geniusbot.conformance.checks import CHECK_NAMES
from geniusbot.games import ENTRY_POINT_GROUP, Event, EventKind, registry

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant}") for name, cls in registry().items() for variant in cls.variants
]
NAMES = sorted(registry())


def test_the_cases_are_every_registered_game_and_rule_set_a_plug_in_too():
    # Built-in or installed from outside (examples/blackwhite), every game of the entry points is held
    # to the same contract: the cases come from the registry, never from a list of names.
    assert {param.values for param in CASES} == {(n, v) for n, cls in registry().items() for v in cls.variants}
    outside = {e.name for e in entry_points(group=ENTRY_POINT_GROUP) if e.dist is None or e.dist.name != "geniusbot"}
    assert outside <= set(registry())


#: Where the test suite runs each check of ``geniusbot check`` on every registered game.
RUN_BY = {
    "declaration": "tests/games/test_conformance.py",
    "random-play": "tests/games/test_conformance.py",
    "event-kinds": "tests/games/test_conformance.py",
    "words": "tests/words/test_every_game_speaks_in_messages.py",
    "timeouts": "tests/games/test_conformance.py",
    "options": "tests/games/test_conformance.py",
    "picture": "tests/games/test_conformance.py",
    "wrong-place": "tests/games/test_conformance_place.py",
    "stopped-clock": "tests/games/test_conformance_place.py",
    "keywords": "tests/games/test_keywords.py",
    "purity": "tests/games/test_purity.py",
    "commands": "tests/host/test_chatter.py",
    "text-board": "tests/host/test_board_text.py",
    "help": "tests/host/test_console_help.py",
    "hosted-play": "tests/host/test_host_conformance.py",
    "replay": "tests/host/test_replay_steps.py",
    "views-once": "tests/host/test_view_once.py",
}


def test_every_check_of_geniusbot_check_is_run_by_the_suite_on_every_game():
    # A new check gets its test: the suite holds the built-in games to all that `check` holds a plug-in to.
    from pathlib import Path

    from geniusbot.conformance import checks

    assert set(RUN_BY) == set(CHECK_NAMES)
    root = Path(__file__).resolve().parents[2]
    functions = {
        "declaration": "check_declaration",
        "random-play": "check_random_play",
        "event-kinds": "check_playout_event_kinds",
        "words": "check_words",
        "timeouts": "check_timeouts",
        "options": "check_option_texts",
        "picture": "check_picture",
        "wrong-place": "check_wrong_place",
        "stopped-clock": "check_running_clock",
        "keywords": "check_keywords",
        "purity": "check_purity",
        "commands": "check_command_names",
        "text-board": "check_text_boards",
        "help": "check_help",
        "hosted-play": "check_hosted_play",
        "replay": "check_replay_steps",
        "views-once": "check_views_once",
    }
    for name, path in RUN_BY.items():
        assert f"{functions[name]}(" in (root / path).read_text(encoding="utf-8"), (name, path)
    assert len(checks.CHECKS) == len(functions)


@pytest.mark.parametrize("name", NAMES)
def test_each_game_declares_what_the_host_reads(name):
    rules.check_declaration(registry()[name])


def test_a_game_that_names_other_seats_fails_the_declaration_check():
    # Every match has two seats, p1 and p2: the host, the clocks and the records name those.
    from geniusbot.games.tictacfive.rules import TicTacFive

    class ThreeSeats(TicTacFive):
        seats = ("p1", "p2", "p3")  # type: ignore[assignment]

    with pytest.raises(CheckFailed, match="seats"):
        rules.check_declaration(ThreeSeats)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant"), CASES)
def test_random_games_end_keep_every_invariant_and_replay_from_their_record(name, variant):
    ended = rules.check_random_play(registry()[name], variant)
    assert len(ended) == 3 and all(game.is_over and game.name == name for game in ended)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_every_event_kind_is_a_member_of_event_kind_or_of_the_games_own_enum(name, variant):
    rules.check_playout_event_kinds(registry()[name], variant)


@pytest.mark.parametrize("name", NAMES)
def test_no_event_kind_in_a_games_package_is_a_string_literal(name):
    purity.check_kinds_in_source(registry()[name])


class ForeignKind(enum.StrEnum):
    MOVE = "move"


class PlainKind(enum.Enum):
    MOVE = "move"


@pytest.mark.parametrize("kind", ["move", ForeignKind.MOVE, PlainKind.MOVE])
def test_a_free_string_or_a_kind_from_outside_the_games_package_fails_the_kind_check(kind):
    # The check itself: a plain string, another package's member or a member of no StrEnum fails.
    cls = next(iter(registry().values()))
    rules.check_event_kinds(cls, [Event("said", kind=EventKind.INFO)])
    with pytest.raises(CheckFailed, match="kind"):
        rules.check_event_kinds(cls, [Event("said", kind=kind)])


def test_the_literal_kind_pattern_finds_a_kind_given_as_a_string():
    assert purity.LITERAL_KIND.search('Event("x", kind="draw")')
    assert purity.LITERAL_KIND.search('if event.kind == "draw":')
    assert not purity.LITERAL_KIND.search("Event('x', kind=Kind.DRAW)")
    assert not purity.LITERAL_KIND.search('kind = "draw"')


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_timeouts_end_or_advance_the_game_consistently(name, variant):
    rules.check_timeouts(registry()[name], variant)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_any_option_text_makes_a_game_or_an_option_error(name, variant):
    rules.check_option_texts(registry()[name], variant)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_picture_draws_alike_and_shows_every_result_banner_whole(name):
    texts.check_picture(registry()[name])


def test_the_banner_check_tells_a_banner_that_fits_from_one_that_is_cut():
    assert texts.banner_fits("Alexandra wins: Sebastian resigned", 700)
    long = "Alexandra makes a line of five stones from H8 to L8 after a very long and tiring game; Alexandra wins"
    assert texts.banner_fits(long, 900) and not texts.banner_fits(long * 2, 700)
