"""Round trip of a discord.py bot through the fake Discord: a player's message in, the bot's
message with a picture out.

    python bench/bench_discord_roundtrip.py [--iterations 300] [--sizes 64x64,512x512,1024x1024]
                                            [--scenario module:function ...]

Each iteration: the player's MESSAGE_CREATE is written to the bot's gateway socket (zlib-stream),
discord.py parses it and runs ``on_message``, the bot uploads a pre-rendered PNG as multipart,
and the fake has stored the message and its bytes. The time is from just before the player's
message is dispatched to the moment the bot's message lands on the fake (no sleeps: the waiter is
woken by the fake's event log).

A bot is benchmarked through a :class:`Scenario`: how to build the client, how to prepare the
world (e.g. start a match), what the player says on iteration ``i``, and which message is the
answer. ``--scenario pkg.module:function`` adds scenarios from a function ``(png: bytes) ->
Scenario | list[Scenario]``, so the geniusbot bot can be measured side by side with the bare bot
in the same run, e.g. (names on the geniusbot side are placeholders)::

    def geniusbot_scenario(png: bytes) -> Scenario:
        async def start_match(fake, world, client):
            await fake.slash(world.players[0], world.guild, world.channel, "start", {...})
            await fake.wait_for_message(world.channel)

        return Scenario(
            name="geniusbot",
            make_client=lambda fake, world: build_bot(settings_for_tests()),
            prepare=start_match,
            say=lambda i: next_legal_move(i),
            is_answer=lambda m: bool(m.attachments),
        )
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import io
import os
import random
import statistics
import struct
import sys
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import discord
from discord.ext import commands

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.running import running


@dataclass
class World:
    """What a scenario plays in: one guild, one channel, two players."""

    guild: FakeGuild
    channel: FakeChannel
    players: tuple[FakeUser, FakeUser]


@dataclass
class Scenario:
    """One bot and one exchange to time."""

    name: str
    make_client: Callable[[FakeDiscord, World], discord.Client]
    say: Callable[[int], str]
    is_answer: Callable[[FakeMessage], bool]
    prepare: Callable[[FakeDiscord, World, discord.Client], Awaitable[None]] | None = None


def make_png(width: int, height: int, seed: int = 1) -> bytes:
    """A PNG of noise (so it does not compress away), standard library only."""
    rng = random.Random(seed)
    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def answering_bot(picture: Callable[[str], Awaitable[bytes]]) -> commands.Bot:
    """A bare commands.Bot that answers every player's message with one upload: the PNG that
    ``picture`` gives for the message's text."""
    intents = discord.Intents.default()
    intents.message_content = True
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.01)

    @bot.event
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            png = await picture(message.content)
            await message.channel.send(
                f"board after {message.content}", file=discord.File(io.BytesIO(png), "board.png")
            )

    return bot


def bare_bot_scenario(png: bytes) -> Scenario:
    """A bare commands.Bot that answers every player's message with the pre-rendered PNG."""

    async def ready(_text: str) -> bytes:
        return png

    def make_client(fake: FakeDiscord, world: World) -> discord.Client:
        return answering_bot(ready)

    return Scenario(
        name="bare discord.py bot",
        make_client=make_client,
        say=lambda i: f"H{i % 9 + 1}",
        is_answer=lambda m: bool(m.attachments),
    )


async def measure(scenario: Scenario, *, iterations: int, warmup: int) -> list[float]:
    """Seconds per round trip, ``iterations`` of them after ``warmup`` untimed ones."""
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Bench")
        channel = fake.create_channel(guild, "match")
        players = (fake.create_user("alice"), fake.create_user("bob"))
        for player in players:
            fake.add_member(guild, player)
        world = World(guild, channel, players)
        client = scenario.make_client(fake, world)
        async with running(fake, client, timeout=30):
            if scenario.prepare is not None:
                await scenario.prepare(fake, world, client)
            times = []
            for i in range(warmup + iterations):
                start = time.perf_counter()
                await fake.user_says(channel, players[i % 2], scenario.say(i))
                answer = await fake.wait_for_message(channel, predicate=scenario.is_answer, timeout=30)
                elapsed = time.perf_counter() - start
                if i >= warmup:
                    times.append(elapsed)
                # Keep memory flat over long runs: the fake need not hold every PNG.
                answer.attachments[0].data = b""
            return times


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def load_scenarios(spec: str, png: bytes) -> list[Scenario]:
    """Scenarios from ``module:function``."""
    module_name, _, function_name = spec.partition(":")
    found = getattr(importlib.import_module(module_name), function_name)(png)
    return found if isinstance(found, list) else [found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--sizes", default="64x64,512x512,1024x1024", help="PNG sizes WxH, comma separated")
    parser.add_argument("--scenario", action="append", default=[], help="module:function giving more scenarios")
    args = parser.parse_args()

    print(
        f"Python {sys.version.split()[0]}, discord.py {discord.__version__}, {os.cpu_count()} cpu(s); "
        f"{args.iterations} timed round trips after {args.warmup} warm-up ones"
    )
    print(f"{'bot':<28} {'png':>10} {'bytes':>9} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'max ms':>8}")
    for size in args.sizes.split(","):
        width, height = (int(v) for v in size.lower().split("x"))
        png = make_png(width, height)
        scenarios = [bare_bot_scenario(png)]
        for spec in args.scenario:
            scenarios.extend(load_scenarios(spec, png))
        for scenario in scenarios:
            times = asyncio.run(measure(scenario, iterations=args.iterations, warmup=args.warmup))
            ms = [t * 1000 for t in times]
            print(
                f"{scenario.name:<28} {size:>10} {len(png):>9} {statistics.median(ms):>8.2f} "
                f"{percentile(ms, 99):>8.2f} {statistics.fmean(ms):>8.2f} {max(ms):>8.2f}"
            )


if __name__ == "__main__":
    main()
