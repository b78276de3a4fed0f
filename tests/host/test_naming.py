"""Game texts name the players on the way out: ``legacy_name_seats`` (for sentences stored before
messages), then the host and its store.

The games write seat ids ("p1 places black on H8."); the room, a DM, a board caption and
``status`` read the players' names ("Alice places black on H8."), while the log, the stored result
and the exported record keep the seat ids. The console's players are called p1 and p2, so its
texts stay as the game wrote them.
"""

from __future__ import annotations

import pytest

from geniusbot.host.match import Host
from geniusbot.host.naming import legacy_name_seats as name_seats
from geniusbot.host.replay import export_record
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.record import parse_record
from geniusbot.storage import Store
from tests.host.support import FakeTime

NAMES = {"p1": "alice", "p2": "bob"}

# ---- the helper ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("p1 places black on G8.", "alice places black on G8."),
        (
            "The three opening stones are down. p2 now chooses a colour; whoever takes white places the fourth stone.",
            "The three opening stones are down. bob now chooses a colour; whoever takes white places the fourth stone.",
        ),
        (
            "p1 (red) has four in a row (E5 E6 E7 E8); p1 wins.",
            "alice (red) has four in a row (E5 E6 E7 E8); alice wins.",
        ),
        ("Orange (p1) draws C3-C4.", "Orange (alice) draws C3-C4."),
        ("It is p2's move; wait for p2's answer.", "It is bob's move; wait for bob's answer."),
        ("Score: p1 3, p2 0.", "Score: alice 3, bob 0."),
        ("p1-p2", "alice-bob"),
    ],
)
def test_each_whole_word_seat_id_becomes_the_players_name(text, said):
    assert name_seats(text, NAMES) == said


@pytest.mark.parametrize(
    "text",
    [
        "P1 and P2 are squares, not seats.",  # case-sensitive: a coordinate stays
        "p10 p21 xp1 p1x p1_color",  # not whole words
        "No seat here.",
        "",
    ],
)
def test_what_is_no_whole_seat_id_stays(text):
    assert name_seats(text, NAMES) == text


@pytest.mark.parametrize("names", [{"p1": "p1", "p2": "p2"}, {"p1": "", "p2": ""}, {"p1": " ", "p2": "p2"}, {}])
def test_without_real_names_the_text_stays_as_the_game_wrote_it(names):
    text = "p1 places black on H8. p2, choose your colour."
    assert name_seats(text, names) == text


def test_a_seat_without_a_name_keeps_its_id_and_the_other_is_named():
    assert name_seats("p2 calls green for p1.", {"p1": "alice", "p2": "p2"}) == "p2 calls green for alice."


@pytest.mark.parametrize(
    "names",
    [
        {"p1": "sam", "p2": "sam"},
        {"p1": "Sam", "p2": "sam "},  # the same to a reader
    ],
)
def test_a_shared_name_falls_back_to_the_label_for_both(names):
    said = name_seats("p1 places black on H8; p2 takes white.", names)
    first, second = (f"{names[s].strip()} ({s})" for s in ("p1", "p2"))
    assert said == f"{first} places black on H8; {second} takes white."


@pytest.mark.parametrize("name", ["p2", "P2", "p2 fan"])
def test_a_name_that_reads_as_the_other_seat_falls_back_to_the_label_for_both(name):
    said = name_seats("p1 places black on H8; p2 takes white.", {"p1": name, "p2": "bob"})
    assert said == f"{name} (p1) places black on H8; bob (p2) takes white."


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # What the player typed, quoted back by a refusal, is not the host's to change.
        ("'p1: H8' is not a point; write a column letter A-O.", "'p1: H8' is not a point; write a column letter A-O."),
        ('"it\'s p2" is not a move.', '"it\'s p2" is not a move.'),
        (
            "p2 holds Turn Order: write `second p1` to let p1 move first.",
            "bob holds Turn Order: write `second p1` to let alice move first.",
        ),
        # An apostrophe is no quote: both seats are named.
        ("It is p1's move; on p2's turn you may snipe.", "It is alice's move; on bob's turn you may snipe."),
    ],
)
def test_a_quotation_stays_as_written(text, said):
    assert name_seats(text, NAMES) == said


def test_a_name_is_put_in_once_and_never_read_again():
    # p1's name holds its own seat id: not ambiguous, and not replaced a second time.
    assert name_seats("p1 wins.", {"p1": "p1 ace", "p2": "bob"}) == "p1 ace wins."
    # Characters a pattern would read specially go in as they are.
    assert name_seats("p2 wins.", {"p1": "alice", "p2": r"\1 (b$)"}) == r"\1 (b$) wins."


# ---- the host -----------------------------------------------------------------------------------


async def play_opening(store: Store, transport: RecordingTransport, clock: FakeTime, players, **kw) -> tuple[Host, int]:
    """Start Tic-Tac-Five (text boards) and place the three opening stones; the room then asks p2."""
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0, **kw)
    reply = await host.start_match("tictacfive", players=players, seed=5, clock="none")
    assert reply.ok, reply.message
    for point in ("H8", "H9", "I8"):
        assert (await host.submit(reply.match_id, "p1", point)).ok
    return host, reply.match_id


async def test_a_named_match_speaks_of_the_players_and_stores_the_seats(store, transport, clock):
    host, match_id = await play_opening(store, transport, clock, [Player("p1", 11, "alice"), Player("p2", 22, "bob")])
    said = transport.room_texts()
    assert "alice places black on H8." in said
    assert any(t.startswith("The three opening stones are down. bob now chooses a colour;") for t in said)
    assert not any("p1 places" in t or "p2," in t for t in said)
    # A refusal is the game's reason with the names; its log keeps the seat.
    reply = await host.submit(match_id, "p1", "H10")
    assert reply.message == "It is not your turn; waiting for bob."
    assert transport.room_texts()[-1] == "alice (p1): It is not your turn; waiting for bob."
    assert (await host.store.actions(match_id))[-1].error == "It is not your turn; waiting for p2."
    # What bob typed is quoted back as he typed it, seat id and all.
    reply = await host.submit(match_id, "p2", "p1 wins")
    assert transport.room_texts()[-1] == "bob (p2): 'p1 wins' is not a colour; type black or white."
    # To the end: the result line keeps the host's "alice (p1)", the game's reason is named.
    for seat, text in [
        ("p2", "white"),
        ("p2", "A1"),
        ("p1", "J8"),
        ("p2", "A2"),
        ("p1", "K8"),
        ("p2", "A3"),
        ("p1", "G8"),
    ]:
        assert (await host.submit(match_id, seat, text)).ok
    assert transport.room_texts()[-3:-1] == [
        "alice places black on G8.",
        "alice (black) makes five in a row, G8 to K8, and wins.",
    ]
    assert transport.room_texts()[-1].endswith("Result: alice (p1) wins. alice (black) makes five in a row, G8 to K8.")
    status = await host.command(match_id, "status")
    assert status.message.endswith("Result: alice (p1) wins. alice (black) makes five in a row, G8 to K8.")
    # Stored and exported, the seats stay.
    record = await host.store.get_match(match_id)
    assert record.result.reason == "p1 (black) makes five in a row, G8 to K8, and wins."
    exported = await export_record(host.store, match_id)
    assert "alice" not in exported.replace('[P1 "alice"]', "")
    parsed = parse_record(exported)
    assert parsed.header("Result") == "p1" and [line.seat for line in parsed.lines][:4] == ["p1", "p1", "p1", "p2"]


async def test_the_consoles_players_p1_and_p2_read_the_games_own_words(store, transport, clock):
    # The console seats players named as their seats (geniusbot play).
    host, match_id = await play_opening(store, transport, clock, [Player("p1", None, "p1"), Player("p2", None, "p2")])
    said = transport.room_texts()
    assert "p1 places black on H8." in said
    assert any(t.startswith("The three opening stones are down. p2 now chooses a colour;") for t in said)
    assert (await host.submit(match_id, "p1", "H10")).message == "It is not your turn; waiting for p2."


async def test_players_with_one_name_are_told_apart_by_their_seats(store, transport, clock):
    _host, _match_id = await play_opening(store, transport, clock, [Player("p1", 11, "sam"), Player("p2", 22, "sam")])
    said = transport.room_texts()
    assert "sam (p1) places black on H8." in said
    assert any(t.startswith("The three opening stones are down. sam (p2) now chooses a colour;") for t in said)
    assert not any("sam places" in t for t in said)


async def test_a_name_that_is_the_other_seat_is_told_apart_by_the_seats(store, transport, clock):
    await play_opening(store, transport, clock, [Player("p1", 11, "p2"), Player("p2", 22, "bob")])
    said = transport.room_texts()
    assert "p2 (p1) places black on H8." in said
    assert any(t.startswith("The three opening stones are down. bob (p2) now chooses a colour;") for t in said)


async def test_a_dm_names_the_players_and_goes_to_its_seat_alone(store, transport, clock):
    host = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    reply = await host.start_match(
        "decks", players=[Player("p1", 11, "alice"), Player("p2", 22, "bob")], seed=5, clock="none", channel_id=700
    )
    assert reply.ok, reply.message
    assert (await host.private_message(11, "create 20 15")).ok
    room_before = list(transport.room_texts())
    transport.clear()
    # A second creation is refused by DM, with the game's reason: it waits for bob, by name.
    refused = await host.private_message(11, "create 10")
    assert refused.status == "rejected"
    assert transport.private_texts("p1") == [
        "You have already sent your creations for this phase; the first one stands. Wait for bob."
    ]
    assert transport.private_texts("p2") == [] and transport.room_texts() == []
    assert (await host.store.actions(reply.match_id))[-1].error.endswith("Wait for p2.")
    assert "alice has sent their creations." in room_before
