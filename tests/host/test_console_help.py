"""The console's help as a newcomer reads it: a move to try that is legal and does not lose at
once, a task's own rules inside the match that plays it, a line with nothing after its colon,
the private-move hint only where a private move is legal, and a rule set named twice over."""

from __future__ import annotations

import io
import itertools
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot.cli import main
from geniusbot.games import get_game, new_game, registry
from geniusbot.host.console import run_console
from geniusbot.host.hints import PICKED_FROM, example_move, loses_at_once
from geniusbot.host.timers import ManualTime


async def play(tmp_path: Path, lines: list[str], game: str = "tictacfive", **kw) -> str:
    out = io.StringIO()
    kw.setdefault("seed", 1)
    await run_console(
        game,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        **kw,
    )
    return out.getvalue()


def offered_move(game) -> tuple[str, str]:
    seat, _, text = example_move(game).partition(": ")
    return seat.split()[0], text


@pytest.mark.parametrize("name", ["tiles", "allhands"])
@pytest.mark.parametrize("seed", range(4))
def test_after_a_call_help_offers_a_declaration_that_does_not_lose_at_once(name, seed):
    game = new_game(name, seed=seed)
    game.close_window()
    game.submit("call red", game.to_move()[0])
    seat, text = offered_move(game)
    move = game.parse_move(text, seat)
    # The middle legal move is the black centre, which loses (the task, inside the match).
    middle = list(itertools.islice(game.legal_moves(seat), PICKED_FROM))
    assert loses_at_once(game, middle[len(middle) // 2], seat)
    assert game.is_legal(move) and not loses_at_once(game, move, seat), text
    trial = game.copy()
    events = trial.play(move)
    assert trial.outcome() is None and not [e for e in events if "winner" in e.data]


@pytest.mark.parametrize("name", sorted(registry()))
def test_help_offers_a_legal_move_in_every_game(name):
    game = new_game(name, seed=2)
    if game.window() is not None and not game.to_move():
        game.close_window()
    example = example_move(game)
    assert example is not None
    seat, text = offered_move(game)
    assert game.is_legal(game.parse_move(text, seat, private="(dm)" in example))


async def test_help_at_the_console_after_call_red_offers_no_losing_move(tmp_path):
    out = await play(tmp_path, ["close window", "p1: call red", "help", "quit"], "tiles")
    helps = [line for line in out.splitlines() if line.startswith("Type a move as 'p2: ")]
    assert helps and not [line for line in helps if "D4" in line], helps


async def test_rules_names_a_task_inside_the_match_that_plays_it(tmp_path):
    out = await play(tmp_path, ["rules decks", "rules nothing", "quit"], "allhands")
    first = get_game("decks").summary.replace("**", "").splitlines()[0]
    assert f"Dueling Decks: {first}" in out
    assert "There is no game 'nothing'; 'rules' alone gives this match's rules." in out
    assert "I did not understand" not in out


async def test_a_seat_and_a_colon_with_nothing_after_get_the_adjudicators_ruling(tmp_path):
    out = await play(tmp_path, ["p1:", "p2 (dm):  ", "export", "quit"])
    assert "Nothing follows 'p1:'; write the move after the colon." in out
    assert "Nothing follows 'p2 (dm):'; write the move after the colon." in out
    assert "(ignored)" not in out


async def test_the_private_move_hint_appears_only_where_a_private_move_is_legal(tmp_path):
    public = await play(tmp_path, ["help", "quit"])
    assert "(dm)" not in "".join(line for line in public.splitlines() if line.startswith("Type a move"))
    sealed = await play(tmp_path, ["help", "quit"], "decks", clock="none", new=True)
    assert "(the seat, then the move; 'p1 (dm): ...' sends it privately)" in sealed


@pytest.mark.parametrize("argv", [["--variant", "classic"], ["--variant", "Influx"]])
def test_a_variant_that_contradicts_the_rule_sets_own_name_is_refused(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GENIUSBOT_DATA_DIR", raising=False)
    assert main(["play", "threadsoffate", *argv]) == 2
    err = capsys.readouterr().err
    assert "'threadsoffate' is the rule set 'fate' of tightwire, but --variant asks for" in err
    assert "write 'geniusbot play tightwire --variant" in err
    assert not (tmp_path / "data").exists()


async def test_a_variant_that_agrees_with_the_name_plays(tmp_path):
    out = await play(tmp_path, ["quit"], "threadsoffate", variant="fate", clock="none")
    assert "Tightwire (fate)" in out
