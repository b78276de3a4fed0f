"""Direct messages across processes: Discord sends every DM to shard 0, so the process of shard 0
hands a DM (or a press of a DM button) for a match of shard 1 to its owner through the inbox;
the owner applies it once, with its key, and answers the player."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.harness import eventually, make_cluster
from tests.fakediscord import FakeDiscord

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ALL_IN = {"game": "allhands", "seed": 4, "clock": "none", "options": "items=p1 all-in; p2 all-in"}


async def test_a_dm_and_a_dm_button_for_shard_1s_match_are_applied_once_by_its_owner(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        try:
            zero, one = await cluster.owners()
            await cluster.commands_ready()
            started = await cluster.start_match(1, **ALL_IN)
            assert started.startswith("Match #"), started
            match_id = int(started.split("#")[1].split()[0])
            alice_dm, bob_dm = fake.dm_channel(cluster.alice), fake.dm_channel(cluster.bob)
            await fake.wait_for_message(
                bob_dm, predicate=lambda m: m.component(f"gb:dm:{match_id}:p2:pass") is not None, timeout=30
            )
            buttons = await fake.wait_for_message(
                alice_dm,
                predicate=lambda m: m.component(f"gb:dm:{match_id}:p1:use all-in") is not None,
                timeout=30,
            )

            # alice types her answer: shard 0's process receives it, shard 1's takes it and says so.
            sent = await fake.dm(cluster.alice, "use all-in")
            taken = await fake.wait_for_message(alice_dm, predicate=lambda m: m.content.startswith("Taken"), timeout=30)
            assert taken.content == "Taken: use all-in."
            await fake.wait_for_edit(buttons, predicate=lambda m: not m.components, timeout=30)

            # bob presses his button: deferred at once by shard 0, answered by shard 1 with its token.
            offer = next(m for m in fake.messages(bob_dm) if m.component(f"gb:dm:{match_id}:p2:pass") is not None)
            pressed = await fake.click(cluster.bob, offer, f"gb:dm:{match_id}:p2:pass")
            response = await fake.wait_for_response(pressed, timeout=5)
            assert response.type == 6  # deferred, within Discord's 3 s
            await fake.wait_for_edit(offer, predicate=lambda m: not m.components, timeout=30)
            assert offer.content == f"Match #{match_id}: you answered pass."

            # Each was taken once, under its Discord id, and the inbox is empty again.
            for key in (f"discord:{sent.id}", f"discord:{pressed.id}"):
                assert await cluster.query("SELECT count(*) FROM actions WHERE key = $1 AND accepted", key) == 1

            async def drained() -> bool:
                return await cluster.query("SELECT count(*) FROM inbox") == 0

            await eventually(drained, 10, "the inbox drained")
            assert [m.content for m in fake.messages(alice_dm)].count("Taken: use all-in.") == 1
            assert "handed to shard 1" in zero.text() and "handed" not in one.text()
            assert not cluster.tracebacks()
        finally:
            await cluster.close()
