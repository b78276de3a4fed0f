"""The archive on the fake Discord (issue 29, parts 4 and 5): /import keeps a record's refused
lines (its strict option refuses the record), /record gives them back where they stood, the
step-through replay shows them under the step they followed; /replay's list filters by player, name, game, rule set, dates, result and
tournament, a page at a time, and says so in the bot's language."""

from __future__ import annotations

import re
from pathlib import Path

from geniusbot.words import unsaid
from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeInteraction

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "geniusbot" / "examples").glob("*.txt"))


async def import_file(world: World, path: Path, **options: object) -> str:
    upload = world.fake.upload(path.name, path.read_bytes())
    interaction = await world.fake.slash(world.owner, world.guild, world.room, "import", {"record": upload, **options})
    return await ephemeral_answer(world, interaction)


async def replay(world: World, **options: object) -> FakeInteraction:
    return await world.fake.slash(world.carol, world.guild, world.room, "replay", options)


async def test_import_keeps_refused_lines_and_replay_lists_filter_and_page(world: World) -> None:
    fake = world.fake
    tictacfive = next(p for p in EXAMPLES if p.stem == "tictacfive")
    async with world.running() as bot:
        strict = await import_file(world, tictacfive, strict=True)
        assert strict.startswith("Line 27 is refused ('p1: J8')") and (await bot.store.counts())["matches"] == 0
        for number, example in enumerate(EXAMPLES, start=1):
            answer = await import_file(world, example)
            assert answer.startswith(f"Imported the record as match #{number} (") and "refused line" in answer, answer
        number = EXAMPLES.index(tictacfive) + 1

        # /record gives the refused lines back where they stood.
        interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": number})
        await fake.wait_for_response(interaction)
        record = fake.attachments(await fake.wait_for_followup(interaction))[0].decode("utf-8")
        lines = [line for line in record.splitlines() if line.startswith(("p1", "p2"))]
        assert lines[11].startswith("p1: J8 {at=") and lines[11].endswith(
            "# refused: J8 would make two open threes at once (J8: row and column), a forbidden double three; "
            "choose another point."
        )
        assert record.count("# refused: ") == 4
        # The step-through message says it under the step it followed: here the last, after the end.
        interaction = await replay(world, match=number, step=99)
        await fake.wait_for_response(interaction)
        last = (await fake.wait_for_followup(interaction)).content.splitlines()
        assert last[1].startswith("Step 18 of 18: Hyunmin (p1): L8.")
        assert last[2] == "Then refused, line 37: Dongmin (p2): M8 (The game is over; no more moves are taken.)"

        # The list: everything, newest first, 15 a page; filters; pages.
        listing = (await ephemeral_answer(world, await replay(world))).splitlines()
        assert listing[0] == "Finished matches:" and listing[1].startswith(f"#{len(EXAMPLES)} ")
        assert listing[-2] == f"Page 1 of 1 ({len(EXAMPLES)} matches found)."
        found = (await ephemeral_answer(world, await replay(world, name="Hyunmin"))).splitlines()
        assert found[1].startswith(f"#{number} Tic-Tac-Five: Hyunmin vs Dongmin, Hyunmin wins (")
        assert found[2] == "Page 1 of 1 (1 match found)."
        found = (await ephemeral_answer(world, await replay(world, game="tightwire", rule_set="classic"))).splitlines()
        assert found[1].startswith("#") and "Tightwire (classic): Kyungran vs Sangmin" in found[1] and len(found) == 4
        found = (await ephemeral_answer(world, await replay(world, result="p2"))).splitlines()
        assert found[-2] == "Page 1 of 1 (2 matches found)."
        day = listing[1].rsplit("(", 1)[1].rstrip(")")
        found = (await ephemeral_answer(world, await replay(world, since=day, until=day))).splitlines()
        assert found[-2] == f"Page 1 of 1 ({len(EXAMPLES)} matches found)."
        assert await ephemeral_answer(world, await replay(world, until="2000-01-01")) == (
            "No finished match matches that; play one first, or change the filters."
        )
        assert await ephemeral_answer(world, await replay(world, tournament="Season 1")) == (
            "No finished match matches that; play one first, or change the filters."
        )
        assert await ephemeral_answer(world, await replay(world, since="soon")) == (
            "since is a day written YYYY-MM-DD, such as 2026-12-07, not 'soon'."
        )
        assert await ephemeral_answer(world, await replay(world, page=2)) == (
            "There is no page 2: the matches found fill 1."
        )


async def test_the_lists_pages_say_where_they_are_in_the_bots_language(world: World) -> None:
    from geniusbot.config import Settings
    from tests.e2e.botworld import TestBot

    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    async with world.running(TestBot(settings, time=world.time, guild_ready_timeout=0.01)):
        for example in EXAMPLES:
            await import_file(world, example)
        for answer in (
            await ephemeral_answer(world, await replay(world)),
            await ephemeral_answer(world, await replay(world, page=3)),
            await ephemeral_answer(world, await replay(world, since="soon")),
        ):
            for line in answer.splitlines():
                # The players' names and the games' titles are said inside the messages that quote them.
                assert not re.search(r"[^\W\d_]", unsaid(line)), line
