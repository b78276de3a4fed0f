"""Hosting All Hands On Deck and its tasks through the real host (SQLite and PostgreSQL, an
injected clock, a recording transport): the memory grid is posted for 30 s and deleted by a
durable timer, also across a restart, and nothing else is ever deleted; private submissions
(landmines, card creations and plays, snipes, All-In answers) come by DM, are acknowledged
privately and are refused in the room with the game's reason. See ``docs/allhands-hosting.md``."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from geniusbot.games.allhands.tiles import grid_text
from geniusbot.host.match import DELETE_TIMER, WINDOW_TIMER, Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.support import T0, FakeTime

ROOM = 700
PLAYERS = [Player("p1", 11, "Alice"), Player("p2", 22, "Bob")]


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False, heartbeat=0)


async def fire_due(host: Host, clock: FakeTime) -> int:
    """Deliver due timers the way the dispatcher does: callback, then delete the row."""
    fired = 0
    for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
        await host.on_timer(timer)
        await host.store.delete_timer(timer.id)
        fired += 1
    return fired


async def start(host: Host, game: str, *, seed: int = 5, clock: str = "30s", **options: str) -> int:
    reply = await host.start_match(game, players=PLAYERS, seed=seed, options=options, clock=clock, channel_id=ROOM)
    assert reply.ok, reply.message
    return reply.match_id


def grid_messages(transport: RecordingTransport) -> list[int]:
    """The ids of the room messages that show the memory grid (its text, or a board during it)."""
    return [s.message_id for s in transport.sent if s.op in ("post", "picture") and _shows_grid(s.text)]


_BOARD_ROW = re.compile(r"^ ?7( +[A-Z]){7}$", re.MULTILINE)
_MEMORIZE = re.compile(r"^Memorize the grid", re.MULTILINE)


def _shows_grid(text: str) -> bool:
    # The reveal's own text or a board captioned during it, a text board with coloured squares
    # (its top row all letters; the grid kept after the task is not the memory grid on show), or
    # a JSON board with a grid.
    kept = text.startswith("The grid as it was:")
    return bool(_MEMORIZE.search(text) or (_BOARD_ROW.search(text) and not kept)) or '"grid": {"' in text


def deleted(transport: RecordingTransport) -> set[int]:
    return {s.message_id for s in transport.sent if s.op == "delete"}


def posted_during(transport: RecordingTransport, start: int) -> list[int]:
    return [s.message_id for s in transport.sent[start:] if s.op in ("post", "picture")]


# ---- the memory grid -------------------------------------------------------------------------


async def test_the_grid_and_the_board_showing_it_go_after_30_s_and_nothing_else(host, transport, clock):
    match_id = await start(host, "tiles")
    posted = [s for s in transport.sent if s.op in ("post", "picture")]
    reveal = next(s for s in posted if s.text.startswith("Memorize the grid"))
    game = host.matches[match_id].game
    assert grid_text(game.original) not in reveal.text  # the announcement says what to do ...
    # ... and the text board after it shows the grid, once.
    [shown] = [s for s in posted if grid_text(game.original) in s.text]
    assert shown.message_id != reveal.message_id
    timers = {
        t.payload["message_id"]: t.due_at.timestamp()
        for t in await host.store.timers(match_id)
        if t.kind == DELETE_TIMER
    }
    assert {reveal.message_id, shown.message_id} <= set(timers) and set(timers.values()) == {T0 + 30}
    clock.advance(29.9)
    await fire_due(host, clock)
    assert deleted(transport) == set()
    clock.advance(0.1)
    await fire_due(host, clock)
    assert deleted(transport) == set(timers)
    assert await host.store.messages_to_delete() == []
    # The rest of the task deletes nothing more.
    assert (await host.submit(match_id, "p1", "call red")).ok
    clock.advance(31)  # p2 runs out of time: the task ends, the grid is shown for good
    await fire_due(host, clock)
    record = await host.store.get_match(match_id)
    assert record.status == "finished"
    assert deleted(transport) == set(timers)


async def test_boards_of_the_landmine_window_are_not_deleted(host, transport, clock):
    match_id = await start(host, "tiles", anomalies="landmine")
    grid = set(grid_messages(transport))
    clock.advance(30)
    await fire_due(host, clock)
    assert deleted(transport) == grid
    mark = len(transport.sent)
    assert (await host.submit(match_id, "p1", "mines A7 B6 C5 E2 F1", private=True)).ok
    landmine_window = posted_during(transport, mark)
    assert landmine_window  # the room was told p1 sent mines, and shown the board
    clock.advance(30)  # p2 sends none: the landmine window closes
    await fire_due(host, clock)
    assert (await host.store.get_match(match_id)).state["state"]["phase"] == "call"
    assert deleted(transport) == grid
    assert not [t for t in await host.store.timers(match_id) if t.kind == DELETE_TIMER]


def boards_after_the_grid(transport: RecordingTransport) -> list[tuple[str, str]]:
    """The picture posted right after each "Memorize the grid" line: (that line, its caption)."""
    posted = [s for s in transport.sent if s.op in ("post", "picture")]
    return [
        (before.text.splitlines()[0], after.text)
        for before, after in zip(posted, posted[1:])
        if before.text.startswith("Memorize the grid") and after.op == "picture"
    ]


@pytest.mark.parametrize("anomalies", ["", "landmine", "implode"])
async def test_the_board_showing_the_grid_says_to_memorize_it_and_for_how_long(store, transport, clock, anomalies):
    host = Host(store, transport, now=clock, heartbeat=0)  # pictures on
    await start(host, "tiles", anomalies=anomalies)
    [(said, caption)] = boards_after_the_grid(transport)
    assert said == "Memorize the grid: it is shown for 30 seconds, then hidden for good. No notes!"
    # The line above says what is going on and how long, so the room says it once: the picture
    # under it has no caption (no mines, no marks, no turn, no second memorize line).
    assert caption == ""
    assert [s.text for s in transport.sent if "Memorize" in s.text] == [said]


async def test_the_board_showing_the_grid_in_the_final_match_says_the_time_left(store, transport, clock):
    host = Host(store, transport, now=clock, heartbeat=0)
    match_id = await start(host, "allhands", items="p1 all-in override; p2 all-in", first="p1")
    assert boards_after_the_grid(transport) == []
    clock.advance(4)  # the selection takes its time; the grid's 30 s start when it is shown
    await select(host, match_id)
    [(said, caption)] = boards_after_the_grid(transport)
    assert said == "Memorize the grid: it is shown for 30 seconds, then hidden for good. No notes!"
    assert caption == ""  # the line above has said it
    assert [s.text for s in transport.sent if "Memorize" in s.text] == [said]
    clock.advance(30)
    await fire_due(host, clock)
    # Once the grid is hidden the board says whose turn it is again.
    last = [s for s in transport.sent if s.op == "picture"][-1]
    assert "Memorize" not in last.text and "To move:" in last.text


async def test_a_restart_between_posting_and_deleting_still_deletes_the_grid(store, clock):
    first = RecordingTransport()
    a = Host(store, first, now=clock, pictures=False)
    await a.recover()
    match_id = await start(a, "tiles")
    grid = set(grid_messages(first))
    assert grid
    clock.advance(10)
    await fire_due(a, clock)  # a heartbeat: the bot was alive at T0 + 10
    # The bot goes down at T0 + 12 and is back at T0 + 25: a new host over the same database.
    clock.advance(15)
    second = RecordingTransport()
    b = Host(store, second, now=clock, pictures=False)
    assert await b.recover() == [match_id]
    clock.advance(5)  # T0 + 30: the grid's 30 s are over (the outage does not lengthen its display)
    await fire_due(b, clock)
    assert {s.message_id for s in second.sent if s.op == "delete"} == grid
    assert await store.messages_to_delete() == []
    # The window ends with the grid, at its 30 s of wall time: play goes on from there.
    assert (await store.get_match(match_id)).state["state"]["phase"] == "call"
    assert {s.message_id for s in second.sent if s.op == "delete"} == grid


async def test_a_grid_whose_time_ran_out_while_the_bot_was_down_is_deleted_on_its_return(store, clock):
    a = Host(store, RecordingTransport(), now=clock, pictures=False)
    await a.recover()
    match_id = await start(a, "allhands", items="p1 clock")
    grid = set(grid_messages(a.transport))
    assert grid
    clock.advance(600)  # down for ten minutes, across the deletion
    b = Host(store, RecordingTransport(), now=clock, pictures=False)
    await b.recover()
    await fire_due(b, clock)
    assert {s.message_id for s in b.transport.sent if s.op == "delete"} == grid
    assert await store.messages_to_delete() == []
    assert (await store.get_match(match_id)).state["state"]["phase"] == "task"


async def select(host: Host, match_id: int) -> None:
    """Make the play's selection: pass on the Override and All-In, ban the first open anomaly."""
    game = host.matches[match_id].game
    while not game.is_over and game.phase != "task":
        movers = game.to_move()
        if game.phase == "items":
            for seat in movers:
                assert (await host.submit(match_id, seat, "pass", private=True)).ok
        elif game.phase == "override":
            assert (await host.submit(match_id, movers[0], "pass")).ok
        else:
            assert (await host.submit(match_id, movers[0], f"ban {game.pool[0]}")).ok
        game = host.matches[match_id].game


async def test_a_tile_decklaration_inside_the_final_match_vanishes_too(host, transport, clock):
    match_id = await start(host, "allhands", items="p1 all-in override; p2 all-in", first="p1")
    assert grid_messages(transport) == []  # the All-In question comes first
    await select(host, match_id)
    first_grid = set(grid_messages(transport))
    assert first_grid
    clock.advance(30)
    await fire_due(host, clock)
    assert deleted(transport) == first_grid
    # Plays 1-3 are decided on time (in Dueling Decks both seats submit nothing each phase).
    for _ in range(80):
        game = host.matches[match_id].game
        if game.play_no == 4:
            break
        await select(host, match_id)
        clock.advance(31)
        await fire_due(host, clock)
    game = host.matches[match_id].game
    assert game.play_no == 4 and game.current_task == "tiles" and game.phase != "task"
    assert deleted(transport) == first_grid
    # Play 4 (Tile Decklaration again) opens with its grid once its selection is made.
    await select(host, match_id)
    game = host.matches[match_id].game
    assert game.task.phase == "memorize"
    second_grid = set(grid_messages(transport)) - first_grid
    assert second_grid
    due = {
        t.payload["message_id"]: t.due_at.timestamp()
        for t in await host.store.timers(match_id)
        if t.kind == DELETE_TIMER
    }
    assert set(due) == second_grid and set(due.values()) == {clock.t + 30}
    clock.advance(30)
    await fire_due(host, clock)
    assert deleted(transport) == first_grid | second_grid


# ---- private submissions -----------------------------------------------------------------------


def room_since(transport: RecordingTransport, mark: int) -> list[str]:
    return [s.text for s in transport.sent[mark:] if s.op in ("post", "picture")]


def private_since(transport: RecordingTransport, mark: int, seat: str) -> list[str]:
    return [s.text for s in transport.sent[mark:] if s.op == "private" and s.to == seat]


async def test_card_creations_and_plays_come_by_dm_and_stay_sealed_until_both_are_in(host, transport):
    match_id = await start(host, "decks", clock="none")
    before = (await host.store.get_match(match_id)).state
    mark = len(transport.sent)
    # Typed in the room, a sealed move is refused there with the game's reason and changes nothing.
    reply = await host.room_message(ROOM, 11, "create 20 15")
    assert reply.status == "rejected" and "direct message" in reply.message
    assert reply.belongs_private is True  # where it belongs, as data: privately
    assert room_since(transport, mark) == [f"Alice (p1): {reply.message}"]
    assert (await host.store.get_match(match_id)).state == before
    refused = (await host.store.actions(match_id))[-1]
    assert (refused.accepted, refused.private, refused.text) == (False, False, "create 20 15")

    mark = len(transport.sent)
    assert (await host.private_message(11, "create 20 15")).ok
    assert "Taken: create 20 15." in private_since(transport, mark, "p1")
    assert private_since(transport, mark, "p2") == []
    said = room_since(transport, mark)
    assert "Alice has sent their creations." in said  # the room learns that, never what
    assert not any("20" in text and "15" in text for text in said)

    mark = len(transport.sent)
    assert (await host.private_message(22, "create 10")).ok
    said = "\n".join(room_since(transport, mark))
    assert "20" in said and "15" in said and "10" in said  # creations are public once both are in

    mark = len(transport.sent)
    assert (await host.private_message(11, "play 15")).ok
    assert "Taken: play 15." in private_since(transport, mark, "p1")
    assert not any("play 15" in text for text in room_since(transport, mark))
    mark = len(transport.sent)
    assert (await host.private_message(22, "play 10")).ok
    assert any(text.startswith("Round 1") for text in room_since(transport, mark))
    log = [(a.seat, a.text, a.private) for a in await host.store.actions(match_id, accepted_only=True) if a.seat]
    assert log == [
        ("p1", "create 20 15", True),
        ("p2", "create 10", True),
        ("p1", "play 15", True),
        ("p2", "play 10", True),
    ]


async def test_a_snipe_comes_by_dm_and_a_public_one_is_refused_with_the_reason(host, transport):
    match_id = await start(host, "swabbing", clock="none", anomalies="snipe")
    reply = await host.room_message(ROOM, 22, "snipe D4")
    assert reply.status == "rejected" and "direct message" in reply.message
    assert reply.belongs_private is True
    mark = len(transport.sent)
    assert (await host.private_message(22, "snipe E5")).ok
    assert "Taken: snipe E5." in private_since(transport, mark, "p2")
    assert not any("E5" in text for text in room_since(transport, mark) if not text.startswith("{"))
    assert set(host.matches[match_id].game.view(None)["board"].values()) == {"white"}
    mark = len(transport.sent)
    assert (await host.private_message(11, "C3 C4")).ok
    assert any("E5" in text and "snip" in text.lower() for text in room_since(transport, mark))  # played together
    board = host.matches[match_id].game.view(None)["board"]
    assert board["C3"] == board["C4"] == board["E5"] == "black"


async def test_landmines_come_by_dm_and_typed_in_the_room_are_refused(host, transport, clock):
    match_id = await start(host, "tiles", anomalies="landmine")
    clock.advance(30)
    await fire_due(host, clock)
    reply = await host.room_message(ROOM, 11, "mines A7 B6 C5 E2 F1")
    assert reply.status == "rejected" and "direct message" in reply.message
    mark = len(transport.sent)
    assert (await host.private_message(11, "mines A7 B6 C5 E2 F1")).ok
    assert "Taken: mines A7 B6 C5 E2 F1." in private_since(transport, mark, "p1")
    assert not any("B6" in text for text in room_since(transport, mark))
    # A public move sent by DM is refused with the reason, privately.
    clock.advance(30)
    await fire_due(host, clock)
    mark = len(transport.sent)
    reply = await host.private_message(11, "call red")
    assert reply.status == "rejected" and "game room" in reply.message
    assert private_since(transport, mark, "p1") == [reply.message] and room_since(transport, mark) == []
    assert host.matches[match_id].game.view(None)["called"] is None


async def test_all_in_answers_are_sealed_whatever_they_are(host, transport):
    # Two matches on one seed: p1 uses All-In in one and passes in the other. Until p2 answers,
    # the two rooms are told exactly the same.
    one = await start(host, "allhands", clock="none", items="p1 all-in; p2 all-in")
    two_reply = await host.start_match(
        "allhands",
        players=[Player("p1", 33, "Alice"), Player("p2", 44, "Bob")],
        seed=5,
        options={"items": "p1 all-in; p2 all-in"},
        clock="none",
        channel_id=701,
    )
    two = two_reply.match_id
    reply = await host.submit(one, "p1", "use all-in")
    assert reply.status == "rejected" and "direct message" in reply.message
    mark = len(transport.sent)
    assert (await host.private_message(11, "use all-in")).ok
    assert (await host.private_message(33, "pass")).ok
    rooms = {
        room: [
            s.text.replace(f"#{one}", "#N").replace(f"#{two}", "#N")
            for s in transport.sent[mark:]
            if s.op in ("post", "picture") and s.room == room
        ]
        for room in (ROOM, 701)
    }
    assert rooms[ROOM] == rooms[701] and rooms[ROOM]
    assert "Taken: use all-in." in private_since(transport, mark, "p1")
    # Once both answers are in, they are shown together.
    assert (await host.private_message(22, "pass")).ok
    assert any("Alice uses All-In" in t for t in room_since(transport, mark))


async def test_a_dm_goes_to_the_only_match_of_the_sender_that_takes_private_moves(host, transport):
    cards = await start(host, "decks", clock="none")
    board = await host.start_match("tictacfive", players=PLAYERS, seed=1, clock="none", channel_id=702)
    assert board.ok
    assert (await host.private_message(11, "create 20")).ok
    assert host.matches[cards].game.view("p1")["sealed"]["cards"] == [20]
    # With two matches that take private moves, the player names one.
    other = await host.start_match(
        "swabbing", players=PLAYERS, seed=1, clock="none", channel_id=703, options={"anomalies": "snipe"}
    )
    reply = await host.private_message(22, "create 5")
    assert reply.status == "error" and f"#{cards}" in reply.message and f"#{other.match_id}" in reply.message
    assert host.matches[cards].game.view("p2")["sealed"] is None
    assert (await host.private_message(22, f"#{cards} create 5")).ok
    assert host.matches[cards].game.view("p2")["phase"] == "play"


# ---- the timer row of a window is never taken by a stale delivery ------------------------------


async def test_a_delivered_timer_replaced_during_its_delivery_leaves_its_replacement(store, clock):
    # The host deletes a clock row that is being delivered (a move came in meanwhile) and adds the
    # memorize window's row, which SQLite may give the same id. The delivery must not delete it.
    from geniusbot.host.timers import TimerDispatcher
    from tests.manualtime import ManualTime

    time = ManualTime(datetime.fromtimestamp(T0, UTC))
    replacement = []

    async def on_timer(timer):
        if timer.kind == "clock":
            await store.delete_timer(timer.id)
            replacement.append(
                await store.add_timer(WINDOW_TIMER, time.now(), match_id=None, payload={"kind": "memorize"})
            )

    dispatcher = TimerDispatcher(store, on_timer, time=time)
    clock_row = await store.add_timer("clock", time.now(), payload={})
    assert (await dispatcher.run_due()).delivered == 1
    if store.dialect == "sqlite":
        assert replacement[0].id == clock_row.id  # the id was reused: the case this guards
    assert [(t.id, t.kind) for t in await store.timers()] == [(replacement[0].id, WINDOW_TIMER)]
    # Delivered in its turn, the replacement goes as any delivered row does.
    assert (await dispatcher.run_due()).delivered == 1
    assert await store.timers() == []


class SlowPictures(RecordingTransport):
    """A transport whose uploads take 5 s of the test's clock (a slow Discord)."""

    def __init__(self, clock: FakeTime) -> None:
        super().__init__()
        self.clock = clock

    async def post_picture(self, room, png, *, filename, text="", alt="", ping=()):
        self.clock.advance(5)
        return await super().post_picture(room, png, filename=filename, text=text, alt=alt, ping=ping)


async def test_a_board_that_took_long_to_post_still_goes_when_the_window_closes(store, clock):
    transport = SlowPictures(clock)
    host = Host(store, transport, now=clock, heartbeat=0)  # pictures on: each upload takes 5 s
    match_id = await start(host, "tiles")
    [board] = [s for s in transport.sent if s.op == "picture"]
    window_due = (await host.store.get_match(match_id)).host["window"]["due"]
    assert window_due == T0 + 30
    due = {
        t.payload["message_id"]: t.due_at.timestamp()
        for t in await host.store.timers(match_id)
        if t.kind == DELETE_TIMER
    }
    assert due[board.message_id] == window_due  # not 5 s later: the upload's time is not added


async def test_the_console_takes_private_lines_and_refuses_them_typed_in_the_open(tmp_path):
    import io

    from geniusbot.console import run_console
    from tests.manualtime import ManualTime

    out = io.StringIO()
    lines = "p2: use all-in\np2 (dm): use all-in\np1 (dm): pass\nquit\n"
    code = await run_console(
        "allhands",
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=1,
        options={"items": "p1 all-in; p2 all-in"},
        clock="none",
        stdin=io.StringIO(lines),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
    )
    text = out.getvalue()
    assert code == 0
    assert "p2: Send this to me by direct message" in text
    assert "ok p2 (dm): use all-in" in text and "ok p1 (dm): pass" in text
    assert "p2 uses All-In: this play is worth 3 points to its winner." in text
    assert "Memorize the grid" in text  # the first play's grid, once both answers are in


async def test_a_pause_does_not_keep_the_grid_up_nor_the_window_open(host, transport, clock):
    match_id = await start(host, "tiles")
    grid = set(grid_messages(transport))
    clock.advance(10)
    assert (await host.command(match_id, "pause")).ok
    clock.advance(20)
    await fire_due(host, clock)
    assert deleted(transport) == grid  # shown its 30 s: gone, paused or not
    clock.advance(100)
    assert (await host.command(match_id, "resume")).ok  # its time is wall time: it closes now (ruling 22)
    assert (await host.store.get_match(match_id)).state["state"]["phase"] == "call"


async def test_a_dueling_decks_play_whose_two_clocks_run_out_shows_no_spent_clock_to_move(host, transport, clock):
    match_id = await start(host, "allhands", items="p1 all-in override; p2 all-in", first="p1")
    for _ in range(20):
        await select(host, match_id)
        game = host.matches[match_id].game
        if game.current_task == "decks":
            break
        clock.advance(31)  # the grid's 30 s, then the Tile Decklaration is decided on time
        await fire_due(host, clock)
    assert game.current_task == "decks" and game.phase == "task" and game.to_move() == ("p1", "p2")
    mark = len(transport.sent)
    clock.advance(31)  # neither sends new cards: both clocks run out at once
    await fire_due(host, clock)
    room = [s.text for s in transport.sent[mark:] if s.op in ("post", "picture")]
    assert any("Alice (p1) ran out of time" in t for t in room) and any("Bob (p2) ran out of time" in t for t in room)
    assert not [t for t in room if "0:00" in t]
    bob = next(i for i, t in enumerate(room) if "Bob (p2) ran out of time" in t)
    assert not [t for t in room[:bob] if "To move:" in t]  # no board between the two timeouts


async def test_a_refusal_of_a_move_sent_to_the_wrong_place_says_where_it_belongs_as_data(host, transport):
    await start(host, "swabbing", clock="none")
    # Deck Swabbing without Snipe takes its moves in the room: a DM is refused, and says so as data.
    reply = await host.private_message(11, "C3 C4")
    assert reply.status == "rejected" and reply.belongs_private is False
    # Any other refusal leaves the field unset.
    other = await host.room_message(ROOM, 11, "Z99")
    assert other.status == "rejected" and other.belongs_private is None


async def test_the_landmine_window_keeps_its_remaining_time_across_a_restart(store, clock):
    # What the seats do in it (send their mines) the bot could not take while it was down.
    a = Host(store, RecordingTransport(), now=clock, pictures=False)
    await a.recover()
    match_id = await start(a, "tiles", anomalies="landmine")
    clock.advance(30)
    await fire_due(a, clock)  # the grid is hidden; the landmine window runs until T0 + 60
    assert (await store.get_match(match_id)).state["state"]["phase"] == "landmines"
    clock.advance(10)
    await fire_due(a, clock)  # a heartbeat: the bot was alive at T0 + 40
    clock.advance(100)
    b = Host(store, RecordingTransport(), now=clock, pictures=False)
    assert await b.recover() == [match_id]
    clock.advance(19)
    await fire_due(b, clock)
    assert (await store.get_match(match_id)).state["state"]["phase"] == "landmines"
    clock.advance(1)
    await fire_due(b, clock)
    assert (await store.get_match(match_id)).state["state"]["phase"] == "call"
