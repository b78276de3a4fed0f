"""The Swiss pairing against the reference engine: eleven players, five rounds, wins, losses and
draws, a bye each round the field is odd and a withdrawal before round 3, each round's pairings
(who plays whom, and who has white: seat p1) as bbpPairings 5.0.1 (``--dutch``, the FIDE Dutch
rules in force until 2026) paired the same tournament."""

from __future__ import annotations

from geniusbot.tournaments import SWISS, Game, pair

#: Each round: bbpPairings' pairings (white, black; a bye's black ``None``) and the results played
#: (white's score), for a field seeded 1 to 11; player 4 withdraws before round 3.
ROUNDS = [
    ([(1, 6), (7, 2), (3, 8), (9, 4), (5, 10), (11, None)], [0.0, 1.0, 0.0, 0.5, 1.0, 1.0]),
    ([(8, 5), (6, 11), (4, 7), (2, 9), (10, 1), (3, None)], [1.0, 0.5, 1.0, 0.0, 0.5, 1.0]),
    ([(11, 8), (9, 6), (7, 3), (5, 1), (2, 10)], [1.0, 0.5, 1.0, 1.0, 1.0]),
    ([(11, 5), (6, 7), (8, 9), (1, 2), (10, 3)], [0.0, 0.0, 1.0, 1.0, 1.0]),
    ([(7, 8), (5, 6), (10, 11), (9, 1), (3, 2)], [0.5, 0.0, 1.0, 0.5, 1.0]),
]


def test_every_round_is_paired_as_the_reference_engine_pairs_it() -> None:
    seeds = list(range(1, 12))
    active = list(seeds)
    games: list[Game] = []
    for number, (expected, results) in enumerate(ROUNDS, 1):
        if number == 3:
            active.remove(4)
        paired = pair(SWISS, seeds, active, games, number, len(ROUNDS))
        assert sorted(paired, key=str) == sorted(expected, key=str), number
        assert paired[-1][1] is None if any(b is None for _, b in expected) else True  # the bye last
        games += [Game(number, first, second, score) for (first, second), score in zip(expected, results)]


def test_a_round_that_only_rematches_could_pair_is_not_paired() -> None:
    games = [Game(1, 1, 2, 1.0)]  # two players who have met: nothing is left to pair
    assert pair(SWISS, [1, 2], [1, 2], games, 2, 2) == []
