"""Running a tournament: each round's matches started by the bot, each result read as its match
ends, the next round opened when the last match of a round ends, the standings posted.

Everything it knows is in the database (:mod:`geniusbot.storage.tournaments`); :meth:`Runner.advance`
brings a running tournament up to date from there, so it is what a match's end, a host's command
and a restart all call. A round is opened once (its row and pairings in one transaction); a
pairing's thread is claimed before its match starts, and a match found in that thread is the
pairing's, so a restart starts no match twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from geniusbot.discord_transport import alt_text
from geniusbot.games import get_game
from geniusbot.host.transport import Player, TransportError
from geniusbot.standing import Card
from geniusbot.standing.tournament import (
    bracket_card,
    cards,
    games_of,
    names_of,
    number,
    seeds_of,
    table,
    title_of,
)
from geniusbot.storage import StorageError
from geniusbot.storage.tournaments import FINISHED, RUNNING, Entry, Pairing, TournamentRecord
from geniusbot.tournaments import DOUBLE_ELIMINATION, SINGLE_ELIMINATION, pair
from geniusbot.words import Verbatim, Words, say

from .private import greet_privately
from .spectators import spectators_at_start
from .threads import MatchThreads, thread_name

if TYPE_CHECKING:
    from geniusbot.bot import GeniusBot

log = logging.getLogger(__name__)


def standings_text(
    tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], words: Words
) -> str:
    """The standings as the room reads them, a line a player."""
    names = {e.user_id: e.display_name for e in entries}
    lines = [words(title_of(tournament, pairings))]
    for row in table(tournament, entries, pairings):
        name = Verbatim(names.get(row.player, str(row.player)))
        if tournament.format in (SINGLE_ELIMINATION, DOUBLE_ELIMINATION):
            line = say("{place}. {player}: {points}", place=row.place, player=name, points=Verbatim(number(row.points)))
            lines.append(words(line))
            continue
        line = say(
            "{place}. {player}: {points} (Buchholz {buchholz}, Sonneborn-Berger {sonneborn})",
            place=row.place,
            player=name,
            points=Verbatim(number(row.points)),
            buchholz=Verbatim(number(row.buchholz)),
            sonneborn=Verbatim(number(row.sonneborn)),
        )
        lines.append(words(line))
    return "\n".join(lines)


def round_text(
    tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], words: Words
) -> str:
    """A round's pairings as the room reads them."""
    names = {e.user_id: e.display_name for e in entries}
    number = pairings[0].round if pairings else tournament.current_round
    lines = [words(say("Tournament #{number}, round {round}:", number=tournament.id, round=number))]
    for p in pairings:
        first = Verbatim(names.get(p.first_id, str(p.first_id)))
        if p.second_id is None:
            lines.append(words(say("{player} has a bye (a point).", player=first)))
            continue
        second = Verbatim(names.get(p.second_id, str(p.second_id)))
        if p.channel_id is not None:
            room = Verbatim(f"<#{p.channel_id}>")
            lines.append(words(say("{first} against {second} in {room}", first=first, second=second, room=room)))
        else:
            lines.append(words(say("{first} against {second}", first=first, second=second)))
    return "\n".join(lines)


class Runner:
    """Runs the guild's tournaments for the bot (one lock per tournament: one advance at a time)."""

    def __init__(self, bot: GeniusBot) -> None:
        self.bot = bot
        self.threads = MatchThreads(bot)
        self.locks: dict[int, asyncio.Lock] = {}
        #: The running tournament matches, by match id (the tournament each is played for).
        self.watching: dict[int, int] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def match_ended(self, match_id: int) -> None:
        """The host's end listener: a watched match's end moves its tournament on (in a task)."""
        tournament_id = self.watching.pop(match_id, None)
        if tournament_id is not None:
            self.later(tournament_id)

    def later(self, tournament_id: int) -> None:
        task = asyncio.get_running_loop().create_task(self.advance(tournament_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def resume(self) -> None:
        """Bring every running tournament up to date (after a start or restart)."""
        assert self.bot.store is not None
        for tournament in await self.bot.store.tournaments(statuses=(RUNNING,)):
            await self.advance(tournament.id, recover=True)

    async def advance(self, tournament_id: int, recover: bool = False) -> None:
        """Start the current round's missing matches, or open the next round, or end the tournament."""
        lock = self.locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            try:
                await self._advance(tournament_id, recover)
            except (StorageError, discord.HTTPException) as error:
                log.warning("tournament %s: could not move on now: %s", tournament_id, error)

    async def _advance(self, tournament_id: int, recover: bool = False) -> None:
        store = self.bot.store
        assert store is not None
        opened = 0  # the round this call opened, posted once its matches have started
        while True:
            tournament = await store.get_tournament(tournament_id)
            if tournament is None or tournament.status != RUNNING or tournament.rounds is None:
                return
            if not self.owns(tournament):
                return  # another process's shard (a cluster's), or a guild the bot left
            entries = await store.entries(tournament_id)
            pairings = await store.pairings(tournament_id)
            current = [p for p in pairings if p.round == tournament.current_round]
            if tournament.current_round and any(p.score is None for p in current):
                for pairing in current:
                    if pairing.score is None:
                        await self.play(tournament, pairing, entries)
                # A match that ended before it was watched has its score by now (the store's).
                again = await store.pairings(tournament_id)
                if opened == tournament.current_round or recover:
                    # A round just opened, or one a crash may have left unposted: its games and threads.
                    await self.post_round(tournament, entries, again, look=recover)
                    opened = 0
                if any(p.score is None for p in again if p.round == tournament.current_round):
                    return
                continue
            if tournament.current_round:
                await self.post_standings(tournament, entries, pairings, look=True)
            number = tournament.current_round + 1
            seeds = [e.user_id for e in sorted(entries, key=lambda e: e.seed or 0)]
            active = [e.user_id for e in entries if not e.withdrawn]
            games = games_of(pairings)
            # Off the event loop: the Dutch system takes seconds for a large field (bench/README.md).
            playing = await asyncio.to_thread(pair, tournament.format, seeds, active, games, number, tournament.rounds)
            if number > tournament.rounds or not any(second is not None for _, second in playing):
                await store.update_tournament(tournament_id, status=FINISHED)
                finished = await store.get_tournament(tournament_id)
                assert finished is not None
                await self.post_standings(finished, entries, pairings, look=True)
                return
            await store.open_round(tournament_id, number, playing)
            opened = number

    def owns(self, tournament: TournamentRecord) -> bool:
        """Whether this process runs the tournament: the one that owns its server's shard (in a
        cluster, by the shard's PostgreSQL advisory lock, as its matches are), in a server it is in."""
        shards = self.bot.owned_shards
        if shards is not None and not shards.owns(tournament.guild_id):
            return False
        return self.bot.get_guild(tournament.guild_id) is not None

    async def post_round(
        self, tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], *, look: bool
    ) -> None:
        """Post the current round's pairings (text, and the round's or the bracket's picture), keyed
        by tournament and round: with ``look``, not if the room has it already (after a crash)."""
        number = tournament.current_round
        key = f"t{tournament.id}r{number}"
        if look and await self.posted(tournament, key):
            return
        words = await self.words(tournament)
        current = [p for p in pairings if p.round == number]
        elimination = tournament.format in (SINGLE_ELIMINATION, DOUBLE_ELIMINATION)
        shown = pairings if elimination else current
        title = say("Tournament #{number}, round {round}", number=tournament.id, round=number)
        card = bracket_card(
            words,
            title=title,
            form=tournament.format,
            seeds=seeds_of(entries),
            games=games_of(shown),
            names=names_of(entries),
            key=key,
        )
        await self.post(tournament, round_text(tournament, entries, current, words), [card])

    async def post_standings(
        self, tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], *, look: bool
    ) -> None:
        """Post the standings after the current round (or the final ones): text, the standings'
        picture and an elimination's bracket, keyed so that a restart posts them once."""
        final = tournament.status == FINISHED
        key = f"t{tournament.id}f" if final else f"t{tournament.id}s{tournament.current_round}"
        if look and await self.posted(tournament, key):
            return
        words = await self.words(tournament)
        text = standings_text(tournament, entries, pairings, words)
        await self.post(tournament, text, cards(tournament, entries, pairings, words, key))

    async def posted(self, tournament: TournamentRecord, key: str) -> bool:
        """Whether the room has the bot's post of ``key`` among its latest messages."""
        try:
            return await self.bot.transport.find_posted(tournament.channel_id, key) is not None
        except TransportError as error:
            log.info("tournament %s: could not look for post %s: %s", tournament.id, key, error)
            return False

    async def words(self, tournament: TournamentRecord) -> Words:
        guild = self.bot.get_guild(tournament.guild_id)
        return self.bot.words(language=await self.bot.rooms.of(guild) if guild is not None else None)

    async def post(self, tournament: TournamentRecord, text: str, pictures: Sequence[Card] = ()) -> None:
        channel = self.bot.get_channel(tournament.channel_id)
        if isinstance(channel, discord.TextChannel):
            files = [
                discord.File(io.BytesIO(c.png), filename=c.filename, description=alt_text(c.alt)) for c in pictures
            ]
            await channel.send(text[:2000], files=files, allowed_mentions=discord.AllowedMentions.none())

    async def play(self, tournament: TournamentRecord, pairing: Pairing, entries: Sequence[Entry]) -> None:
        """Have a pairing's match running (or ended): found in its claimed thread, or started there."""
        store, host = self.bot.store, self.bot.host
        assert store is not None and host is not None and pairing.second_id is not None
        if pairing.match_id is not None:
            self.watch(pairing.match_id, tournament.id)
            return
        names = {e.user_id: e.display_name for e in entries}
        players = [
            Player("p1", pairing.first_id, names.get(pairing.first_id, "")),
            Player("p2", pairing.second_id, names.get(pairing.second_id, "")),
        ]
        cls = get_game(tournament.game)
        room_id = pairing.channel_id
        if room_id is None:
            room = self.bot.get_channel(tournament.channel_id)
            if not isinstance(room, discord.TextChannel):
                return
            thread = await self.threads.open(room, thread_name(cls.title, players))
            room_id = await store.claim_room(tournament.id, pairing.round, pairing.board, thread.id)
            if room_id != thread.id:
                await self.threads.drop(thread)  # another opening claimed the pairing first
        found = await store.match_in_room(room_id)
        if found is None:
            config = await store.get_guild_settings(tournament.guild_id)
            language = await self.words_language(tournament)
            # The server's spectators' room sees a tournament game's secrets as it sees /start's,
            # checked the same way (a refusal is said there and to the tournament's host).
            watched = config.spectators_channel_id
            spoken = language or self.bot.rooms.default()
            watch, _ = await spectators_at_start(self.bot, watched, players, tournament.host_id, spoken)
            result = await host.start_match(
                cls.name,
                players=players,
                variant=tournament.variant,
                clock=tournament.clock,
                channel_id=room_id,
                guild_id=tournament.guild_id,
                language=language,
                rated=config.rated,
                spectators=watch,
            )
            if not result.ok or result.match_id is None:
                log.warning("tournament %s: a match did not start: %s", tournament.id, result.message)
                return
            found = result.match_id
            thread_now = self.bot.get_channel(room_id)
            if isinstance(thread_now, discord.Thread):
                await self.threads.name(thread_now, thread_name(cls.title, players, found))
            if cls.takes_private_moves():
                await self.greet(tournament, found, room_id, cls.title, players, spoken)
        self.watch(found, tournament.id)
        await store.set_pairing_match(tournament.id, pairing.round, pairing.board, found)
        self.bot.dispatch("match_changed", found)  # its buttons, as after /start

    async def greet(
        self,
        tournament: TournamentRecord,
        match_id: int,
        room_id: int,
        title: str,
        players: list[Player],
        language: str,
    ) -> None:
        """Tell each player of a game that takes private moves where they go; a player whose DMs
        are closed is offered the room's Send privately from the start, as after /start."""
        hello = say(
            "Your game of {title} in tournament #{number} has started in {room}, match #{match}. Its private "
            "moves go here, in this direct message.",
            title=Verbatim(title),
            number=tournament.id,
            room=Verbatim(f"<#{room_id}>"),
            match=match_id,
        )
        closed = await greet_privately(self.bot, players, hello, language)
        if closed:
            self.bot.dispatch("dms_closed", match_id, frozenset(p.seat for p in closed))

    def watch(self, match_id: int, tournament_id: int) -> None:
        """Move the tournament on when the match ends."""
        self.watching[match_id] = tournament_id

    async def words_language(self, tournament: TournamentRecord) -> str | None:
        guild = self.bot.get_guild(tournament.guild_id)
        return await self.bot.rooms.of(guild) if guild is not None else None
