"""The host's per-move path with pictures on: one message per move, the board drawn beside the
commit and posted only after it, and each seat's own view sent as a picture by DM.

Real databases (SQLite and PostgreSQL) and the real renderers; the transport records.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from geniusbot.games import Outcome, Termination
from geniusbot.games.base import default_verdict
from geniusbot.host import board
from geniusbot.host.match import Host, result_detail
from geniusbot.host.transport import RecordingTransport, TransportError
from geniusbot.storage import Store
from geniusbot.words import Seat, say

from .support import DownStore
from .test_match import FakeTime, start

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, heartbeat=0)


def room(transport: RecordingTransport) -> list:
    return [s for s in transport.sent if s.op in ("post", "picture")]


async def test_an_accepted_move_is_one_message_its_announcement_and_clock_above_the_board(host, transport, clock):
    match_id = await start(host, clock="60s+5m")
    transport.clear()
    clock.advance(8)
    assert (await host.submit(match_id, "p1", "H8")).ok
    [message] = room(transport)
    assert message.op == "picture" and message.png.startswith(PNG_MAGIC)
    # The clock line is the one after the move: p1 (still placing the opening) has a fresh minute.
    assert message.text == "Alice places black on H8.\nTo move: Alice (p1) 1:00 +5:00."


async def test_the_winning_move_is_one_message_with_the_result(host, transport):
    match_id = await start(host, clock="none")
    moves = [
        ("p1", "H8"),
        ("p1", "H9"),
        ("p1", "I8"),
        ("p2", "white"),
        ("p2", "A1"),
        ("p1", "J8"),
        ("p2", "A2"),
        ("p1", "K8"),
        ("p2", "A3"),
        ("p1", "G8"),
    ]
    for seat, point in moves:
        transport.clear()
        assert (await host.submit(match_id, seat, point)).ok
    [message] = room(transport)
    lines = message.text.split("\n")
    assert message.op == "picture" and lines[0].startswith("Alice places")
    assert lines[-1].startswith("Result: Alice (p1) wins.")


async def test_without_pictures_the_announcement_and_the_text_board_are_two_messages(store, transport, clock):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    match_id = await start(host, clock="60s+5m")
    transport.clear()
    assert (await host.submit(match_id, "p1", "H8")).ok
    first, second = room(transport)
    assert (first.op, first.text) == ("post", "Alice places black on H8.")
    assert second.op == "post" and "H8" in second.text and "To move: Alice (p1) 1:00 +5:00." in second.text


async def test_the_board_is_drawn_while_the_commit_runs(store, transport, clock):
    drawing = threading.Event()
    real_picture = board.picture

    def picture(*args, **kwargs):
        drawing.set()
        return real_picture(*args, **kwargs)

    class WaitsForTheDrawing(Store):
        async def commit_action(self, *args, **kwargs):
            if kwargs.get("state", {}).get("state", {}).get("stones"):
                # The move's commit finishes only once the drawing of its board has begun.
                began = await asyncio.to_thread(drawing.wait, 5)
                assert began, "the board was not drawn while the commit ran"
            return await super().commit_action(*args, **kwargs)

    slow = WaitsForTheDrawing(store.engine)
    host = Host(slow, transport, now=clock, heartbeat=0)
    match_id = await start(host, clock="none")
    drawing.clear()
    transport.clear()
    board.picture = picture
    try:
        assert (await host.submit(match_id, "p1", "H8")).ok
    finally:
        board.picture = real_picture
    [message] = room(transport)
    assert message.op == "picture" and message.text.startswith("Alice places black on H8.")


async def test_a_move_whose_commit_fails_shows_no_board_and_changes_nothing(store, transport, clock):
    down = DownStore(store.engine)
    host = Host(down, transport, now=clock, heartbeat=0)
    match_id = await start(host, clock="none")
    transport.clear()
    down.down = True
    reply = await host.submit(match_id, "p1", "H8")
    assert reply.status == "unavailable"
    assert [(s.op, s.text) for s in transport.sent] == [("post", f"Alice (p1): {reply.message}")]
    assert host.matches[match_id].game.view()["stones"] == {}
    down.down = False
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert [s.op for s in transport.sent[1:]] == ["picture"]


class NoUploads(RecordingTransport):
    """A transport whose picture uploads fail (Discord refused the file)."""

    async def post_picture(self, room, png, *, filename, text="", alt="", ping=()):
        raise TransportError("Discord refused the file.")


async def test_a_board_that_cannot_be_uploaded_still_leaves_the_announcement(store, clock):
    transport = NoUploads()
    host = Host(store, transport, now=clock, heartbeat=0)
    match_id = await start(host, clock="60s+5m")
    transport.clear()
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert [(s.op, s.text) for s in transport.sent] == [
        ("post", "Alice places black on H8.\nThe board could not be posted.\nTo move: Alice (p1) 1:00 +5:00.")
    ]


# ---- private views ----------------------------------------------------------------------------


async def play_to_a_private_hand(host: Host) -> int:
    """A Dueling Decks match in which p1 has created a deck: p1's own view now shows its hand."""
    match_id = await start(host, "decks", clock="none")
    live = host.matches[match_id]
    # Any legal creation: the game's own legal moves give one.
    move = next(iter(live.game.legal_moves("p1")))
    assert (await host.submit(match_id, "p1", move.text(), private=True)).ok
    return match_id


async def test_a_seat_whose_view_differs_gets_it_as_a_picture_and_only_that_seat(host, transport):
    match_id = await play_to_a_private_hand(host)
    live = host.matches[match_id]
    assert live.game.view("p1") != live.game.view(None)
    views = [s for s in transport.sent if s.op == "private picture"]
    assert [s.to for s in views] == ["p1"]
    [view] = views
    assert view.png.startswith(PNG_MAGIC) and "\n" not in view.text and "only you" in view.text
    # Never in the room, and never a JSON dump anywhere.
    assert all(s.png != view.png for s in room(transport))
    assert not any("{" in s.text for s in transport.sent)
    # The same view is not sent again when nothing in it changed.
    transport.clear()
    await host.announcer.show_board(live, host.now())
    assert not [s for s in transport.sent if s.op == "private picture"]


async def test_without_pictures_a_seats_view_is_readable_text(store, transport, clock):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    match_id = await play_to_a_private_hand(host)
    [view] = [t for t in transport.private_texts("p1") if t.startswith("Your view")]
    assert view.startswith(f"Your view of match #{match_id}:\n")
    assert "{" not in view and '"' not in view
    assert not [t for t in transport.private_texts("p2") if t.startswith("Your view")]


async def test_a_closed_dm_for_a_private_view_is_reported_without_its_content(store, clock):
    transport = RecordingTransport(fail_private={"p1"})
    host = Host(store, transport, now=clock, heartbeat=0)
    await play_to_a_private_hand(host)
    said = [s.text for s in room(transport)]
    assert "Alice (p1): I could not send you a private message; open your DMs to this bot." in said
    assert not [s for s in transport.sent if s.op == "private picture"]


async def test_during_a_memorize_window_the_announcement_stays_apart_from_the_board_that_vanishes(host, transport):
    from geniusbot.games import Event

    match_id = await start(host, "tiles", clock="30s")
    live = host.matches[match_id]
    assert live.host["window"]["kind"] == "memorize"
    transport.clear()
    async with live.lock:
        await host.announcer.report(
            live,
            host.now(),
            [Event("A public announcement."), Event.of(say("For {seat} only.", seat=Seat("p2")), frozenset({"p2"}))],
        )
    said = room(transport)
    assert [(s.op, s.text) for s in said[:1]] == [("post", "A public announcement.")]
    [picture] = [s for s in said if s.op == "picture"]
    assert "A public announcement." not in picture.text
    assert transport.private_texts("p2") == ["For Bob only."]  # named, and still for p2 alone
    deleted_later = {t.payload["message_id"] for t in await host.store.timers(match_id) if t.kind == "delete"}
    assert picture.message_id in deleted_later and said[0].message_id not in deleted_later


@pytest.mark.parametrize(
    ("outcome", "reason", "said"),
    [
        (Outcome("p1", Termination.RESIGNATION, "p2 resigned", "; p1 wins"), "p2 resigned; p1 wins.", "p2 resigned."),
        (
            Outcome("p1", Termination.LINE, "p1 (black) makes five in a row, G8 to K8", ", and wins"),
            "p1 (black) makes five in a row, G8 to K8, and wins.",
            "p1 (black) makes five in a row, G8 to K8.",
        ),
        (
            Outcome("p1", Termination.LINE, "p1 (red) has four in a row (E5 E6 E7 E8)", "; p1 wins"),
            "p1 (red) has four in a row (E5 E6 E7 E8); p1 wins.",
            "p1 (red) has four in a row (E5 E6 E7 E8).",
        ),
        (
            Outcome(
                "p2",
                Termination.LINE,
                "Both players have four in a row after p1's move; the mover loses",
                ", so p2 (blue) wins",
            ),
            "Both players have four in a row after p1's move; the mover loses, so p2 (blue) wins.",
            "Both players have four in a row after p1's move; the mover loses.",
        ),
        (
            Outcome("p1", Termination.KNOCKOUT, "p2 (blue) has had 10 stones knocked off", "; p1 (red) wins"),
            "p2 (blue) has had 10 stones knocked off; p1 (red) wins.",
            "p2 (blue) has had 10 stones knocked off.",
        ),
        # A reason that is only the verdict (saved before outcomes were data), or a draw, stands.
        (Outcome.from_dict({"winner": "p1", "reason": "p1 wins."}), "p1 wins.", "p1 wins."),
        (
            Outcome(None, Termination.FULL_BOARD, "The board is full with no five in a row", default_verdict(None)),
            "The board is full with no five in a row; the game is a draw.",
            "The board is full with no five in a row; the game is a draw.",
        ),
    ],
)
def test_the_result_line_names_the_winner_once(outcome: Outcome | None, reason: str, said: str) -> None:
    # "Result: alice (p1) wins." comes first; the reason after it does not say so again.
    assert outcome is not None and outcome.reason == reason
    assert result_detail(outcome) == said
