"""Tournaments on SQLite and PostgreSQL: sign-up, seeding, a round opened exactly once, a match's
end scoring its pairing in the transaction that ends it, a pairing's match found again by its room."""

from __future__ import annotations

import asyncio

from geniusbot.storage import Result, Store
from geniusbot.storage.tournaments import RUNNING, SIGNUP
from tests.storage.test_ratings import finish
from tests.storage.test_store import new_match

DRAWN = Result(None, "The board is full; a draw.", "draw")


async def new_tournament(store: Store, **overrides: object):
    values: dict[str, object] = dict(
        guild_id=1,
        channel_id=10,
        host_id=99,
        game="tictacfive",
        variant="standard",
        clock="5m",
        form="swiss",
        rounds=3,
        deadline=None,
    )
    values.update(overrides)
    return await store.create_tournament(**values)  # type: ignore[arg-type]


async def test_players_sign_up_once_and_are_seeded_at_the_start(store: Store):
    made = await new_tournament(store)
    assert (made.status, made.current_round, made.format) == (SIGNUP, 0, "swiss")
    assert await store.join_tournament(made.id, 111, "Alice", 1500.0)
    assert not await store.join_tournament(made.id, 111, "Alice", 1500.0)  # once
    assert await store.join_tournament(made.id, 222, "Bob", 1700.0)
    assert await store.start_tournament(made.id, [222, 111], 1)
    assert not await store.start_tournament(made.id, [222, 111], 1)  # started once
    assert not await store.join_tournament(made.id, 333, "Carol", 1500.0)  # sign-up is over
    assert [(e.user_id, e.seed) for e in await store.entries(made.id)] == [(222, 1), (111, 2)]
    assert (await store.get_tournament(made.id)).status == RUNNING  # type: ignore[union-attr]
    assert await store.withdraw(made.id, 111) and not await store.withdraw(made.id, 111)
    assert [e.withdrawn for e in await store.entries(made.id)] == [False, True]


async def test_a_round_is_opened_once_even_by_two_at_once(store: Store):
    made = await new_tournament(store)
    first, second = await asyncio.gather(
        store.open_round(made.id, 1, [(1, 2), (3, None)]), store.open_round(made.id, 1, [(2, 1), (3, None)])
    )
    assert first == second
    assert [(p.board, p.first_id, p.second_id, p.score) for p in first] in (
        [(1, 1, 2, None), (2, 3, None, 1.0)],  # a bye scores a win
        [(1, 2, 1, None), (2, 3, None, 1.0)],
    )
    again = await store.open_round(made.id, 1, [(5, 6)])  # a restart opening it again changes nothing
    assert again == first and (await store.get_tournament(made.id)).current_round == 1  # type: ignore[union-attr]


async def test_a_tournament_match_scores_its_pairing_as_it_ends(store: Store):
    made = await new_tournament(store)
    (pairing,) = await store.open_round(made.id, 1, [(111, 222)])
    assert await store.claim_room(made.id, 1, 1, 555) == 555
    assert await store.claim_room(made.id, 1, 1, 666) == 555  # claimed once
    match = await new_match(store, channel_id=555)
    assert await store.match_in_room(555) == match.id
    await store.set_pairing_match(made.id, 1, 1, match.id)
    assert await store.tournament_of_match(match.id) == made.id
    await finish(store, match.id)  # p1 wins
    (scored,) = await store.pairings(made.id)
    assert (scored.match_id, scored.score, scored.note) == (match.id, 1.0, None)
    assert await store.set_result(made.id, 1, 1, 0.0, "p1 played on the wrong board")
    assert [(p.score, p.note) for p in await store.pairings(made.id)] == [(0.0, "p1 played on the wrong board")]


async def test_a_match_that_ended_before_its_pairing_knew_it_is_scored_when_found(store: Store):
    made = await new_tournament(store)
    await store.open_round(made.id, 1, [(111, 222)])
    match = await new_match(store, channel_id=777)
    await finish(store, match.id, DRAWN)  # a crash came between the start and the pairing's record
    await store.set_pairing_match(made.id, 1, 1, match.id)
    assert [p.score for p in await store.pairings(made.id)] == [0.5]


async def test_an_aborted_match_leaves_its_pairing_unscored(store: Store):
    made = await new_tournament(store)
    await store.open_round(made.id, 1, [(111, 222)])
    match = await new_match(store, channel_id=777)
    await store.set_pairing_match(made.id, 1, 1, match.id)
    await finish(store, match.id, status="aborted")
    assert [p.score for p in await store.pairings(made.id)] == [None]
