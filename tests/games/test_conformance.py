"""Conformance, OpenSpiel-style: every registered game, every rule set, random games to the end.

Each game is played by seeded random choice from ``legal_moves()`` (half the moves go through
``parse_move(move.text())`` as a player would type them) to its end or a cap, and at every step
the invariants of the rules API are checked. The written record of each game then replays
through the adjudicator to the same state. Every event a playout gives (moves, closed windows,
timeouts, resignations) has a kind that is data: a member of ``EventKind`` or of a ``StrEnum`` of
the game's own package.
"""

from __future__ import annotations

import enum
import itertools
import json
import random
import re
import string
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from geniusbot.adjudicate import adjudicate
from geniusbot.games import (
    ENTRY_POINT_GROUP,
    SEATS,
    Event,
    EventKind,
    Game,
    GameError,
    NotYourTurnError,
    load,
    registry,
)
from geniusbot.storage.record import format_record, parse_record, record_from_game

BASE_VIEW_KEYS = {"game", "variant", "to_move", "outcome", "last_move"}
MOVE_CAP = 250
# Some phases have millions of legal moves (Tile Decklaration's five landmines: C(48, 5) per seat,
# which All Hands On Deck reaches); a random move is drawn from the first ones.
LEGAL_CAP = 5000
SEEDS = (1, 2, 3)

CASES = [
    pytest.param(name, variant, id=f"{name}-{variant}") for name, cls in registry().items() for variant in cls.variants
]


def test_the_cases_are_every_registered_game_and_rule_set_a_plug_in_too():
    # Built-in or installed from outside (examples/blackwhite), every game of the entry points is held
    # to the same contract: the cases come from the registry, never from a list of names.
    assert {param.values for param in CASES} == {(n, v) for n, cls in registry().items() for v in cls.variants}
    outside = {e.name for e in entry_points(group=ENTRY_POINT_GROUP) if e.dist is None or e.dist.name != "geniusbot"}
    assert outside <= set(registry())


def json_round_trip(data):
    return json.loads(json.dumps(data))


def garbled(rng: random.Random, texts: list[str]) -> str:
    """Text a player might type: a legal text bent out of shape, or noise."""
    choice = rng.randrange(6)
    if choice == 0 or not texts:
        alphabet = string.ascii_letters + string.digits + " -:;,.!?#{}\"'\\\t" + "éß漢😀"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 14)))
    text = rng.choice(texts)
    if choice == 1:
        return text.upper() if rng.random() < 0.5 else f"  {text.lower()}  "
    if choice == 2:
        return text[: rng.randrange(len(text) + 1)]
    if choice == 3:
        return text + rng.choice(["0", "9", "99", " x", "-", " and move", " and"])
    if choice == 4:
        cut = rng.randrange(len(text) + 1)
        return text[:cut] + rng.choice(string.printable) + text[cut:]
    return " ".join(reversed(text.split()))


def check_invariants(game: Game) -> None:
    # Only the seats to move have legal moves; a running game always lets someone act.
    movers = game.to_move()
    assert set(movers) <= set(SEATS)
    for seat in SEATS:
        if seat not in movers:
            assert list(game.legal_moves(seat)) == [], f"{seat} has moves but is not to move"
    if game.is_over:
        assert movers == ()
    elif game.window() is None:
        assert movers, "a running game with no timed window names nobody to move"
        assert any(True for _ in game.legal_moves()), "the seats to move have no legal move"
    # Serialisation: plain JSON data that rebuilds an equal game.
    data = game.to_dict()
    assert json_round_trip(data) == data
    assert load(data) == game
    assert load(json_round_trip(data)) == game
    # Views: JSON-ready, with the base keys, for the room and for each seat.
    for seat in (None, *SEATS):
        view = game.view(seat)
        assert set(view) >= BASE_VIEW_KEYS
        assert json_round_trip(view) == view
        assert view["game"] == game.name and view["to_move"] == list(movers)


def check_garbage_is_refused_cleanly(game: Game, rng: random.Random, texts: list[str]) -> None:
    before = game.to_dict()
    for _ in range(6):
        text = garbled(rng, texts)
        seat = rng.choice(SEATS)
        try:
            move = game.parse_move(text, seat, private=rng.random() < 0.3)
        except GameError:
            continue
        assert move.seat == seat and game.is_legal(move)
    assert game.to_dict() == before, "parse_move changed the state"


def play_random_game(cls: type[Game], variant: str, seed: int):
    rng = random.Random(f"conformance:{cls.name}:{variant}:{seed}")
    game = cls.new(seed=seed, variant=variant)
    start = game.copy()
    lines: list[tuple[str, str, bool]] = []
    texts: list[str] = []
    for step in range(MOVE_CAP):
        check_invariants(game)
        if game.is_over:
            break
        if not game.to_move():
            assert game.window() is not None
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
            assert ended.outcome() is not None and ended.outcome().winner != loser
            assert ended.to_move() == () and load(ended.to_dict()) == ended
        move = rng.choice(moves)
        private = game.is_private(move)
        assert move.seat in game.to_move()
        if rng.random() < 0.5:
            typed = game.parse_move(move.text(), move.seat, private=private)
            assert typed == move, f"{move.text()!r} reads back as {typed!r}"
        game.play(move)
        lines.append((move.seat, move.text(), private))
    return start, game, lines, texts


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant"), CASES)
def test_random_games_keep_every_invariant_and_replay_from_their_record(name, variant):
    cls = registry()[name]
    for seed in SEEDS:
        start, game, lines, texts = play_random_game(cls, variant, seed)
        if game.is_over:
            # A finished game has no legal moves and refuses every submission as out of turn.
            assert list(game.legal_moves()) == []
            for seat in SEATS:
                assert list(game.legal_moves(seat)) == []
                for text in [*texts[:5], lines[-1][1] if lines else "x", "", "resign"]:
                    with pytest.raises(NotYourTurnError):
                        game.parse_move(text, seat)
        # The record of the game replays through the adjudicator to the same state.
        record = record_from_game(start, lines)
        result = adjudicate(parse_record(format_record(record)))
        refused = [(a.line, a.text, a.error) for a in result.actions if not a.accepted]
        assert refused == []
        assert result.game == game
        assert result.game.name == name


def check_event_kinds(cls: type[Game], events: list[Event]) -> None:
    # A kind is data, never a free string: a member of EventKind or of a StrEnum that the game's own
    # package declares (a plug-in's package too), so a program reads it by name and a typo fails.
    package = sys.modules[cls.__module__].__package__ or cls.__module__
    for event in events:
        kind = event.kind
        assert isinstance(kind, enum.Enum) and isinstance(kind, enum.StrEnum), (
            f"{cls.name}: the kind {kind!r} of {event.text!r} is a free string, not a StrEnum member"
        )
        owner = type(kind)
        assert owner is EventKind or owner.__module__ == package or owner.__module__.startswith(f"{package}."), (
            f"{cls.name}: the kind {kind!r} is of {owner.__module__}.{owner.__qualname__}, outside {package}"
        )


def playout_events(cls: type[Game], variant: str, seed: int) -> list[Event]:
    """Every event of a seeded random game to its end or the cap: its opening, its moves and closed
    windows, and on copies along the way each mover's timeout and a resignation."""
    rng = random.Random(f"kinds:{cls.name}:{variant}:{seed}")
    game = cls.new(seed=seed, variant=variant)
    events = list(game.opening_events())
    for step in range(MOVE_CAP):
        if game.is_over:
            break
        if not game.to_move():
            events += game.close_window()
            continue
        if step % 5 == 0:
            for seat in game.to_move():
                events += game.copy().timeout(seat)
            events += game.copy().resign(rng.choice(SEATS))
        events += game.play(rng.choice(list(itertools.islice(game.legal_moves(), LEGAL_CAP))))
    return events


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_every_event_kind_is_a_member_of_event_kind_or_of_the_games_own_enum(name, variant):
    cls = registry()[name]
    for seed in SEEDS:
        events = playout_events(cls, variant, seed)
        assert events, "a playout gives events"
        check_event_kinds(cls, events)


#: An event given its kind as a string literal, or a kind compared with one (``kind=EventKind.X`` and
#: ``e.kind == Kind.X`` pass; a local ``kind = "draw"`` that names a move's action is no event kind).
LITERAL_KIND = re.compile(r"""\bkind=["']|\.kind\s*(?:==|!=|not in|in)\s*[("']""")


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_event_kind_in_a_games_package_is_a_string_literal(name):
    # The playouts cannot reach every branch (an item a random game never holds); the source can be read.
    package = Path(sys.modules[registry()[name].__module__].__file__ or "").parent
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LITERAL_KIND.search(line)
    ]
    assert not found, "\n".join(found)


class ForeignKind(enum.StrEnum):
    MOVE = "move"


class PlainKind(enum.Enum):
    MOVE = "move"


@pytest.mark.parametrize("kind", ["move", ForeignKind.MOVE, PlainKind.MOVE])
def test_a_free_string_or_a_kind_from_outside_the_games_package_fails_the_kind_check(kind):
    # The check itself: a plain string, another package's member or a member of no StrEnum fails.
    cls = next(iter(registry().values()))
    check_event_kinds(cls, [Event("said", kind=EventKind.INFO)])
    with pytest.raises(AssertionError):
        check_event_kinds(cls, [Event("said", kind=kind)])


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_a_new_game_needs_no_options_and_is_deterministic_per_seed(name, variant):
    cls = registry()[name]
    assert cls.new(seed=7, variant=variant) == cls.new(seed=7, variant=variant)
    assert cls.name == name and cls.title and variant in cls.variants
    for option, help_text in cls.options.items():
        assert option == option.lower() and " " not in option and help_text


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_timeouts_end_or_advance_the_game_consistently(name, variant):
    cls = registry()[name]
    game = cls.new(seed=3, variant=variant)
    for seat in game.to_move() or SEATS:
        copy = game.copy()
        events = copy.timeout(seat)
        assert isinstance(events, list)
        check_event_kinds(cls, events)
        check_invariants(copy)


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_any_option_text_makes_a_game_or_an_option_error(name, variant):
    cls = registry()[name]
    rng = random.Random(f"options:{name}:{variant}")
    for option in cls.options:
        for _ in range(25):
            text = garbled(rng, [cls.options[option], "red C3 F6; blue F3 C6", "p1", "blue", "classic5"])
            try:
                game = cls.new(seed=rng.randrange(1000), variant=variant, **{option: text})
            except GameError:
                continue
            check_invariants(game)
    for text in ("", "no such rule set", variant.upper(), f" {variant} "):
        try:
            cls.new(variant=text)
        except GameError:
            pass
