"""The secrecy scan of the end-to-end tests: what a seated player can read (the rooms they can
view, their DMs, the answers only they see), and that a sealed move never shows in it while sealed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tests.e2e.botworld import World
from tests.fakediscord import FakeMessage, FakeUser
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


def scan_sealed(
    world: World, played: Sequence[Played], users: Mapping[str, FakeUser], ended: int, examples: str
) -> int:
    """Check that no sealed move is read by the other seat while it is sealed (from its sending
    until the move that ends its round: the last one owed, or its seat's next), anywhere they can
    read; but for the rules' own examples of a move (``examples``), and a move the other seat
    sealed the same (their own answer says it). Returns how many messages were scanned."""
    scanned = 0
    for k, (mark, seat, text, private, owed) in enumerate(played):
        if not private or text in examples or owed == (seat,):
            continue  # not sealed, an example, or the last move of its round (which it ends)
        until = next((m for m, o, _, _, due in played[k + 1 :] if due == (o,) or o == seat), ended)
        others = [(s, user) for s, user in users.items() if s != seat]
        for other, user in others:
            if any(o == other and t == text and m < until for m, o, t, _, _ in played[k:]):
                continue  # the other seat played the same: their own answer says it
            for message in readable(world, user, mark, until):
                assert text not in message.content, (seat, text, message.content)
                scanned += 1
    return scanned
