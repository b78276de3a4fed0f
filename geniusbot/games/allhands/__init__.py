"""All Hands On Deck, the final match of three tasks, and its tasks as games of their own (seed 001).

The rules (standard library only): ``common`` (the anomalies and what the tasks share),
``tiles`` (Tile Decklaration), ``decks`` (Dueling Decks), ``swabbing`` (Deck Swabbing) and
``final`` (the final match that plays them). ``text`` holds their text boards; the
``picture_*`` modules draw their views with Pillow.
"""

from .decks import DuelingDecks
from .final import AllHandsOnDeck
from .swabbing import DeckSwabbing
from .tiles import TileDecklaration

__all__ = ["AllHandsOnDeck", "DeckSwabbing", "DuelingDecks", "TileDecklaration"]
