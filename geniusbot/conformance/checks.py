"""The conformance checks by name, and the runner that runs them on one game.

:data:`CHECKS` lists every per-game check in the order ``geniusbot check`` runs them; each says
in a line what it holds the game to. :func:`run_checks` runs them (all, or those named) and gives
one :class:`Result` each: a check stops at its first failure, and the next check runs.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from geniusbot.games import Game
from geniusbot.words import Message, say

from . import hosted, purity, rules, texts
from .failures import CheckFailed, where

if TYPE_CHECKING:
    from geniusbot.storage import Store


@dataclass
class Context:
    """What a check may need beyond the game: option sets to play with too, and (for the checks
    through the host) a store on a temporary database, opened on first use."""

    options: Sequence[Mapping[str, str]] = ()
    stack: AsyncExitStack | None = None
    _store: Store | None = None

    async def store(self) -> Store:
        if self._store is None:
            if self.stack is None:
                raise RuntimeError("the checks through the host need a context opened by run_checks")
            self._store = await self.stack.enter_async_context(temporary_store())
        return self._store

    @property
    def option_sets(self) -> list[Mapping[str, str]]:
        """No options, then each set asked for."""
        return [{}, *self.options]


@asynccontextmanager
async def temporary_store() -> AsyncIterator[Store]:
    """A migrated store on a SQLite file in a folder of its own, removed afterwards."""
    from geniusbot.storage import Store

    with tempfile.TemporaryDirectory(prefix="geniusbot-check-") as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(folder) / 'check.sqlite3'}")
        try:
            yield store
        finally:
            await store.close()


Run = Callable[[type[Game], Context], Awaitable[None] | None]


@dataclass(frozen=True)
class Check:
    """One check: its ``name`` (``--only NAME``), what it ``says`` (a line), how it runs."""

    name: str
    says: Message
    run: Run


def _options_named(options: Mapping[str, str]) -> str:
    return "no options" if not options else "options " + ", ".join(f"{k}={v}" for k, v in options.items())


def _each_variant(cls: type[Game], check: Callable[[str], None]) -> None:
    for variant in cls.variants:
        with where(f"rule set {variant}"):
            check(variant)


def _random_play(cls: type[Game], context: Context) -> None:
    def run(variant: str) -> None:
        for options in context.option_sets:
            with where(_options_named(options)):
                rules.check_random_play(cls, variant, options=options)

    _each_variant(cls, run)


def _event_kinds(cls: type[Game], context: Context) -> None:
    purity.check_kinds_in_source(cls)
    _each_variant(cls, lambda variant: rules.check_playout_event_kinds(cls, variant))


def _per_variant(check: Callable[[type[Game], str], None]) -> Run:
    def run(cls: type[Game], context: Context) -> None:
        _each_variant(cls, lambda variant: check(cls, variant))

    return run


def _keywords(cls: type[Game], context: Context) -> None:
    def run(variant: str) -> None:
        for options in context.option_sets:
            with where(_options_named(options)):
                rules.check_keywords(cls, variant, options)

    _each_variant(cls, run)


def _hosted(check: Callable[[Store, type[Game], str], Awaitable[None]]) -> Run:
    async def run(cls: type[Game], context: Context) -> None:
        store = await context.store()
        for variant in cls.variants:
            with where(f"rule set {variant}"):
                await check(store, cls, variant)

    return run


async def _views_once(cls: type[Game], context: Context) -> None:
    store = await context.store()
    for pictures in (False, True) if cls.picture else (False,):
        with where("with pictures" if pictures else "with text boards"):
            await hosted.check_views_once(store, cls, pictures, rooms=range(800, 900) if pictures else range(700, 800))


#: Every per-game check, in the order they run.
CHECKS: tuple[Check, ...] = (
    Check(
        "declaration",
        say(
            "what the host reads of the class: a name the registry finds, a title, rule sets, options, "
            "keywords, clocks that read and a picture that imports; a new game is the same for the same seed"
        ),
        lambda cls, context: rules.check_declaration(cls),
    ),
    Check(
        "random-play",
        say(
            "random games of every rule set (seeds 1-3) end within 1000 actions keeping every invariant after "
            "every action (legal moves, to_dict() round trip, JSON views, garbled text refused without a "
            "change); each game's record replays through the adjudicator to the same game"
        ),
        _random_play,
    ),
    Check(
        "event-kinds",
        say(
            "every event's kind is a member of EventKind or of the game's own StrEnum, in random games "
            "(timeouts and resignations too) and in the source"
        ),
        _event_kinds,
    ),
    Check(
        "words",
        say(
            "every event, ending and refusal of random games (timeouts and resignations too) is a message "
            "(words as data, said in any language), whose English is the event's text"
        ),
        _per_variant(rules.check_words),
    ),
    Check(
        "timeouts",
        say("a timeout of either seat at the start ends the game or moves it on"),
        _per_variant(rules.check_timeouts),
    ),
    Check(
        "options",
        say("any text for any option makes a game that keeps the invariants, or an OptionError"),
        _per_variant(rules.check_option_texts),
    ),
    Check(
        "wrong-place",
        say(
            "a legal move sent to the other place (a room move by DM, a private move in the room) is refused "
            "with WrongPlaceError saying where it belongs"
        ),
        _per_variant(rules.check_wrong_place),
    ),
    Check(
        "stopped-clock",
        say("a record's timeout is taken for a seat whose clock runs and refused for any other"),
        _per_variant(rules.check_running_clock),
    ),
    Check(
        "keywords",
        say(
            "every word of every legal move met in random games is one of the game's keywords (or a mistyped "
            "move is taken for table talk)"
        ),
        _keywords,
    ),
    Check(
        "commands",
        say("no command's name (resign, pause, help...) is ever taken as a move"),
        lambda cls, context: texts.check_command_names(cls),
    ),
    Check(
        "text-board",
        say(
            "the text board of every view is drawing lines and messages (no word nor seat id outside them), never JSON"
        ),
        lambda cls, context: texts.check_text_boards(cls),
    ),
    Check(
        "help", say("the console's help offers a legal move at the start"), lambda cls, context: texts.check_help(cls)
    ),
    Check(
        "picture",
        say("the picture draws every view the same twice, and every ending's result banner fits it uncut"),
        lambda cls, context: texts.check_picture(cls),
    ),
    Check(
        "purity",
        say("the rules import only the standard library and geniusbot.games; a picture also PIL and geniusbot.render"),
        lambda cls, context: purity.check_purity(cls),
    ),
    Check(
        "hosted-play",
        say(
            "random matches through the real host and a database, clocks running and windows closed by their "
            "timers, export records that adjudicate to the same game"
        ),
        _hosted(hosted.check_hosted_play),
    ),
    Check(
        "replay",
        say("a hosted match's replay gives the same steps from any snapshot as from the start"),
        _hosted(hosted.check_replay_steps),
    ),
    Check(
        "views-once",
        say("an accepted move builds the room's view once and each seat's at most once"),
        _views_once,
    ),
)

CHECK_NAMES = tuple(check.name for check in CHECKS)


@dataclass
class Result:
    """How one check went: ``failure`` is ``None`` when the game passed it."""

    check: Check
    seconds: float
    failure: CheckFailed | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None


@dataclass
class Report:
    """Every check's result for one game."""

    game: type[Game]
    results: list[Result] = field(default_factory=list)

    @property
    def failed(self) -> list[Result]:
        return [result for result in self.results if not result.passed]


async def run_check(check: Check, cls: type[Game], context: Context) -> Result:
    """Run one check; a failure (or an exception the game raised) is its result."""
    started = time.perf_counter()
    failure = None
    try:
        with where(""):  # an exception the game raised becomes a failure of this check
            done: Any = check.run(cls, context)
            if isinstance(done, Awaitable):
                await done
    except CheckFailed as failed:
        failed.check = check.name
        failure = failed
    return Result(check, time.perf_counter() - started, failure)


async def run_checks(
    cls: type[Game],
    names: Iterable[str] | None = None,
    *,
    options: Sequence[Mapping[str, str]] = (),
    each: Callable[[Result], None] | None = None,
) -> Report:
    """Run the checks ``names`` (default: all, in :data:`CHECKS`' order) on ``cls``, which must be
    registered (``geniusbot.games.register``); ``each`` is called with each result as it comes."""
    wanted = set(CHECK_NAMES if names is None else names)
    unknown = wanted - set(CHECK_NAMES)
    if unknown:
        raise ValueError(f"no check is called {sorted(unknown)[0]!r}; the checks are {', '.join(CHECK_NAMES)}")
    report = Report(cls)
    async with AsyncExitStack() as stack:
        context = Context(options=options, stack=stack)
        for check in CHECKS:
            if check.name in wanted:
                result = await run_check(check, cls, context)
                report.results.append(result)
                if each is not None:
                    each(result)
    return report
