"""The bot's cogs: thin adapters from Discord events to the match host.

Each cog module ends in ``async def setup(bot)``. This package module holds what several cogs
share and what the tests check on its own: who may host, the option syntax of ``/start``, the
chatter test for room messages, and the choices a game offers by buttons. None of it holds
rules: choices come from the game's own ``legal_moves``, chatter from its own parser and keywords.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

import discord

from geniusbot.games import Game, GameError, MalformedMoveError, NotYourTurnError, notation_words

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

#: Discord shows at most 25 buttons on a message (5 rows of 5).
MAX_BUTTONS = 25
#: A choice message lists its options only when they are this few and this short together
#: ("black / white"); otherwise the buttons show them (and the board above often names them too).
LISTED_OPTIONS = 3
LISTED_OPTIONS_CHARS = 40
#: A message with more words than this and no coordinate is chatter, if the game refuses it:
#: a word of the game's notation in a long sentence ("I would like to pick something") is talk.
CHATTER_WORDS = 3
#: A word is a typo of a game's word when difflib finds them this close and it has this many
#: letters at least: "blakc" is black, "whit" white; a shorter word is a word of its own more
#: often than a slip ("all" is not "call", "one" not "none", and "gg" nobody's typo).
TYPO_CUTOFF = 0.8
TYPO_MIN_LETTERS = 4
#: Words a notation uses only to join a move's parts ("draw B5-C3 and move"): they are everyday
#: words too, so they do not make a message a move attempt.
JOINING_WORDS = frozenset({"and"})

#: What a seated player who types a command's name in the game room is told instead of a move
#: refusal: the commands are slash commands (no game takes these words as a move).
COMMAND_HINTS = {
    "resign": "to resign, use /resign.",
    "pause": "to pause the match, a host uses /pause.",
    "resume": "to resume the match, a host uses /resume.",
    "abort": "to abort the match, a host uses /abort.",
    "status": "to see the match's status, use /status.",
    "rules": "to read the rules, use /rules.",
    "help": "/rules gives the rules and the notation; /status shows the match.",
}

# A token such as H8, e4, B5-C3, a12: a column letter (or two) and a row number.
_COORDINATE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,2}\d{1,2}(?![A-Za-z0-9])")
# "key=" starts a new option in /start's options text; values may hold spaces, commas, semicolons.
_OPTION_START = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)\s*=")


def bot_of(interaction_or_client: Any) -> GeniusBot:
    """The :class:`~geniusbot.bot.GeniusBot` behind an interaction (or a client)."""
    return getattr(interaction_or_client, "client", interaction_or_client)


def parse_options(text: str | None) -> dict[str, str]:
    """``"setup=red C3 F6; blue F3 C6 dmo=p1"`` as ``{"setup": "red C3 F6; blue F3 C6", "dmo": "p1"}``.

    Each ``name=`` starts a new option, so a value may contain spaces, commas and semicolons.
    Raises :class:`ValueError` with a sentence for text that names no option.
    """
    text = (text or "").strip()
    if not text:
        return {}
    starts = list(_OPTION_START.finditer(text))
    if not starts or text[: starts[0].start()].strip():
        raise ValueError(f"Write the options as name=value pairs, such as 'setup=red C3 F6; blue F3 C6', not {text!r}.")
    options: dict[str, str] = {}
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        options[match.group(1).lower()] = text[match.end() : end].strip()
    return options


def needs_dms(game_class: type[Game]) -> bool:
    """Whether a game takes private submissions (it says which moves are private), so its
    players must be reachable by direct message before a match starts."""
    return game_class.takes_private_moves()


def is_game_word(word: str, keywords: frozenset[str]) -> bool:
    """Whether ``word`` (lower case) is one of ``keywords`` or a close typo of one, joining
    words (``and``) aside."""
    if word in JOINING_WORDS:
        return False
    if word in keywords:
        return True
    return len(word) >= TYPO_MIN_LETTERS and bool(
        difflib.get_close_matches(word, keywords - JOINING_WORDS, n=1, cutoff=TYPO_CUTOFF)
    )


def looks_like_notation(text: str, keywords: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` may be a move attempt: it has a coordinate-like token (H8, B5-C3), or it
    is a command's name (``resign``), or it is short (three words at most) and one of its words
    is one of the game's ``keywords`` or a close typo of one (``blakc``)."""
    if _COORDINATE.search(text) or command_hint(text) is not None:
        return True
    if len(text.split()) > CHATTER_WORDS:
        return False
    return any(is_game_word(word, keywords) for word in notation_words(text))


def command_hint(text: str) -> str | None:
    """What to tell a player who typed a command's name as a message (``resign``, ``/Pause``,
    ``status?``: the word alone, in any case), else ``None``."""
    word = text.strip().lower().removeprefix("/").rstrip(".!?").strip()
    return COMMAND_HINTS.get(word)


def is_chatter(game: Game, seat: str, text: str) -> bool:
    """Whether a seated player's room message is clearly not a move attempt (ignored, no reply).

    Chatter: the game's parser refuses the text as malformed (or as out of turn, since a waiting
    player talks too), AND it does not look like notation (:func:`looks_like_notation` with the
    game's keywords): "gg", "nice move", "good luck and have fun everyone". A legal move is never
    chatter (the parser reads it first); everything else goes to the host, which takes it or
    answers why not.
    """
    try:
        game.parse_move(text, seat)
    except (MalformedMoveError, NotYourTurnError):
        return not looks_like_notation(text, type(game).keywords)
    except GameError:
        return False
    return False


def choice_offer(game: Game) -> tuple[str, list[str]] | None:
    """``(seat, texts)`` when the seat to move picks one of a few named options now, else ``None``.

    The texts are the game's own legal moves, exactly as a player could type them.
    """
    if game.is_over:
        return None
    movers = game.to_move()
    if len(movers) != 1:
        return None
    if not game.choosing():
        return None
    texts: list[str] = []
    for move in game.legal_moves(movers[0]):
        if game.is_private(move):
            return None  # a button press is seen by the room; private answers go by DM
        text = move.text()
        if text not in texts:
            texts.append(text)
        if len(texts) > MAX_BUTTONS:
            return None
    return (movers[0], texts) if len(texts) >= 2 else None


def private_choice_offers(game: Game) -> dict[str, list[str]]:
    """Seat -> texts for each seat that answers a sealed question by DM now with one of a few
    options (a question every seat answers privately), else nothing.

    The texts are the game's own legal moves, all private, exactly as the player could send them.
    """
    if game.is_over or not game.choosing():
        return {}
    offers: dict[str, list[str]] = {}
    for seat in game.to_move():
        texts: list[str] = []
        for move in game.legal_moves(seat):
            if not game.is_private(move) or len(texts) >= MAX_BUTTONS:
                texts = []
                break
            if move.text() not in texts:
                texts.append(move.text())
        if len(texts) >= 2:
            offers[seat] = texts
    return offers


def choice_message(label: str, texts: list[str] | tuple[str, ...], *, closed: bool = False) -> str:
    """The message above a choice's buttons: whose choice it is and how to answer, with the
    options only when they are few and short (``closed``: the same message once it is over).

    ``bob (p2), choose: black / white. Press a button or type your choice.``;
    ``alice (p1): choose with a button, or type your choice.``
    """
    listing = " / ".join(texts)
    if len(texts) <= LISTED_OPTIONS and len(listing) <= LISTED_OPTIONS_CHARS:
        ending = "This choice is closed." if closed else "Press a button or type your choice."
        return f"{label}, choose: {listing}. {ending}"
    return f"{label}: this choice is closed." if closed else f"{label}: choose with a button, or type your choice."


def button_label(text: str) -> str:
    """A button's label for a choice text: ``red first`` -> ``Red first``."""
    return (text[:1].upper() + text[1:])[:80]


async def host_refusal(interaction: discord.Interaction, what: str) -> str | None:
    """Why the user may not ``what`` (start, pause...) a match here, or ``None`` if they may.

    Members with Manage Server may always; otherwise the guild's host role (``/setup``) is needed.
    """
    bot = bot_of(interaction)
    member = interaction.user
    if interaction.guild is None or not isinstance(member, discord.Member):
        return "Matches are hosted in a server; use this command there."
    if interaction.permissions.manage_guild or member.guild_permissions.manage_guild:
        return None
    assert bot.store is not None
    config = await bot.store.get_guild_settings(interaction.guild.id)
    if config.host_role_id is None:
        return (
            f"Only members with the Manage Server permission can {what} a match here until an admin "
            "names a host role with /setup."
        )
    if any(role.id == config.host_role_id for role in member.roles):
        return None
    role = interaction.guild.get_role(config.host_role_id)
    name = f"the {role.name} role" if role else "the host role"
    return f"Only members with {name} (or Manage Server) can {what} a match; ask one of them."
