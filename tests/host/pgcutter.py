"""A TCP proxy between asyncpg and the real PostgreSQL server that can lose a COMMIT's answer.

It forwards the PostgreSQL wire protocol both ways, reading the client's messages as it goes.
Told to :meth:`~CommitCutter.cut_next_commit`, it lets the next COMMIT of a transaction that
wrote to the action log reach the server and waits for the server's answer (so the commit has
landed, or with ``lands=False`` holds the COMMIT back, so it has not), swallows that answer, drops
every connection through it, and closes its listening socket: a new connection is refused, as
by a server that went away, until :meth:`~CommitCutter.come_back` listens on the same port again.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from sqlalchemy.engine import make_url

#: The untyped requests a client may send before its startup message (SSL, GSS encryption).
_PRE_STARTUP = {80877103, 80877104}
#: ReadyForQuery, the end of the server's answer to a simple query.
_READY = b"Z\x00\x00\x00\x05"
_WRITES_THE_LOG = b"INSERT INTO actions"


@dataclass(eq=False)
class _Link:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    swallow: bool = False
    swallowed: bytes = b""
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    def abort(self) -> None:
        for writer in (self.client, self.server):
            writer.transport.abort()


class CommitCutter:
    """See the module's docstring. ``url(db_url)`` is ``db_url`` through the proxy."""

    def __init__(self, db_url: str) -> None:
        parsed = make_url(db_url)
        self.target = (parsed.host or "127.0.0.1", parsed.port or 5432)
        self.port = 0
        self.links: set[_Link] = set()
        self.armed: bool | None = None  # None: not armed; else whether the cut COMMIT lands
        self.cut = asyncio.Event()
        self._server: asyncio.Server | None = None

    def url(self, db_url: str) -> str:
        """``db_url`` through the proxy, with SSL off (the proxy reads the protocol in the clear)."""
        parsed = make_url(db_url).set(host="127.0.0.1", port=self.port)
        return parsed.update_query_dict({"ssl": "disable"}).render_as_string(hide_password=False)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def come_back(self) -> None:
        """Listen again, on the same port: the server is back."""
        await self.start()

    def cut_next_commit(self, *, lands: bool = True) -> None:
        self.armed = lands

    async def close(self) -> None:
        self._go_away()
        if self._server is not None:
            await self._server.wait_closed()

    def _go_away(self) -> None:
        if self._server is not None:
            self._server.close()  # new connections are refused from now on
        for link in list(self.links):
            link.abort()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        link = _Link(client_writer, server_writer)
        self.links.add(link)
        try:
            await asyncio.gather(
                self._upstream(link, client_reader), self._downstream(link, server_reader), return_exceptions=True
            )
        finally:
            self.links.discard(link)
            link.abort()

    async def _upstream(self, link: _Link, reader: asyncio.StreamReader) -> None:
        """Client to server, message by message."""
        try:
            while True:  # the untyped packets: SSL or GSS requests, then the startup message
                head = await reader.readexactly(4)
                body = await reader.readexactly(int.from_bytes(head, "big") - 4)
                link.server.write(head + body)
                await link.server.drain()
                if int.from_bytes(body[:4], "big") not in _PRE_STARTUP:
                    break
            statements: dict[bytes, bool] = {}  # prepared statement name -> whether it writes the log
            wrote = False  # whether the open transaction wrote to the action log
            while True:
                kind = await reader.readexactly(1)
                head = await reader.readexactly(4)
                body = await reader.readexactly(int.from_bytes(head, "big") - 4)
                if kind == b"P":  # Parse: name, query
                    name, query = body.split(b"\x00")[:2]
                    statements[name] = _WRITES_THE_LOG in query
                elif kind == b"B":  # Bind: portal, statement
                    wrote = wrote or statements.get(body.split(b"\x00")[1], False)
                elif kind == b"Q":  # a simple query: BEGIN, COMMIT, ROLLBACK...
                    query = body.lstrip().upper()
                    wrote = wrote or _WRITES_THE_LOG in body
                    if query.startswith(b"COMMIT") and wrote and self.armed is not None:
                        await self._cut(link, kind + head + body, lands=self.armed)
                        return
                    if query.startswith((b"COMMIT", b"ROLLBACK", b"BEGIN")):
                        wrote = False
                link.server.write(kind + head + body)
                await link.server.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            link.abort()

    async def _cut(self, link: _Link, commit: bytes, *, lands: bool) -> None:
        self.armed = None
        if lands:
            link.swallow = True
            link.server.write(commit)
            await link.server.drain()
            await asyncio.wait_for(link.answered.wait(), 30)  # landed: the server has said so
        self._go_away()
        self.cut.set()

    async def _downstream(self, link: _Link, reader: asyncio.StreamReader) -> None:
        """Server to client, as it comes (the answer to a cut COMMIT swallowed)."""
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if link.swallow:
                    link.swallowed += data
                    if _READY in link.swallowed:
                        link.answered.set()
                    continue
                link.client.write(data)
                await link.client.drain()
        link.client.transport.abort()
