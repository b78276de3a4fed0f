"""The console's help as a newcomer reads it: a move to try that is legal and does not lose at
once as far as the seat's view can tell (help knows only what the seat knows), a task's own rules inside the match that plays it, a line with nothing after its colon,
the private-move hint only where a private move is legal, and a rule set named twice over."""

from __future__ import annotations

import io
import itertools
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot.cli import main
from geniusbot.conformance.texts import check_help
from geniusbot.console import run_console
from geniusbot.games import GameError, get_game, new_game, registry
from geniusbot.host.hints import PICKED_FROM, example_move, help_said, loses_at_once
from geniusbot.words import Words
from tests.manualtime import ManualTime


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


def after_a_call(name: str, seed: int, *, anomalies: str = ""):
    options = {"anomalies": anomalies} if anomalies else {}
    game = new_game(name, seed=seed, **options)
    game.close_window()
    if game.to_move() and "mines" in next(game.legal_moves()).text():
        for seat in game.seats:
            game.submit("mines A1 B2 C3 E6 G7" if seat == "p1" else "mines A7 B6 F2 G1 G3", seat, private=True)
    game.submit("call red", game.to_move()[0])
    return game


@pytest.mark.parametrize("name", ["tiles", "allhands"])
@pytest.mark.parametrize("seed", range(4))
def test_after_a_call_help_never_offers_the_black_centre_which_loses_whatever_is_hidden(name, seed):
    game = after_a_call(name, seed)
    seat, text = offered_move(game)
    move = game.parse_move(text, seat)
    # The middle legal move declares the black centre D4, which the view shows is black: it
    # loses on every grid the seat cannot tell from this one.
    first = list(itertools.islice(game.legal_moves(seat), PICKED_FROM))
    centre = first[len(first) // 2]
    assert centre.text().startswith("D4")
    assert all(loses_at_once(game.twin(seat, i), centre, seat) for i in range(8))
    assert game.is_legal(move) and not text.startswith("D4"), text


# The final match's first play (Tile Decklaration) has no anomalies.
@pytest.mark.parametrize(
    ("name", "anomalies"),
    [("allhands", ""), *(("tiles", a) for a in ["", "landmine", "implode", "chain", "rainbow"])],
)
def test_help_knows_only_what_the_seat_knows_two_grids_with_one_view_get_one_hint(name, anomalies):
    """Two deals that the seat to move cannot tell apart (the grid hidden, the other seat's
    mines unseen) get the same help, word for word: help reads the seat's view, not the grid."""
    games = [after_a_call(name, seed, anomalies=anomalies) for seed in range(6)]
    seat = games[0].to_move()[0]
    # Implode's marks differ from seed to seed (and show): the same deal redrawn as another
    # state the seat cannot tell from it: twins, drawn from the view alone (so each from a seed
    # of its own, else two games with one view would give one twin).
    games += [twin for i, g in enumerate(games[:2]) if (twin := g.twin(seat, 99 + i)) is not None]
    grids = {json.dumps(g.to_dict(), sort_keys=True) for g in games}
    assert len(grids) == len(games)  # the hidden states differ
    by_view: dict[str, set[str]] = {}
    for g in games:
        by_view.setdefault(json.dumps(g.view(seat), sort_keys=True), set()).add(Words()(help_said(g)))
    assert any(len(g) > 0 for g in by_view.values()) and max(map(len, by_view.values())) == 1
    assert len(by_view) < len(games)  # some deals did share a view


@pytest.mark.parametrize("name", ["tiles", "decks", "swabbing", "allhands"])
def test_help_is_the_same_for_every_state_the_seat_cannot_tell_apart_in_random_matches(name):
    """Random matches played alike under several seeds: wherever the seat to move sees the
    same view in two of them, help says the same in both."""
    rng = random.Random(name)
    for _ in range(3):
        games = [new_game(name, seed=seed) for seed in range(4)]
        for _step in range(30):
            lead = games[0]
            if lead.is_over:
                break
            if lead.window() is not None and not lead.to_move():
                for g in games:
                    g.close_window()
                continue
            seat = lead.to_move()[0]
            views = [json.dumps(g.view(seat), sort_keys=True) for g in games]
            hints = [Words()(help_said(g)) for g in games]
            for i, j in itertools.combinations(range(len(games)), 2):
                if views[i] == views[j]:
                    assert hints[i] == hints[j], (views[i], hints[i], hints[j])
            moves = list(itertools.islice(lead.legal_moves(seat), PICKED_FROM))
            move = rng.choice(moves)
            kept = []
            for g in games:
                try:
                    g.play(g.parse_move(move.text(), seat, private=g.is_private(move)))
                except GameError:
                    continue
                kept.append(g)
            games = [g for g in kept if not g.is_over] or kept[:1]
            if len(games) < 2:
                break


@pytest.mark.parametrize("name", ["tictacfive", "armslength", "tightwire"])
@pytest.mark.parametrize("seed", range(3))
def test_in_a_game_of_perfect_information_help_offers_a_move_that_does_not_lose_at_once(name, seed):
    rng = random.Random(seed)
    game = new_game(name, seed=seed)
    for _ in range(40):
        if game.is_over:
            break
        example = example_move(game)
        seat, text = offered_move(game)
        move = game.parse_move(text, seat, private="(dm)" in example)
        movers = list(itertools.islice(game.legal_moves(seat), PICKED_FROM))
        if any(not loses_at_once(game, m, seat) for m in movers[:100]):
            assert not loses_at_once(game, move, seat), text
        game.play(rng.choice(movers))


@pytest.mark.parametrize("name", sorted(registry()))
def test_help_offers_a_legal_move_in_every_game(name):
    check_help(registry()[name])  # in every rule set: the check of `geniusbot check GAME`


async def test_help_at_the_console_after_call_red_offers_no_losing_move(tmp_path):
    out = await play(tmp_path, ["close window", "p1: call red", "help", "quit"], "tiles")
    helps = [line for line in out.splitlines() if line.startswith("Type a move as 'p2: ")]
    assert helps and not [line for line in helps if "D4" in line], helps


async def test_rules_names_a_task_inside_the_match_that_plays_it(tmp_path):
    out = await play(tmp_path, ["rules decks", "rules nothing", "quit"], "allhands")
    first = Words()(get_game("decks").summary).replace("**", "").splitlines()[0]
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
