"""The secrecy scan of the end-to-end tests: what a seated player can read (the rooms they can
view, their DMs, the answers only they see), and that a sealed move never shows in it while sealed."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence

from tests.e2e.botworld import TestBot, World, ephemeral_answer
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.model import DM, VIEW_CHANNEL

#: A move as played: (the log's mark before it, its seat, its text, sent privately, the seats owed before it).
Played = tuple[int, str, str, bool, tuple[str, ...]]


def readable(world: World, user: FakeUser, since: int = 0, until: int | None = None) -> list[FakeMessage]:
    """Every message of the bot that ``user`` could read (deleted since or not) posted between two
    marks of the fake's log: in a channel they can view, in their DMs, the answers only they see."""
    fake, found = world.fake, []
    for entry in fake.log[since:until]:
        if entry.kind != "message_create" or entry.subject.author.id != fake.bot_user.id:
            continue
        message: FakeMessage = entry.subject
        channel = fake.channels[message.channel_id]
        if channel.type == DM:
            seen = channel.recipient is not None and channel.recipient.id == user.id
        else:
            seen = bool(world.guild.permissions_in(channel, user.id) & VIEW_CHANNEL)
        if message.ephemeral:
            metadata = message.interaction_metadata or {}
            seen = seen and str((metadata.get("user") or {}).get("id")) == str(user.id)
        if seen:
            found.append(message)
    return found


async def move(world: World, channel: FakeChannel, user: FakeUser, text: str) -> str:
    """``user`` sends ``/move text`` in ``channel``; the answer, checked to be theirs alone."""
    interaction = await world.fake.slash(user, world.guild, channel, "move", {"move": text})
    return await ephemeral_answer(world, interaction)


async def play_by_move(
    world: World, bot: TestBot, users: Mapping[str, FakeUser], seed: str, channel: FakeChannel
) -> list[Played]:
    """Play match #1 to its end by ``/move`` in ``channel``, random moves (a window's time run out
    on the injected clock); each move as :data:`Played`."""
    fake, rng = world.fake, random.Random(seed)
    assert bot.host is not None and bot.dispatcher is not None
    live = bot.host.matches[1]
    played: list[Played] = []
    for _ in range(600):
        if live.game.is_over:
            break
        if not live.game.to_move():  # a window open (a grid to memorise): its time runs out
            world.time.advance(5)
            await bot.dispatcher.settle()
            continue
        seat = rng.choice(live.game.to_move())
        chosen = live.game.rollout_move(seat, rng)
        if chosen is None:
            chosen = rng.choice(list(itertools.islice(live.game.legal_moves(seat), 500)))
        version = live.version
        played.append((fake.mark(), seat, chosen.text(), live.game.is_private(chosen), live.game.to_move()))
        await move(world, channel, users[seat], chosen.text())
        await fake.wait_until(lambda: live.version > version, what="the move to be committed")
    assert live.game.is_over, f"match #1 ({live.game.name}) did not end in 600 moves"
    return played


def sealed_windows(played: Sequence[Played], ended: int, examples: str) -> Iterator[tuple[int, str, str, int]]:
    """(its index, seat, text, the mark its round ends at) of each move while it is sealed: from
    its sending until the move that ends its round (the last one owed, or its seat's next); moves
    not sent privately, the rules' own examples of a move (``examples``) and a round's last move
    (which ends it) aside."""
    for k, (_, seat, text, private, owed) in enumerate(played):
        if not private or text in examples or owed == (seat,):
            continue
        until = next((m for m, o, _, _, due in played[k + 1 :] if due == (o,) or o == seat), ended)
        yield k, seat, text, until


def scan_sealed(
    world: World, played: Sequence[Played], users: Mapping[str, FakeUser], ended: int, examples: str
) -> int:
    """Check that no sealed move is read by the other seat while it is sealed (from its sending
    until the move that ends its round: the last one owed, or its seat's next), anywhere they can
    read; but for the rules' own examples of a move (``examples``), and a move the other seat
    sealed the same (their own answer says it). Returns how many messages were scanned."""
    scanned = 0
    for k, seat, text, until in sealed_windows(played, ended, examples):
        mark = played[k][0]
        others = [(s, user) for s, user in users.items() if s != seat]
        for other, user in others:
            if any(o == other and t == text and m < until for m, o, t, _, _ in played[k:]):
                continue  # the other seat played the same: their own answer says it
            for message in readable(world, user, mark, until):
                assert text not in message.content, (seat, text, message.content)
                scanned += 1
    return scanned
