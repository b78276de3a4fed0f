"""Tightwire, Deadly Influx and Threads of Fate: lines, moves and captures on a board of dots (seed 000).

``rules`` holds the game and the rules its rule sets share, ``rulesets`` the three rule sets (a
subclass each), ``notation`` the move and how it is typed, ``layout`` the boards and the ``setup``
option, ``geometry`` the boards of dots (all standard library only), ``text`` its text board,
``picture`` draws its view with Pillow.
"""

from .rules import Tightwire
from .rulesets import ClassicTightwire, DeadlyInflux, ThreadsOfFate

__all__ = ["ClassicTightwire", "DeadlyInflux", "ThreadsOfFate", "Tightwire"]
