"""What a failed check raises: :class:`CheckFailed`, a sentence of what was wrong, where it was
met (the rule set, the seed, the action) and what to do about it.

A check is plain code that raises; it needs no test runner. :class:`CheckFailed` is an
``AssertionError``, so pytest reports it as it reports a failed ``assert``, with the sentence.
Checks never use ``assert`` themselves (``python -O`` would take it out): they call
:func:`expect` or raise.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class CheckFailed(AssertionError):
    """A game broke a rule of the contract.

    ``what`` says what was wrong, ``todo`` what to do about it (may be empty: the check's own
    advice is given then), ``places`` where it was met, the outermost first ("rule set
    standard", "seed 2", "action 14"). ``check`` is the name of the check that failed, set by
    the runner.
    """

    def __init__(self, what: str, todo: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.todo = todo
        self.places: list[str] = []
        self.check = ""

    def __str__(self) -> str:
        where = f" ({', '.join(self.places)})" if self.places else ""
        todo = self.todo if not self.todo or self.todo.endswith((".", "?", "!")) else self.todo + "."
        todo = f" To fix: {todo}" if todo else ""
        return f"{self.what.rstrip('. ')}{where}.{todo}"


def expect(condition: object, what: str, todo: str = "") -> None:
    """Raise :class:`CheckFailed` with ``what`` (and ``todo``) unless ``condition`` holds."""
    if not condition:
        raise CheckFailed(what, todo)


@contextmanager
def where(place: str) -> Iterator[None]:
    """Name the place of a failure inside the block ("seed 2"); an exception the game itself
    raised inside it (a ``KeyError`` in ``play``) becomes a :class:`CheckFailed` that names it
    and the line of the game's code it came from. An empty ``place`` names none."""
    try:
        yield
    except CheckFailed as failed:
        if place:
            failed.places.insert(0, place)
        raise
    except Exception as error:
        raised = CheckFailed(
            f"the game raised {type(error).__name__}: {error}{_origin(error)}",
            "a game raises only a GameError (its subclasses) for a refused submission, and nothing for "
            "a legal one; run the check with --log-level DEBUG for the whole traceback.",
        )
        if place:
            raised.places.insert(0, place)
        raise raised from error


def _origin(error: BaseException) -> str:
    """`` at rules.py:123 in play``: the innermost frame of the traceback, or ``""``."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" at {Path(last.filename).name}:{last.lineno} in {last.name}"
