"""A tournament in a cluster: the process that owns its server's shard (by the shard's PostgreSQL
advisory lock, as its matches are owned) runs it; killed with SIGKILL in the middle of a round and
started again, the round loses nothing, no match of it is started twice, and it completes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.harness import Cluster, make_cluster
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def threads(cluster: Cluster, shard: int) -> list[FakeChannel]:
    guild = cluster.rooms[shard].guild
    return [c for c in guild.channels.values() if c.is_thread and not c.archived and (c.name or "")[:1] == "#"]


def posts(cluster: Cluster, shard: int, start: str) -> list[FakeMessage]:
    return [m for m in cluster.fake.messages(cluster.rooms[shard].room) if m.content.startswith(start)]


async def resign(cluster: Cluster, shard: int, users: dict[str, FakeUser], thread: FakeChannel) -> None:
    """The thread's second player ("#5 Tic-Tac-Five: alice vs bob") resigns."""
    second = (thread.name or "").rsplit(" vs ", 1)[1]
    interaction = await cluster.fake.slash(users[second], cluster.rooms[shard].guild, thread, "resign", {})
    assert (await cluster.answer(interaction)).startswith("You resigned match #")


async def test_a_tournament_owner_killed_mid_round_is_restarted_and_the_round_completes_with_each_match_once(
    postgres_db_url: str, tmp_path: Path
) -> None:
    async with FakeDiscord() as fake:
        cluster = make_cluster(fake, tmp_path, postgres_db_url)
        where = cluster.rooms[1]
        carol, dave = fake.create_user("carol"), fake.create_user("dave")
        for user in (carol, dave):
            fake.add_member(where.guild, user)
        players = [cluster.alice, cluster.bob, carol, dave]
        users = {u.username: u for u in players}
        try:
            zero, one = await cluster.owners()
            await cluster.commands_ready()
            given = {"game": "tictacfive", "format": "swiss", "rounds": 2}
            interaction = await fake.slash(cluster.owner, where.guild, where.room, "tournament create", given)
            assert await cluster.answer(interaction) == "Tournament #1 is open for sign-up."
            [post] = posts(cluster, 1, "Tournament #1: ")
            for player in players:
                assert await cluster.answer(await fake.click(player, post, "gb:join:1")) == (
                    "You are signed up for tournament #1."
                )
            interaction = await fake.slash(cluster.owner, where.guild, where.room, "tournament start", {"number": 1})
            assert await cluster.answer(interaction) == "Tournament #1 has started."
            await fake.wait_until(lambda: len(threads(cluster, 1)) == 2, timeout=30, what="round 1's matches")
            await fake.wait_until(lambda: len(posts(cluster, 1, "Tournament #1, round 1:")) == 1, timeout=30)
            first, second = sorted(threads(cluster, 1), key=lambda t: t.id)
            await resign(cluster, 1, users, first)
            await fake.wait_until(
                lambda: first.archived or not (first.name or "").startswith("#"), timeout=30, what="match 1's end"
            )

            one.kill()  # SIGKILL in the middle of round 1: one match ended, one running
            again = cluster.start("one-again", "1")
            await again.serving(1)
            await fake.wait_until(lambda: "resumed" in again.text() or "serving shard(s) 1" in again.text(), timeout=30)
            assert await cluster.query("SELECT count(*) FROM matches") == 2  # none started again
            await resign(cluster, 1, users, second)
            await fake.wait_until(lambda: len(posts(cluster, 1, "Tournament #1, round 2:")) == 1, timeout=30)
            await fake.wait_until(lambda: len(threads(cluster, 1)) == 2, timeout=30, what="round 2's matches")
            # Every game of round 1 has its one match and its result; round 2's have theirs.
            assert await cluster.query("SELECT count(*) FROM matches") == 4
            assert await cluster.query("SELECT count(DISTINCT match_id) FROM tournament_pairings") == 4
            assert (
                await cluster.query("SELECT count(*) FROM tournament_pairings WHERE round = 1 AND score IS NULL") == 0
            )
            assert await cluster.query("SELECT count(*) FROM tournament_rounds") == 2
            # Each post once: the restart found round 1's and did not post it again.
            assert len(posts(cluster, 1, "Tournament #1, round 1:")) == 1
            assert len(posts(cluster, 1, "Tournament #1: standings after round 1 of 2.")) == 1
            assert not posts(cluster, 0, "Tournament #1")  # the other shard's room: nothing
            assert "tournament" not in zero.text().lower()
            assert not cluster.tracebacks()
        finally:
            await cluster.close()
