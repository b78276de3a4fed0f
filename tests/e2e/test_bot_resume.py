"""The bot is stopped in mid-match and a new one resumes it: in-process on SQLite and PostgreSQL,
and as the real ``geniusbot run`` process, killed with SIGKILL and started again."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.botworld import PNG_MAGIC, ephemeral_answer, make_world
from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
async def test_a_new_bot_resumes_the_match_and_gives_back_the_outage(db_url: str, tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path, db_url)
        async with world.running():
            assert (await world.start("tictacfive", clock="60s")).startswith("Match #1 has started")
            await world.say(world.alice, "H8")
            world.time.advance(10)
            await world.say(world.alice, "H9")
        # The bot is down for five minutes; alice's 60 s must not run meanwhile.
        world.time.advance(300)
        mark = fake.mark()
        async with world.running() as bot:
            back = await fake.wait_for_message(
                world.room, predicate=lambda m: m.content.startswith("The bot is back"), since=mark
            )
            assert (
                back.content
                == "The bot is back after 5:00; the clocks were stopped meanwhile. To move: alice (p1) 1:00."
            )
            assert bot.resumed == [1]
            board = await world.say(world.alice, "I8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            choice = await fake.wait_for_message(
                world.room, predicate=lambda m: m.component("gb:choice:1:p2:black") is not None
            )
            await fake.click(world.bob, choice, "gb:choice:1:p2:black")
            await fake.wait_for_edit(choice, predicate=lambda m: not m.components)
            board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments))
            assert "To move: alice (p1)" in board.content
            assert bot.host.matches[1].game.view()["colors"] == {"p1": "white", "p2": "black"}


@pytest.mark.slow
async def test_choice_buttons_posted_before_a_restart_still_work_after_it(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running():
            await world.start("armslength", dmo="p1", options="setup=none")
            old = await fake.wait_for_message(
                world.room, predicate=lambda m: m.component("gb:choice:1:p1:red first") is not None
            )
        async with world.running() as bot:
            await fake.click(world.alice, old, "gb:choice:1:p1:red first")
            await fake.wait_for_edit(old, predicate=lambda m: not m.components)
            assert bot.host.matches[1].game.view()["first"] == "p1"


@pytest.mark.slow
async def test_sealed_answer_buttons_dmed_before_a_restart_still_work_after_it(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running():
            await world.start("allhands", seed=4, clock="none", options="items=p1 all-in; p2 all-in")
            old = await fake.wait_for_message(
                fake.dm_channel(world.alice), predicate=lambda m: m.component("gb:dm:1:p1:use all-in") is not None
            )
        async with world.running() as bot:
            pressed = await fake.click(world.alice, old, "gb:dm:1:p1:use all-in")
            await fake.wait_for_response(pressed)
            await fake.wait_for_edit(old, predicate=lambda m: not m.components)
            assert old.content == "Match #1: you answered use all-in."
            assert bot.host.matches[1].game.view("p1")["sealed"] == "use all-in"


# --------------------------------------------------------------------------- the real process


class BotProcess:
    """``python -m geniusbot run`` against the fake, with the test's clock in a file."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, time_file: Path) -> None:
        self.log = tmp_path / "bot.log"
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=fake.token,
            DISCORD_API_BASE_URL=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            DATABASE_URL=f"sqlite+aiosqlite:///{(tmp_path / 'bot.sqlite3').as_posix()}",
            GENIUSBOT_DATA_DIR=str(tmp_path / "data"),
            GENIUSBOT_TEST_TIME_FILE=str(time_file),
            LOG_LEVEL="INFO",
            PYTHONPATH=str(REPO),
        )
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "geniusbot", "run"], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.mark.slow
async def test_the_run_process_is_killed_in_mid_match_and_a_new_one_resumes_it(tmp_path: Path) -> None:
    time_file = tmp_path / "now"
    now = 1_800_000_000.0
    time_file.write_text(str(now))
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        process = BotProcess(fake, tmp_path, time_file)
        try:
            await fake.wait_for_gateway("identify", timeout=60)
            await fake.wait_until(lambda: fake.find_command("start") is not None, timeout=30, what="/start registered")
            assert (await world.start("tictacfive", clock="60s")).startswith("Match #1 has started"), process.text()
            await world.say(world.alice, "H8")
            await world.say(world.alice, "H9")
            process.kill()
            time_file.write_text(str(now + 90))
            mark = fake.mark()
            process = BotProcess(fake, tmp_path, time_file)
            back = await fake.wait_for_message(
                world.room, predicate=lambda m: m.content.startswith("The bot is back"), since=mark, timeout=60
            )
            assert (
                back.content
                == "The bot is back after 1:30; the clocks were stopped meanwhile. To move: alice (p1) 1:00."
            )
            await fake.wait_for_gateway("identify", since=mark, timeout=30)
            board = await world.say(world.alice, "I8")
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            await fake.wait_for_message(world.room, predicate=lambda m: m.component("gb:choice:1:p2:white") is not None)
        finally:
            if process.process.poll() is None:
                process.process.terminate()
                try:
                    await asyncio.to_thread(process.process.wait, 10)
                except subprocess.TimeoutExpired:
                    process.kill()
        assert "Traceback" not in process.text(), process.text()


@pytest.mark.slow
async def test_a_paused_import_is_resumed_with_its_board_posted_in_the_room(tmp_path: Path) -> None:
    text = (REPO / "tests" / "records" / "tictacfive-unfinished.txt").read_bytes()
    async with FakeDiscord() as fake:
        world = make_world(fake, tmp_path)
        async with world.running():
            upload = fake.upload("u.txt", text)
            options = {"record": upload, "first": world.alice, "second": world.bob}
            await ephemeral_answer(world, await fake.slash(world.owner, world.guild, world.room, "import", options))
            mark = fake.mark()
            interaction = await fake.slash(world.owner, world.guild, world.room, "resume", {"match": 1})
            assert (await ephemeral_answer(world, interaction)).startswith("Match #1: ")
            # The room sees where the match stands before anyone moves: the board, its clock line under it.
            board = await fake.wait_for_message(world.room, predicate=lambda m: bool(m.attachments), since=mark)
            assert fake.attachments(board)[0].startswith(PNG_MAGIC)
            assert board.content.startswith("The match goes on.\n"), board.content
            assert "To move: " in board.content
