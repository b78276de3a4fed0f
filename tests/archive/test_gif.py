"""Animated replays (archive issue, item 2): ``geniusbot replay FILE --gif OUT`` writes one frame
per step (the start and one per accepted line), each the picture of the public view with the
action and clocks under it, the last held; a record of every game stays under 10 MB; a GIF that
would not is split into parts that say which steps they hold; a sealed move shows only once the
rules reveal it; bad input exits 2 and writes nothing."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from geniusbot.adjudicate import adjudicate_text
from geniusbot.archive import gif
from geniusbot.archive.steps import Shown, Steps, from_record
from geniusbot.cli import EXIT_USAGE, main
from geniusbot.commands.replay import part_names
from geniusbot.record import apply_action, parse_record
from tests.cli_support import clean_cli, store_record

REPO = Path(__file__).resolve().parent.parent.parent
RECORDS = REPO / "tests" / "records"
EXAMPLES = REPO / "geniusbot" / "examples"
#: The fully accepted copies of the examples (the examples show refused lines on purpose).
WHOLE = sorted(p for p in RECORDS.glob("*.txt") if not p.stem.endswith("-refused"))


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


def rgb_frames(data: bytes) -> list[Image.Image]:
    """Every frame of a GIF as a viewer shows it (each composed over the ones before)."""
    image = Image.open(io.BytesIO(data))
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(image.convert("RGB"))
    return out


def same_picture(shown: Image.Image, frame: Image.Image) -> bool:
    """Whether the GIF frame ``shown`` (RGB, on the GIF's canvas) shows the frame image ``frame``."""
    return shown.crop((0, 0, *frame.size)).tobytes() == frame.convert("RGB").tobytes()


@pytest.mark.parametrize("path", WHOLE, ids=lambda p: p.stem)
def test_every_record_gives_one_gif_under_10_mb_with_a_frame_per_step(path, tmp_path, capsys, request):
    if path.stem == "allhands":
        request.applymarker(pytest.mark.slow)
    out = tmp_path / "replay.gif"
    assert main(["replay", str(path), "--gif", str(out)]) == 0
    lines = len(parse_record(path.read_text(encoding="utf-8")).lines)
    data = out.read_bytes()
    assert len(data) < gif.MAX_BYTES
    image = Image.open(out)
    assert image.format == "GIF"
    assert image.n_frames == lines + 1  # the start, then one per accepted line
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == gif.HOLD_MS  # the last frame is held
    image.seek(1)
    assert image.info["duration"] == gif.FRAME_MS
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote {out}: {lines + 1} frames, one per step, ")


def test_every_example_refused_lines_and_all_writes_its_gif_with_each_refusal_where_it_happened(tmp_path, capsys):
    for example in sorted(EXAMPLES.glob("*.txt")):
        assert (RECORDS / example.name).exists()
        ruled = adjudicate_text(example.read_text("utf-8")).actions
        assert any(not a.accepted for a in ruled), example  # every example shows refusals on purpose
        out = tmp_path / f"{example.stem}.gif"
        assert main(["replay", str(example), "--gif", str(out)]) == 0, capsys.readouterr().err
        assert Image.open(out).n_frames == sum(a.accepted for a in ruled) + 1  # a refused line is no step
        steps = from_record(example.read_bytes(), example.name)
        captions = {shown.index: "\n".join(gif.caption(shown, steps)) for shown in steps}
        accepted = 0
        for action in ruled:
            if action.accepted:
                accepted += 1
                continue
            assert f"Then refused, line {action.line}: " in captions[accepted], (example, action)


def test_a_refused_line_is_shown_after_the_step_it_followed_and_bad_files_exit_2(tmp_path, capsys):
    out = tmp_path / "x.gif"
    assert main(["replay", str(RECORDS / "tictacfive-refused.txt"), "--gif", str(out)]) == 0
    assert Image.open(out).n_frames == 9  # the start and the eight accepted lines
    steps = from_record((RECORDS / "tictacfive-refused.txt").read_bytes(), "tictacfive-refused.txt")
    captions = [gif.caption(shown, steps) for shown in steps]
    refused = "Then refused, line 14: Hana (p2): F9 (It is not your turn; waiting for Minji.)"
    assert [n for n, lines in enumerate(captions) if refused in lines] == [7]  # after white's G9, before J9
    # Three lines fill the usual strip; a fourth (a refusal after the last move, then the result)
    # makes it taller, so no line is cut off.
    shown = list(steps)
    assert gif.frame_image(shown[6], steps).size == gif.frame_image(shown[7], steps).size
    ended = from_record((EXAMPLES / "tictacfive.txt").read_bytes(), "tictacfive.txt")
    *_, before, last = list(ended)
    assert len(gif.caption(last, ended)) == 4 and gif.caption(last, ended)[2].startswith("Then refused, line 37:")
    plain, noted = gif.frame_image(before, ended).size, gif.frame_image(last, ended).size
    assert noted == (plain[0], plain[1] + gif.CAPTION_HEIGHT // 4)
    out.unlink()
    assert main(["replay", str(tmp_path / "missing.txt"), "--gif", str(out)]) == EXIT_USAGE
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b'[Game "nosuchgame"]\n')
    assert main(["replay", str(bad), "--gif", str(out)]) == EXIT_USAGE
    assert "nosuchgame" in capsys.readouterr().err
    bad.write_bytes(b"\xff\xfe not text")
    assert main(["replay", str(bad), "--gif", str(out)]) == EXIT_USAGE
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["replay", str(RECORDS / "tictacfive.txt"), "--gif", str(tmp_path / "no" / "dir.gif")]) == EXIT_USAGE
    assert "choose another OUT" in capsys.readouterr().err
    assert not out.exists()


def test_a_record_is_read_from_standard_input(tmp_path, monkeypatch):
    text = (RECORDS / "tictacfive-unfinished.txt").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    out = tmp_path / "x.gif"
    assert main(["replay", "-", "--gif", str(out)]) == 0
    assert Image.open(out).n_frames == len(parse_record(text.decode()).lines) + 1


def test_frames_show_the_public_view_and_no_sealed_move_before_it_is_revealed():
    steps = from_record((RECORDS / "decks.txt").read_bytes(), "decks")
    parts = gif.make_gif(steps)
    assert len(parts) == 1
    shown = rgb_frames(parts[0].data)
    assert len(shown) == len(steps)
    game = steps.start.copy()
    secrets = 0
    for index, public in enumerate(steps):
        if index:
            apply_action(game, steps.actions[index - 1])
        assert same_picture(shown[index], gif.frame_image(public, steps))
        for seat in game.seats:
            private = gif.frame_image(Shown(index, game.view(seat), public.action, public.clocks), steps)
            if private.tobytes() != gif.frame_image(public, steps).tobytes():
                secrets += 1
                assert not same_picture(shown[index], private)
    assert secrets > 0  # the seats' own views did hold what the room may not see


def test_a_sealed_move_is_captioned_without_its_text():
    steps = from_record((RECORDS / "decks.txt").read_bytes(), "decks")
    sealed = [(a, s) for a, s in zip(steps.actions, list(steps)[1:], strict=True) if a.private]
    assert sealed
    for action, shown in sealed:
        assert (
            shown.action is not None
            and steps.words(shown.action)
            == f"{steps.names[action.seat]} ({action.seat}) sends a sealed move by direct message"
        )
        assert action.text not in gif.caption(shown, steps)[0].split(": ", 1)[1]


def test_a_gif_past_the_limit_is_split_into_parts_that_say_their_steps(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gif, "PART_BYTES", 120_000)
    out = tmp_path / "long.gif"
    assert main(["replay", str(RECORDS / "tightwire-classic.txt"), "--gif", str(out)]) == 0
    steps = from_record((RECORDS / "tightwire-classic.txt").read_bytes(), "x")
    files = part_names(out, len(list(tmp_path.glob("long-*.gif"))))
    assert len(files) >= 2 and not out.exists()
    assert [f.name for f in files] == [f"long-{n}.gif" for n in range(1, len(files) + 1)]
    pictures = list(gif.frames(steps))
    first = 0
    said = capsys.readouterr().out
    assert f"so it is in {len(files)} parts: " in said
    for file in files:
        data = file.read_bytes()
        assert len(data) <= 120_000 + 256 * 1024
        shown = rgb_frames(data)
        assert f"{file} (steps {first} to {first + len(shown) - 1})" in said
        # Each part starts whole and shows its steps as they are.
        for offset, frame in enumerate(shown):
            assert same_picture(frame, pictures[first + offset])
        first += len(shown)
    assert first == len(steps)


def test_the_caption_says_the_step_the_action_the_clocks_and_at_the_end_the_result():
    steps = from_record((RECORDS / "tictacfive-unfinished.txt").read_bytes(), "x")
    shown = list(steps)
    assert gif.caption(shown[0], steps) == [
        f"Step 0 of {len(steps) - 1}: the start",
        "Clocks: Jiwoo 1:00 +5:00, Sora 1:00 +5:00",
    ]
    # Only the last line carries the clocks ({p1=0:41+5:00 p2=0:52+5:00}); the others say so.
    assert gif.caption(shown[1], steps)[1] == "Clocks: not in the record at this step"
    assert gif.caption(shown[-1], steps)[1] == "Clocks: Jiwoo 0:41+5:00, Sora 0:52+5:00"
    whole = from_record((RECORDS / "tictacfive.txt").read_bytes(), "x")
    last = list(whole)[-1]
    assert gif.caption(last, whole)[0].startswith(f"Step {len(whole) - 1} of {len(whole) - 1}: ")
    assert gif.caption(last, whole)[1:] == [
        "Clocks: not in the record at this step",
        "Hyunmin (black) makes five in a row, H8 to L8, and wins.",
    ]


def test_a_step_that_changes_nothing_keeps_its_frame():
    writer = gif.GifWriter()
    card = Image.new("P", (40, 30), 3)
    card.putpalette(gif.PALETTE)
    for _ in range(3):
        writer.add(card)
    (part,) = writer.finish()
    assert Image.open(io.BytesIO(part.data)).n_frames == 3 and part.frames == 3


def test_parts_are_named_after_out():
    assert part_names(Path("a/replay.gif"), 1) == [Path("a/replay.gif")]
    assert part_names(Path("a/replay.gif"), 2) == [Path("a/replay-1.gif"), Path("a/replay-2.gif")]
    assert part_names(Path("replay"), 2) == [Path("replay-1.gif"), Path("replay-2.gif")]


def test_a_stored_match_is_replayed_with_match_and_db(tmp_path, capsys):
    db = tmp_path / "archive.sqlite3"
    url = f"sqlite+aiosqlite:///{db}"
    text = (RECORDS / "tightwire-influx.txt").read_text("utf-8")
    match_id = asyncio.run(store_record(url, text))
    out = tmp_path / "m.gif"
    assert main(["replay", "--match", str(match_id), "--db", str(db), "--gif", str(out)]) == 0
    from_file = from_record(text.encode(), "x")
    shown = rgb_frames(out.read_bytes())
    assert len(shown) == len(parse_record(text).lines) + 1 == len(from_file)
    # The stored match shows what its record shows (its clocks are the start's fresh ones).
    assert same_picture(shown[-1], list(gif.frames(from_file))[-1])
    assert main(["replay", "--match", "99", "--db", str(db), "--gif", str(out)]) == EXIT_USAGE
    assert "there is no match #99" in capsys.readouterr().err
    assert main(["replay", str(RECORDS / "tictacfive.txt"), "--db", str(db), "--gif", str(out)]) == EXIT_USAGE
    assert "--db goes with --match" in capsys.readouterr().err


def test_steps_of_a_game_without_a_picture_are_refused():
    steps = from_record((RECORDS / "tictacfive.txt").read_bytes(), "x")
    blind = Steps(**{**vars(steps), "game": "nosuchgame", "title": "Blind"})
    with pytest.raises(gif.NoPicture, match="Blind has no board picture"):
        gif.make_gif(blind)


def test_match_reads_the_bots_database_by_default(tmp_path, monkeypatch, capsys):
    db = tmp_path / "bot.sqlite3"
    text = (RECORDS / "tictacfive.txt").read_text("utf-8")
    match_id = asyncio.run(store_record(f"sqlite+aiosqlite:///{db}", text, guild_id=5))
    monkeypatch.setenv("DATABASE_URL", str(db))
    out = tmp_path / "m.gif"
    assert main(["replay", "--match", str(match_id), "--gif", str(out)]) == 0
    assert Image.open(out).n_frames == len(parse_record(text).lines) + 1


def test_replay_help_loads_nothing_heavy(tmp_path):
    from tests.test_cli_startup import heavy, loaded

    code, modules = loaded(tmp_path, "replay", "--help")
    assert code == 0
    assert heavy(modules) == [] and "geniusbot.archive.gif" not in modules


def test_replay_writes_the_page_with_html_from_a_record_or_the_bots_database(tmp_path, monkeypatch, capsys):
    # One command, two formats: --html in place of --gif writes the replay page, from a record,
    # or from a stored match in the bot's database when --db is left out.
    text = (RECORDS / "tictacfive.txt").read_text("utf-8")
    page = tmp_path / "p.html"
    assert main(["replay", str(RECORDS / "tictacfive.txt"), "--html", str(page)]) == 0
    steps = len(parse_record(text).lines) + 1
    assert f"{steps} steps" in capsys.readouterr().out and page.read_text("utf-8").startswith("<!DOCTYPE html>")
    db = tmp_path / "bot.sqlite3"
    match_id = asyncio.run(store_record(f"sqlite+aiosqlite:///{db}", text, guild_id=5))
    monkeypatch.setenv("DATABASE_URL", str(db))
    stored = tmp_path / "m.html"
    assert main(["replay", "--match", str(match_id), "--html", str(stored)]) == 0
    assert f"{steps} steps" in capsys.readouterr().out
    with pytest.raises(SystemExit) as both:  # one format at a time: argparse's usage error
        main(["replay", str(RECORDS / "tictacfive.txt"), "--gif", str(tmp_path / "g.gif"), "--html", "x"])
    assert both.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def rgba_frames(data: bytes) -> list[Image.Image]:
    """Every frame of a GIF as a viewer composes it, with what is cleared transparent."""
    image = Image.open(io.BytesIO(data))
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(image.convert("RGBA"))
    return out


def fits(shown: Image.Image, frame: Image.Image) -> bool:
    """Whether the composed frame ``shown`` is ``frame`` at the top left, opaque, and nothing else:
    every pixel of the screen outside it transparent."""
    inside = shown.crop((0, 0, *frame.size))
    if inside.convert("RGB").tobytes() != frame.convert("RGB").tobytes():
        return False
    if inside.getchannel("A").getextrema() != (255, 255):
        return False
    alpha = shown.getchannel("A")
    alpha.paste(0, (0, 0, *frame.size))
    return alpha.getextrema() == (0, 0)


def card(size: tuple[int, int], seed: int) -> Image.Image:
    """A palette card of ``size`` with a few blocks of house colours on it."""
    import random

    rng = random.Random(seed)
    image = Image.new("P", size, rng.randrange(1, 20))
    image.putpalette(gif.PALETTE)
    for _ in range(4):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        image.paste(rng.randrange(1, 40), (x, y, min(size[0], x + 7), min(size[1], y + 5)))
    return image


@pytest.mark.parametrize("part_bytes", [None, 600])
def test_frames_of_different_sizes_each_fit_their_content_on_the_screen(part_bytes):
    # Taller, shorter, narrower, the same size, wider again: each frame shows its own card at
    # the top left and nothing around it, never the frame before nor a band of padding.
    sizes = [(40, 30), (40, 60), (40, 60), (40, 25), (30, 25), (30, 40), (50, 20), (50, 20), (20, 10), (40, 60)]
    cards = [card(size, n) for n, size in enumerate(sizes)]
    cards[2] = cards[1].copy()  # nothing changed: a frame all the same
    writer = gif.GifWriter(part_bytes=part_bytes)
    for image in cards:
        writer.add(image)
    parts = writer.finish()
    assert sum(p.frames for p in parts) == len(cards)
    if part_bytes:
        assert len(parts) > 1
    for part in parts:
        shown = rgba_frames(part.data)
        ours = cards[part.first : part.last + 1]
        assert Image.open(io.BytesIO(part.data)).size == (max(c.width for c in ours), max(c.height for c in ours))
        assert [fits(s, c) for s, c in zip(shown, ours, strict=True)] == [True] * len(ours)


@pytest.mark.slow
def test_the_all_hands_gif_has_no_empty_band_under_its_shorter_cards():
    # The card between two tasks, and the final one, are 958 pixels tall where a task's card is
    # up to 1,720: every frame was padded to 1,720 with empty card, so the GIF ended on the result
    # above 762 rows of nothing. Each frame is now as tall as its card, the rest left clear.
    steps = from_record((RECORDS / "allhands.txt").read_bytes(), "allhands")
    pictures = list(gif.frames(steps))
    (part,) = gif.make_gif(steps)
    screen = Image.open(io.BytesIO(part.data)).size
    assert screen == (900, max(p.height for p in pictures)) == (900, 1720)
    shown = rgba_frames(part.data)
    assert pictures[-1].height == 958 and fits(shown[-1], pictures[-1])
    assert sum(p.height < 1720 for p in pictures) > 100  # cards between tasks, and Decks' 1,596
    assert [n for n, (s, p) in enumerate(zip(shown, pictures, strict=True)) if not fits(s, p)] == []
