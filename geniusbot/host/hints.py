"""What the console's ``help`` and ``rules`` say: a move to try (legal now, and, where the
player's view can tell, one that does not lose at once), the choice the game waits for, the
commands, and the rules of the game or of a game it plays within it (a task).

``help`` knows only what the player asking knows: the seat's own view and the public record,
never the hidden state. In a game of perfect information (``Game.perfect_information``) a move
is tried on a copy of the game; in a game with hidden tiles, cards or sealed moves that trial
would tell the player what they cannot know (which declaration is right), so a move is tried
instead on a few twins of the game that the seat cannot tell from it (``Game.twin``: the game's
``determinize`` hook, the one the practice opponent searches with, given the seat's view of now,
so what the view hides is drawn anew), and only a move that loses on every twin, whatever is
hidden, is passed over. A game that draws no twins gets a legal move offered with nothing said
of its safety.

Nothing here holds rules: the moves are the game's own legal moves, the seat's as its rules
let it know them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from geniusbot.words import Argument, Listing, Message, Verbatim, Words, say

COMMANDS = "status, board, rules, pause, resume, resign p1, abort, close window, export, help, quit"

HELP_SAID = say(
    "Type a move as 'p1: H8' (or 'p2 (dm): ...' for a private one), or a command: {commands}.",
    commands=Verbatim(COMMANDS),
)
HELP = Words()(HELP_SAID)  # its English

OVER_HELP_SAID = say(
    "The match is over; no more moves are taken. 'status' shows the result, 'board' the last board, "
    "'export' prints the record, 'rules' the rules, and 'quit' leaves."
)
OVER_HELP = OVER_HELP_SAID.text  # its English
#: What ``rules`` says of a game that has no summary.
NO_SUMMARY = say("This game has no rules summary yet.")

#: How many legal moves ``help`` picks from (a phase of secret placements may have millions), and
#: how many of them it tries on a copy of the game before it offers one untried.
PICKED_FROM = 400
TRIED = 100
#: How many twins of a game with hidden information a move is tried on.
TWINS = 8


def example_move(game: Any) -> str | None:
    """A move legal now, as the console takes it (``p1: H8``, ``p1 (dm): create none``), or ``None``
    while nobody may move (a timed window runs, or the game is over).

    The middle one of the first legal moves (H8 rather than A1 on an empty board), or the one
    nearest it that does not lose at once as far as the seat's view can tell (:func:`loser`).
    """
    for seat in game.to_move():
        moves = list(itertools.islice(game.legal_moves(seat), PICKED_FROM))
        if moves:
            middle = len(moves) // 2
            move = moves[middle]
            loses = loser(game, seat)
            if loses is not None:
                # From the middle outwards: middle, middle - 1, middle + 1, ...
                order = sorted(range(len(moves)), key=lambda i: (abs(i - middle), i))
                move = next((moves[i] for i in order[:TRIED] if not loses(moves[i])), move)
            return f"{seat}{' (dm)' if game.is_private(move) else ''}: {move.text()}"
    return None


def loser(game: Any, seat: str) -> Callable[[Any], bool] | None:
    """A test of whether a move of ``seat`` loses at once as far as the seat's view can tell, or
    ``None`` when the view cannot tell: on the game itself when every view shows all of it
    (``Game.perfect_information``), else on every one of :data:`TWINS` twins the seat cannot tell
    from it (``Game.twin``), which depend on nothing hidden."""
    if type(game).perfect_information:
        return lambda move: loses_at_once(game, move, seat)
    twins = [twin for seed in range(TWINS) if (twin := game.twin(seat, seed)) is not None]
    if not twins:
        return None
    return lambda move: all(loses_at_once(twin, move, seat) for twin in twins)


def loses_at_once(game: Any, move: Any, seat: str) -> bool:
    """Whether playing ``move`` (on a copy of ``game``) ends the game, or a game it plays within
    it (a task: an event that carries that game's outcome), with ``seat`` losing.

    It reads the whole state it is given: a hint asks it only of a game of perfect information
    or of a twin (:func:`loser`)."""
    from geniusbot.games import GameError

    trial = game.copy()
    try:
        events = trial.play(move)
    except GameError:
        return True  # not a move to offer after all
    outcomes = [trial.outcome()] if trial.outcome() is not None else []
    outcomes += [event.data for event in events if _is_outcome(event.data)]
    return any(_winner(outcome) not in (None, seat) for outcome in outcomes)


def _is_outcome(data: Any) -> bool:
    """Whether an event's data is an outcome (:meth:`~geniusbot.games.Outcome.to_dict`)."""
    return isinstance(data, dict) and "winner" in data and "termination" in data


def _winner(outcome: Any) -> str | None:
    return outcome.get("winner") if isinstance(outcome, dict) else outcome.winner


def _then(first: Message, *rest: Message) -> Message:
    """Whole sentences, one after another."""
    if not rest:
        return first
    return say("{first} {then}", first=first, then=_then(*rest))


def help_said(game: Any | None) -> Message:
    """How to type a move in ``game``'s own notation (a move legal now), and the commands; how
    to send a private move only where one is legal (now, or in a game that takes them while no
    move is)."""
    if game is None:
        return HELP_SAID
    commands = Verbatim(COMMANDS)
    example = example_move(game)
    if example is None:
        if game.is_over:
            return OVER_HELP_SAID
        how = (
            say("No move is taken right now; 'close window' ends the timed phase.")
            if game.window()
            else say("No move is taken right now.")
        )
        typed = (
            say(
                "Moves are typed as 'p1: ...' ('p1 (dm): ...' for a private one). Commands: {commands}.",
                commands=commands,
            )
            if type(game).takes_private_moves()
            else say("Moves are typed as 'p1: ...'. Commands: {commands}.", commands=commands)
        )
        return _then(how, typed)
    seat = example.split(":", 1)[0].split()[0]
    if private_move_legal(game):
        how = say(
            "Type a move as '{example}' (the seat, then the move; '{seat} (dm): ...' sends it privately), "
            "or a command: {commands}. 'rules' shows the rules and the notation.",
            example=Verbatim(example),
            seat=Verbatim(seat),
            commands=commands,
        )
    else:
        how = say(
            "Type a move as '{example}' (the seat, then the move), "
            "or a command: {commands}. 'rules' shows the rules and the notation.",
            example=Verbatim(example),
            commands=commands,
        )
    return _then(how, *offered_said(game))


def private_move_legal(game: Any) -> bool:
    """Whether a seat to move may send a private move now (among the first legal moves)."""
    return any(
        game.is_private(move)
        for seat in game.to_move()
        for move in itertools.islice(game.legal_moves(seat), PICKED_FROM)
    )


def offered(game: Any) -> str:
    """:func:`offered_said` in English, each after a space: " p2 chooses one of: black / white."."""
    return "".join(" " + Words()(said) for said in offered_said(game))


def offered_said(game: Any) -> list[Message]:
    """The choice the game waits for, named as the room names it above its buttons (a few short
    options only, :func:`~geniusbot.host.offers.listing`): "p2 chooses one of: black / white.",
    "p1 (dm) chooses one of: yes / no." for a sealed answer; else nothing."""
    from .offers import choice_offer, listing, private_choice_offers

    offers: list[tuple[str, list[str]]] = []
    if (offer := choice_offer(game)) is not None:
        offers.append(offer)
    offers += [(f"{seat} (dm)", texts) for seat, texts in private_choice_offers(game).items()]
    return [
        say("{who} chooses one of: {options}.", who=Verbatim(who), options=Verbatim(listed))
        for who, texts in offers
        if (listed := listing(texts))
    ]


def _summary(title: str, summary: Message | str) -> Message:
    """A game's title and its rules summary (the game's own words: a message, or plain English;
    a terminal shows its Markdown plain)."""
    said: Argument = NO_SUMMARY
    if isinstance(summary, Message) and summary.text:
        said = summary
    elif isinstance(summary, str) and summary:
        said = Verbatim(summary)
    return say("{title}: {summary}", title=Verbatim(title), summary=said)


def rules_said(game: Any) -> Message:
    """The game's rules summary for the terminal (its Markdown bold taken out)."""
    from .naming import game_title

    return _summary(game_title(game), type(game).summary)


def rules_of_said(name: str) -> Message:
    """``rules NAME``: the rules summary of the named game, such as a game the running game plays
    within it (a task), or a sentence naming the games there are."""
    from geniusbot.games import GameError, default_variant, get_game, registry

    try:
        cls = get_game(name)
    except GameError:
        return say(
            "There is no game {name}; 'rules' alone gives this match's rules. Games: {games}.",
            name=Verbatim(repr(name)),
            games=Listing(tuple(Verbatim(game) for game in registry())),
        )
    variant = default_variant(name) or cls.variants[0]
    title = f"{cls.title} ({variant})" if len(cls.variants) > 1 else cls.title
    return _summary(title, cls.summary)
