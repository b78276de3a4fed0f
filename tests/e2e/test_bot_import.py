"""/import on the fake Discord (archive issue, item 1): a host attaches a record file; a record of
each game becomes an archived match that /replay steps through and /record gives back with the
same moves and result; the same record twice is recognised; a refused line, a file that is not
UTF-8, one too large or of an unknown game is refused with a sentence and stores nothing; only
hosts may import; a record that stops before the end is played on once a host resumes it."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate_text
from geniusbot.cogs.imports import DOWNLOAD_SECONDS
from geniusbot.record import parse_record, read_result
from geniusbot.record.file import MAX_RECORD_BYTES
from tests.e2e.botworld import World, ephemeral_answer
from tests.fakediscord import FakeInteraction

RECORDS = Path(__file__).resolve().parent.parent / "records"
WHOLE = sorted(p for p in RECORDS.glob("*.txt") if p.stem.rsplit("-", 1)[-1] not in ("unfinished", "refused"))


def moves(text: str) -> list[tuple[str | None, bool, str]]:
    return [(line.seat, line.private, line.text) for line in parse_record(text).lines]


async def import_file(world: World, filename: str, data: bytes, by=None, **options: object) -> FakeInteraction:
    upload = world.fake.upload(filename, data)
    return await world.fake.slash(by or world.owner, world.guild, world.room, "import", {"record": upload, **options})


@pytest.mark.slow
async def test_a_record_of_each_game_is_imported_replayed_and_given_back(world: World) -> None:
    fake = world.fake
    async with world.running() as bot:
        for number, path in enumerate(WHOLE, start=1):
            text = path.read_text(encoding="utf-8")
            ruling = adjudicate_text(text)
            answer = await ephemeral_answer(world, await import_file(world, path.name, text.encode("utf-8")))
            record = parse_record(text)
            winner = ruling.outcome.winner
            assert answer.startswith(
                f"Imported the record as match #{number} ({ruling.game.title}: "
                f"{record.header('P1')} vs {record.header('P2')}), {len(record.lines)} line(s): "
                f"{record.header(winner.upper())} ({winner}) wins."
            ), answer
            assert f"/replay match:{number} steps through it" in answer

            interaction = await fake.slash(world.carol, world.guild, world.room, "record", {"match": number})
            await fake.wait_for_response(interaction)
            message = await fake.wait_for_followup(interaction)
            exported = fake.attachments(message)[0].decode("utf-8")
            assert moves(exported) == moves(text)
            assert read_result(parse_record(exported).header("Result")) == winner

            interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"match": number})
            await fake.wait_for_response(interaction)
            page = await fake.wait_for_followup(interaction)
            first, second = page.content.splitlines()[:2]
            assert first.startswith(f"Replay of match #{number}, {ruling.game.title}: ")
            assert second.startswith(f"Step 0 of {len(record.lines)}: the start.")
        stored = await bot.store.finished_matches(world.guild.id, limit=50)
        assert len(stored) == len(WHOLE) and all(r.channel_id is None for r in stored)
        # Nothing was posted to the room: an import is the host's business.
        assert [m for m in fake.messages(world.room) if not m.ephemeral] == []


@pytest.mark.slow
async def test_twice_refused_bad_files_and_who_may_import(world: World) -> None:
    fake = world.fake
    text = (RECORDS / "tictacfive.txt").read_bytes()
    async with world.running() as bot:
        # Only hosts: Manage Server, or the host role once /setup names one.
        answer = await ephemeral_answer(world, await import_file(world, "r.txt", text, by=world.carol))
        assert answer == (
            "Only members with the Manage Server permission can import a match here until an admin "
            "names a host role with /setup."
        )
        await ephemeral_answer(
            world, await fake.slash(world.owner, world.guild, world.room, "setup", {"host_role": world.host_role})
        )
        fake.set_roles(world.guild, world.carol, [world.host_role])
        first = await ephemeral_answer(
            world, await import_file(world, "r.txt", text, by=world.carol, first=world.alice, second=world.bob)
        )
        assert first.startswith("Imported the record as match #1 (Tic-Tac-Five: Hyunmin vs Dongmin)")
        # Players named for a finished record let /replay find it by player.
        interaction = await fake.slash(world.carol, world.guild, world.room, "replay", {"player": world.alice})
        listing = await world.answer(interaction)
        assert listing.splitlines()[1].startswith("#1 Tic-Tac-Five: Hyunmin vs Dongmin, Hyunmin wins (")

        again = await ephemeral_answer(world, await import_file(world, "again.txt", b"# once more\n" + text))
        assert again == (
            "This record was already imported as match #1; nothing was stored. "
            "/replay match:1 steps through it; /record match:1 gives its record."
        )
        refused = await ephemeral_answer(
            world, await import_file(world, "bad.txt", (RECORDS / "tictacfive-refused.txt").read_bytes(), strict=True)
        )
        assert refused == (
            "Line 14 is refused ('p2: F9'): It is not your turn; waiting for p1. "
            "Nothing was imported; correct or remove that line and import the record again."
        )
        latin = await ephemeral_answer(
            world, await import_file(world, "latin.txt", text.replace(b"Hyunmin", "Hyunmin \u00e9".encode("latin-1")))
        )
        assert latin == "latin.txt is not UTF-8 text; save it as UTF-8 (plain text) and import it again."
        big = await ephemeral_answer(world, await import_file(world, "big.txt", text + b"#" * MAX_RECORD_BYTES))
        assert big.startswith("big.txt is 1025 KiB; a record file may be at most 1024 KiB.")
        unknown = await ephemeral_answer(world, await import_file(world, "u.txt", b'[Game "parcheesi"]\np1: e4\n'))
        assert unknown.startswith("u.txt cannot be imported: line 1: There is no game called 'parcheesi'")
        counts = await bot.store.counts()
        assert counts["matches"] == 1 and counts["actions"] == len(parse_record(text.decode()).lines) + 1


@pytest.mark.slow
async def test_a_download_that_stalls_is_given_up_after_its_limit_with_a_sentence(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    text = (RECORDS / "tictacfive.txt").read_bytes()
    async with world.running() as bot:
        fake.stall_downloads()
        interaction = await import_file(world, "r.txt", text)
        await fake.wait_until(lambda: fake.stalled_downloads, what="the download to stall")
        # The cog waits DOWNLOAD_SECONDS on the bot's clock, which the test moves.
        limit = world.time.now() + timedelta(seconds=DOWNLOAD_SECONDS)
        await fake.wait_until(lambda: limit in world.time.sleepers, what="the download's limit")
        world.time.advance(DOWNLOAD_SECONDS)
        assert await ephemeral_answer(world, interaction) == (
            "I could not download r.txt from Discord: it took over 30 s. Attach it again."
        )
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "an error was logged"
        assert (await bot.store.counts())["matches"] == 0
        # Attached again, it downloads (the CDN stalled once) and is imported.
        answer = await ephemeral_answer(world, await import_file(world, "r.txt", text))
        assert answer.startswith("Imported the record as match #1")


@pytest.mark.slow
async def test_a_record_that_stops_before_the_end_is_resumed_by_a_host_and_played_on(world: World) -> None:
    fake = world.fake
    text = (RECORDS / "tictacfive-unfinished.txt").read_bytes()
    async with world.running() as bot:
        # Its players are needed, to play on.
        answer = await ephemeral_answer(world, await import_file(world, "u.txt", text))
        assert answer.startswith("This record stops before the end, so it becomes a match to play on: name its players")
        answer = await ephemeral_answer(
            world, await import_file(world, "u.txt", text, first=world.alice, second=world.bob)
        )
        assert answer == (
            "Imported the record as match #1 (Tic-Tac-Five: Jiwoo vs Sora), 7 line(s). The record stops "
            "before the end, so the match is paused; a host uses /resume match:1 here to play on."
        )
        match = await bot.store.get_match(1)
        assert match.status == "paused" and match.channel_id == world.room.id
        assert {s.seat: (s.user_id, s.display_name) for s in match.seats} == {
            "p1": (world.alice.id, "Jiwoo"),
            "p2": (world.bob.id, "Sora"),
        }
        interaction = await fake.slash(world.owner, world.guild, world.room, "resume", {"match": 1})
        assert (await ephemeral_answer(world, interaction)).startswith("Match #1: ")
        await world.say(world.alice, "J9")
        await world.say(world.bob, "F9")
        match = await bot.store.get_match(1)
        assert match.status == "live"
        accepted = [a.text for a in await bot.store.actions(1) if a.accepted and a.kind == "move"]
        assert accepted[-2:] == ["J9", "F9"]


@pytest.mark.slow
async def test_refusals_of_a_record_are_said_in_the_bots_language(world: World) -> None:
    """A refused line, a file that is not UTF-8 and records that cannot be read, said in the
    pseudo-language: no letter outside the brackets (the file's name and what it holds are
    said inside the message that quotes them)."""
    import re

    from geniusbot.config import Settings
    from geniusbot.words import unsaid
    from tests.e2e.botworld import TestBot

    settings = Settings(_env_file=None, database_url=world.db_url, geniusbot_language="qps")  # type: ignore[call-arg]
    async with world.running(TestBot(settings, time=world.time, guild_ready_timeout=0.01)) as bot:
        for filename, data, start in (
            ("bad.txt", (RECORDS / "tictacfive-refused.txt").read_bytes(), "⟦Ĺíñé 14 íś ŕéƒúśéđ ('p2: F9'): ⟦Íţ íś"),
            ("latin.txt", "p1: H8 \u00e9".encode("latin-1"), "⟦⟦latin.txt⟧ íś ñóţ ÚŢƑ-8 ţéxţ;"),
            ("u.txt", b'[Game "parcheesi"]\np1: e4\n', "⟦u.txt çáññóţ ƀé íḿṕóŕţéđ: ⟦ĺíñé 1: ⟦Ţĥéŕé íś ñó ĝáḿé"),
            ("s.txt", b'[Game "tictacfive"]\np1: H8\n[Seed "1"]\n', "⟦s.txt çáññóţ ƀé íḿṕóŕţéđ: ⟦ĺíñé 3: ⟦ţĥé ĥéáđéŕ"),
        ):
            answer = await ephemeral_answer(world, await import_file(world, filename, data, strict=True))
            assert answer.startswith(start), answer
            assert not re.search(r"[^\W\d_]", unsaid(answer)), answer
        counts = await bot.store.counts()
        assert counts["matches"] == 0
