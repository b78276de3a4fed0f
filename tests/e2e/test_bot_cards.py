"""Boards as cards on the fake Discord (``/setup board``): ``card`` posts a Components V2 card per
move, ``edited`` one card per match edited after every move (and after a restart, the same one),
its latest moves logged in it. The card's accent is the mover's colour, its picture carries the
alt text, running clocks are Discord timestamps, its buttons work; a memory grid's board is a card
of its own, deleted when its window closes, never edited into the lasting card."""

from __future__ import annotations

from typing import Any

from geniusbot.discord_card import timestamp
from geniusbot.render.palette import COLOURS
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


async def test_card_mode_posts_a_card_per_move(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await set_board(world, "card")).endswith("Each move posts the board as a card.")
        mark = fake.mark()
        await world.start("tictacfive", seed=7)
        first = await fake.wait_for_message(world.room, predicate=is_card, since=mark)
        print(first.components)
        print(words(first))
        live = bot.host.matches[1]
        deadline = live.clock.deadline("p1")
        assert deadline is not None
        assert timestamp(deadline) in words(first)
