"""Each game's keywords (the words of its notation) hold every word of every legal move's text.

A host tells a move attempt from table talk by these words, so a keyword list that fell behind
the parser would let a real attempt go unanswered. Every registered game and rule set is played
by seeded random choice, with the options that open its other phases (a DMO's choice, each
anomaly, the items), and every word of every legal move met on the way must be a keyword.
"""

from __future__ import annotations

import pytest

from geniusbot.conformance.rules import check_keywords, words_met
from geniusbot.games import notation_words, registry
from geniusbot.games.allhands.common import TASK_ANOMALIES

SEEDS = (1, 2, 3)

# The options that open phases (and so words) a game without options never reaches.
OPTION_SETS: dict[str, list[dict[str, str]]] = {
    "armslength": [{"dmo": "p1"}, {"dmo": "p2"}],
    **{task: [{"anomalies": ", ".join(names)}] for task, names in TASK_ANOMALIES.items()},
    "allhands": [{"items": "p1 all-in clock override; p2 all-in override"}],
}

CASES = [
    pytest.param(name, variant, options, id=f"{name}-{variant}-{'-'.join(options.values()) or 'plain'}")
    for name, cls in registry().items()
    for variant in cls.variants
    for options in [{}, *OPTION_SETS.get(name, [])]
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant", "options"), CASES)
def test_every_word_of_every_legal_move_is_a_keyword(name, variant, options):
    # The check of `geniusbot check GAME` (keywords), with the options that open more phases.
    check_keywords(registry()[name], variant, options, SEEDS)


@pytest.mark.slow
def test_the_playouts_reach_the_words_of_the_choices_and_the_anomalies():
    # The test above can only fail if the playouts meet the words: they do, phase by phase.
    arms = words_met(registry()["armslength"], "standard", {"dmo": "p1"}, 1)
    assert {"red", "blue", "first", "second"} <= set(arms)
    fate = words_met(registry()["tightwire"], "fate", {}, 1)
    assert {"pick", "turn", "order", "draw", "move"} <= set(fate)
    swab = words_met(registry()["swabbing"], "standard", OPTION_SETS["swabbing"][0], 1)
    assert {"snipe", "none"} <= set(swab)
    final: dict[str, str] = {}
    for seed in SEEDS:
        final |= words_met(registry()["allhands"], "standard", OPTION_SETS["allhands"][0], seed)
    assert {"ban", "call", "create", "play", "use", "pass", "all-in", "override"} <= set(final)


# Keywords are lower-case words, one each, as a player types them: the declaration check
# (tests/games/test_conformance.py) holds every game to it.


def test_notation_words_leave_coordinates_and_numbers_aside():
    assert notation_words("draw B5-C3 and move") == ["draw", "and", "move"]
    assert notation_words("Use All-In!") == ["use", "all-in"]
    assert notation_words("play 20 15 backup 3") == ["play", "backup"]
    assert notation_words("ban pick-your-prize, 1st red") == ["ban", "pick-your-prize", "red"]
    assert notation_words("H8") == [] and notation_words("gg") == ["gg"]
