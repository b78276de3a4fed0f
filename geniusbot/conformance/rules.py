"""The checks of a game's rules API, on the game alone (no host, no database): what it declares,
random games to their end with every invariant checked after every action, the kinds of its
events, its timeouts and options, and moves sent to the wrong place.

Each ``check_*`` raises :class:`~.failures.CheckFailed` at the first thing wrong, and returns
nothing when the game keeps the contract. ``docs/writing-a-game.md`` says the contract.
"""

from __future__ import annotations

import enum
import itertools
import json
import random
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from geniusbot.games import (
    SEATS,
    Event,
    EventKind,
    Game,
    GameError,
    NotYourTurnError,
    Outcome,
    WrongPlaceError,
    get_game,
    load,
    notation_words,
)
from geniusbot.games.base import BaseView
from geniusbot.words import Words

from .failures import CheckFailed, expect, where
from .playout import END_BOUND, LEGAL_CAP, SEEDS, garbled, positions, random_move

#: The keys every view has: :class:`~geniusbot.games.BaseView`'s.
BASE_VIEW_KEYS: frozenset[str] = BaseView.__required_keys__

SAVING = "state_dict() gives the whole state as plain JSON data and load_state() restores all of it"


def _json_round_trip(data: Any) -> Any:
    return json.loads(json.dumps(data))


# --------------------------------------------------------------------------- what it declares


def check_declaration(cls: type[Game]) -> None:
    """The class attributes the host reads: a name the registry finds it by (in any case, and by
    each alias), a title, its rule sets, its options (lower-case names with a line of help), its
    keywords (lower-case words), its seats (p1 and p2), its clocks (specs the host reads) and its picture (a function
    that imports); a new game needs no option and is the same for the same seed."""
    from geniusbot.host.clock import ClockSpecError, TimeControl

    expect(getattr(cls, "title", ""), "the class has no title", "set title, the game's human name.")
    expect(cls.variants, "the class names no rule set", 'leave variants as ("standard",) or name yours.')
    expect(
        tuple(cls.seats) == SEATS,
        f"the class names the seats {tuple(cls.seats)!r}",
        "leave seats as it is: every match has two seats, p1 and p2.",
    )
    for found in (cls.name.upper(), f"  {cls.name} ", *cls.aliases):
        expect(
            _registered(found) is cls,
            f"get_game({found!r}) does not find this game",
            "the registry's name is the entry point's name and the class's name; an alias another game "
            "takes is another game's.",
        )
    for variant in cls.variants:
        with where(f"rule set {variant}"):
            expect(
                cls.new(seed=7, variant=variant) == cls.new(seed=7, variant=variant),
                "two new games of the same seed differ",
                "draw only from self.seed (random.Random(f'{self.seed}:...')), never from the time or a global generator.",
            )
    for option, help_text in cls.options.items():
        expect(
            option == option.lower() and " " not in option and help_text,
            f"the option {option!r} is not a lower-case name with a line of help",
            "options maps lower-case names (record headers in CamelCase) to one line of help.",
        )
    expect(cls.keywords, "the game declares no keywords", "keywords: every word of every legal move's text.")
    for word in cls.keywords:
        expect(
            notation_words(word) == [word],
            f"the keyword {word!r} is not one lower-case word as notation_words() reads a move",
            "a keyword is a word of letters alone, in lower case (coordinates and numbers are not words).",
        )
    for variant, spec in cls.clocks.items():
        try:
            TimeControl.parse(spec)
        except ClockSpecError as error:
            raise CheckFailed(f"the clock {spec!r} of {variant!r} cannot be read: {error}") from error
    if cls.picture:
        module, _, function = cls.picture.partition(":")
        try:
            drawn = getattr(__import__(module, fromlist=["_"]), function)
        except (ImportError, AttributeError) as error:
            raise CheckFailed(
                f"the picture {cls.picture!r} cannot be imported ({type(error).__name__}: {error})",
                'picture is "module:function", the function that draws a view; "" for none.',
            ) from error
        expect(callable(drawn), f"the picture {cls.picture!r} is not a function")


def _registered(name: str) -> type[Game] | None:
    try:
        return get_game(name)
    except GameError:
        return None


# --------------------------------------------------------------------------- random games


def check_invariants(game: Game) -> None:
    """The invariants of the rules API after any action: only the seats to move have legal moves,
    a running game lets someone act, ``to_dict()`` is JSON that loads back equal, every view is
    JSON with the base keys, its phase "over" once the game is over and only then (and, for a game
    of perfect information, every seat's is the room's)."""
    movers = game.to_move()
    expect(set(movers) <= set(SEATS), f"to_move() names {movers}, not seats p1 and p2")
    for seat in SEATS:
        if seat not in movers:
            expect(
                not any(True for _ in game.legal_moves(seat)),
                f"{seat} has legal moves but is not to move",
                "legal_moves(seat) yields nothing for a seat not in to_move().",
            )
    if game.is_over:
        expect(movers == (), "the game is over but to_move() names seats", "to_move() is () once the game is over.")
    elif game.window() is None:
        expect(movers, "a running game with no timed window names nobody to move")
        expect(any(True for _ in game.legal_moves()), "the seats to move have no legal move")
    data = game.to_dict()
    expect(_json_round_trip(data) == data, "to_dict() is not plain JSON data (a tuple, a set, an object?)", SAVING)
    expect(load(data) == game, "to_dict() does not load back to an equal game", SAVING)
    expect(load(_json_round_trip(data)) == game, "to_dict() read back from JSON loads a different game", SAVING)
    public = None
    for viewer in (None, *SEATS):
        view = game.view(viewer)
        who = "the room's view" if viewer is None else f"{viewer}'s view"
        expect(
            set(view) >= BASE_VIEW_KEYS, f"{who} lacks {sorted(BASE_VIEW_KEYS - set(view))}", "start from base_view()."
        )
        expect(_json_round_trip(view) == view, f"{who} is not plain JSON data", "a view is a dict of plain values.")
        expect(
            view["game"] == game.name and view["to_move"] == list(movers),
            f"{who} names another game or other seats to move",
            "start from base_view().",
        )
        expect(
            (view["phase"] == "over") == game.is_over,
            f"{who} says the phase {view['phase']!r} " + ("but the game is over" if game.is_over else "before the end"),
            'the phase is "over" once the game is over, and only then (base_view() says so).',
        )
        if viewer is None:
            public = view
        elif type(game).perfect_information:
            expect(
                view == public,
                f"{viewer}'s view differs from the room's, but the game declares perfect_information",
                "perfect_information = True only when every seat's view is the public view.",
            )


def check_garbage_is_refused_cleanly(game: Game, rng: random.Random, texts: list[str]) -> None:
    """Garbled text is refused with a :class:`GameError`, or read as a legal move of that seat,
    and the state does not change either way."""
    before = game.to_dict()
    for _ in range(6):
        text = garbled(rng, texts)
        seat = rng.choice(SEATS)
        try:
            move = game.parse_move(text, seat, private=rng.random() < 0.3)
        except GameError:
            continue
        expect(
            move.seat == seat and game.is_legal(move),
            f"parse_move({text!r}, {seat!r}) gives {move!r}, not a legal move of {seat}",
            "parse_move returns a legal move of the seat that typed it, or raises a GameError.",
        )
    expect(game.to_dict() == before, "parse_move changed the state", "parse_move never changes the state.")


def play_random_game(
    cls: type[Game], variant: str, seed: int, options: Mapping[str, str] | None = None
) -> tuple[Game, Game, list[tuple[str, str, bool]], list[str]]:
    """A seeded random game to its end (or :data:`END_BOUND` actions), every invariant checked
    after every action; half the moves go through ``parse_move(move.text())`` as a player would
    type them. The start, the end, the record's lines and the last legal texts."""
    rng = random.Random(f"conformance:{cls.name}:{variant}:{seed}")
    with where("the start"):
        game = cls.new(seed=seed, variant=variant, **dict(options or {}))
    start = game.copy()
    lines: list[tuple[str, str, bool]] = []
    texts: list[str] = []
    for step in range(END_BOUND + 1):
        with where(f"after {step} actions" if step else "at the start"):
            check_invariants(game)
            if game.is_over:
                break
            expect(
                step < END_BOUND,
                f"the game did not end within {END_BOUND} actions of random play",
                "a game must end within a bounded number of moves whatever is played (the checks, the host's "
                "random matches and the practice opponent's play-outs play to the end): add a move limit, a "
                "repetition rule or a last round.",
            )
            if not game.to_move():
                expect(game.window() is not None, "nobody is to move and no window is open")
                game.close_window()
                lines.append(("host", "close window", False))
                continue
            moves = list(itertools.islice(game.legal_moves(), LEGAL_CAP))
            texts = [m.text() for m in moves[:40]]
            if step % 3 == 0:
                check_garbage_is_refused_cleanly(game, rng, texts)
            if step % 7 == 0:
                # Ending a copy early is always possible and leaves a consistent, finished game.
                ended = game.copy()
                loser = rng.choice(SEATS)
                ended.resign(loser)
                outcome = ended.outcome()
                expect(outcome is not None and outcome.winner != loser, f"resign({loser!r}) did not end the game")
                expect(ended.to_move() == () and load(ended.to_dict()) == ended, "a resigned game is inconsistent")
            move = rng.choice(moves)
            private = game.is_private(move)
            expect(move.seat in game.to_move(), f"legal_moves() gives {move!r} of a seat not to move")
            if rng.random() < 0.5:
                typed = game.parse_move(move.text(), move.seat, private=private)
                expect(
                    typed == move,
                    f"{move.text()!r} reads back as {typed!r}, not as {move!r}",
                    "parse_move(move.text()) gives back an equal move: text() is the move's canonical notation.",
                )
            game.play(move)
            lines.append((move.seat, move.text(), private))
    return start, game, lines, texts


def check_random_play(
    cls: type[Game], variant: str, *, seeds: Iterable[int] = SEEDS, options: Mapping[str, str] | None = None
) -> list[Game]:
    """Random games of each seed end within :data:`END_BOUND` actions keeping every invariant;
    the finished game refuses everything as out of turn; the record of each replays through the
    adjudicator to the same game. The finished games, for the checks that read their endings."""
    from geniusbot.adjudicate import adjudicate
    from geniusbot.record import format_record, parse_record, record_from_game

    ended = []
    for seed in seeds:
        with where(f"seed {seed}"):
            start, game, lines, texts = play_random_game(cls, variant, seed, options)
            expect(list(game.legal_moves()) == [], "a finished game still has legal moves")
            for seat in SEATS:
                expect(list(game.legal_moves(seat)) == [], f"a finished game still has legal moves of {seat}")
                for text in [*texts[:5], lines[-1][1] if lines else "x", "", "resign"]:
                    try:
                        game.parse_move(text, seat)
                    except NotYourTurnError:
                        continue
                    except GameError as error:
                        raise CheckFailed(
                            f"a finished game refuses {text!r} with {type(error).__name__}, not NotYourTurnError",
                            "parse_move calls require_turn(seat) first.",
                        ) from error
                    raise CheckFailed(f"a finished game takes {text!r} from {seat}", "call require_turn(seat) first.")
            record = record_from_game(start, lines)
            result = adjudicate(parse_record(format_record(record)))
            refused = [(a.line, a.text, a.error) for a in result.actions if not a.accepted]
            expect(
                refused == [],
                f"the game's own record refuses lines when replayed: {refused[:3]}",
                "each move's text() must be taken again by parse_move in the same position (a record replays "
                "the texts); moves drawn at random must come from the seed alone.",
            )
            expect(
                result.game == game,
                "the game's record replays to a different game",
                "draw everything at random from self.seed in setup() and keep it in the state.",
            )
            ended.append(game)
    return ended


# --------------------------------------------------------------------------- event kinds


def _package(cls: type[Game]) -> str:
    return sys.modules[cls.__module__].__package__ or cls.__module__


def check_event_kinds(cls: type[Game], events: Iterable[Event]) -> None:
    """Every kind is data: a member of :class:`EventKind` or of a ``StrEnum`` of the game's own
    package, never a free string."""
    package = _package(cls)
    for event in events:
        kind = event.kind
        expect(
            isinstance(kind, enum.Enum) and isinstance(kind, enum.StrEnum),
            f"the kind {kind!r} of the event {event.text!r} is a free string, not a StrEnum member",
            "kind= is a member of EventKind or of a StrEnum of the game's own package.",
        )
        owner = type(kind)
        expect(
            owner is EventKind or owner.__module__ == package or owner.__module__.startswith(f"{package}."),
            f"the kind {kind!r} is of {owner.__module__}.{owner.__qualname__}, outside {package}",
            "name the game's own kinds in a StrEnum of its own package.",
        )


def playout_events(cls: type[Game], variant: str, seed: int) -> list[Event]:
    """Every event of a seeded random game to its end: its opening, its moves and closed windows,
    and on copies along the way each mover's timeout and a resignation."""
    rng = random.Random(f"kinds:{cls.name}:{variant}:{seed}")
    game = cls.new(seed=seed, variant=variant)
    events = list(game.opening_events())
    for step in range(END_BOUND):
        if game.is_over:
            break
        with where(f"action {step + 1}"):
            if not game.to_move():
                events += game.close_window()
                continue
            if step % 5 == 0:
                for seat in game.to_move():
                    events += game.copy().timeout(seat)
                events += game.copy().resign(rng.choice(SEATS))
            events += game.play(random_move(game, rng))
    return events


def check_playout_event_kinds(cls: type[Game], variant: str, seeds: Iterable[int] = SEEDS) -> None:
    """The events of random games (moves, windows, timeouts, resignations) have kinds that are data."""
    for seed in seeds:
        with where(f"seed {seed}"):
            events = playout_events(cls, variant, seed)
            expect(events, "a random game gives no events at all", "play() returns the events a host announces.")
            check_event_kinds(cls, events)


def check_words(cls: type[Game], variant: str, seeds: Iterable[int] = SEEDS) -> None:
    """Words as data: every event of random games that says something is a message, every
    ending's sentence is, and every refusal of garbled or illegal text is; each message's English
    is the event's text (what a record keeps)."""
    english = Words()
    for seed in seeds:
        with where(f"seed {seed}"):
            for event in playout_events(cls, variant, seed):
                if not event.text:
                    continue
                expect(
                    event.said is not None,
                    f"the event {event.text!r} is plain text, not a message",
                    'make it with Event.of(say("...", seat=Seat(...)), ...) (docs/words.md).',
                )
                assert event.said is not None
                expect(
                    english(event.said) == event.text,
                    f"the event's text {event.text!r} is not its message's English",
                    "make the event with Event.of(message, ...): its text is the message's English.",
                )
                if event.kind == EventKind.END:
                    outcome = Outcome.from_dict(event.data, cls.terminations)
                    expect(
                        outcome is not None and outcome.said is not None,
                        f"the ending {event.text!r} is plain text, not a message",
                        'end the game with self.end(winner, termination, say("..."), verdict=say("...")).',
                    )
                    assert outcome is not None and outcome.said is not None and outcome.said_detail is not None
                    expect(
                        english(outcome.said) == outcome.reason and english(outcome.said_detail) == outcome.detail,
                        f"the ending's sentence {outcome.reason!r} is not its message's English {english(outcome.said)!r}",
                        "the outcome says its own full stop: end neither the how nor the verdict message with one.",
                    )
            _check_refusals_are_words(cls, variant, seed)


def _check_refusals_are_words(cls: type[Game], variant: str, seed: int) -> None:
    rng = random.Random(f"words:{cls.name}:{variant}:{seed}")
    texts: list[str] = []
    for game in positions(cls, variant, seed, "words", steps=60):
        if game.is_over:
            break
        texts += [move.text() for move in itertools.islice(game.legal_moves(), 20)]
        tries = [garbled(rng, texts) for _ in range(4)] + ["", "zz99", "resign please"]
        if texts:
            tries.append(rng.choice(texts))  # perhaps another seat's, or another phase's, move
        for text in tries:
            for seat in SEATS:
                for private in (False, True):
                    try:
                        game.parse_move(text, seat, private=private)
                    except GameError as error:
                        expect(
                            error.said is not None,
                            f"parse_move({text!r}, {seat!r}, private={private}) refuses it in plain text: {error}",
                            'raise the GameError with a message: IllegalMoveError(say("...", ...)) (docs/words.md).',
                        )


# --------------------------------------------------------------------------- timeouts and options


def check_timeouts(cls: type[Game], variant: str) -> None:
    """A timeout of either seat at the start ends the game or moves it on, consistently."""
    game = cls.new(seed=3, variant=variant)
    for seat in game.to_move() or SEATS:
        with where(f"timeout({seat!r}) at the start"):
            copy = game.copy()
            events = copy.timeout(seat)
            expect(isinstance(events, list), "timeout() does not return a list of events")
            check_event_kinds(cls, events)
            check_invariants(copy)


#: Option texts a player might write (setups, seats, colours, boards), to bend out of shape.
OPTION_TEXTS = ["red C3 F6; blue F3 C6", "p1", "blue", "classic5", "none", "all"]


def check_option_texts(cls: type[Game], variant: str) -> None:
    """Any text for any option makes a game that keeps the invariants, or an ``OptionError``; so
    does a rule set's name in any form."""
    rng = random.Random(f"options:{cls.name}:{variant}")
    for option in cls.options:
        for _ in range(25):
            text = garbled(rng, [cls.options[option], *OPTION_TEXTS])
            with where(f"the option {option}={text!r}"):
                try:
                    game = cls.new(seed=rng.randrange(1000), variant=variant, **{option: text})
                except GameError:
                    continue
                check_invariants(game)
    for text in ("", "no such rule set", variant.upper(), f" {variant} "):
        with where(f"the rule set {text!r}"):
            try:
                cls.new(variant=text)
            except GameError:
                pass


# --------------------------------------------------------------------------- where a move is made

#: Moves sent to the wrong place, and timeouts of stopped clocks, are tried over this many actions.
PLACE_STEPS = 60
PLACE_CAP = 200


def check_wrong_place(cls: type[Game], variant: str, seeds: Iterable[int] = (1, 2)) -> None:
    """A legal move sent to the other place (a room move by DM, a private move in the room) is
    refused with :class:`WrongPlaceError`, whose ``private`` says where it belongs, and changes
    nothing."""
    checked = 0
    for seed in seeds:
        for step, game in enumerate(positions(cls, variant, seed, "place", steps=PLACE_STEPS, cap=PLACE_CAP)):
            if game.is_over:
                break
            with where(f"seed {seed}, after {step} actions"):
                before = game.to_dict()
                for move in itertools.islice(game.legal_moves(), 12):
                    belongs = game.is_private(move)
                    sent = "by DM" if not belongs else "in the room"
                    try:
                        game.parse_move(move.text(), move.seat, private=not belongs)
                    except WrongPlaceError as refused:
                        expect(
                            refused.private is belongs,
                            f"{move.text()!r} sent {sent} is refused as belonging elsewhere than it does",
                            "WrongPlaceError(message, private=True) for a private move typed in the room, "
                            "private=False for a room move sent by DM.",
                        )
                        expect(str(refused), "the refusal says nothing", "say where the move belongs.")
                    except GameError as error:
                        raise CheckFailed(
                            f"the legal move {move.text()!r} sent {sent} is refused with {type(error).__name__}, "
                            "not WrongPlaceError",
                            "check the place right after the turn: require_room(private) in a game whose moves "
                            "are all made in the room, else WrongPlaceError(message, private=is_private(move)).",
                        ) from error
                    else:
                        raise CheckFailed(
                            f"the legal move {move.text()!r} is taken {sent}, the wrong place for it",
                            "refuse a move sent to the wrong place with WrongPlaceError; is_private(move) says "
                            "where a move belongs.",
                        )
                    checked += 1
                expect(game.to_dict() == before, "a refused move changed the game")
    expect(checked, "no legal move was met to try")


def check_running_clock(cls: type[Game], variant: str, seeds: Iterable[int] = (1, 2)) -> None:
    """Only a running clock runs out: a record's ``host: timeout p2`` while p2 is not to move (or
    while a timed window is open) is rejected and changes nothing; a timeout of a seat to move is
    taken."""
    from geniusbot.adjudicate import rule_on
    from geniusbot.record import ActionKind, RecordLine, write_host_line

    refused = taken = 0
    for seed in seeds:
        for step, game in enumerate(positions(cls, variant, seed, "place", steps=PLACE_STEPS, cap=PLACE_CAP)):
            if game.is_over:
                break
            for seat in SEATS:
                with where(f"seed {seed}, after {step} actions, host: timeout {seat}"):
                    copy = game.copy()
                    error = rule_on(copy, RecordLine(0, "host", False, write_host_line(ActionKind.TIMEOUT, seat)))
                    if game.window() is None and seat in game.to_move():
                        expect(
                            error is None,
                            f"the timeout of {seat}, to move, was refused: {error}",
                            "timeout(seat) applies what the rules say of a seat whose time ran out.",
                        )
                        taken += 1
                    else:
                        expect(
                            error is not None and "clock is not running" in error,
                            f"{seat} is not to move ({game.to_move()}, window {game.window()}), yet its timeout "
                            "was taken",
                            "leave clock_running() and require_clock() as Game has them.",
                        )
                        expect(copy == game, "a refused timeout changed the game")
                        refused += 1
    expect(refused and taken, "random play met no timeout to take and none to refuse")


# --------------------------------------------------------------------------- keywords


def words_met(cls: type[Game], variant: str, options: Mapping[str, str], seed: int) -> dict[str, str]:
    """Word -> a legal move text it came from, over one seeded random game."""
    rng = random.Random(f"keywords:{cls.name}:{variant}:{sorted(options.items())}:{seed}")
    game = cls.new(seed=seed, variant=variant, **options)
    texts: set[str] = set()
    for _ in range(END_BOUND):
        if game.is_over:
            break
        if not game.to_move():
            game.close_window()
            continue
        moves = list(itertools.islice(game.legal_moves(), 2000))
        texts.update(move.text() for move in moves)
        game.play(rng.choice(moves))
    return {word: text for text in texts for word in notation_words(text)}


def check_keywords(
    cls: type[Game], variant: str, options: Mapping[str, str] | None = None, seeds: Iterable[int] = SEEDS
) -> None:
    """Every word of every legal move's text met in random games is one of the game's keywords
    (the bot tells a move attempt from table talk by them)."""
    met: dict[str, str] = {}
    for seed in seeds:
        with where(f"seed {seed}"):
            met |= words_met(cls, variant, dict(options or {}), seed)
    missing = {word: text for word, text in met.items() if word not in cls.keywords}
    expect(
        not missing,
        f"legal moves use words that are not keywords: {', '.join(f'{w!r} (in {t!r})' for w, t in missing.items())}",
        "add them to keywords: a mistyped move whose words are not keywords is taken for table talk and ignored.",
    )
