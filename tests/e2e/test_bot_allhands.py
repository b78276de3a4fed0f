"""A whole All Hands On Deck final match on the fake Discord, through the real bot: started by
slash command with items, played from the first task to 23 points with bans (by button and
typed), the Override (by button) and All-In (by DM), card creations, plays, mines and snipes by
DM, the memory grid posted and deleted after 30 s of the test's clock, timeouts now and then.
All the while a spectator (carol) sees nothing hidden. Every submission is a legal move the game
itself lists (``legal_moves()``); see ``docs/allhands-hosting.md``."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from geniusbot.games.allhands.tiles import TILES, grid_text
from geniusbot.games.grid import Point
from geniusbot.words import Seat, Words, say
from tests.e2e.botworld import PNG_MAGIC, TestBot, World
from tests.fakediscord import FakeMessage

MATCH = 1


def _pt(text: str) -> Point:
    return Point(ord(text[0]) - ord("A"), int(text[1:]) - 1)


class Driver:
    """Plays the match as its two players would, one legal submission at a time, and checks
    after each step what the spectator can read."""

    def __init__(self, world: World, bot: TestBot, rng: random.Random) -> None:
        self.world, self.fake, self.bot, self.rng = world, world.fake, bot, rng
        self.users = {"p1": world.alice, "p2": world.bob}
        self.mark = self.fake.mark()
        self.counts: dict[str, int] = {}
        self.sealed: list[str] = []  # DM'd texts not yet revealed (cleared when their phase resolves)
        self.grid_messages: list[FakeMessage] = []
        self.checked: set[int] = set()  # room messages already compared with the DMs
        self.told: set[str] = set()  # what the bot has told the players privately

    @property
    def live(self):
        # Once the match is over the host lets go of it; the object last held has its final state.
        self._live = self.bot.host.matches.get(MATCH, getattr(self, "_live", None))
        return self._live

    @property
    def game(self):
        return self.live.game

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # ---- acting ------------------------------------------------------------------------------

    async def settled(self, version: int) -> None:
        """Wait until the host has committed the action and posted its board."""
        mark = self.mark
        await self.fake.wait_until(lambda: self.live.version > version, what="the action to be committed")
        await self.fake.wait_for_message(self.world.room, predicate=lambda m: bool(m.attachments), since=mark)
        while self.live.lock.locked():  # the views by DM and the deletions to arm follow the board
            await asyncio.sleep(0)

    async def say(self, seat: str, text: str) -> None:
        version, self.mark = self.live.version, self.fake.mark()
        await self.fake.user_says(self.world.room, self.users[seat], text)
        await self.settled(version)
        self.count("typed")

    async def dm(self, seat: str, text: str) -> None:
        version, self.mark = self.live.version, self.fake.mark()
        await self.fake.dm(self.users[seat], text)
        ack = await self.fake.wait_for_message(
            self.fake.dm_channel(self.users[seat]), predicate=lambda m: m.content.startswith("Taken:"), since=self.mark
        )
        assert ack.content == f"Taken: {text}.", ack.content
        await self.settled(version)
        self.count("dm")

    async def press(self, seat: str, text: str) -> None:
        custom_id = f"gb:choice:{MATCH}:{seat}:{text}"
        offer = await self.fake.wait_for_message(
            self.world.room, predicate=lambda m: m.component(custom_id) is not None, since=self.mark
        )
        version, self.mark = self.live.version, self.fake.mark()
        pressed = await self.fake.click(self.users[seat], offer, custom_id)
        await self.fake.wait_for_response(pressed)
        await self.settled(version)
        await self.fake.wait_for_edit(offer, predicate=lambda m: not m.components)
        self.count("button")

    async def press_dm(self, seat: str, text: str) -> None:
        """Press the sealed-answer button the bot sent to the player's DMs."""
        custom_id = f"gb:dm:{MATCH}:{seat}:{text}"
        channel = self.fake.dm_channel(self.users[seat])
        offer = await self.fake.wait_until(
            lambda: next((m for m in reversed(self.fake.messages(channel)) if m.component(custom_id)), None),
            what=f"the DM button {custom_id}",
        )
        version, self.mark = self.live.version, self.fake.mark()
        pressed = await self.fake.click(self.users[seat], offer, custom_id)
        await self.fake.wait_for_response(pressed)
        await self.settled(version)
        closed = await self.fake.wait_for_edit(offer, predicate=lambda m: not m.components)
        assert closed.content == f"Match #{MATCH}: you answered {text}."
        self.count("dm button")

    async def wait_out(self, due: float) -> None:
        """Let the test's clock run to ``due`` and the bot's timers fire."""
        self.mark = self.fake.mark()
        self.world.time.advance(max(0.0, due - self.bot.now()) + 0.01)
        await self.bot.dispatcher.settle()

    async def time_out(self, seat: str) -> None:
        deadline = self.live.clock.deadline(seat)
        assert deadline is not None
        version = self.live.version
        await self.wait_out(deadline)
        assert self.live.version > version
        self.count("timeout")

    # ---- one step ----------------------------------------------------------------------------

    async def step(self) -> None:
        game = self.game
        movers = game.to_move()
        if not movers:
            await self.close_window()
        elif game.phase == "override":
            await self.override(movers[0])
        elif game.phase == "ban":
            await self.ban(movers[0])
        elif game.phase == "items":
            await self.all_in(movers)
        elif game.current_task == "tiles":
            await self.tiles(movers)
        elif game.current_task == "decks":
            await self.decks(movers)
        else:
            await self.swabbing(movers)
        self.check_spectator()

    async def close_window(self) -> None:
        window = self.live.host["window"]
        task = self.game.task
        if window["kind"] == "memorize":
            messages = self.fake.messages(self.world.room)
            # The picture shows the grid; the announcement says to memorize it, without a copy.
            assert not [m for m in messages if grid_text(task.original) in m.content]
            said = [m for m in messages if m.content.startswith("Memorize the grid") and not m.attachments]
            assert said and messages[messages.index(said[-1]) + 1].attachments
            self.grid_messages.append(said[-1])
        await self.wait_out(float(window["due"]))
        if window["kind"] == "memorize":
            await self.fake.wait_for_delete(self.grid_messages[-1], since=self.mark)
            self.count("grid deleted")

    async def override(self, seat: str) -> None:
        texts = [m.text() for m in self.game.legal_moves(seat)]
        use = [t for t in texts if t.startswith("use override")]
        if use and not self.counts.get("override"):
            await self.press(seat, self.rng.choice(use))
            self.count("override")
        elif self.rng.random() < 0.5:
            await self.press(seat, "pass")
        else:
            await self.say(seat, "pass")

    async def ban(self, seat: str) -> None:
        text = self.rng.choice([m.text() for m in self.game.legal_moves(seat)])
        if self.rng.random() < 0.75:
            await self.press(seat, text)
        else:
            await self.say(seat, text)
        self.count("ban")

    async def all_in(self, movers: tuple[str, ...]) -> None:
        for seat in movers:
            use = self.game.play_no >= 2 and self.rng.random() < 0.5
            if not self.counts.get("all-in refused"):
                # Typed in the room by mistake: refused there with the reason, nothing changes.
                self.mark = self.fake.mark()
                await self.fake.user_says(self.world.room, self.users[seat], "use all-in")
                answer = await self.fake.wait_for_message(self.world.room)
                assert "by direct message" in answer.content and answer.content.startswith(f"{self.live.label(seat)}: ")
                self.count("all-in refused")
            text = "use all-in" if use else "pass"
            self.sealed.append(text)
            if self.rng.random() < 0.5:
                await self.press_dm(seat, text)
            else:
                await self.dm(seat, text)
        self.sealed.clear()  # both answers are in: shown together

    async def sealed_dm(self, seat: str, text: str) -> None:
        """A sealed submission by DM: while the other seat's is awaited, the spectator must not
        see it; once both are in (nothing is marked submitted any more) they are revealed."""
        self.sealed.append(text)
        await self.dm(seat, text)
        game = self.game
        task = game.task.view(None) if game.phase == "task" and game.task is not None else None
        if task is not None and any((task.get("submitted") or {}).values()):
            self.check_spectator()
            self.count("sealed")
        else:
            self.sealed.clear()

    async def tiles(self, movers: tuple[str, ...]) -> None:
        task = self.game.task
        if task.phase == "landmines":
            for seat in movers:
                if self.rng.random() < 0.7:
                    tiles = sorted(self.rng.sample(list(TILES), 5), key=lambda p: (p.col, p.row))
                    mines = "mines " + " ".join(str(p) for p in tiles)
                    await self.dm(seat, mines)
                    self.count("mines")
            if self.game.phase == "task" and self.game.task.view(None).get("phase") == "landmines":
                await self.close_window()  # who sent none places none
            return
        seat = movers[0]
        if self.rng.random() < 0.08:
            await self.time_out(seat)
            return
        moves = list(itertools.islice(task.legal_moves(seat), 400))
        if task.phase == "call":
            text = self.rng.choice(moves).text()
            await (self.press(seat, text) if self.rng.random() < 0.5 else self.say(seat, text))
            return
        # Declare: mostly from a perfect memory, else any legal declaration (which may lose).
        named = {d["tile"] for d in task.declared}
        good = [m for m in moves if m.tile not in named and task.grid[_pt(m.tile)] == task.called]
        move = self.rng.choice(good if good and self.rng.random() < 0.7 else moves)
        await self.say(seat, move.text())

    async def decks(self, movers: tuple[str, ...]) -> None:
        task = self.game.task
        for seat in movers:
            if self.rng.random() < 0.75:
                moves = list(itertools.islice(task.legal_moves(seat), 300))
                await self.sealed_dm(seat, self.rng.choice(moves).text())
        if self.game.phase == "task" and self.game.current_task == "decks" and self.game.to_move():
            await self.time_out(self.game.to_move()[0])  # submits nothing this phase
        self.sealed.clear()

    async def swabbing(self, movers: tuple[str, ...]) -> None:
        task = self.game.task
        if self.rng.random() < 0.12:
            await self.time_out(task.turn)
            return
        for seat in movers:
            moves = list(itertools.islice(task.legal_moves(seat), 400))
            move = self.rng.choice(moves)
            if task.is_private(move):
                await self.sealed_dm(seat, move.text())
            else:
                await self.say(seat, move.text())
            if self.game.phase != "task" or self.game.task is not task:
                break
        self.sealed.clear()

    # ---- what the spectator sees --------------------------------------------------------------

    def check_spectator(self) -> None:
        fake, carol = self.fake, self.world.carol
        seen = "\n".join(m.content for m in fake.visible_to(carol, self.world.room))
        assert not fake.visible_to(carol, fake.dm_channel(self.world.alice))
        assert not fake.visible_to(carol, fake.dm_channel(self.world.bob))
        assert "Taken:" not in seen and "Your view" not in seen
        # Nothing the bot told a player privately is repeated where the spectator can read it.
        for user in (self.world.alice, self.world.bob):
            for m in fake.messages(fake.dm_channel(user))[-40:]:
                if m.author.id == fake.bot_user.id and len(m.content) >= 12:
                    self.told.add(m.content)
        for message in fake.visible_to(carol, self.world.room)[-40:]:
            if message.id not in self.checked:
                assert not any(text in message.content for text in self.told), message.content
                self.checked.add(message.id)
        game = self.game
        task = game.task if game.phase == "task" else None
        if task is not None and game.current_task == "tiles" and task.phase != "memorize" and not task.is_over:
            rows = [line for line in grid_text(task.original).splitlines()[:-1] if line.strip()]
            assert not any(row in seen for row in rows), "the spectator can read the hidden grid"
            exploded = {e["tile"] for e in task.exploded}
            for seat in ("p1", "p2"):
                mines = [str(p) for p in task.mines.sealed_by(seat) or []]
                if mines and not exploded & set(mines):
                    assert "mines " + " ".join(mines) not in seen
        for text in self.sealed:
            if text not in ("pass", "use all-in", "play none", "create none"):
                last = [m.content for m in fake.visible_to(carol, self.world.room)[-12:]]
                assert not any(f"{text}." in m or f"{text} " in m for m in last), f"{text} is visible"


@pytest.mark.slow
async def test_a_whole_final_match_is_hosted_in_discord_from_the_first_task_to_23_points(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        answer = await world.start(
            "allhands", seed=11, clock="30s", options="items=p1 all-in override; p2 all-in override clock first=p1"
        )
        assert answer == f"Match #1 has started in <#{world.room.id}>."
        for user in (world.alice, world.bob):
            assert "Private moves of that match go here" in fake.messages(fake.dm_channel(user))[0].content
        driver = Driver(world, bot, random.Random(11))
        for _ in range(3000):
            if driver.game.is_over:
                break
            await driver.step()
        game = driver.game
        assert game.is_over
        result = game.view(None)["result"]
        assert result["reason"] == "target" and max(result["points"].values()) >= 23
        final = [m for m in fake.messages(world.room) if m.attachments][-1]
        assert fake.attachments(final)[0].startswith(PNG_MAGIC)
        # The last move's announcement (a grid in a code block when it shows one) and the result.
        last = final.content.removesuffix("\n```").split("\n")[-1]
        # The game's sentence names the winner, so the line says it once ("Result: bob reaches 25
        # points and wins All Hands On Deck, 25 to 14.").
        winner = Words(names={s: p.name for s, p in driver.live.players.items()})(
            say("{seat}", seat=Seat(result["winner"]))
        )
        assert last.startswith(f"Result: {winner} reaches ") and last.count(" wins") == 1, last
        plays = game.view(None)["plays"]
        assert any(p["override"] for p in plays) and any(p["all_in"] for p in plays)
        assert sum(len(p["bans"]) for p in plays) >= 4
        for what in (
            "button",
            "dm button",
            "typed",
            "dm",
            "ban",
            "grid deleted",
            "timeout",
            "override",
            "all-in refused",
        ):
            assert driver.counts.get(what), (what, driver.counts)
        # The grids are gone for good; nothing else the bot posted in the room was deleted.
        # The grids are gone for good, each with the one board posted while it was on show;
        # nothing else the bot posted was deleted.
        deleted = [m for m in fake.messages(world.room, include_deleted=True) if m.deleted]
        grids = {m.id for m in driver.grid_messages}
        assert grids <= {m.id for m in deleted}
        boards = [m for m in deleted if m.id not in grids]
        assert all(m.attachments for m in boards) and len(boards) == len(grids)


@pytest.mark.slow
async def test_the_grid_posted_before_a_restart_is_deleted_by_the_next_bot(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        assert (await world.start("allhands", seed=4, clock="30s")).startswith("Match #1 has started")
        messages = fake.messages(world.room)
        [grid] = [m for m in messages if m.content.startswith("Memorize the grid") and not m.attachments]
        # The picture of the grid follows the line, which has said it all: the room says it once.
        picture = messages[messages.index(grid) + 1]
        assert picture.attachments and "Memorize" not in picture.content
        world.time.advance(10)
        await bot.dispatcher.settle()
    # Down for 12 s, then a new bot on the same database: the grid still goes at its 30 s.
    world.time.advance(12)
    async with world.running() as bot:
        assert bot.resumed == [MATCH]
        assert not grid.deleted
        mark = fake.mark()
        world.time.advance(8)
        await bot.dispatcher.settle()
        await fake.wait_for_delete(grid, since=mark)
        await fake.wait_for_delete(picture, since=mark)
        assert grid not in fake.visible_to(world.carol, world.room)
        assert picture not in fake.visible_to(world.carol, world.room)
        # The memorize window's 30 s are wall time (the grid was on show meanwhile): it closes
        # with the grid, and play goes on from there.
        await fake.wait_until(lambda: bot.host.matches[MATCH].game.task.phase == "call", what="the window to close")
        assert grid_text(bot.host.matches[MATCH].game.task.original) not in "\n".join(
            m.content for m in fake.visible_to(world.carol, world.room)
        )


@pytest.mark.slow
async def test_a_dm_reaches_the_players_match_that_takes_private_moves(world: World) -> None:
    fake = world.fake
    other = fake.create_channel(world.guild, "side-room")
    async with world.running() as bot:
        assert (await world.start("allhands", seed=4, clock="none", options="items=p1 all-in; p2 all-in")).startswith(
            "Match #1"
        )
        interaction = await fake.slash(
            world.owner, world.guild, other, "start", {"game": "tictacfive", "first": world.alice, "second": world.bob}
        )
        assert (await world.answer(interaction)).startswith("Match #2 has started")
        # alice plays in two matches; only the final match takes private moves, so her DM is for it.
        await fake.dm(world.alice, "use all-in")
        ack = await fake.wait_for_message(
            fake.dm_channel(world.alice), predicate=lambda m: m.content.startswith("Taken")
        )
        assert ack.content == "Taken: use all-in."
        game = bot.host.matches[MATCH].game
        assert game.view("p1")["sealed"] == "use all-in" and game.view(None)["sealed"] is None
        said = await fake.wait_for_message(
            world.room, predicate=lambda m: m.content.startswith("alice has sent an All-In answer.")
        )
        assert (
            said.content == "alice has sent an All-In answer.\nTo move: bob (p2)."
        )  # an untimed match says whose turn it is too
        assert bot.host.matches[2].game.view()["last_move"] is None  # the other match heard nothing
        # Her answer buttons (sent when the question came) close once she has answered.
        offer = next(
            m
            for m in fake.messages(fake.dm_channel(world.alice), include_deleted=True)
            if m.content.startswith("Match #1, your sealed answer")
        )
        await fake.wait_for_edit(offer, predicate=lambda m: not m.components)


@pytest.mark.slow
async def test_all_in_is_answered_by_a_button_in_the_dm_or_by_typing_it_there(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        await world.start("allhands", seed=4, clock="none", options="items=p1 all-in; p2 all-in")
        offers = {}
        for seat, user in (("p1", world.alice), ("p2", world.bob)):
            offers[seat] = await fake.wait_for_message(
                fake.dm_channel(user), predicate=lambda m, s=seat: m.component(f"gb:dm:1:{s}:use all-in") is not None
            )
            assert (
                offers[seat].content
                == "Match #1, your sealed answer: use all-in / pass. Press a button or send it here as text."
            )
            assert offers[seat].component(f"gb:dm:1:{seat}:pass")["label"] == "Pass"
        # Nobody else can press them (a DM is its player's alone), and the room has no such buttons.
        with pytest.raises(PermissionError):
            await fake.click(world.bob, offers["p1"], "gb:dm:1:p1:use all-in")
        assert not [m for m in fake.visible_to(world.carol, world.room) if m.components]
        pressed = await fake.click(world.alice, offers["p1"], "gb:dm:1:p1:use all-in")
        await fake.wait_for_response(pressed)
        await fake.wait_for_edit(offers["p1"], predicate=lambda m: not m.components)
        assert offers["p1"].content == "Match #1: you answered use all-in."
        assert (
            await fake.wait_for_message(fake.dm_channel(world.alice), predicate=lambda m: m.content.startswith("Taken"))
        ).content == "Taken: use all-in."
        game = bot.host.matches[MATCH].game
        assert game.view("p1")["sealed"] == "use all-in" and game.view(None)["sealed"] is None
        # bob types his answer instead: his buttons close, and both answers are shown together.
        await fake.dm(world.bob, "pass")
        await fake.wait_for_edit(offers["p2"], predicate=lambda m: not m.components)
        await fake.wait_for_message(world.room, predicate=lambda m: m.content.startswith("alice uses All-In"))


@pytest.mark.slow
async def test_a_dm_from_a_player_of_two_matches_with_private_moves_names_the_match(world: World) -> None:
    fake = world.fake
    other = fake.create_channel(world.guild, "card-room")
    async with world.running() as bot:
        await world.start("allhands", seed=4, clock="none", options="items=p1 all-in; p2 all-in")
        interaction = await fake.slash(
            world.owner,
            world.guild,
            other,
            "start",
            {"game": "decks", "first": world.alice, "second": world.bob, "clock": "none"},
        )
        assert (await world.answer(interaction)).startswith("Match #2 has started")
        mark = fake.mark()
        await fake.dm(world.alice, "pass")
        answer = await fake.wait_for_message(
            fake.dm_channel(world.alice), predicate=lambda m: "several" in m.content, since=mark
        )
        assert answer.content == (
            "You play in several matches (#1 (All Hands On Deck), #2 (Dueling Decks)); start your message with the "
            "match number, "
            "such as #1 pass."
        )
        assert bot.host.matches[MATCH].game.view("p1")["sealed"] is None
        await fake.dm(world.alice, "#1 pass")
        ack = await fake.wait_for_message(
            fake.dm_channel(world.alice), predicate=lambda m: m.content.startswith("Taken")
        )
        assert ack.content == "Taken: pass."
        assert bot.host.matches[MATCH].game.view("p1")["sealed"] == "pass"
        offer = next(
            m for m in fake.messages(fake.dm_channel(world.alice)) if m.content.startswith("Match #1, your sealed")
        )
        await fake.wait_for_edit(offer, predicate=lambda m: not m.components)
