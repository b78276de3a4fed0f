"""The refusals of the rules API: each ``str(error)`` is a sentence for the player, and a
refused submission changes nothing. :mod:`geniusbot.games.base` names them too."""

from __future__ import annotations

from geniusbot.words import Message, Words, say

#: Remembers what it said of each message: the rules refuse the same way many times over.
_ENGLISH = Words(remember=True)


class GameError(ValueError):
    """Any submission or option the rules refuse. ``str(error)`` is a sentence for the player.

    A refused submission changes nothing.

    Made of a message (``IllegalMoveError(say("{point} is taken.", point=Verbatim("H8")))``), the
    refusal is words as data: ``said`` is the message, which a host says in its language with the
    players' names, and ``str(error)`` its English with the seat ids (what the log keeps).
    """

    #: The English of :attr:`said`, made when first read (:meth:`__str__`): a host says the
    #: message in its own language, and the rules try many a move they refuse.
    _english: str | None = None

    def __init__(self, message: str | Message = "", *args: object) -> None:
        self.said: Message | None = message if isinstance(message, Message) else None
        super().__init__(message, *args)

    def __str__(self) -> str:
        if self.said is None or len(self.args) != 1:
            return super().__str__()
        if self._english is None:
            self._english = _ENGLISH(self.said)
        return self._english


class MalformedMoveError(GameError):
    """The text is not a move of this game at all ("write a point such as H8")."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid here and now ("H8 is taken")."""


class WrongPlaceError(IllegalMoveError):
    """A move sent to the wrong place: ``private`` is where it belongs (true: privately, by DM;
    false: in the game room). A host may tell its users how they send a move there."""

    def __init__(self, message: str | Message, *, private: bool) -> None:
        super().__init__(message)
        self.private = private


#: The refusal of a private submission (a DM) in a game whose moves are all made in the game room.
IN_THE_ROOM_SAID = say(
    "Type your move in the game room, not by direct message: in this game every move is made in the room."
)
#: Its English.
IN_THE_ROOM = IN_THE_ROOM_SAID.text


class AmbiguousMoveError(GameError):
    """The text could mean more than one legal move; the message lists the readings."""


class NotYourTurnError(GameError):
    """The seat may not submit now (the opponent is to move, or the game is over)."""


class OptionError(GameError):
    """A game option (variant, seed, setup, colour...) that the game cannot take."""
