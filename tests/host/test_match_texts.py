"""What the host says in the room: the match's heading, command hints, whose turn it is, the
first message of a match.

Real databases and the real host; the transport records.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from tests.host.support import DownStore, FakeTime


@pytest.fixture
def host(store: Store, transport: RecordingTransport, clock: FakeTime) -> Host:
    return Host(store, transport, now=clock, pictures=False, heartbeat=0)


async def start(host: Host, game: str = "tictacfive", **kw) -> int:
    reply = await host.start_match(game, players=[Player("p1", 11, "alice"), Player("p2", 22, "bob")], seed=5, **kw)
    assert reply.ok, reply.message
    return reply.match_id


# ---- the game's name: its rule set only when it has several -----------------------------------


async def test_a_game_with_one_rule_set_is_named_by_its_title_alone(host, transport):
    match_id = await start(host, clock="60s")
    assert transport.room_texts()[0] == "Match #1: Tic-Tac-Five, alice (p1) vs bob (p2). Clock: 60 s a move."
    status = (await host.command(match_id, "status")).message
    assert status.startswith("Match #1: Tic-Tac-Five, live.")


@pytest.mark.parametrize("rule_set", ["classic", "influx", "fate"])
async def test_a_game_with_several_rule_sets_names_the_one_played(host, transport, rule_set):
    match_id = await start(host, "tightwire", variant=rule_set)
    assert transport.room_texts()[0].startswith(f"Match #1: Tightwire ({rule_set}), alice (p1) vs bob (p2).")
    status = (await host.command(match_id, "status")).message
    assert status.startswith(f"Match #1: Tightwire ({rule_set}), live.")


# ---- command hints: the match's number, the command as the transport writes it -----------------


async def test_refused_pause_and_resume_name_the_match_and_the_console_command(host):
    match_id = await start(host)
    assert (await host.command(match_id, "resume")).message == "Match #1 is not paused; it goes on already."
    assert (await host.command(match_id, "pause")).ok
    refused = await host.command(match_id, "pause")
    assert refused.status == "error" and refused.message == "Match #1 is paused already; use resume to go on."


def slash_commands() -> frozenset[str]:
    """The slash commands the bot's cogs register (what Discord users can type after "/")."""
    from discord.ext import commands

    import geniusbot.cogs

    names: set[str] = set()
    for module in pkgutil.iter_modules(geniusbot.cogs.__path__):
        cogs = importlib.import_module(f"geniusbot.cogs.{module.name}")
        for value in vars(cogs).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == cogs.__name__:
                names |= {command.name for command in value.__cog_app_commands__}
    return frozenset(names)


SLASH = slash_commands()


def discord_like(store: Store, clock: FakeTime) -> tuple[Host, RecordingTransport]:
    transport = RecordingTransport(command_prefix="/", commands=SLASH)
    return Host(store, transport, now=clock, pictures=False, heartbeat=0), transport


def test_the_cogs_register_the_host_commands_discord_has_and_no_close_window():
    assert {"pause", "resume", "abort", "resign", "status", "start"} <= SLASH
    assert "close window" not in SLASH and "close" not in SLASH


async def test_on_a_slash_command_transport_the_hints_name_slash_commands(store, clock):
    host, _ = discord_like(store, clock)
    match_id = await start(host, "tiles")
    assert (await host.command(match_id, "pause")).ok
    assert (await host.command(match_id, "pause")).message == "Match #1 is paused already; use /resume to go on."
    # Discord has no command that closes a window: its timer does.
    assert (await host.command(match_id, "close window")).message == (
        "Match #1 is paused; use /resume, and its window closes when its time is up."
    )
    unknown = await host.command(match_id, "undo")
    assert unknown.message == "There is no command 'undo'; use /pause, /resume, /abort, /resign or /status."


async def test_on_the_console_the_hints_name_every_host_command_as_typed(host):
    match_id = await start(host, "tiles")
    assert (await host.command(match_id, "pause")).ok
    assert (
        await host.command(match_id, "close window")
    ).message == "Match #1 is paused; use resume, then close window."
    unknown = await host.command(match_id, "undo")
    assert unknown.message == "There is no command 'undo'; use pause, resume, abort, resign, close window or status."


async def test_every_slash_command_a_hint_names_on_discord_is_one_the_bot_registers(store, clock):
    down = DownStore(store.engine)
    host, transport = discord_like(down, clock)
    said: list[str] = []
    said.append((await host.private_message(33, "create 20 15")).message)  # plays in no match
    match_id = await start(host, "tiles", channel_id=7)
    for name in ("undo", "resume", "close window", "pause", "pause", "close window", "resume", "status"):
        said.append((await host.command(match_id, name)).message)
    down.down = True  # each command's "try again" while the database is away
    for name, seat in (("pause", None), ("close window", None), ("resign", "p1"), ("abort", None)):
        said.append((await host.command(match_id, name, seat=seat)).message)
    assert (await host.command(match_id, "pause")).status == "unavailable"
    down.down = False
    assert (await host.command(match_id, "pause")).ok
    down.down = True
    said.append((await host.command(match_id, "resume")).message)
    down.down = False
    said.append((await host.command(match_id, "resume")).message)
    clock.advance(5)
    said.append((await host.command(match_id, "close window")).message)
    said.append((await host.command(match_id, "close window")).message)  # no window left to close
    said.append((await host.command(match_id, "resign", seat="p2")).message)
    said.append((await host.command(match_id, "abort")).message)
    said += transport.room_texts() + [s.text for s in transport.sent if s.op.startswith("private")]
    named = {m.group(1) for text in said for m in re.finditer(r"(?<![\w/])/(\w+)", text)}
    assert {"resume", "pause", "abort", "resign", "status", "start"} <= named  # the hints were produced
    assert named <= SLASH
    assert "close window" not in "\n".join(said).replace("'close window'", "")


# ---- whose turn it is, timed or not --------------------------------------------------------------


async def test_an_untimed_match_says_whose_turn_it_is_without_clock_figures(host, transport):
    match_id = await start(host, clock="none")
    first_board = transport.room_texts()[-1]
    assert first_board.endswith("\nTo move: alice (p1).")
    transport.clear()
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert (await host.submit(match_id, "p1", "H9")).ok
    assert (await host.submit(match_id, "p1", "J8")).ok
    assert transport.room_texts()[-1].endswith("\nTo move: bob (p2).")
    assert (await host.command(match_id, "pause")).ok
    assert (await host.command(match_id, "resume")).ok
    # The board again, under it whose turn it is.
    assert transport.room_texts()[-2] == "The match goes on."
    assert transport.room_texts()[-1].endswith("\nTo move: bob (p2).")


async def test_an_untimed_move_is_one_picture_captioned_with_the_move_and_whose_turn(store, transport, clock):
    host = Host(store, transport, now=clock, heartbeat=0)
    match_id = await start(host, clock="none")
    transport.clear()
    assert (await host.submit(match_id, "p1", "H8")).ok
    [message] = [s for s in transport.sent if s.op in ("post", "picture")]
    assert message.op == "picture" and message.text == "alice places black on H8.\nTo move: alice (p1)."


async def test_a_finished_untimed_match_keeps_its_result_line_and_no_turn(store, transport, clock):
    host = Host(store, transport, now=clock, heartbeat=0)
    match_id = await start(host, clock="none")
    transport.clear()
    assert (await host.command(match_id, "resign", seat="p2")).ok
    [message] = [s for s in transport.sent if s.op in ("post", "picture")]
    assert message.text.startswith("Result: alice (p1) wins.") and "To move" not in message.text


# ---- the start: one message when the board is a picture ------------------------------------------


async def test_a_match_starts_with_one_picture_captioned_heading_opening_line_and_clock(store, transport, clock):
    host = Host(store, transport, now=clock, heartbeat=0)
    await start(host, clock="60s+5m")
    [message] = [s for s in transport.sent if s.op in ("post", "picture")]
    assert message.op == "picture" and message.png.startswith(b"\x89PNG")
    assert message.text.split("\n") == [
        "Match #1: Tic-Tac-Five, alice (p1) vs bob (p2). Clock: 60 s a move, then a 5:00 reserve.",
        "alice places the three opening stones, black, white, black (a point is written like H8).",
        "To move: alice (p1) 1:00 +5:00.",
    ]


async def test_without_a_picture_the_start_is_heading_opening_line_then_the_text_board(host, transport):
    await start(host, clock="none")
    heading, opening, board = transport.room_texts()
    assert heading == "Match #1: Tic-Tac-Five, alice (p1) vs bob (p2). Clock: none."
    assert opening == "alice places the three opening stones, black, white, black (a point is written like H8)."
    assert " A B C" in board.replace("  ", " ") and board.endswith("\nTo move: alice (p1).")


async def test_a_grid_that_vanishes_leaves_the_heading_standing(store, transport, clock):
    host = Host(store, transport, now=clock, heartbeat=0)
    await start(host, "tiles", clock="none")
    room = [s for s in transport.sent if s.op in ("post", "picture")]
    # The heading is a message of its own, first: only the grid and its board go when it closes.
    assert room[0].op == "post" and room[0].text.startswith("Match #1: Tile Decklaration, alice (p1) vs bob (p2).")
    deleted_later = {row.payload["message_id"] for row in await host.store.timers(1) if row.kind == "delete"}
    assert room[0].message_id not in deleted_later and deleted_later


async def test_the_console_opens_with_the_heading_then_the_saved_board(tmp_path):
    import io
    from datetime import UTC, datetime

    from geniusbot.console import run_console
    from tests.manualtime import ManualTime

    out = io.StringIO()
    await run_console(
        "tictacfive",
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        seed=1,
        boards_dir=tmp_path / "boards",
        stdin=io.StringIO("quit\n"),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
    )
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "Match #1: Tic-Tac-Five, p1 vs p2. Clock: 60 s a move, then a 5:00 reserve.",
        "p1 places the three opening stones, black, white, black (a point is written like H8).",
        "To move: p1 1:00 +5:00.",
    ]
    assert lines[3].startswith("(board saved to ") and lines[4].split() == list("ABCDEFGHIJKLMNO")


# ---- an untimed match speaks of no clocks ------------------------------------------------------


async def test_pausing_an_untimed_match_mentions_no_clocks(host, transport):
    match_id = await start(host, clock="none")
    assert (await host.command(match_id, "pause")).ok
    assert transport.room_texts()[-1] == "The host paused the match."


async def test_pausing_a_timed_match_says_the_clocks_are_stopped(host, transport):
    match_id = await start(host, clock="60s")
    assert (await host.command(match_id, "pause")).ok
    assert transport.room_texts()[-1] == "The host paused the match; the clocks are stopped."


@pytest.mark.parametrize(
    ("control", "said"),
    [
        ("none", "The bot is back after 10:00. To move: alice (p1)."),
        ("60s", "The bot is back after 10:00; the clocks were stopped meanwhile. To move: alice (p1) 1:00."),
    ],
)
async def test_after_an_outage_only_a_timed_match_speaks_of_stopped_clocks(store, clock, control, said):
    first = Host(store, RecordingTransport(), now=clock, pictures=False, heartbeat=0)
    await start(first, clock=control)
    clock.advance(600)
    transport = RecordingTransport()
    second = Host(store, transport, now=clock, pictures=False, heartbeat=0)
    assert len(await second.recover()) == 1
    assert transport.room_texts()[0] == said


# ---- status of an ended match ---------------------------------------------------------------------


async def test_the_status_of_an_aborted_match_names_no_one_to_move_and_no_result(host):
    match_id = await start(host, clock="60s")
    assert (await host.submit(match_id, "p1", "H8")).ok
    assert (await host.command(match_id, "abort")).ok
    status = (await host.command(match_id, "status")).message
    assert status.startswith(f"Match #{match_id}: Tic-Tac-Five, aborted.")
    assert "To move" not in status
    assert status.endswith("Result: none; the host aborted it.")


def test_every_slash_command_a_command_word_hint_names_is_one_the_bot_registers():
    from geniusbot.host.chatter import COMMAND_HINTS, command_hint

    said = [command_hint(word, "/") or "" for word in COMMAND_HINTS]
    named = {m.group(1) for text in said for m in re.finditer(r"(?<![\w/])/(\w+)", text)}
    assert named == set(COMMAND_HINTS) - {"help"} and named <= SLASH
