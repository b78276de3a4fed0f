"""The Analyse button of /replay on the fake Discord: the engine review of an ended match, made in
the bot's worker processes, told in a progress message edited as it goes, then the graph (with its
alt text) and the marked moves, to the one who pressed it only."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from geniusbot.analysis import Effort
from tests.e2e.botworld import World
from tests.e2e.test_bot_archive import play_to_a_five
from tests.e2e.test_bot_gif import open_page


@pytest.mark.slow
async def test_the_analyse_button_reviews_the_match_in_a_worker_and_posts_the_graph(world: World, monkeypatch):
    fake = world.fake
    async with world.running() as bot:
        from geniusbot.cogs import analysis  # the extension's own module (imported by the bot)

        monkeypatch.setattr(analysis, "EFFORT", Effort(candidates=2, playouts=1))
        await play_to_a_five(world)
        page = await open_page(world, 1)
        assert "gb:replay:1:analyse" in [c["custom_id"] for row in page.components for c in row["components"]]
        pressed = await fake.click(world.carol, page, "gb:replay:1:analyse")
        await fake.wait_for_response(pressed)
        told = await fake.wait_for_followup(pressed, timeout=30)
        assert told.ephemeral and told.content.startswith("Reviewing match #1: move 0 of 10")
        done = await fake.wait_for_edit(told, predicate=lambda m: m.content.startswith("Reviewed"), timeout=120)
        assert done.content == "Reviewed match #1: 10 moves."
        sent = await fake.wait_for_followup(pressed, 2, timeout=30)
        assert sent.ephemeral and sent.content.startswith("Engine review of 10 moves")
        assert "Forced wins are searched by the game's tactics" in sent.content
        (attachment,) = sent.attachments
        assert attachment.filename == "geniusbot-match-1-review.png"
        assert attachment.description.startswith("A graph of ")
        assert Image.open(io.BytesIO(fake.attachments(sent)[0])).size == (640, 240)
        # Nothing of it in the room.
        assert [m for m in fake.messages(world.room) if m.id in (told.id, sent.id) and not m.ephemeral] == []
        assert bot.practice_pool() is not None
