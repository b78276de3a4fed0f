"""``geniusbot tournament export``: a tournament's page (one HTML file that loads nothing, linking
each match's replay page written beside it) and its standings as CSV, through the real command."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from geniusbot.cli import main
from geniusbot.storage import Store
from geniusbot.storage.tournaments import FINISHED
from tests.cli_support import clean_cli, store_record

EXAMPLE = Path(__file__).resolve().parents[2] / "geniusbot" / "examples" / "tictacfive.txt"


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


async def a_swiss(store: Store, deadline: datetime | None = None) -> Any:
    """A one-round Swiss of Tic-Tac-Five in server 5, taking sign-ups until ``deadline``."""
    return await store.create_tournament(
        guild_id=5,
        channel_id=6,
        host_id=7,
        game="tictacfive",
        variant="standard",
        clock=None,
        form="swiss",
        rounds=1,
        deadline=deadline,
    )


async def a_finished_swiss(url: str) -> int:
    """Three players, one round: alice against bob (the example's match), carol's bye."""
    match = await store_record(url, EXAMPLE.read_text(encoding="utf-8"), guild_id=5)
    store = await Store.open(url)
    try:
        made = await a_swiss(store)
        for user, name in ((1, "alice"), (2, "bob"), (3, "carol <b>")):
            await store.join_tournament(made.id, user, name, 1500.0)
        await store.start_tournament(made.id, [1, 2, 3], 1)
        await store.open_round(made.id, 1, [(1, 2), (3, None)])
        await store.set_pairing_match(made.id, 1, 1, match)
        await store.update_tournament(made.id, status=FINISHED)
        return match
    finally:
        await store.close()


@pytest.mark.slow
def test_export_writes_the_page_the_replays_it_links_and_the_standings_csv(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    match = asyncio.run(a_finished_swiss(url))
    code = main(["tournament", "export", "1", "--db", url, "--html", "t1.html", "--csv", "t1.csv"])
    assert code == 0, capsys.readouterr().err
    csv = (tmp_path / "t1.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "Place,Player,Points,Buchholz,S-B"
    assert csv[1:] == ["1,alice,1,0,0", "1,carol <b>,1,0,0", "3,bob,0,1,0"]  # the example: p1 (alice) won
    page = (tmp_path / "t1.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "final standings" in page
    assert f'<a href="t1-match{match}.html">the replay of match #{match}</a>' in page
    assert "carol &lt;b&gt;" in page and "carol <b>" not in page  # every name escaped
    assert "http:" not in page and "https:" not in page and 'src="data:image/png;base64,' in page  # loads nothing
    replay = (tmp_path / f"t1-match{match}.html").read_text(encoding="utf-8")
    assert replay.startswith("<!DOCTYPE html>") and '<ol id="moves">' in replay
    assert capsys.readouterr().out.startswith("Wrote ")


@pytest.mark.slow
def test_export_refuses_what_it_cannot_write_and_says_what_to_do(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    asyncio.run(a_finished_swiss(url))
    assert main(["tournament", "export", "1", "--db", url]) == 2
    assert "give --html OUT for the tournament's page, --csv OUT for its standings, or both." in capsys.readouterr().err
    assert main(["tournament", "export", "9", "--db", url, "--csv", "x.csv"]) == 2
    assert "there is no tournament #9 in" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


async def a_tournament_taking_sign_ups(url: str, deadline: datetime | None) -> None:
    store = await Store.open(url)
    try:
        made = await a_swiss(store, deadline)
        await store.join_tournament(made.id, 1, "alice", 1500.0)
    finally:
        await store.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deadline", "said"),
    [
        (
            datetime(2026, 12, 9, 18, 30, tzinfo=UTC),
            "its sign-up closes at 2026-12-09 18:30 UTC, or sooner when its host runs "
            "/tournament start number:1 on Discord. Export it once its first round has begun.",
        ),
        (
            None,
            "its host starts it with /tournament start number:1 on Discord. Export it once its first round has begun.",
        ),
    ],
)
def test_export_of_a_tournament_taking_sign_ups_says_when_it_can_be_exported(tmp_path, capsys, deadline, said):
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    asyncio.run(a_tournament_taking_sign_ups(url, deadline))
    assert main(["tournament", "export", "1", "--db", url, "--csv", "x.csv"]) == 2
    err = capsys.readouterr().err
    assert "tournament #1 is still taking sign-ups, so there is nothing to export yet; " + said in err
    assert not (tmp_path / "x.csv").exists()
