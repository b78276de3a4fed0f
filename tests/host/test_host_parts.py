"""The host's parts speak to each other through public methods: a call in one module of
``geniusbot/host/`` to a private method (``self._x(...)``, ``obj._x(...)``) defined only in another
module is counted here. The parts that are objects of their own take none; the count of the
mixins still sharing one state may only fall (the house's aim is none)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import geniusbot.host

HOST = Path(geniusbot.host.__file__).parent

#: Calls across the modules still composed as mixins of one state (actions, commands, deadlines,
#: recovery, routing): lower this as parts become objects; never raise it.
MIXIN_CALLS_AT_MOST = 0

#: Parts that are objects of their own: nothing outside them calls their private methods, and
#: they call none of another module's.
OBJECTS = (
    "cache.py",
    "arming.py",
    "posted.py",
    "announce.py",
    "committer.py",
    "heartbeat.py",
    "deadlines.py",
    "recovery.py",
)


def private_calls(root: Path) -> Counter[tuple[str, str]]:
    """(calling module, private method) -> calls, for each private method called in a module of
    ``root`` that is defined only in other modules of ``root``."""
    defined: dict[str, set[str]] = {}
    trees = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.glob("*.py"))}
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and is_private(node.name):
                defined.setdefault(node.name, set()).add(name)
    calls: Counter[tuple[str, str]] = Counter()
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method = node.func.attr
                if method in defined and name not in defined[method]:
                    calls[(name, method)] += 1
    return calls


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_the_counter_finds_a_private_call_across_modules(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class A:\n    def _hidden(self): ...\n    def own(self):\n        self._hidden()\n")
    (tmp_path / "b.py").write_text("def f(a):\n    a._hidden()\n    a.own()\n    a.__init__()\n")
    assert private_calls(tmp_path) == Counter({("b.py", "_hidden"): 1})


def test_no_part_calls_a_private_method_of_an_object_part() -> None:
    calls = private_calls(HOST)
    owned = {
        node.name
        for part in OBJECTS
        for node in ast.walk(ast.parse((HOST / part).read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and is_private(node.name)
    }
    into = {key: n for key, n in calls.items() if key[1] in owned}
    out_of = {key: n for key, n in calls.items() if key[0] in OBJECTS}
    assert into == {} and out_of == {}


def test_the_private_calls_across_the_host_parts_only_fall() -> None:
    total = sum(private_calls(HOST).values())
    assert total <= MIXIN_CALLS_AT_MOST, f"{total} private calls across the host's modules"
