"""The host's parts speak to each other through public methods: a call in one module of
``geniusbot/host/`` to a private method (``self._x(...)``, ``obj._x(...)``) defined only in another
module is counted here, and there is none. Each part is an object of its own, made in the host's
constructor; the host is no mixin of them."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, cast

import geniusbot.host
from geniusbot.host.match import Host
from geniusbot.host.transport import RecordingTransport

if TYPE_CHECKING:
    from geniusbot.storage import Store

HOST = Path(geniusbot.host.__file__).parent

#: The host's parts, each an object of its own made in :class:`~geniusbot.host.match.Host`'s constructor.
PARTS = {
    "cache": "cache.py",
    "arming": "arming.py",
    "heartbeat": "heartbeat.py",
    "posted": "posted.py",
    "announcer": "announce.py",
    "committer": "committer.py",
    "deadlines": "deadlines.py",
    "recovery": "recovery.py",
    "commands": "commands.py",
    "actions": "actions.py",
    "routing": "routing.py",
}


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


def test_no_module_of_the_host_calls_a_private_method_of_another() -> None:
    assert private_calls(HOST) == Counter()


def test_the_host_is_made_of_objects_not_mixins() -> None:
    assert Host.__bases__ == (object,)
    host = Host(cast("Store", None), RecordingTransport())  # the constructor reads no store: it wires
    for attribute, module in PARTS.items():
        part = getattr(host, attribute)
        assert type(part).__module__ == f"geniusbot.host.{module.removesuffix('.py')}", attribute
        assert type(part).__bases__ == (object,), attribute
