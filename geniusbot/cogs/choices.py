"""Choice buttons: one button per option of a choice, in the game room or, for a sealed answer,
in the player's DM. Which options are offered is the host's (:mod:`geniusbot.host.offers`);
this module draws them as Discord buttons and says what the message above them reads.

A button's custom_id carries the match, the seat and the text to submit (``gb:choice:12:p2:white``
in the room, ``gb:dm:12:p1:pass`` in a DM), so buttons posted before a restart still work:
the class is a discord.py dynamic item, registered with ``add_dynamic_items`` at start. These
formats are what running matches' buttons carry: they never change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from geniusbot.host.offers import listing
from geniusbot.words import Verbatim, Words, say

from . import bot_of

#: Discord allows this many characters in a custom_id.
CUSTOM_ID_LIMIT = 100
#: Where a choice is answered, as its custom_id names it: the room ("choice") or a DM ("dm").
_KIND = {False: "choice", True: "dm"}


@dataclass
class Offer:
    """A message with choice buttons the bot posted: where, for whom, what (``asks``: what a
    sealed question asks, the game's ``choice_key`` and the options, so that the same question
    is not offered twice)."""

    channel_id: int
    message_id: int
    seat: str
    texts: tuple[str, ...]
    asks: tuple[Any, ...] = ()


def choice_id(match_id: int, seat: str, text: str, *, private: bool = False) -> str:
    """The custom_id of a choice button: ``gb:choice:12:p2:white``, or ``gb:dm:...`` for a
    sealed answer in a DM (Discord allows 100 characters; see :func:`fits`)."""
    return f"gb:{_KIND[private]}:{match_id}:{seat}:{text}"


def private_choice_id(match_id: int, seat: str, text: str) -> str:
    """The custom_id of a sealed-answer button in a DM."""
    return choice_id(match_id, seat, text, private=True)


def fits(match_id: int, seat: str, texts: list[str] | tuple[str, ...], *, private: bool = False) -> bool:
    """Whether every option's custom_id fits Discord's 100 characters (else players type it)."""
    return all(len(choice_id(match_id, seat, text, private=private)) <= CUSTOM_ID_LIMIT for text in texts)


def button_label(text: str) -> str:
    """A button's label for a choice text: ``red first`` -> ``Red first``."""
    return (text[:1].upper() + text[1:])[:80]


def choice_message(
    label: str, texts: list[str] | tuple[str, ...], *, closed: bool = False, words: Words | None = None
) -> str:
    """The message above a choice's buttons, in ``words`` (English by default): whose choice it is
    (``label``, the room's name of the seat) and how to answer, with the options (as they are
    typed) only when they are few and short (``closed``: the same message once it is over).

    ``bob (p2), choose: black / white. Press a button or type your choice.``;
    ``alice (p1): choose with a button, or type your choice.``
    """
    words = words or Words()
    seat = Verbatim(label)
    listed = listing(texts)
    if listed is not None:
        options = Verbatim(listed)
        if closed:
            return words(say("{seat}, choose: {options}. This choice is closed.", seat=seat, options=options))
        return words(say("{seat}, choose: {options}. Press a button or type your choice.", seat=seat, options=options))
    if closed:
        return words(say("{seat}: this choice is closed.", seat=seat))
    return words(say("{seat}: choose with a button, or type your choice.", seat=seat))


def sealed_answer_message(match_id: int, texts: list[str] | tuple[str, ...], *, words: Words | None = None) -> str:
    """The DM above a sealed answer's buttons, in ``words`` (English by default)."""
    return (words or Words())(
        say(
            "Match #{match}, your sealed answer: {options}. Press a button or send it here as text.",
            match=match_id,
            options=Verbatim(" / ".join(texts)),
        )
    )


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"gb:(?P<kind>choice|dm):(?P<match>\d+):(?P<seat>p\d+):(?P<text>.+)",
):
    """One option of a choice: pressed in the room, it submits its text there for its seat; in a
    DM (``private``), it sends the text privately, as if the player had typed it there."""

    def __init__(self, match_id: int, seat: str, text: str, *, private: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=button_label(text),
                style=discord.ButtonStyle.primary,
                custom_id=choice_id(match_id, seat, text, private=private),
            )
        )
        self.match_id = match_id
        self.seat = seat
        self.text = text
        self.private = private

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceButton:
        return cls(int(match["match"]), match["seat"], match["text"], private=match["kind"] == _KIND[True])

    async def callback(self, interaction: discord.Interaction) -> None:
        from .matches import Matches  # which imports this module

        bot = bot_of(interaction)
        try:
            cog = bot.get_cog("Matches")
            assert isinstance(cog, Matches)  # added with these buttons (matches.setup)
            await cog.press_choice(interaction, self.match_id, self.seat, self.text, private=self.private)
        except Exception as error:  # the tree's handler answers, as for a slash command
            await bot.on_app_command_error(interaction, error)


def choice_view(
    match_id: int, seat: str, texts: list[str] | tuple[str, ...], *, private: bool = False
) -> discord.ui.View:
    """The buttons of one choice (no timeout: they live as long as the message)."""
    view = discord.ui.View(timeout=None)
    for text in texts:
        view.add_item(ChoiceButton(match_id, seat, text, private=private))
    return view
