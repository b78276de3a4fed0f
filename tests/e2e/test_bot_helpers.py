"""The bot's small parts: /start's options text, the choice buttons' ids, long texts and text boards on Discord, the proxy URLs, 'geniusbot run' without a token, and the
one error handler of the command tree."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import discord.gateway
import discord.http
import pytest

from geniusbot.bot import APOLOGY, TOKEN_HELP, apply_discord_urls, run_bot
from geniusbot.cli import main
from geniusbot.cogs import parse_options
from geniusbot.config import Settings
from geniusbot.discord_transport import MESSAGE_LIMIT, board_texts, split_text
from geniusbot.games import get_game, new_game
from geniusbot.host import board
from geniusbot.host.transport import TextBoard
from geniusbot.storage import StorageError, Store
from tests.e2e.botworld import TestBot, World
from tests.fakediscord import FakeDiscord
from tests.fakediscord.running import running


def test_options_text_splits_at_each_name() -> None:
    assert parse_options("setup=red C3 F6; blue F3 C6 dmo=p1") == {"setup": "red C3 F6; blue F3 C6", "dmo": "p1"}
    assert parse_options("anomalies=chain, landmine starter=p2") == {"anomalies": "chain, landmine", "starter": "p2"}
    assert parse_options("  ") == {} and parse_options(None) == {}
    with pytest.raises(ValueError, match="name=value"):
        parse_options("red C3 F6")
    with pytest.raises(ValueError, match="name=value"):
        parse_options("red setup=none")


def test_choice_ids_carry_the_text_only_when_it_fits() -> None:
    from geniusbot.cogs.choices import choice_id, fits, private_choice_id

    assert choice_id(12, "p2", "red first") == "gb:choice:12:p2:red first"
    # A sealed answer's button in a DM (the formats running matches' buttons carry).
    assert private_choice_id(12, "p1", "use all-in") == "gb:dm:12:p1:use all-in"
    assert choice_id(12, "p1", "pass", private=True) == "gb:dm:12:p1:pass"
    assert fits(12, "p2", ["red first", "blue second"])
    assert not fits(12, "p2", ["use override " + "rectangle-adverse " * 5])


def test_games_with_private_moves_need_dms() -> None:
    assert get_game("tiles").takes_private_moves()
    assert not get_game("tictacfive").takes_private_moves() and not get_game("armslength").takes_private_moves()


def test_long_texts_are_split_and_text_boards_fenced() -> None:
    text_board = board.text_board(new_game("tightwire").view())
    [fenced] = board_texts(TextBoard(text_board))
    assert fenced == f"```\n{text_board}\n```" and split_text("Match #1 started.") == ["Match #1 started."]
    # Only the board is in the block: the sentences around it read as text, not as code.
    said = TextBoard("2 . # .\n1 . # .\n  A B C", above="bob colours E3 E4 black.", below="To move: alice (p1) 0:30.")
    assert board_texts(said) == [
        "bob colours E3 E4 black.\n```\n2 . # .\n1 . # .\n  A B C\n```\nTo move: alice (p1) 0:30."
    ]
    parts = split_text("\n".join(f"line {i} " + "x" * 50 for i in range(100)))
    assert len(parts) > 1 and all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert "".join(p.replace("\n", "") for p in parts) == "".join(f"line {i} " + "x" * 50 for i in range(100))
    long = TextBoard(
        "   A B\n" + "\n".join(" 1 " + "x" * 60 for _ in range(60)), above="Your view:", below="To move: p1"
    )
    fenced_parts = board_texts(long)
    assert fenced_parts[0] == "Your view:" and fenced_parts[-1] == "To move: p1"
    assert len(fenced_parts) > 3 and all(
        p.startswith("```\n") and p.endswith("\n```") and len(p) <= MESSAGE_LIMIT for p in fenced_parts[1:-1]
    )
    assert split_text("") == ["\u200b"]


def test_proxy_urls_are_applied_to_discord_py() -> None:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        apply_discord_urls("https://proxy.example/api/v10/", "wss://proxy.example/gw")
        assert discord.http.Route.BASE == "https://proxy.example/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://proxy.example/gw"
        apply_discord_urls(None, None)
        assert discord.http.Route.BASE == "https://proxy.example/api/v10"
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def test_run_without_a_token_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err == TOKEN_HELP
    assert "Developer Portal" in err or "developers/applications" in err
    assert "geniusbot play" in err


def test_run_says_when_discord_cannot_be_reached(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # apply_discord_urls changes discord.py's globals; monkeypatch puts them back afterwards.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DISCORD_API_BASE_URL", "http://127.0.0.1:9/api/v10")  # the discard port: refused
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("geniusbot: Discord cannot be reached at http://127.0.0.1:9/api/v10 (")
    assert "DISCORD_API_BASE_URL" in err


async def test_a_database_that_cannot_be_opened_stops_the_start(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    async with FakeDiscord() as fake:
        bot = TestBot(
            database_url=f"sqlite+aiosqlite:///{blocker.as_posix()}/sub/bot.sqlite3", guild_ready_timeout=0.01
        )
        with pytest.raises(StorageError):
            async with running(fake, bot):
                pass
        await bot.close()


async def run_against(fake: FakeDiscord, database_url: str, tmp_path: Path) -> tuple[int, str]:
    """``geniusbot run``'s body against the fake, with this database; its exit code and what it said."""
    said: list[str] = []
    settings = Settings(
        discord_token=fake.token,
        database_url=database_url,
        data_dir=tmp_path,
        discord_api_base_url=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        _env_file=None,
    )
    code = await asyncio.wait_for(run_bot(settings, out=said.append), timeout=30)
    return code, "".join(said)


async def test_run_says_when_the_database_cannot_be_used(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    async with FakeDiscord() as fake:
        code, said = await run_against(fake, f"sqlite+aiosqlite:///{blocker.as_posix()}/sub/bot.sqlite3", tmp_path)
    assert code == 2
    assert said.startswith("geniusbot: the database cannot be used (") and said.endswith("; check DATABASE_URL.\n")


@pytest.mark.slow
async def test_run_says_once_when_the_database_server_is_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real connection to a port nobody listens on, retried by the store's rule; only the pauses
    # between the tries are taken away, so the test does not wait.
    real_open = Store.open.__func__  # type: ignore[attr-defined]

    async def open_without_pauses(cls, url, **options):  # type: ignore[no-untyped-def]
        async def no_pause(_seconds: float) -> None:
            return None

        return await real_open(cls, url, sleep=no_pause, **options)

    monkeypatch.setattr(Store, "open", classmethod(open_without_pauses))
    async with FakeDiscord() as fake:
        code, said = await run_against(fake, "postgresql+asyncpg://postgres@127.0.0.1:9/test", tmp_path)
    assert code == 2
    assert said.startswith("geniusbot: The database is unavailable (upgrading the schema failed")
    assert "check that it is running" in said and said.endswith("Check DATABASE_URL.\n")
    assert said.count("unavailable") == 1 and "cannot be used" not in said


async def test_an_unexpected_error_is_logged_and_the_user_gets_an_apology(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    async with world.running() as bot:

        @bot.tree.command(name="explode", description="A command that fails unexpectedly")
        async def explode(interaction: discord.Interaction) -> None:
            raise KeyError("a bug")

        @bot.tree.command(name="refuse", description="A command that a rule refuses")
        async def refuse(interaction: discord.Interaction) -> None:
            get_game("chess")

        await bot.tree.sync()
        with caplog.at_level(logging.ERROR, logger="geniusbot.bot"):
            interaction = await fake.slash(world.carol, world.guild, world.room, "explode", {})
            response = await fake.wait_for_response(interaction)
        assert response.data["content"] == APOLOGY and response.data["flags"] & 64
        [record] = [r for r in caplog.records if r.name == "geniusbot.bot"]
        assert record.getMessage() == "/explode failed" and record.exc_info[0] is KeyError
        interaction = await fake.slash(world.carol, world.guild, world.room, "refuse", {})
        response = await fake.wait_for_response(interaction)
        assert response.data["content"].startswith("There is no game called 'chess'")
        assert response.data["flags"] & 64


async def test_start_offers_the_rule_sets_of_the_chosen_game(world: World) -> None:
    fake = world.fake
    async with world.running():
        interaction = await fake.autocomplete(
            world.owner, world.guild, world.room, "start", {"game": "tightwire", "variant": "fa"}, "variant"
        )
        response = await fake.wait_for_response(interaction)
        assert response.type == 8
        assert [c["value"] for c in response.data["choices"]] == ["fate"]
        # The game is typed, and the installed games that hold what is typed are offered.
        interaction = await fake.autocomplete(world.owner, world.guild, world.room, "start", {"game": ""}, "game")
        offered = {c["value"] for c in (await fake.wait_for_response(interaction)).data["choices"]}
        assert offered >= {"tictacfive", "armslength", "tightwire"}
        interaction = await fake.autocomplete(world.owner, world.guild, world.room, "start", {"game": "TIGHT"}, "game")
        response = await fake.wait_for_response(interaction)
        assert [(c["name"], c["value"]) for c in response.data["choices"]] == [("Tightwire", "tightwire")]
        # A game typed that no variant list knows: every game's rule sets, no failure.
        interaction = await fake.autocomplete(
            world.owner, world.guild, world.room, "start", {"game": "chess", "variant": "fa"}, "variant"
        )
        assert [c["value"] for c in (await fake.wait_for_response(interaction)).data["choices"]] == ["fate"]


async def test_every_installed_game_is_offered_past_discords_25_choices(world: World) -> None:
    from geniusbot.games import register, registry, unregister
    from tests.host.sealedbid import SealedBid

    extras = [
        type(f"Extra{i}", (SealedBid,), {"name": f"extra{i:02d}", "title": f"Extra Bid {i:02d}"}) for i in range(30)
    ]
    for cls in extras:
        register(cls)
    fake = world.fake
    try:
        assert len(registry()) > 25 + 5
        async with world.running():
            for command in ("start", "practice", "rules", "replay"):
                # Typing narrows the games to those that hold it: the last installed is found too.
                for typed, wanted in (("extra29", ["extra29"]), ("Bid 2", [f"extra2{i}" for i in range(10)])):
                    interaction = await fake.autocomplete(
                        world.owner, world.guild, world.room, command, {"game": typed}, "game"
                    )
                    choices = (await fake.wait_for_response(interaction)).data["choices"]
                    assert [c["value"] for c in choices] == wanted, (command, typed)
                # Nothing typed yet: Discord's 25 at most.
                interaction = await fake.autocomplete(
                    world.owner, world.guild, world.room, command, {"game": ""}, "game"
                )
                assert len((await fake.wait_for_response(interaction)).data["choices"]) == 25
            # A game past the 25th starts.
            assert await world.start("extra29", seed=1) == f"Match #1 has started in <#{world.room.id}>."
    finally:
        for cls in extras:
            unregister(cls.name)


def test_starts_descriptions_name_the_installed_games_that_take_the_option() -> None:
    """/start's dmo and variant options are described from the registry: a game installed with
    rule sets of its own joins the variant's description, and no description outgrows Discord's 100
    characters."""
    from geniusbot.cogs import options
    from geniusbot.discord_words import DESCRIPTION_CHARS

    def describe_dmo() -> str:
        return options.describe_dmo().message

    def describe_variant() -> str:
        return options.describe_variant().message

    from geniusbot.games import register, unregister
    from tests.host.sealedbid import SealedBid

    assert describe_dmo() == "Arm's Length: which player is the DMO and chooses colour and order"
    assert describe_variant() == "the rule set (Tightwire: classic, influx, fate)"

    class Auction(SealedBid):
        name = "auction"
        title = "Auction"
        variants = ("open", "sealed")
        options = {"dmo": "p1 or p2: who opens the bidding"}

    register(Auction)
    try:
        assert "Auction: open, sealed" in describe_variant()
        assert describe_dmo().startswith("Arm's Length, Auction: ")
        assert len(describe_variant()) <= DESCRIPTION_CHARS and len(describe_dmo()) <= DESCRIPTION_CHARS
    finally:
        unregister(Auction.name)
    assert "Auction" not in describe_variant()
