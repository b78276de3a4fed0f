"""geniusbot: a Discord game master for Genius-style death matches and final matches."""

__version__ = "0.1.0"
