"""The rules stay pure: geniusbot/games imports only the standard library and itself."""

import ast
import sys
from pathlib import Path

import geniusbot.games

GAMES_DIR = Path(geniusbot.games.__file__).parent


def imported_top_level_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_games_import_only_the_standard_library():
    offenders = {}
    for path in sorted(GAMES_DIR.rglob("*.py")):
        foreign = {
            name
            for name in imported_top_level_modules(path)
            if name not in sys.stdlib_module_names and name not in {"geniusbot", "__future__"}
        }
        if "asyncio" in imported_top_level_modules(path):
            foreign.add("asyncio")
        if foreign:
            offenders[path.name] = sorted(foreign)
    assert offenders == {}


def test_the_check_sees_a_foreign_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import discord\nfrom PIL import Image\nimport json\n")
    found = {n for n in imported_top_level_modules(sample) if n not in sys.stdlib_module_names}
    assert found == {"discord", "PIL"}
