"""FakeDiscord: a loopback Discord (REST API v10 + gateway) the real, unmodified discord.py talks to.

``async with FakeDiscord() as fake:`` starts an aiohttp server on 127.0.0.1 on a free port and
points discord.py's two URLs (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``) at it; it
puts them back on exit. A route the fake does not know answers 404 with a JSON error and fails
the test at teardown (:class:`UnknownRouteError`), so a bot that calls something new is noticed.

The REST handlers live here; the test driver (users saying things, slash commands, clicks,
waiting helpers) is :class:`~tests.fakediscord.driver.Driver`, which FakeDiscord inherits.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_urldispatcher import MatchInfoError

from . import components as components_v2, model
from .driver import Driver
from .gateway import (
    DIRECT_MESSAGE_REACTIONS,
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGE_REACTIONS,
    GUILD_MESSAGES,
    MESSAGE_CONTENT,
    Gateway,
    GatewaySession,
)
from .model import (
    DM,
    EPHEMERAL,
    LOADING,
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

API = "/api/v10"
MAX_CONTENT = 2000
#: An attachment's description (its alt text) holds at most this many characters.
MAX_DESCRIPTION = 1024
MAX_EMBEDS = 10
# Discord forgets an interaction not answered within 3 s; its token then lives 15 minutes.
INTERACTION_ANSWER_SECONDS = 3.0
INTERACTION_TOKEN_SECONDS = 15 * 60.0
# SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2: the flags a sender may set.
SENDABLE_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class UnknownRouteError(AssertionError):
    """The bot called routes (or spoke gateway frames) the fake does not know."""


class ApiError(Exception):
    """A Discord API error: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def unknown(what: str, code: int) -> ApiError:
    """A 404 for a missing resource, with Discord's code and wording."""
    return ApiError(404, code, f"Unknown {what}")


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json`` (discord.py compares it)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    """The 204 Discord answers to most PUT/DELETE calls."""
    return web.Response(status=204)


@dataclass
class RateLimit:
    """An injected rate limit: the next ``remaining`` matching requests answer 429."""

    method: str
    route: str
    remaining: int
    retry_after: float
    is_global: bool


@dataclass
class RecordedRequest:
    """One REST call the bot made: method, route template, concrete path and status answered."""

    method: str
    route: str
    path: str
    status: int = 0


#: Where the middleware leaves a request's record for its handler.
RECORDED = web.RequestKey("recorded", RecordedRequest)


class FakeDiscord(Driver):
    """A fake Discord: an aiohttp server speaking REST v10 and the gateway on 127.0.0.1.

    Build the world with the driver methods (``create_guild``, ``create_channel``, ``create_user``,
    ``add_member``, ``create_role``) before or after the bot connects; drive it with ``user_says``,
    ``dm``, ``slash``, ``click``, ``select``; observe with ``wait_for_message``, ``messages``,
    ``interaction_responses``, ``attachments``.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "geniusbot",
        patch_discord: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock`` (seconds) times the interaction deadlines; inject one to test them."""
        super().__init__()
        self.token = token
        self.clock = clock
        self.patch_discord = patch_discord
        self.ids = model.Snowflakes()
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.app_owner = FakeUser(self.ids.next(), "app-owner")
        # GATEWAY_PRESENCE_LIMITED | GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED
        self.application_flags = (1 << 13) | (1 << 15) | (1 << 19)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.app_owner.id: self.app_owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.message_store: dict[int, FakeMessage] = {}
        # Files users attached to a slash command's attachment option (fake.upload).
        self.uploads: dict[int, FakeAttachment] = {}
        self.commands: dict[int, FakeCommand] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.protocol_errors: list[str] = []
        self.rate_limited: list[RecordedRequest] = []
        self._rate_limits: list[RateLimit] = []
        self._upload_failures: list[int] = []
        self.failed_uploads: list[RecordedRequest] = []
        # Downloads from the CDN that stall (fake.stall_downloads): their attachment ids, and
        # the event that lets them go (at stop, so that the server can shut down).
        self._download_stalls = 0
        self.stalled_downloads: list[int] = []
        self._release_downloads = asyncio.Event()
        self.gateway = Gateway(self)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._saved: tuple[Any, Any] | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` is set to."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` is set to."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        """The ``resume_gateway_url`` READY announces (a different path, so a test can tell)."""
        return f"ws://127.0.0.1:{self.port}/resume-gateway"

    async def start(self) -> None:
        """Start the server on a free port and point discord.py at it."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        if self.patch_discord:
            import discord.gateway
            import discord.http
            import yarl

            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
            discord.http.Route.BASE = self.api_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    async def stop(self) -> None:
        """Close sockets, stop the server and give discord.py its URLs back."""
        await self.gateway.close_all()
        self._release_downloads.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            import discord.gateway
            import discord.http

            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.stop()
        if exc_type is None:
            self.check()

    def check(self) -> None:
        """Raise :class:`UnknownRouteError` if the bot called anything the fake does not know."""
        problems = [f"unknown route: {r}" for r in self.unknown_routes] + self.protocol_errors
        if problems:
            raise UnknownRouteError("the fake Discord was asked for what it does not know:\n  " + "\n  ".join(problems))

    def _protocol_error(self, text: str) -> None:
        self.protocol_errors.append(text)

    # ------------------------------------------------------------------ rate limits

    def rate_limit(
        self, method: str, route: str, *, times: int = 1, retry_after: float = 0.01, is_global: bool = False
    ) -> None:
        """Make the next ``times`` requests to ``method route`` answer 429.

        ``route`` is the template as Discord documents it, e.g. ``/channels/{channel_id}/messages``.
        The 429 carries ``Via`` and a JSON ``retry_after`` so discord.py waits and retries.
        """
        template = self._template(route)
        known = {(m, r) for m, r, _ in self._route_table()}
        if (method.upper(), template) not in known:
            raise ValueError(f"the fake has no route {method.upper()} {route}; known: {sorted(known)}")
        self._rate_limits.append(RateLimit(method.upper(), template, times, retry_after, is_global))

    def fail_uploads(self, times: int = 1, *, status: int = 503) -> None:
        """Make the next ``times`` messages with files posted in a channel (a DM too) fail with
        ``status`` before anything is stored, as an overloaded Discord does.

        discord.py gives up on a 503 at once (the caller sees ``DiscordServerError``); a 500,
        502 or 504 it retries itself, sleeping 1, 3, 5, 7 and 9 s of real time between tries.
        """
        self._upload_failures.extend([status] * times)

    def stall_downloads(self, times: int = 1) -> None:
        """Make the next ``times`` downloads of an attachment from the CDN stall: the headers come,
        then no byte of the file, until the fake stops (``fake.stalled_downloads`` lists them as
        they stall), as a download from an overloaded or cut-off CDN does."""
        self._download_stalls += times

    @staticmethod
    def _template(route: str) -> str:
        # Parameter names do not matter when matching: {channel_id} and {id} are the same slot.
        return re.sub(r"\{[^}]*\}", "{}", route)

    def _take_rate_limit(self, method: str, route: str) -> RateLimit | None:
        template = self._template(route)
        for limit in self._rate_limits:
            if limit.method == method and limit.route == template and limit.remaining > 0:
                limit.remaining -= 1
                return limit
        return None

    # ------------------------------------------------------------------ plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        match = request.match_info
        if isinstance(match, MatchInfoError) or match.http_exception is not None:
            self.unknown_routes.append(f"{request.method} {request.path_qs}")
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        resource = match.route.resource
        canonical = resource.canonical if resource is not None else request.path
        if not canonical.startswith(API):
            return await handler(request)
        route = self._template(canonical[len(API) :])
        record = RecordedRequest(request.method, route, request.path[len(API) :])
        self.requests.append(record)
        request[RECORDED] = record
        limit = self._take_rate_limit(request.method, route)
        if limit is not None:
            record.status = 429
            self.rate_limited.append(record)
            self._record("rate_limited", record)
            return json_response(
                {"message": "You are being rate limited.", "retry_after": limit.retry_after, "global": limit.is_global},
                status=429,
                headers={
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(limit.retry_after))),
                    "X-RateLimit-Scope": "global" if limit.is_global else "user",
                },
            )
        needs_bot_auth = not (route.startswith("/webhooks/") or route.startswith("/interactions/"))
        if needs_bot_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            record.status = 401
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        try:
            response = await handler(request)
        except ApiError as error:
            body: dict[str, Any] = {"message": error.message, "code": error.code}
            if error.errors:
                body["errors"] = error.errors
            response = json_response(body, status=error.status)
        except web.HTTPException:
            raise
        except Exception:
            # A request the fake cannot digest fails the test at teardown; a 400 (not a 500,
            # which discord.py retries for seconds) tells the bot at once.
            self._protocol_error(f"the fake failed on {request.method} {request.path_qs}:\n{traceback.format_exc()}")
            response = json_response(
                {"message": "The fake Discord could not handle this request", "code": 0}, status=400
            )
        record.status = response.status
        return response

    def _route_table(self) -> list[tuple[str, str, Handler]]:
        """Every REST route: (method, template, handler). Templates use ``{}`` for each slot."""
        return [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{}", self._get_user),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/applications/{}/commands", self._list_commands),
            ("PUT", "/applications/{}/commands", self._overwrite_commands),
            ("POST", "/applications/{}/commands", self._upsert_command),
            ("GET", "/applications/{}/commands/{}", self._get_command),
            ("PATCH", "/applications/{}/commands/{}", self._edit_command),
            ("DELETE", "/applications/{}/commands/{}", self._delete_command),
            ("GET", "/applications/{}/guilds/{}/commands", self._list_commands),
            ("PUT", "/applications/{}/guilds/{}/commands", self._overwrite_commands),
            ("POST", "/applications/{}/guilds/{}/commands", self._upsert_command),
            ("GET", "/applications/{}/guilds/{}/commands/{}", self._get_command),
            ("PATCH", "/applications/{}/guilds/{}/commands/{}", self._edit_command),
            ("DELETE", "/applications/{}/guilds/{}/commands/{}", self._delete_command),
            ("GET", "/channels/{}", self._get_channel),
            ("PATCH", "/channels/{}", self._edit_channel),
            ("DELETE", "/channels/{}", self._delete_channel),
            ("PUT", "/channels/{}/permissions/{}", self._put_overwrite),
            ("DELETE", "/channels/{}/permissions/{}", self._delete_overwrite),
            ("POST", "/channels/{}/typing", self._typing),
            ("GET", "/channels/{}/messages", self._history),
            ("POST", "/channels/{}/messages", self._create_message),
            ("POST", "/channels/{}/messages/bulk-delete", self._bulk_delete),
            ("GET", "/channels/{}/messages/{}", self._get_message),
            ("PATCH", "/channels/{}/messages/{}", self._edit_message),
            ("DELETE", "/channels/{}/messages/{}", self._delete_message),
            ("PUT", "/channels/{}/messages/{}/reactions/{}/@me", self._add_reaction),
            ("DELETE", "/channels/{}/messages/{}/reactions/{}/{}", self._remove_reaction),
            ("GET", "/channels/{}/messages/{}/reactions/{}", self._list_reactions),
            ("DELETE", "/channels/{}/messages/{}/reactions/{}", self._clear_emoji),
            ("DELETE", "/channels/{}/messages/{}/reactions", self._clear_reactions),
            ("POST", "/channels/{}/threads", self._create_thread),
            ("POST", "/channels/{}/messages/{}/threads", self._create_thread),
            ("PUT", "/channels/{}/thread-members/{}", self._join_thread),
            ("GET", "/guilds/{}", self._get_guild),
            ("GET", "/guilds/{}/channels", self._guild_channels),
            ("POST", "/guilds/{}/channels", self._create_guild_channel),
            ("GET", "/guilds/{}/members", self._list_members),
            ("GET", "/guilds/{}/members/search", self._search_members),
            ("GET", "/guilds/{}/members/{}", self._get_member),
            ("PATCH", "/guilds/{}/members/{}", self._edit_member),
            ("PUT", "/guilds/{}/members/{}/roles/{}", self._add_member_role),
            ("DELETE", "/guilds/{}/members/{}/roles/{}", self._remove_member_role),
            ("GET", "/guilds/{}/roles", self._list_roles),
            ("POST", "/guilds/{}/roles", self._create_role_route),
            ("PATCH", "/guilds/{}/roles/{}", self._edit_role),
            ("DELETE", "/guilds/{}/roles/{}", self._delete_role),
            ("POST", "/interactions/{}/{}/callback", self._interaction_callback),
            ("POST", "/webhooks/{}/{}", self._followup),
            ("GET", "/webhooks/{}/{}/messages/{}", self._get_webhook_message),
            ("PATCH", "/webhooks/{}/{}/messages/{}", self._edit_webhook_message),
            ("DELETE", "/webhooks/{}/{}/messages/{}", self._delete_webhook_message),
        ]

    def _add_routes(self, app: web.Application) -> None:
        for method, template, handler in self._route_table():
            # aiohttp needs named slots: {p0}, {p1}, ... in order; handlers read them by position.
            slots = iter(range(10))
            path = re.sub(r"\{\}", lambda _: f"{{p{next(slots)}}}", template)
            app.router.add_route(method, API + path, handler)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume-gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)

    def _template_of(self, request: web.Request) -> str:
        return request.match_info.route.resource.canonical[len(API) :]  # type: ignore[union-attr]

    @staticmethod
    def _params(request: web.Request) -> list[str]:
        info = request.match_info
        return [info[f"p{i}"] for i in range(len(info))]

    @staticmethod
    def _snowflake(value: str, what: str) -> int:
        """A path or body id as an int; a malformed one is a 400, as on Discord."""
        try:
            return int(value)
        except ValueError:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {what: {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": f'Value "{value}" is not snowflake.'}]}},
            ) from None

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[int, str, bytes]]]:
        """The JSON payload and any uploaded files ``(index, filename, bytes)`` of a request."""
        files: list[tuple[int, str, bytes]] = []
        ctype = request.content_type
        if ctype == "multipart/form-data":
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ""  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(bytes(data))
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files.append((int(m.group(1)), part.filename or f"file{m.group(1)}", bytes(data)))  # type: ignore[union-attr]
                else:
                    self._protocol_error(f"unknown multipart field {name!r} on {request.method} {request.path}")
            return payload, files
        if not request.can_read_body:
            return {}, files
        raw = await request.read()
        if not raw:
            return {}, files
        if ctype != "application/json":
            self._protocol_error(f"{request.method} {request.path} sent a body of type {ctype!r}")
        return json.loads(raw), files

    # ------------------------------------------------------------------ lookups

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(self._snowflake(channel_id, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        if channel.guild_id is not None and channel.guild_id not in self.guilds:
            raise unknown("Channel", 10003)
        return channel

    def _guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(self._snowflake(guild_id, "guild_id"))
        if guild is None or self.bot_user.id not in guild.members:
            raise unknown("Guild", 10004)
        return guild

    def _message(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.message_store.get(self._snowflake(message_id, "message_id"))
        if message is None or message.channel_id != channel.id or message.deleted or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    def _bot_permissions(self, channel: FakeChannel) -> int:
        if channel.guild_id is None:
            return model.ALL_PERMISSIONS & ~(model.ADMINISTRATOR | model.MANAGE_CHANNELS | model.MANAGE_ROLES)
        guild = self.guilds[channel.guild_id]
        return guild.permissions_in(channel, self.bot_user.id)

    def _require(self, channel: FakeChannel, *bits: int) -> None:
        perms = self._bot_permissions(channel)
        if not perms & model.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        for bit in bits:
            if not perms & bit:
                raise ApiError(403, 50013, "Missing Permissions")

    def _bot_guilds(self) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]

    def _guild_create_payload(self, guild: FakeGuild, session: GatewaySession) -> dict[str, Any]:
        if session.has(GUILD_MEMBERS):
            return guild.payload()
        # Without the members intent Discord sends only the bot's own member.
        return guild.payload(members=[guild.members[self.bot_user.id]])

    def _message_visible_to(self, message: FakeMessage, session: GatewaySession) -> dict[str, Any] | None:
        """The MESSAGE_CREATE/UPDATE payload a session gets, or None when its intents exclude it."""
        if message.ephemeral:
            return None
        if message.guild_id is None:
            if not session.has(DIRECT_MESSAGES):
                return None
        elif not session.has(GUILD_MESSAGES):
            return None
        visible = (
            session.has(MESSAGE_CONTENT)
            or message.guild_id is None
            or message.author.id == self.bot_user.id
            or any(u.id == self.bot_user.id for u in message.mentions)
        )
        data = message.payload(bot_id=self.bot_user.id, content_visible=visible)
        if message.guild_id is not None and not message.webhook_id:
            guild = self.guilds[message.guild_id]
            member = guild.members.get(message.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        if message.message_reference and "message_id" in message.message_reference:
            ref = self.message_store.get(int(message.message_reference["message_id"]))
            if ref is not None and not ref.deleted:
                data["referenced_message"] = ref.payload(bot_id=self.bot_user.id, content_visible=visible)
        return data

    def _dispatch_message(self, event: str, message: FakeMessage) -> None:
        self.gateway.dispatch(event, lambda session: self._message_visible_to(message, session))

    def _message_response(self, message: FakeMessage) -> web.Response:
        data = message.payload(bot_id=self.bot_user.id)
        if message.message_reference and "message_id" in message.message_reference:
            ref = self.message_store.get(int(message.message_reference["message_id"]))
            if ref is not None and not ref.deleted:
                data["referenced_message"] = ref.payload(bot_id=self.bot_user.id)
        return json_response(data)

    # ------------------------------------------------------------------ gateway/user/application

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        (user_id,) = self._params(request)
        user = self.users.get(self._snowflake(user_id, "user_id"))
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": self.application_flags,
                "owner": self.app_owner.payload(),
                "team": None,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "rpc_origins": [],
                "tags": [],
                "approximate_guild_count": len(self._bot_guilds()),
                "integration_types_config": {"0": {}},
            }
        )

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._body(request)
        user = self.users.get(self._snowflake(str(payload.get("recipient_id")), "recipient_id"))
        if user is None:
            raise unknown("User", 10013)
        # Opening the channel always works; sending into it is where closed DMs refuse (50007).
        return json_response(self.dm_channel(user).payload())

    # ------------------------------------------------------------------ application commands

    def _command_scope(self, request: web.Request) -> tuple[int | None, list[str]]:
        params = self._params(request)
        if self._snowflake(params[0], "application_id") != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if "/guilds/" in self._template_of(request):
            return self._guild(params[1]).id, params[2:]
        return None, params[1:]

    def _scoped_commands(self, guild_id: int | None) -> list[FakeCommand]:
        return [c for c in self.commands.values() if c.guild_id == guild_id]

    def _validate_command(self, data: dict[str, Any]) -> None:
        name = data.get("name", "")
        kind = data.get("type", 1)
        if (kind == 1 and not re.fullmatch(r"[-_\w]{1,32}", name)) or (name != name.lower() and kind == 1):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "name": {
                        "_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME", "message": "Command name is invalid"}]
                    }
                },
            )
        if kind == 1 and not 1 <= len(data.get("description", "")) <= 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "description": {
                        "_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]
                    }
                },
            )

    def _store_command(self, guild_id: int | None, data: dict[str, Any], existing: FakeCommand | None) -> FakeCommand:
        self._validate_command(data)
        command = FakeCommand(
            id=existing.id if existing else self.ids.next(),
            application_id=self.application_id,
            guild_id=guild_id,
            data=data,
            version=self.ids.next(),
        )
        self.commands[command.id] = command
        return command

    async def _list_commands(self, request: web.Request) -> web.Response:
        guild_id, _ = self._command_scope(request)
        return json_response([c.payload() for c in self._scoped_commands(guild_id)])

    async def _overwrite_commands(self, request: web.Request) -> web.Response:
        guild_id, _ = self._command_scope(request)
        payload, _ = await self._body(request)
        if not isinstance(payload, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        old = {(c.name, c.type): c for c in self._scoped_commands(guild_id)}
        for command in old.values():
            del self.commands[command.id]
        # Discord keeps a command's id when a command of the same name and type is overwritten.
        stored = [
            self._store_command(guild_id, data, old.get((data.get("name"), data.get("type", 1)))) for data in payload
        ]
        self._record("commands_synced", guild_id)
        return json_response([c.payload() for c in stored])

    async def _upsert_command(self, request: web.Request) -> web.Response:
        guild_id, _ = self._command_scope(request)
        payload, _ = await self._body(request)
        existing = next(
            (
                c
                for c in self._scoped_commands(guild_id)
                if c.name == payload.get("name") and c.type == payload.get("type", 1)
            ),
            None,
        )
        command = self._store_command(guild_id, payload, existing)
        return json_response(command.payload(), status=200 if existing else 201)

    def _command_from(self, request: web.Request) -> FakeCommand:
        guild_id, rest = self._command_scope(request)
        command = self.commands.get(self._snowflake(rest[0], "command_id"))
        if command is None or command.guild_id != guild_id:
            raise unknown("application command", 10063)
        return command

    async def _get_command(self, request: web.Request) -> web.Response:
        return json_response(self._command_from(request).payload())

    async def _edit_command(self, request: web.Request) -> web.Response:
        command = self._command_from(request)
        payload, _ = await self._body(request)
        command = self._store_command(command.guild_id, {**command.data, **payload}, command)
        return json_response(command.payload())

    async def _delete_command(self, request: web.Request) -> web.Response:
        command = self._command_from(request)
        del self.commands[command.id]
        return no_content()

    # ------------------------------------------------------------------ channels

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if channel.guild_id is not None:
            self._require(channel)
        return json_response(channel.payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if channel.guild_id is None:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        payload, _ = await self._body(request)
        if channel.is_thread:
            return self._edit_thread(channel, payload)
        self._require(channel, model.MANAGE_CHANNELS)
        for key in ("name", "topic", "position"):
            if key in payload:
                setattr(channel, key, payload[key])
        if "permission_overwrites" in payload:
            channel.overwrites = [
                {
                    "id": str(o["id"]),
                    "type": int(o["type"]),
                    "allow": str(o.get("allow", "0")),
                    "deny": str(o.get("deny", "0")),
                }
                for o in payload["permission_overwrites"]
            ]
        if "parent_id" in payload:
            channel.parent_id = int(payload["parent_id"]) if payload["parent_id"] else None
        self.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload())
        self._record("channel_update", channel)
        return json_response(channel.payload())

    def _edit_thread(self, thread: FakeChannel, payload: dict[str, Any]) -> web.Response:
        """Modify Channel on a thread: Manage Threads, except to unarchive an unlocked thread
        (Send Messages in Threads); a locked thread stays archived for anyone else."""
        unarchive_only = set(payload) <= {"archived"} and payload.get("archived") is False and not thread.locked
        self._require(thread, model.SEND_MESSAGES_IN_THREADS if unarchive_only else model.MANAGE_THREADS)
        for key in ("name", "archived", "locked"):
            if key in payload:
                setattr(thread, key, payload[key])
        self.gateway.dispatch("THREAD_UPDATE", thread.payload())
        self._record("channel_update", thread)
        return json_response(thread.payload())

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if channel.guild_id is None:
            return json_response(channel.payload())  # "closing" a DM changes nothing server-side
        self._require(channel, model.MANAGE_CHANNELS)
        guild = self.guilds[channel.guild_id]
        del guild.channels[channel.id]
        del self.channels[channel.id]
        if channel.is_thread:
            self.gateway.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(guild.id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )
        else:
            self.gateway.dispatch("CHANNEL_DELETE", channel.payload())
        self._record("channel_delete", channel)
        return json_response(channel.payload())

    async def _put_overwrite(self, request: web.Request) -> web.Response:
        channel_id, target = self._params(request)
        channel = self._channel(channel_id)
        self._require(channel, model.MANAGE_ROLES)
        payload, _ = await self._body(request)
        channel.overwrites = [o for o in channel.overwrites if o["id"] != target]
        channel.overwrites.append(
            {
                "id": target,
                "type": int(payload.get("type", 0)),
                "allow": str(payload.get("allow", "0")),
                "deny": str(payload.get("deny", "0")),
            }
        )
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload())
        self._record("channel_update", channel)
        return no_content()

    async def _delete_overwrite(self, request: web.Request) -> web.Response:
        channel_id, target = self._params(request)
        channel = self._channel(channel_id)
        self._require(channel, model.MANAGE_ROLES)
        channel.overwrites = [o for o in channel.overwrites if o["id"] != target]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload())
        self._record("channel_update", channel)
        return no_content()

    async def _typing(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if channel.guild_id is not None:
            self._require(channel, model.SEND_MESSAGES)
        self._record("typing", channel)
        return no_content()

    async def _create_thread(self, request: web.Request) -> web.Response:
        params = self._params(request)
        parent = self._channel(params[0])
        if parent.guild_id is None or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        payload, _ = await self._body(request)
        kind = int(payload.get("type", model.PUBLIC_THREAD))
        self._require(
            parent, model.CREATE_PRIVATE_THREADS if kind == model.PRIVATE_THREAD else model.CREATE_PUBLIC_THREADS
        )
        thread_id = self.ids.next()
        if len(params) > 1:
            # A thread started from a message takes the message's id, as on Discord.
            starter = self._message(parent, params[1])
            thread_id = starter.id
            kind = model.PUBLIC_THREAD
        thread = FakeChannel(
            id=thread_id,
            type=kind,
            name=payload.get("name", "thread"),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
        )
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        self._record("channel_create", thread)
        return json_response(thread.payload(), status=201)

    async def _join_thread(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if not channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return no_content()

    # ------------------------------------------------------------------ messages

    def _check_message_payload(
        self, payload: dict[str, Any], files: list[tuple[int, str, bytes]], *, creating: bool
    ) -> None:
        content = payload.get("content")
        if content is not None and len(str(content)) > MAX_CONTENT:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "content": {
                        "_errors": [
                            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_CONTENT} or fewer in length."}
                        ]
                    }
                },
            )
        embeds = payload.get("embeds") or []
        if len(embeds) > MAX_EMBEDS:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "embeds": {
                        "_errors": [
                            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_EMBEDS} or fewer in length."}
                        ]
                    }
                },
            )
        if len(payload.get("components") or []) > 5 and not payload.get("flags", 0) & (1 << 15):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "components": {
                        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}]
                    }
                },
            )
        if creating and not (
            content or embeds or files or payload.get("components") or payload.get("sticker_ids") or payload.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    @staticmethod
    def _check_upload_size(files: list[tuple[int, str, bytes]]) -> None:
        if sum(len(data) for _, _, data in files) > model.ATTACHMENT_SIZE_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")

    def _attachments_from(
        self, channel_id: int, payload: dict[str, Any], files: list[tuple[int, str, bytes]], keep: list[FakeAttachment]
    ) -> list[FakeAttachment]:
        described = {}
        for item in payload.get("attachments") or []:
            try:
                described[int(item["id"])] = item
            except (KeyError, ValueError, TypeError):
                continue
        result = [a for a in keep if a.id in described] if "attachments" in payload else list(keep)
        for index, filename, data in files:
            info = described.get(index, {})
            if len(info.get("description") or "") > MAX_DESCRIPTION:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": {str(index): {"description": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}}}},
                )
            attachment_id = self.ids.next()
            name = info.get("filename") or filename
            result.append(
                FakeAttachment(
                    id=attachment_id,
                    filename=name,
                    data=data,
                    url=f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{name}",
                    description=info.get("description"),
                )
            )
        return result

    def _mentions_in(self, content: str, guild: FakeGuild | None, allowed: dict[str, Any] | None) -> list[FakeUser]:
        ids = [int(m) for m in re.findall(r"<@!?(\d+)>", content or "")]
        if allowed is not None:
            parse = allowed.get("parse", [])
            explicit = {int(u) for u in allowed.get("users", [])}
            ids = [i for i in ids if "users" in parse or i in explicit]
        users = []
        for user_id in dict.fromkeys(ids):
            user = self.users.get(user_id)
            if user is not None and (guild is None or user_id in guild.members):
                users.append(user)
        return users

    def _new_bot_message(
        self, channel: FakeChannel, payload: dict[str, Any], files: list[tuple[int, str, bytes]], **extra: Any
    ) -> FakeMessage:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        content = str(payload.get("content") or "")
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            tts=bool(payload.get("tts", False)),
            flags=int(payload.get("flags") or 0) & SENDABLE_FLAGS,
            nonce=payload.get("nonce"),
            mentions=self._mentions_in(content, guild, payload.get("allowed_mentions")),
            **extra,
        )
        message.attachments = self._attachments_from(channel.id, payload, files, [])
        if message.flags & components_v2.IS_COMPONENTS_V2:
            self._check_v2(payload, message.attachments)
            # A card's text is its text displays': who they mention is mentioned.
            said = "\n".join(components_v2.texts(message.components))
            message.mentions = self._mentions_in(said, guild, payload.get("allowed_mentions"))
        return message

    @staticmethod
    def _check_v2(payload: dict[str, Any], attachments: list[FakeAttachment]) -> None:
        """Refuse a Components V2 message as Discord does (400 50035, the faulty field's path)."""
        try:
            components_v2.check_v2(payload, attachments)
        except components_v2.FormError as error:
            raise ApiError(400, 50035, "Invalid Form Body", error.errors()) from None

    def _store_message(self, channel: FakeChannel, message: FakeMessage) -> None:
        self.message_store[message.id] = message
        if not message.ephemeral:
            channel.last_message_id = message.id
        self._record("message_create", message)
        self._dispatch_message("MESSAGE_CREATE", message)

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        payload, files = await self._body(request)
        if files and self._upload_failures:
            status = self._upload_failures.pop(0)
            failed = request[RECORDED]
            self.failed_uploads.append(failed)
            self._record("upload_failed", failed)
            raise ApiError(status, 0, HTTPStatus(status).phrase)
        if channel.type == DM:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            bits = [model.SEND_MESSAGES_IN_THREADS if channel.is_thread else model.SEND_MESSAGES]
            if files:
                bits.append(model.ATTACH_FILES)
            self._require(channel, *bits)
            if channel.is_thread and channel.archived:
                # A message unarchives an archived thread, unless it is locked.
                if channel.locked and not self._bot_permissions(channel) & model.MANAGE_THREADS:
                    raise ApiError(400, 50083, "Thread is archived")
                channel.archived = False
        self._check_message_payload(payload, files, creating=True)
        self._check_upload_size(files)
        reference = payload.get("message_reference")
        if reference:
            ref_id = reference.get("message_id")
            target = self.message_store.get(int(ref_id)) if ref_id else None
            if target is None or target.deleted:
                if reference.get("fail_if_not_exists", True):
                    raise ApiError(
                        400,
                        50035,
                        "Invalid Form Body",
                        {
                            "message_reference": {
                                "_errors": [{"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]
                            }
                        },
                    )
                reference = None
            else:
                reference = {
                    "type": 0,
                    "message_id": str(target.id),
                    "channel_id": str(target.channel_id),
                    **({"guild_id": str(target.guild_id)} if target.guild_id else {}),
                }
        message = self._new_bot_message(channel, payload, files, message_reference=reference)
        self._store_message(channel, message)
        return self._message_response(message)

    async def _get_message(self, request: web.Request) -> web.Response:
        channel_id, message_id = self._params(request)
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel, model.READ_MESSAGE_HISTORY)
        return self._message_response(self._message(channel, message_id))

    async def _history(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        if channel.guild_id is not None:
            self._require(channel, model.READ_MESSAGE_HISTORY)
        query = request.query
        limit = max(1, min(100, int(query.get("limit", 50))))
        found = sorted(
            (
                m
                for m in self.message_store.values()
                if m.channel_id == channel.id and not m.deleted and not m.ephemeral
            ),
            key=lambda m: m.id,
        )
        if "around" in query:
            around = int(query["around"])
            older = [m for m in found if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in found if m.id > around][: limit - len(older)]
            chosen = older + newer
        elif "after" in query:
            chosen = [m for m in found if m.id > int(query["after"])][:limit]
        else:
            if "before" in query:
                found = [m for m in found if m.id < int(query["before"])]
            chosen = found[-limit:]
        return json_response([m.payload(bot_id=self.bot_user.id) for m in reversed(chosen)])

    def _apply_edit(self, message: FakeMessage, payload: dict[str, Any], files: list[tuple[int, str, bytes]]) -> bool:
        """Edit a message in place; a refused edit (400) leaves it untouched.

        Returns whether the edit filled a deferral's "thinking" message."""
        self._check_message_payload(payload, files, creating=False)
        self._check_upload_size(files)
        content = str(payload["content"] or "") if "content" in payload else message.content
        embeds = list(payload["embeds"] or []) if "embeds" in payload else message.embeds
        components = list(payload["components"] or []) if "components" in payload else message.components
        attachments = message.attachments
        if "attachments" in payload or files:
            attachments = self._attachments_from(message.channel_id, payload, files, message.attachments)
        if not (content or embeds or attachments or components):
            raise ApiError(400, 50006, "Cannot send an empty message")
        # IS_COMPONENTS_V2 may be set by an edit, never taken off; the edited whole is checked.
        v2 = bool((message.flags | int(payload.get("flags") or 0)) & components_v2.IS_COMPONENTS_V2)
        if v2:
            whole = {"content": content, "embeds": embeds, "components": components}
            whole.update({k: payload[k] for k in ("poll", "sticker_ids") if k in payload})
            self._check_v2(whole, attachments)
        guild = self.guilds.get(message.guild_id) if message.guild_id else None
        if v2 and "components" in payload:
            said = "\n".join(components_v2.texts(components))
            message.mentions = self._mentions_in(said, guild, payload.get("allowed_mentions"))
        elif "content" in payload:
            message.mentions = self._mentions_in(content, guild, payload.get("allowed_mentions"))
        message.content, message.embeds, message.components, message.attachments = (
            content,
            embeds,
            components,
            attachments,
        )
        if payload.get("flags") is not None:
            # Only SUPPRESS_EMBEDS may change on edit; ephemeral and loading are the server's.
            suppress = 1 << 2
            message.flags = (message.flags & ~suppress) | (int(payload["flags"]) & suppress)
        if v2:
            message.flags |= components_v2.IS_COMPONENTS_V2
        was_loading = bool(message.flags & LOADING)
        message.flags &= ~LOADING
        message.edited_timestamp = model.iso_now()
        message.edits += 1
        return was_loading

    def _after_edit(self, message: FakeMessage, *, filled: bool = False) -> None:
        if filled:
            # The "thinking" message became the answer: for waiters this is the bot's new message.
            self._record("deferral_filled", message)
        self._record("message_update", message)
        self._dispatch_message("MESSAGE_UPDATE", message)

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel_id, message_id = self._params(request)
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        payload, files = await self._body(request)
        if message.author.id != self.bot_user.id:
            if set(payload) - {"flags"}:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
            self._require(channel, model.MANAGE_MESSAGES)
        self._apply_edit(message, payload, files)
        self._after_edit(message)
        return self._message_response(message)

    def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        self._record("message_delete", message)
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        if not message.ephemeral:
            self.gateway.dispatch("MESSAGE_DELETE", data)

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel_id, message_id = self._params(request)
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        if message.author.id != self.bot_user.id:
            if channel.guild_id is None:
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._require(channel, model.MANAGE_MESSAGES)
        self._delete(message)
        return no_content()

    async def _bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(self._params(request)[0])
        self._require(channel, model.MANAGE_MESSAGES)
        payload, _ = await self._body(request)
        ids = payload.get("messages") or []
        if not 2 <= len(ids) <= 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "messages": {
                        "_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 2 and 100 in length."}]
                    }
                },
            )
        for message_id in ids:
            self._delete(self._message(channel, str(message_id)))
        return no_content()

    # ------------------------------------------------------------------ reactions

    def _reaction_event(self, event: str, message: FakeMessage, user_id: int, emoji: str) -> None:
        data: dict[str, Any] = {
            "user_id": str(user_id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "emoji": model._emoji_payload(emoji),
            "burst": False,
            "type": 0,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            member = self.guilds[message.guild_id].members.get(user_id)
            if member is not None and event == "MESSAGE_REACTION_ADD":
                data["member"] = member.payload()
        if event == "MESSAGE_REACTION_ADD":
            data["message_author_id"] = str(message.author.id)
            data["burst_colors"] = []
        intent = DIRECT_MESSAGE_REACTIONS if message.guild_id is None else GUILD_MESSAGE_REACTIONS
        self.gateway.dispatch(event, lambda s: data if s.has(intent) else None)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        channel_id, message_id, emoji = self._params(request)
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel, model.READ_MESSAGE_HISTORY, model.ADD_REACTIONS)
        message = self._message(channel, message_id)
        users = message.reactions.setdefault(emoji, set())
        if self.bot_user.id not in users:
            users.add(self.bot_user.id)
            self._record("reaction_add", (message, self.bot_user, emoji))
            self._reaction_event("MESSAGE_REACTION_ADD", message, self.bot_user.id, emoji)
        return no_content()

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        channel_id, message_id, emoji, who = self._params(request)
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        user_id = self.bot_user.id if who == "@me" else self._snowflake(who, "user_id")
        if user_id != self.bot_user.id:
            self._require(channel, model.MANAGE_MESSAGES)
        users = message.reactions.get(emoji, set())
        if user_id in users:
            users.discard(user_id)
            self._record("reaction_remove", (message, self.users.get(user_id), emoji))
            self._reaction_event("MESSAGE_REACTION_REMOVE", message, user_id, emoji)
        return no_content()

    async def _list_reactions(self, request: web.Request) -> web.Response:
        channel_id, message_id, emoji = self._params(request)
        message = self._message(self._channel(channel_id), message_id)
        users = sorted(message.reactions.get(emoji, set()))
        return json_response([self.users[u].payload() for u in users])

    async def _clear_emoji(self, request: web.Request) -> web.Response:
        channel_id, message_id, emoji = self._params(request)
        channel = self._channel(channel_id)
        self._require(channel, model.MANAGE_MESSAGES)
        message = self._message(channel, message_id)
        message.reactions.pop(emoji, None)
        return no_content()

    async def _clear_reactions(self, request: web.Request) -> web.Response:
        channel_id, message_id = self._params(request)
        channel = self._channel(channel_id)
        self._require(channel, model.MANAGE_MESSAGES)
        self._message(channel, message_id).reactions.clear()
        return no_content()

    # ------------------------------------------------------------------ guilds, members, roles

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        data = guild.payload()
        for key in ("members", "channels", "threads", "voice_states", "presences", "member_count"):
            data.pop(key, None)
        if request.query.get("with_counts") == "true":
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = len(guild.members)
        return json_response(data)

    async def _guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def _create_guild_channel(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        if not guild.base_permissions(self.bot_user.id) & model.MANAGE_CHANNELS:
            raise ApiError(403, 50013, "Missing Permissions")
        payload, _ = await self._body(request)
        channel = self._add_channel(
            guild,
            payload.get("name", "channel"),
            kind=int(payload.get("type", model.GUILD_TEXT)),
            topic=payload.get("topic"),
            parent_id=int(payload["parent_id"]) if payload.get("parent_id") else None,
            overwrites=[
                {
                    "id": str(o["id"]),
                    "type": int(o["type"]),
                    "allow": str(o.get("allow", "0")),
                    "deny": str(o.get("deny", "0")),
                }
                for o in payload.get("permission_overwrites") or []
            ],
        )
        return json_response(channel.payload(), status=201)

    def _member(self, guild: FakeGuild, user_id: str) -> FakeMember:
        member = guild.members.get(self._snowflake(user_id, "user_id"))
        if member is None:
            raise unknown("Member", 10007)
        return member

    async def _get_member(self, request: web.Request) -> web.Response:
        guild_id, user_id = self._params(request)
        return json_response(self._member(self._guild(guild_id), user_id).payload())

    async def _list_members(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([m.payload() for m in members[:limit]])

    async def _search_members(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        query = request.query.get("query", "").lower()
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        members = [
            m
            for m in guild.members.values()
            if m.user.username.lower().startswith(query) or (m.nick or "").lower().startswith(query)
        ]
        return json_response([m.payload() for m in members[:limit]])

    def _top_position(self, guild: FakeGuild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return 1 << 30
        member = guild.members[user_id]
        return max((guild.roles[r].position for r in member.role_ids if r in guild.roles), default=0)

    def _check_role_change(self, guild: FakeGuild, role: FakeRole) -> None:
        if not guild.base_permissions(self.bot_user.id) & model.MANAGE_ROLES:
            raise ApiError(403, 50013, "Missing Permissions")
        # The bot may only hand out roles below its own highest role, and never managed ones.
        if role.managed or role.position >= self._top_position(guild, self.bot_user.id):
            raise ApiError(403, 50013, "Missing Permissions")

    def _member_updated(self, guild: FakeGuild, member: FakeMember) -> None:
        data = {**member.payload(), "guild_id": str(guild.id)}
        self.gateway.dispatch(
            "GUILD_MEMBER_UPDATE",
            lambda s: data if s.has(GUILD_MEMBERS) or member.user.id == self.bot_user.id else None,
        )
        self._record("member_update", member)

    async def _edit_member(self, request: web.Request) -> web.Response:
        guild_id, user_id = self._params(request)
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        payload, _ = await self._body(request)
        if "roles" in payload:
            wanted = [int(r) for r in payload["roles"] or []]
            for role_id in set(wanted) ^ set(member.role_ids):
                role = guild.roles.get(role_id)
                if role is None:
                    raise unknown("Role", 10011)
                self._check_role_change(guild, role)
            member.role_ids = wanted
        if "nick" in payload:
            member.nick = payload["nick"]
        self._member_updated(guild, member)
        return json_response(member.payload())

    async def _add_member_role(self, request: web.Request) -> web.Response:
        guild_id, user_id, role_id = self._params(request)
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        role = guild.roles.get(self._snowflake(role_id, "role_id"))
        if role is None:
            raise unknown("Role", 10011)
        self._check_role_change(guild, role)
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
            self._member_updated(guild, member)
        return no_content()

    async def _remove_member_role(self, request: web.Request) -> web.Response:
        guild_id, user_id, role_id = self._params(request)
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        role = guild.roles.get(self._snowflake(role_id, "role_id"))
        if role is None:
            raise unknown("Role", 10011)
        self._check_role_change(guild, role)
        if role.id in member.role_ids:
            member.role_ids.remove(role.id)
            self._member_updated(guild, member)
        return no_content()

    async def _list_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        return json_response([r.payload() for r in guild.roles.values()])

    async def _create_role_route(self, request: web.Request) -> web.Response:
        guild = self._guild(self._params(request)[0])
        if not guild.base_permissions(self.bot_user.id) & model.MANAGE_ROLES:
            raise ApiError(403, 50013, "Missing Permissions")
        payload, _ = await self._body(request)
        role = self.create_role(
            guild,
            payload.get("name") or "new role",
            permissions=int(payload.get("permissions") or 0),
            color=int(payload.get("color") or 0),
            hoist=bool(payload.get("hoist", False)),
            mentionable=bool(payload.get("mentionable", False)),
        )
        return json_response(role.payload())

    async def _edit_role(self, request: web.Request) -> web.Response:
        guild_id, role_id = self._params(request)
        guild = self._guild(guild_id)
        role = guild.roles.get(self._snowflake(role_id, "role_id"))
        if role is None:
            raise unknown("Role", 10011)
        self._check_role_change(guild, role)
        payload, _ = await self._body(request)
        for key in ("name", "color", "hoist", "mentionable"):
            if key in payload and payload[key] is not None:
                setattr(role, key, payload[key])
        if payload.get("permissions") is not None:
            role.permissions = int(payload["permissions"])
        self.gateway.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()})
        self._record("role_update", role)
        return json_response(role.payload())

    async def _delete_role(self, request: web.Request) -> web.Response:
        guild_id, role_id = self._params(request)
        guild = self._guild(guild_id)
        role = guild.roles.get(self._snowflake(role_id, "role_id"))
        if role is None or role.id == guild.id:
            raise unknown("Role", 10011)
        self._check_role_change(guild, role)
        del guild.roles[role.id]
        for member in guild.members.values():
            if role.id in member.role_ids:
                member.role_ids.remove(role.id)
        self.gateway.dispatch("GUILD_ROLE_DELETE", {"guild_id": str(guild.id), "role_id": str(role.id)})
        self._record("role_delete", role)
        return no_content()

    # ------------------------------------------------------------------ interactions and webhooks

    def _interaction(self, interaction_id: str, token: str) -> FakeInteraction:
        interaction = self.interactions.get(self._snowflake(interaction_id, "interaction_id"))
        if interaction is None or interaction.token != token:
            raise unknown("interaction", 10062)
        return interaction

    def _interaction_by_token(self, application_id: str, token: str) -> FakeInteraction:
        if application_id != str(self.application_id):
            raise unknown("Webhook", 10015)
        for interaction in self.interactions.values():
            if interaction.token == token:
                if self.clock() - interaction.created_at > INTERACTION_TOKEN_SECONDS:
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                return interaction
        raise unknown("Webhook", 10015)

    def _interaction_message(
        self, interaction: FakeInteraction, payload: dict[str, Any], files: list[tuple[int, str, bytes]], *, flags: int
    ) -> FakeMessage:
        channel = self.channels[interaction.channel_id]
        metadata = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": interaction.user.payload(),
            "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
        }
        if interaction.message is not None:
            metadata["interacted_message_id"] = str(interaction.message.id)
        if interaction.original is not None:
            metadata["original_response_message_id"] = str(interaction.original.id)
        message = self._new_bot_message(
            channel,
            payload,
            files,
            webhook_id=self.application_id,
            application_id=self.application_id,
            interaction_metadata=metadata,
        )
        message.flags = flags
        return message

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        interaction_id, token = self._params(request)
        interaction = self._interaction(interaction_id, token)
        payload, files = await self._body(request)
        if interaction.response is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock() - interaction.created_at > INTERACTION_ANSWER_SECONDS:
            raise unknown("interaction", 10062)
        kind = int(payload.get("type", 0))
        data = payload.get("data")
        # Which answers fit which interaction: autocomplete takes only choices; a modal
        # cannot answer a modal; updates need a message with the component.
        if (interaction.type == 4) != (kind == 8) or (kind == 9 and interaction.type == 5):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Response type {kind} is not valid for interaction type {interaction.type}.",
                            }
                        ]
                    }
                },
            )
        message: FakeMessage | None = None
        channel = self.channels[interaction.channel_id]
        if kind == 4:
            self._check_message_payload(data or {}, files, creating=True)
            self._check_upload_size(files)
            message = self._interaction_message(
                interaction, data or {}, files, flags=int((data or {}).get("flags") or 0) & (EPHEMERAL | SENDABLE_FLAGS)
            )
            interaction.original = message
        elif kind == 5:
            flags = LOADING | (int((data or {}).get("flags") or 0) & EPHEMERAL)
            message = self._interaction_message(interaction, {}, [], flags=flags)
            interaction.original = message
        elif kind in (6, 7):
            if interaction.message is None:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "type": {
                            "_errors": [
                                {
                                    "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                    "message": "Updating a message needs a message component interaction.",
                                }
                            ]
                        }
                    },
                )
            interaction.original = interaction.message
            if kind == 7:
                self._apply_edit(interaction.message, data or {}, files)
        elif kind in (8, 9):
            pass
        else:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_CHOICES",
                                "message": f"Value must be one of the response types; got {kind}.",
                            }
                        ]
                    }
                },
            )
        interaction.response = InteractionResponse(kind, data, message)
        if message is not None:
            self._store_message(channel, message)
        elif kind == 7 and interaction.message is not None:
            self._after_edit(interaction.message)
        self._record("interaction_response", interaction)
        resource: dict[str, Any] = {"type": kind}
        shown = interaction.original if kind in (4, 5, 7) else None
        if shown is not None:
            resource["message"] = shown.payload(bot_id=self.bot_user.id)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        body = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(shown.id) if shown else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(shown and shown.ephemeral),
            },
            "resource": resource,
        }
        return json_response(body)

    async def _followup(self, request: web.Request) -> web.Response:
        application_id, token = self._params(request)
        interaction = self._interaction_by_token(application_id, token)
        if interaction.response is None:
            raise unknown("Webhook", 10015)
        payload, files = await self._body(request)
        self._check_message_payload(payload, files, creating=True)
        self._check_upload_size(files)
        original = interaction.original
        if original is not None and original.flags & LOADING and not interaction.original_edited:
            # After a deferral, Discord turns the first follow-up into the "thinking" message.
            filled = self._apply_edit(original, payload, files)
            interaction.original_edited = True
            interaction.followups.append(original)
            self._after_edit(original, filled=filled)
            if request.query.get("wait", "").lower() not in ("1", "true"):
                return no_content()
            return self._message_response(original)
        flags = int(payload.get("flags") or 0) & (EPHEMERAL | SENDABLE_FLAGS)
        message = self._interaction_message(interaction, payload, files, flags=flags)
        interaction.followups.append(message)
        self._store_message(self.channels[interaction.channel_id], message)
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return no_content()
        return self._message_response(message)

    def _webhook_target(self, request: web.Request) -> tuple[FakeInteraction, FakeMessage]:
        application_id, token, message_id = self._params(request)
        interaction = self._interaction_by_token(application_id, token)
        if message_id == "@original":
            if interaction.original is None or interaction.original.deleted:
                raise unknown("Message", 10008)
            return interaction, interaction.original
        wanted = self._snowflake(message_id, "message_id")
        for message in [interaction.original, *interaction.followups]:
            if message is not None and message.id == wanted and not message.deleted:
                return interaction, message
        raise unknown("Message", 10008)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_target(request)
        return self._message_response(message)

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        interaction, message = self._webhook_target(request)
        payload, files = await self._body(request)
        filled = self._apply_edit(message, payload, files)
        if message is interaction.original:
            interaction.original_edited = True
        self._after_edit(message, filled=filled)
        return self._message_response(message)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_target(request)
        self._delete(message)
        return no_content()

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        attachment_id = int(request.match_info["attachment_id"])
        if self._download_stalls:
            self._download_stalls -= 1
            stalled = web.StreamResponse(headers={"Content-Type": "application/octet-stream"})
            await stalled.prepare(request)  # the status and headers, then nothing
            self.stalled_downloads.append(attachment_id)
            self._record("stalled_download", attachment_id)  # wakes a wait_until
            await self._release_downloads.wait()
            return stalled
        upload = self.uploads.get(attachment_id)
        if upload is not None:
            return web.Response(body=upload.data, headers={"Content-Type": upload.content_type})
        for message in self.message_store.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
        return web.Response(status=404, text="Not Found")
