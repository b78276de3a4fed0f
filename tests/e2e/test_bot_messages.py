"""What the bot says in a few situations a player meets: a command's name typed in the room, /status
after a match has ended, the choice messages under the board."""

from __future__ import annotations

import itertools

import pytest

from geniusbot.cogs.admin import Admin
from geniusbot.cogs.archive import Archive
from geniusbot.cogs.choices import choice_message
from geniusbot.cogs.matches import Matches
from tests.e2e.botworld import World, ephemeral_answer


async def test_a_command_name_typed_in_the_room_points_to_the_slash_command(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await world.start("tightwire", seed=1)
        live = bot.host.matches[1]
        before = (live.version, live.game.to_dict(), live.status)
        for user, typed, said in (
            (world.alice, "resign", "alice (p1): to resign, use /resign."),
            (world.bob, "Pause", "bob (p2): to pause the match, a host uses /pause."),
            (world.alice, "/abort", "alice (p1): to abort the match, a host uses /abort."),
            (world.bob, "status?", "bob (p2): to see the match's status, use /status."),
            (world.alice, "RULES", "alice (p1): to read the rules, use /rules."),
            (world.bob, "help", "bob (p2): /rules gives the rules and the notation; /status shows the match."),
            (world.alice, "resume", "alice (p1): to resume the match, a host uses /resume."),
        ):
            await fake.user_says(world.room, user, typed)
            answer = await fake.wait_for_message(world.room)
            assert answer.content == said
            assert not answer.attachments
        # Nothing changed in the match, and nothing was refused as notation.
        assert (live.version, live.game.to_dict(), live.status) == before
        assert not any("Write a line such as" in m.content for m in fake.messages(world.room))
        # A bystander's "help" and a player's sentence with the word in it are not answered so.
        seen = len(fake.messages(world.room))
        await fake.user_says(world.room, world.carol, "help")
        await fake.user_says(world.room, world.alice, "I will not resign this one, my friend")
        board = await world.say(world.alice, "draw B5-C3")
        said = [m for m in fake.messages(world.room)[seen:] if m.author.id == fake.bot_user.id]
        assert said == [board]
        assert live.version > before[0]


@pytest.mark.slow
async def test_status_in_a_room_whose_match_has_ended_names_it_with_its_result(world: World) -> None:
    fake = world.fake
    lobby = fake.create_channel(world.guild, "lobby")

    async def status(channel) -> str:
        return await ephemeral_answer(world, await fake.slash(world.carol, world.guild, channel, "status", {}))

    async with world.running():
        await world.start("tictacfive")
        interaction = await fake.slash(world.bob, world.guild, world.room, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You resigned match #1."
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert board.content == "Result: alice (p1) wins. bob resigned."
        # The room's own result line, and where to see the match again.
        assert await status(world.room) == (
            "No match is running in this server. A host starts one with /start.\n"
            "The last match in this room, #1 (Tic-Tac-Five: alice vs bob), has ended. "
            "Result: alice (p1) wins. bob resigned.\n"
            "/replay match:1 steps through it; /record match:1 gives its record."
        )
        # Another room knows nothing of it; with a match running elsewhere, both are said.
        assert await status(lobby) == "No match is running in this server. A host starts one with /start."
        interaction = await fake.slash(
            world.owner, world.guild, lobby, "start", {"game": "armslength", "first": world.bob, "second": world.alice}
        )
        assert (await ephemeral_answer(world, interaction)).startswith("Match #2 has started")
        running = f"Running matches:\n#2 Arm's Length in <#{lobby.id}>: bob vs alice (live)"
        assert (await status(world.room)).startswith(running + "\nThe last match in this room, #1 (Tic-Tac-Five")
        # An aborted match is named too, with no result.
        interaction = await fake.slash(world.owner, world.guild, lobby, "abort", {})
        assert await ephemeral_answer(world, interaction) == "Match #2: aborted."
        assert (await status(lobby)).endswith(
            "The last match in this room, #2 (Arm's Length: bob vs alice), has ended. Result: none; the host aborted it.\n"
            "/replay match:2 steps through it; /record match:2 gives its record."
        )
        # The newest ended match of the room is the one named.
        await world.start("tictacfive", world.bob, world.alice)
        interaction = await fake.slash(world.owner, world.guild, world.room, "abort", {})
        assert await ephemeral_answer(world, interaction) == "Match #3: aborted."
        assert "#3 (Tic-Tac-Five: bob vs alice), has ended. Result: none" in await status(world.room)


def test_start_describes_its_first_player_as_seat_p1_not_as_the_one_who_moves_first() -> None:
    first = Matches.start.get_parameter("first").description
    assert first.startswith("the player in seat p1: opens the game unless a DMO, Turn Order or an option decides")
    assert "moves first" not in first
    assert Matches.start.get_parameter("second").description == "the player in seat p2"
    # Discord refuses to register a command whose descriptions pass 100 characters.
    for cog in (Matches, Admin, Archive):
        for command in cog.__cog_app_commands__:
            assert 1 <= len(command.description) <= 100, command.name
            for parameter in command.parameters:
                assert 1 <= len(parameter.description) <= 100, (command.name, parameter.name)


async def test_a_choice_of_many_options_leaves_them_to_the_buttons(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await world.start("armslength", dmo="p2", options="setup=none")
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:red first") is not None
        )
        # Four options: the buttons show them; the message says whose choice it is and how to answer.
        assert choice.content == "bob (p2): choose with a button, or type your choice."
        labels = [c["label"] for row in choice.components for c in row["components"]]
        assert labels == ["Red first", "Red second", "Blue first", "Blue second"]
        # Typed instead: the buttons go, and the message says the choice is closed.
        await fake.user_says(world.room, world.bob, "blue second")
        closed = await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        assert closed.content == "bob (p2): this choice is closed."
        assert bot.host.matches[1].game.view()["colors"] == {"p1": "red", "p2": "blue"}


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["black", "white"], "bob (p2), choose: black / white. Press a button or type your choice."),
        (["first", "second"], "bob (p2), choose: first / second. Press a button or type your choice."),
        (
            ["call red", "call blue", "call green"],
            "bob (p2), choose: call red / call blue / call green. Press a button or type your choice.",
        ),
        (
            ["pick turn order", "pick extra slack", "pick woven revive"],
            "bob (p2): choose with a button, or type your choice.",
        ),
        (["ban backup", "ban darkness", "ban revolution"], "bob (p2): choose with a button, or type your choice."),
        (
            ["ban chain", "ban implode", "ban landmine", "ban rainbow"],
            "bob (p2): choose with a button, or type your choice.",
        ),
        (
            ["pass"]
            + [
                f"use override {a} {b}"
                for a, b in itertools.combinations(["chain", "implode", "landmine", "rainbow", "rectangle-adverse"], 2)
            ],
            "bob (p2): choose with a button, or type your choice.",
        ),
    ],
)
def test_a_choice_message_lists_only_a_few_short_options(texts: list[str], message: str) -> None:
    assert choice_message("bob (p2)", texts) == message
    closed = choice_message("bob (p2)", texts, closed=True)
    assert closed == message.replace("Press a button or type your choice.", "This choice is closed.").replace(
        ": choose with a button, or type your choice.", ": this choice is closed."
    )
