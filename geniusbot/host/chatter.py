"""Table talk or a move attempt? The test a room message of a seated player goes through.

A room is where players talk as well as move: "gg", "nice move" and "good luck and have fun
everyone" are not moves, and answering each with a refusal would drown the game. This module
says which messages are clearly talk (ignored, no reply) and which command words typed as a
message ("resign", "/pause") deserve a pointer to the command instead. It holds no rules: the
game's own parser and keywords decide, and it knows nothing of any transport but the prefix
its users write before a command ("/" on Discord, "" at the console). A message is read as the
host reads a move (:func:`~geniusbot.games.typed`, NFKC: a full-width ``Ｈ８`` is ``H8``), and
a seat asked to choose in the room is answered whatever it types (``docs/host.md``, ruling 1).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from geniusbot.games import Game, GameError, MalformedMoveError, NotYourTurnError, notation_words, typed
from geniusbot.words import Message, Verbatim, Words, say

from .offers import choice_offer

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

#: What a seated player who types a command's name as a room message is told instead of a move
#: refusal (no game takes these words as a move). ``{resign}``, ``{pause}``... stand for the
#: commands as the transport's users write them (:func:`command_hint`).
#: (Each a message whose fields are filled in with the commands as written, :func:`command_said`.)
COMMAND_HINTS: dict[str, Message] = {
    "resign": say("to resign, use {resign}.", resign=Verbatim("resign")),
    "pause": say("to pause the match, a host uses {pause}.", pause=Verbatim("pause")),
    "resume": say("to resume the match, a host uses {resume}.", resume=Verbatim("resume")),
    "abort": say("to abort the match, a host uses {abort}.", abort=Verbatim("abort")),
    "status": say("to see the match's status, use {status}.", status=Verbatim("status")),
    "rules": say("to read the rules, use {rules}.", rules=Verbatim("rules")),
    "help": say(
        "{rules} gives the rules and the notation; {status} shows the match.",
        rules=Verbatim("rules"),
        status=Verbatim("status"),
    ),
}

# A token such as H8, e4, B5-C3, a12: a column letter (or two) and a row number.
_COORDINATE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,2}\d{1,2}(?![A-Za-z0-9])")


def command_word(text: str, prefix: str = "") -> str | None:
    """The command's name a message is made of (``resign``, ``/Pause``, ``status?``: the word
    alone, in any case, with or without ``prefix`` or a slash before it), else ``None``."""
    word = typed(text).strip().lower()
    # One prefix at most: "//pause" is table talk (see CHAT_PREFIXES), not a command.
    for written in (prefix, "/"):
        if written and word.startswith(written):
            word = word[len(written) :]
            break
    word = word.rstrip(".!?").strip()
    return word if word in COMMAND_HINTS else None


def command_hint(text: str, prefix: str, *, seat: str | None = None) -> str | None:
    """:func:`command_said` in English."""
    said = command_said(text, prefix, seat=seat)
    return Words()(said) if said is not None else None


def command_said(text: str, prefix: str, *, seat: str | None = None) -> Message | None:
    """What to tell a player who typed a command's name as a message, naming the commands as the
    transport's users write them (``prefix``: "/" on Discord, "" at the console, where a command
    is quoted: "'rules' gives the rules"), else ``None``.

    ``seat``: where the resign command names the seat that resigns (the console's
    ``resign p1``), the seat of the player told; without it the command is its name alone
    (Discord's ``/resign`` knows who typed it).
    """
    word = command_word(text, prefix)
    if word is None:
        return None
    written = {name: f"{prefix}{name}" for name in COMMAND_HINTS}
    if seat is not None:
        written["resign"] = f"{prefix}resign {seat}"
    if not prefix:  # a bare word reads as what to type only in quotes: "'rules' gives the rules"
        written = {name: f"'{command}'" for name, command in written.items()}
    hint = COMMAND_HINTS[word]
    return replace(hint, args={name: Verbatim(written[name]) for name in hint.args})


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
    if _COORDINATE.search(text) or command_word(text) is not None:
        return True
    if len(text.split()) > CHATTER_WORDS:
        return False
    return any(is_game_word(word, keywords) for word in notation_words(text))


def is_chatter(game: Game, seat: str, text: str) -> bool:
    """Whether a seated player's room message is clearly not a move attempt (ignored, no reply).

    Chatter: the game's parser refuses the text (read as :func:`~geniusbot.games.typed` reads
    it) as malformed (or as out of turn, since a waiting player talks too), AND it does not look
    like notation (:func:`looks_like_notation` with the game's keywords): "gg", "nice move",
    "good luck and have fun everyone". Never chatter: a legal move (the parser reads it first),
    and anything the seat asked to choose in the room types (``purple`` when black or white is
    asked is answered with the options, or a player with no buttons would wait for ever).
    Everything that is not chatter goes to the host, which takes it or answers why not.
    """
    text = typed(text)
    if _COORDINATE.search(text) or command_word(text) is not None:
        return False  # notation, whatever the parser says of it: the host parses it once, as it takes it
    try:
        game.parse_move(text, seat)
    except (MalformedMoveError, NotYourTurnError):
        if (offer := choice_offer(game)) is not None and offer[0] == seat:
            return False
        return not looks_like_notation(text, type(game).keywords)
    except GameError:
        return False
    return False
