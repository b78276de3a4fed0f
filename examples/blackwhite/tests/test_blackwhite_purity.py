"""The package keeps geniusbot's house rule: the rules import the standard library, geniusbot's
rules API and its words (``geniusbot.words``) only; the picture adds Pillow and geniusbot's
drawing toolkit."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import blackwhite

PACKAGE = Path(blackwhite.__file__).parent


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def foreign(path: Path) -> set[str]:
    allowed = {"geniusbot.games", "geniusbot.words"} | (
        {"geniusbot.render", "PIL"} if path.name.startswith("picture") else set()
    )
    return {
        name
        for name in imports(path)
        if not (name == "__future__" or (name.split(".")[0] in sys.stdlib_module_names and name != "asyncio"))
        and not any(name == a or name.startswith(a + ".") for a in allowed)
    }


def test_the_rules_import_only_the_standard_library_and_the_rules_api():
    assert {path.name: foreign(path) for path in sorted(PACKAGE.glob("*.py")) if foreign(path)} == {}


def test_the_rules_never_import_the_picture():
    for path in PACKAGE.glob("*.py"):
        if not path.name.startswith("picture"):
            assert not any("picture" in name for name in imports(path)), path.name
