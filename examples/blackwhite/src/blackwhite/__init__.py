"""Black and White, a game for geniusbot installed from outside it (the ``geniusbot.games`` entry point).

``rules`` holds the game (standard library only), ``text`` its text board, ``picture`` draws a
view with ``geniusbot.render``.
"""

from .rules import BlackAndWhite

__all__ = ["BlackAndWhite"]
