"""Shared drawing: names in outcome lines, fitting text, the header and the footer."""

from __future__ import annotations

import random

from geniusbot.games import Game, Outcome, Termination, new_game
from geniusbot.games.allhands import picture_swabbing as swabbing
from geniusbot.pictures import render_view
from geniusbot.render.layout import (
    FOOTER_HEIGHT,
    NAME_SIZE,
    STATUS_SIZE,
    banner_lines,
    card_words,
    draw_footer,
    outcome_line,
    seat_name,
    stored_english_with_names,
)
from geniusbot.render.palette import new_canvas, rgb
from geniusbot.render.text import fit_text, text_width
from geniusbot.words import Seat, say

from .support import colour_bbox, decode


def played_to_the_end(name: str, seed: int) -> Game:
    """A real game of ``name`` played by random legal moves until it is over."""
    game = new_game(name, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        for seat in game.to_move():
            game.play(rng.choice(list(game.legal_moves(seat))))
    return game


def test_outcome_line_names_the_winner_once():
    outcome = Outcome("p2", Termination.LINE, "p2 made four in a row", "; p2 wins")
    assert outcome_line(outcome, {"p1": "Ann", "p2": "Ben"}) == "Ben made four in a row; Ben wins"


def test_outcome_line_takes_a_reason_that_already_says_who_won():
    outcome = Outcome("p2", Termination.LINE, "p2 (white) makes five in a row, A4 to E8", ", and wins")
    assert outcome_line(outcome, {"p2": "Ben"}) == "Ben (white) makes five in a row, A4 to E8, and wins"


def test_outcome_line_adds_the_winner_when_the_reason_does_not_say():
    outcome = Outcome.from_dict({"winner": "p1", "reason": "p2 ran out of time."})  # saved before outcomes were data
    assert outcome_line(outcome, {"p1": "Ann", "p2": "Ben"}) == "Ann wins: Ben ran out of time"
    outcome = Outcome("p1", Termination.NO_LEGAL_ACTION, "p2 has no legal action and loses")
    assert outcome_line(outcome, {"p1": "Ann", "p2": "Ben"}) == "Ann wins: Ben has no legal action and loses"


def test_outcome_line_reads_the_verdict_not_the_words():
    # The verdict says who wins; a name that happens to be a word of the sentence changes nothing.
    timed_out = Outcome("p1", Termination.TIME, "p2 ran out of time", "; p1 wins")
    assert outcome_line(timed_out, {"p1": "Ann", "p2": "Ben"}) == "Ben ran out of time; Ann wins"
    assert outcome_line(timed_out, {"p1": "out", "p2": "Ben"}) == "Ben ran out of time; out wins"
    loses = Outcome("p1", Termination.CAPTURE, "Blue (p2) has no piece left and loses")
    assert outcome_line(loses, {"p1": "Blue", "p2": "wins"}) == "Blue wins: Blue (wins) has no piece left and loses"


def test_outcome_line_of_a_game_whose_endings_name_the_winner():
    outcome = Outcome("p2", Termination.POINTS, "p2 wins the task, 12 to 9")
    assert outcome_line(outcome, {"p2": "Ben"}, how_names_winner=True) == "Ben wins the task, 12 to 9"
    assert outcome_line(outcome, {"p2": "Ben"}) == "Ben wins: Ben wins the task, 12 to 9"


def test_an_outcome_of_messages_is_said_with_the_cards_names_and_never_renamed_by_its_words():
    timed_out = Outcome.of(
        "p1", Termination.TIME, say("{seat} ran out of time", seat=Seat("p2")), say("; {seat} wins", seat=Seat("p1"))
    )
    assert outcome_line(timed_out, {"p1": "Ann", "p2": "Ben"}) == "Ben ran out of time; Ann wins"
    assert outcome_line(timed_out, {"p1": "p2", "p2": "Ben"}) == "Ben (p2) ran out of time; p2 (p1) wins"
    # Two players of one name: the banner says whose seat, as the room does.
    assert outcome_line(timed_out, {"p1": "Ann", "p2": "Ann"}) == "Ann (p2) ran out of time; Ann (p1) wins"
    assert outcome_line(timed_out, None) == "Player 2 ran out of time; Player 1 wins"
    resigned = Outcome.of("p2", Termination.RESIGNATION, say("{seat} resigned", seat=Seat("p1")), None)
    assert outcome_line(resigned, {"p1": "Ann", "p2": "Ben"}) == "Ben wins: Ann resigned"


def test_outcome_line_of_a_draw_and_of_a_running_game():
    assert (
        outcome_line(Outcome.from_dict({"winner": None, "reason": "The board is full."}), None)
        == "Draw: The board is full"
    )
    assert outcome_line(None, None) is None


def test_seat_names_default_to_player_numbers():
    assert seat_name("p1", None) == "Player 1"
    assert seat_name("p2", {"p1": "Ann"}) == "Player 2"
    assert seat_name("p2", {"p2": "Ben"}) == "Ben"


def test_seat_ids_inside_words_of_a_stored_english_outcome_are_left_alone():
    words = card_words(players={"p1": "Ann", "p2": "Ben"})
    assert stored_english_with_names("p1 beat p2 at step1p2", words) == "Ann beat Ben at step1p2"


def test_fit_text_cuts_long_text_with_an_ellipsis():
    long = "An extremely long display name that cannot possibly fit"
    cut = fit_text(long, 30, 200)
    assert cut.endswith("…") and len(cut) < len(long)
    assert text_width(cut, 30) <= 200
    assert fit_text("Ann", 30, 200) == "Ann"


def test_footer_banner_colours_win_and_draw_apart():
    win = new_canvas((400, 200))
    draw_footer(win, "", "Ann wins")
    draw = new_canvas((400, 200))
    draw_footer(draw, "", "Draw: the board is full")
    running = new_canvas((400, 200))
    draw_footer(running, "Ann to play", None)
    corner = (2, 198)
    assert win.convert("RGB").getpixel(corner) == rgb("accent")
    assert draw.convert("RGB").getpixel(corner) == rgb("draw_banner")
    assert running.convert("RGB").getpixel(corner) == rgb("page")


def test_a_long_result_banner_takes_two_lines_and_keeps_its_score():
    # Deck Swabbing's ending is long: "No white pair is left ... Ben wins the task, 11 tiles to 6".
    # Its end, the score, was cut off with an ellipsis; now the banner breaks onto two lines.
    game = played_to_the_end("swabbing", seed=3)
    ended = Outcome.from_dict(game.view()["outcome"])
    banner = outcome_line(ended, {"p1": "Jiwoo", "p2": "Hanbyul"}, how_names_winner=True)
    assert banner is not None and "tiles to" in banner
    width = swabbing.canvas_size()[0]
    assert text_width(banner, STATUS_SIZE, True) > width - 40  # one line would not hold it
    size, lines = banner_lines(banner, width - 40)
    assert len(lines) == 2 and " ".join(lines) == banner
    assert all(text_width(line, size, True) <= width - 40 for line in lines)
    assert lines[0].endswith(".")  # broken after the first sentence
    image = decode(render_view(game.view(), players={"p1": "Jiwoo", "p2": "Hanbyul"}))
    footer = (0, image.height - FOOTER_HEIGHT, image.width, image.height)
    ink_box = colour_bbox(image, "banner_text", footer)
    assert ink_box is not None and ink_box[3] - ink_box[1] > 1.5 * size  # two lines of letters
    assert ink_box[0] >= 20 and ink_box[2] <= width - 20  # and inside the card


def test_a_banner_that_fits_stays_one_line_at_the_large_size():
    assert banner_lines("Ann wins", 400) == (NAME_SIZE, ["Ann wins"])
