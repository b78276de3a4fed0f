"""Input routing: a room message or a private message, to the match and seat it is for (an object
of the host's own, ``host.routing``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from geniusbot.games import GameError, WrongPlaceError, get_game, registry, typed
from geniusbot.storage import UNFINISHED_STATUSES, StorageUnavailable
from geniusbot.words import Listing, Message, Verbatim, Words, say

from .base import never_raises
from .chatter import command_said, is_chatter
from .live import Reply, ReplyStatus

if TYPE_CHECKING:
    from geniusbot.games import Game
    from geniusbot.storage import MatchRecord, Store

    from .actions import Actions
    from .announce import Announcer
    from .cache import MatchCache
    from .transport import CommandNames, Transport

log = logging.getLogger(__name__)

#: What a sender is told while the store cannot be read.
CANNOT_READ = say("The bot cannot read its matches right now; send that again in a moment.")

#: Room messages that start with one of these are table talk, never a submission.
CHAT_PREFIXES: tuple[str, ...] = ("#", "//", "(")
#: The number of the match a private message is for, before it: "#12 mines A1 B2", "#12: bid 3",
#: "12, bid 3" (the "#" marks it; see :func:`match_number`).
_MATCH_NUMBER = re.compile(r"^\s*(#?)(\d+)\s*[:,]?\s+(.+)$", re.DOTALL)


def match_number(text: str) -> tuple[int, str, bool] | None:
    """The match number a private message starts with: (number, the rest, whether "#" marks it);
    ``None`` when it starts with none. The one reading of it (the transports pass the text on)."""
    found = _MATCH_NUMBER.match(text)
    if found is None:
        return None
    return int(found.group(2)), found.group(3).strip(), bool(found.group(1))


class Routing:
    """Where an input goes: the room's match, or the sender's match of a private message (an
    object of the host's own, which hands a submission to :class:`~.actions.Actions`). ``forward``
    and ``hint_seats``: see :class:`~geniusbot.host.match.Host`."""

    def __init__(
        self,
        store: Store,
        transport: Transport,
        cache: MatchCache,
        announcer: Announcer,
        names: CommandNames,
        actions: Actions,
        *,
        forward: Callable[[MatchRecord, str, str, str | None], Awaitable[Reply | None]] | None = None,
        hint_seats: bool = False,
    ) -> None:
        self.store = store
        self.transport = transport
        self.cache = cache
        self.announcer = announcer
        self.names = names
        self.actions = actions
        self.forward = forward
        self.hint_seats = hint_seats

    def _text(self, message: Message) -> str:
        """``message`` in the host's language, for a reply that no match's players read."""
        return Words(self.announcer.language)(message)

    @never_raises
    async def room_message(self, channel_id: int, user_id: int, text: str, *, key: str | None = None) -> Reply:
        """Someone typed ``text`` in a room: a submission if they hold a seat of its match, unless
        it is table talk (see :meth:`room_move`). ``key`` names the message (see
        :meth:`.actions.Actions.submit`)."""
        held = self.cache.match_in(channel_id)
        if held is not None:  # no store read for a match in memory (a busy room's talk)
            seat = next((s for s, p in held.players.items() if p.user_id == user_id), None)
            if seat is None:
                return Reply(ReplyStatus.IGNORED, match_id=held.id)
            return await self.room_move(held.id, seat, text, key=key)
        try:
            record = await self.store.live_match_in_channel(channel_id)
        except StorageUnavailable as error:
            log.warning("room message lost to storage: %s", error)
            return Reply(ReplyStatus.UNAVAILABLE, self._text(CANNOT_READ))
        if record is None:
            return Reply(ReplyStatus.IGNORED)
        seat = record.seat_of(user_id)
        if seat is None:
            return Reply(ReplyStatus.IGNORED, match_id=record.id)
        return await self.room_move(record.id, seat, text, key=key)

    @never_raises
    async def room_move(self, match_id: int, seat: str, text: str, *, key: str | None = None) -> Reply:
        """Seat ``seat`` typed ``text`` in the room of match ``match_id``: the one test of table talk
        for every front end, whether or not the match was in memory.

        While the match runs, a command's name ("resign", "/pause") gets a pointer to the command
        as the transport's users write it, posted in the room (:func:`~.chatter.command_hint`;
        ``hint``, nothing changes), and clear chatter ("gg", "nice move") is ignored without a
        reply (:func:`~.chatter.is_chatter`); anything else is submitted (see :meth:`.actions.Actions.submit`).
        """
        live, reply = await self.cache.get(match_id)
        if live is None:
            return reply
        if live.status in UNFINISHED_STATUSES and seat in live.players:
            prefix = self.names.prefix
            hint = command_said(text, prefix, seat=seat if self.hint_seats else None)
            if hint is not None:
                line = self.announcer.text(live, say("{seat}: {line}", seat=live.who(seat), line=hint))
                await self.announcer.post(live, line)
                return Reply(ReplyStatus.REJECTED, line, match_id, hint=True)
            if is_chatter(live.game, seat, text.strip()):
                return Reply(ReplyStatus.IGNORED, match_id=match_id)
        return await self.actions.submit(match_id, seat, text, key=key)

    @never_raises
    async def command_move(self, match_id: int, seat: str, text: str, *, key: str | None = None) -> Reply:
        """Seat ``seat`` sent ``text`` through a command answered to the sender alone (Discord's
        ``/move``): never table talk, and submitted where the game takes it: privately when the
        game would take it by DM (a sealed play), in the room otherwise. The host answers nothing
        (``answer=False``): the caller tells the sender what the reply says."""
        live, reply = await self.cache.get(match_id)
        if live is None:
            return reply
        private = _belongs_private(live.game, seat, text)
        return await self.actions.submit(match_id, seat, text, private=private, key=key, answer=False)

    @never_raises
    async def private_message(
        self, user_id: int, text: str, match_id: int | None = None, *, key: str | None = None
    ) -> Reply:
        """A player sent ``text`` privately; with several live matches, ``match_id`` picks one, or
        the match number the text starts with: "#12 bid 3" always names match 12; a bare "12 bid 3"
        does when match 12 is one of the sender's several (else the number may be the move).
        ``key`` names the message (see :meth:`.actions.Actions.submit`)."""
        try:
            records = await self.store.live_matches_of_user(user_id)
        except StorageUnavailable:
            return Reply(ReplyStatus.UNAVAILABLE, self._text(CANNOT_READ))
        text = typed(text)  # "＃１２ bid 3" names match 12 as "#12 bid 3" does
        numbered = match_number(text) if match_id is None else None
        if numbered is not None:
            number, rest, marked = numbered
            if marked or (len(records) > 1 and any(r.id == number for r in records)):
                match_id, text = number, rest
        if match_id is not None:
            records = [r for r in records if r.id == match_id]
        elif len(records) > 1:
            # Only a game that takes private moves can be waiting for a DM: if one match alone
            # plays such a game, the DM is for it (a careful host would not ask which).
            games = registry()  # a game no longer installed takes nothing
            private_games = [r for r in records if r.game in games and games[r.game].takes_private_moves()]
            if len(private_games) == 1:
                records = private_games
        if not records:
            # /start is the bot's, not a host command: named only where the transport has it.
            offered = self.transport.commands
            if offered is not None and "start" in offered:
                nothing = say(
                    "You play in no running match, so there is nothing to send this to. Once a host starts a "
                    "match with you ({start} in a game room), send that match's private moves here.",
                    start=Verbatim(self.names.written("start")),
                )
            else:
                nothing = say(
                    "You play in no running match, so there is nothing to send this to. Once a host starts a "
                    "match with you, send that match's private moves here."
                )
            return Reply(ReplyStatus.IGNORED, self._text(nothing))
        if len(records) > 1:
            matches = Listing(
                tuple(say("#{id} ({game})", id=r.id, game=Verbatim(get_game(r.game).title)) for r in records)
            )
            several = say(
                "You play in several matches ({matches}); start your message with the match number, "
                "such as #{id} {text}.",
                matches=matches,
                id=records[0].id,
                text=Verbatim(text),
            )
            return Reply(ReplyStatus.ERROR, self._text(several))
        record = records[0]
        seat = record.seat_of(user_id)
        assert seat is not None
        if self.forward is not None and (handed := await self.forward(record, seat, text, key)) is not None:
            return handed
        return await self.actions.submit(record.id, seat, text, private=True, key=key)


def _belongs_private(game: Game, seat: str, text: str) -> bool:
    """Whether ``text`` from ``seat`` goes in privately: in a game that takes private moves, unless
    the game says it belongs in the room. A text the game refuses either way goes in privately
    too, so what was never shown in the room is not logged as said there. Reads the game only."""
    if not type(game).takes_private_moves():
        return False
    try:
        game.parse_move(typed(text), seat, private=True)
    except WrongPlaceError as error:
        return error.private
    except GameError:
        return True
    return True
