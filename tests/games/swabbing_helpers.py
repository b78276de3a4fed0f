"""Shared helpers for the Deck Swabbing tests: boards drawn as the players would see them."""

from __future__ import annotations

from geniusbot.games.allhands.swabbing import BLACK, SQUARES, WHITE, DeckSwabbing
from geniusbot.games.grid import Point

CELLS = {".": WHITE, "#": BLACK, "X": "p1", "O": "p2"}


def parse_board(text: str) -> dict[Point, str]:
    """A board written as rows 7 to 1: ``.`` white, ``#`` black, ``X`` p1's colour, ``O`` p2's."""
    board: dict[Point, str] = {}
    for line in text.strip().splitlines():
        row_label, *cells = line.split()
        assert len(cells) == 7, line
        for col, cell in enumerate(cells):
            board[Point(col, int(row_label) - 1)] = CELLS[cell]
    assert set(board) == set(SQUARES)
    return board


def parse_numbers(text: str) -> dict[Point, int]:
    """Unique's numbers written as rows 7 to 1, one digit a square."""
    numbers: dict[Point, int] = {}
    for line in text.strip().splitlines():
        row_label, *cells = line.split()
        assert len(cells) == 7, line
        for col, cell in enumerate(cells):
            numbers[Point(col, int(row_label) - 1)] = int(cell)
    assert set(numbers) == set(SQUARES)
    return numbers


def pt(text: str) -> Point:
    return Point(ord(text[0].upper()) - 65, int(text[1:]) - 1)


def make(
    board: str | None = None, *, numbers: str | None = None, recent: str | None = None, seed: int = 7, **options: str
) -> DeckSwabbing:
    """A game with ``options`` on ``board`` (default all white); ``recent`` sets the tiles placed
    last turn (Hook), ``numbers`` Unique's numbers."""
    game = DeckSwabbing.new(seed=seed, **options)
    if board is not None:
        game.board = parse_board(board)
    if numbers is not None:
        game.numbers = parse_numbers(numbers)
    if recent is not None:
        game.recent = [pt(s) for s in recent.split()]
    return game


def play(game: DeckSwabbing, *moves: str) -> list:
    """Play moves in turn, each by the seat to move (with Snipe: by direct message, and the
    sniper answers ``snipe none`` first unless the move is itself a snipe)."""
    events = []
    for text in moves:
        if text.startswith("snipe"):
            events += game.submit(text, game.sniper, private=True)[1]
            continue
        private = game.has("snipe")
        events += game.submit(text, game.turn, private=private)[1]
        if private and game.sealed.has_sealed(game.turn):
            events += game.submit("snipe none", game.sniper, private=True)[1]
    return events


def colours(game: DeckSwabbing, state: str) -> list[str]:
    """The squares of ``state`` (``white``, ``black``, ``p1``, ``p2``), sorted by column then row."""
    return [str(p) for p in sorted(game.board, key=lambda p: (p.col, p.row)) if game.board[p] == state]
