"""The picture and the text board of Black and White: drawn from the view alone, so the room's
never shows a number while the game runs, and a seat's own shows its tiles."""

from __future__ import annotations

import io

from blackwhite import BlackAndWhite
from blackwhite.picture import HEIGHT, WIDTH
from PIL import Image

from geniusbot.pictures import has_renderer, render_image, render_view
from geniusbot.words import Message, Words

PNG = b"\x89PNG\r\n\x1a\n"


def said(lines: list[str | Message] | None) -> list[str]:
    """A text board's lines as English says them (a drawing line as it is)."""
    assert lines is not None
    return [Words()(line) if isinstance(line, Message) else line for line in lines]


def played(*pairs: tuple[int, int], sealed: int | None = None) -> BlackAndWhite:
    g = BlackAndWhite.new(seed=0)
    for p1, p2 in pairs:
        g.submit(f"play {p1}", "p1", private=True)
        g.submit(f"play {p2}", "p2", private=True)
    if sealed is not None:
        g.submit(f"play {sealed}", "p1", private=True)
    return g


def test_the_game_has_a_picture_and_it_is_a_png_card():
    assert has_renderer("blackwhite")
    data = render_view(played((3, 6)).view(), players={"p1": "Ann", "p2": "Ben"}, clocks={"p1": "0:30 +2:00"})
    assert data.startswith(PNG)
    assert Image.open(io.BytesIO(data)).size == (WIDTH, HEIGHT)


def test_the_same_view_draws_the_same_bytes():
    view = played((3, 6), (8, 0), sealed=2).view()
    assert render_view(view, title="Match 1") == render_view(view, title="Match 1")


def test_the_rooms_picture_shows_no_number_while_the_game_runs():
    # Other tiles of the same colours and winners, another sealed tile: the same picture.
    a = played((3, 6), (8, 0), sealed=2).view()
    b = played((1, 6), (6, 0), sealed=4).view()
    assert render_image(a).tobytes() == render_image(b).tobytes()


def test_a_seats_own_picture_shows_its_tiles():
    a = played((3, 6), (8, 0), sealed=2).view("p1")
    b = played((1, 6), (6, 0), sealed=4).view("p1")
    assert render_image(a).tobytes() != render_image(b).tobytes()


def test_the_finished_game_draws_every_tile_and_the_result():
    g = played((8, 7), (7, 6), (6, 5), (5, 4), (4, 3))
    assert g.is_over
    assert render_view(g.view(), players={"p1": "Ann", "p2": "Ben"}).startswith(PNG)


def test_the_text_board_reads_colours_for_the_room_and_numbers_for_the_seat():
    g = played((3, 6), sealed=2)
    room = said(BlackAndWhite.text_board(g.view()))
    assert room == [
        "Round 2 of 9. Score: p1 0, p2 1.",
        "round   1  2  3  4  5  6  7  8  9",
        "p1      W  ?  .  .  .  .  .  .  .",
        "p2      B  .  .  .  .  .  .  .  .",
        "won    p2",
        "Tiles left: p1 5 black, 3 white; p2 4 black, 4 white.",
    ]
    own = said(BlackAndWhite.text_board(g.view("p1")))
    assert own is not None
    assert own[2] == "p1      W3  ?2   .   .   .   .   .   .   ."
    assert own[-1] == "Your tiles: 0 1 4 5 6 7 8; sealed this round: 2."


def test_the_finished_text_board_shows_every_tile():
    g = played((8, 7), (7, 6), (6, 5), (5, 4), (4, 3))
    assert said(BlackAndWhite.text_board(g.view())) == [
        "After 5 rounds. Score: p1 5, p2 0.",
        "round    1   2   3   4   5   6   7   8   9",
        "p1      B8  W7  B6  W5  B4   .   .   .   .",
        "p2      W7  B6  W5  B4  W3   .   .   .   .",
        "won     p1  p1  p1  p1  p1",
    ]
