"""The console: a match in the terminal, through the same host, clocks and all (``geniusbot play``).

A front end beside the cogs: it reads lines from a keyboard (or a pipe) and hands them to the host,
as the cogs hand it Discord's events; what the host says comes back through its transport
(:class:`~geniusbot.console.transport.ConsoleTransport`). The command line's part (the
arguments, the options' checks before anything is opened) is :mod:`geniusbot.commands.play`.

Both seats type at one keyboard, one line at a time (so a game can be piped in)::

    p1: H8              a move typed in the room
    p2 (dm): bid 4      a private submission
    status | rules | pause | resume | resign p1 | abort | close window | export | help | quit

A seat's table talk is set aside as in a Discord room (:mod:`.chatter`): ``p1: gg`` prints
``(ignored)`` and reaches no match, ``p1: resign`` is told the command as it is typed here. Where
a Discord room would show a choice's buttons, ``help`` names its few options (:mod:`.offers`).

``close window`` ends a timed window (one that shows a hidden board for a while, say) at once, as the host
does when its time runs out; a person at the keyboard may also just wait for it.

Boards are printed as text; with ``--boards DIR`` (and a renderer for the game), each board is
also saved as a PNG in DIR; without it no picture is kept. Every accepted submission is acknowledged
with a line ``ok p1: H8`` printed only after it was committed to the database.

The console keeps its matches in ``--db`` (a SQLite file or a database URL; default:
``<data dir>/console.sqlite3``, apart from the bot's database). ``play GAME`` resumes the newest
unfinished console match of that game in it (the clocks stopped while it was away), unless
``--new`` is given.

Time: the system clock, or, for tests only, the epoch seconds written in the file named by the
environment variable ``GENIUSBOT_TEST_TIME_FILE`` (read at every look at the clock). Also for
tests only, ``GENIUSBOT_TEST_KILL_AT`` names a boundary at which the process kills itself with
SIGKILL (see :data:`geniusbot.host.deadlines.KILL_AT_ENV`), so that a crash test hits one gap.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from geniusbot.console.lines import MAX_LINE, UNREADABLE, LineReader, quoted
from geniusbot.console.transport import TIME_FILE_ENV, ConsoleTransport, FileTime, plain
from geniusbot.host.hints import OVER_HELP_SAID, help_said, rules_of_said, rules_said
from geniusbot.words import ENGLISH, Message, Verbatim, Words, listed, say, say_n

PAUSED_HINT = say("The match is paused: type resume to go on.")


def clock_help(spec: str) -> Message:
    """What a ``--clock`` that is no time control is told."""
    return say(
        "--clock {spec} is not a time control; write one such as 60s (60 s a move), 60s+5m (then a 5:00 "
        "reserve), 5x60s (five periods of 60 s) or none (no clock).",
        spec=Verbatim(repr(spec)),
    )


_SUBMISSION = re.compile(r"^\s*(p\d)\s*(\(\s*dm\s*\))?\s*:\s*(.*)$", re.IGNORECASE)


def check_options(
    game: str, *, variant: str | None, options: dict[str, str] | None, clock: str | None, seed: int | None
) -> Message | None:
    """Why these options cannot start a match (a message saying what to write), or ``None``.

    It opens no database: a mistyped option is refused before anything is created or migrated.
    """
    from geniusbot.games import GameError, default_variant, get_game
    from geniusbot.host.clock import ClockSpecError, ClockTooLong, TimeControl

    implied = default_variant(game)
    if variant and implied and variant.strip().lower() != implied:
        # 'play <a rule set's own name> --variant <another>': which one was meant?
        name = get_game(game).name
        return say(
            "{typed} is the rule set {implied} of {game}, but --variant asks for {variant}; write "
            "'geniusbot play {game} --variant {asked}', or leave --variant out.",
            typed=Verbatim(repr(game)),
            implied=Verbatim(repr(implied)),
            game=Verbatim(name),
            variant=Verbatim(repr(variant)),
            asked=Verbatim(variant),
        )
    try:
        get_game(game).new(seed=seed or 0, variant=variant or default_variant(game), **dict(options or {}))
    except GameError as error:
        return error.said or _as_is(str(error))
    except ValueError as error:  # Python's own words (a game's bug), quoted as they are
        return say("That option is not valid ({error}); check it and start again.", error=Verbatim(str(error)))
    if clock:
        try:
            TimeControl.parse(clock)
        except ClockTooLong as error:  # it reads, but past the bound: say the bound
            return say("--clock: {error}", error=error.said or _as_is(str(error)))
        except ClockSpecError:
            return clock_help(clock)
    return None


def _as_is(text: str) -> Message:
    """Words that are not a message (a plug-in's plain English), said as they are."""
    return Message("{text}", {"text": Verbatim(text)})


async def run_console(
    game: str,
    *,
    db_url: str,
    seed: int | None = None,
    variant: str | None = None,
    options: dict[str, str] | None = None,
    clock: str | None = None,
    new: bool = False,
    boards_dir: Path | None = None,
    stdin: IO[str] | None = None,
    out: IO[str] | None = None,
    time_source: Any = None,
    bot: tuple[str, str] | None = None,
    for_new: Sequence[str] = (),
    language: str = ENGLISH,
) -> int:
    """Play one match in the terminal; return the exit code (0, or 2 for bad options). ``bot``:
    the seat and level of the practice opponent (``--vs bot``). ``for_new``: the options given
    that only a new match takes (``--level 'hard'``...), beside ``--clock``, ``--seed`` and
    ``--option``: a match resumed says it leaves them out. ``language``: what the console and the
    host say is said in it (:mod:`geniusbot.words`)."""
    from geniusbot.games import GameError, default_variant, get_game
    from geniusbot.host.match import Host
    from geniusbot.host.replay import export_record
    from geniusbot.host.timers import SystemTime, TimerDispatcher
    from geniusbot.storage import MatchStatus, StorageError, StorageUnavailable
    from geniusbot.storage.console import ConsoleStore

    from . import practice

    stdin = stdin or sys.stdin
    out = out or sys.stdout

    words = Words(language)

    def tell(text: str | Message) -> None:
        print(plain(text if isinstance(text, str) else words(text)), file=out, flush=True)

    try:
        name = get_game(game).name
    except GameError as error:
        tell(error.said or str(error))
        return 2
    problem = check_options(game, variant=variant, options=options, clock=clock, seed=seed)
    if problem:
        tell(problem)
        return 2
    # How to come back to this match (or start the next): the command as it was typed.
    again = f"geniusbot play {game}" + (f" --variant {variant}" if variant else "")
    if time_source is None:
        time_file = os.environ.get(TIME_FILE_ENV)
        time_source = FileTime(time_file) if time_file else SystemTime()
    now: Callable[[], float] = lambda: time_source.now().timestamp()  # noqa: E731
    try:
        store = await ConsoleStore.open(db_url, now=time_source.now)
        assert isinstance(store, ConsoleStore)
    except StorageUnavailable as error:  # it says what failed and what to do; name the URL too
        tell(say("{error} The database was {url} (--db).", error=error.said, url=Verbatim(repr(db_url))))
        return 2
    except Exception as error:  # a bad URL or a schema it does not know: say so, do not trace
        tell(
            say(
                "The database {url} cannot be opened ({error}); check --db.",
                url=Verbatim(repr(db_url)),
                error=Verbatim(str(error)),
            )
        )
        return 2
    transport = ConsoleTransport(out, boards_dir, words)
    dispatcher = TimerDispatcher(
        store, lambda timer: host.on_timer(timer), time=time_source, retry_delay=1.0, max_sleep=1.0
    )
    host = Host(
        store,
        transport,
        now=now,
        text_boards=True,
        adopt=False,
        wake=dispatcher.wake,
        hint_seats=True,
        language=language,
    )
    opponent = None
    try:
        match_id = None
        if not new:
            # A rule set asked for (or implied by the name) resumes only a match of that rule set.
            wanted = (variant or default_variant(game) or "").strip().lower()
            mine = [
                r
                for r in await store.live_matches()
                if r.game == name
                and r.channel_id is None
                and r.guild_id is None
                and (not wanted or r.variant == wanted)
            ]
            if mine:
                match_id = mine[-1].id
                tell(
                    say(
                        "Resuming match #{match} ({game}); 'quit' leaves it for later, 'abort' ends it.",
                        match=match_id,
                        game=Verbatim(name),
                    )
                )
                given = [f"--clock {clock}"] if clock else []
                given += [f"--seed {seed}"] if seed is not None else []
                given += [f"--option {key}={value}" for key, value in (options or {}).items()]
                given += for_new
                if given:
                    tell(_left_out(match_id, given))
                # The opponent is the stored match's own (its seat and level), whatever is asked now.
                stored = mine[-1].practice
                if stored is None and bot is not None:
                    tell(
                        say(
                            "Match #{match} is between two seats at this keyboard, so --vs bot is left out; "
                            "'geniusbot play {game} --vs bot --new' starts a match against the practice opponent.",
                            match=match_id,
                            game=Verbatim(name),
                        )
                    )
                asked = bot[1] if bot is not None else "normal"
                bot = None if stored is None else (stored.seat, stored.level or asked)
        if match_id is not None:
            # From here on this console reads, delivers and beats for this match alone (another
            # console on the same database plays its own): the time the match waited since its
            # console's last heartbeat is given back.
            store.match_id = match_id
            # Its board again: the earlier run's are not on this terminal.
            resumed = await host.recover(only=lambda r: r.id == match_id, boards=True)
            if match_id not in resumed:
                tell(say("Match #{match} could not be resumed; start a new one with --new.", match=match_id))
                return 2
            resumed_live = host.matches.get(match_id)  # gone: it ended as it resumed (a clock had run out)
            if resumed_live is not None and resumed_live.status == MatchStatus.PAUSED:
                tell(PAUSED_HINT)
        else:
            reply = await host.start_match(
                # A rule set's own name (Game.variant_aliases) picks that rule set, as in the bot.
                name,
                seed=seed,
                variant=variant or default_variant(game),
                options=options or {},
                clock=clock,
                players=practice.players(bot),
                practice=practice.practice(bot),
            )
            if not reply.ok:
                tell(reply.message)
                return 2
            match_id = reply.match_id
            assert match_id is not None
            store.match_id = match_id
            await host.recover(only=lambda _record: False)  # nothing to give back: it starts the heartbeat
        dispatcher.start()
        # A match not held any more ended as it resumed (its clock had run out).
        tell(help_said(host.matches[match_id].game) if match_id in host.matches else OVER_HELP_SAID)
        opponent = await practice.start(host, store, match_id, bot, tell)

        # Each line's submission key: this run, named as the transport names its messages (the
        # microsecond it began, unique across runs), and the line's number in it.
        run = time.time_ns() // 1000
        number = 0

        async def one(line: str) -> bool:
            try:
                return await _handle(
                    line, host, store, match_id, tell, export_record, again, key=f"console:{run}:{number}"
                )
            except StorageError as error:
                tell(say("The database failed ({error}); nothing changed, try again.", error=Verbatim(str(error))))
                return True

        going = True
        reader = LineReader(stdin)
        try:
            while going:
                read = await reader.read()
                number += 1
                if read == "":
                    break  # the end of the input, without 'quit'
                if read is None:
                    tell(UNREADABLE)
                    continue
                line = read.strip()
                if not line:
                    continue
                if len(line) > MAX_LINE:
                    tell(
                        say(
                            "That line is {length} characters long, more than any move or command ({most} at "
                            "most); it was not read: {line}.",
                            length=Verbatim(f"{len(line):,}"),
                            most=Verbatim(f"{MAX_LINE:,}"),
                            line=quoted(line),
                        )
                    )
                    continue
                handling = asyncio.ensure_future(one(line))
                try:
                    going = await asyncio.shield(handling)
                except asyncio.CancelledError:
                    await handling  # Ctrl-C while a line is handled: it ends (it may be committing) first
                    raise
                await practice.answer(opponent)  # the practice opponent moves before the next line
        except asyncio.CancelledError:  # Ctrl-C: leave as 'quit' does, without a traceback
            tell("")
            tell(await _leaving(host, match_id, again))
            return 130
        if going:
            tell(await _leaving(host, match_id, again))
        return 0
    except asyncio.CancelledError:  # Ctrl-C before the first line was read
        tell("")
        tell(
            say(
                "Stopped while the match was being set up; '{again}' with the same --db takes it up again.",
                again=Verbatim(again),
            )
        )
        return 130
    finally:
        await practice.stop(opponent)
        await dispatcher.stop()
        await store.close()


def _left_out(match_id: int, given: Sequence[str]) -> Message:
    """What a resumed match says of the options given that only a new match takes."""
    return say_n(
        "Match #{match} goes on as it was set up, so {options} is left out; add --new to start a match with it.",
        "Match #{match} goes on as it was set up, so {options} are left out; add --new to start a match with them.",
        n=len(given),
        match=match_id,
        options=listed([Verbatim(option) for option in given]),
    )


def _leaving_text(match_id: int, over: bool, again: str) -> Message:
    if over:
        return say(
            "Leaving match #{match}, which is over; '{again}' starts another.", match=match_id, again=Verbatim(again)
        )
    return say(
        "Leaving match #{match}; '{again}' with the same --db resumes it.", match=match_id, again=Verbatim(again)
    )


async def _leaving(host: Any, match_id: int, again: str) -> Message:
    """What the console says as it leaves without 'quit' (the end of the input, Ctrl-C)."""
    from geniusbot.storage import MatchStatus

    try:
        live = await host.load(match_id)
    except Exception:  # the database is gone too: a match not known over may be resumed
        live = None
    over = live is not None and live.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
    return _leaving_text(match_id, over, again)


async def _handle(
    line: str,
    host: Any,
    store: Any,
    match_id: int,
    tell: Callable[[str | Message], None],
    export: Any,
    again: str = "geniusbot play",
    *,
    key: str | None = None,
) -> bool:
    """Handle one console line; ``False`` to quit. ``again`` is the command that comes back to it;
    ``key``, the line's submission key."""
    from geniusbot.host.match import CHAT_PREFIXES, ReplyStatus
    from geniusbot.storage import MatchStatus

    live = await host.load(match_id)  # from the store once it is over
    over = live is not None and live.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
    words = line.lower().split()
    submission = _SUBMISSION.match(line)
    if submission:
        seat, private, text = submission.group(1).lower(), bool(submission.group(2)), submission.group(3)
        if not text.strip() and not over:
            from geniusbot.adjudicate import nothing_follows

            tell(nothing_follows(seat, private))  # as the adjudicator rules such a line
            return True
        # Table talk at the table, as in a Discord room: the host's routing points a command's
        # name to the command as it is typed here, sets chatter aside (no refusal), and takes the rest.
        if private:
            reply = await host.submit(match_id, seat, text, private=True, key=key)
        else:
            reply = await host.room_move(match_id, seat, text, key=key)
        if reply.hint:
            return True
        if reply.ok:
            who, what = Verbatim(seat), Verbatim(reply.message)
            tell(
                say("ok {seat} (dm): {reply}", seat=who, reply=what)
                if private
                else say("ok {seat}: {reply}", seat=who, reply=what)
            )
        elif reply.status == ReplyStatus.IGNORED and over and not text.strip().startswith(CHAT_PREFIXES):
            tell(
                say(
                    "Match #{match} is over; no more moves are taken. Type quit to leave, then '{again}' starts "
                    "another.",
                    match=match_id,
                    again=Verbatim(again),
                )
            )
        elif reply.status == ReplyStatus.IGNORED:
            tell(say("(ignored)"))
        elif reply.status == ReplyStatus.ERROR:
            tell(reply.message)
        elif reply.status == ReplyStatus.REJECTED and live is not None and live.status == MatchStatus.PAUSED:
            # The refusal says to wait for the host: at the console, the host is whoever types.
            tell(PAUSED_HINT)
        elif reply.status == ReplyStatus.REJECTED and not private and reply.belongs_private:
            tell(
                say(
                    "At the console a private move is typed as '{seat} (dm): {text}'.",
                    seat=Verbatim(seat),
                    text=Verbatim(text.strip()),
                )
            )
        elif reply.status == ReplyStatus.REJECTED and private and reply.belongs_private is False:
            # The refusal went to the seat alone ([to p1 only]); so does the line that follows it.
            tell(
                say(
                    "[to {seat} only] At the console a move made in the room is typed as '{seat}: {text}'.",
                    seat=Verbatim(seat),
                    text=Verbatim(text.strip()),
                )
            )
        return True
    if words in (["quit"], ["exit"], ["q"]):
        tell(_leaving_text(match_id, over, again))
        return False
    game = live.game if live is not None else None
    if words == ["help"]:
        tell(OVER_HELP_SAID if over else help_said(game))
    elif words == ["rules"] and game is not None:
        tell(rules_said(game))
    elif len(words) == 2 and words[0] == "rules":
        tell(rules_of_said(words[1]))  # a task's own rules, or any game's
    elif words == ["board"]:
        reply = await host.show_board(match_id)
        if not reply.ok:
            tell(reply.message)
    elif words == ["export"]:
        # The person at the keyboard plays one seat of a practice match: while it goes on, the
        # opponent's private moves are theirs alone, as in the room.
        withhold = None if over or live is None else live.practice_seat
        tell((await export(store, match_id, withhold=withhold)).rstrip("\n"))
    elif words == ["close", "window"]:
        # The host's own close, as when the window's time runs out (a record's 'host: close window').
        reply = await host.command(match_id, "close window", key=key)
        if not reply.ok:
            tell(reply.message)
    elif words and words[0] in ("status", "pause", "resume", "abort") and len(words) == 1:
        reply = await host.command(match_id, words[0], key=None if words[0] == "status" else key)
        if reply.message and (words[0] == "status" or not reply.ok):
            tell(reply.message)
        if reply.ok and words[0] == "pause":
            tell(PAUSED_HINT)
    elif words and words[0] == "resign":
        if len(words) != 2:
            tell(say("Say who resigns: resign p1 or resign p2."))
        else:
            reply = await host.command(match_id, "resign", seat=words[1], key=key)
            if not reply.ok:
                tell(reply.message)
    else:
        tell(
            say(
                "I did not understand {line}. {help}",
                line=quoted(line),
                help=OVER_HELP_SAID if over else help_said(game),
            )
        )
    return True
