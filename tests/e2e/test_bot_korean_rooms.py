"""A Korean server of today's Discord, whole: the bot is granted no privileged intent, the players'
DMs are closed, each match runs in a thread, and the rooms speak Korean (``/setup language:ko``).
Every game and rule set is played from ``/start`` to its result by ``/move`` (sealed moves sent
privately by it); everything the bot posts for the room and the thread to read is Korean, and no
sealed move is ever shown there before the match ends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.botworld import EPHEMERAL, World, ephemeral_answer
from tests.e2e.secrecy import play_by_move, scan_sealed, sealed_windows
from tests.e2e.test_bot_room_language import texts_of
from tests.e2e.test_bot_without_content import RULE_SETS, without_content
from tests.fakediscord import FakeChannel, FakeMessage

HANGUL = re.compile(r"[\uac00-\ud7a3]")
ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = (
    ROOT / "geniusbot" / "locales" / "geniusbot.pot",
    ROOT / "examples" / "blackwhite" / "src" / "blackwhite" / "locales" / "blackwhite.pot",
)


def examples() -> str:
    """Every English template of the catalogues: a sealed move written in one ("such as play 4")
    is the rules' example, said to everyone, not a player's secret."""
    return "\n".join(path.read_text(encoding="utf-8") for path in TEMPLATES)


def public_posts(
    world: World, channels: list[FakeChannel], since: int = 0, until: int | None = None
) -> list[FakeMessage]:
    """What the bot posted in ``channels`` for all to read, between two marks of the fake's log."""
    ids = {c.id for c in channels}
    return [
        entry.subject
        for entry in world.fake.log[since:until]
        if entry.kind == "message_create"
        and entry.subject.author.id == world.fake.bot_user.id
        and entry.subject.channel_id in ids
        and not entry.subject.flags & EPHEMERAL
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "variant"), RULE_SETS)
async def test_every_game_plays_in_a_korean_thread_without_the_intent_or_dms(
    world: World, game: str, variant: str
) -> None:
    fake = world.fake
    users = {"p1": world.alice, "p2": world.bob}
    world.alice.dms_open = world.bob.dms_open = False
    async with world.running(without_content(world)) as bot:
        interaction = await fake.slash(
            world.owner, world.guild, world.room, "setup", {"threads": True, "language": "ko"}
        )
        await ephemeral_answer(world, interaction)
        start = fake.mark()
        await world.start(game, seed=7, variant=variant)
        [thread] = [c for c in world.guild.channels.values() if c.is_thread]
        live = bot.host.matches[1]
        assert live.language == "ko"
        played = await play_by_move(world, bot, users, f"ko:{game}:{variant}", thread)
        await fake.wait_until(lambda: thread.archived, what="the thread to close")
        ended = fake.mark()
        await fake.wait_until(
            lambda: any("#1" in m.content for m in public_posts(world, [world.room], start)), what="the result"
        )
    posts = public_posts(world, [world.room, thread], start)
    assert posts
    for post in posts:
        texts = texts_of(post)
        assert not texts or any(HANGUL.search(text) for text in texts), texts
    # The scan: a sealed move is shown to neither the room nor the thread while it is sealed: from
    # its sending until the move that ends its round (the last one owed, or its seat's next), but
    # for the rules' own examples of a move, which the templates write.
    said, scanned = examples(), 0
    for k, _seat, text, until in sealed_windows(played, ended, said):
        for post in public_posts(world, [world.room, thread], played[k][0], until):
            assert not [t for t in texts_of(post) if text in t], (text, texts_of(post))
            scanned += 1
    # Nor anywhere the other seat reads while it is sealed: the rooms, the answers only they see.
    scan_sealed(world, played, users, ended, said)
    # Each game with sealed rounds had posts made while a move was sealed, and they were read.
    assert scanned or not [k for k, (_, seat, _, private, owed) in enumerate(played) if private and owed != (seat,)]
