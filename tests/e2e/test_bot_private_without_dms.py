"""Private moves without DMs: a player whose DMs are closed still plays a game of sealed moves.
/start tells the host so and starts; the room offers "Send privately" while the match waits on
that player's private move; the press answers the player alone with their own view and a form,
and the form's move is checked and taken exactly as a DM."""

from __future__ import annotations

from tests.e2e.botworld import World, ephemeral_answer
from tests.e2e.test_bot_tournament import started
from tests.fakediscord import FakeMessage


def entry(message: FakeMessage) -> bool:
    return message.component("gb:private:1") is not None


async def test_a_player_with_closed_dms_plays_sealed_moves_through_the_room(world: World) -> None:
    fake = world.fake
    world.bob.dms_open = False
    async with world.running() as bot:
        answer = await world.start("decks")
        assert answer == (
            f"Match #1 has started in <#{world.room.id}>. I cannot send a direct message to <@{world.bob.id}>: "
            "they see their own view and send their private moves with the Send privately button in the room, "
            "or with /move."
        )
        offer = await fake.wait_for_message(world.room, predicate=entry)
        assert offer.content == (
            "bob (p2): I cannot send you direct messages. Press the button to see your own view and send your "
            "private move; only you will see them (or send it with /move)."
        )
        # Only a player of the match may press it.
        pressed = await fake.click(world.carol, offer, "gb:private:1")
        assert await ephemeral_answer(world, pressed) == "You do not play in match #1; this button is for its players."

        # bob sees his own view, to him alone, with the button that opens the form.
        pressed = await fake.click(world.bob, offer, "gb:private:1")
        await fake.wait_for_response(pressed)
        mine = await fake.wait_for_followup(pressed)
        assert mine.ephemeral and mine.content == "Your view of match #1 (only you can see this)."
        assert mine.attachments and mine.attachments[0].filename == "match1-p2.png"
        assert mine not in fake.visible_to(world.alice, world.room)

        # The form: a move refused is said to bob alone and changes nothing.
        opened = await fake.click(world.bob, mine, "gb:sealed:1")
        assert (await fake.wait_for_response(opened)).type == 9  # a modal
        sent = await fake.submit_modal(opened, {"move": "create 60"})
        refused = await ephemeral_answer(world, sent)
        assert refused and not refused.startswith("Match #1: your move")
        assert bot.host.matches[1].game.sealed.sealed_by("p2") is None
        # A move taken goes in privately, as a DM would.
        opened = await fake.click(world.bob, mine, "gb:sealed:1")
        await fake.wait_for_response(opened)
        sent = await fake.submit_modal(opened, {"move": "create 49 1"})
        assert await ephemeral_answer(world, sent) == "Match #1: your move create 49 1 is in."
        assert bot.host.matches[1].game.sealed.sealed_by("p2") is not None
        [logged] = [a for a in await bot.store.actions(1) if a.seat == "p2" and a.accepted]
        assert logged.private and logged.text == "create 49 1"
        assert not [m for m in fake.visible_to(world.alice, world.room) if "49" in m.content]
        # bob's move is in: the offer closes (the match waits on alice alone).
        await fake.wait_until(lambda: not offer.components, what="the offer to close")

        # alice's DM ends the phase: a new offer asks for bob's play.
        await fake.dm(world.alice, "create 50")
        fresh = await fake.wait_for_message(world.room, predicate=lambda m: entry(m) and m.id != offer.id)
        assert fresh.content.startswith("bob (p2): I cannot send you direct messages.")


async def test_a_practice_match_starts_for_a_member_with_closed_dms(world: World) -> None:
    from tests.e2e.test_bot_practice import practice_bot, practise

    world.bob.dms_open = False
    async with world.running(practice_bot(world)) as bot:
        answer = await practise(world, world.bob, game="decks", level="easy")
        assert answer.startswith("Practice match #1 has started")
        assert answer.endswith(
            f"I cannot send a direct message to <@{world.bob.id}>: they see their own view and send their private "
            "moves with the Send privately button in the room, or with /move."
        )
        # The bot's seat is never offered the button; bob's is.
        offer = await world.fake.wait_for_message(world.room, predicate=entry)
        assert offer.content.startswith("bob (p1): I cannot send you direct messages.")
        assert [r.id for r in await bot.store.live_matches()] == [1]


async def test_a_tournament_game_offers_send_privately_to_a_player_with_closed_dms(world: World) -> None:
    # A tournament starts its games itself, with nobody to tell: the first private message that
    # fails shows the seat cannot be reached, and the game's thread offers the button.
    fake = world.fake
    world.bob.dms_open = False
    async with world.running() as bot:
        await started(world, {"game": "decks", "format": "round_robin"}, [world.alice, world.bob])
        await fake.wait_until(lambda: 1 in bot.host.matches, what="the tournament's game")
        thread = fake.channels[bot.host.matches[1].channel_id]
        offer = await fake.wait_for_message(thread, predicate=entry, timeout=15)
        seat = next(s for s, p in bot.host.matches[1].players.items() if p.user_id == world.bob.id)
        assert offer.content.startswith(f"bob ({seat}): I cannot send you direct messages.")
