"""The archive's tournament filter (``/replay tournament:``, ``geniusbot archive list --tournament``)
finds the matches the bot played for a tournament (by its number, as its pairings name them) as
well as imported records by their Event header."""

from __future__ import annotations

from tests.storage.test_archive_search import GUILD, archive, found


async def test_a_tournament_number_finds_its_matches_and_an_event_name_still_finds_imports(db_url: str) -> None:
    store, ids = await archive(db_url)
    try:
        made = await store.create_tournament(
            guild_id=GUILD,
            channel_id=5,
            host_id=7,
            game="tictacfive",
            variant="standard",
            clock=None,
            form="swiss",
            rounds=2,
            deadline=None,
        )
        for user in (101, 102, 103, 104):
            await store.join_tournament(made.id, user, str(user), 1500.0)
        await store.start_tournament(made.id, [101, 102, 103, 104], 2)
        await store.open_round(made.id, 1, [(101, 102), (103, 104)])
        await store.set_pairing_match(made.id, 1, 1, ids[0])
        await store.set_pairing_match(made.id, 1, 2, ids[5])
        await store.open_round(made.id, 2, [(101, 103), (102, 104)])  # not started yet: no match
        assert await found(store, tournament=f"#{made.id}") == [ids[5], ids[0]]
        assert await found(store, tournament=str(made.id)) == [ids[5], ids[0]]
        assert await found(store, tournament=f"#{made.id}", player="dave") == [ids[5]]
        assert await found(store, tournament="#99") == []
        assert await found(store, tournament="Spring Cup") == [ids[2], ids[1]]  # an import's Event
    finally:
        await store.close()
