"""The catalogue is made by Babel's own extraction, so every message's English must be written
where a translator's tools find it: a literal in a call of ``say``, ``say_n``, ``say_c`` or
``say_nc`` (or ``Message``), never a variable or an f-string. And the committed template,
``geniusbot/locales/geniusbot.pot``, holds every message the code has (docs/words.md says how it
is made again)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The message makers, and which of their positional arguments are English (the rest are contexts).
MAKERS = {"say": (0,), "say_n": (0, 1), "say_c": (1,), "say_nc": (1, 2), "Message": (0,)}
SOURCES = sorted(
    path
    for folder in (ROOT / "geniusbot", ROOT / "examples")
    for path in folder.rglob("*.py")
    if ".venv" not in path.parts and "site-packages" not in path.parts
)


def _imported_makers(tree: ast.Module, path: Path) -> set[str]:
    """The message makers ``path`` imports from geniusbot.words (a module's own ``say`` that prints
    is another function)."""
    if path.parent.name == "words" and path.parent.parent.name == "geniusbot":
        return set(MAKERS)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("geniusbot.words", "geniusbot.words.message"):
            names |= {alias.name for alias in node.names if alias.name in MAKERS and alias.asname is None}
    return names


def messages_not_written_as_literals(path: Path) -> list[str]:
    """Calls of a message maker in ``path`` whose English is not a string literal."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    makers = _imported_makers(tree, path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (maker := node.func.id) in makers:
            if maker == "Message" and path.name == "message.py":
                continue  # the class's own plumbing (from_dict) makes messages from stored data
            for index in MAKERS[maker]:
                if index >= len(node.args):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {maker}() without its English")
                    break
                arg = node.args[index]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {maker}() of {ast.unparse(arg)}")
    return found


def test_every_messages_english_is_a_literal_the_extractor_finds():
    found = [problem for path in SOURCES for problem in messages_not_written_as_literals(path)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ('say("{seat} passes", seat=Seat("p1"))', False),
        ('say_c("colour", "red")', False),
        ("say(text)", True),
        ('say(f"{seat} passes")', True),
        ('say_n("one", plural)', True),
    ],
)
def test_the_literal_check_itself(source, caught):
    path = ROOT / "tests" / "words" / "_probe.py"
    try:
        path.write_text("from geniusbot.words import say, say_c, say_n\n" + source + "\n", encoding="utf-8")
        assert bool(messages_not_written_as_literals(path)) is caught
    finally:
        path.unlink(missing_ok=True)


#: The extraction's keywords, as the command in docs/words.md gives them to pybabel.
KEYWORDS = {"say": None, "say_n": (1, 2), "say_c": ((1, "c"), 2), "say_nc": ((1, "c"), 2, 3), "Message": None}
TEMPLATE = ROOT / "geniusbot" / "locales" / "geniusbot.pot"


def extracted(folder: Path = ROOT / "geniusbot") -> set[tuple[str | None, str]]:
    """Every (context, English) of the messages under ``folder`` (geniusbot's own by default), as
    Babel extracts them from the source."""
    from babel.messages.extract import extract_from_dir

    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(folder, keywords=KEYWORDS):
        found.add((context, message[0] if isinstance(message, tuple) else message))
    return found


def test_the_committed_template_holds_every_message_of_the_code():
    from babel.messages.pofile import read_po

    with TEMPLATE.open("rb") as source:
        template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in read_po(source) if m.id}
    missing = extracted() - template
    stale = template - extracted()
    assert not missing and not stale, (
        f"geniusbot.pot is out of date: {len(missing)} messages missing, {len(stale)} gone "
        f"(e.g. {sorted(missing or stale, key=str)[:3]}); make it again as docs/words.md says"
    )


def test_the_example_plug_ins_template_holds_every_message_of_its_code():
    from babel.messages.pofile import read_po

    package = ROOT / "examples" / "blackwhite" / "src" / "blackwhite"
    with (package / "locales" / "blackwhite.pot").open("rb") as source:
        template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in read_po(source) if m.id}
    assert template == extracted(package), "make the example's blackwhite.pot again (docs/writing-a-game.md)"
