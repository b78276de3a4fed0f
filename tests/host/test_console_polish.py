"""The console as a new user meets it: what `geniusbot play` says and does at each rough edge a
first trial found (rule-set names, --help, quitting, moves after the end, help and rules, timed
windows, private acknowledgements, bad options, the log)."""

from __future__ import annotations

import io
import logging
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot import cli
from geniusbot.cli import main
from geniusbot.console import run_console
from geniusbot.words import Words
from tests.manualtime import ManualTime


async def play(tmp_path: Path, lines: list[str], game: str = "tictacfive", **kw) -> tuple[int, str]:
    out = io.StringIO()
    kw.setdefault("seed", 1)
    code = await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    return code, out.getvalue()


# ---- timed windows ------------------------------------------------------------------------------


async def test_close_window_ends_the_memory_grid_at_once_and_the_export_says_so(tmp_path):
    code, out = await play(
        tmp_path, ["p1: call red", "close window", "p1: call red", "close window", "export", "quit"], "tiles"
    )
    assert code == 0
    before, _, after = out.partition("Memorizing is over: the grid is hidden.")
    assert after, out
    assert "Time is up" not in out  # closed by hand: nobody's time ran out
    assert "p1: The grid is on show: memorize it." in before  # nobody moves while the grid is shown
    assert "ok p1: call red" in after
    assert "Match #1 has no timed phase running, so there is no window to close." in after
    assert "host: close window" in after  # the record carries it, as a record's host line
    # The room said to memorize the grid once; that line and the boards that showed the grid
    # went with it, each named by its first line, not a number.
    assert out.count("Memorize the grid") == 2  # said, then named when deleted
    gone = [line for line in before.splitlines() if line.startswith("(deleted: ")]
    assert sorted(gone) == [
        "(deleted: the message '0 tiles declared.')",
        "(deleted: the message 'Memorize the grid: it is shown for 30 seconds, then hidden for good. No notes!')",
        "(deleted: the message 'the board picture')",
    ], gone
    assert "(message " not in out


async def test_a_sealed_move_is_acknowledged_once(tmp_path):
    _, out = await play(tmp_path, ["p1 (dm): create 20 15", "quit"], "decks", clock="none")
    private = [line for line in out.splitlines() if line.startswith("[to p1 only]")]
    assert "[to p1 only] Taken: create 20 15." in private
    assert not [line for line in private if "Sealed" in line or "sealed" in line.split(":")[0]]


# ---- the log ------------------------------------------------------------------------------------


@pytest.fixture
def launcher(monkeypatch, tmp_path):
    """``geniusbot`` run in-process in an empty directory; the logging it set up is undone after."""
    for name in ("LOG_LEVEL", "DATABASE_URL", "GENIUSBOT_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    root, alembic = logging.getLogger(), logging.getLogger("alembic")
    saved = (list(root.handlers), root.level, alembic.level, getattr(cli.configure_logging, "done", False))
    yield
    for handler in root.handlers[:]:
        if handler not in saved[0]:
            root.removeHandler(handler)
    root.setLevel(saved[1])
    alembic.setLevel(saved[2])
    cli.configure_logging.done = saved[3]


@pytest.mark.parametrize("level, heard", [("INFO", False), ("DEBUG", True)])
def test_migrations_are_quiet_unless_debugging(launcher, tmp_path, caplog, level, heard):
    caplog.set_level(logging.DEBUG)  # whatever reaches the root's handlers is captured
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    assert main(["--log-level", level, "db", "upgrade", "--url", url]) == 0
    said = [r.getMessage() for r in caplog.records if r.name.startswith("alembic")]
    assert any("Running upgrade" in m for m in said) == heard, said
    assert any("Context impl" in m for m in said) == heard, said


# ---- the rule set a name implies ------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, kw, rule_set",
    [
        ("deadlyinflux", {}, "influx"),
        ("threadsoffate", {}, "fate"),
        ("tightwire", {}, "classic"),
        ("tightwire", {"variant": "influx"}, "influx"),
        ("deadlyinflux", {"variant": "influx"}, "influx"),  # a --variant that agrees with the name
    ],
)
async def test_a_rule_sets_own_name_starts_that_rule_set(tmp_path, game, kw, rule_set):
    code, out = await play(tmp_path, ["status", "quit"], game, **kw)
    assert code == 0
    assert f"Match #1: Tightwire ({rule_set})" in out


async def test_a_variant_that_contradicts_the_rule_sets_own_name_starts_nothing(tmp_path):
    # Issue 12: 'play deadlyinflux --variant classic' once played classic; which was meant is unclear.
    code, out = await play(tmp_path, ["status", "quit"], "deadlyinflux", variant="classic")
    assert code == 2 and "Match #1" not in out
    assert out.strip() == (
        "'deadlyinflux' is the rule set 'influx' of tightwire, but --variant asks for 'classic'; "
        "write 'geniusbot play tightwire --variant classic', or leave --variant out."
    )
    assert not (tmp_path / "c.db").exists()


# ---- --help -------------------------------------------------------------------------------------


def test_play_help_lists_every_registered_game_with_its_rule_sets(capsys):
    from geniusbot.games import registry

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    # argparse wraps its lines, after a space or a hyphen ("Tic-Tac-" / "Five"): join them back.
    text = re.sub(r"(?<=\w-) (?=\w)", "", " ".join(capsys.readouterr().out.split()))
    for name, cls in registry().items():
        assert f"{name} ({cls.title}" in text
    assert "tightwire (Tightwire; rule sets classic, influx, fate)" in text


# ---- quitting and the end of a match ----------------------------------------------------------


@pytest.mark.slow
async def test_quitting_a_live_match_says_how_to_resume_it(tmp_path):
    _, out = await play(tmp_path, ["p1: H8", "quit"])
    assert "Leaving match #1; 'geniusbot play tictacfive' with the same --db resumes it." in out


@pytest.mark.parametrize("end", ["resign p2", "abort"])
async def test_quitting_a_finished_or_aborted_match_promises_no_resume(tmp_path, end):
    _, out = await play(tmp_path, ["p1: H8", end, "quit"])
    assert "resumes it" not in out
    assert "Leaving match #1, which is over; 'geniusbot play tictacfive' starts another." in out


@pytest.mark.slow
async def test_a_move_after_the_end_says_the_match_is_over_and_what_to_do(tmp_path):
    _, out = await play(tmp_path, ["p1: H8", "resign p1", "p2: H9", "p1: # good game", "quit"])
    assert (
        "Match #1 is over; no more moves are taken. Type quit to leave, then 'geniusbot play tictacfive' "
        "starts another." in out
    )
    assert out.count("(ignored)") == 1  # table talk is still just table talk


# ---- help and rules -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, example",
    [
        ("tictacfive", "'p1: H8'"),
        ("tightwire", "'p1: draw "),
        ("swabbing", "'p1: "),
        ("decks", "'p1 (dm): create "),
        ("threadsoffate", "'p1: pick "),
    ],
)
async def test_help_shows_a_move_in_the_games_own_notation(tmp_path, game, example):
    _, out = await play(tmp_path, ["help", "quit"], game, clock="none")
    helps = [line for line in out.splitlines() if line.startswith("Type a move as")]
    assert len(helps) == 2 and all(example in line for line in helps), helps
    if game != "tictacfive":
        assert "H8" not in "".join(helps)


async def test_help_during_the_memory_grid_says_how_to_end_it(tmp_path):
    _, out = await play(tmp_path, ["help", "quit"], "tiles")
    assert "No move is taken right now; 'close window' ends the timed phase." in out


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, named", [("tightwire", "Tightwire (classic)"), ("tiles", "Tile Decklaration"), ("decks", "Dueling Decks")]
)
async def test_rules_prints_the_games_summary(tmp_path, game, named):
    from geniusbot.games import get_game

    _, out = await play(tmp_path, ["rules", "quit"], game, clock="none")
    cls = get_game(game)
    first = Words()(cls.summary).replace("**", "").splitlines()[0]
    # The rule set is named only for a game that has several.
    assert f"{named}: {first}" in out


# ---- bad options ----------------------------------------------------------------------------------


async def test_a_bad_clock_is_refused_before_the_database_is_touched(tmp_path):
    code, out = await play(tmp_path, [], clock="banana")
    assert code == 2
    assert out.strip() == (
        "--clock 'banana' is not a time control; write one such as 60s (60 s a move), 60s+5m (then a 5:00 "
        "reserve), 5x60s (five periods of 60 s) or none (no clock)."
    )
    assert not (tmp_path / "c.db").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--clock", "banana"], "--clock 'banana' is not a time control"),
        (["--variant", "speedy"], "Tightwire has no rule set 'speedy'; choose one of: classic, influx, fate."),
        (["--option", "colour=red"], "Tightwire takes no option 'colour'"),
    ],
)
def test_the_play_command_refuses_bad_options_before_making_its_data_directory(
    launcher, tmp_path, capsys, args, message
):
    assert main(["play", "tightwire", *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


@pytest.mark.slow
async def test_help_answers_at_once_when_a_phase_has_millions_of_legal_moves(tmp_path):
    # Landmine: five mines out of 48 tiles, sent by DM, once the grid is hidden.
    _, out = await play(tmp_path, ["close window", "help", "quit"], "tiles", options={"anomalies": "landmine"})
    assert "Type a move as 'p1 (dm): mines " in out


async def test_a_landmine_window_closed_by_hand_says_who_sent_no_mines_not_that_time_ran_out(tmp_path):
    _, out = await play(tmp_path, ["close window", "close window", "quit"], "tiles", options={"anomalies": "landmine"})
    assert "p1 sent no mines before the window closed, so places none." in out
    assert "p2 sent no mines before the window closed, so places none." in out
    assert "Time is up" not in out and "in time" not in out


@pytest.mark.slow
async def test_a_paused_window_stays_open_until_the_match_resumes(tmp_path):
    _, out = await play(tmp_path, ["pause", "close window", "resume", "close window", "quit"], "tiles")
    # The console's commands are named as they are typed there.
    assert "Match #1 is paused; use resume, then close window." in out
    assert out.index("Match #1 is paused; use resume") < out.index("Memorizing is over: the grid is hidden.")


# ---- a database that cannot be reached ----------------------------------------------------------


async def test_an_unreachable_database_is_named_once_with_what_to_do(tmp_path, monkeypatch):
    # A real connection to a port nobody listens on, retried by the store's rule; only the
    # pauses between the tries are taken away, so the test does not wait.
    from geniusbot.storage import Store

    real_open = Store.open.__func__

    async def open_without_pauses(cls, url, **options):
        async def no_pause(_seconds: float) -> None:
            return None

        return await real_open(cls, url, sleep=no_pause, **options)

    monkeypatch.setattr(Store, "open", classmethod(open_without_pauses))
    url = "postgresql+asyncpg://postgres@127.0.0.1:9/test"
    out = io.StringIO()
    code = await run_console("tictacfive", db_url=url, stdin=io.StringIO("quit\n"), out=out)
    text = out.getvalue().strip()
    assert code == 2
    assert text.startswith("The database is unavailable (upgrading the schema failed")
    assert "check that it is running" in text and text.endswith(f"The database was {url!r} (--db).")
    assert text.count("unavailable") == 1 and "cannot be opened" not in text


# ---- --db ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_db_takes_a_plain_file_path_and_the_next_run_resumes_from_it(launcher, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("p1: H8\nquit\n"))
    assert main(["play", "tictacfive", "--db", "games.sqlite3", "--new", "--seed", "1"]) == 0
    assert "ok p1: H8" in capsys.readouterr().out
    assert (tmp_path / "games.sqlite3").is_file()
    monkeypatch.setattr("sys.stdin", io.StringIO("status\nquit\n"))
    assert main(["play", "tictacfive", "--db", str(tmp_path / "games.sqlite3")]) == 0
    said = capsys.readouterr().out
    assert "Resuming match #1 (tictacfive)" in said and "cannot be opened" not in said


# ---- what to do next ----------------------------------------------------------------------------


async def test_a_paused_match_says_the_console_resumes_it_not_some_other_host(tmp_path):
    _, out = await play(tmp_path, ["pause", "p1: H8", "resume", "p1: H8", "quit"])
    paused, _, resumed = out.partition("The match goes on.")
    assert "p1: The match is paused; wait for the host to resume it" in paused
    # Once after the pause, once after the refused move: the person typing is the host.
    assert paused.count("The match is paused: type resume to go on.") == 2
    assert "type resume" not in resumed and "ok p1: H8" in resumed


async def test_a_sealed_move_typed_in_the_room_is_shown_how_to_send_it_privately(tmp_path):
    _, out = await play(tmp_path, ["p1: create 20 15", "p1 (dm): create 20 15", "quit"], "decks", clock="none")
    assert "p1: Send this to me by direct message, not in the game room" in out
    assert "At the console a private move is typed as 'p1 (dm): create 20 15'." in out
    assert out.count("At the console a private move") == 1 and "ok p1 (dm): create 20 15" in out


@pytest.mark.parametrize("end", ["resign p2", "abort"])
async def test_help_after_the_end_names_only_what_still_works(tmp_path, end):
    _, out = await play(tmp_path, ["p1: H8", end, "help", "hello", "quit"])
    after = out.split("ok p1: H8", 1)[1]
    assert "Type a move as" not in after and "pause" not in after
    assert (
        after.count(
            "'status' shows the result, 'board' the last board, 'export' prints the record, 'rules' the rules, and "
            "'quit' leaves."
        )
        == 2
    )


# ---- table talk ---------------------------------------------------------------------------------


@pytest.mark.slow
async def test_table_talk_from_a_seat_is_set_aside_as_in_a_game_room(tmp_path):
    # As in a Discord room: talk gets no refusal, a command's name the command as typed here,
    # and what may be a move attempt (a coordinate, a word of the game or a typo) its answer.
    talk = ["p1: gg", "p2: nice move", "p2: good luck and have fun everyone"]
    _, out = await play(tmp_path, [*talk, "p1: resign", "p2: help", "p2: H8", "status", "quit"])
    assert out.count("(ignored)") == 3
    assert "p1: to resign, use 'resign p1'." in out
    assert "p2: 'rules' gives the rules and the notation; 'status' shows the match." in out
    assert "p2: It is not your turn; waiting for p1." in out
    assert "is not a" not in out and "Result:" not in out  # no refusal of the talk; nobody resigned
    assert "Match #1: Tic-Tac-Five, live." in out
    # While paused, talk is still talk; a move still meets the pause.
    _, out = await play(tmp_path, ["pause", "p2: lol", "p1: H8", "resume", "quit"], new=True)
    assert out.count("(ignored)") == 1 and out.count("The match is paused: type resume to go on.") == 2


@pytest.mark.slow
async def test_at_a_choice_whatever_the_chooser_types_is_answered_and_the_others_talk_is_talk(tmp_path):
    # Full-width as a Korean or Japanese keyboard types it: Ｈ８ is H8 (host ruling 1).
    lines = ["p1: Ｈ８", "p1: H9", "p1: I8", "p1: hmm", "p2: purple", "p2: hmm", "p2: blakc", "help", "quit"]
    _, out = await play(tmp_path, lines)
    assert "ok p1: H8" in out
    assert out.count("(ignored)") == 1  # p1's talk; p2 is asked to choose
    assert "p2: 'purple' is not a colour; type black or white." in out
    assert "p2: 'hmm' is not a colour; type black or white." in out
    assert "p2: 'blakc' is not a colour; type black or white." in out
    # Where the room shows the choice's buttons, the help names its options as the room does.
    assert "'rules' shows the rules and the notation. p2 chooses one of: black / white." in out


@pytest.mark.slow
async def test_help_names_a_sealed_answers_options_as_a_private_move(tmp_path):
    options = {"items": "p1 all-in; p2 all-in"}
    _, out = await play(tmp_path, ["help", "p1 (dm): use all-in", "help", "quit"], "allhands", seed=4, options=options)
    before, _, after = out.partition("ok p1 (dm): use all-in")
    asked = " p1 (dm) chooses one of: use all-in / pass. p2 (dm) chooses one of: use all-in / pass."
    assert before.count(asked) == 2  # on starting, and on help
    assert " p2 (dm) chooses one of: use all-in / pass." in after and " p1 (dm) chooses" not in after
