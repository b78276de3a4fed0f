"""Tic-Tac-Five: gomoku on 15 x 15 with a swap opening and no double three (seed 002).

``rules`` holds the game (standard library only), ``picture`` draws its view with Pillow.
"""

from .rules import TicTacFive

__all__ = ["TicTacFive"]
