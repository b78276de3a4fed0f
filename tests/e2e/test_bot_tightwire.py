"""Tightwire, Deadly Influx and Threads of Fate on the fake Discord, through the real bot, as a new
user meets them: /rules first, then each rule set started by /start and played to a result with
a PNG board after every accepted action, under its own clock preset (driven by the test's clock:
a spent byo-yomi period, a timeout loss, a reserve block), the Threads of Fate draft and Turn Order
by buttons and by typed text, the Extra Slack Thread and the Woven Revive used, and the finished
match's /record file adjudicated to the same result.
The games are the short scripts of ``tests/host/tightwire_scripts.py``."""

from __future__ import annotations

import pytest

from geniusbot.adjudicate import adjudicate
from geniusbot.games import get_game
from geniusbot.host.clock import preset
from geniusbot.record import parse_record
from geniusbot.words import Words
from tests.e2e.botworld import PNG_MAGIC, World
from tests.fakediscord import FakeMessage, png_size
from tests.host.tightwire_scripts import DRAFT, RESULT, script

#: The result as the room reads it: the game's words (``RESULT``, which the store and the record
#: keep) with the players' names.
SAID_RESULT = "Blue (bob) has one piece left on the board and loses."

EPHEMERAL = 64


def caption(message: FakeMessage) -> str:
    """The last line of a board's text: whose move it is and their clock, or the result."""
    return message.content.splitlines()[-1]


def room_text(world: World) -> str:
    """Everything the bot has said in the room so far."""
    return "\n".join(m.content for m in world.fake.messages(world.room) if m.author.id == world.fake.bot_user.id)


def board_png(world: World, message: FakeMessage) -> bytes:
    """The one PNG board a message carries."""
    files = world.fake.attachments(message)
    assert len(files) == 1 and files[0].startswith(PNG_MAGIC) and message.attachments[0].filename.endswith(".png")
    return files[0]


class Table:
    """The two players at one match: alice is p1 (orange), bob is p2 (blue)."""

    def __init__(self, world: World, bot) -> None:
        self.world, self.fake, self.bot = world, world.fake, bot
        self.users = {"p1": world.alice, "p2": world.bob}
        self.pictures: list[bytes] = []

    @property
    def live(self):
        # Once the match is over the host lets go of it; the object last held has its final state.
        self._live = self.bot.host.matches.get(1, getattr(self, "_live", None))
        return self._live

    async def open(self, variant: str) -> FakeMessage:
        """``/start`` the rule set; the first board (and the clock) is posted in the room."""
        mark = self.fake.mark()
        answer = await self.world.start("tightwire", variant=variant, seed=5)
        assert answer == f"Match #1 has started in <#{self.world.room.id}>."
        first = await self.fake.wait_for_message(self.world.room, predicate=lambda m: bool(m.attachments), since=mark)
        announced = " ".join(m.content for m in self.fake.messages(self.world.room))
        assert f"Match #1: Tightwire ({variant}), alice (p1) vs bob (p2)." in announced
        assert f"Clock: {preset('tightwire', variant).describe()}." in announced
        self.pictures.append(board_png(self.world, first))
        return first

    async def say(self, seat: str, text: str) -> FakeMessage:
        """The seat types ``text``; returns the board the bot posts for it."""
        board = await self.world.say(self.users[seat], text)
        self.pictures.append(board_png(self.world, board))
        return board

    async def refused(self, seat: str, text: str) -> str:
        """The seat types ``text``; the bot answers with the reason and changes nothing."""
        before = self.live.game.to_dict()
        await self.fake.user_says(self.world.room, self.users[seat], text)
        answer = await self.fake.wait_for_message(self.world.room)
        assert not answer.attachments and self.live.game.to_dict() == before
        prefix = f"{self.live.label(seat)}: "
        assert answer.content.startswith(prefix)
        return answer.content[len(prefix) :]

    async def press(self, seat: str, text: str) -> FakeMessage:
        """The seat presses the button for ``text``; the offer closes and a board follows."""
        custom_id = f"gb:choice:1:{seat}:{text}"
        offer = await self.fake.wait_until(
            lambda: next((m for m in reversed(self.fake.messages(self.world.room)) if m.component(custom_id)), None),
            what=f"the button {custom_id}",
        )
        mark = self.fake.mark()
        pressed = await self.fake.click(self.users[seat], offer, custom_id)
        await self.fake.wait_for_response(pressed)
        board = await self.fake.wait_for_message(self.world.room, predicate=lambda m: bool(m.attachments), since=mark)
        await self.fake.wait_for_edit(offer, predicate=lambda m: not m.components)
        self.pictures.append(board_png(self.world, board))
        return board

    async def wait(self, seconds: float) -> None:
        """Let the test's clock run ``seconds``, a few seconds at a time as a real clock would, so
        that each timer fires near its own time (an alert already past when its timer is re-armed
        is not announced late)."""
        while seconds > 0:
            step = min(1.0, seconds)
            self.world.time.advance(step)
            await self.bot.dispatcher.settle()
            seconds -= step

    async def adjudicated(self):
        """/record sends the record; the adjudicator rules every line to the bot's own result."""
        interaction = await self.fake.slash(self.world.carol, self.world.guild, self.world.room, "record", {"match": 1})
        await self.fake.wait_for_response(interaction)
        message = await self.fake.wait_for_followup(interaction)
        assert message.content == "The record of match #1 (Tightwire)."
        record = parse_record(self.fake.attachments(message)[0].decode("utf-8"))
        ruled = adjudicate(record)
        assert all(action.accepted for action in ruled.actions), [a for a in ruled.actions if not a.accepted]
        assert ruled.outcome is not None and ruled.outcome == self.live.game.outcome()
        return record, ruled

    def check_pictures(self) -> None:
        """A fresh picture after every accepted action, big enough to read on a phone."""
        assert len(set(self.pictures)) == len(self.pictures)
        width, height = png_size(self.pictures[-1])
        assert width >= 400 and height >= 400


async def play_script(table: Table, moves: list[tuple[str, str]]) -> FakeMessage:
    board = None
    for seat, text in moves:
        table.world.time.advance(2)
        board = await table.say(seat, text)
    assert board is not None
    return board


@pytest.mark.slow
async def test_rules_tell_a_new_user_the_three_rule_sets_their_clocks_and_the_notation(world: World) -> None:
    fake = world.fake
    async with world.running():
        interaction = await fake.slash(world.carol, world.guild, world.room, "rules", {"game": "tightwire"})
        response = await fake.wait_for_response(interaction)
        assert response.data["flags"] & EPHEMERAL
        text = response.data["content"] if response.type == 4 else (await fake.wait_for_followup(interaction)).content
        summary = Words()(get_game("tightwire").summary)
        # Whole (Discord takes 2000 characters), the summary first, then the rule sets and options.
        assert text.startswith("**Tightwire**\n" + summary) and len(text) < 2000
        assert text.endswith("p1_color: colour of p1: orange or blue (default orange).")
        for variant in ("classic", "influx", "fate"):
            assert f"**{variant}**" in summary
            assert preset("tightwire", variant).describe() in summary  # the clock the host runs
        for words in (
            "draw B5-C3",
            "slack B5-C3",
            "and move",
            "move B5-C3",
            "revive C3",
            "pick turn order",
            "first",
            "second",
            "extra slack B5-C3",
            "woven revive C3",
        ):
            assert words in summary


@pytest.mark.slow
async def test_classic_is_played_to_a_result_and_its_record_adjudicated(world: World) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        first = await table.open("classic")
        assert caption(first) == "To move: alice (p1) 1:00."
        moves = script("classic")
        await play_script(table, moves[:3])
        # A new user's slips: each answered with what to write, the turn stands.
        assert await table.refused("p2", "B2-C3") == (
            "B2-C3 could mean drawing the line alone or drawing it and moving your piece along it; "
            "write `draw B2-C3` or `draw B2-C3 and move`."
        )
        assert await table.refused("p1", "draw A5-A4") == "It is not your turn; waiting for bob."
        board = await table.say("p2", "draw B2-C3")
        assert caption(board) == "To move: alice (p1) 1:00."
        await table.say("p1", "draw B4-C3")
        assert await table.refused("p2", "draw B3-C2") == (
            "B3-C2 crosses the line B2-C3; choose another line, or write `slack B3-C2` to use your slack line."
        )
        final = await play_script(table, moves[5:])
        assert caption(final) == f"Result: alice (p1) wins. {SAID_RESULT}"
        assert room_text(world).count("Blue (bob) loses the piece on C3.") == 4
        assert len(table.pictures) == len(moves) + 1
        table.check_pictures()
        record, ruled = await table.adjudicated()
        assert record.header("TimeControl") == "60s" and record.header("Variant") == "classic"
        assert ruled.outcome.winner == "p1" and ruled.outcome.reason == RESULT
        # /replay steps through it: its last step is the final board, with the result.
        interaction = await world.fake.slash(world.carol, world.guild, world.room, "replay", {"match": 1})
        await world.fake.wait_for_response(interaction)
        page = await world.fake.wait_for_followup(interaction)
        assert page.content.splitlines()[1] == "Step 0 of 22: the start. Clocks: alice 1:00, bob 1:00."
        last = next(
            c["custom_id"] for row in page.components for c in row["components"] if c["custom_id"].endswith(":last")
        )
        await world.fake.click(world.carol, page, last)
        await world.fake.wait_for_edit(page)
        assert page.content.splitlines()[1].startswith("Step 22 of 22: bob (p2): draw D2-C3 and move.")
        assert page.content.splitlines()[2] == f"Result: {SAID_RESULT}"
        assert png_size(world.fake.attachments(page)[0]) == png_size(table.pictures[-1])


@pytest.mark.slow
async def test_influx_spends_a_byo_yomi_period_and_captures_only_at_the_end_of_a_turn(world: World) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        first = await table.open("influx")
        assert caption(first) == "To move: alice (p1) 1:00 (5 periods)."
        moves = script("influx")
        await play_script(table, moves[:7])
        # bob thinks for 70 s: his first period runs out, the room is told, the next one runs.
        mark = world.fake.mark()
        await table.wait(70)
        notice = await world.fake.wait_for_message(world.room, since=mark)
        assert notice.content == "bob (p2): a period is used up; 4 left."
        # bob walks into the trap: in influx only the mover captures, at the end of its turn.
        board = await table.say(*moves[7])
        assert "C3" in table.live.game.view()["pieces"]
        assert caption(board) == "To move: alice (p1) 1:00 (5 periods)."
        board = await table.say(*moves[8])
        assert "C3" not in table.live.game.view()["pieces"]
        assert caption(board) == "To move: bob (p2) 1:00 (4 periods)."  # the spent period stays spent
        final = await play_script(table, moves[9:])
        assert caption(final) == f"Result: alice (p1) wins. {SAID_RESULT}"
        table.check_pictures()
        record, ruled = await table.adjudicated()
        assert record.header("TimeControl") == "5x60s"
        assert ruled.outcome.reason == RESULT


@pytest.mark.slow
async def test_influx_refuses_a_repeated_position_and_a_byo_yomi_timeout_loses(world: World) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        await table.open("influx")
        await play_script(table, script("influx")[:2])  # orange B5 to B4, blue B1 to B2, along new lines
        await play_script(table, [("p1", "move B4-B5"), ("p2", "move B2-B1"), ("p1", "B5-B4")])
        # Back to B2 would make the position after blue's first action again, p1 to move.
        assert await table.refused("p2", "B1-B2") == (
            "That move would repeat an earlier position, which Deadly Influx forbids; choose another action."
        )
        # bob lets all five periods run out: four are announced, then he loses.
        mark = world.fake.mark()
        await table.wait(299)
        assert table.live.status == "live"
        await table.wait(2)
        final = await world.fake.wait_for_message(world.room, predicate=lambda m: "Result:" in m.content, since=mark)
        room = room_text(world).splitlines()
        assert [t for t in room if "a period is used up" in t] == [
            f"bob (p2): a period is used up; {n} left." for n in (4, 3, 2, 1)
        ]
        assert "bob (p2) ran out of time." in room
        assert caption(final).startswith("Result: alice (p1) wins.")
        board_png(world, final)
        record, ruled = await table.adjudicated()
        assert [line.text for line in record.lines][-1] == "timeout p2"
        assert ruled.outcome.winner == "p1"


@pytest.mark.slow
async def test_threads_of_fate_draft_turn_order_and_items_to_a_result(world: World) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        first = await table.open("fate")
        assert caption(first) == "To move: alice (p1) 1:30 +5:00."
        # The draft: alice by button, bob by typing; the last item goes to alice at once.
        (_, pick1), (_, pick2), (_, order) = DRAFT
        await table.press("p1", pick1)
        offer = await world.fake.wait_until(
            lambda: next(
                (m for m in reversed(world.fake.messages(world.room)) if m.component("gb:choice:1:p2:pick turn order")),
                None,
            ),
            what="bob's draft buttons",
        )
        await table.say("p2", pick2)
        await world.fake.wait_for_edit(offer, predicate=lambda m: not m.components)
        room = room_text(world).splitlines()
        assert "alice receives the last item, Woven Revive." in room
        assert "bob holds Turn Order: `first` to move first, or `second` to let alice move first." in room
        # bob holds Turn Order and lets alice start, by button.
        board = await table.press("p2", order)
        assert caption(board) == "To move: alice (p1) 1:30 +5:00."
        assert "bob uses Turn Order: alice (Orange) moves first." in room_text(world).splitlines()
        game = table.live.game
        assert game.view()["items"] == {"p1": ["extra_slack", "woven_revive"], "p2": []}
        moves = script("fate")[len(DRAFT) :]
        await play_script(table, moves[:10])
        # alice's 95 s cost her the 90 s of the move and one whole 10 s block of her reserve.
        await table.wait(95)
        assert "alice (p1): the move time is up; now on reserve" in room_text(world)
        board = await table.say(*moves[10])  # her slack line
        assert game.view()["slack_left"]["p1"] == 0
        assert table.live.clock.remaining("p1", bot.now()).reserve_ms == 290_000
        # The Extra Slack Thread only after the first slack line: now it is woven.
        board = await play_script(table, moves[11:17])
        assert "extra_slack" not in game.view()["items"]["p1"]
        assert game.view()["lines"][-1] == {"a": "A3", "b": "A4", "slack": True, "by": "p1"}
        final = await play_script(table, moves[17:])
        assert caption(final) == f"Result: alice (p1) wins. {SAID_RESULT}"
        assert game.view()["items"] == {"p1": ["woven_revive"], "p2": []}
        assert len(table.pictures) == len(script("fate")) + 1
        table.check_pictures()
        record, ruled = await table.adjudicated()
        assert record.header("TimeControl") == "90s+5m/10s"
        assert [line.text for line in record.lines][:3] == ["pick extra slack", "pick turn order", "second"]
        assert ruled.outcome.winner == "p1" and ruled.outcome.reason == RESULT


@pytest.mark.slow
async def test_threads_of_fate_turn_order_typed_the_draft_by_bobs_button_and_the_woven_revive(world: World) -> None:
    async with world.running() as bot:
        table = Table(world, bot)
        await table.open("fate")
        assert await table.refused("p1", "draw B5-C3") == (
            "The items are being drafted; write one of `pick turn order`, `pick extra slack`, `pick woven revive`."
        )
        await table.say("p1", "pick woven revive")
        await table.press("p2", "pick turn order")
        # A word that is no choice gets the choice again, buttons and all.
        await world.fake.user_says(world.room, world.bob, "me")
        again = await world.fake.wait_for_message(world.room)
        assert again.content == "bob (p2), choose: first / second. Press a button or type your choice."
        assert again.component("gb:choice:1:p2:first") is not None
        board = await table.say("p2", "First")
        assert caption(board) == "To move: bob (p2) 1:30 +5:00."
        game = table.live.game
        assert game.view()["first"] == "p2" and game.view()["items"] == {
            "p1": ["woven_revive", "extra_slack"],
            "p2": [],
        }
        # The Woven Revive needs a captured piece; the refusal says so and nothing changes.
        await table.say("p2", "draw A1-B2")
        assert (
            await table.refused("p1", "woven revive A2")
            == "You have no captured piece to revive; draw a line or move a piece."
        )
        # alice steps between bob's A1 and B1 and loses the piece at once (classic captures).
        for seat, text in [("p1", "draw A5-A4 and move"), ("p2", "draw B1-B2"), ("p1", "draw A4-B2 and move")]:
            board = await table.say(seat, text)
        assert "Orange (alice) loses the piece on B2." in room_text(world)
        await table.say("p2", "draw D1-D2")
        # A5 has one line: a plain revive is refused with the words that use the item instead.
        assert await table.refused("p1", "revive A5") == (
            "A5 has a line at it; revive onto an empty dot with no line at it, or write `woven revive A5` to use your Woven Revive."
        )
        board = await table.say("p1", "woven revive A5")
        assert "Orange (alice) uses the Woven Revive on A5." in room_text(world)
        assert caption(board) == "To move: bob (p2) 1:30 +5:00."
        assert game.view()["items"] == {"p1": ["extra_slack"], "p2": []} and game.view()["pieces"]["A5"] == "orange"
        table.check_pictures()
