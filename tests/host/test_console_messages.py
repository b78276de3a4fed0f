"""The console's messages across its runs: ids no two runs share (the store keeps them, a
deletion may come due in a later run), a memory grid's window resumed with its grid; and what a
player reads first (issue 25, finding 13): plain text, a return that names no bot, why a window
closed, help that names the seat to move and offers no move once the match is over, the winner
said once, and a practice opponent's seat named one way in a view."""

from __future__ import annotations

import io
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from geniusbot.console import practice, run_console
from geniusbot.console.transport import ConsoleTransport
from geniusbot.host.deadlines import HEARTBEAT_TIMER
from geniusbot.host.hints import OVER_HELP
from geniusbot.host.match import Host
from geniusbot.storage import Store
from tests.host.support import FakeTime
from tests.manualtime import ManualTime

T0 = datetime(2027, 1, 1, tzinfo=UTC)
LEGEND = "R red, B blue, G green; * the black centre D4."


class Typist(io.StringIO):
    """Lines typed after a pause, as a person types them: the timers due meanwhile fire first
    (the first line waits, up to 10 s, until ``out`` holds ``wait_for``)."""

    def __init__(self, text: str, out: io.StringIO, wait_for: str = "") -> None:
        super().__init__(text)
        self.watched, self.wait_for = out, wait_for

    def readline(self, size: int | None = -1) -> str:
        deadline = time.monotonic() + 10
        while self.wait_for and self.wait_for not in self.watched.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.wait_for = ""
        return super().readline()


async def play(tmp_path: Path, lines: list[str], game: str, *, after: float = 0, wait_for: str = "", **kw) -> str:
    out = io.StringIO()
    await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=kw.pop("seed", 1),
        stdin=Typist("".join(f"{line}\n" for line in lines), out, wait_for),
        out=out,
        time_source=ManualTime(T0 + timedelta(seconds=after)),
        **kw,
    )
    return out.getvalue()


async def test_two_runs_never_hand_out_the_same_message_id(tmp_path):
    first, second = ConsoleTransport(io.StringIO(), None), ConsoleTransport(io.StringIO(), None)
    ids = [await first.post(None, "a") for _ in range(50)]
    ids += [await second.post(None, "b") for _ in range(50)]
    assert len(set(ids)) == 100 and ids == sorted(ids)


async def test_a_deletion_left_by_one_match_is_its_own_and_names_no_message_of_a_later_run(tmp_path):
    await play(tmp_path, ["quit"], "tiles")  # the grid is on show; its boards go when the window closes
    # Another match's console, on the same file, after the window's time: the deletion is not its own.
    other = await play(tmp_path, ["p1: H8", "status", "quit"], "tictacfive", after=60, new=True)
    assert "(deleted: " not in other, other
    later = await play(tmp_path, ["status", "quit"], "tiles", after=120)
    gone = [line for line in later.splitlines() if line.startswith("(deleted: ")]
    assert gone and set(gone) == {"(deleted: a message from an earlier run)"}, later


async def test_a_resumed_memory_window_shows_its_grid_again_and_hides_it_when_it_closes(tmp_path):
    await play(tmp_path, ["quit"], "tiles")
    resumed = await play(tmp_path, ["close window", "quit"], "tiles", after=5)
    back, _, after = resumed.partition("Match #1 is back after 0:05")
    assert after and LEGEND in after.partition("Memorizing is over: the grid is hidden.")[0], resumed
    # Its 30 s are wall time (the grid was on show while the console was away): 25 s are left.
    assert "Memorize the grid: it is hidden in 25 s." in after
    assert "(deleted: message " not in resumed
    gone = [line for line in after.splitlines() if line.startswith("(deleted: ")]
    assert "(deleted: the message 'Memorize the grid: it is hidden in 25 s.')" in gone
    assert "(deleted: a message from an earlier run)" in gone


async def test_a_resumed_match_shows_its_board_and_board_prints_it_again(tmp_path):
    await play(tmp_path, ["p1: H8", "p1: H9", "quit"], "tictacfive")
    resumed = await play(tmp_path, ["board", "help", "quit"], "tictacfive", after=5)
    back, _, after = resumed.partition("Match #1 is back after 0:05; the clocks were stopped meanwhile.\n")
    assert back.startswith("Resuming match #1") and after and "The bot" not in resumed, resumed  # there is no bot
    board = "    A B C D E F G H I J K L M N O"
    # Once as it resumes, with its clock line under it, and once more for 'board'.
    assert after.count(board) == 2 * 2, resumed  # the column letters above and below the board
    assert after.count("last move H9 | to move: p1") == 2, resumed
    assert "I did not understand" not in after and "or a command: status, board, rules," in after


async def test_a_paused_match_is_resumed_with_its_board_and_how_to_go_on(tmp_path):
    await play(tmp_path, ["p1: H8", "pause", "quit"], "tictacfive")
    resumed = await play(tmp_path, ["resume", "quit"], "tictacfive", after=5)
    head, _, after_resume = resumed.partition("The match goes on.")
    assert "last move H8" in head and "The match is paused: type resume to go on." in head, resumed
    assert "last move H8 | to move: p1" in after_resume, resumed


async def test_options_given_on_resume_are_said_to_be_left_out(tmp_path):
    await play(tmp_path, ["quit"], "tictacfive")
    resumed = await play(tmp_path, ["status", "quit"], "tictacfive", clock="10s", for_new=["--level hard"])
    assert (
        "Match #1 goes on as it was set up, so --clock 10s, --seed 1 and --level hard are left out; "
        "add --new to start a match with them." in resumed
    ), resumed
    assert "Clocks: p1 1:00 +5:00" in resumed  # its own clock, not 10 s
    quiet = await play(tmp_path, ["quit"], "tictacfive", seed=None)
    assert "left out" not in quiet


async def test_the_console_prints_plain_text_says_the_winner_once_and_numbers_pictures_to_sort(tmp_path):
    out = await play(tmp_path, ["p1: first", "resign p1", "quit"], "tightwire", new=True)
    assert "such as 'draw " in out and "`" not in out, out
    resigned = await play(tmp_path, ["resign p1", "quit"], "tiles", new=True)
    assert "Result: p1 resigned; p2 wins the task." in resigned, resigned
    transport = ConsoleTransport(io.StringIO(), tmp_path / "boards")
    for _ in range(12):
        await transport.post_picture(None, b"png", filename="match2.png")
    names = [p.name for p in sorted((tmp_path / "boards").iterdir())]
    assert names[:2] == ["match2-0001.png", "match2-0002.png"] and names[-1] == "match2-0012.png"


async def console_host(tmp_path: Path, out: io.StringIO, time: FakeTime, game: str, **kw) -> tuple[Host, int]:
    """A match hosted as the console hosts it (its transport, its text boards, its players), on
    a clock the test moves: the timers are delivered as the dispatcher delivers them."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}")
    host = Host(store, ConsoleTransport(out, None), now=time, text_boards=True, adopt=False, heartbeat=0)
    bot = kw.pop("bot", None)
    reply = await host.start_match(game, seed=5, players=practice.players(bot), practice=practice.practice(bot), **kw)
    assert reply.ok, reply.message
    assert reply.match_id is not None
    return host, reply.match_id


async def fire_due(host: Host, clock: FakeTime) -> None:
    for timer in await host.store.due_timers(datetime.fromtimestamp(clock.t, UTC)):
        await host.on_timer(timer)
        await host.store.delete_timer(timer.id)


async def test_a_window_closed_by_hand_says_so_and_one_whose_time_ran_out_says_that(tmp_path):
    by_hand = await play(tmp_path, ["close window", "quit"], "tiles")
    said, _, after = by_hand.partition("The window was closed by hand before its time was up.\n")
    assert said and after.startswith("Memorizing is over: the grid is hidden.\n"), by_hand
    assert "Time is up" not in by_hand
    out, clock = io.StringIO(), FakeTime()
    host, _ = await console_host(tmp_path, out, clock, "tiles")
    clock.advance(30)
    await fire_due(host, clock)
    assert "\nTime is up.\nMemorizing is over: the grid is hidden.\n" in out.getvalue(), out.getvalue()
    assert "by hand" not in out.getvalue()
    await host.store.close()


async def test_a_practice_match_names_the_opponents_seat_one_way_in_a_view(tmp_path):
    # The bans of All Hands On Deck's 4th play (Tile Decklaration again): the board says who
    # bans next as the events say who banned, by the name the match gives the seat.
    out, clock = io.StringIO(), FakeTime()
    host, match_id = await console_host(tmp_path, out, clock, "allhands", bot=("p2", "normal"), clock="30s")
    for _ in range(80):  # plays 1-3 are decided on time (the seats send nothing)
        game = host.matches[match_id].game
        if game.play_no == 4 and game.phase == "ban":
            break
        clock.advance(31)
        await fire_due(host, clock)
    assert game.play_no == 4 and game.phase == "ban"
    named = {"p1": "p1", "p2": "bot"}
    while game.phase == "ban":  # four bans, in turn
        banner, anomaly, mark = game.to_move()[0], game.pool[0], len(out.getvalue())
        assert (await host.submit(match_id, banner, f"ban {anomaly}")).ok
        assert f"{named[banner]} bans {anomaly}" in out.getvalue()[mark:]
        game = host.matches[match_id].game
    text = out.getvalue()
    assert re.search(r"^bot bans next \(", text, re.M) and re.search(r"^p1 bans next \(", text, re.M), text
    # Nowhere is the opponent's seat named by its id alone: 'bot', or the host's 'bot (p2)'.
    assert not re.findall(r"(?<![(\w])p2\b", text), [line for line in text.splitlines() if "p2" in line]
    await host.store.close()


async def test_help_names_the_seat_to_move_in_its_private_move_hint(tmp_path):
    # Dueling Decks: p1 has created, so p2 is the seat to move, privately.
    out = await play(tmp_path, ["p1 (dm): create 20 15", "help", "quit"], "decks", clock="none")
    helps = [line for line in out.split("ok p1 (dm): ", 1)[1].splitlines() if line.startswith("Type a move as")]
    assert helps and helps[0].startswith("Type a move as 'p2 (dm): "), out
    assert "'p2 (dm): ...' sends it privately" in helps[0] and "p1 (dm)" not in helps[0], helps


async def test_an_arms_length_match_that_ends_as_it_resumes_gets_no_move_help(tmp_path):
    # p1's 10 s ran out while its console was still alive (its heartbeat at T0 + 20) and its
    # clock's timer had not fired: the match ends as the next run resumes it, with no move to
    # type, so no private one (Arm's Length has none) either.
    await play(tmp_path, ["quit"], "armslength", clock="10s", new=True)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    [beat] = [r for r in await store.timers(None) if r.kind == HEARTBEAT_TIMER]
    await store.replace_timer(
        beat, HEARTBEAT_TIMER, beat.due_at, payload={**beat.payload, "alive_at": T0.timestamp() + 20}
    )
    await store.close()
    out = await play(tmp_path, ["help", "quit"], "armslength", after=25, seed=None)
    assert "ran out of time" in out and "Result: p2 wins" in out, out
    assert out.count(OVER_HELP) == 2 and "(dm)" not in out and "Type a move" not in out, out
