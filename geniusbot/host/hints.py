"""What the console's ``help`` and ``rules`` say: a move to try (legal now, and one that does
not lose at once when the game has such a move), the choice the game waits for, the commands,
and the rules of the game or of a game it plays within it (a task).

Nothing here holds rules: the moves are the game's own legal moves, tried on a copy of the game.
"""

from __future__ import annotations

import itertools
from typing import Any

COMMANDS = "status, rules, pause, resume, resign p1, abort, close window, export, help, quit"

HELP = f"Type a move as 'p1: H8' (or 'p2 (dm): ...' for a private one), or a command: {COMMANDS}."

OVER_HELP = (
    "The match is over; no more moves are taken. 'status' shows the result, 'export' prints the "
    "record, 'rules' the rules, and 'quit' leaves."
)

#: How many legal moves ``help`` picks from (a landmine phase has 1.7 million mine sets), and
#: how many of them it tries on a copy of the game before it offers one untried.
PICKED_FROM = 400
TRIED = 40


def example_move(game: Any) -> str | None:
    """A move legal now, as the console takes it (``p1: H8``, ``p1 (dm): create none``), or ``None``
    while nobody may move (a timed window runs, or the game is over)."""
    for seat in game.to_move():
        # A few hundred are enough to pick from: a landmine phase has 1.7 million mine sets.
        moves = list(itertools.islice(game.legal_moves(seat), 400))
        if moves:
            move = moves[len(moves) // 2]  # the middle one: H8 rather than A1 on an empty board
            return f"{seat}{' (dm)' if game.is_private(move) else ''}: {move.text()}"
    return None


def help_text(game: Any | None) -> str:
    """How to type a move in ``game``'s own notation (a move legal now), and the commands."""
    if game is None:
        return HELP
    example = example_move(game)
    if example is None:
        if game.is_over:
            return OVER_HELP
        how = "No move is taken right now" + ("; 'close window' ends the timed phase." if game.window() else ".")
        return f"{how} Moves are typed as 'p1: ...' ('p1 (dm): ...' for a private one). Commands: {COMMANDS}."
    return (
        f"Type a move as '{example}' (the seat, then the move; 'p1 (dm): ...' sends it privately), "
        f"or a command: {COMMANDS}. 'rules' shows the rules and the notation.{offered(game)}"
    )


def offered(game: Any) -> str:
    """The choice the game waits for, named as the room names it above its buttons (a few short
    options only, :func:`~geniusbot.host.offers.listing`): " p2 chooses one of: black / white.",
    " p1 (dm) chooses one of: use all-in / pass." for a sealed answer; else nothing."""
    from .offers import choice_offer, listing, private_choice_offers

    offers: list[tuple[str, list[str]]] = []
    if (offer := choice_offer(game)) is not None:
        offers.append(offer)
    offers += [(f"{seat} (dm)", texts) for seat, texts in private_choice_offers(game).items()]
    return "".join(f" {who} chooses one of: {listed}." for who, texts in offers if (listed := listing(texts)))


def rules_text(game: Any) -> str:
    """The game's rules summary for the terminal (its Markdown bold taken out)."""
    from .naming import game_title

    summary = type(game).summary.replace("**", "") or "This game has no rules summary yet."
    return f"{game_title(game)}: {summary}"
