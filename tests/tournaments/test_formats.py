"""The formats' rules, as scenarios: who meets whom, who gets the bye, who goes on, who is ahead."""

from __future__ import annotations

import itertools

from geniusbot.tournaments import (
    DOUBLE_ELIMINATION,
    DRAW,
    LOSS,
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    SWISS,
    WIN,
    Game,
    bracket,
    champion,
    losses,
    pair,
    rounds_of,
    standings,
)


def play(form: str, seeds: list[int], rounds: int, active: list[int] | None = None) -> list[Game]:
    """Every round paired and won by the better seed (a bye scores a win)."""
    games: list[Game] = []
    for number in range(1, rounds + 1):
        for first, second in pair(form, seeds, active or seeds, games, number, rounds):
            score = WIN if second is None or seeds.index(first) < seeds.index(second) else LOSS
            games.append(Game(number, first, second, score))
    return games


def test_a_swiss_of_eight_pairs_nobody_twice_and_the_top_seed_wins_three_of_three() -> None:
    seeds = list(range(1, 9))
    games = play(SWISS, seeds, 3)
    met = [frozenset((g.first, g.second)) for g in games]
    assert len(met) == len(set(met)) == 12  # four games a round, no pair twice
    rows = standings(SWISS, seeds, games)
    assert (rows[0].player, rows[0].points, rows[0].place) == (1, 3.0, 1)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_round_one_of_a_swiss_meets_the_top_half_with_the_bottom_half() -> None:
    pairs = pair(SWISS, list(range(1, 9)), list(range(1, 9)), [], 1, 3)
    assert sorted(frozenset(p) for p in pairs) == sorted(frozenset((i, i + 4)) for i in range(1, 5))


def test_an_odd_swiss_gives_one_bye_a_round_never_twice_to_the_same_player() -> None:
    seeds = list(range(1, 6))
    games = play(SWISS, seeds, 3)
    byes = [g.first for g in games if g.bye]
    assert len(byes) == 3 and len(set(byes)) == 3
    assert 1 not in byes  # the lowest seed takes the first bye, not the top one


def test_a_withdrawn_player_is_paired_no_more() -> None:
    seeds = list(range(1, 7))
    games = play(SWISS, seeds, 1)
    pairs = pair(SWISS, seeds, [1, 2, 3, 4, 5], games, 2, 3)
    assert 6 not in {p for pairing in pairs for p in pairing}
    assert sum(1 for _, second in pairs if second is None) == 1


def test_buchholz_then_sonneborn_berger_break_a_tie_of_points() -> None:
    # 1 beat 2, 3 beat 4; then 1 lost to 3... make 1 and 3 tie on points with different opponents.
    games = [
        Game(1, 1, 2, WIN),
        Game(1, 3, 4, WIN),
        Game(2, 1, 4, WIN),
        Game(2, 2, 3, WIN),
        Game(3, 1, 3, DRAW),
        Game(3, 2, 4, WIN),
    ]
    rows = standings(SWISS, [1, 2, 3, 4], games)
    # 1: 2.5, 2: 2, 3: 1.5, 4: 0; 1's opponents 2, 4, 3 have 3.5 points, Buchholz 3.5.
    assert [(r.player, r.points, r.buchholz) for r in rows] == [
        (1, 2.5, 3.5),
        (2, 2.0, 4.0),
        (3, 1.5, 4.5),
        (4, 0.0, 6.0),
    ]
    # 1 beat 2 and lost to 4, 3 beat 4 and lost to 2, 2 beat 4: 1 and 3 have a point each, and
    # opponents of 3 points (Buchholz), behind 4 (a point, Buchholz 4); 1 beat the stronger one.
    tied = [Game(1, 1, 2, WIN), Game(1, 3, 4, WIN), Game(2, 1, 4, LOSS), Game(2, 2, 3, WIN), Game(3, 2, 4, WIN)]
    rows = standings(SWISS, [3, 1, 2, 4], tied)  # 3 the better seed: the tie-break, not the seed, decides
    assert [(r.player, r.points, r.buchholz, r.sonneborn) for r in rows[2:]] == [(1, 1.0, 3.0, 2.0), (3, 1.0, 3.0, 1.0)]


def test_players_level_on_every_tie_break_share_a_place() -> None:
    rows = standings(SWISS, [1, 2], [Game(1, 1, 2, DRAW)])
    assert [r.place for r in rows] == [1, 1]


def test_a_round_robin_of_five_meets_everyone_once_with_a_bye_each() -> None:
    seeds = list(range(1, 6))
    games = play(ROUND_ROBIN, seeds, rounds_of(ROUND_ROBIN, 5))
    met = {frozenset((g.first, g.second)) for g in games if not g.bye}
    assert met == {frozenset(p) for p in itertools.combinations(seeds, 2)}
    assert sorted(g.first for g in games if g.bye) == seeds
    assert standings(ROUND_ROBIN, seeds, games)[0].points == 5.0  # 4 wins and the bye


def test_a_round_robin_gives_a_withdrawn_players_games_to_the_opponents() -> None:
    pairs = pair(ROUND_ROBIN, [1, 2, 3, 4], [1, 2, 3], [], 1, 3)
    assert len(pairs) == 2 and sum(1 for _, s in pairs if s is None) == 1


def test_an_elimination_bracket_meets_the_top_seed_with_the_lowest() -> None:
    assert bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_a_single_elimination_of_six_gives_the_top_two_seeds_byes_and_the_top_seed_wins() -> None:
    seeds = list(range(1, 7))
    first = pair(SINGLE_ELIMINATION, seeds, seeds, [], 1, 3)
    assert first == [(1, None), (4, 5), (2, None), (3, 6)]
    games = play(SINGLE_ELIMINATION, seeds, 3)
    assert [(g.first, g.second) for g in games if g.round == 2] == [(1, 4), (2, 3)]
    assert champion(seeds, games, 3) == 1
    assert [r.player for r in standings(SINGLE_ELIMINATION, seeds, games)][:2] == [1, 2]


def test_a_drawn_elimination_game_sends_the_better_seed_on() -> None:
    assert Game(1, 5, 4, DRAW).winner([1, 2, 3, 4, 5]) == 4


def play_double(
    seeds: list[int], active: list[int], rounds: int, upset: set[frozenset[int]] = frozenset()
) -> list[Game]:
    """A double elimination played out: the better seed wins but in the ``upset`` pairs."""
    games: list[Game] = []
    for number in range(1, rounds + 1):
        pairs = pair(DOUBLE_ELIMINATION, seeds, active, games, number, rounds)
        if not pairs:
            break
        for first, second in pairs:
            better = second is None or seeds.index(first) < seeds.index(second)
            if second is not None and frozenset((first, second)) in upset:
                better = not better
            games.append(Game(number, first, second, WIN if better else LOSS))
    return games


def test_a_double_elimination_of_six_puts_out_each_player_at_a_second_loss() -> None:
    seeds = list(range(1, 7))
    games = play_double(seeds, seeds, rounds_of(DOUBLE_ELIMINATION, 6))
    lost = losses(seeds, games)
    assert sorted(lost.values()) == [0, 2, 2, 2, 2, 2]  # one champion, never beaten
    assert [(g.first, g.second) for g in games if g.round == 1] == [(1, 6), (2, 5), (3, 4)]
    rows = standings(DOUBLE_ELIMINATION, seeds, games)
    assert rows[0].player == 1
    for player in seeds:  # nobody plays on after a second loss
        second_loss = [
            g.round for g in games if player in (g.first, g.second) and g.winner(seeds) not in (player, None)
        ]
        if len(second_loss) == 2:
            assert max(g.round for g in games if player in (g.first, g.second)) == second_loss[1]


def test_an_odd_group_gives_its_lowest_seed_the_bye_and_the_unbeaten_meet_only_the_unbeaten() -> None:
    seeds = list(range(1, 7))
    round_one = [Game(1, 1, 6, WIN), Game(1, 2, 5, WIN), Game(1, 3, 4, WIN)]
    pairs = pair(DOUBLE_ELIMINATION, seeds, seeds, round_one, 2, 8)
    # Unbeaten 1, 2, 3: 3 (the lowest) waits; once-beaten 4, 5, 6: 6 waits. The byes are listed last.
    assert pairs == [(1, 2), (4, 5), (3, None), (6, None)]
    round_two = [Game(2, *p, WIN) for p in pairs]
    # 2 lost to 1 and 5 is out (a second loss): 1 meets 3; of 2, 4, 6 the lowest without a bye (4) waits.
    assert pair(DOUBLE_ELIMINATION, seeds, seeds, round_one + round_two, 3, 8) == [(1, 3), (2, 6), (4, None)]


def test_a_withdrawn_player_is_paired_no_more_and_stands_behind_the_ones_still_in() -> None:
    seeds = list(range(1, 7))
    games = play_double(seeds, [1, 2, 3, 4, 5], rounds_of(DOUBLE_ELIMINATION, 6))
    assert 6 not in {p for g in games for p in (g.first, g.second)}
    assert standings(DOUBLE_ELIMINATION, seeds, games, withdrawn={6})[-1].player == 6


def test_the_final_is_played_again_when_the_unbeaten_loses_it() -> None:
    seeds = [1, 2]
    games = [Game(1, 1, 2, LOSS)]  # 1 loses once: both have a loss, the final is played again
    assert pair(DOUBLE_ELIMINATION, seeds, seeds, games, 2, 4) == [(1, 2)]
    games.append(Game(2, 1, 2, LOSS))
    assert pair(DOUBLE_ELIMINATION, seeds, seeds, games, 3, 4) == []
    assert standings(DOUBLE_ELIMINATION, seeds, games)[0].player == 2
