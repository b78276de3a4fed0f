"""A TCP proxy on the loopback between bot processes and PostgreSQL that can cut the link: told
to, it stops forwarding anything, either way, on every connection (new ones too), and holds what
it receives, as a network that drops every packet does; healed, it delivers what it held, as the
clients' retransmissions would. The cut can be made to fall in the middle of a commit: when the
``COMMIT`` of a transaction that ran a statement of a given text is sent (say, one that inserts
into ``actions``: a move), that ``COMMIT`` is held with the rest.

It reads the client's side of the PostgreSQL protocol (the start-up packets, then typed
messages) only to find that ``COMMIT``: a simple query (``Q``) ``BEGIN``, statements prepared
(``P``: a name and its text) and run (``B``: the name), then the simple query ``COMMIT``, as
asyncpg sends them.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
import time
from dataclasses import dataclass, field

#: The start-up packets that come before the real one (SSL, GSS encryption), by their code.
_NEGOTIATIONS = {80877103, 80877104}


@dataclass
class _Leg:
    """One direction of one connection: what is held while the link is cut, and whether its
    sender closed."""

    writer: asyncio.StreamWriter | None = None
    held: bytearray = field(default_factory=bytearray)
    closed: bool = False


class _Link:
    """One client connection and its connection to the server."""

    def __init__(self, proxy: CutProxy, client: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
        self.proxy = proxy
        self.client_reader, client_writer = client
        self.up = _Leg()  # client -> server (its writer: the server's socket)
        self.down = _Leg(client_writer)  # server -> client
        self.server_reader: asyncio.StreamReader | None = None
        self.parse = bytearray()
        self.starting = True
        self.in_transaction = False
        self.statements: dict[bytes, bytes] = {}  # prepared: name -> text
        self.ran: list[bytes] = []  # the texts run in the transaction
        self.tasks: list[asyncio.Task[None]] = []

    async def connect(self) -> None:
        reader, writer = await asyncio.open_connection(self.proxy.target_host, self.proxy.target_port)
        self.server_reader, self.up.writer = reader, writer
        self.tasks.append(asyncio.create_task(self.pump_down()))

    def watch(self, data: bytes) -> int | None:
        """Follow the client's messages in ``data``; the offset at which a cut must fall (the
        start of the ``COMMIT`` the proxy waits for), or ``None``."""
        start = len(self.parse)
        self.parse += data
        offset = 0
        cut_at = None
        while True:
            if self.starting:
                if len(self.parse) - offset < 8:
                    break
                length, code = struct.unpack("!II", self.parse[offset : offset + 8])
                if len(self.parse) - offset < length:
                    break
                self.starting = code in _NEGOTIATIONS
                offset += length
                continue
            if len(self.parse) - offset < 5:
                break
            kind = self.parse[offset : offset + 1]
            (length,) = struct.unpack("!I", self.parse[offset + 1 : offset + 5])
            if len(self.parse) - offset < length + 1:
                break
            body = bytes(self.parse[offset + 5 : offset + 1 + length])
            if kind == b"Q":
                query = body.rstrip(b"\0").strip().upper()
                if query.startswith(b"BEGIN"):
                    self.in_transaction, self.ran = True, []
                elif query.startswith(b"COMMIT"):
                    wrote = any(self.proxy.writing in text for text in self.ran)
                    if self.proxy.armed and self.in_transaction and wrote:
                        cut_at = max(0, offset - start) if cut_at is None else cut_at
                    self.in_transaction = False
            elif kind == b"P":
                name, text = body.split(b"\0", 2)[:2]
                self.statements[name] = text
            elif kind == b"B" and self.in_transaction:
                name = body.split(b"\0", 2)[1]
                self.ran.append(self.statements.get(name, b""))
            offset += length + 1
        del self.parse[:offset]
        return cut_at

    async def pump_up(self) -> None:
        """Client -> server, watching for the COMMIT that cuts the link."""
        try:
            while data := await self.client_reader.read(65536):
                cut_at = self.watch(data)
                if cut_at is not None and not self.proxy.is_cut:
                    self.send(self.up, data[:cut_at])
                    self.proxy.cut(self)
                    data = data[cut_at:]
                self.send(self.up, data)
        except (ConnectionError, OSError):
            pass
        self.finish(self.up)

    async def pump_down(self) -> None:
        assert self.server_reader is not None
        try:
            while data := await self.server_reader.read(65536):
                self.send(self.down, data)
        except (ConnectionError, OSError):
            pass
        self.finish(self.down)

    def send(self, leg: _Leg, data: bytes) -> None:
        if not data:
            return
        if self.proxy.is_cut or leg.writer is None or leg.held:
            leg.held += data
            return
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            leg.writer.write(data)

    def finish(self, leg: _Leg) -> None:
        leg.closed = True
        if not self.proxy.is_cut and not leg.held:
            self.close(leg)

    def close(self, leg: _Leg) -> None:
        if leg.writer is not None:
            with contextlib.suppress(Exception):
                leg.writer.close()

    async def heal(self) -> None:
        """Deliver what was held, then the closes that were held."""
        if self.up.writer is None and not self.up.closed:
            with contextlib.suppress(OSError):
                await self.connect()
        for leg in (self.up, self.down):
            while leg.writer is not None and leg.held:
                data = bytes(leg.held)
                leg.held.clear()
                with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                    leg.writer.write(data)
                    await leg.writer.drain()
            leg.held.clear()
            if leg.closed:
                self.close(leg)


class CutProxy:
    """Listens on 127.0.0.1 and forwards each connection to ``target_host:target_port``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target_host = target_host
        self.target_port = target_port
        self.port = 0
        self.links: list[_Link] = []
        self.armed = False
        self.writing = b""
        self.is_cut = False
        #: Set when the link is cut; :attr:`cut_link` is the connection whose COMMIT cut it.
        self.was_cut = asyncio.Event()
        self.cut_link: _Link | None = None
        #: When the link was cut (``time.perf_counter()``), for a benchmark's stopwatch.
        self.cut_at: float | None = None
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = _Link(self, (reader, writer))
        self.links.append(link)
        if not self.is_cut:
            try:
                await link.connect()
            except OSError:
                writer.close()
                return
        link.tasks.append(asyncio.create_task(link.pump_up()))

    def cut_at_commit(self, writing: str) -> None:
        """Cut the link when the next ``COMMIT`` of a transaction that ran a statement whose text
        holds ``writing`` (``"INSERT INTO actions"``) is sent: it is held, undelivered, with
        everything after it."""
        self.writing = writing.encode()
        self.armed = True

    def cut(self, link: _Link | None = None) -> None:
        """Stop forwarding, now."""
        self.armed = False
        self.is_cut = True
        self.cut_link = link
        self.cut_at = time.perf_counter()
        self.was_cut.set()

    async def heal(self) -> bool | None:
        """Forward again, delivering what was held; whether the server's side of the connection
        whose COMMIT cut the link was still open to take it (``None``: no COMMIT cut it)."""
        self.is_cut = False
        link = self.cut_link
        open_then = None if link is None else not link.down.closed
        for each in list(self.links):
            await each.heal()
        return open_then

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in self.links:
            for task in link.tasks:
                task.cancel()
            for leg in (link.up, link.down):
                link.close(leg)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
