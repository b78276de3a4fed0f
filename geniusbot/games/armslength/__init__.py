"""Arm's Length: four in a row where every stone pushes its neighbours away (seed 003).

``rules`` holds the game (standard library only), ``picture`` draws its view with Pillow.
"""

from .rules import ArmsLength

__all__ = ["ArmsLength"]
