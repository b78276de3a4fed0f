"""The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, HEARTBEAT/ACK, RESUME, zlib-stream.

A session outlives its websocket: events dispatched while the bot is disconnected are buffered
with their sequence numbers and replayed on RESUME, as Discord does. Outgoing frames go through
one queue per connection so every frame leaves in sequence order.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

# Opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intents the fake honours when it decides what a session receives.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15
GUILD_PRESENCES = 1 << 8
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes a test may want to send.
UNKNOWN_ERROR = 4000
UNKNOWN_OPCODE = 4001
DECODE_ERROR = 4002
AUTHENTICATION_FAILED = 4004
DISALLOWED_INTENTS = 4014

# How many dispatched frames a session keeps for a RESUME; older ones are gone, as on Discord.
REPLAY_LIMIT = 5000

DataFor = Callable[["GatewaySession"], "dict[str, Any] | None"]

#: Events whose payload is the guild itself (its ``id``, no ``guild_id``).
GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that receives a guild's events, as Discord computes it; DMs go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (``None``: a DM, or no guild at all)."""
    value = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return None if value is None else int(value)


@dataclass(eq=False)
class GatewaySession:
    """One identified bot session: its intents, its sequence and every frame sent in it."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    frames: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=REPLAY_LIMIT))
    connection: GatewayConnection | None = None
    ended: bool = False

    def has(self, intent: int) -> bool:
        """Whether the session identified with this intent."""
        return bool(self.intents & intent)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (``None``: DMs, which
        only shard 0 receives). A session that identified without a shard receives everything."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id

    def dispatch(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Number the event, keep it for a later RESUME and send it if a socket is attached."""
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.frames.append(frame)
        if self.connection is not None:
            self.connection.enqueue(frame)
        return frame


class GatewayConnection:
    """One websocket; frames are written by a single writer task, compressed if asked."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool, path: str, query: str) -> None:
        self.ws = ws
        self.path = path  # "/gateway", or "/resume-gateway" when the client used resume_gateway_url
        self.query = query
        self.compress = compress
        self._zlib = zlib.compressobj() if compress else None
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.session: GatewaySession | None = None
        self.received: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.writer = asyncio.create_task(self._write())

    def enqueue(self, frame: dict[str, Any]) -> None:
        """Queue a frame for sending."""
        self.queue.put_nowait(frame)

    async def _write(self) -> None:
        while True:
            frame = await self.queue.get()
            try:
                if frame is None or self.ws.closed:
                    return
                text = json.dumps(frame, separators=(",", ":"))
                if self._zlib is not None:
                    # zlib-stream: one shared context, every frame ends on a Z_SYNC_FLUSH.
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                # The socket went away under us (closing transport): the session keeps the frames.
                return
            finally:
                self.queue.task_done()

    async def drained(self) -> None:
        """Wait until every queued frame has been written (or the writer has given up)."""
        if self.writer.done():
            return
        joined = asyncio.ensure_future(self.queue.join())
        await asyncio.wait({joined, self.writer}, return_when=asyncio.FIRST_COMPLETED)
        joined.cancel()

    async def stop(self) -> None:
        """Stop the writer once the queue is empty."""
        self.queue.put_nowait(None)
        try:
            await asyncio.wait_for(self.writer, timeout=2)
        except (TimeoutError, asyncio.CancelledError):
            self.writer.cancel()


class Gateway:
    """The gateway side of the fake: connections, sessions and dispatch."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.heartbeat_interval_ms = 41_250
        self.allowed_intents = -1  # every privileged intent switched on in the developer portal
        self.identify_count = 0
        self.resume_count = 0

    @property
    def live_sessions(self) -> list[GatewaySession]:
        """Sessions that have not ended (they may be between sockets, waiting for a RESUME)."""
        return [s for s in self.sessions.values() if not s.ended]

    def dispatch(self, event: str, data: dict[str, Any] | DataFor) -> None:
        """Send an event to every live session of the shard it belongs to (a guild's shard,
        ``(guild_id >> 22) % count``; shard 0 for a DM or an event of no guild); ``data`` may be
        a function of the session returning None to skip it (intents)."""
        for session in self.live_sessions:
            payload = data(session) if callable(data) else data
            if payload is not None and session.serves(event_guild(event, payload)):
                session.dispatch(event, payload)

    async def flush(self) -> None:
        """Wait until every frame dispatched so far has been written to its socket."""
        for connection in list(self.connections):
            await connection.drained()

    async def drop(self, code: int = UNKNOWN_ERROR, *, invalidate: bool = False) -> int:
        """Close every open socket from the server side; returns how many were closed.

        ``invalidate`` also forgets the sessions, so the bot's RESUME is refused with
        INVALID_SESSION and it must IDENTIFY again.
        """
        dropped = 0
        for connection in list(self.connections):
            if connection.ws.closed:
                continue
            if connection.session is not None:
                connection.session.connection = None
                connection.session.ended = connection.session.ended or invalidate
            connection.session = None
            await connection.stop()
            await connection.ws.close(code=code, message=b"fake drop")
            dropped += 1
        return dropped

    async def send_reconnect(self) -> None:
        """Ask every connected client to reconnect and resume (opcode 7)."""
        for connection in list(self.connections):
            if not connection.ws.closed:
                connection.enqueue({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close_all(self) -> None:
        """Close every socket (at teardown)."""
        for connection in list(self.connections):
            await connection.stop()
            if not connection.ws.closed:
                await connection.ws.close(code=1001, message=b"fake shutting down")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The websocket endpoint (both the gateway URL and the resume URL)."""
        fake = self.fake
        query = request.query
        compress = query.get("compress")
        # zstd-stream (asked for when zstandard is installed) is answered with plain text frames,
        # which discord.py reads as they are; zlib-stream is spoken for real.
        if (
            query.get("v") != "10"
            or query.get("encoding", "json") != "json"
            or compress not in (None, "zlib-stream", "zstd-stream")
        ):
            fake._protocol_error(f"gateway connect with unsupported query {request.query_string!r}")
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(
            ws, compress=compress == "zlib-stream", path=request.path, query=request.query_string
        )
        self.connections.append(connection)
        fake._record("gateway_connect", connection)
        connection.enqueue({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    try:
                        frame = json.loads(msg.data)
                    except ValueError:
                        fake._protocol_error(f"gateway frame is not JSON: {msg.data[:200]!r}")
                        await ws.close(code=DECODE_ERROR)
                        break
                    connection.received.append(frame)
                    await self._on_frame(connection, frame)
                elif msg.type is WSMsgType.BINARY:
                    fake._protocol_error("the client sent a binary gateway frame")
                    await ws.close(code=DECODE_ERROR)
                    break
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            connection.close_code = ws.close_code
            session = connection.session
            if session is not None:
                session.connection = None
                # A client's own 1000/1001 close ends its session; anything else may RESUME.
                if ws.close_code in (1000, 1001):
                    session.ended = True
            await connection.stop()
            fake._record("gateway_close", connection)
        return ws

    async def _on_frame(self, connection: GatewayConnection, frame: dict[str, Any]) -> None:
        fake = self.fake
        op = frame.get("op")
        data = frame.get("d")
        if op == HEARTBEAT:
            connection.enqueue({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            self._request_members(connection, data or {})
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            fake._record("gateway_op", frame)
        else:
            fake._protocol_error(f"unknown gateway opcode {op!r}: {frame!r}")
            await connection.ws.close(code=UNKNOWN_OPCODE)

    async def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        fake = self.fake
        if data.get("token") != fake.token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED & ~self.allowed_intents:
            await connection.ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            fake._protocol_error(f"IDENTIFY with a bad shard {shard!r} (want [shard_id, shard_count])")
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        self.identify_count += 1
        for stale in self.sessions.values():
            # A new IDENTIFY of a shard means a new client for it: that shard's sessions nobody
            # is connected to are let go (Discord times them out), so they stop collecting frames.
            if stale.connection is None and (shard is None or stale.shard in (None, shard)):
                stale.ended = True
        session = GatewaySession(id=secrets.token_hex(16), intents=intents, shard=shard)
        self.sessions[session.id] = session
        connection.session = session
        session.connection = connection
        fake._record("gateway_identify", session)
        guilds = [g for g in fake._bot_guilds() if session.serves(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": fake.resume_gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["loopback"],
            "auth": {},
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", fake._guild_create_payload(guild, session))

    async def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        fake = self.fake
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != fake.token or session is None or session.ended:
            fake._record("gateway_resume_refused", data)
            connection.enqueue({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        last_seen = int(data.get("seq") or 0)
        if session.frames and last_seen < session.frames[0]["s"] - 1:
            # The frames the client missed have left the buffer: it must start over.
            fake._record("gateway_resume_refused", data)
            connection.enqueue({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resume_count += 1
        if session.connection is not None and session.connection is not connection:
            # A RESUME steals the session from a socket the client has given up on.
            session.connection.session = None
        session.connection = connection
        connection.session = session
        for frame in session.frames:
            if frame["s"] > last_seen:
                connection.enqueue(frame)
        session.dispatch("RESUMED", {})
        fake._record("gateway_resume", session)

    def _request_members(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        fake = self.fake
        session = connection.session
        if session is None:
            return
        guild = fake.guilds.get(int(data.get("guild_id", 0)))
        members = list(guild.members.values()) if guild else []
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        query = (data.get("query") or "").lower()
        if query:
            members = [m for m in members if m.user.username.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(data.get("guild_id")),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
