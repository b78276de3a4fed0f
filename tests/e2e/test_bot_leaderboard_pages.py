"""/leaderboard's pages: Previous and Next buttons under the picture turn the page in place (for
the asker alone, or for the room when it was shown to the room); the first page's Previous and
the last page's Next are disabled, and a board of one page has none."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from tests.e2e.botworld import World
from tests.fakediscord import FakeMessage


def rate_players(world: World, count: int) -> None:
    """``count`` players rated in Tic-Tac-Five, 1500 + 10 a player (player 1 the highest)."""
    with sqlite3.connect(world.db_url.split("///", 1)[1]) as db:
        for n in range(1, count + 1):
            db.execute(
                "INSERT INTO ratings (guild_id, game, variant, user_id, display_name, rating, rd, volatility, "
                "wins, losses, draws, updated_at) VALUES (?, 'tictacfive', 'standard', ?, ?, ?, 60, 0.06, 1, 0, 0, ?)",
                (world.guild.id, 1000 + n, f"player{n}", 1500 + 10 * (count - n), datetime.now(UTC).isoformat()),
            )


def buttons(message: FakeMessage) -> list[tuple[str, bool]]:
    return [
        (button["custom_id"], bool(button.get("disabled")))
        for row in message.components
        for button in row.get("components", [])
    ]


@pytest.mark.slow
async def test_next_and_previous_turn_the_leaderboard_page_in_place(world: World) -> None:
    fake = world.fake
    async with world.running():
        rate_players(world, 12)
        for public in (False, True):
            given = {"game": "tictacfive", "public": public}
            interaction = await fake.slash(world.carol, world.guild, world.room, "leaderboard", given)
            await fake.wait_for_response(interaction)
            shown = await fake.wait_for_followup(interaction)
            assert shown.ephemeral is not public
            presser = world.bob if public else world.carol  # the room's page: anyone turns it
            assert shown.attachments[0].description.startswith("Leaderboard: Tic-Tac-Five (standard), page 1 of 2:")
            assert buttons(shown) == [
                ("gb:lb:tictacfive:standard:1:prev", True),
                ("gb:lb:tictacfive:standard:2:next", False),
            ]
            pressed = await fake.click(presser, shown, "gb:lb:tictacfive:standard:2:next")
            await fake.wait_for_response(pressed)
            await fake.wait_until(lambda: "page 2 of 2" in (shown.attachments[0].description or ""), what="page 2")
            assert shown.attachments[0].description.split("\n")[1:3] == [
                "11. player11, 1510, 1 game",
                "12. player12, 1500, 1 game",
            ]
            assert buttons(shown) == [
                ("gb:lb:tictacfive:standard:1:prev", False),
                ("gb:lb:tictacfive:standard:2:next", True),
            ]
            pressed = await fake.click(presser, shown, "gb:lb:tictacfive:standard:1:prev")
            await fake.wait_for_response(pressed)
            await fake.wait_until(lambda: "page 1 of 2" in (shown.attachments[0].description or ""), what="page 1")
