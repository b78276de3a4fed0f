"""Matches: ``/start``, ``/status``, ``/pause``, ``/resume``, ``/abort``, ``/resign``; moves typed in
game rooms; private submissions by DM; choices by buttons. Every decision is the host's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from geniusbot.bot import DISCORD_ERRORS, GeniusBot, Refusal, reply
from geniusbot.discord_words import described
from geniusbot.games import get_game
from geniusbot.host.match import Host, LiveMatch, Reply
from geniusbot.host.offers import choice_offer, private_choice_offers
from geniusbot.host.transport import Player
from geniusbot.storage import ENDED_STATUSES, MatchNotFound, MatchRecord, MatchStatus
from geniusbot.words import Argument, Listing, Message, Verbatim, Words, joined, say, say_c

from . import host_refusal, parse_options, players_of, refusal_words
from .choices import ChoiceButton, Offer, choice_message, choice_view, fits, sealed_answer_message
from .options import (
    DESCRIBE_CLOCK,
    DESCRIBE_OPTIONS,
    DESCRIBE_ROOM,
    DESCRIBE_SEED,
    MAX_CHOICES,
    SEAT_CHOICES,
    describe_dmo,
    describe_variant,
    game_autocomplete,
    variants_of,
)
from .private import PrivateButton, PrivateEntries, TypeMoveButton, check_dms, with_closed_dms
from .spectators import spectators_at_start
from .threads import MatchThreads, thread_name

log = logging.getLogger(__name__)

#: A match's status as /status lists it.
STATUS_WORDS: dict[str, Message] = {
    MatchStatus.LIVE: say_c("match status", "live"),
    MatchStatus.PAUSED: say_c("match status", "paused"),
    MatchStatus.FINISHED: say_c("match status", "finished"),
    MatchStatus.ABORTED: say_c("match status", "aborted"),
}


def status_words(status: str) -> Argument:
    """A match's status (``live``) as said in a sentence."""
    return STATUS_WORDS.get(status) or Verbatim(status)


def rooms_of(channel_ids: list[int] | tuple[int, ...]) -> Listing:
    """Channels as mentions in a list ("<#1>, <#2>")."""
    return Listing(tuple(Verbatim(f"<#{c}>") for c in channel_ids))


#: Discord's names of the permissions the bot needs in a game room.
PERMISSIONS: dict[str, Message] = {
    "view_channel": say_c("Discord permission", "View Channel"),
    "send_messages": say_c("Discord permission", "Send Messages"),
    "attach_files": say_c("Discord permission", "Attach Files"),
}


#: What the bot needs besides in a room whose matches run in threads (``/setup threads``).
THREAD_PERMISSIONS: dict[str, Message] = {
    "create_public_threads": say_c("Discord permission", "Create Public Threads"),
    "send_messages_in_threads": say_c("Discord permission", "Send Messages in Threads"),
    "manage_threads": say_c("Discord permission", "Manage Threads"),
}


def missing_permissions(perms: discord.Permissions, *, threads: bool = False) -> list[Message]:
    """The permissions of :data:`PERMISSIONS` (and :data:`THREAD_PERMISSIONS` for ``threads``)
    that ``perms`` lacks, as Discord names them."""
    needed = {**PERMISSIONS, **THREAD_PERMISSIONS} if threads else PERMISSIONS
    return [said for name, said in needed.items() if not getattr(perms, name)]


def ended_here(record: MatchRecord, result: str) -> Message:
    """What /status says of the last match that ended in a room where none runs now (``result``:
    the host's result line of it, said already)."""
    return say(
        "The last match in this room, #{match} ({title}: {players}), has ended. {result}\n"
        "{replay} steps through it; {record} gives its record.",
        match=record.id,
        title=Verbatim(get_game(record.game).title),
        players=players_of(record),
        result=Verbatim(result),
        replay=Verbatim(f"/replay match:{record.id}"),
        record=Verbatim(f"/record match:{record.id}"),
    )


def addressed(content: str, bot_id: int | None) -> str:
    """What a message says to the bot: its text without the mentions of the bot it starts with
    ("@geniusbot H8", or a reply to the board that pings the bot). Without the Message Content
    intent Discord gives the bot the text of such messages alone."""
    text = content.strip()
    if bot_id is None:
        return text
    for mention in (f"<@{bot_id}>", f"<@!{bot_id}>"):
        while text.startswith(mention):
            text = text.removeprefix(mention).strip()
    return text


class Matches(commands.Cog):
    """Starting and running matches through the host."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        # Match -> its choice buttons in the room; (match, seat) -> a seat's sealed-answer buttons
        # in its DM, and what they ask (phase, play, texts).
        self.offers: dict[int, Offer] = {}
        self.dm_offers: dict[tuple[int, str], Offer] = {}
        # The room's "Send privately" offers; the threads matches run in.
        self.entries = PrivateEntries(bot)
        self.threads = MatchThreads(bot)
        self._offer_lock = asyncio.Lock()

    @property
    def host(self) -> Host:
        assert self.bot.host is not None
        return self.bot.host

    # ==================================================================== finding a match

    def match_words(self, live: LiveMatch) -> Words:
        """The words of ``live``'s room and DMs: the language it speaks (fixed at its start)."""
        return self.host.announcer.words(live)

    async def match_for(self, interaction: discord.Interaction, match_id: int | None) -> MatchRecord:
        """The match a command names (``match`` option) or the unfinished one in this channel."""
        store = self.bot.store
        assert store is not None
        if match_id is not None:
            try:
                record = await store.get_match(match_id)
            except MatchNotFound:
                record = None
            if record is None or record.guild_id != interaction.guild_id:
                raise Refusal(
                    say(
                        "There is no match #{match} in this server; {status} lists the running ones.",
                        match=match_id,
                        status=Verbatim("/status"),
                    )
                )
            return record
        record = await store.live_match_in_channel(interaction.channel_id or 0)
        if record is None:
            raise Refusal(
                say(
                    "No match is running in this channel; give the match number, or see {status} for the running ones.",
                    status=Verbatim("/status"),
                )
            )
        return record

    # ==================================================================== /start

    @app_commands.command(
        name="start", description=described(say_c("slash command", "Start a death match in a game room"))
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=described(say_c("slash option", "the game to play")),
        # Not "moves first": a game's own rules (a DMO, an item) or an option may give the first
        # move to p2. Discord allows 100 characters here.
        first=described(
            say_c(
                "slash option",
                "the player in seat p1: opens the game unless a DMO, Turn Order or an option decides (/rules)",
            )
        ),
        second=described(say_c("slash option", "the player in seat p2")),
        dmo=describe_dmo(),
        variant=describe_variant(),
        seed=DESCRIBE_SEED,
        clock=DESCRIBE_CLOCK,
        room=DESCRIBE_ROOM,
        options=DESCRIBE_OPTIONS,
        rated=described(say_c("slash option", "whether the result moves the players' ratings (default: /setup's)")),
        spectators=described(say_c("slash option", "the room shown every secret as it happens (default: /setup's)")),
    )
    @app_commands.choices(dmo=SEAT_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def start(
        self,
        interaction: discord.Interaction,
        game: str,
        first: discord.Member,
        second: discord.Member,
        dmo: str | None = None,
        variant: str | None = None,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
        clock: str | None = None,
        room: discord.TextChannel | None = None,
        options: str | None = None,
        rated: bool | None = None,
        spectators: discord.TextChannel | None = None,
    ) -> None:
        """Check who asks, where, and whom; check DMs if the game needs them; start the match."""
        # Database reads, DMs and the first board can take longer than Discord's 3 s.
        await interaction.response.defer(ephemeral=True, thinking=True)
        if why := await host_refusal(interaction, "start"):
            raise Refusal(why)
        assert interaction.guild is not None and self.bot.store is not None
        channel = room or interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(say("Start the match in a text channel, or name one with the room option."))
        config = await self.bot.store.get_guild_settings(interaction.guild.id)
        me = interaction.guild.me
        if me is not None and (missing := missing_permissions(channel.permissions_for(me), threads=config.threads)):
            raise Refusal(
                say(
                    "I cannot run a match in {room}: I need {permissions} there. Give me that, or choose another room.",
                    room=Verbatim(channel.mention),
                    permissions=joined(missing),
                )
            )
        if config.game_room_ids and channel.id not in config.game_room_ids:
            raise Refusal(
                say(
                    "{room} is not a game room; use one of {rooms} (an admin sets them with {setup}).",
                    room=Verbatim(channel.mention),
                    rooms=rooms_of(config.game_room_ids),
                    setup=Verbatim("/setup"),
                )
            )
        if first.id == second.id:
            raise Refusal(say("A match needs two different players; name someone else as the second player."))
        if first.bot or second.bot:
            raise Refusal(say("Bots cannot play; name two members as the players."))
        try:
            game_class = get_game(game)
            game_options = parse_options(options)
        except ValueError as error:  # GameError is a ValueError too
            raise Refusal(refusal_words(error)) from None
        if dmo:
            game_options["dmo"] = dmo
        players = [Player("p1", first.id, first.display_name), Player("p2", second.id, second.display_name)]
        closed = (
            await check_dms(self.bot, interaction, game_class.title, channel, players)
            if game_class.takes_private_moves()
            else []
        )
        watched = spectators.id if spectators is not None else config.spectators_channel_id
        language = await self.bot.rooms.of(interaction.guild)
        watch, unwatched = await spectators_at_start(self.bot, watched, players, interaction.user.id, language)
        place = await self.threads.open(channel, thread_name(game_class.title, players)) if config.threads else channel
        result = await self.host.start_match(
            game_class.name,
            players=players,
            seed=seed,
            variant=variant,
            options=game_options,
            clock=clock,
            channel_id=place.id,
            guild_id=interaction.guild.id,
            language=language,
            rated=config.rated if rated is None else rated,
            spectators=watch,
        )
        if not result.ok:
            await self.threads.drop(place)
            raise Refusal(result.message or say("The match could not start; try again in a moment."))
        assert result.match_id is not None
        await self.threads.name(place, thread_name(game_class.title, players, result.match_id))
        if closed:
            self.entries.closed_dms[result.match_id] = {p.seat for p in closed}
        await self.refresh_choices(result.match_id)
        started = say("Match #{match} has started in {room}.", match=result.match_id, room=Verbatim(place.mention))
        started = say("{started} {refused}", started=started, refused=unwatched) if unwatched else started
        await reply(interaction, with_closed_dms(started, closed))

    @start.autocomplete("variant")
    async def variant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The rule sets of the game chosen so far (of every game if none yet)."""
        names = sorted({v for cls in variants_of(interaction.namespace.game) for v in cls.variants})
        return [app_commands.Choice(name=v, value=v) for v in names if current.lower() in v][:MAX_CHOICES]

    # ==================================================================== host commands

    @app_commands.command(
        name="status",
        description=described(say_c("slash command", "Show the match in this channel (or all running ones)")),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        match=described(say_c("slash option", "the match number (default: the match in this channel)"))
    )
    async def status(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """A match's status line, or the list of this server's running matches."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.bot.store
        assert store is not None
        if match is None and await store.live_match_in_channel(interaction.channel_id or 0) is None:
            words = self.bot.words()
            running = [r for r in await store.live_matches() if r.guild_id == interaction.guild_id]
            if not running:
                text = words(
                    say("No match is running in this server. A host starts one with {start}.", start=Verbatim("/start"))
                )
            else:
                lines = [
                    words(
                        say(
                            "#{match} {title} in {room}: {players} ({status})",
                            match=r.id,
                            title=Verbatim(get_game(r.game).title),
                            room=Verbatim(f"<#{r.channel_id}>"),
                            players=players_of(r),
                            status=status_words(r.status),
                        )
                    )
                    for r in running
                ]
                text = words(say("Running matches:")) + "\n" + "\n".join(lines)
            if interaction.channel_id is not None:
                ended = await store.finished_matches(
                    interaction.guild_id, channel=interaction.channel_id, limit=1, include_aborted=True
                )
                if ended:
                    text += "\n" + words(ended_here(ended[0], self.host.result_line(ended[0])))
            await reply(interaction, text)
            return
        record = await self.match_for(interaction, match)
        result = await self.host.command(record.id, "status")
        await reply(interaction, result.message)

    async def _host_command(self, interaction: discord.Interaction, name: str, match: int | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if why := await host_refusal(interaction, name):
            raise Refusal(why)
        record = await self.match_for(interaction, match)
        result = await self.host.command(record.id, name, key=f"discord:{interaction.id}")
        if not result.ok:
            raise Refusal(result.message)
        await self.refresh_choices(record.id)
        await reply(interaction, say("Match #{match}: {said}.", match=record.id, said=Verbatim(result.message)))

    @app_commands.command(
        name="pause", description=described(say_c("slash command", "Pause a match (host): the clocks stop"))
    )
    @app_commands.guild_only()
    @app_commands.describe(
        match=described(say_c("slash option", "the match number (default: the match in this channel)"))
    )
    async def pause(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """Pause a match; only hosts may."""
        await self._host_command(interaction, "pause", match)

    @app_commands.command(name="resume", description=described(say_c("slash command", "Resume a paused match (host)")))
    @app_commands.guild_only()
    @app_commands.describe(
        match=described(say_c("slash option", "the match number (default: the match in this channel)"))
    )
    async def resume(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """Resume a paused match; only hosts may."""
        await self._host_command(interaction, "resume", match)

    @app_commands.command(
        name="abort", description=described(say_c("slash command", "Abort a match (host): it ends with no result"))
    )
    @app_commands.guild_only()
    @app_commands.describe(
        match=described(say_c("slash option", "the match number (default: the match in this channel)"))
    )
    async def abort(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """Abort a match; only hosts may."""
        await self._host_command(interaction, "abort", match)

    @app_commands.command(name="resign", description=described(say_c("slash command", "Resign your match (a player)")))
    @app_commands.guild_only()
    @app_commands.describe(
        match=described(say_c("slash option", "the match number (default: the match in this channel)"))
    )
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """The invoking player concedes."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.match_for(interaction, match)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal(say("You do not play in match #{match}; only its players can resign.", match=record.id))
        result = await self.host.command(record.id, "resign", seat=seat, key=f"discord:{interaction.id}")
        if not result.ok:
            raise Refusal(result.message)
        await self.refresh_choices(record.id)
        await reply(interaction, say("You resigned match #{match}.", match=record.id))

    # ==================================================================== messages

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A seated player's move in a game room, or a private submission by DM."""
        if message.author.bot:
            return
        text = addressed(message.content, self.bot.user.id if self.bot.user is not None else None)
        if not text:
            return
        if message.guild is None:
            await self.private_message(message, text)
            return
        # The host tells table talk and a command's name from a move (for every front end).
        result = await self.host.room_message(message.channel.id, message.author.id, text, key=f"discord:{message.id}")
        if result.ok and result.match_id is not None:
            await self.refresh_choices(result.match_id)

    async def private_message(self, message: discord.Message, text: str) -> None:
        """Route a DM to the sender's live match; answer it if the host did not. The host reads the
        match number a DM may start with ("#12 mines A1 B2")."""
        mine = self.host.matches_of(message.author.id)
        if mine and not any(type(live.game).takes_private_moves() for live in mine):
            # A move sent here would be public anyway; the room is where the match is played.
            rooms = rooms_of([live.channel_id for live in mine if live.channel_id is not None])
            said = say("Your match takes no private moves; type your move in {rooms}.", rooms=rooms)
            await self._answer_dm(message, self.match_words(mine[0])(said))  # a match's language
            return
        result = await self.host.private_message(message.author.id, text, key=f"discord:{message.id}")
        if result.ok and result.match_id is not None:
            await self.refresh_choices(result.match_id)
        elif result.match_id is None and result.message:
            # The host answers what reaches a match; "no match" and "which match?" are ours to say.
            await self._answer_dm(message, result.message)

    @staticmethod
    async def _answer_dm(message: discord.Message, text: str) -> None:
        try:
            await message.channel.send(text)
        except DISCORD_ERRORS as error:
            log.info("could not answer a DM: %s", error)

    # ==================================================================== choices

    async def refresh_choices(self, match_id: int | None) -> None:
        """Post buttons for the choice the match waits for (if any); close buttons gone stale."""
        if match_id is None:
            return
        async with self._offer_lock:
            # From the store once the match is over: its last buttons still have to close.
            live = await self.host.load(match_id)
            if live is None or live.channel_id is None:
                return
            if live.status in ENDED_STATUSES:
                await self.threads.close(live)
            # The action's own public view, built once as it was announced (a match over asks nothing).
            view = self.host.views(live).public if live.status == MatchStatus.LIVE else {}
            await self._refresh_private_choices(match_id, live, view)
            await self.entries.refresh(match_id, live, view)
            offer = choice_offer(live.game, view) if live.status == MatchStatus.LIVE else None
            if offer is not None and offer[0] == live.practice_seat:
                offer = None  # the practice opponent answers its own choices; no buttons for it
            old = self.offers.get(match_id)
            if old is not None and offer is not None and (old.seat, old.texts) == (offer[0], tuple(offer[1])):
                return
            if old is not None:
                self.offers.pop(match_id, None)
                # Without its buttons the question would still read as open (answered by typing, by
                # the clock, or the match paused or over): say it is closed; the board says the rest.
                closed = choice_message(live.label(old.seat), old.texts, closed=True, words=self.match_words(live))
                await self._close(match_id, old, closed, "old choice buttons")
            if offer is None or not fits(match_id, *offer):
                return
            seat, texts = offer
            text = choice_message(live.label(seat), texts, words=self.match_words(live))
            try:
                sent = await self.bot.get_partial_messageable(live.channel_id).send(
                    text, view=choice_view(match_id, seat, texts), allowed_mentions=discord.AllowedMentions.none()
                )
            except DISCORD_ERRORS as error:
                log.warning("match %s: could not post the choice buttons: %s", match_id, error)
                return
            self.offers[match_id] = Offer(live.channel_id, sent.id, seat, tuple(texts))

    async def _refresh_private_choices(self, match_id: int, live: LiveMatch, view: Mapping[str, Any]) -> None:
        """DM sealed-answer buttons to each seat asked now; close those no longer asked. ``view``:
        the public view of now."""
        offers = private_choice_offers(live.game, view) if live.status == MatchStatus.LIVE else {}
        for seat, player in live.players.items():
            texts = offers.get(seat)
            asks = (*live.game.choice_key(view), tuple(texts)) if texts else ()
            old = self.dm_offers.get((match_id, seat))
            if old is not None and old.asks == asks:
                continue
            if old is not None:
                self.dm_offers.pop((match_id, seat), None)
                await self._close(match_id, old, None, "old DM buttons")
            if not texts or player.user_id is None or not fits(match_id, seat, texts, private=True):
                continue
            try:
                user = self.bot.get_user(player.user_id) or await self.bot.fetch_user(player.user_id)
                sent = await user.send(
                    sealed_answer_message(match_id, texts, words=self.match_words(live)),
                    view=choice_view(match_id, seat, texts, private=True),
                )
            except DISCORD_ERRORS as error:
                log.info("match %s: could not DM the answer buttons to %s: %s", match_id, seat, error)
                continue
            self.dm_offers[(match_id, seat)] = Offer(sent.channel.id, sent.id, seat, tuple(texts), asks)

    async def _close(self, match_id: int, offer: Offer, content: str | None, what: str) -> None:
        """Take the buttons off an offer's message (and, with ``content``, say it is closed)."""
        message = self.bot.get_partial_messageable(offer.channel_id).get_partial_message(offer.message_id)
        try:
            if content is None:
                await message.edit(view=None)
            else:
                await message.edit(content=content, view=None)
        except DISCORD_ERRORS as error:
            log.info("match %s: could not close %s: %s", match_id, what, error)

    async def press_choice(
        self, interaction: discord.Interaction, match_id: int, seat: str, text: str, *, private: bool = False
    ) -> None:
        """A choice button was pressed (``private``: a sealed-answer button in a DM): only the seat
        it is for may; submit its text through the host (privately for a sealed answer)."""
        holder, labels = await self.seat_in(match_id, interaction.user.id)
        label = labels.get(seat, seat)
        if holder != seat:
            raise Refusal(
                say("This answer is for {seat} alone.", seat=Verbatim(label))
                if private
                else say("This choice is for {seat} alone; wait for your own turn.", seat=Verbatim(label))
            )
        await interaction.response.defer()
        if private and self.bot.relay is not None and await self.bot.relay.press(interaction, match_id, seat, text):
            return  # another process owns the match: it answers the press with its token
        # A press is answered to the presser alone: the host posts no refusal in the room (a
        # second press of a choice already made, say); the refusal below is ephemeral.
        result: Reply = await self.host.submit(
            match_id, seat, text, private=private, key=f"discord:{interaction.id}", answer=False
        )
        if not result.ok:
            raise Refusal(
                result.message
                or (
                    say("That answer was not taken; send it again as text.")
                    if private
                    else say("That choice was not taken; look at the board and try again.")
                )
            )
        pressed = interaction.message.id if interaction.message is not None else None
        if private:
            if (old := self.dm_offers.get((match_id, seat))) is not None and old.message_id == pressed:
                del self.dm_offers[(match_id, seat)]
        elif (old := self.offers.get(match_id)) is not None and old.message_id == pressed:
            del self.offers[match_id]
        live = self.host.held(match_id)
        answered = (self.match_words(live) if live is not None else self.bot.words())(
            say("Match #{match}: you answered {answer}.", match=match_id, answer=Verbatim(text))
            if private
            else say("{seat} chose: {choice}.", seat=Verbatim(label), choice=Verbatim(text))
        )
        try:
            await interaction.edit_original_response(content=answered, view=None)
        except DISCORD_ERRORS as error:
            log.info("match %s: could not close the pressed %s: %s", match_id, "answer" if private else "choice", error)
        await self.refresh_choices(match_id)

    async def seat_in(self, match_id: int, user_id: int) -> tuple[str | None, dict[str, str]]:
        """The seat ``user_id`` holds in the match, and every seat's label."""
        try:
            players = await self.host.players(match_id)
        except MatchNotFound:
            raise Refusal(say("Match #{match} no longer exists.", match=match_id)) from None
        labels = {seat: player.label for seat, player in players.items()}
        return next((s for s, p in players.items() if p.user_id == user_id), None), labels

    @commands.Cog.listener()
    async def on_match_changed(self, match_id: int) -> None:
        """A restart resumed the match, or a timer moved it on: bring its choice buttons up to date
        (after a restart the old buttons still work; a fresh set is offered)."""
        await self.refresh_choices(match_id)

    @commands.Cog.listener()
    async def on_dms_closed(self, match_id: int, seats: frozenset[str]) -> None:
        """A match started by the bot itself (a tournament's game) found these seats' DMs closed:
        the room offers them Send privately from the start, as after /start."""
        self.entries.closed_dms[match_id] = set(seats)
        await self.refresh_choices(match_id)


async def setup(bot: GeniusBot) -> None:
    """Add the cog and its persistent buttons."""
    bot.add_dynamic_items(ChoiceButton, PrivateButton, TypeMoveButton)
    await bot.add_cog(Matches(bot))
