"""Who may host, /setup, /rules, /status, pause / resume / abort, /resign, and Arm's Length with
its DMO's choice by button, played to a result."""

from __future__ import annotations

import re

import pytest

from geniusbot.games import get_game
from geniusbot.words import Words
from tests.e2e.botworld import EPHEMERAL, PNG_MAGIC, World, ephemeral_answer
from tests.fakediscord.model import ATTACH_FILES


async def test_a_member_without_the_host_role_cannot_start_a_match(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        answer = await world.start("tictacfive", by=world.carol)
        assert answer == (
            "Only members with the Manage Server permission can start a match here until an admin names "
            "a host role with /setup."
        )
        # The admin names a host role; carol still lacks it, then gets it.
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"host_role": world.host_role})
        assert (await ephemeral_answer(world, interaction)).startswith("Saved. Members with the Dealer role")
        answer = await world.start("tictacfive", by=world.carol)
        assert answer == "Only members with the Dealer role (or Manage Server) can start a match; ask one of them."
        assert not bot.host.matches
        assert not [m for m in fake.messages(world.room) if m.attachments]
        fake.set_roles(world.guild, world.carol, [world.host_role])
        # The interaction carries carol's roles: no member cache (and no privileged intent) needed.
        answer = await world.start("tictacfive", by=world.carol)
        assert answer.startswith("Match #1 has started")
        # A player without the role cannot pause, and sees why; the host role can.
        interaction = await fake.slash(world.alice, world.guild, world.room, "pause", {})
        assert (await ephemeral_answer(world, interaction)).startswith("Only members with the Dealer role")
        assert list(bot.host.matches.values())[0].status == "live"


async def test_setup_needs_manage_server_and_limits_the_game_rooms(world: World) -> None:
    fake = world.fake
    lobby = fake.create_channel(world.guild, "lobby")
    async with world.running():
        with pytest.raises(PermissionError):
            await fake.slash(world.alice, world.guild, world.room, "setup", {"add_room": world.room})
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"add_room": world.room})
        assert (await ephemeral_answer(world, interaction)).endswith(
            f"Game rooms: <#{world.room.id}>. Matches run in the game room itself. Nobody is pinged when it is their turn."
            " Each move posts the board as a picture with its caption."
            " The rooms speak English (the server's default); a match keeps the one it started in."
        )
        interaction = await fake.slash(
            world.owner, world.guild, lobby, "start", {"game": "tictacfive", "first": world.alice, "second": world.bob}
        )
        assert await ephemeral_answer(world, interaction) == (
            f"<#{lobby.id}> is not a game room; use one of <#{world.room.id}> (an admin sets them with /setup)."
        )
        interaction = await fake.slash(
            world.owner,
            world.guild,
            lobby,
            "start",
            {"game": "tictacfive", "first": world.alice, "second": world.bob, "room": world.room},
        )
        assert (await ephemeral_answer(world, interaction)).startswith("Match #1 has started in")
        # One match per room.
        answer = await world.start("armslength")
        assert answer == "A match is already running in this room; finish or abort it first, or use another game room."
        interaction = await fake.slash(world.owner, world.guild, world.room, "setup", {"any_room": True})
        assert (await ephemeral_answer(world, interaction)).endswith(
            "Any text channel may be a game room. Matches run in the game room itself. Nobody is pinged when it is their turn."
            " Each move posts the board as a picture with its caption."
            " The rooms speak English (the server's default); a match keeps the one it started in."
        )


@pytest.mark.slow
async def test_rules_status_pause_resume_abort_and_bad_options(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        interaction = await fake.slash(world.carol, world.guild, world.room, "rules", {"game": "armslength"})
        text = await ephemeral_answer(world, interaction)
        assert text.startswith("**Arm's Length**\n" + Words()(get_game("armslength").summary))
        assert "dmo:" in text
        # One option a line: the options' own texts hold semicolons ('red C3 F6; blue F3 C6').
        options = text.split("Options for /start, written as name=value in its options:\n")[1].splitlines()
        assert [line.split(":")[0] for line in options] == ["- setup", "- p1_color", "- dmo"]
        assert all(line.endswith(".") for line in options)
        interaction = await fake.slash(world.carol, world.guild, world.room, "status", {})
        assert (
            await ephemeral_answer(world, interaction)
            == "No match is running in this server. A host starts one with /start."
        )
        assert await world.start("tictacfive", world.alice, world.alice) == (
            "A match needs two different players; name someone else as the second player."
        )
        assert await world.start("armslength", options="colour=red") == (
            "Arm's Length takes no option 'colour' (it takes: dmo, p1_color, setup)."
        )
        assert await world.start("tictacfive", clock="forever") != ""
        # The /start option dmo is Arm's Length's; a game without options says so plainly.
        assert await world.start("tictacfive", dmo="p1") == "Tic-Tac-Five takes no option 'dmo'; it takes no options."
        assert not bot.host.matches
        # /start defers at once (database, DMs and the first board may take longer than 3 s).
        interaction = await fake.slash(
            world.owner,
            world.guild,
            world.room,
            "start",
            {"game": "tictacfive", "first": world.alice, "second": world.bob, "seed": 3, "clock": "60s"},
        )
        response = await fake.wait_for_response(interaction)
        assert response.type == 5 and response.data["flags"] & EPHEMERAL
        assert (await fake.wait_for_followup(interaction)).content.startswith("Match #1 has started")
        interaction = await fake.slash(world.carol, world.guild, world.room, "status", {})
        status = await ephemeral_answer(world, interaction)
        assert status.startswith("Match #1: Tic-Tac-Five, live. To move: alice (p1).")
        for command, said in (("pause", "The host paused the match"), ("resume", "The match goes on")):
            interaction = await fake.slash(world.owner, world.guild, world.room, command, {})
            assert (await ephemeral_answer(world, interaction)).startswith("Match #1: ")
            assert await fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith(said))
        # A refused command names the match and the slash command to use instead.
        interaction = await fake.slash(world.owner, world.guild, world.room, "resume", {})
        assert await ephemeral_answer(world, interaction) == "Match #1 is not paused; it goes on already."
        interaction = await fake.slash(world.owner, world.guild, world.room, "pause", {})
        await ephemeral_answer(world, interaction)
        interaction = await fake.slash(world.owner, world.guild, world.room, "pause", {})
        assert await ephemeral_answer(world, interaction) == "Match #1 is paused already; use /resume to go on."
        interaction = await fake.slash(world.owner, world.guild, world.room, "abort", {})
        assert await ephemeral_answer(world, interaction) == "Match #1: aborted."
        interaction = await fake.slash(world.owner, world.guild, world.room, "abort", {"match": 1})
        assert await ephemeral_answer(world, interaction) == "Match #1 is over already."
        interaction = await fake.slash(world.owner, world.guild, world.room, "pause", {"match": 99})
        assert (await ephemeral_answer(world, interaction)).startswith("There is no match #99 in this server")


@pytest.mark.slow
async def test_resign_by_a_player_ends_the_match(world: World) -> None:
    fake = world.fake
    async with world.running():
        await world.start("tictacfive")
        interaction = await fake.slash(world.carol, world.guild, world.room, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You do not play in match #1; only its players can resign."
        interaction = await fake.slash(world.bob, world.guild, world.room, "resign", {})
        assert await ephemeral_answer(world, interaction) == "You resigned match #1."
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        # The resignation is said once, in the result line, which names the winner once.
        assert board.content == "Result: alice (p1) wins. bob resigned."


@pytest.mark.slow
async def test_an_arms_length_match_with_a_dmo_choice_by_button_to_a_result(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        answer = await world.start("armslength", dmo="p2", options="setup=none")
        assert answer.startswith("Match #1 has started")
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:red first") is not None
        )
        labels = [c["label"] for row in choice.components for c in row["components"]]
        assert labels == ["Red first", "Red second", "Blue first", "Blue second"]
        await fake.click(world.bob, choice, "gb:choice:1:p2:blue second")
        await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert (
            board.content
            == "bob (the DMO) chose: bob plays blue and moves second; alice plays red.\nTo move: alice (p1) 1:00 +5:00."
        )
        live = bot.host.matches[1]
        assert live.game.view()["colors"] == {"p1": "red", "p2": "blue"}
        # A short game found by random play from this position: red ends with E5 E6 E7 E8.
        squares = ["E8", "B3", "D6", "C5", "E6", "H3", "B2", "D4", "A1", "E4", "E5"]
        for i, square in enumerate(squares):
            board = await world.say(world.alice if i % 2 == 0 else world.bob, square)
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
        # The winning move is one message: what it did, then the result, with the board.
        assert board.content == (
            "alice (red) places E5. Pushed: E4 to E3.\n"
            "Result: alice (p1) wins. alice (red) has four in a row (E5 E6 E7 E8)."
        )  # the winner is named once
        assert live.status == "finished"


async def test_a_room_where_the_bot_cannot_attach_boards_is_refused(world: World) -> None:
    fake = world.fake
    quiet = fake.create_channel(world.guild, "no-files", overwrites={fake.bot_role(world.guild): (0, ATTACH_FILES)})
    async with world.running() as bot:
        answer = await world.start("tictacfive", room=quiet)
        assert answer == (
            f"I cannot run a match in <#{quiet.id}>: I need Attach Files there. Give me that, or choose another room."
        )
        assert not bot.host.matches


@pytest.mark.slow
async def test_tightwire_fate_draft_and_turn_order_by_buttons(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await world.start("tightwire", variant="fate")).startswith("Match #1 has started")
        # p1 and p2 pick; the last item goes to p1 without a choice.
        picks = [(world.alice, "p1"), (world.bob, "p2")]
        for user, seat in picks:
            choice = await fake.wait_for_message(
                world.room,
                predicate=lambda m: any(
                    c["custom_id"].startswith(f"gb:choice:1:{seat}:pick ")
                    for row in m.components
                    for c in row["components"]
                ),
            )
            ids = [c["custom_id"] for row in choice.components for c in row["components"]]
            wanted = next((i for i in ids if i.endswith("turn order")), ids[0]) if seat == "p2" else ids[-1]
            await fake.click(user, choice, wanted)
            await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        game = bot.host.matches[1].game
        assert game.view()["phase"] == "order"
        assert game.view()["items"] == {"p1": ["woven_revive", "extra_slack"], "p2": ["turn_order"]}
        holder = game.to_move()[0]
        order = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component(f"gb:choice:1:{holder}:second") is not None
        )
        await fake.click(world.alice if holder == "p1" else world.bob, order, f"gb:choice:1:{holder}:second")
        await fake.wait_for_edit(order, predicate=lambda m: not m.components)
        assert game.view()["phase"] == "play" and game.view()["first"] != holder


@pytest.mark.slow
async def test_a_choice_settled_by_the_clock_closes_its_buttons(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await world.start("armslength", dmo="p2", clock="30s", options="setup=none")
        choice = await fake.wait_for_message(
            world.room, predicate=lambda m: m.component("gb:choice:1:p2:red first") is not None
        )
        mark = fake.mark()
        world.time.advance(31)
        await bot.dispatcher.settle()
        await fake.wait_for_edit(choice, predicate=lambda m: not m.components, since=mark)
        game = bot.host.matches[1].game
        assert game.view()["phase"] == "play" and game.view()["colors"]["p2"] in ("red", "blue")
        # The timeout is said once, with the name, and the drawn choice follows; who moves is the clock line's.
        [said] = [m.content for m in fake.messages(world.room) if "ran out of time" in m.content]
        assert said.startswith(
            "bob (p2) ran out of time to choose as the DMO, so the choice was drawn by lot: bob plays "
        )
        assert said.count("ran out of time") == 1 and said.lower().count("to move") == 1


async def test_a_player_who_is_not_a_member_is_refused_with_a_reason(world: World) -> None:
    fake = world.fake
    outsider = fake.create_user("outsider")
    async with world.running() as bot:
        interaction = await fake.slash(
            world.owner,
            world.guild,
            world.room,
            "start",
            {"game": "tictacfive", "first": world.alice, "second": outsider},
        )
        answer = await ephemeral_answer(world, interaction)
        assert answer.startswith("One of the options cannot be used (") and answer.endswith("check it and try again.")
        assert not bot.host.matches


@pytest.mark.slow
async def test_the_hosts_hints_on_discord_name_only_slash_commands_discord_has(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        # What the transport offers is what the bot registered with Discord.
        registered = {c.name for c in fake.commands.values() if c.guild_id is None and c.type == 1}
        assert bot.transport.commands == registered and "pause" in registered
        await world.start("tiles", seed=3)
        interaction = await fake.slash(world.owner, world.guild, world.room, "pause", {})
        assert await ephemeral_answer(world, interaction) == "Match #1: paused."
        refused = await bot.host.command(1, "close window")  # the console's command; Discord has none
        assert refused.message == "Match #1 is paused; use /resume, and its window closes when its time is up."
        unknown = await bot.host.command(1, "undo")
        assert unknown.message == "There is no command 'undo'; use /pause, /resume, /abort, /resign or /status."
        for hint in (refused.message, unknown.message):
            for name in re.findall(r"(?<![\w/])/(\w+)", hint):
                assert fake.find_command(name, world.guild) is not None, name
