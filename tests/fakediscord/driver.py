"""The test driver of the fake: build the world, act as players, wait for the bot without sleeping.

Every change the bot makes (a message posted, edited, deleted, an interaction answered, a reaction)
and every gateway milestone (connect, identify, resume, close) is appended to one event log and
wakes the waiters at once; ``wait_for_*`` scan the log from a cursor, so nothing is missed even if
the bot answers before the test starts waiting. The default cursor is the moment of the last
driver action (``user_says``, ``dm``, ``slash``, ``click``, ``select``, ``react``).
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from . import model
from .gateway import DIRECT_MESSAGE_REACTIONS, GUILD_MEMBERS, GUILD_MESSAGE_REACTIONS, UNKNOWN_ERROR
from .model import (
    DM,
    GUILD_TEXT,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResponse,
)

if TYPE_CHECKING:
    from .gateway import Gateway, GatewaySession

T = TypeVar("T")

# Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
# Component types.
BUTTON, STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 2, 3, 5, 6, 7, 8
LINK_STYLE, PREMIUM_STYLE = 5, 6


class FakeTimeout(AssertionError):
    """A ``wait_for_*`` helper ran out of time: the bot did not do what the test expected."""


@dataclass
class LogEntry:
    """One thing that happened on the fake: ``kind`` names it, ``subject`` is the (live) object,
    ``snapshot`` a copy of a message as it was at that moment (what predicates look at)."""

    kind: str
    subject: Any
    snapshot: Any = None


class Driver:
    """Driver methods of :class:`~tests.fakediscord.server.FakeDiscord` (which sets the state)."""

    if TYPE_CHECKING:
        ids: model.Snowflakes
        bot_user: FakeUser
        application_id: int
        users: dict[int, FakeUser]
        guilds: dict[int, FakeGuild]
        channels: dict[int, FakeChannel]
        dm_channels: dict[int, FakeChannel]
        message_store: dict[int, FakeMessage]
        uploads: dict[int, FakeAttachment]
        base_url: str
        commands: dict[int, FakeCommand]
        interactions: dict[int, FakeInteraction]
        gateway: Gateway
        clock: Callable[[], float]

        def _guild_create_payload(self, guild: FakeGuild, session: GatewaySession) -> dict[str, Any]: ...
        def _dispatch_message(self, event: str, message: FakeMessage) -> None: ...

    def __init__(self) -> None:
        self.log: list[LogEntry] = []
        self._tick = asyncio.Event()
        self._action_mark = 0

    # ------------------------------------------------------------------ the event log

    def _record(self, kind: str, subject: Any) -> None:
        snapshot = None
        if isinstance(subject, FakeMessage):
            # Predicates judge a message as it was when posted or edited, not as it is when the
            # waiter gets round to scanning, so a later edit cannot change what a wait finds.
            snapshot = copy.copy(subject)
            snapshot.reactions = {k: set(v) for k, v in subject.reactions.items()}
        self.log.append(LogEntry(kind, subject, snapshot))
        # Wake every waiter; each re-scans the log from its own cursor.
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    def mark(self) -> int:
        """A cursor: pass it as ``since=`` to wait only for what happens after this point."""
        return len(self.log)

    def _begin_action(self) -> None:
        self._action_mark = len(self.log)

    async def wait_until(
        self, condition: Callable[[], T | None], *, timeout: float = 5.0, what: str = "a condition"
    ) -> T:
        """Re-check ``condition`` whenever the fake records anything; return its first truthy value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            tick = self._tick
            value = condition()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeTimeout(f"timed out after {timeout}s waiting for {what}.\n{self.describe_recent()}")
            try:
                await asyncio.wait_for(tick.wait(), remaining)
            except TimeoutError:
                pass

    async def wait_for(
        self,
        kind: str | Sequence[str],
        predicate: Callable[[Any], bool] | None = None,
        *,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> Any:
        """The subject of the first log entry of ``kind`` from ``since`` (default: the last
        driver action) for which ``predicate`` holds; for messages the predicate sees the
        message as it was at that entry, and the live message is returned."""
        kinds = {kind} if isinstance(kind, str) else set(kind)
        start = self._action_mark if since is None else since
        position = start

        def scan() -> Any:
            nonlocal position
            while position < len(self.log):
                entry = self.log[position]
                position += 1
                judged = entry.snapshot if entry.snapshot is not None else entry.subject
                if entry.kind in kinds and (predicate is None or predicate(judged)):
                    return (entry.subject,)
            return None

        found = await self.wait_until(scan, timeout=timeout, what=f"{sorted(kinds)} after log entry {start}")
        return found[0]

    _BOT: Any = object()

    async def wait_for_message(
        self,
        channel: FakeChannel | None = None,
        *,
        predicate: Callable[[FakeMessage], bool] | None = None,
        author: FakeUser | None = _BOT,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first message posted (by the bot unless ``author`` says otherwise; ``author=None``
        for anyone) in ``channel`` (any if None) after the last driver action or ``since``.

        Interaction responses and follow-ups count as the bot's messages; a follow-up that
        replaces a deferral's "thinking" message counts when it lands.
        """
        who = self.bot_user if author is self._BOT else author

        def matches(message: FakeMessage) -> bool:
            if channel is not None and message.channel_id != channel.id:
                return False
            if who is not None and message.author.id != who.id:
                return False
            if message.flags & model.LOADING:
                return False
            return predicate is None or predicate(message)

        return await self.wait_for(("message_create", "deferral_filled"), matches, since=since, timeout=timeout)

    async def wait_for_edit(
        self,
        message: FakeMessage,
        *,
        predicate: Callable[[FakeMessage], bool] | None = None,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The message after its first edit (since the last driver action) satisfying ``predicate``."""
        return await self.wait_for(
            "message_update",
            lambda m: m.id == message.id and (predicate is None or predicate(m)),
            since=since,
            timeout=timeout,
        )

    async def wait_for_delete(
        self, message: FakeMessage, *, since: int | None = None, timeout: float = 5.0
    ) -> FakeMessage:
        """Wait until the bot deletes ``message``."""
        return await self.wait_for("message_delete", lambda m: m.id == message.id, since=since, timeout=timeout)

    async def wait_for_response(self, interaction: FakeInteraction, *, timeout: float = 5.0) -> InteractionResponse:
        """The bot's callback to ``interaction`` (immediately if it has already answered)."""
        return await self.wait_until(
            lambda: interaction.response, timeout=timeout, what=f"a response to interaction {interaction.id}"
        )

    async def wait_for_followup(
        self, interaction: FakeInteraction, count: int = 1, *, timeout: float = 5.0
    ) -> FakeMessage:
        """The ``count``-th follow-up of ``interaction`` (the filled "thinking" message counts)."""
        return await self.wait_until(
            lambda: interaction.followups[count - 1] if len(interaction.followups) >= count else None,
            timeout=timeout,
            what=f"follow-up #{count} of interaction {interaction.id}",
        )

    async def wait_for_gateway(self, kind: str, *, since: int | None = None, timeout: float = 5.0) -> Any:
        """Wait for a gateway milestone: ``connect``, ``identify``, ``resume``, ``resume_refused``
        or ``close``; returns the connection or session."""
        return await self.wait_for(f"gateway_{kind}", since=self.mark() if since is None else since, timeout=timeout)

    def describe_recent(self, count: int = 12) -> str:
        """The last entries of the log, for failure messages."""
        lines = []
        for entry in self.log[-count:]:
            subject = entry.subject
            if isinstance(subject, FakeMessage):
                text = f"{subject.author.username} in {subject.channel_id}: {subject.content[:80]!r}"
                if subject.attachments:
                    text += f" +{len(subject.attachments)} file(s)"
            elif isinstance(subject, FakeInteraction):
                text = f"interaction {subject.id} response={subject.response.type if subject.response else None}"
            else:
                text = repr(subject)[:100]
            lines.append(f"  {entry.kind}: {text}")
        return "recent events on the fake:\n" + ("\n".join(lines) if lines else "  (none)")

    # ------------------------------------------------------------------ observers

    def messages(self, channel: FakeChannel, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Every message in ``channel`` in order, ephemeral ones included (see ``.ephemeral``)."""
        return [
            m
            for m in sorted(self.message_store.values(), key=lambda m: m.id)
            if m.channel_id == channel.id and (include_deleted or not m.deleted) and not m.flags & model.LOADING
        ]

    def visible_to(self, user: FakeUser, channel: FakeChannel) -> list[FakeMessage]:
        """What ``user`` can read in ``channel``: nothing if they cannot view it; else every
        message but other people's ephemeral ones. For checking hidden information stays hidden."""
        if channel.type == DM:
            if channel.recipient is None or channel.recipient.id != user.id:
                return []
        else:
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            if user.id not in guild.members or not guild.permissions_in(channel, user.id) & model.VIEW_CHANNEL:
                return []
        return [
            m
            for m in self.messages(channel)
            if not m.ephemeral
            or (m.interaction_metadata is not None and m.interaction_metadata["user"]["id"] == str(user.id))
        ]

    @property
    def interaction_responses(self) -> list[tuple[FakeInteraction, InteractionResponse]]:
        """Every interaction callback the bot posted, in order."""
        return [(e.subject, e.subject.response) for e in self.log if e.kind == "interaction_response"]

    def attachments(self, message: FakeMessage) -> list[bytes]:
        """The bytes of every file attached to ``message``, exactly as the bot uploaded them."""
        return [a.data for a in message.attachments]

    # ------------------------------------------------------------------ building the world

    def upload(self, filename: str, data: bytes) -> FakeAttachment:
        """A file a user attaches to a slash command: pass it as an attachment option's value.
        Its URL serves ``data``, so ``Attachment.read()`` downloads it."""
        attachment_id = self.ids.next()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/0/{attachment_id}/{filename}",
        )
        self.uploads[attachment_id] = attachment
        return attachment

    def create_user(
        self, username: str, *, global_name: str | None = None, dms_open: bool = True, bot: bool = False
    ) -> FakeUser:
        """A new user (not yet in any guild)."""
        user = FakeUser(self.ids.next(), username, global_name=global_name, dms_open=dms_open, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str = "The Genius",
        *,
        owner: FakeUser | None = None,
        everyone_permissions: int = model.EVERYONE_DEFAULT,
        bot_permissions: int = model.BOT_DEFAULT,
        with_bot: bool = True,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, an owner, and (``with_bot``) the bot with its managed role.

        ``shard=(shard_id, shard_count)`` gives it an id on that shard (``(id >> 22) % count``).
        Created while the bot is connected, it arrives as GUILD_CREATE (the bot joined it).
        """
        owner = owner or self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = FakeGuild(guild_id, name, owner.id, locale=locale)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", permissions=everyone_permissions)
        self.guilds[guild.id] = guild
        guild.members[owner.id] = FakeMember(owner, guild.id)
        if with_bot:
            bot_role = FakeRole(
                self.ids.next(),
                guild.id,
                self.bot_user.username,
                permissions=bot_permissions,
                position=1,
                managed=True,
                bot_id=self.bot_user.id,
            )
            guild.roles[bot_role.id] = bot_role
            guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild.id, [bot_role.id])
            self.gateway.dispatch("GUILD_CREATE", lambda s: self._guild_create_payload(guild, s))
        return guild

    def shard_sessions(self, shard_id: int | None = None) -> list[GatewaySession]:
        """The live gateway sessions, or those that identified as shard ``shard_id`` (``shard: [id, count]``)."""
        sessions = self.gateway.live_sessions
        if shard_id is None:
            return sessions
        return [s for s in sessions if s.shard is not None and s.shard[0] == shard_id]

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        """The bot's managed role in ``guild``."""
        return next(r for r in guild.roles.values() if r.bot_id == self.bot_user.id)

    def create_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        topic: str | None = None,
        overwrites: Mapping[FakeRole | FakeUser | FakeMember, tuple[int, int]] | None = None,
    ) -> FakeChannel:
        """A text channel; ``overwrites`` maps a role or user to ``(allow, deny)`` bits."""
        rows = []
        for target, (allow, deny) in (overwrites or {}).items():
            if isinstance(target, FakeRole):
                rows.append({"id": str(target.id), "type": 0, "allow": str(allow), "deny": str(deny)})
            else:
                user = target.user if isinstance(target, FakeMember) else target
                rows.append({"id": str(user.id), "type": 1, "allow": str(allow), "deny": str(deny)})
        return self._add_channel(guild, name, topic=topic, overwrites=rows)

    def set_overwrite(
        self, channel: FakeChannel, target: FakeRole | FakeUser | FakeMember, allow: int, deny: int
    ) -> None:
        """Set (replace) ``channel``'s overwrite for a role or user, as a server admin would (CHANNEL_UPDATE)."""
        if isinstance(target, FakeRole):
            row = {"id": str(target.id), "type": 0, "allow": str(allow), "deny": str(deny)}
        else:
            user = target.user if isinstance(target, FakeMember) else target
            row = {"id": str(user.id), "type": 1, "allow": str(allow), "deny": str(deny)}
        channel.overwrites = [o for o in channel.overwrites if o["id"] != row["id"]] + [row]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload())
        self._record("channel_update", channel)

    def _add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        kind: int = GUILD_TEXT,
        topic: str | None = None,
        parent_id: int | None = None,
        overwrites: list[dict[str, Any]] | None = None,
    ) -> FakeChannel:
        channel = FakeChannel(
            id=self.ids.next(),
            type=kind,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
            topic=topic,
            parent_id=parent_id,
            overwrites=overwrites or [],
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        if self.bot_user.id in guild.members:
            self.gateway.dispatch("CHANNEL_CREATE", channel.payload())
        self._record("channel_create", channel)
        return channel

    def create_role(
        self,
        guild: FakeGuild,
        name: str,
        *,
        permissions: int = 0,
        color: int = 0,
        hoist: bool = False,
        mentionable: bool = False,
        position: int | None = None,
    ) -> FakeRole:
        """A role at ``position`` (default 1, just above @everyone, as Discord creates roles);
        roles at or above it move up one, so the bot's role stays above roles created later."""
        position = 1 if position is None else max(1, position)
        shifted = [r for r in guild.roles.values() if r.id != guild.id and r.position >= position]
        for role in shifted:
            role.position += 1
        role = FakeRole(
            self.ids.next(),
            guild.id,
            name,
            permissions=permissions,
            position=position,
            color=color,
            hoist=hoist,
            mentionable=mentionable,
        )
        guild.roles[role.id] = role
        if self.bot_user.id in guild.members:
            for moved in shifted:
                self.gateway.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": moved.payload()})
            self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        self._record("role_create", role)
        return role

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: Sequence[FakeRole] = (), nick: str | None = None
    ) -> FakeMember:
        """Make ``user`` a member of ``guild`` (GUILD_MEMBER_ADD if the bot has the members intent)."""
        member = FakeMember(user, guild.id, [r.id for r in roles], nick=nick)
        guild.members[user.id] = member
        data = {**member.payload(), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", lambda s: data if s.has(GUILD_MEMBERS) else None)
        return member

    def set_roles(self, guild: FakeGuild, user: FakeUser, roles: Sequence[FakeRole]) -> FakeMember:
        """Replace a member's roles, as a server admin would (GUILD_MEMBER_UPDATE)."""
        member = guild.members[user.id]
        member.role_ids = [r.id for r in roles]
        data = {**member.payload(), "guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", lambda s: data if s.has(GUILD_MEMBERS) else None)
        return member

    def remove_member(self, guild: FakeGuild, user: FakeUser) -> None:
        """The user leaves ``guild`` (GUILD_MEMBER_REMOVE)."""
        del guild.members[user.id]
        data = {"guild_id": str(guild.id), "user": user.payload()}
        self.gateway.dispatch("GUILD_MEMBER_REMOVE", lambda s: data if s.has(GUILD_MEMBERS) else None)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=self.ids.next(), type=DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # ------------------------------------------------------------------ gateway control

    async def drop_gateway(self, code: int = UNKNOWN_ERROR, *, invalidate: bool = False) -> int:
        """Close the bot's gateway socket from the server side. With the default 4000 the bot
        RESUMEs; with ``invalidate`` its RESUME is refused and it IDENTIFYs again."""
        return await self.gateway.drop(code, invalidate=invalidate)

    async def request_reconnect(self) -> None:
        """Send opcode 7 RECONNECT, as Discord does before moving a session."""
        await self.gateway.send_reconnect()
        await self.gateway.flush()

    # ------------------------------------------------------------------ players acting

    def _check_can_send(self, channel: FakeChannel, user: FakeUser) -> FakeGuild | None:
        if channel.type == DM:
            if channel.recipient is None or channel.recipient.id != user.id:
                raise PermissionError(f"{user.username} is not the recipient of DM channel {channel.id}")
            return None
        guild = self.guilds[channel.guild_id]  # type: ignore[index]
        if user.id not in guild.members:
            raise PermissionError(f"{user.username} is not a member of {guild.name}")
        perms = guild.permissions_in(channel, user.id)
        needed = model.VIEW_CHANNEL | (model.SEND_MESSAGES_IN_THREADS if channel.is_thread else model.SEND_MESSAGES)
        if perms & needed != needed:
            raise PermissionError(f"{user.username} cannot send messages in #{channel.name}")
        if channel.is_thread and channel.archived:
            # Discord's client offers no box in a locked thread; a message unarchives an unlocked one.
            if channel.locked and not perms & model.MANAGE_THREADS:
                raise PermissionError(f"{user.username} cannot send messages in the locked thread #{channel.name}")
            channel.archived = False
        return guild

    async def user_says(
        self,
        channel: FakeChannel,
        user: FakeUser,
        content: str,
        *,
        reply_to: FakeMessage | None = None,
        ping: bool = True,
    ) -> FakeMessage:
        """``user`` posts ``content`` in ``channel``: MESSAGE_CREATE reaches the bot before this returns.

        ``reply_to``: the message it replies to; ``ping`` (the client's "@ on" of a reply, its
        default) mentions that message's author, as Discord does (``allowed_mentions.replied_user``)."""
        guild = self._check_can_send(channel, user)
        self._begin_action()
        mentions = [
            self.users[int(i)] for i in dict.fromkeys(re.findall(r"<@!?(\d+)>", content)) if int(i) in self.users
        ]
        if reply_to is not None and ping and reply_to.author not in mentions:
            mentions.append(reply_to.author)
        if guild is not None:
            mentions = [u for u in mentions if u.id in guild.members]
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=user,
            content=content,
            mentions=mentions,
            mention_role_ids=[int(r) for r in re.findall(r"<@&(\d+)>", content) if guild and int(r) in guild.roles],
            mention_everyone=bool(
                guild and "@everyone" in content and guild.permissions_in(channel, user.id) & (1 << 17)
            ),
            nonce=str(self.ids.next()),
        )
        if reply_to is not None:
            message.message_reference = {
                "type": 0,
                "message_id": str(reply_to.id),
                "channel_id": str(reply_to.channel_id),
            }
            if reply_to.guild_id:
                message.message_reference["guild_id"] = str(reply_to.guild_id)
        self.message_store[message.id] = message
        channel.last_message_id = message.id
        self._record("message_create", message)
        self._dispatch_message("MESSAGE_CREATE", message)
        await self.gateway.flush()
        return message

    async def dm(self, user: FakeUser, content: str) -> FakeMessage:
        """``user`` writes ``content`` to the bot in their DM channel."""
        return await self.user_says(self.dm_channel(user), user, content)

    async def react(self, user: FakeUser, message: FakeMessage, emoji: str) -> None:
        """``user`` adds a reaction (a unicode emoji, or ``name:id`` for a custom one)."""
        channel = self.channels[message.channel_id]
        if channel.type == DM:
            self._check_can_send(channel, user)
        elif user.id not in self.guilds[channel.guild_id].members:  # type: ignore[index]
            raise PermissionError(f"{user.username} is not a member of the guild of #{channel.name}")
        self._begin_action()
        message.reactions.setdefault(emoji, set()).add(user.id)
        data: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "emoji": model._emoji_payload(emoji),
            "message_author_id": str(message.author.id),
            "burst": False,
            "burst_colors": [],
            "type": 0,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            data["member"] = self.guilds[message.guild_id].members[user.id].payload()
        intent = DIRECT_MESSAGE_REACTIONS if message.guild_id is None else GUILD_MESSAGE_REACTIONS
        self._record("user_reaction", (message, user, emoji))
        self.gateway.dispatch("MESSAGE_REACTION_ADD", lambda s: data if s.has(intent) else None)
        await self.gateway.flush()

    def _channel_for_interaction(self, channel: FakeChannel, user: FakeUser) -> dict[str, Any]:
        data = channel.payload()
        if channel.guild_id is not None:
            data["permissions"] = str(self.guilds[channel.guild_id].permissions_in(channel, user.id))
        return data

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        interaction_id = self.ids.next()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": self._channel_for_interaction(channel, user),
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": model.ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member = guild.members[user.id]
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = member.payload(permissions=guild.permissions_in(channel, user.id))
            payload["app_permissions"] = str(guild.permissions_in(channel, self.bot_user.id))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = str(
                model.ALL_PERMISSIONS & ~(model.ADMINISTRATOR | model.MANAGE_CHANNELS | model.MANAGE_ROLES)
            )
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if message is not None:
            payload["message"] = message.payload(bot_id=self.bot_user.id)
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            message=message,
            created_at=self.clock(),
        )
        self.interactions[interaction.id] = interaction
        self._begin_action()
        self._record("interaction_create", interaction)
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        await self.gateway.flush()
        return interaction

    def find_command(self, name: str, guild: FakeGuild | None = None, *, kind: int = 1) -> FakeCommand | None:
        """The command a user in ``guild`` (None: a DM) would see under ``name``: guild first."""
        candidates = [c for c in self.commands.values() if c.name == name and c.type == kind]
        if guild is not None:
            for command in candidates:
                if command.guild_id == guild.id:
                    return command
        return next((c for c in candidates if c.guild_id is None), None)

    async def slash(
        self,
        user: FakeUser,
        guild: FakeGuild | None,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user`` runs ``/name`` (``"group sub"`` for subcommands) with ``options`` by name.

        Values may be plain (str, int, float, bool) or fake objects for user/role/channel options.
        Raises if Discord's client would not let the user send it: unknown command, unknown or
        missing required option, a value outside the choices, no permission, not in DMs.
        """
        data = self._command_data(user, guild, channel, name, options, focused=None)
        return await self._interact(2, user, channel, data, locale=locale)

    async def autocomplete(
        self,
        user: FakeUser,
        guild: FakeGuild | None,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """``user`` is typing option ``focused`` of ``/name`` (the partial text is its value in
        ``options``): INTERACTION_CREATE type 4; the bot's choices are in ``response.data``."""
        data = self._command_data(user, guild, channel, name, options, focused=focused)
        return await self._interact(4, user, channel, data, locale=locale)

    def _command_data(
        self,
        user: FakeUser,
        guild: FakeGuild | None,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any] | None,
        *,
        focused: str | None,
    ) -> dict[str, Any]:
        path = name.split()
        command = self.find_command(path[0], guild)
        if command is None:
            known = sorted(f"/{c.name}" + (" (guild)" if c.guild_id else "") for c in self.commands.values())
            raise LookupError(f"/{path[0]} is not registered for this place; registered: {known}")
        if guild is None:
            if channel.type != DM:
                raise ValueError("a slash command without a guild must be used in a DM channel")
            contexts = command.data.get("contexts")
            if command.data.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise PermissionError(f"/{command.name} is not available in DMs")
        else:
            self._check_can_send(channel, user)
            needed = command.data.get("default_member_permissions")
            perms = guild.permissions_in(channel, user.id)
            if needed is not None and perms & int(needed) != int(needed):
                raise PermissionError(f"{user.username} may not use /{command.name}")
            contexts = command.data.get("contexts")
            if contexts is not None and 0 not in contexts:
                raise PermissionError(f"/{command.name} is not available in guilds")
        resolved: dict[str, dict[str, Any]] = {}
        schema = command.data.get("options") or []
        built: list[dict[str, Any]] = []
        target = built
        for sub in path[1:]:
            option = next(
                (o for o in schema if o["name"] == sub and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
            )
            if option is None:
                raise LookupError(f"/{command.name} has no subcommand {sub!r}")
            node: dict[str, Any] = {"type": option["type"], "name": sub, "options": []}
            target.append(node)
            target = node["options"]
            schema = option.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
            raise LookupError(f"/{name} needs a subcommand: {[o['name'] for o in schema]}")
        target.extend(self._build_options(schema, dict(options or {}), resolved, guild, channel, focused=focused))
        data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": command.type, "options": built}
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
        channel: FakeChannel,
        *,
        focused: str | None = None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        for name in given:
            if name not in by_name:
                raise LookupError(f"unknown option {name!r}; the command has {sorted(by_name)}")
        if focused is not None:
            option = by_name.get(focused)
            if option is None or not option.get("autocomplete"):
                raise ValueError(f"option {focused!r} does not autocomplete")
        else:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"required option(s) missing: {missing}")
        out = []
        for option in schema:
            if option["name"] not in given:
                continue
            if option["name"] == focused:
                # What the user has typed so far: any text, checked against nothing yet.
                out.append({"type": option["type"], "name": focused, "value": str(given[focused]), "focused": True})
                continue
            value = self._option_value(option, given[option["name"]], resolved, guild, channel)
            out.append({"type": option["type"], "name": option["name"], "value": value})
        return out

    def _option_value(
        self,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
        channel: FakeChannel,
    ) -> Any:
        kind = option["type"]
        if kind == STRING:
            value = str(value)
        elif kind == INTEGER:
            value = int(value)
        elif kind == NUMBER:
            value = float(value)
        elif kind == BOOLEAN:
            value = bool(value)
        elif kind in (USER, ROLE, CHANNEL, MENTIONABLE):
            return self._resolve(value, resolved, guild, channel)
        elif kind == ATTACHMENT:
            if not isinstance(value, FakeAttachment):
                raise TypeError(f"pass a fake.upload(...) for the attachment option {option['name']!r}, not {value!r}")
            if len(value.data) > model.ATTACHMENT_SIZE_LIMIT:
                raise ValueError(f"{value.filename} is over the {model.ATTACHMENT_SIZE_LIMIT} byte upload limit")
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        else:
            raise NotImplementedError(f"the fake does not send option type {kind} yet")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(
                f"{value!r} is not one of the choices of {option['name']!r}: {[c['value'] for c in choices]}"
            )
        for bound, check in (("min_value", lambda b: value >= b), ("max_value", lambda b: value <= b)):
            if bound in option and not check(option[bound]):
                raise ValueError(f"{value!r} is outside the {bound} {option[bound]} of {option['name']!r}")
        for bound, check in (("min_length", lambda b: len(value) >= b), ("max_length", lambda b: len(value) <= b)):
            if bound in option and isinstance(value, str) and not check(option[bound]):
                raise ValueError(f"{value!r} breaks the {bound} {option[bound]} of {option['name']!r}")
        return value

    def _resolve(
        self, value: Any, resolved: dict[str, dict[str, Any]], guild: FakeGuild | None, channel: FakeChannel
    ) -> str:
        if isinstance(value, FakeMember):
            value = value.user
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id]
                resolved.setdefault("members", {})[str(value.id)] = member.payload(
                    with_user=False, permissions=guild.permissions_in(channel, value.id)
                )
            return str(value.id)
        if isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if isinstance(value, FakeChannel):
            data = value.payload()
            if guild is not None:
                data["permissions"] = str(guild.permissions_in(value, self.bot_user.id))
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        raise TypeError(f"pass a fake user, member, role or channel for this option, not {value!r}")

    async def submit_modal(
        self, interaction: FakeInteraction, values: Mapping[str, Any], *, locale: str = "en-US"
    ) -> FakeInteraction:
        """The user fills in and submits the modal the bot showed in answer to ``interaction``:
        ``values`` maps each input's custom id to its text (or a list of values for a select)."""
        response = interaction.response
        if response is None or response.type != 9 or not response.data:
            raise LookupError(f"the bot has not answered interaction {interaction.id} with a modal")
        spec = response.data
        unknown_ids = set(values)

        def fill(component: dict[str, Any]) -> dict[str, Any] | None:
            kind = component.get("type")
            if kind == 1:
                children = [c for c in (fill(x) for x in component.get("components", [])) if c is not None]
                return {"type": 1, "components": children}
            if kind == 18:
                inner = fill(component["component"])
                return {"type": 18, "component": inner} if inner is not None else None
            custom_id = component.get("custom_id")
            if custom_id is None:
                return None
            unknown_ids.discard(custom_id)
            if kind == 4:
                text = str(values.get(custom_id, component.get("value") or ""))
                if component.get("required", True) and not text:
                    raise ValueError(f"the modal's input {custom_id!r} is required")
                low, high = component.get("min_length", 0), component.get("max_length", 4000)
                if text and not low <= len(text) <= high:
                    raise ValueError(f"input {custom_id!r} takes {low}..{high} characters, not {len(text)}")
                return {"type": 4, "custom_id": custom_id, "value": text}
            chosen = list(values.get(custom_id, []))
            return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in chosen]}

        components = [c for c in (fill(x) for x in spec.get("components", [])) if c is not None]
        if unknown_ids:
            raise LookupError(f"the modal has no inputs {sorted(unknown_ids)}")
        data = {"custom_id": spec["custom_id"], "components": components}
        channel = self.channels[interaction.channel_id]
        return await self._interact(5, interaction.user, channel, data, message=interaction.message, locale=locale)

    def _component_for(self, user: FakeUser, message: FakeMessage, custom_id: str) -> dict[str, Any]:
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted; nobody can click on it")
        if (
            message.ephemeral
            and message.interaction_metadata
            and message.interaction_metadata["user"]["id"] != str(user.id)
        ):
            raise PermissionError(f"{user.username} cannot see the ephemeral message {message.id}")
        component = message.component(custom_id)
        if component is None:
            raise LookupError(f"message {message.id} has no component {custom_id!r}")
        if component.get("disabled"):
            raise PermissionError(f"component {custom_id!r} is disabled")
        channel = self.channels[message.channel_id]
        if channel.type != DM:
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            if user.id not in guild.members or not guild.permissions_in(channel, user.id) & model.VIEW_CHANNEL:
                raise PermissionError(f"{user.username} cannot see #{channel.name}")
        elif channel.recipient is None or channel.recipient.id != user.id:
            raise PermissionError(f"{user.username} cannot see DM channel {channel.id}")
        return component

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, *, locale: str = "en-US"
    ) -> FakeInteraction:
        """``user`` presses the button ``custom_id`` on ``message`` (INTERACTION_CREATE type 3)."""
        component = self._component_for(user, message, custom_id)
        if component.get("type") != BUTTON or component.get("style") in (LINK_STYLE, PREMIUM_STYLE):
            raise TypeError(f"component {custom_id!r} is not a button that sends an interaction")
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._interact(3, user, self.channels[message.channel_id], data, message=message, locale=locale)

    async def select(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: Sequence[Any], *, locale: str = "en-US"
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select menu ``custom_id`` (option values for a string
        select; fake users/roles/channels for the other selects)."""
        component = self._component_for(user, message, custom_id)
        kind = component.get("type")
        if kind not in (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT):
            raise TypeError(f"component {custom_id!r} is not a select menu")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, not {len(values)}")
        channel = self.channels[message.channel_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == STRING_SELECT:
            allowed = [o["value"] for o in component.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} are not options of {custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
            data["values"] = [self._resolve(v, resolved, guild, channel) for v in values]
            data["resolved"] = resolved
        return await self._interact(3, user, channel, data, message=message, locale=locale)
