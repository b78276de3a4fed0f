"""Failures are told clearly, once: a board whose picture could not be posted is said to be
missing, with the clock as it is after the failed upload; a seat whose private messages fail is
told so in the room once a spell; a caller that answers the player itself gets the refusal in
its reply, and the room reads nothing of it."""

from __future__ import annotations

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport, TransportError
from geniusbot.storage import Store
from tests.host.support import FakeTime

from .sealedbid import registered

UNREACHABLE = "Alice (p1): I could not send you a private message; open your DMs to this bot."


class SlowFailingUploads(RecordingTransport):
    """A transport whose picture uploads fail after ``takes`` seconds of the test's clock."""

    def __init__(self, clock: FakeTime) -> None:
        super().__init__()
        self.clock = clock
        self.failing = False
        self.takes = 25.0

    async def post_picture(
        self, room: int | None, png: bytes, *, filename: str, text: str = "", alt: str = "", ping=()
    ) -> int:
        if self.failing:
            self.clock.advance(self.takes)
            raise TransportError("Discord failed to post a picture (HTTP 503).")
        return await super().post_picture(room, png, filename=filename, text=text, alt=alt, ping=ping)


async def start(host: Host, game: str, **kw: object) -> int:
    players = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]
    reply = await host.start_match(game, players=players, seed=5, **kw)  # type: ignore[arg-type]
    assert reply.ok, reply.message
    return reply.match_id


async def test_a_board_that_could_not_be_posted_is_said_missing_with_the_clock_as_it_is_now(
    store: Store, clock: FakeTime
) -> None:
    transport = SlowFailingUploads(clock)
    host = Host(store, transport, now=clock)
    match_id = await start(host, "tictacfive", clock="60s")
    clock.advance(10)
    transport.clear()
    transport.failing = True
    assert (await host.submit(match_id, "p1", "H8")).ok
    # The move was taken at +10 s; the upload failed 25 s later: Alice has 35 s of her minute
    # left, not the 1:00 the lost picture's caption had.
    assert transport.room_texts() == [
        "Alice places black on H8.\nThe board could not be posted.\nTo move: Alice (p1) 0:35."
    ]


async def test_a_lost_board_with_nothing_to_announce_is_still_said_missing(store: Store, clock: FakeTime) -> None:
    transport = SlowFailingUploads(clock)
    host = Host(store, transport, now=clock)
    match_id = await start(host, "tictacfive", clock="60s")
    live = host.matches[match_id]
    transport.clear()
    transport.failing = True
    async with live.lock:
        await host.announcer.show_board(live, host.now())
    assert transport.room_texts() == ["The board could not be posted.\nTo move: Alice (p1) 0:35."]


@pytest.fixture
def quiet_host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False)


async def test_a_seat_whose_private_messages_fail_is_told_once_a_spell(
    quiet_host: Host, transport: RecordingTransport
) -> None:
    host = quiet_host
    with registered():
        match_id = await start(host, "sealedbid", clock="none", options={"rewindow": "0"})
        transport.fail_private.add("p1")
        transport.clear()
        # Three private messages to Alice fail in a row (her bid, then the next round's): one notice.
        assert (await host.submit(match_id, "p1", "bid 3", private=True)).ok
        assert (await host.submit(match_id, "p2", "bid 2", private=True)).ok
        assert (await host.submit(match_id, "p1", "bid 4", private=True)).ok
        live = host.matches[match_id]
        async with live.lock:
            await host.announcer.private(live, "p1", "A third one.")
        assert transport.room_texts().count(UNREACHABLE) == 1
        # She opens her DMs: the next one gets through and the spell is over; a later failure is told again.
        transport.fail_private.discard("p1")
        async with live.lock:
            assert await host.announcer.private(live, "p1", "Back.")
        transport.fail_private.add("p1")
        async with live.lock:
            assert not await host.announcer.private(live, "p1", "Gone again.")
        assert transport.room_texts().count(UNREACHABLE) == 2


async def test_each_seat_has_its_own_spell(quiet_host: Host, transport: RecordingTransport) -> None:
    host = quiet_host
    with registered():
        match_id = await start(host, "sealedbid", clock="none")
        live = host.matches[match_id]
        transport.fail_private.update({"p1", "p2"})
        transport.clear()
        async with live.lock:
            for seat in ("p1", "p2", "p1", "p2"):
                await host.announcer.private(live, seat, "A secret.")
        assert transport.room_texts() == [UNREACHABLE, UNREACHABLE.replace("Alice (p1)", "Bob (p2)")]


async def test_a_refusal_the_caller_answers_is_not_posted_in_the_room(
    quiet_host: Host, transport: RecordingTransport
) -> None:
    host = quiet_host
    match_id = await start(host, "tictacfive", clock="none")
    transport.clear()
    refused = await host.submit(match_id, "p2", "H8", answer=False)
    assert not refused.ok and refused.message
    assert transport.sent == []
    # Without answer=False the host answers in the room, as it does for a typed move.
    again = await host.submit(match_id, "p2", "H8")
    assert transport.room_texts() == [f"Bob (p2): {again.message}"]
