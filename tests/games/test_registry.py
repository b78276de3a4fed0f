"""The registry of games: names, aliases, and rule sets known by their own names."""

import pytest

from geniusbot.games import OptionError, default_variant, get_game, new_game

# Every game is found by its name in any case and spacing, and by each alias: the declaration
# check (geniusbot.conformance.rules.check_declaration, run on every game by test_conformance.py).


def test_a_rule_set_named_on_its_own_plays_that_rule_set():
    assert new_game("Threads of Fate").variant == "fate"
    assert new_game("deadly-influx").variant == "influx"
    assert new_game("tightwire").variant == "classic"
    assert default_variant("tictacfive") is None


def test_an_explicit_rule_set_wins_over_the_name():
    assert new_game("threadsoffate", variant="classic").variant == "classic"


def test_an_unknown_game_names_the_games_there_are():
    with pytest.raises(OptionError, match="tictacfive"):
        get_game("chess")
