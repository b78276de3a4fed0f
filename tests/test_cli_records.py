"""Every command that reads a record file reads it the same way (``read_record_bytes``): ``-`` is
standard input, and at most the largest record (1 MiB) and one byte more are read, so a file of
any size is refused in one sentence at the cost of a small one."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from geniusbot.cli import EXIT_USAGE, main
from geniusbot.record.file import MAX_RECORD_BYTES, RecordUnreadable, read_record_bytes
from tests.cli_support import SETTINGS, clean_cli

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "tests" / "records" / "tictacfive.txt"

#: The address space a command may take here: far less than the file it is given.
MEMORY_LIMIT = 1 << 30

#: Every command that reads a record, with the file (or ``-``) in its arguments as ``{file}``.
COMMANDS = {
    "adjudicate": ["adjudicate", "{file}"],
    "adjudicate --json": ["adjudicate", "--json", "{file}"],
    "import": ["import", "{file}", "--db", "archive.sqlite3"],
    "replay --gif": ["replay", "{file}", "--gif", "out.gif"],
    "replay --html": ["replay", "{file}", "--html", "out.html"],
}


@pytest.fixture(autouse=True)
def clean(monkeypatch, tmp_path):
    yield from clean_cli(monkeypatch, tmp_path)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_limited(tmp_path: Path, args: list[str], stdin_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``geniusbot ARGS`` in a real process held to :data:`MEMORY_LIMIT` of address space."""
    environ = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    environ.update(PYTHONPATH=str(REPO), GENIUSBOT_DATA_DIR=str(tmp_path / "data"))
    with open(stdin_path or os.devnull, "rb") as stdin:
        return subprocess.run(
            [sys.executable, "-m", "geniusbot", *args],
            cwd=tmp_path,
            env=environ,
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=_limit_memory,
        )


def huge_file(tmp_path: Path) -> Path:
    """A 4 GiB file that takes no disk (sparse): four times the memory a command may take."""
    path = tmp_path / "huge.txt"
    with open(path, "wb") as handle:
        handle.truncate(4 << 30)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_huge_record_file_is_refused_without_reading_it_whole(tmp_path, command):
    path = huge_file(tmp_path)
    done = run_limited(tmp_path, [a.format(file=path) for a in COMMANDS[command]])
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stderr.endswith(
        f"The file {str(path)!r} is 4,096 MiB; a record file may be at most 1024 KiB (1 MiB). "
        "Give the record of one match.\n"
    )
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert not list(tmp_path.glob("out*")) and not (tmp_path / "archive.sqlite3").exists()


@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_huge_standard_input_is_refused_without_reading_it_whole(tmp_path, command):
    done = run_limited(tmp_path, [a.format(file="-") for a in COMMANDS[command]], stdin_path=huge_file(tmp_path))
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stderr.endswith(
        "Standard input holds more than 1024 KiB; a record file may be at most 1024 KiB (1 MiB). "
        "Give the record of one match.\n"
    )
    assert not list(tmp_path.glob("out*"))


def test_replay_html_reads_the_record_from_standard_input_as_its_help_says(tmp_path, monkeypatch, capsys):
    with open(RECORD, "rb") as stdin:
        monkeypatch.setattr("sys.stdin", type("Stdin", (), {"buffer": stdin})())
        assert main(["replay", "-", "--html", "page.html"]) == 0
    assert "Wrote page.html" in capsys.readouterr().out
    assert "Tic-Tac-Five" in (tmp_path / "page.html").read_text(encoding="utf-8")


def test_at_most_the_limit_and_one_byte_more_is_read(tmp_path):
    asked: list[int] = []

    class Endless:
        def read(self, size: int = -1) -> bytes:
            asked.append(size)
            assert size >= 0, "an endless stream read whole"
            return b"#" * size

    with pytest.raises(RecordUnreadable, match=r"^Standard input holds more than 1024 KiB;"):
        read_record_bytes("-", stdin=Endless())  # type: ignore[arg-type]
    assert asked == [MAX_RECORD_BYTES + 1]
    exactly = tmp_path / "exactly.txt"
    exactly.write_bytes(b"#" * MAX_RECORD_BYTES)
    assert read_record_bytes(str(exactly)) == (b"#" * MAX_RECORD_BYTES, f"the file {str(exactly)!r}")


def test_the_readme_says_the_limit_of_every_command_that_reads_a_record():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The commands and their exit codes", 1)[1].split("\n## ", 1)[0]
    assert "A record file (`FILE`, or `-` for standard input) may be at most 1 MiB" in " ".join(section.split())
