"""The bot's side of the inbox (:mod:`.inbox`): a direct message or a DM button press for a match
another process owns is handed over; the owner applies what it is handed and answers the player.

The receiving process (shard 0's, where Discord sends every DM):

* a DM: the host routes it as ever (the sender's matches, a ``#12`` prefix) and, when the match
  is another shard's, :meth:`Relay.forward_dm` writes it into the inbox instead of submitting it.
  It says nothing: the owner answers the player by DM, as for a DM of its own (``Taken: ...``);
* a button press in a DM: the press is deferred at once (Discord's 3-second window), then
  :meth:`Relay.press` writes it with the interaction's token, by which the owner answers it
  later: it edits the pressed message (``Match #12: you answered pass.``) or sends the refusal
  to the presser alone, through the interaction's webhook (REST, no shard needed). After the
  token's 15 minutes, the answer goes by DM instead.

The owner applies each row (:meth:`Relay.apply`) through the host with the row's key (the
Discord message or interaction id), as a DM of its own, so a submission taken once is never
taken again, even when a row is applied twice (a crash between the move and the row's deletion).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from geniusbot.host.live import Reply, ReplyStatus
from geniusbot.storage import MatchNotFound, MatchRecord, StorageError
from geniusbot.storage.shards import Shards, shard_of
from geniusbot.words import Verbatim, Words, say

from .inbox import DM, PRESS, InboxItem

if TYPE_CHECKING:
    from geniusbot.host.match import Host
    from geniusbot.storage import Store

log = logging.getLogger(__name__)

#: What a call to Discord may raise when it fails (the bot's own tuple, without importing the bot).
_FAILURES = (discord.HTTPException, ConnectionError, OSError)


class Owner(Protocol):
    """What the relay uses of the bot that owns it (:class:`geniusbot.bot.GeniusBot`, which makes
    the relay): its store and host, its matches cog, and Discord's REST client and users."""

    @property
    def store(self) -> Store | None: ...

    @property
    def host(self) -> Host | None: ...

    @property
    def http(self) -> discord.http.HTTPClient: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...


class Relay:
    """Hands DMs of other shards' matches to their owners, and applies those handed to this one."""

    def __init__(self, bot: Owner, shards: Shards) -> None:
        self.bot = bot
        self.shards = shards

    @property
    def store(self) -> Any:
        return self.bot.store

    async def _hand(self, record: MatchRecord, seat: str, kind: str, text: str, key: str, reply: Any = None) -> None:
        shard = shard_of(record.guild_id, self.shards.count)
        user_id = next((s.user_id for s in record.seats if s.seat == seat), None)
        added = await self.store.add_inbox(
            shard=shard,
            match_id=record.id,
            user_id=user_id or 0,
            seat=seat,
            kind=kind,
            text=text,
            key=key,
            reply=reply,
        )
        log.info("match %s: %s %s handed to shard %s%s", record.id, kind, key, shard, "" if added else " (again)")

    # ---- the receiving process ------------------------------------------------------------

    async def forward_dm(self, record: MatchRecord, seat: str, text: str, key: str | None) -> Reply | None:
        """The host's ``forward`` hook: ``None`` for a match of this process (submitted here)."""
        if self.shards.owns(record.guild_id) or key is None:
            return None
        try:
            await self._hand(record, seat, DM, text, key)
        except StorageError as error:
            log.warning("a DM for match %s could not be handed over: %s", record.id, error)
            return Reply(
                ReplyStatus.UNAVAILABLE, "The bot cannot reach its database right now; send that again in a moment."
            )
        return Reply(ReplyStatus.IGNORED, "", record.id)  # the owner answers

    async def press(self, interaction: discord.Interaction, match_id: int, seat: str, text: str) -> bool:
        """A deferred press of a sealed-answer button in a DM: ``True`` once it is handed to the
        match's owner, ``False`` for a match of this process. Raises the store's errors."""
        try:
            record = await self.store.get_match(match_id)
        except MatchNotFound:
            return False
        if self.shards.owns(record.guild_id):
            return False
        reply = {
            "application_id": interaction.application_id,
            "token": interaction.token,
            "message_id": interaction.message.id if interaction.message is not None else None,
        }
        await self._hand(record, seat, PRESS, text, f"discord:{interaction.id}", reply)
        return True

    # ---- the owner ------------------------------------------------------------------------

    async def apply(self, item: InboxItem) -> None:
        """Apply one handed-over submission (the inbox's callback; raising leaves the row)."""
        host = self.bot.host
        assert host is not None and self.bot.store is not None
        try:
            if await self.bot.store.find_submission(item.match_id, item.key) is not None:
                log.info("match %s: %s was taken already; not applied again", item.match_id, item.key)
                return
        except MatchNotFound:
            return
        cog: Any = self.bot.get_cog("Matches")
        if item.kind != PRESS:
            # As a DM of this process: the host answers the player privately.
            result = await host.submit(item.match_id, item.seat, item.text, private=True, key=item.key)
            if result.ok and cog is not None:
                await cog.refresh_choices(item.match_id)
            return
        result = await host.submit(item.match_id, item.seat, item.text, private=True, key=item.key, answer=False)
        reply = item.reply or {}
        words = self._words()
        if not result.ok:
            refusal = result.message or words(say("That answer was not taken; send it again as text."))
            await self._answer(reply, item.user_id, "POST", "", {"content": refusal, "flags": 64})
            return
        if cog is not None:
            old = cog.dm_offers.get((item.match_id, item.seat))
            if old is not None and old.message_id == reply.get("message_id"):
                del cog.dm_offers[(item.match_id, item.seat)]
        answered = words(say("Match #{match}: you answered {answer}.", match=item.match_id, answer=Verbatim(item.text)))
        await self._answer(reply, item.user_id, "PATCH", "/messages/@original", {"content": answered, "components": []})
        if cog is not None:
            await cog.refresh_choices(item.match_id)

    def _words(self) -> Words:
        """The bot's words, in its language (as the matches cog answers a press made in its process)."""
        words = getattr(self.bot, "words", None)
        return words() if callable(words) else Words()

    async def _answer(
        self, reply: dict[str, Any], user_id: int, method: str, path: str, payload: dict[str, Any]
    ) -> None:
        """Answer a press through its interaction's webhook; by DM once the token is no more."""
        if reply.get("application_id") and reply.get("token"):
            route = discord.http.Route(
                method,
                "/webhooks/{webhook_id}/{webhook_token}" + path,
                webhook_id=int(reply["application_id"]),
                webhook_token=str(reply["token"]),
            )
            try:
                await self.bot.http.request(route, json=payload)
                return
            except _FAILURES as error:
                log.info("could not answer a handed-over press through its token: %s", error)
        try:
            user = await self.bot.fetch_user(user_id)
            await user.send(str(payload["content"]))
        except _FAILURES as error:
            log.info("could not answer a handed-over press by DM either: %s", error)
