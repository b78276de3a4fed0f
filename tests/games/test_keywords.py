"""Each game's keywords (the words of its notation) hold every word of every legal move's text.

A host tells a move attempt from table talk by these words, so a keyword list that fell behind
the parser would let a real attempt go unanswered. Every registered game and rule set is played
by seeded random choice, with the options that open its other phases (a DMO's choice, each
anomaly, the items), and every word of every legal move met on the way must be a keyword.
"""

from __future__ import annotations

import itertools
import random

import pytest

from geniusbot.games import Game, notation_words, registry
from geniusbot.games.allhands.common import TASK_ANOMALIES

MOVE_CAP = 250
# As in the conformance test: some phases have millions of legal moves; a slice of them is read.
LEGAL_CAP = 2000
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


def words_met(cls: type[Game], variant: str, options: dict[str, str], seed: int) -> dict[str, str]:
    """Word -> a legal move text it came from, over one seeded random game."""
    rng = random.Random(f"keywords:{cls.name}:{variant}:{sorted(options.items())}:{seed}")
    game = cls.new(seed=seed, variant=variant, **options)
    texts: set[str] = set()
    for _ in range(MOVE_CAP):
        if game.is_over:
            break
        if not game.to_move():
            game.close_window()
            continue
        moves = list(itertools.islice(game.legal_moves(), LEGAL_CAP))
        texts.update(move.text() for move in moves)
        game.play(rng.choice(moves))
    return {word: text for text in texts for word in notation_words(text)}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant", "options"), CASES)
def test_every_word_of_every_legal_move_is_a_keyword(name, variant, options):
    cls = registry()[name]
    met: dict[str, str] = {}
    for seed in SEEDS:
        met |= words_met(cls, variant, options, seed)
    missing = {word: text for word, text in met.items() if word not in cls.keywords}
    assert missing == {}, f"{cls.title} takes these words but lacks them as keywords"


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


@pytest.mark.parametrize("cls", registry().values(), ids=registry().keys())
def test_keywords_are_lower_case_words_as_a_player_types_them(cls):
    assert cls.keywords, f"{cls.title} declares no keywords"
    for word in cls.keywords:
        assert notation_words(word) == [word], f"{word!r} is not one lower-case word"


def test_notation_words_leave_coordinates_and_numbers_aside():
    assert notation_words("draw B5-C3 and move") == ["draw", "and", "move"]
    assert notation_words("Use All-In!") == ["use", "all-in"]
    assert notation_words("play 20 15 backup 3") == ["play", "backup"]
    assert notation_words("ban pick-your-prize, 1st red") == ["ban", "pick-your-prize", "red"]
    assert notation_words("H8") == [] and notation_words("gg") == ["gg"]
