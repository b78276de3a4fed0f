"""A board as Discord lays out a card: a Components V2 message (discord.py's ``LayoutView``) made of
the host's :class:`~geniusbot.host.transport.BoardCard`.

The card is one container, its accent the colour of the seat to move: the match's title, the
board's picture (a media gallery of the uploaded file, its alt text as the item's description),
the caption's lines and the last move, each clock (a running one as a Discord timestamp,
``<t:UNIX:R>``, which counts down to its deadline with no edit), an edited card's log of the
latest moves, and the board's buttons (their custom ids the bot's dynamic items', so a press
works across restarts). Mentions of the players to move go in a text of their own under it.

Within Discord's limits: 4,000 characters of text in all (the log gives way first, its oldest
lines, then the lines are cut) and a media description of at most 1,024 characters.
"""

from __future__ import annotations

import io

import discord

from geniusbot.host.transport import BoardCard

#: Discord's limit on the characters of all a message's text displays together.
TEXT_LIMIT = 4000
#: Discord's limit on a media item's description (alt text).
DESCRIPTION_LIMIT = 1024
#: A card button's style by its kind.
_STYLES = {"private": discord.ButtonStyle.secondary}


def timestamp(deadline: float) -> str:
    """A moment as Discord shows it, relative and kept live by the reader's client: ``<t:1700000000:R>``."""
    return f"<t:{round(deadline)}:R>"


def described(alt: str) -> str | None:
    """A picture's description as Discord takes it: at most :data:`DESCRIPTION_LIMIT` characters,
    cut at a line with an ellipsis; ``None`` for none."""
    if not alt:
        return None
    if len(alt) <= DESCRIPTION_LIMIT:
        return alt
    cut = alt[: DESCRIPTION_LIMIT - 1]
    return (cut.rsplit("\n", 1)[0] if "\n" in cut else cut) + "…"


def card_texts(card: BoardCard, mention: str = "") -> list[str]:
    """The card's texts, in order (title, lines and last move, clocks, log, mention), within
    :data:`TEXT_LIMIT` characters together: the log's oldest lines go first, then the texts are cut."""
    title = f"### {card.title}"
    lines = "\n".join(t for t in (*card.lines, card.last_move) if t)
    clocks = "\n".join(c.line(timestamp(c.deadline)) if c.deadline is not None else c.text for c in card.clocks)
    log = list(card.log)

    def texts() -> list[str]:
        logged = "\n".join([f"**{card.log_heading}**", *(f"- {line}" for line in log)]) if log else ""
        return [t for t in (title, lines, clocks, logged, mention) if t]

    while log and sum(len(t) for t in texts()) > TEXT_LIMIT:
        log.pop(0)
    out = texts()
    room = TEXT_LIMIT
    cut = []
    for text in out:
        piece = text if len(text) <= room else text[: max(0, room - 1)] + "…"
        if room <= 1:
            break
        cut.append(piece)
        room -= len(piece)
    return cut


def card_view(card: BoardCard, filename: str, mention: str = "") -> tuple[discord.ui.LayoutView, discord.File]:
    """The card's layout and its picture's file (named ``filename``), to send or edit with."""
    file = discord.File(io.BytesIO(card.png), filename=filename, description=described(card.alt))
    texts = card_texts(card, mention)
    mentioned = mention and texts and texts[-1] == mention
    body = texts[:-1] if mentioned else texts
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(body[0]))
    gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
    gallery.add_item(media=f"attachment://{filename}", description=described(card.alt))
    container.add_item(gallery)
    for text in body[1:]:
        if card.log and text.startswith(f"**{card.log_heading}**"):
            container.add_item(discord.ui.Separator())
        container.add_item(discord.ui.TextDisplay(text))
    if card.buttons:
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for button in card.buttons[:5]:
            row.add_item(
                discord.ui.Button(
                    label=button.label[:80],
                    style=_STYLES.get(button.kind, discord.ButtonStyle.secondary),
                    custom_id=f"gb:{button.kind}:{button.match_id}",
                )
            )
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    if mentioned:
        view.add_item(discord.ui.TextDisplay(mention))
    return view, file
