"""A Tic-Tac-Five death match on the fake Discord, through the real bot: started by slash command,
the colour chosen by button, played to a five, a PNG board after every move; illegal moves get
their reason, bystanders and chatter are ignored, a 429 is survived."""

from __future__ import annotations

import pytest

from tests.e2e.botworld import PNG_MAGIC, World
from tests.fakediscord import FakeMessage, png_size


def is_png_board(message: FakeMessage) -> bool:
    files = [a.data for a in message.attachments]
    return len(files) == 1 and files[0].startswith(PNG_MAGIC) and message.attachments[0].filename.endswith(".png")


async def open_match(world: World) -> FakeMessage:
    """Start a match by slash command; the first board (empty) is posted in the room."""
    mark = world.fake.mark()
    answer = await world.start("tictacfive", seed=7)
    assert answer == "Match #1 has started in <#%d>." % world.room.id
    board = await world.fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
    assert is_png_board(board)
    return board


async def play_opening(world: World) -> FakeMessage:
    """alice places the three opening stones; returns the message with bob's colour buttons."""
    for point in ("H8", "H9", "I8"):
        board = await world.say(world.alice, point)
        assert is_png_board(board)
    return await world.fake.wait_for_message(
        world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None
    )


@pytest.mark.slow
async def test_a_match_by_slash_command_with_a_colour_button_to_a_five(world: World) -> None:
    fake = world.fake
    async with world.running():
        first = await open_match(world)
        # The start is one message: the empty board, captioned with the heading, what to do
        # first (by name) and whose turn it is.
        posted = [m for m in fake.messages(world.room) if m.interaction_metadata is None]  # not /start's answer
        assert [m.id for m in posted] == [first.id]
        assert first.content.split("\n") == [
            "Match #1: Tic-Tac-Five, alice (p1) vs bob (p2). Clock: 60 s a move, then a 5:00 reserve.",
            "alice places the three opening stones, black, white, black (a point is written like H8).",
            "To move: alice (p1) 1:00 +5:00.",
        ]
        choice = await play_opening(world)
        assert choice.content.startswith("bob (p2), choose: black / white")
        # The board above it says what the choice decides, and leaves the asking to the buttons.
        [opened] = [m for m in fake.messages(world.room) if "opening stones are down" in m.content]
        assert (
            "type black or white" not in opened.content
            and "whoever takes white places the fourth stone" in opened.content
        )
        assert choice.component("gb:choice:1:p2:black")["label"] == "Black"

        # bob takes white by button: the message closes, and the board says who moves.
        pressed = await fake.click(world.bob, choice, "gb:choice:1:p2:white")
        await fake.wait_for_response(pressed)
        closed = await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        assert closed.content == "bob (p2) chose: white."
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert is_png_board(board) and "To move: bob (p2)" in board.content
        # Who moves is said once: the event says why, the clock line says who.
        assert board.content.startswith(
            "bob takes white and places the fourth stone; alice plays black.\nTo move: bob (p2) "
        )
        assert board.content.lower().count("to move") == 1

        boards = [first]
        for user, point in [
            (world.bob, "A1"),
            (world.alice, "J8"),
            (world.bob, "A2"),
            (world.alice, "K8"),
            (world.bob, "A3"),
        ]:
            boards.append(await world.say(user, point))
            assert is_png_board(boards[-1])
        final = await world.say(world.alice, "G8")
        assert is_png_board(final)
        # One message for the winning move: its announcement and the result, above the board.
        announcement, result = final.content.split("\n")
        assert announcement == "alice places black on G8." and result.startswith("Result: alice (p1) wins.")
        assert (
            result == "Result: alice (p1) wins. alice (black) makes five in a row, G8 to K8."
        )  # the winner named once
        # Each board is a fresh picture of the same size (readable on a phone: not tiny).
        pictures = [fake.attachments(b)[0] for b in boards + [final]]
        assert len(set(pictures)) == len(pictures)
        width, height = png_size(pictures[-1])
        assert width >= 400 and height >= 400
        # After the result, moves are no longer taken and get no answer.
        mark = fake.mark()
        await fake.user_says(world.room, world.bob, "B5")
        await fake.user_says(world.room, world.alice, "status check")
        await world.fake.slash(world.owner, world.guild, world.room, "status", {})
        await fake.wait_for("interaction_response", since=mark)
        assert not [m for m in fake.messages(world.room)[-4:] if m.author.id == fake.bot_user.id and "B5" in m.content]
        assert world.bob.id not in {m.author.id for m in fake.messages(world.room) if m.id > final.id and m.author.bot}


@pytest.mark.slow
async def test_an_illegal_move_gets_its_reason_and_the_turn_stands(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await open_match(world)
        await world.say(world.alice, "H8")
        await fake.user_says(world.room, world.alice, "H8")
        answer = await fake.wait_for_message(world.room)
        assert answer.content == "alice (p1): H8 is taken; choose an empty point."
        await fake.user_says(world.room, world.alice, "Z99")
        answer = await fake.wait_for_message(world.room)
        assert answer.content.startswith("alice (p1): ") and "Z99" in answer.content
        # Out of turn: bob is told so, and alice's turn stands.
        await fake.user_says(world.room, world.bob, "A1")
        answer = await fake.wait_for_message(world.room)
        # The game's reason names the player it waits for; the log keeps the seat.
        assert answer.content == "bob (p2): It is not your turn; waiting for alice."
        refused = (await bot.store.actions(1))[-1]
        assert (refused.accepted, refused.text, refused.error) == (False, "A1", "It is not your turn; waiting for p1.")
        board = await world.say(world.alice, "H9")
        assert is_png_board(board)


async def test_bystanders_and_chatter_are_ignored_without_a_reply(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await open_match(world)
        before = len(fake.messages(world.room))
        await fake.user_says(world.room, world.carol, "H8")  # not a player
        await fake.user_says(world.room, world.alice, "good luck and have fun everyone")  # chatter
        await fake.user_says(world.room, world.bob, "you will never make five against me")  # chatter, off turn
        await fake.user_says(world.room, world.alice, "# thinking about H8")  # table talk by prefix
        board = await world.say(world.alice, "H8")
        assert is_png_board(board)
        bot_messages = [m for m in fake.messages(world.room)[before:] if m.author.id == fake.bot_user.id]
        # One message for the move (its announcement and the clocks, with the board) and nothing
        # answered the others.
        assert [m.content for m in bot_messages] == [board.content]
        assert board.content.startswith("alice places black on H8.\nTo move: alice (p1) ")  # the opening: three stones
        [live] = bot.host.matches.values()
        assert live.game.view()["last_move"] == "H8"


@pytest.mark.slow
async def test_only_the_chooser_may_press_and_typing_the_choice_works_too(world: World) -> None:
    fake = world.fake
    async with world.running():
        await open_match(world)
        choice = await play_opening(world)
        refused = await fake.click(world.alice, choice, "gb:choice:1:p2:black")
        response = await fake.wait_for_response(refused)
        assert response.type == 4 and response.data["flags"] & 64  # ephemeral
        assert response.data["content"] == "This choice is for bob (p2) alone; wait for your own turn."
        refused = await fake.click(world.carol, choice, "gb:choice:1:p2:black")
        assert (await fake.wait_for_response(refused)).data["content"].startswith("This choice is for bob (p2)")
        # bob types his choice instead: the buttons close.
        await fake.user_says(world.room, world.bob, "black")
        closed = await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
        # Without buttons the question says it is closed; the board below says what was chosen.
        assert closed.content == "bob (p2), choose: black / white. This choice is closed."
        board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
        assert "To move: alice (p1)" in board.content


@pytest.mark.slow
async def test_a_rate_limit_in_mid_match_is_survived(world: World) -> None:
    fake = world.fake
    async with world.running():
        await open_match(world)
        await world.say(world.alice, "H8")
        fake.rate_limit("POST", "/channels/{channel_id}/messages", times=2, retry_after=0.02)
        board = await world.say(world.alice, "H9")
        assert is_png_board(board)
        assert len(fake.rate_limited) >= 2
        board = await world.say(world.alice, "I8")
        assert is_png_board(board)


@pytest.mark.slow
async def test_a_dropped_gateway_in_mid_match_is_survived(world: World) -> None:
    fake = world.fake
    async with world.running():
        await open_match(world)
        await world.say(world.alice, "H8")
        await fake.drop_gateway()
        await fake.wait_for_gateway("resume")
        assert is_png_board(await world.say(world.alice, "H9"))
        await fake.drop_gateway(invalidate=True)
        await fake.wait_for_gateway("identify")
        assert is_png_board(await world.say(world.alice, "I8"))


async def test_a_boards_picture_carries_the_board_in_words_for_screen_readers(world: World) -> None:
    """The picture's alt text (Discord's attachment description): the match and its game, the
    stones of each colour, then who plays what, the last move and who is to move, by name."""
    async with world.running():
        await open_match(world)
        await world.say(world.alice, "H8")
        board = await world.say(world.alice, "H9")
        assert board.attachments[0].description == (
            "Match #1, Tic-Tac-Five:\nblack stones: H8\nwhite stones: H9\nlast move H9 | to move: alice"
        )
