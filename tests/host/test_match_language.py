"""A match speaks the language fixed at its start (``start_match(language=...)``), kept with it
through a restart, whatever the host's own; and "your move" by private message for long clocks,
through a transport that links to a room's message (:class:`~geniusbot.host.transport.TurnLinks`),
and never through one that cannot (the console's, the recording one)."""

from __future__ import annotations

from geniusbot.conformance.texts import drawing_fault
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport, TurnLinks
from geniusbot.storage import Store
from geniusbot.words import unsaid
from tests.host.support import FakeTime

PLAYERS = (Player("p1", 1, "alice"), Player("p2", 2, "bob"))


class LinkingTransport(RecordingTransport):
    """A recording transport that links to its messages and tells turns where ``tells`` says."""

    tells: bool = True

    async def tells_turns(self, room: int | None) -> bool:
        return self.tells

    def link(self, room: int | None, message_id: int) -> str | None:
        return f"https://example.test/{room}/{message_id}"


def told(transport: RecordingTransport, seat: str) -> list[str]:
    return [t for t in transport.private_texts(seat) if "your move" in t]


async def test_a_match_speaks_its_own_language_through_a_restart(store: Store, clock: FakeTime) -> None:
    transport = RecordingTransport()
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    reply = await host.start_match("tictacfive", players=PLAYERS, clock="60s", channel_id=10, language="qps")
    assert reply.ok and host.matches[1].language == "qps"
    assert (await host.room_move(1, "p1", "H8")).ok
    again = RecordingTransport()
    resumed = Host(store, again, now=clock, pictures=False, heartbeat=0)
    assert await resumed.recover(boards=True) == [1]
    assert (await resumed.room_move(1, "p1", "H9")).ok
    texts = transport.room_texts() + again.room_texts()
    # Outside the brackets: a text board's drawing lines alone (no word, no seat id).
    faults = [(line, drawing_fault(line)) for t in texts for line in unsaid(t).splitlines()]
    assert texts and not [f for f in faults if f[1]], faults
    # Another match of the same host speaks the host's language.
    await resumed.start_match("tictacfive", players=PLAYERS, clock="60s", channel_id=11)
    assert any(t.startswith("Match #2: Tic-Tac-Five") for t in again.room_texts())
    assert again.room_texts()[-1].endswith("To move: alice (p1) 1:00.")


async def test_a_long_move_is_told_privately_with_a_link_to_the_board(store: Store, clock: FakeTime) -> None:
    transport = LinkingTransport()
    assert isinstance(transport, TurnLinks) and not isinstance(RecordingTransport(), TurnLinks)
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    await host.start_match("tictacfive", players=PLAYERS, clock="1h", channel_id=10)
    [board] = [s for s in transport.sent if s.op == "post" and s.ping == ("p1",)]
    assert told(transport, "p1") == [
        f"It is your move in match #1 of Tic-Tac-Five: https://example.test/10/{board.message_id}"
    ]
    # Once a turn: alice's second opening stone tells her nothing more.
    await host.room_move(1, "p1", "H8")
    assert len(told(transport, "p1")) == 1 and not told(transport, "p2")


async def test_a_move_of_less_than_an_hour_or_no_telling_transport_sends_nothing(store: Store, clock: FakeTime) -> None:
    short = LinkingTransport()
    await Host(store, short, now=clock, pictures=False, heartbeat=0).start_match(
        "tictacfive", players=PLAYERS, clock="59m+59s", channel_id=10
    )
    assert not told(short, "p1")
    off = LinkingTransport()
    off.tells = False
    await Host(store, off, now=clock, pictures=False, heartbeat=0).start_match(
        "tictacfive", players=PLAYERS, clock="2h", channel_id=11
    )
    assert not told(off, "p1")
    console = RecordingTransport()
    await Host(store, console, now=clock, pictures=False, heartbeat=0).start_match(
        "tictacfive", players=PLAYERS, clock="2h", channel_id=12
    )
    assert not told(console, "p1")


async def test_a_closed_dm_is_not_said_in_the_room(store: Store, clock: FakeTime) -> None:
    transport = LinkingTransport(fail_private={"p1"})
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    await host.start_match("tictacfive", players=PLAYERS, clock="2h", channel_id=10)
    assert host.matches[1].unreachable_turns == {"p1"}
    assert not [t for t in transport.room_texts() if "private message" in t]
