"""The archive: ``/replay`` steps through a finished match, ``/record`` sends its record file.

A replay page's GIF button sends the whole match as an animated GIF (:mod:`geniusbot.archive.gif`),
drawn in a worker thread, one at a time; one that takes more than :data:`GIF_PROGRESS_AFTER`
seconds is told in a message edited as it goes, and a GIF past Discord's upload limit comes in parts.

Only ended matches (finished or aborted) are shown: a live match may still hide information
that the rules reveal only at its end. Steps are rebuilt from the match log by the host's replay
module (a :class:`~geniusbot.host.replay.Replay`: the log packed, a snapshot every few dozen
steps), one step at a time in a worker thread, so a match of thousands of moves keeps the event
loop free; replays are cached up to :data:`CACHE_BYTES` (an ended match never changes).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.archive.gif import MAX_BYTES, NoPicture, check_picture, make_gif
from geniusbot.archive.listing import listed, page_said, result_text, title_of
from geniusbot.archive.steps import RefusedNote, from_store
from geniusbot.bot import GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.games import get_game
from geniusbot.host import board
from geniusbot.host.naming import legacy_name_seats
from geniusbot.host.replay import Replay, ReplayCache, export_record, open_replay
from geniusbot.storage import ActionKind, MatchRecord
from geniusbot.storage.archive import ArchiveQuery, find_matches
from geniusbot.words import Listing, Message, Verbatim, say, say_c, say_n

from . import bot_of, players_of
from .analysis import AnalyseButton
from .ended import ended_match
from .options import game_autocomplete

log = logging.getLogger(__name__)

#: How many matches a page of /replay's list holds (a select menu takes at most 25).
LIST_SIZE = 15
RESULT_CHOICES = [
    app_commands.Choice(name=described(say_c("slash choice", "the first player won")), value="p1"),
    app_commands.Choice(name=described(say_c("slash choice", "the second player won")), value="p2"),
    app_commands.Choice(name=described(say_c("slash choice", "a draw")), value="draw"),
    app_commands.Choice(name=described(say_c("slash choice", "aborted")), value="aborted"),
]


def day_of(text: str | None, option: str) -> date | None:
    """A day typed as YYYY-MM-DD, or a refusal naming the option."""
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise Refusal(
            say(
                "{option} is a day written YYYY-MM-DD, such as 2026-12-07, not {text}.",
                option=Verbatim(option),
                text=Verbatim(repr(text)),
            )
        ) from None


#: The replays kept, in bytes (their own count): about 100 replays of 5,000-move matches.
CACHE_BYTES = 16 * 2**20
#: A GIF still being drawn after this many seconds gets a progress message, edited every
#: GIF_PROGRESS_EVERY seconds (the cog's attributes of the same names; a test sets them low).
GIF_PROGRESS_AFTER = 3.0
GIF_PROGRESS_EVERY = 2.0
NAVIGATION: tuple[tuple[str, Message], ...] = (
    ("first", say_c("replay button", "\u23ee First")),
    ("prev", say_c("replay button", "\u25c0 Previous")),
    ("next", say_c("replay button", "Next \u25b6")),
    ("last", say_c("replay button", "Last \u23ed")),
)


def target_step(tag: str, current: int, last: int) -> int:
    """The step a navigation button leads to from ``current`` (0..``last``)."""
    return {"first": 0, "prev": max(0, current - 1), "next": min(last, current + 1), "last": last}[tag]


def archive_of(bot: GeniusBot) -> Archive:
    """The bot's :class:`Archive` cog (added with the replay buttons, in :func:`setup`)."""
    cog = bot.get_cog("Archive")
    assert isinstance(cog, Archive)
    return cog


async def send_page(
    interaction: discord.Interaction,
    content: str,
    file: discord.File | None,
    view: discord.ui.View,
    *,
    ephemeral: bool,
) -> None:
    """Send a replay page as a follow-up: its text, its board picture if it has one, its buttons."""
    if file is None:
        await interaction.followup.send(content, view=view, ephemeral=ephemeral)
    else:
        await interaction.followup.send(content, view=view, ephemeral=ephemeral, file=file)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"gb:replay:(?P<match>\d+):(?P<step>\d+):(?P<tag>[a-z]+)",
):
    """First / previous / next / last of a replay; the custom_id holds the match and current step,
    so anyone can press it, also after a restart."""

    def __init__(self, match_id: int, step: int, tag: str, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:replay:{match_id}:{step}:{tag}",
                disabled=disabled,
            )
        )
        self.match_id, self.step, self.tag = match_id, step, tag

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["match"]), int(match["step"]), match["tag"], label or match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            cog = archive_of(bot)
            await interaction.response.defer()
            replay = await cog.replay_of(interaction, self.match_id)
            step = target_step(self.tag, self.step, replay.last)
            content, file, view = await cog.page(replay, step)
            await interaction.edit_original_response(content=content, attachments=[file] if file else [], view=view)
        except Exception as error:
            await bot.on_app_command_error(interaction, error)


class GifButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"gb:replay:(?P<match>\d+):gif"):
    """The GIF button of a replay page: the whole match as an animated GIF, to the one who pressed it."""

    def __init__(self, match_id: int, label: str = "GIF") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"gb:replay:{match_id}:gif")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GifButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["match"]), label or "GIF")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await archive_of(bot).send_gif(interaction, self.match_id)
        except Exception as error:
            await bot.on_app_command_error(interaction, error)


class ReplayPick(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"gb:replay-pick"):
    """The select menu under a list of finished matches: picking one opens its replay."""

    def __init__(self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="gb:replay-pick",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayPick:
        if isinstance(item, discord.ui.Select):
            return cls(list(item.options), item.placeholder)
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            cog = archive_of(bot)
            values = self.item.values or ["0"]  # what was picked (discord.py reads it from the interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            replay = await cog.replay_of(interaction, int(values[0]))
            await send_page(interaction, *await cog.page(replay, 0), ephemeral=True)
        except Exception as error:
            await bot.on_app_command_error(interaction, error)


class Archive(commands.Cog):
    """Replays and records of ended matches."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self._cache = ReplayCache(CACHE_BYTES)
        self.gif_progress_after = GIF_PROGRESS_AFTER
        self.gif_progress_every = GIF_PROGRESS_EVERY
        self._gif_turn = asyncio.Lock()

    async def replay_of(self, interaction: discord.Interaction, match_id: int) -> Replay:
        """The replay of an ended match this interaction may see, from the cache or its log."""
        await ended_match(self.bot, interaction, match_id)
        replay = self._cache.get(match_id)
        if replay is None:
            assert self.bot.store is not None
            replay = await open_replay(self.bot.store, match_id)
            self._cache.put(match_id, replay)
        return replay

    async def page(self, replay: Replay, index: int) -> tuple[str, discord.File | None, discord.ui.View]:
        """The content, the board picture and the buttons of one step (rebuilt in a worker thread)."""
        record = replay.record
        step = await asyncio.to_thread(replay.step, index)
        last = replay.last
        names = {s.seat: s.display_name for s in record.seats}
        words = self.bot.words()
        what: Message
        if step.action is None:
            what = say("the start")
        elif step.action.seat and step.action.kind != ActionKind.TIMEOUT:
            what = say(
                "{player} ({seat}): {action}",
                player=Verbatim(names.get(step.action.seat, step.action.seat)),
                seat=Verbatim(step.action.seat),
                action=Verbatim(step.action.text),
            )
        else:
            what = say("host: {action}", action=Verbatim(step.action.text))
        clocks = Listing(tuple(Verbatim(f"{names.get(s, s)} {t}") for s, t in step.clocks.items() if t))
        heading = say(
            "Replay of match #{match}, {title}: {players} ({result}).",
            match=record.id,
            title=title_of(record),
            players=players_of(record),
            result=result_text(record),
        )
        at = (
            say("Step {step} of {last}: {what}. Clocks: {clocks}.", step=index, last=last, what=what, clocks=clocks)
            if clocks.items
            else say("Step {step} of {last}: {what}.", step=index, last=last, what=what)
        )
        lines = [words(heading), words(at)]
        lines += [words(RefusedNote.of_action(a, step.game).said(names)) for a in replay.refused.get(index, ())]
        if index == last and record.result is not None:
            lines.append(self.result_said(record, step.game, names))
        view_data = step.game.view(None)
        png = None
        if board.has_picture(record.game):
            png = await asyncio.to_thread(
                board.picture,
                view_data,
                players=names,
                clocks=dict(step.clocks),
                title=words(say("Match #{match}, step {step}", match=record.id, step=index)),
            )
        file = discord.File(io.BytesIO(png), filename=f"match{record.id}-step{index}.png") if png else None
        content = "\n".join(lines)
        if file is None:
            content += (
                "\n```\n" + board.text_board(view_data, clocks=dict(step.clocks), words=self.bot.words(names)) + "\n```"
            )
        view = discord.ui.View(timeout=None)
        for tag, label in NAVIGATION:
            goes_to = target_step(tag, index, last)
            view.add_item(ReplayButton(record.id, index, tag, words(label), disabled=goes_to == index))
        if board.has_picture(record.game):
            view.add_item(GifButton(record.id, words(say_c("replay button", "GIF"))))
        view.add_item(AnalyseButton(record.id, words(say_c("replay button", "Analyse"))))
        return content[:2000], file, view

    def result_said(self, record: MatchRecord, game: Any, names: dict[str, str]) -> str:
        """The last step's result line: the game's ending in the bot's language where the game made
        it of messages (and it is the one the match kept), else the sentence the match kept."""
        assert record.result is not None
        outcome = game.outcome()
        said = outcome.said if outcome is not None and outcome.reason == record.result.reason else None
        if said is not None:
            return self.bot.words(names)(say("Result: {result}", result=said))
        # A sentence the match stored as plain English (old data): its seats named as such data alone is.
        return self.bot.words()(
            say("Result: {result}", result=Verbatim(legacy_name_seats(record.result.reason, names)))
        )

    async def send_gif(self, interaction: discord.Interaction, match_id: int) -> None:
        """Draw the GIF of an ended match in a worker thread and send it (in parts if it must be),
        telling its progress in a message edited as it goes when it takes a while."""
        record = await ended_match(self.bot, interaction, match_id)
        assert self.bot.store is not None
        steps = await from_store(self.bot.store, record.id)
        steps.language = self.bot.language  # the captions in the bot's language
        try:
            check_picture(steps)  # the button shows only with a picture; a plug-in may have lost it
        except NoPicture as error:
            raise Refusal(error.said) from None
        done = [0]
        words = self.bot.words()

        def progress(count: int, total: int) -> None:
            done[0] = count  # one int, read by the loop: no lock needed

        def said() -> str:
            return words(
                say(
                    "Drawing the GIF of match #{match}: frame {frame} of {frames}\u2026",
                    match=record.id,
                    frame=done[0],
                    frames=len(steps),
                )
            )

        told: discord.WebhookMessage | None = None
        async with self._gif_turn:  # one GIF at a time: a long match's is a minute of a core
            work = asyncio.create_task(asyncio.to_thread(make_gif, steps, progress=progress))
            await asyncio.wait({work}, timeout=self.gif_progress_after)
            if not work.done():
                told = await interaction.followup.send(said(), ephemeral=True, wait=True)
                while not work.done():
                    await asyncio.wait({work}, timeout=self.gif_progress_every)
                    if not work.done():
                        await told.edit(content=said())
            parts = work.result()
        frames = sum(p.frames for p in parts)
        if told is not None:
            drew = say_n(
                "Drew the GIF of match #{match}: {n} frame, one per step.",
                "Drew the GIF of match #{match}: {n} frames, one per step.",
                match=record.id,
                n=frames,
            )
            await told.edit(content=words(drew))
        name = f"geniusbot-match-{record.id}"
        title = Verbatim(steps.title)
        if len(parts) == 1:
            whole = say_n(
                "The replay of match #{match} ({title}) as a GIF: {n} frame, one per step.",
                "The replay of match #{match} ({title}) as a GIF: {n} frames, one per step.",
                match=record.id,
                title=title,
                n=frames,
            )
            files = [(words(whole), f"{name}.gif", parts[0])]
        else:
            files = [
                (
                    words(
                        say(
                            "Part {part} of {parts} of the replay of match #{match} ({title}), steps {first} "
                            "to {last}: the whole GIF would pass Discord's {megabytes} MB upload limit.",
                            part=n,
                            parts=len(parts),
                            match=record.id,
                            title=title,
                            first=p.first,
                            last=p.last,
                            megabytes=MAX_BYTES // 1_000_000,
                        )
                    ),
                    f"{name}-{n}.gif",
                    p,
                )
                for n, p in enumerate(parts, 1)
            ]
        for text, filename, part in files:  # one file a message: each under the limit on its own
            file = discord.File(io.BytesIO(part.data), filename=filename)
            await interaction.followup.send(text, file=file, ephemeral=True)

    @app_commands.command(
        name="replay",
        description=described(say_c("slash command", "List this server's finished matches, or step through one")),
    )
    @app_commands.describe(
        match=described(say_c("slash option", "the match to step through (leave out to list the finished matches)")),
        player=described(say_c("slash option", "list only the matches of this player")),
        name=described(
            say_c("slash option", "list only the matches of the player of this name (as a record gives it)")
        ),
        game=described(say_c("slash option", "list only the matches of this game")),
        rule_set=described(say_c("slash option", "list only the matches of this rule set")),
        since=described(say_c("slash option", "list only the matches that ended on or after this day (YYYY-MM-DD)")),
        until=described(say_c("slash option", "list only the matches that ended on or before this day (YYYY-MM-DD)")),
        result=described(say_c("slash option", "list only the matches with this result")),
        tournament=described(
            say_c("slash option", "list only the matches of this tournament: its number (#3) or a record's Event")
        ),
        page=described(say_c("slash option", "the page of the list to show (default: the first, the newest)")),
        step=described(say_c("slash option", "the step to show first (default: the start)")),
        public=described(say_c("slash option", "show the replay to the whole channel (default: only to you)")),
    )
    @app_commands.choices(result=RESULT_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def replay(
        self,
        interaction: discord.Interaction,
        match: int | None = None,
        player: discord.User | None = None,
        name: str | None = None,
        game: str | None = None,
        rule_set: str | None = None,
        since: str | None = None,
        until: str | None = None,
        result: str | None = None,
        tournament: str | None = None,
        page: app_commands.Range[int, 1] = 1,
        step: app_commands.Range[int, 0] = 0,
        public: bool = False,
    ) -> None:
        """A list of ended matches (filtered, a page at a time), or a step-through message of one."""
        # As /record: a public answer is deferred only once it is known to be one to post (a
        # deferral's follow-up shows as the deferral did), so a refusal goes to the asker alone.
        if not public:
            await interaction.response.defer(ephemeral=True, thinking=True)
        assert self.bot.store is not None
        if match is None:
            if interaction.guild_id is None:
                raise Refusal(
                    say(
                        "Use {replay} in a server to list its matches, or give a match number.",
                        replay=Verbatim("/replay"),
                    )
                )
            query = ArchiveQuery(
                interaction.guild_id,
                player=player.id if player else (name.strip() if name else None),
                # A name typed past the offered choices ("Tic Tac Five") is the game it names.
                game=get_game(game).name if game else None,
                variant=rule_set.strip().lower() if rule_set else None,
                since=day_of(since, "since"),
                until=day_of(until, "until"),
                result=result,
                tournament=tournament.strip() if tournament else None,
                page=page,
                size=LIST_SIZE,
            )
            found = await find_matches(self.bot.store, query)
            if not found.matches:
                if found.total:
                    raise Refusal(
                        say("There is no page {page}: the matches found fill {pages}.", page=page, pages=found.pages)
                    )
                raise Refusal(say("No finished match matches that; play one first, or change the filters."))
            if public:
                await interaction.response.defer(thinking=True)
            words = self.bot.words()
            lines = [words(listed(r)) for r in found.matches]
            options = [
                discord.SelectOption(label=line[:100], value=str(r.id))
                for r, line in zip(found.matches, lines, strict=True)
            ]
            view = discord.ui.View(timeout=None)
            view.add_item(ReplayPick(options, words(say("Replay a match"))))
            more = (
                say("Pick one below, or step through one with {replay}.", replay=Verbatim("/replay match:<number>"))
                if found.pages == 1
                else say(
                    "Pick one below, or step through one with {replay}; {page} shows another page.",
                    replay=Verbatim("/replay match:<number>"),
                    page=Verbatim("page:<number>"),
                )
            )
            text = "\n".join([words(say("Finished matches:")), *lines, words(page_said(found)), words(more)])
            await reply(interaction, text, ephemeral=not public, view=view)
            return
        if public:
            await ended_match(self.bot, interaction, match)
            await interaction.response.defer(thinking=True)
        replay = await self.replay_of(interaction, match)
        await send_page(interaction, *await self.page(replay, min(step, replay.last)), ephemeral=not public)

    @app_commands.command(
        name="record",
        description=described(say_c("slash command", "Get a finished match's record file (the adjudicate format)")),
    )
    @app_commands.describe(
        match=described(say_c("slash option", "the match number")),
        public=described(say_c("slash option", "post the file for the whole channel (default: only to you)")),
    )
    async def record(self, interaction: discord.Interaction, match: int, public: bool = False) -> None:
        """The record text of an ended match, as a file: only to the one who asks, as ``/replay``
        is, so a game room where another match runs is not filled with files (and refusals)."""
        # A deferral's follow-up shows as the deferral did: public once deferred publicly. So a
        # public answer is deferred only once the match is known to be one to post; a refusal
        # then goes, unanswered yet, to the asker alone.
        if not public:
            await interaction.response.defer(ephemeral=True, thinking=True)
        record = await ended_match(self.bot, interaction, match)
        if public:
            await interaction.response.defer(thinking=True)
        assert self.bot.store is not None
        text = await export_record(self.bot.store, record.id)
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"geniusbot-match-{record.id}.txt")
        said = self.bot.words()(say("The record of match #{match} ({title}).", match=record.id, title=title_of(record)))
        await interaction.followup.send(said, file=file, ephemeral=not public)


async def setup(bot: GeniusBot) -> None:
    """Add the cog and its persistent buttons."""
    bot.add_dynamic_items(ReplayButton, ReplayPick, GifButton, AnalyseButton)
    await bot.add_cog(Archive(bot))
