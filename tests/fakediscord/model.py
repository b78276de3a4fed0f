"""The fake's world: users, guilds, roles, channels, members, messages, commands, interactions.

Each object knows how to render itself as the JSON Discord's API v10 would send, so the gateway
and the REST handlers share one source of truth. Nothing here does I/O.
"""

from __future__ import annotations

import itertools
import mimetypes
import struct
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits the fake computes with (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
)
BOT_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | MANAGE_MESSAGES
    | MANAGE_ROLES
    | MANAGE_CHANNELS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | MANAGE_THREADS
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Uploads per message on a guild without boosts (10 MiB since 2024).
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7


class Snowflakes:
    """Hands out increasing snowflakes whose timestamps are the wall clock, as Discord's are."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake, strictly greater than every earlier one."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
        # Two ids in the same millisecond with a wrapped counter must still increase.
        value = max(value, self._last + 1)
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake whose guild would be on shard ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count == shard_id``): its timestamp moved up to a millisecond that fits."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        value = self.next()
        stamp = value >> 22
        stamp += (shard_id - stamp) % shard_count
        value = (stamp << 22) | (value & ((1 << 22) - 1))
        self._last = max(self._last, value)
        return value


def iso_now() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord user; ``dms_open`` False makes the fake refuse DMs to them with code 50007."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True

    @property
    def mention(self) -> str:
        """The mention syntax for this user, as a player would type it."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class FakeRole:
    """A guild role. The @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        """The mention syntax for this role."""
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The role object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild."""

    user: FakeUser
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object; ``permissions`` is added as interactions carry it."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread, or a DM channel (``recipient`` set, ``guild_id`` None)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    recipient: FakeUser | None = None
    owner_id: int | None = None
    last_message_id: int | None = None
    #: A thread's state: archived (closed to new messages until unarchived), locked (only Manage
    #: Threads may unarchive it).
    archived: bool = False
    locked: bool = False

    @property
    def mention(self) -> str:
        """The mention syntax for this channel."""
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict[str, Any]:
        """The channel object."""
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": list(self.overwrites),
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": self.topic,
            "nsfw": False,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.pop("permission_overwrites")
            data["owner_id"] = str(self.owner_id) if self.owner_id else None
            data["message_count"] = 0
            data["member_count"] = 1
            data["thread_metadata"] = {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_now(),
                "locked": self.locked,
                "invitable": True,
            }
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role."""
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        """The member's guild-wide permissions: @everyone OR their roles; owner and admins get all."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel: FakeChannel | None, user_id: int) -> int:
        """The member's permissions in a channel, overwrites applied in Discord's order."""
        perms = self.base_permissions(user_id)
        if perms == ALL_PERMISSIONS or channel is None:
            return perms
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        member = self.members.get(user_id)
        role_ids = set(member.role_ids) if member else set()
        by_id = {int(o["id"]): o for o in channel.overwrites}
        everyone = by_id.get(self.id)
        if everyone:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for overwrite in channel.overwrites:
            if overwrite["type"] == 0 and int(overwrite["id"]) in role_ids:
                allow |= int(overwrite["allow"])
                deny |= int(overwrite["deny"])
        perms = (perms & ~deny) | allow
        mine = by_id.get(user_id)
        if mine and mine["type"] == 1:
            perms = (perms & ~int(mine["deny"])) | int(mine["allow"])
        return perms

    def payload(self, *, members: list[FakeMember] | None = None) -> dict[str, Any]:
        """The GUILD_CREATE object; ``members`` narrows the member list (no members intent)."""
        shown = list(self.members.values()) if members is None else members
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in shown],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk, or None when the bytes are not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return None


@dataclass(eq=False)
class FakeAttachment:
    """A file the bot uploaded; ``data`` holds its bytes exactly as received."""

    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def content_type(self) -> str:
        """The MIME type Discord would infer from the file name."""
        return mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    def payload(self) -> dict[str, Any]:
        """The attachment object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        size = png_size(self.data)
        if size is not None:
            data["width"], data["height"] = size
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class FakeMessage:
    """A message in a channel, from a user or from the bot; edits and deletion update it in place."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    message_reference: dict[str, Any] | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    nonce: str | int | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    mentions: list[FakeUser] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    pinned: bool = False
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        """Whether only the interacting user sees this message."""
        return bool(self.flags & EPHEMERAL)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this custom id, searched through action rows and containers."""

        def walk(items: list[dict[str, Any]]) -> dict[str, Any] | None:
            for item in items:
                if item.get("custom_id") == custom_id:
                    return item
                for key in ("components", "accessory"):
                    inner = item.get(key)
                    if isinstance(inner, dict):
                        inner = [inner]
                    if inner:
                        found = walk(inner)
                        if found is not None:
                            return found
            return None

        return walk(self.components)

    def payload(self, *, bot_id: int, content_visible: bool = True) -> dict[str, Any]:
        """The message object; ``content_visible`` False blanks what the content intent hides."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 19 if self.message_reference and not self.interaction_metadata else 0,
            "author": self.author.payload(),
            "content": self.content if content_visible else "",
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_role_ids],
            "attachments": [a.payload() for a in self.attachments] if content_visible else [],
            "embeds": list(self.embeds) if content_visible else [],
            "components": list(self.components) if content_visible else [],
            "pinned": self.pinned,
            "flags": self.flags,
            "reactions": [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": bot_id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ],
        }
        if self.interaction_metadata is not None:
            data["type"] = 20 if self.interaction_metadata.get("type") == 2 else 0
            data["interaction_metadata"] = self.interaction_metadata
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data


def _emoji_payload(emoji: str) -> dict[str, Any]:
    """A partial emoji from the URL form Discord uses: a unicode emoji or ``name:id``."""
    if ":" in emoji:
        name, _, emoji_id = emoji.rpartition(":")
        return {"id": emoji_id, "name": name, "animated": False}
    return {"id": None, "name": emoji}


@dataclass(eq=False)
class FakeCommand:
    """An application command the bot registered, global (``guild_id`` None) or for one guild."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]
    version: int

    @property
    def name(self) -> str:
        """The command's name."""
        return self.data["name"]

    @property
    def type(self) -> int:
        """1 chat input, 2 user, 3 message."""
        return self.data.get("type", 1)

    def payload(self) -> dict[str, Any]:
        """The application command object as Discord echoes it back."""
        data = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
            "type": self.type,
            "name": self.data["name"],
            "description": self.data.get("description", ""),
            "options": self.data.get("options", []),
            "default_member_permissions": self.data.get("default_member_permissions"),
            "dm_permission": self.data.get("dm_permission", True),
            "nsfw": self.data.get("nsfw", False),
            "name_localizations": self.data.get("name_localizations"),
            "description_localizations": self.data.get("description_localizations"),
        }
        for key in ("contexts", "integration_types"):
            if key in self.data:
                data[key] = self.data[key]
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass(eq=False)
class InteractionResponse:
    """One callback the bot posted for an interaction."""

    type: int
    data: dict[str, Any] | None
    message: FakeMessage | None


@dataclass(eq=False)
class FakeInteraction:
    """An interaction the driver sent; the bot's callback, original response and follow-ups land here."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    message: FakeMessage | None = None
    response: InteractionResponse | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    original_edited: bool = False
    created_at: float = 0.0

    @property
    def acknowledged(self) -> bool:
        """Whether the bot has answered the callback."""
        return self.response is not None
