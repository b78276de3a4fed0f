"""The hidden-information scan covers practice matches: whole matches of the hidden games
hosted through a real host, p2 played by the practice opponent (its knowledge rebuilt from the
store as the console's opponent rebuilds it, its moves submitted as a player's, private ones by
DM), p1 at random; after every step the scan's checks hold (no hidden value in the room, a
sealed submission tells the room nothing of itself)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from geniusbot.practice import Budget, choose
from geniusbot.practice.seat import knowledge_of
from geniusbot.storage import Store
from tests.host.test_hidden_scan import Scan

pytestmark = pytest.mark.slow


class PracticeScan(Scan):
    """The scan, with p2's moves chosen by the practice opponent."""

    async def step(self, rng: random.Random) -> None:
        game = self.game
        if "p2" in game.to_move() and rng.random() < 0.9:
            knowledge = await knowledge_of(self.store, self.match_id, "p2")
            choice = choose(knowledge, Budget(6), seed=len(knowledge.views))
            move = game.parse_move(choice.text, "p2", private=choice.private)
            self.counts["practice move"] += 1
            await self.submit(move, rng)
            return
        await super().step(rng)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("tiles", {"anomalies": "landmine,implode"}),
        ("decks", {"anomalies": "darkness,backup"}),
        ("swabbing", {"anomalies": "snipe,hook"}),
        ("allhands", {"items": "p1 all-in override; p2 all-in override clock"}),
    ],
)
async def test_a_practice_match_never_shows_the_room_a_hidden_value(sqlite_db_url, game, options):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        rng = random.Random(f"practice-scan:{game}")
        scan = PracticeScan(store)
        await scan.start(game, 3, options)
        for _ in range(4000 if game == "allhands" else 1500):
            if scan.game.is_over:
                break
            await scan.step(rng)
        await scan.finish()
        assert scan.game.is_over
        assert scan.counts["practice move"] > 0, Counter(scan.counts)
    finally:
        await store.close()
