"""Boards as cards on the fake Discord (``/setup board``): ``card`` posts a Components V2 card per
move, ``edited`` one card per match edited after every move (and after a restart, the same one),
its latest moves logged in it. The card's accent is the mover's colour, its picture carries the
alt text, running clocks are Discord timestamps, its buttons work; a memory grid's board is a card
of its own, deleted when its window closes, never edited into the lasting card."""

from __future__ import annotations

import re
from typing import Any

import pytest

from geniusbot.discord_card import described, timestamp
from geniusbot.render.palette import COLOURS
from geniusbot.words import say
from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeMessage
from tests.fakediscord.components import IS_COMPONENTS_V2, of_type, texts

BLACK = COLOURS["black_stone"]
WHITE = COLOURS["white_stone"]


def rgb(colour: tuple[int, int, int]) -> int:
    return (colour[0] << 16) | (colour[1] << 8) | colour[2]


def is_card(message: FakeMessage) -> bool:
    return bool(message.flags & IS_COMPONENTS_V2)


def accent(card: FakeMessage) -> int | None:
    [container] = of_type(card.components, 17)
    colour: int | None = container.get("accent_color")
    return colour


def words(card: FakeMessage) -> str:
    return "\n".join(texts(card.components))


def gallery(card: FakeMessage) -> dict[str, Any]:
    [found] = of_type(card.components, 12)
    item: dict[str, Any] = found["items"][0]
    return item


async def set_board(world: World, style: str) -> str:
    interaction = await world.fake.slash(world.owner, world.guild, world.room, "setup", {"board": style})
    return await ephemeral_answer(world, interaction)


async def play(world: World, user: Any, point: str) -> FakeMessage:
    """``user`` types a move; the bot's next card in the room (posted or edited)."""
    mark = world.fake.mark()
    await world.fake.user_says(world.room, user, point)
    return await world.fake.wait_until(
        lambda: next(
            (
                e.subject
                for e in world.fake.log[mark:]
                if e.kind in ("message_create", "message_update") and is_card(e.subject) and not e.subject.deleted
            ),
            None,
        ),
        what="a card",
    )


async def colour_chosen(world: World, since: int) -> FakeMessage:
    """alice's three opening stones are down; bob takes white by button. The card after it."""
    choice = await world.fake.wait_for_message(
        world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None, since=since
    )
    mark = world.fake.mark()
    pressed = await world.fake.click(world.bob, choice, "gb:choice:1:p2:white")
    await world.fake.wait_for_response(pressed)
    return await world.fake.wait_until(
        lambda: next(
            (
                e.subject
                for e in world.fake.log[mark:]
                if e.kind in ("message_create", "message_update") and is_card(e.subject)
            ),
            None,
        ),
        what="the card after the colour choice",
    )


async def test_card_mode_posts_a_card_per_move(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await set_board(world, "card")).endswith(
            "Each move posts the board as a card. The rooms speak English (the server's default); "
            "a match keeps the one it started in."
        )
        mark = fake.mark()
        await world.start("tictacfive", seed=7)
        first = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        live = bot.host.matches[1]
        # No colours yet (the opening): the house accent, alice's clock running to its deadline.
        assert accent(first) == rgb(COLOURS["accent"])
        deadline = live.clock.deadline("p1")
        assert deadline is not None
        said = words(first)
        assert f"To move: alice (p1), out of time {timestamp(deadline)}." in said
        assert "bob (p2) 1:00 +5:00" in said and "alice places the three opening stones" in said
        # The picture is the card's attachment; its alt text the host's, on the media item and the file.
        item = gallery(first)
        [attachment] = first.attachments
        assert item["media"]["url"] == f"attachment://{attachment.filename}"
        alt = bot.host.announcer.alt_text(live, bot.host.views(live).public)
        assert item["description"] == attachment.description == described(alt)
        assert item["description"].startswith("Match #1, Tic-Tac-Five:\n") and len(item["description"]) <= 1024
        assert not first.content and not first.embeds
        cards = [first]
        for point in ("H8", "H9", "I8"):
            cards.append(await play(world, world.alice, point))
        assert "Last move: I8." in words(cards[-1])
        # bob takes white by button: he moves, the card is white; then alice's is black.
        bobs = await colour_chosen(world, mark)
        assert accent(bobs) == rgb(WHITE) and "To move: bob (p2), out of time <t:" in words(bobs)
        alices = await play(world, world.bob, "A1")
        assert accent(alices) == rgb(BLACK) and "Last move: A1." in words(alices)
        # A card a move, each its own message; no picture board besides.
        cards += [bobs, alices]
        assert len({c.id for c in cards}) == len(cards) and all(c.edits == 0 for c in cards)
        boards = [m for m in fake.messages(world.room) if m.attachments]
        assert all(is_card(m) for m in boards)


async def test_edited_mode_edits_one_card_a_match_even_after_a_restart(world: World) -> None:
    fake = world.fake
    async with world.running():
        assert (await set_board(world, "edited")).endswith(
            "Each match has one card, edited after every move, its latest moves logged in it. "
            "The rooms speak English (the server's default); a match keeps the one it started in."
        )
        mark = fake.mark()
        await world.start("tictacfive", seed=7)
        card = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        for n, point in enumerate(("H8", "H9"), start=1):
            assert await play(world, world.alice, point) is card
            assert card.edits == n
        said = words(card)
        assert "Last move: H9." in said and "**Latest moves:**" in said
        # The log keeps the moves in order, the match's opening line first.
        log = said.split("**Latest moves:**\n", 1)[1].split("\n")
        assert log[0].startswith("- Match #1: Tic-Tac-Five, alice (p1) vs bob (p2).")
    # A new bot on the same database: the same card is edited.
    async with world.running():
        assert await play(world, world.alice, "I8") is card
        assert card.edits == 3 and "Last move: I8." in words(card)
        bobs = await colour_chosen(world, mark)
        assert bobs is card and accent(card) == rgb(WHITE)
        # One card in the room, edited; no picture board besides.
        assert [m.id for m in fake.messages(world.room) if m.attachments] == [card.id]
        # The match ends: the card shows the end, and the room reads the result as today.
        mark = fake.mark()
        interaction = await fake.slash(world.bob, world.guild, world.room, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You resigned match #1."
        result = await fake.wait_for_message(world.room, predicate=lambda m: "Result:" in m.content, since=mark)
        assert not is_card(result) and result.attachments
        assert "Result: alice (p1) wins." in words(card) and accent(card) is None


@pytest.mark.parametrize("style", ["card", "edited"])
async def test_a_memory_grid_is_its_own_card_deleted_at_its_end_never_the_lasting_one(world: World, style: str) -> None:
    fake = world.fake
    async with world.running() as bot:
        await set_board(world, style)
        mark = fake.mark()
        assert (await world.start("allhands", seed=4, clock="30s")).startswith("Match #1 has started")
        # The grid's board is a card of its own; nobody moves while it is on show: no accent.
        grid = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        assert accent(grid) is None and words(grid) == "### Match #1: All Hands On Deck"
        # Posted with its deletion's key (found again after a crash), after the line that says it all.
        assert re.fullmatch(r"match1-m\d+\.png", grid.attachments[0].filename)
        said = [m for m in fake.messages(world.room) if m.content.startswith("Memorize the grid")]
        assert said and said[-1].id < grid.id
        window = bot.host.matches[1].host["window"]
        # The window closes at its 30 s: the grid's card goes; the lasting card is another message.
        mark = fake.mark()
        world.time.advance(30)
        await bot.dispatcher.settle()
        await fake.wait_for_delete(grid, since=mark)
        await fake.wait_for_delete(said[-1], since=mark)
        lasting = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        assert lasting.id != grid.id and not lasting.deleted and float(window["due"]) <= world.time.now().timestamp()
        # Nothing of the grid was ever edited into a card: every card update is the lasting card's.
        updates = [e.subject for e in fake.log if e.kind == "message_update" and is_card(e.subject)]
        assert all(m.id == lasting.id for m in updates) and "Memorize" not in words(lasting)
        # All Hands takes private moves: the card offers Send privately, which answers its presser alone.
        assert lasting.component("gb:private:1") is not None
        pressed = await fake.click(world.alice, lasting, "gb:private:1")
        assert (await ephemeral_answer(world, pressed)).startswith("Your view of match #1")
        # A bystander is told it is for the players.
        pressed = await fake.click(world.carol, lasting, "gb:private:1")
        assert "this button is for its players" in await ephemeral_answer(world, pressed)


async def test_a_card_posted_with_a_key_is_found_by_it(world: World) -> None:
    from geniusbot.host.transport import BoardCard

    async with world.running() as bot:
        room = world.room.id
        card = BoardCard(match_id=1, title="Match #1", png=b"\x89PNG\r\n\x1a\ncard", filename="match1.png")
        keyed = await bot.transport.post_card(room, card, key="m9")
        await bot.transport.post_card(room, card)
        assert await bot.transport.find_posted(room, "m9") == keyed
        assert await bot.transport.find_posted(room, "m90") is None


async def test_an_edited_card_whose_id_a_crash_left_unwritten_is_found_by_its_key(world: World) -> None:
    """The bot dies after posting an edited room's card, before writing its id: the next bot
    finds the card by its key and edits it, posting no second card."""
    fake = world.fake
    async with world.running() as bot:
        await set_board(world, "edited")
        mark = fake.mark()
        await world.start("tictacfive", seed=7)
        card = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        assert bot.store is not None
        # As if the id were never written: the row is an intent again, and this process forgets it.
        [row] = [r for r in await bot.store.messages(1) if r.kind == "card"]
        from sqlalchemy import update

        from geniusbot.storage import models

        def unwrite(conn: Any) -> None:
            conn.execute(update(models.Message).where(models.Message.id == row.id).values(message_id=None))

        await bot.store._transaction(unwrite, write=True, what=say("reading posted messages"))
    async with world.running():
        assert await play(world, world.alice, "H8") is card
        assert [m.id for m in fake.messages(world.room) if is_card(m)] == [card.id]


@pytest.mark.parametrize("style", ["card", "edited"])
async def test_the_grid_card_posted_before_a_restart_is_deleted_by_the_next_bot(world: World, style: str) -> None:
    fake = world.fake
    async with world.running() as bot:
        await set_board(world, style)
        mark = fake.mark()
        assert (await world.start("allhands", seed=4, clock="30s")).startswith("Match #1 has started")
        grid = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        world.time.advance(10)
        await bot.dispatcher.settle()
    world.time.advance(12)
    async with world.running() as bot:
        assert not grid.deleted
        mark = fake.mark()
        world.time.advance(8)
        await bot.dispatcher.settle()
        await fake.wait_for_delete(grid, since=mark)
        assert grid not in fake.visible_to(world.carol, world.room)


async def test_cards_ping_the_player_to_move_and_an_edited_one_keeps_one_ping_line(world: World) -> None:
    world.pings = True
    fake = world.fake
    async with world.running():
        await set_board(world, "edited")
        mark = fake.mark()
        await world.start("tictacfive", seed=7)
        card = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        # The first post pings alice, in a text of the card's own.
        assert [u.username for u in card.mentions] == ["alice"] and f"<@{world.alice.id}>" in texts(card.components)
        for point in ("H8", "H9"):
            await play(world, world.alice, point)
        # The third stone hands bob the choice: an edit notifies nobody, so a line under the card pings him.
        mark = fake.mark()
        await play(world, world.alice, "I8")
        bobs = await fake.wait_for_message(
            world.room, predicate=lambda m: m.content == f"<@{world.bob.id}>", since=mark
        )
        assert [u.username for u in bobs.mentions] == ["bob"]
        await colour_chosen(world, mark)
        # bob moves; alice's turn: her line, and bob's goes (one ping line at a time).
        mark = fake.mark()
        await play(world, world.bob, "A1")
        alices = await fake.wait_for_message(
            world.room, predicate=lambda m: m.content == f"<@{world.alice.id}>", since=mark
        )
        await fake.wait_for_delete(bobs, since=mark)
        assert [u.username for u in alices.mentions] == ["alice"]
        assert [m.id for m in fake.messages(world.room) if is_card(m)] == [card.id]
