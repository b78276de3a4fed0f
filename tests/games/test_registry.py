"""The registry of games: names, aliases, and rule sets known by their own names."""

import pytest

from geniusbot.games import OptionError, default_variant, get_game, new_game, registry


def test_every_game_is_found_by_its_name_in_any_case_and_spacing():
    for name, cls in registry().items():
        assert get_game(name.upper()) is cls
        assert get_game(f"  {name} ") is cls


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
