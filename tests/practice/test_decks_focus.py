"""Dueling Decks names the moves worth searching (``search_moves``) and plays its play-outs with
a policy of its own (``rollout_move``): a create phase has hundreds of legal creations, and with
a few dozen iterations a search that tries them all, or every play of a hand, learns little of
each."""

from __future__ import annotations

import random

from geniusbot.games.allhands.decks import PLAY_FOCUS, Create, DuelingDecks, Play, _share


def _decks(anomalies: str = "") -> DuelingDecks:
    """Seed 5: the first prize is the 10."""
    return DuelingDecks.new(seed=5, anomalies=anomalies)


def _to_play(game: DuelingDecks, mine: str, theirs: str) -> DuelingDecks:
    game.submit(f"create {mine}", "p1", private=True)
    game.submit(f"create {theirs}", "p2", private=True)
    return game


def test_a_play_phase_offers_a_few_plays_and_the_one_that_surely_beats_the_whole_other_hand():
    game = _to_play(_decks(), "9 8", "12 4")
    moves = game.search_moves("p1")
    assert moves is not None and len(moves) <= PLAY_FOCUS < 8
    assert all(game.is_legal(m) for m in moves)
    assert Play("p1", (9, 8)) in moves  # 17 beats 16, whatever p2 plays


def test_with_backup_a_play_adds_its_backup_at_the_most_or_not_at_all():
    game = _to_play(_decks("backup"), "9 8", "12 4")
    ranked = game._plays_by_worth("p1")
    assert {play.backup for _, play in ranked} == {0, 3}
    assert len(ranked) == 4 * 2


def test_pick_your_prize_searches_single_cards_that_win_a_big_prize_against_big_cards():
    # Revolution: 42 is the highest card, so a 42 and a 1 add 1.1; a 21 alone adds 21 and wins
    # a prize of 22 (the average of 42, 21 and 1, rounded up) against them, 32 against the 42.
    game = _to_play(_decks("pick-your-prize,revolution"), "21 20", "42 1")
    moves = game.search_moves("p1")
    assert moves is not None and len(moves) <= PLAY_FOCUS
    assert Play("p1", (21,)) in moves
    assert Play("p1", ()) not in moves


def test_pick_your_prize_creations_include_two_cards_and_half_the_power():
    game = _decks("pick-your-prize")
    moves = game.search_moves("p1")
    assert moves is not None and len(moves) <= 10
    assert all(game.is_legal(m) for m in moves)
    # 50 power over 7 rounds: a share of 7.
    for cards in [(), (7,), (7, 1), (25,), (14, 7)]:
        assert Create("p1", cards) in moves


def test_a_create_phase_offers_a_few_creations_shaped_by_the_other_hand():
    game = _to_play(_decks(), "10", "12 7")
    game.submit("play none", "p1", private=True)
    game.submit("play none", "p2", private=True)
    moves = game.search_moves("p1")
    assert moves is not None and 2 < len(moves) <= 8
    assert all(game.is_legal(m) for m in moves)
    assert Create("p1", ()) in moves
    # 10 and 10 make 20, the least that beats 12 and 7 played together.
    assert Create("p1", (10,)) in moves


def test_the_play_out_policy_keeps_power_for_the_rounds_to_come():
    game = _decks()
    rng = random.Random(1)
    spent = [sum(game.rollout_move("p1", rng).cards) for _ in range(400)]  # type: ignore[union-attr]
    assert sum(spent) / len(spent) < 12
    assert max(spent) > 30  # now and then a big card still


def test_the_play_out_policy_mostly_plays_what_surely_wins_the_round():
    game = _to_play(_decks(), "9 8", "12 4")
    rng = random.Random(2)
    plays = [game.rollout_move("p1", rng) for _ in range(200)]
    assert sum(p == Play("p1", (9, 8)) for p in plays) > 120


def test_the_prizes_to_come_are_shared_as_in_colonel_blotto():
    # Equal budgets share them evenly; the poorer seat wins about half its budget's ratio to
    # the richer's; a seat with nothing left wins nothing of them.
    assert _share(30, 30) == 0.5
    assert _share(10, 40) == 1 / 8
    assert _share(40, 10) == 7 / 8
    assert _share(0, 20) == 0
    assert _share(0, 0) == 0.5


def test_power_beyond_what_the_other_seat_can_answer_is_worth_little():
    def lead(mine: int, theirs: int) -> float:
        game = _decks()
        game.power = {"p1": mine, "p2": theirs}
        return game.evaluate("p1")

    # Five more power against a seat of 5 adds less than five more against a seat of 20.
    assert 0 < lead(50, 5) - lead(45, 5) < lead(25, 20) - lead(20, 20)


def test_a_play_that_spends_power_the_other_seat_cannot_answer_keeps_its_worth():
    # p2 has 2 left and no card: p1's 9 wins the 10 as surely as the 9 and 8 together, and
    # the 8 it keeps is worth little against so poor a seat, so the two are worth nearly alike.
    game = _to_play(_decks(), "9 8", "none")
    game.power["p2"] = 2
    worth = {play.cards: value for value, play in game._plays_by_worth("p1")}
    assert worth[(9,)] > worth[(9, 8)] > worth[(9,)] - 1
    assert worth[()] < worth[(9,)] - 5
