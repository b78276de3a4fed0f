"""Every game's text board in the pseudo-language, through the host (the room's boards and each
seat's, pictures off) and the console (``geniusbot play --language qps``): nothing outside a
message's brackets but drawing lines. A drawing line is a game's ``str`` line: no word of two
ASCII letters or more, no seat id (``geniusbot.conformance.texts.drawing_fault``); a seat in a
sentence is a ``Seat``, named by the renderer."""

from __future__ import annotations

import io
import itertools
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from geniusbot.conformance.texts import check_text_boards, drawing_fault
from geniusbot.console import run_console
from geniusbot.games import Game, new_game, registry
from geniusbot.host.board import text_board
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport, TextBoard
from geniusbot.storage import Store
from geniusbot.words import PSEUDO, Message, Seat, Words, say, unsaid
from tests.manualtime import ManualTime

GAMES = sorted(registry())


@dataclass
class BoardsTransport(RecordingTransport):
    """A recording transport that keeps each text board's board apart too."""

    boards: list[str] = field(default_factory=list)

    async def post_board(self, room: int | None, board: TextBoard) -> int:
        self.boards.append(board.board)
        return await super().post_board(room, board)

    async def send_private_board(self, player: Player, board: TextBoard) -> int | None:
        self.boards.append(board.board)
        return await super().send_private_board(player, board)


def outside(text: str, seats: tuple[str, ...] = ("p1", "p2")) -> list[str]:
    """The lines of ``text`` (said in the pseudo-language) with a word or a seat id outside the
    brackets, each with what it has there."""
    return [f"{line!r}: {fault}" for line in text.splitlines() if (fault := drawing_fault(unsaid(line), seats))]


@pytest.mark.parametrize("name", GAMES)
async def test_every_games_text_boards_through_the_host_are_messages_and_drawings(store: Store, name: str):
    transport = BoardsTransport()
    host = Host(store, transport, pictures=False, language=PSEUDO, heartbeat=0)
    players = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]
    started = await host.start_match(name, players=players, seed=5, clock="none")
    assert started.ok and started.match_id is not None, started.message
    rng = random.Random(name)
    for _ in range(30):
        live = host.matches.get(started.match_id)
        if live is None or live.game.is_over:
            break
        game = live.game
        if game.window() is not None and not game.to_move():
            await host.command(started.match_id, "close window")
            continue
        seat = rng.choice(game.to_move())
        move = rng.choice(list(itertools.islice(game.legal_moves(seat), 200)))
        assert (await host.submit(started.match_id, seat, move.text(), private=game.is_private(move))).ok
    assert len(transport.boards) > 1
    for board in transport.boards:
        assert not outside(board), board
    # The players are named in the boards' sentences (their seats are messages' Seats).
    assert any("alice" in board or "bob" in board for board in transport.boards)


def moves_of(name: str, seed: int, count: int) -> list[str]:
    """The console's lines of ``count`` legal moves of a game of ``name`` from ``seed``
    ("p1: H8", "p2 (dm): play 3"), stopping at a window nobody moves in."""
    game: Game = new_game(name, seed=seed)
    rng = random.Random(name)
    lines = []
    for _ in range(count):
        if game.is_over or not game.to_move():
            break
        seat = rng.choice(game.to_move())
        move = rng.choice(list(itertools.islice(game.legal_moves(seat), 200)))
        lines.append(f"{seat}{' (dm)' if game.is_private(move) else ''}: {move.text()}")
        game.play(move)
    return lines


@pytest.mark.parametrize("name", GAMES)
async def test_every_games_text_boards_at_the_console_are_messages_and_drawings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
):
    from geniusbot.console.transport import ConsoleTransport

    boards: list[str] = []
    posted, sent = ConsoleTransport.post_board, ConsoleTransport.send_private_board

    async def post_board(self: ConsoleTransport, room: int | None, board: TextBoard, *, key: str | None = None) -> int:
        boards.append(board.board)
        return await posted(self, room, board, key=key)

    async def send_private_board(self: ConsoleTransport, player: Player, board: TextBoard) -> int:
        boards.append(board.board)
        return await sent(self, player, board)

    monkeypatch.setattr(ConsoleTransport, "post_board", post_board)
    monkeypatch.setattr(ConsoleTransport, "send_private_board", send_private_board)
    out = io.StringIO()
    lines = [*moves_of(name, 2, 12), "board", "quit"]
    code = await run_console(
        name,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        out=out,
        seed=2,
        clock="none",
        time_source=ManualTime(datetime(2027, 1, 1, tzinfo=UTC)),
        language=PSEUDO,
    )
    assert code == 0 and boards
    for board in boards:
        assert board in out.getvalue()  # printed as the host said it
        assert not outside(board), board


# ---- the rule, and the check that holds a game to it ---------------------------------------------


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        ("    A   B   C   D   E", None),
        (" 5  O---b   .   .   .", None),
        ("7 R  B  *  ?! G", None),
        ("10 [9] 8 7 6 5 4", None),
        ("o o o o o", None),
        ("Score: 3", "the word 'Score'"),
        ("won    p2", "the word 'won'"),
        ("p1 3, p2 0", "the seat id 'p1'"),
        ("X p2's", "the seat id 'p2'"),
        ("P1 p10 p1x", None),  # a coordinate and other words of a letter and digits are no seat ids
    ],
)
def test_a_drawing_line_has_no_word_and_no_seat_id(line: str, fault: str | None):
    assert drawing_fault(line) == fault


@pytest.mark.parametrize(
    ("lines", "fault"),
    [
        (["Stones: 3; p1 to take."], "the word 'Stones'"),
        (["3 ; p1"], "the seat id 'p1'"),
        ([say("Stones: {n}; {seat} to take.", n=3, seat=Seat("p1")), "o o o"], None),
    ],
)
def test_the_conformance_check_holds_a_text_board_to_drawing_lines_and_messages(monkeypatch, lines, fault):
    from geniusbot.conformance import texts
    from geniusbot.conformance.failures import CheckFailed
    from geniusbot.games.tictacfive.rules import TicTacFive

    monkeypatch.setattr(texts, "positions", lambda cls, variant, seed, what, steps=80: iter([cls.new(seed=seed)]))
    monkeypatch.setattr(TicTacFive, "text_board", classmethod(lambda cls, view: list(lines)))
    if fault is None:
        check_text_boards(TicTacFive)
    else:
        with pytest.raises(CheckFailed, match=fault):
            check_text_boards(TicTacFive)


def test_the_host_names_a_text_boards_seats_by_the_renderer_and_keeps_drawings_as_they_are():
    game = new_game("tightwire", seed=0)
    view = game.view(None)
    english = text_board(view)
    named = text_board(view, words=Words(names={"p1": "p2", "p2": "bob"}))
    lines = game.text_board(view)
    assert lines is not None
    drawings = [line for line in lines if isinstance(line, str)]
    assert drawings and all(line in english.splitlines() and line in named.splitlines() for line in drawings)
    assert all(isinstance(line, str | Message) for line in lines)
    # A name that reads as the other seat's id: every seat in the label form, said by the renderer.
    assert "p2 (p1)" in named and "bob (p2)" in named
