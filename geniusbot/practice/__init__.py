"""The practice opponent: a search over the rules API that plays a seat from its views alone.

See :mod:`geniusbot.practice.engine` and ``docs/practice.md``.
"""

from .engine import LEVELS, MEMORY, Budget, Choice, Knowledge, PracticeError, choose

__all__ = ["LEVELS", "MEMORY", "Budget", "Choice", "Knowledge", "PracticeError", "choose"]
