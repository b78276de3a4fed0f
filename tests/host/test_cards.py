"""Boards as cards, in the host against real databases with a recording transport: what a card
carries (the mover's colour, the clocks' deadlines, the caption's lines, the alt text), an edited
room's one card a match (its id kept in the store, so a new host edits the same), its log of the
latest moves, and a memory grid's board posted as a card of its own and deleted with its window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from geniusbot.discord_card import TEXT_LIMIT, card_texts, card_view, described
from geniusbot.host.card import CARD_MESSAGE, LOG_LINES, seat_colour
from geniusbot.host.match import DELETE_TIMER, Host
from geniusbot.host.transport import BoardCard, CardClock, Player, RecordingTransport, Sent
from geniusbot.render.palette import COLOURS
from geniusbot.storage import Store
from tests.host.support import FakeTime

PLAYERS = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]


def rgb(name: str) -> int:
    r, g, b = COLOURS[name]
    return (r << 16) | (g << 8) | b


def cards(transport: RecordingTransport) -> list[Sent]:
    return [s for s in transport.sent if s.op in ("card", "edit card")]


async def start(host: Host, game: str = "tictacfive", **kw: object) -> int:
    reply = await host.start_match(game, players=PLAYERS, seed=5, channel_id=700, **kw)  # type: ignore[arg-type]
    assert reply.ok, reply.message
    return reply.match_id


async def fire_due(host: Host, clock: FakeTime) -> None:
    for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
        await host.on_timer(timer)
        await host.store.delete_timer(timer.id)


def test_the_accent_is_the_movers_colour() -> None:
    view = {"colors": {"p1": "black", "p2": "white"}}
    assert seat_colour(view, ("p1",)) == rgb("black_stone")
    assert seat_colour(view, ("p2",)) == rgb("white_stone")
    assert seat_colour({"colors": {"p1": "orange"}}, ("p1",)) == rgb("orange_piece")
    # Nobody to move: none; colours not settled, or two movers of different colours: the house accent.
    assert seat_colour(view, ()) is None
    assert seat_colour({}, ("p1",)) == seat_colour(view, ("p1", "p2")) == rgb("accent")


async def test_a_card_room_gets_a_card_a_move(store: Store, clock: FakeTime) -> None:
    transport = RecordingTransport(style="card")
    host = Host(store, transport, now=clock)
    match_id = await start(host, clock="60s+5m")
    [first] = cards(transport)
    card = first.card
    assert card is not None and first.op == "card" and first.png and first.png.startswith(b"\x89PNG")
    live = host.matches[match_id]
    assert card.alt == host.announcer.alt_text(live, host.views(live).public) and card.alt.startswith("Match #1")
    assert card.title == "Match #1: Tic-Tac-Five" and card.colour == rgb("accent")
    alice, bob = card.clocks
    assert alice.deadline == live.clock.deadline("p1") and alice.line("T") == "To move: Alice (p1), out of time T."
    assert bob.deadline is None and bob.text == "Bob (p2) 1:00 +5:00"
    assert card.lines[-1].startswith("Alice places the three opening stones") and not card.last_move
    # No line says whose move it is besides the clocks; no picture message besides the card.
    assert not [s for s in transport.sent if s.op == "picture"]
    assert (await host.submit(match_id, "p1", "H8")).ok
    second = cards(transport)[-1]
    assert second.op == "card" and second.message_id != first.message_id
    assert second.card is not None and second.card.last_move == "Last move: H8."


async def test_an_edited_room_edits_one_card_a_match_across_a_restart(store: Store, clock: FakeTime) -> None:
    transport = RecordingTransport(style="edited")
    host = Host(store, transport, now=clock)
    match_id = await start(host)
    for point in ("H8", "H9"):
        assert (await host.submit(match_id, "p1", point)).ok
    posted, *edits = cards(transport)
    assert posted.op == "card" and [e.op for e in edits] == ["edit card", "edit card"]
    assert {e.message_id for e in edits} == {posted.message_id}
    # The store keeps the card's id, the match's row of its kind.
    rows = [r for r in await store.messages(match_id) if r.kind == CARD_MESSAGE]
    assert [r.message_id for r in rows] == [posted.message_id]
    last = edits[-1].card
    assert last is not None and last.log_heading == "Latest moves:" and len(last.log) == 3
    assert last.log[0].startswith("Match #1: Tic-Tac-Five, Alice (p1) vs Bob (p2).")
    # A new host on the same store edits the same card.
    again = RecordingTransport(style="edited")
    host2 = Host(store, again, now=clock)
    await host2.recover()
    assert (await host2.submit(match_id, "p1", "I8")).ok
    assert [(s.op, s.message_id) for s in cards(again)] == [("edit card", posted.message_id)]


async def test_an_edited_cards_log_keeps_the_latest_moves(store: Store, clock: FakeTime) -> None:
    transport = RecordingTransport(style="edited")
    host = Host(store, transport, now=clock)
    match_id = await start(host, "armslength")
    for _ in range(LOG_LINES + 2):
        live = host.matches[match_id]
        seat = live.game.to_move()[0]
        move = next(iter(live.game.legal_moves(seat)))
        assert (await host.submit(match_id, seat, move.text())).ok
    last = cards(transport)[-1].card
    assert last is not None and len(last.log) == LOG_LINES


async def test_a_memory_grid_is_a_card_of_its_own_deleted_with_its_window(store: Store, clock: FakeTime) -> None:
    transport = RecordingTransport(style="edited")
    host = Host(store, transport, now=clock)
    match_id = await start(host, "tiles", clock="30s")
    [grid] = cards(transport)
    assert grid.op == "card" and grid.card is not None and grid.card.colour is None
    timers = {t.payload["message_id"] for t in await store.timers(match_id) if t.kind == DELETE_TIMER}
    assert grid.message_id in timers
    # It is no match's lasting card: the store keeps no card row for it.
    assert not [r for r in await store.messages(match_id) if r.kind == CARD_MESSAGE]
    clock.advance(30)
    await fire_due(host, clock)
    assert grid.message_id in {s.message_id for s in transport.sent if s.op == "delete"}
    lasting = cards(transport)[-1]
    assert lasting.op == "card" and lasting.message_id != grid.message_id
    assert not [s for s in cards(transport) if s.op == "edit card" and s.message_id == grid.message_id]


def test_a_card_keeps_within_discords_text_and_description_limits() -> None:
    long_log = tuple(f"move {n} " + "x" * 300 for n in range(30))
    card = BoardCard(
        match_id=1,
        title="Match #1: Tic-Tac-Five",
        png=b"\x89PNG",
        filename="match1.png",
        alt="a" * 2000,
        lines=("line",),
        clocks=(CardClock("Alice (p1) 1:00", 1_700_000_000.4, ("To move: Alice (p1), out of time ", ".")),),
        log=long_log,
        log_heading="Latest moves:",
    )
    texts = card_texts(card)
    assert sum(len(t) for t in texts) <= TEXT_LIMIT
    assert "To move: Alice (p1), out of time <t:1700000000:R>." in texts
    # The log gave way from its oldest line; the newest is there.
    assert "move 29" in texts[-1] and "move 0 " not in texts[-1]
    assert len(described(card.alt) or "") == 1024
    view, file = card_view(card, "match1-m3.png")
    [container] = view.children
    payload = container.to_component_dict()
    assert payload["components"][1]["items"][0]["media"]["url"] == "attachment://match1-m3.png"
    assert file.filename == "match1-m3.png" and file.description == described(card.alt)


@pytest.mark.parametrize("style", ["message", "card", "edited"])
async def test_a_text_board_game_shows_its_text_board_in_every_style(store: Store, clock: FakeTime, style: str) -> None:
    transport = RecordingTransport(style=style)
    host = Host(store, transport, now=clock, pictures=False)
    await start(host)
    assert not cards(transport) and " A B C" in transport.room_texts()[-1].replace("  ", " ")
