"""A text board reaches the transport as data (:class:`~geniusbot.host.transport.TextBoard`: the
board, the sentence above it, the lines below it), and Discord puts the board, all of it and it
alone, in a code block: no guess from the text's look. A board line that reads as prose is in the
block; a sentence laid out like a board, posted as text, is not."""

from __future__ import annotations

from geniusbot.host import board
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport, TextBoard
from geniusbot.storage import Store
from tests.e2e.botworld import World
from tests.host.support import FakeTime


class Boards(RecordingTransport):
    """A recording transport that keeps the text boards it was given, as given."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[TextBoard] = []
        self.private_boards: list[tuple[str, TextBoard]] = []

    async def post_board(self, room: int | None, board: TextBoard) -> int:
        self.boards.append(board)
        return await super().post_board(room, board)

    async def send_private_board(self, player: Player, board: TextBoard) -> int | None:
        self.private_boards.append((player.seat, board))
        return await super().send_private_board(player, board)


async def test_the_host_gives_a_text_board_as_data(sqlite_db_url: str) -> None:
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        transport = Boards()
        host = Host(store, transport, now=FakeTime(), pictures=False)
        players = [Player("p1", 11, "alice"), Player("p2", 22, "bob")]
        reply = await host.start_match("tictacfive", players=players, seed=5, channel_id=700)
        assert reply.ok and reply.match_id is not None
        [given] = transport.boards
        live = await host.load(reply.match_id)
        assert live is not None
        said = host.announcer.words(live)  # the host's language, the players' names
        assert given.board == board.text_board(host.views(live).public, clocks=host.clocks(live, 0.0), words=said)
        assert given.above == "" and given.below.startswith("To move: alice (p1)")
        # What a transport that shows text as it is prints: the same text as before, a line each.
        assert transport.room_texts()[-1] == f"{given.board}\n{given.below}"

        # A seat's own view (a game that hides things: the example plug-in's) is a text board too.
        reply = await host.start_match("blackwhite", players=players, seed=1, channel_id=701)
        assert reply.ok, reply.message
        seats = {seat for seat, _ in transport.private_boards}
        assert seats == {"p1", "p2"}
        for seat, private in transport.private_boards:
            assert private.above == f"Your view of match #{reply.match_id}:" and private.board
            assert f"{private.above}\n{private.board}" in transport.private_texts(seat)
    finally:
        await store.close()


async def test_discord_puts_the_board_alone_in_a_code_block(world: World) -> None:
    fake = world.fake
    # A board whose line reads as prose, between a sentence and a line below it.
    given = TextBoard("   A B\n 2 . .\nalice holds the centre\n 1 x .", above="Match #1:", below="To move: alice.")
    # A sentence laid out as a board would be: it is a sentence, said as it is.
    looks_like_a_board = "Scores:\n  12 alice\n   9 bob"
    async with world.running() as bot:
        await bot.transport.post_board(world.room.id, given)
        await bot.transport.post(world.room.id, looks_like_a_board)
        await bot.transport.send_private_board(Player("p1", world.alice.id, "alice"), given)
        posted = [m.content for m in fake.messages(world.room)]
        [dm] = [m.content for m in fake.messages(fake.dm_channel(world.alice))]
    fenced = "Match #1:\n```\n   A B\n 2 . .\nalice holds the centre\n 1 x .\n```\nTo move: alice."
    assert posted == [fenced, looks_like_a_board]
    assert dm == fenced
