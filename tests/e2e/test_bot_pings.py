"""Turn pings: the player to move is mentioned once a turn, under the board's caption, and only
that player may be pinged (allowed_mentions); a player moving again, or one whose sealed move is
still owed, is not pinged twice; the practice opponent's seat never; ``/setup pings:false`` stops
them (a new server has them on)."""

from __future__ import annotations

from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeMessage


def pinged(world: World, board: FakeMessage) -> list[str]:
    """Who the board pings: the users it mentions, as the fake delivers them."""
    return [user.username for user in board.mentions]


async def test_the_player_to_move_is_pinged_once_a_turn(world: World) -> None:
    world.pings = True  # a new server: pings on
    fake = world.fake
    async with world.running():
        mark = fake.mark()
        await world.start("tictacfive")
        first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert pinged(world, first) == ["alice"] and first.content.endswith(f"\n<@{world.alice.id}>")
        # alice places the three opening stones in a row: told once, at the first.
        boards = [await world.say(world.alice, point) for point in ("H8", "H9", "I8")]
        assert [pinged(world, b) for b in boards[:2]] == [[], []]
        # The third hands bob the colour choice: his turn, his ping alone.
        assert pinged(world, boards[2]) == ["bob"] and f"<@{world.alice.id}>" not in boards[2].content
        # /setup pings:false: nobody is pinged any more.
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"pings": False})
        assert (await ephemeral_answer(world, interaction)).endswith(
            "Nobody is pinged when it is their turn. Each move posts the board as a picture with its caption."
            " The rooms speak English (the server's default); a match keeps the one it started in."
        )
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
        )
        pressed = await fake.click(world.bob, choice, "gb:choice:1:p2:white")
        await fake.wait_for_response(pressed)
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments) and m.id > boards[2].id)
        assert pinged(world, board) == [] and "<@" not in board.content


async def test_both_seats_of_a_sealed_phase_are_pinged_once(world: World) -> None:
    world.pings = True
    fake = world.fake
    async with world.running():
        mark = fake.mark()
        await world.start("decks")
        first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert sorted(pinged(world, first)) == ["alice", "bob"]
        # alice's creations are in; bob still owes his: the board says so and pings nobody.
        mark = fake.mark()
        await fake.dm(world.alice, "create 50")
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert pinged(world, board) == []


async def test_the_practice_opponents_seat_is_never_pinged(world: World) -> None:
    from tests.e2e.test_bot_practice import practice_bot, practise

    world.pings = True
    fake = world.fake
    async with world.running(practice_bot(world)):
        mark = fake.mark()
        # alice takes p2: the bot's seat, p1, opens; the first board pings nobody.
        assert (await practise(world, world.alice, game="tictacfive", level="easy", seat="p2")).startswith(
            "Practice match #1 has started"
        )
        first = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
        assert pinged(world, first) == [] and "<@" not in first.content
