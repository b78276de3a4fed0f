"""The GIF button of /replay on the fake Discord (archive issue, item 2): it sends the whole match
as an animated GIF to the one who pressed it, one frame per step, each frame the picture of the
public view (a sealed move shows only once the rules reveal it, never the seats' own views); one
that takes a while is told in a progress message edited as it goes; a GIF past the upload limit
comes in parts, each in a message of its own that says which steps it holds."""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.archive import gif
from geniusbot.archive.steps import Shown, from_store
from geniusbot.record import apply_action
from geniusbot.storage import Store
from tests.e2e.botworld import World, ephemeral_answer
from tests.e2e.test_bot_archive import play_to_a_five
from tests.e2e.test_bot_import import import_file
from tests.fakediscord import FakeMessage
from tests.host.longmatch import sampled, store_long_match

RECORDS = Path(__file__).resolve().parent.parent / "records"


def rgb_frames(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(image.convert("RGB"))
    return out


def same_picture(shown: Image.Image, frame: Image.Image) -> bool:
    return shown.crop((0, 0, *frame.size)).tobytes() == frame.convert("RGB").tobytes()


async def open_page(world: World, match: int) -> FakeMessage:
    interaction = await world.fake.slash(world.carol, world.guild, world.room, "replay", {"match": match})
    await world.fake.wait_for_response(interaction)
    return await world.fake.wait_for_followup(interaction)


@pytest.mark.slow
async def test_the_gif_button_sends_one_frame_per_step_to_the_presser(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await play_to_a_five(world)
        page = await open_page(world, 1)
        assert "gb:replay:1:gif" in [c["custom_id"] for row in page.components for c in row["components"]]
        pressed = await fake.click(world.carol, page, "gb:replay:1:gif")
        await fake.wait_for_response(pressed)
        sent = await fake.wait_for_followup(pressed, timeout=30)
        # Quick: no progress message, the GIF straight away, only to the one who asked.
        assert sent.content == "The replay of match #1 (Tic-Tac-Five) as a GIF: 11 frames, one per step."
        assert sent.ephemeral and sent.attachments[0].filename == "geniusbot-match-1.gif"
        shown = rgb_frames(fake.attachments(sent)[0])
        steps = await from_store(bot.store, 1)
        assert len(shown) == len(steps) == 11
        for frame, picture in zip(shown, gif.frames(steps), strict=True):
            assert same_picture(frame, picture)
        assert [m for m in fake.messages(world.room) if not m.ephemeral and m.attachments and m.id == sent.id] == []


@pytest.mark.slow
async def test_a_sealed_game_shows_only_what_the_room_saw_and_the_progress_is_told(world: World) -> None:
    fake = world.fake
    text = (RECORDS / "decks.txt").read_bytes()
    async with world.running() as bot:
        assert (await ephemeral_answer(world, await import_file(world, "decks.txt", text))).startswith(
            "Imported the record as match #1"
        )
        cog = bot.get_cog("Archive")  # the extension's own module: not the one a test imports
        cog.gif_progress_after, cog.gif_progress_every = 0.0, 0.01  # told at once, edited as it goes
        page = await open_page(world, 1)
        pressed = await fake.click(world.carol, page, "gb:replay:1:gif")
        told = await fake.wait_for_followup(pressed, timeout=30)
        steps = await from_store(bot.store, 1)
        assert told.content.startswith("Drawing the GIF of match #1: frame ")
        assert told.content.endswith(f" of {len(steps)}\u2026")
        # Edited as it goes (the event loop answers while the frames are drawn in a worker thread).
        going = await fake.wait_for_edit(
            told, predicate=lambda m: m.content.startswith("Drawing") and " frame 0 of " not in m.content, timeout=30
        )
        assert going.id == told.id
        done = await fake.wait_for_edit(told, predicate=lambda m: m.content.startswith("Drew"), timeout=30)
        assert done.content == f"Drew the GIF of match #1: {len(steps)} frames, one per step."
        sent = await fake.wait_for_followup(pressed, 2, timeout=30)
        shown = rgb_frames(fake.attachments(sent)[0])
        assert len(shown) == len(steps)
        game = steps.start.copy()
        secrets = 0
        for index, public in enumerate(steps):
            if index:
                apply_action(game, steps.actions[index - 1])
            assert same_picture(shown[index], gif.frame_image(public, steps))
            for seat in game.seats:
                private = gif.frame_image(Shown(index, game.view(seat), public.action, public.clocks), steps)
                if private.tobytes() != gif.frame_image(public, steps).tobytes():
                    secrets += 1
                    assert not same_picture(shown[index], private)
        assert secrets > 0


@pytest.mark.slow
async def test_a_gif_past_the_limit_comes_in_parts(world: World, monkeypatch) -> None:
    fake = world.fake
    monkeypatch.setattr(gif, "PART_BYTES", 60_000)
    async with world.running() as bot:
        await play_to_a_five(world)
        page = await open_page(world, 1)
        pressed = await fake.click(world.carol, page, "gb:replay:1:gif")
        first = await fake.wait_for_followup(pressed, timeout=30)
        count = int(first.content.split(" of ", 2)[1].split()[0])
        assert count >= 2
        sent = [first] + [await fake.wait_for_followup(pressed, n, timeout=30) for n in range(2, count + 1)]
        steps = list(gif.frames(await from_store(bot.store, 1)))
        start = 0
        for number, message in enumerate(sent, 1):
            shown = rgb_frames(fake.attachments(message)[0])
            assert message.attachments[0].filename == f"geniusbot-match-1-{number}.gif"
            assert message.content == (
                f"Part {number} of {count} of the replay of match #1 (Tic-Tac-Five), steps {start} to "
                f"{start + len(shown) - 1}: the whole GIF would pass Discord's 10 MB upload limit."
            )
            for offset, frame in enumerate(shown):
                assert same_picture(frame, steps[start + offset])
            start += len(shown)
        assert start == len(steps)


LONG_MOVES = 300


@pytest.mark.slow
async def test_the_gif_of_a_long_match_is_drawn_off_the_event_loop(world: World) -> None:
    """A sampler on the bot's loop, as for /replay of a long match (test_bot_archive_long.py): the
    loop's thread is never busy for more than 50 ms at a stretch while the GIF is drawn."""
    fake = world.fake
    store = await Store.open(world.db_url)
    try:
        match_id = await store_long_match(store, LONG_MOVES, guild_id=world.guild.id)
    finally:
        await store.close()
    async with world.running() as bot:
        cog = bot.get_cog("Archive")
        cog.gif_progress_after, cog.gif_progress_every = 0.0, 0.2
        page = await open_page(world, match_id)
        gc.collect()
        async with sampled() as lag:
            pressed = await fake.click(world.carol, page, f"gb:replay:{match_id}:gif")
            told = await fake.wait_for_followup(pressed, timeout=30)
            await fake.wait_for_edit(told, predicate=lambda m: m.content.startswith("Drew"), timeout=300)
            sent = await fake.wait_for_followup(pressed, 2, timeout=30)
        assert Image.open(io.BytesIO(fake.attachments(sent)[0])).n_frames == LONG_MOVES + 2  # and the resignation
    cpu, wall = lag.worst()
    assert len(lag.cpu) > 20
    assert cpu <= 0.050, f"the loop was busy for {cpu * 1000:.0f} ms at a stretch (wall lag {wall * 1000:.0f} ms)"
    assert wall <= 1.0, f"the loop came {wall * 1000:.0f} ms late (busy {cpu * 1000:.0f} ms at most)"


@pytest.mark.slow
async def test_two_presses_are_drawn_one_after_the_other_and_both_answered(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await play_to_a_five(world)
        cog = bot.get_cog("Archive")
        cog.gif_progress_after, cog.gif_progress_every = 0.0, 0.05
        page = await open_page(world, 1)
        interaction = await fake.slash(world.bob, world.guild, world.room, "replay", {"match": 1})
        await fake.wait_for_response(interaction)
        bobs = await fake.wait_for_followup(interaction)
        first = await fake.click(world.carol, page, "gb:replay:1:gif")
        second = await fake.click(world.bob, bobs, "gb:replay:1:gif")
        told = [await fake.wait_for_followup(p, timeout=30) for p in (first, second)]
        sent = [await fake.wait_for_followup(p, 2, timeout=30) for p in (first, second)]
        for message in sent:
            assert Image.open(io.BytesIO(fake.attachments(message)[0])).n_frames == 11
        # The second is told only once the first is drawn: one GIF at a time.
        kinds = [(e.kind, getattr(e.snapshot, "id", None), getattr(e.snapshot, "content", "")) for e in fake.log]
        drew_first = next(
            i for i, (k, m, c) in enumerate(kinds) if k == "message_update" and m == told[0].id and c.startswith("Drew")
        )
        shows_second = min(i for i, (k, m, c) in enumerate(kinds) if m == told[1].id and c.startswith("Drawing"))
        assert drew_first < shows_second
