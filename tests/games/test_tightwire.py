"""Tightwire, Deadly Influx and Threads of Fate, scenario by scenario, as the rule texts tell them.

Board diagrams are the classic5 grid (A1 bottom left, E5 top right). Positions are built with the
``setup`` option (pieces and, where a scenario needs them, lines already on the board).
"""

import inspect
from pathlib import Path

import pytest

from geniusbot.games import get_game, load, new_game
from geniusbot.games.base import (
    AmbiguousMoveError,
    GameError,
    IllegalMoveError,
    MalformedMoveError,
    NotYourTurnError,
    OptionError,
)
from geniusbot.games.tightwire import ClassicTightwire, DeadlyInflux, ThreadsOfFate
from geniusbot.games.tightwire.geometry import geometry
from geniusbot.games.tightwire.rules import Tightwire, TightwireMove
from geniusbot.words import Words


def game(variant="classic", setup=None, **options):
    if setup is not None:
        options["setup"] = setup
    return Tightwire.new(variant=variant, **options)


def play(g, *texts):
    """Play each text for whoever is to move; return the events of the last one."""
    events = []
    for text in texts:
        (seat,) = g.to_move()
        _, events = g.submit(text, seat)
    return events


def refused(g, text, seat=None, error=IllegalMoveError):
    """Assert ``text`` is refused with ``error`` and that the refusal changed nothing; return the message."""
    seat = seat or g.to_move()[0]
    before = g.to_dict()
    with pytest.raises(error) as info:
        g.submit(text, seat)
    assert g.to_dict() == before
    return str(info.value)


def fate(setup=None, picks=("turn order", "woven revive"), order="first", **options):
    """A Threads of Fate game past its draft: p1 and p2 pick ``picks``, the holder says ``order``."""
    g = game("fate", setup, **options)
    play(g, *(f"pick {p}" for p in picks))
    play(g, order)
    return g


# ------------------------------------------------------------------------------ registry, options


def test_registered_under_its_name_and_aliases():
    assert get_game("Tightwire") is Tightwire
    assert get_game("Threads of Fate") is Tightwire
    assert get_game("deadly-influx") is Tightwire
    assert new_game("threadsoffate", variant="fate").variant == "fate"
    assert new_game("tightwire").variant == "classic"


@pytest.mark.parametrize(
    ("variant", "rule_set"), [("classic", ClassicTightwire), ("influx", DeadlyInflux), ("fate", ThreadsOfFate)]
)
def test_each_rule_set_is_a_subclass_that_every_way_of_making_a_game_gives(variant, rule_set):
    assert rule_set.rule_set == variant and issubclass(rule_set, Tightwire)
    g = Tightwire.new(variant=variant.upper())
    assert type(g) is rule_set and g.variant == variant and g.name == "tightwire"
    assert type(new_game("tightwire", variant=variant)) is rule_set
    assert type(rule_set.new()) is rule_set and rule_set.new().variant == variant
    stored = g.to_dict()
    assert (stored["game"], stored["variant"]) == ("tightwire", variant)
    for again in (load(stored), Tightwire.from_dict(stored), g.copy()):
        assert type(again) is rule_set and again == g
    with pytest.raises(OptionError, match="no rule set 'nope'"):
        Tightwire.new(variant="nope")
    other = next(v for v in Tightwire.variants if v != variant)
    with pytest.raises(OptionError):
        rule_set.new(variant=other)


def test_no_rule_is_a_branch_on_the_rule_sets_name():
    # The rule sets differ by their subclasses' attributes and hooks, never by comparing the name.
    for path in sorted(Path(inspect.getfile(Tightwire)).parent.glob("*.py")):
        if path.name != "picture.py":  # the picture's title names a rule set other than the default
            assert "variant ==" not in path.read_text() and "variant !=" not in path.read_text(), path


def test_default_board_is_classic5_with_orange_on_top():
    v = game().view()
    assert (v["cols"], v["rows"], v["board"]) == (5, 5, "classic5")
    assert v["pieces"] == {
        "A5": "orange",
        "B5": "orange",
        "D5": "orange",
        "E5": "orange",
        "A1": "blue",
        "B1": "blue",
        "D1": "blue",
        "E1": "blue",
    }
    assert v["colors"] == {"p1": "orange", "p2": "blue"}
    assert v["to_move"] == ["p1"] and v["first"] == "p1" and v["phase"] == "play"
    assert v["slack_left"] == {"p1": 1, "p2": 1}
    assert v["captured"] == {"orange": 0, "blue": 0}
    assert v["lines"] == [] and v["last_move"] is None and v["move_number"] == 0


def test_p1_may_be_blue_and_still_moves_first():
    g = game(p1_color="Blue")
    assert g.view()["colors"] == {"p1": "blue", "p2": "orange"}
    play(g, "draw A1-A2")
    assert g.view()["lines"] == [{"a": "A1", "b": "A2", "slack": False, "by": "p1"}]


@pytest.mark.slow
def test_large_preset():
    v = game(board="large7").view()
    assert (v["cols"], v["rows"]) == (7, 7)
    assert v["pieces"]["G7"] == "orange" and v["pieces"]["G1"] == "blue"


@pytest.mark.parametrize(
    "options, words",
    [
        ({"board": "hex9"}, "no Tightwire board"),
        ({"p1_color": "green"}, "orange or blue"),
        ({"setup": "orange A5 B5; blue A1"}, "fewer than two"),
        ({"setup": "orange A5 B5"}, "no blue pieces"),
        ({"setup": "orange A5 B5; blue A5 B1"}, "two pieces on A5"),
        ({"setup": "orange A5 B5; blue A1 F1"}, "off the board"),
        ({"setup": "orange A5 B5; blue A1 B1; lines A1-C3"}, "passes over B2"),
        ({"setup": "orange A5 B5; blue A1 B1; lines A1-B2 A2-B1"}, "cross"),
        ({"setup": "orange A5 B5; blue A1 B1; lines A1-B2 B2-A1"}, "twice"),
        ({"setup": "orange A5 B5; blue A1 B1; lines A1-A1"}, "itself"),
        ({"setup": "orange A5 B5; blue A1 B1; walls A2"}, "part 'walls'"),
        ({"colour": "blue"}, "takes no option"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(options, words):
    with pytest.raises(OptionError) as info:
        Tightwire.new(**options)
    assert words in str(info.value)
    assert str(info.value).endswith(".")


def test_explicit_setup_places_pieces_and_lines():
    g = game(setup="Orange c3 C4; BLUE a1 b1 e1; lines C3-D5")
    v = g.view()
    assert v["pieces"] == {"C3": "orange", "C4": "orange", "A1": "blue", "B1": "blue", "E1": "blue"}
    assert v["lines"] == [{"a": "C3", "b": "D5", "slack": False, "by": None}]


# ------------------------------------------------------------------------------ drawing lines


def test_draw_a_line_and_the_turn_passes():
    g = game()
    events = play(g, "draw B4 C2")
    v = g.view()
    assert v["lines"] == [{"a": "B4", "b": "C2", "slack": False, "by": "p1"}]
    assert v["to_move"] == ["p2"] and v["last_move"] == "draw B4-C2" and v["last_path"] == ["B4", "C2"]
    assert v["move_number"] == 1
    assert events[0].text == "Orange (p1) draws B4-C2."


def test_notation_is_case_insensitive_and_canonical():
    g = game()
    assert g.parse_move("DRAW c2-b4", "p1") == TightwireMove("p1", "draw", "B4", "C2")
    assert g.parse_move("  draw   c2 b4. ", "p1").text() == "draw B4-C2"
    assert g.parse_move("`draw C2-B4`", "p1").text() == "draw B4-C2"
    assert g.parse_move("c2-b4", "p1").text() == "draw B4-C2"
    assert g.parse_move("c2 b4", "p1").text() == "draw B4-C2"


def test_a_line_may_not_pass_over_a_dot():
    msg = refused(game(), "draw A2-C4")
    assert msg == "A2-C4 would pass over the dot B3; a line may not pass over a dot. Choose another line."
    # Column and row differences 1 and 2 are coprime: no dot in between.
    play(g := game(), "draw A2-B4")
    assert len(g.view()["lines"]) == 1


def test_a_line_may_not_cross_another_line():
    g = game()
    play(g, "draw B2-C3", "draw A4-B3")
    msg = refused(g, "draw B3-C2")
    assert msg == "B3-C2 crosses the line B2-C3; choose another line, or write `slack B3-C2` to use your slack line."


def test_sharing_an_endpoint_is_not_a_crossing():
    g = game()
    play(g, "draw B2-C3", "draw C3-D2", "draw C3-C2")
    assert len(g.view()["lines"]) == 3


def test_a_line_may_not_be_drawn_twice():
    g = game()
    play(g, "draw B2-C3")
    msg = refused(g, "draw C3-B2")
    assert msg.startswith("There is already a line between C3 and B2")


def test_a_line_joins_two_different_dots():
    assert "two different dots" in refused(game(), "draw C3-C3")


def test_slack_line_crosses_lines_once_per_player():
    g = game()
    play(g, "draw B2-C3", "slack B3-C2")
    v = g.view()
    assert v["lines"][-1] == {"a": "B3", "b": "C2", "slack": True, "by": "p2"}
    assert v["slack_left"] == {"p1": 1, "p2": 0}
    play(g, "draw A3-A4")
    msg = refused(g, "slack A2-B4")
    assert msg == "You have used your slack line; draw a line that crosses no other, move a piece or revive one."


def test_slack_may_be_spent_on_a_line_that_crosses_nothing():
    g = game()
    play(g, "slack C2-C3")
    assert g.view()["slack_left"]["p1"] == 0


def test_slack_lines_may_cross_each_other_but_not_dots():
    g = game()
    play(g, "draw B2-C3", "slack B3-C2")
    play(g, "slack C3-B1")  # crosses Blue's slack line B3-C2
    assert [line["slack"] for line in g.view()["lines"]] == [False, True, True]
    g2 = game()
    assert "pass over the dot B2" in refused(g2, "slack A1-C3")


def test_later_normal_lines_may_not_cross_a_slack_line():
    g = game()
    play(g, "slack B2-C3")
    assert refused(g, "draw B3-C2").startswith("B3-C2 crosses the line B2-C3")


# ------------------------------------------------------------------------------ moving and the free move


def test_move_along_a_line_to_an_empty_dot():
    g = game()
    play(g, "draw B5-C3", "draw A2-A3", "move B5-C3")
    v = g.view()
    assert v["pieces"]["C3"] == "orange" and "B5" not in v["pieces"]
    assert v["last_path"] == ["B5", "C3"]


def test_a_bare_pair_is_a_move_when_a_line_joins_the_dots():
    g = game()
    play(g, "draw B5-C3", "draw A2-A3")
    assert g.parse_move("B5-C3", "p1") == TightwireMove("p1", "move", "B5", "C3")
    # Naming the dots the other way round is the same move: the piece goes from the end it is on.
    assert g.parse_move("move C3-B5", "p1") == TightwireMove("p1", "move", "B5", "C3")


def test_a_move_needs_a_line():
    msg = refused(game(), "move B5-C3")
    assert msg == "There is no line between B5 and C3; to draw one write `draw B5-C3`."


def test_a_move_needs_your_piece_and_an_empty_destination():
    g = game(setup="orange B5 C3 E5; blue A1 C4 E1; lines B5-C3 C3-C4 A1-A2")
    assert refused(g, "move B5-C3") == "Both B5 and C3 hold your pieces; a piece moves only to an empty dot."
    assert refused(g, "move C3-C4") == "C4 holds a blue piece; a piece moves only to an empty dot."
    assert refused(g, "move A1-A2").startswith("Neither A1 nor A2 holds one of your pieces")


def test_the_refusal_gives_orange_its_article():
    g = game(setup="orange B5 C3 E5; blue A1 C4 E1; lines B5-C3 C3-C4 A1-A2", p1_color="blue")
    assert refused(g, "move C4-C3") == "C3 holds an orange piece; a piece moves only to an empty dot."


def test_draw_and_move_along_the_new_line():
    g = game()
    events = play(g, "draw B5-C3 and move")
    v = g.view()
    assert v["pieces"]["C3"] == "orange" and "B5" not in v["pieces"]
    assert v["last_move"] == "draw B5-C3 and move" and v["last_path"] == ["B5", "C3"]
    assert events[0].text == "Orange (p1) draws B5-C3 and moves B5 to C3."


def test_draw_and_move_starts_from_the_end_holding_the_piece():
    g = game()
    assert g.parse_move("draw C3-B5 and move", "p1") == TightwireMove("p1", "draw", "B5", "C3", True)


def test_draw_and_move_needs_a_piece_on_one_end_and_an_empty_other_end():
    msg = refused(game(), "draw C3-C2 and move")
    assert msg.startswith("You can move along the new line only if one end holds your piece")
    assert msg.endswith("write `draw C3-C2` to draw the line alone.")
    assert "one end holds your piece" in refused(game(), "draw A5-B5 and move")
    assert "one end holds your piece" in refused(game(), "draw A1-A2 and move")  # a blue piece


def test_slack_and_move():
    g = game()
    play(g, "draw A4-B3", "draw A1-A2", "slack B5-A3 and move")
    v = g.view()
    assert v["pieces"].get("A3") == "orange" and v["slack_left"]["p1"] == 0
    assert v["lines"][-1] == {"a": "A3", "b": "B5", "slack": True, "by": "p1"}


def test_a_bare_pair_from_your_own_piece_is_ambiguous():
    g = game()
    msg = refused(g, "B5-C3", error=AmbiguousMoveError)
    assert msg == (
        "B5-C3 could mean drawing the line alone or drawing it and moving your piece along it; "
        "write `draw B5-C3` or `draw B5-C3 and move`."
    )
    # With a piece on neither end there is one reading only.
    assert g.parse_move("C2-C3", "p1").text() == "draw C2-C3"
    assert g.parse_move("B5-C3 and move", "p1").text() == "draw B5-C3 and move"


def test_and_move_on_an_existing_line_points_to_move():
    g = game()
    play(g, "draw B4-C3", "draw A1-A2")
    assert "`move B4-C3`" in refused(g, "B4-C3 and move")


# ------------------------------------------------------------------------------ captures (classic)

AGGRESSOR = "orange A5 B5 D3 E5; blue A1 C4 D2 E1; lines B5-C4 C4-C3 C3-D2 D3-C3"


def test_two_pieces_joined_to_an_enemy_piece_capture_it():
    # The text's example: piece 1 (D3) moves to the yellow circle (C3); B5 and C3 surround C4.
    g = game(setup=AGGRESSOR)
    events = play(g, "move D3-C3")
    v = g.view()
    assert "C4" not in v["pieces"]
    assert v["captured"] == {"orange": 0, "blue": 1}
    assert v["captured_last"] == ["C4"]
    assert [e.text for e in events if e.kind == "capture"] == ["Blue (p2) loses the piece on C4."]


def test_aggressor_advantage_the_mover_survives_once_the_enemy_piece_is_gone():
    # C3 is also between two blue pieces (C4 and D2), but C4 goes first and C3 is then safe.
    g = game(setup=AGGRESSOR)
    play(g, "move D3-C3")
    assert g.view()["pieces"]["C3"] == "orange"


def test_the_mover_still_surrounded_after_the_enemy_captures_is_captured():
    g = game(setup="orange A5 B5 D3 E5; blue A1 B2 C4 D2; lines B5-C4 C4-C3 C3-D2 D3-C3 C3-B2")
    events = play(g, "move D3-C3")
    v = g.view()
    assert "C4" not in v["pieces"] and "C3" not in v["pieces"]
    assert v["captured"] == {"orange": 1, "blue": 1}
    assert v["captured_last"] == ["C4", "C3"]
    # The room reads the captures in the rule's order: the opponent's first, then the mover's.
    assert [e.text for e in events if e.kind == "capture"] == [
        "Blue (p2) loses the piece on C4.",
        "Orange (p1) loses the piece on C3.",
    ]


def test_a_blue_mover_reads_its_own_loss_after_the_opponents_too():
    g = game(setup="blue A5 B5 D3 E5; orange A1 B2 C4 D2; lines B5-C4 C4-C3 C3-D2 D3-C3 C3-B2", p1_color="blue")
    events = play(g, "move D3-C3")
    assert [e.text for e in events if e.kind == "capture"] == [
        "Orange (p2) loses the piece on C4.",
        "Blue (p1) loses the piece on C3.",
    ]


def test_moving_into_a_trap_without_capturing_loses_the_piece():
    g = game(setup="orange A5 B5 D3 E5; blue A1 B2 D2 E1; lines C3-D2 D3-C3 C3-B2")
    events = play(g, "move D3-C3")
    assert "C3" not in g.view()["pieces"]
    assert events[-1].data == {"color": "orange", "dots": ["C3"]}


def test_a_drawn_line_can_capture():
    g = game(setup="orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines B4-C3")
    play(g, "draw C3-D4")
    assert "C3" not in g.view()["pieces"] and g.view()["captured"]["blue"] == 1


def test_connected_means_one_single_line_not_a_path():
    # C3 is joined to B4 by a line, and to D4 only through the empty dot D3.
    g = game(setup="orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines B4-C3 C3-D3")
    play(g, "draw D3-D4")
    assert g.view()["pieces"]["C3"] == "blue"


# ------------------------------------------------------------------------------ revive


def captured_blue_classic():
    """Classic, Blue to move with one piece (of four) captured."""
    g = game(setup="orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines B4-C3")
    play(g, "draw C3-D4")
    return g


def test_revive_onto_an_empty_dot_with_no_line():
    g = captured_blue_classic()
    events = play(g, "revive c2")
    v = g.view()
    assert v["pieces"]["C2"] == "blue" and v["captured"]["blue"] == 0
    assert v["last_path"] == ["C2"] and events[0].text == "Blue (p2) revives a piece on C2."


def test_revive_needs_a_captured_piece_and_a_free_dot_without_lines():
    g = captured_blue_classic()
    assert refused(g, "revive C3") == "C3 has a line at it; revive onto an empty dot with no line at it."
    assert refused(g, "revive A1") == "A1 is taken; revive onto an empty dot with no line at it."
    assert refused(game(), "revive C3") == "You have no captured piece to revive; draw a line or move a piece."


# ------------------------------------------------------------------------------ the end


def test_a_player_left_with_one_piece_loses_even_with_pieces_to_revive():
    g = game(setup="orange A5 B4 D4 E5; blue C3 E1; lines B4-C3")
    events = play(g, "draw C3-D4")
    assert g.outcome().winner == "p1"
    assert g.view()["phase"] == "over" and g.to_move() == ()
    assert events[-1].kind == "end"
    assert "Blue (p2) has one piece left" in events[-1].text
    with pytest.raises(NotYourTurnError):
        g.submit("revive C2", "p2")


def test_a_mover_who_traps_themself_down_to_one_piece_loses():
    g = game(setup="orange B5 D3; blue A1 B2 D2 E1; lines C3-D2 D3-C3 C3-B2")
    play(g, "move D3-C3")
    assert g.outcome().winner == "p2"


def test_timeout_loses():
    g = game()
    events = g.timeout("p1")
    assert g.outcome().winner == "p2" and events[0].kind == "end"
    f = game("fate")
    f.timeout("p1")
    assert f.outcome().winner == "p2"


# ------------------------------------------------------------------------------ turns and errors


def test_not_your_turn():
    g = game()
    with pytest.raises(NotYourTurnError):
        g.parse_move("draw C2-C3", "p2")


def test_malformed_text_tells_what_to_write():
    msg = refused(game(), "fly to the moon", error=MalformedMoveError)
    assert "`draw B5-C3`" in msg and "`move B5-C3`" in msg and "`revive C3`" in msg
    assert "off the board" in refused(game(), "draw A1-F2", error=MalformedMoveError)


def test_items_do_not_exist_outside_threads_of_fate():
    g = game()
    assert "no items" in refused(g, "extra slack C2-C3")
    assert "no items" in refused(captured_blue_classic(), "woven revive C3")
    # A classic game never had a draft to settle: it says there is none here, and what to do.
    for text in ("pick turn order", "first"):
        assert refused(g, text) == (
            "There is no draft or Turn Order in this rule set (only in Threads of Fate); "
            "make a move of play, such as `draw B5-C3`."
        )
    assert g.view()["items"] == {"p1": [], "p2": []} and g.view()["draft"] is None
    assert refused(fate(), "pick turn order") == (
        "The draft and the turn order are settled; make a move of play, such as `draw B5-C3`."
    )


@pytest.mark.parametrize("cls", [ClassicTightwire, DeadlyInflux])
def test_a_rule_set_without_a_draft_has_no_phase_before_play(cls):
    # The hooks a rule set with a draft overrides say, in one without, that there is none: the
    # turn's seat, no move, and the refusal that says what to type instead.
    g = cls.new(seed=1)
    pick = TightwireMove("p1", "pick", choice="turn_order")
    assert g._seat_before_play() == g.turn == "p1" and list(g._moves_before_play("p1")) == []
    for hook in (
        lambda: g._check_before_play(pick),
        lambda: g._parse_before_play("pick turn order", "p1"),
        lambda: g._play_before_play(pick),
    ):
        with pytest.raises(IllegalMoveError, match="There is no draft or Turn Order in this rule set"):
            hook()


def test_legal_moves_only_for_the_seat_to_move():
    g = game()
    assert list(g.legal_moves("p2")) == []
    moves = list(g.legal_moves())
    assert all(m.seat == "p1" for m in moves)
    assert TightwireMove("p1", "draw", "B5", "C3", True) in moves
    assert TightwireMove("p1", "slack", "A1", "A2") in moves
    assert not any(m.action == "revive" for m in moves)


def test_start_position_move_count():
    # 5 x 5 dots make 300 pairs, of which 200 pass over no dot; nothing is drawn yet, so each may be
    # drawn or slacked, and with a move when it leaves an orange piece for an empty dot.
    g = game()
    moves = list(g.legal_moves())
    draws = [m for m in moves if m.action == "draw"]
    slacks = [m for m in moves if m.action == "slack"]
    assert len([m for m in draws if not m.and_move]) == 200
    assert len([m for m in slacks if not m.and_move]) == 200
    assert len(moves) == len(draws) + len(slacks)
    assert len([m for m in draws if m.and_move]) == len([m for m in slacks if m.and_move])
    free = {(m.a, m.b) for m in draws if m.and_move}
    assert ("B5", "C3") in free and ("A5", "B5") not in free and ("B5", "A5") not in free


# ------------------------------------------------------------------------------ Deadly Influx

EXAMPLE = "orange A5 B5 B3 E5; blue A1 C2 D1 E1; lines B5-C3 B3-C3 B3-C2 C3-C2 C3-D1"


def test_influx_example_orange_b5_c3_captures_c2():
    g = game("influx", EXAMPLE)
    play(g, "move B5-C3")
    assert "C2" not in g.view()["pieces"] and g.view()["captured_last"] == ["C2"]


def test_influx_example_orange_b3_c3_is_captured_only_after_blues_turn():
    g = game("influx", EXAMPLE)
    play(g, "move B3-C3")
    v = g.view()
    assert v["pieces"]["C3"] == "orange" and v["pieces"]["C2"] == "blue" and v["captured_last"] == []
    play(g, "draw A3-A4")
    assert "C3" not in g.view()["pieces"] and g.view()["captured_last"] == ["C3"]


@pytest.mark.parametrize("escape", ["draw D1-E2 and move", "draw C2-B1 and move"])
def test_influx_example_unless_blue_moves_c2_or_d1(escape):
    g = game("influx", EXAMPLE)
    play(g, "move B3-C3", escape)
    assert g.view()["pieces"]["C3"] == "orange"


def test_classic_would_take_the_b3_c3_piece_at_once():
    g = game("classic", EXAMPLE)
    play(g, "move B3-C3")
    assert "C3" not in g.view()["pieces"]


def test_influx_the_mover_never_loses_pieces_on_their_own_turn():
    g = game("influx", AGGRESSOR.replace("E1", "B2") + " C3-B2")
    play(g, "move D3-C3")
    v = g.view()
    assert "C4" not in v["pieces"] and v["pieces"]["C3"] == "orange"


SHUTTLE = "orange A5 B5 D5 E5; blue A1 B1 D1 E1; lines A5-A4 E1-E2"


def test_influx_a_move_may_not_recreate_an_earlier_position():
    g = game("influx", SHUTTLE)
    play(g, "draw C3-C4", "move E1-E2", "move A5-A4", "move E2-E1")
    # Orange's A4-A5 would bring back the position just after Orange drew C3-C4, Blue to move.
    msg = refused(g, "move A4-A5")
    assert msg == "That move would repeat an earlier position, which Deadly Influx forbids; choose another action."
    assert TightwireMove("p1", "move", "A4", "A5") not in list(g.legal_moves())


def test_influx_the_start_counts_as_an_earlier_position():
    g = game("influx", SHUTTLE)
    play(g, "move A5-A4", "move E1-E2", "move A4-A5")
    assert "repeat" in refused(g, "move E2-E1")


def test_classic_allows_repetition():
    g = game("classic", SHUTTLE)
    play(g, "move A5-A4", "move E1-E2", "move A4-A5", "move E2-E1", "move A5-A4")
    assert g.view()["pieces"]["A4"] == "orange"


def test_influx_history_survives_a_round_trip():
    g = game("influx", SHUTTLE)
    play(g, "move A5-A4", "move E1-E2", "move A4-A5")
    h = load(g.to_dict())
    assert h == g
    assert "repeat" in refused(h, "move E2-E1")


# ------------------------------------------------------------------------------ Threads of Fate: the draft


def test_fate_starts_with_a_draft_p1_first():
    g = game("fate")
    v = g.view()
    assert v["phase"] == "draft" and v["to_move"] == ["p1"] and v["first"] is None
    assert v["draft"] == {
        "order": ["p1", "p2", "p1"],
        "picks": [],
        "available": ["turn_order", "extra_slack", "woven_revive"],
    }
    assert sorted(m.text() for m in g.legal_moves()) == ["pick extra slack", "pick turn order", "pick woven revive"]


def test_fate_draft_a_b_a_with_the_last_pick_automatic():
    g = game("fate")
    play(g, "pick turn order")
    assert g.to_move() == ("p2",)
    events = play(g, "Woven Revive")
    v = g.view()
    assert v["items"] == {"p1": ["turn_order", "extra_slack"], "p2": ["woven_revive"]}
    assert v["phase"] == "order" and v["to_move"] == ["p1"]
    assert [e.text for e in events] == [
        "p2 picks Woven Revive.",
        "p1 receives the last item, Extra Slack Thread.",
        "p1 holds Turn Order: `first` to move first, or `second` to let p2 move first.",
    ]


def test_fate_turn_order_holder_may_send_the_opponent_first():
    g = game("fate")
    play(g, "pick extra slack", "pick turn order")
    assert g.view()["phase"] == "order" and g.to_move() == ("p2",)
    play(g, "second")
    v = g.view()
    assert v["phase"] == "play" and v["first"] == "p1" and v["to_move"] == ["p1"]
    assert v["items"] == {"p1": ["extra_slack", "woven_revive"], "p2": []}


def test_fate_turn_order_first():
    g = fate(picks=("turn order", "extra slack"), order="first")
    assert g.view()["first"] == "p1" and g.to_move() == ("p1",)
    g = fate(picks=("woven revive", "turn order"), order="first")
    assert g.view()["first"] == "p2" and g.to_move() == ("p2",)
    assert g.view()["move_number"] == 0 and g.view()["last_move"] == "first"


def test_fate_draft_refusals():
    g = game("fate")
    assert "`pick turn order`" in refused(g, "draw C2-C3", error=MalformedMoveError)
    with pytest.raises(NotYourTurnError):
        g.parse_move("pick turn order", "p2")
    play(g, "pick turn order")
    msg = refused(g, "pick turn order")
    assert msg == "Turn Order has already been picked; pick one of: `pick extra slack`, `pick woven revive`."
    play(g, "pick woven revive")
    assert "`first`" in refused(g, "draw C2-C3", error=MalformedMoveError)


# ------------------------------------------------------------------------------ Threads of Fate: items


def test_extra_slack_only_after_the_first_slack():
    g = fate(picks=("turn order", "woven revive"))  # p1 holds Extra Slack Thread
    play(g, "draw B2-C3", "draw A1-A2")
    assert "only after your first slack line" in refused(g, "extra slack B3-C2")
    assert "`slack B3-C2` to use your slack line" in refused(g, "draw B3-C2")
    play(g, "slack B3-C2", "draw E1-E2")
    msg = refused(g, "slack B2-A3")
    assert msg == "You have used your slack line; write `extra slack B2-A3` to weave your Extra Slack Thread."
    assert refused(g, "draw C2-B4").endswith("or write `extra slack C2-B4` to weave your Extra Slack Thread.")
    events = play(g, "extra slack C2-B4")  # crosses B2-C3
    assert events[0].text == "Orange (p1) weaves the Extra Slack Thread B4-C2."
    v = g.view()
    assert v["items"]["p1"] == [] and v["lines"][-1]["slack"] is True
    play(g, "draw D1-E2")
    assert refused(g, "extra slack A4-B2") == (
        "You do not hold the Extra Slack Thread; draw a normal line or use your slack line."
    )


def test_extra_slack_and_move():
    g = fate(picks=("turn order", "woven revive"))
    play(g, "slack A4-B4", "draw A1-A2", "extra slack B5-A4 and move")
    assert g.view()["pieces"]["A4"] == "orange"


def test_extra_slack_is_not_held_by_the_other_player():
    g = fate(picks=("turn order", "woven revive"))
    play(g, "draw C2-C3")
    assert "do not hold the Extra Slack Thread" in refused(g, "extra slack B3-C2")


WOVEN = "orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines B4-C3"


def fate_blue_captured():
    """Fate, p2 (Blue) holds Woven Revive, has one captured piece and is to move."""
    g = fate(WOVEN, picks=("turn order", "woven revive"), order="first")
    play(g, "draw C3-D4")
    assert g.view()["captured"]["blue"] == 1
    return g


def test_woven_revive_onto_an_empty_dot_with_exactly_one_line():
    g = fate_blue_captured()
    play(g, "draw C1-C2")  # p2 also has a move to make; take it and come back
    play(g, "draw E4-E3")
    assert refused(g, "revive C2") == (
        "C2 has a line at it; revive onto an empty dot with no line at it, "
        "or write `woven revive C2` to use your Woven Revive."
    )
    assert "has 2 lines" in refused(g, "woven revive C3")
    events = play(g, "woven revive C2")
    v = g.view()
    assert v["pieces"]["C2"] == "blue" and v["items"]["p2"] == [] and v["captured"]["blue"] == 0
    assert events[0].text == "Blue (p2) uses the Woven Revive on C2."
    # One use only.
    play(g, "draw E2-D3")
    assert (
        refused(g, "woven revive C1")
        == "You do not hold the Woven Revive; revive onto an empty dot with no line with `revive C1`."
    )


def test_woven_revive_needs_the_item_and_a_captured_piece():
    g = fate(WOVEN, picks=("woven revive", "turn order"), order="second")  # p1 holds Woven Revive
    play(g, "draw C3-D4")
    assert (
        refused(g, "woven revive C3")
        == "You do not hold the Woven Revive; revive onto an empty dot with no line with `revive C3`."
    )
    play(g, "draw A1-A2")
    assert refused(g, "woven revive A2") == "You have no captured piece to revive; draw a line or move a piece."


def test_woven_revive_is_unusable_once_every_dot_has_a_line():
    every = "A1-A2 A3-A4 A5-B5 B1-B2 B3-B4 C1-C2 C4-C5 D1-D2 D3-D4 D5-E5 E1-E2 E3-E4 B4-C3"
    g = fate(f"orange A5 B4 D4 E5; blue A1 C3 D1 E1; lines {every}", picks=("turn order", "woven revive"))
    play(g, "draw C3-D4")
    assert "C2" not in g.view()["pieces"]
    assert refused(g, "woven revive C2") == "Every dot has a line now, so the Woven Revive can no longer be used."
    assert not any(m.action == "woven_revive" for m in g.legal_moves())


# ------------------------------------------------------------------------------ view and records


def test_view_is_the_same_for_every_seat_and_json_ready():
    import json

    g = game("fate")
    play(g, "pick turn order", "pick extra slack", "first", "draw B5-C3 and move")
    assert g.view("p1") == g.view("p2") == g.view(None)
    assert json.loads(json.dumps(g.view())) == g.view()
    assert set(g.view()) >= {
        "game",
        "variant",
        "to_move",
        "outcome",
        "cols",
        "rows",
        "phase",
        "pieces",
        "colors",
        "lines",
        "captured",
        "slack_left",
        "items",
        "last_move",
        "last_path",
        "captured_last",
        "first",
        "move_number",
    }


def test_round_trip_mid_game():
    g = fate(WOVEN)
    play(g, "draw C3-D4", "slack A2-B3")
    h = load(g.to_dict())
    assert h == g and h.view() == g.view()
    play(h, "draw E2-E3")
    play(g, "draw E2-E3")
    assert h == g


# ------------------------------------------------------------------------------ no legal action


def filled_lines(*slack_lines):
    """Every line that fits beside ``slack_lines``, shortest first: once those slack lines are drawn
    too, no normal line can be added anywhere."""
    geo = geometry(5, 5)
    index = {name: dot for dot, name in enumerate(geo.names)}

    def pid(text):
        a, b = text.split("-")
        return geo.pair_id[(index[a], index[b])]

    def length(p):
        (x1, y1), (x2, y2) = (geo.coords[d] for d in geo.pairs[p])
        return (x1 - x2) ** 2 + (y1 - y2) ** 2

    mask = sum(1 << pid(s) for s in slack_lines)
    chosen = []
    for p in sorted(range(len(geo.pairs)), key=lambda p: (length(p), p)):
        if not (mask >> p & 1 or geo.crossing[p] & mask):
            mask |= 1 << p
            chosen.append("-".join(geo.names[d] for d in geo.pairs[p]))
    return " ".join(chosen)


# The slack lines D1-E5 and B3-E1 cut the E column off: E2, E3 and E4 then have lines only to
# their neighbours in the column.
CUT_OFF = filled_lines("D1-E5", "B3-E1")


def test_the_e_column_is_cut_off():
    g = game(setup=f"orange A5 E1 E5; blue E2 E3 E4; lines {CUT_OFF}")
    play(g, "slack D1-E5", "slack B3-E1")
    joined = {line["b"] for line in g.view()["lines"] if line["a"] == "E3"} | {
        line["a"] for line in g.view()["lines"] if line["b"] == "E3"
    }
    assert joined == {"E2", "E4"}
    assert not any(m.action == "draw" for m in g.legal_moves())


def test_a_player_to_move_with_no_legal_action_loses():
    # E1 orange, E2 E3 E4 blue, E5 orange: no blue piece can move, no line can be drawn, both
    # slack lines are used, and Blue has nothing to revive.
    g = game(setup=f"orange A5 E1 E5; blue E2 E3 E4; lines {CUT_OFF}")
    play(g, "slack D1-E5", "slack B3-E1")
    events = play(g, "move A5-A4")
    assert g.outcome().winner == "p1"
    assert events[-1].text == "Blue (p2) has no legal action and loses."


def test_influx_no_legal_action_because_of_repetition_loses():
    # E1 orange, E2 blue, E3 empty, E4 blue, E5 orange. Blue steps E2-E3 while Orange steps
    # A5-A4 and back; Blue's only way out, E3-E2, would bring back the position after Blue's slack.
    g = game("influx", f"orange A5 E1 E5; blue E2 E4; lines {CUT_OFF}")
    play(g, "slack D1-E5", "slack B3-E1", "move A5-A4", "move E2-E3")
    events = play(g, "move A4-A5")
    assert g.outcome().winner == "p1"
    assert events[-1].text == "Blue (p2) has no legal action and loses."


def test_the_same_shuffle_is_fine_in_classic():
    g = game("classic", f"orange A5 E1 E5; blue E2 E4; lines {CUT_OFF}")
    play(g, "slack D1-E5", "slack B3-E1", "move A5-A4", "move E2-E3", "move A4-A5", "move E3-E2")
    assert not g.is_over


# ------------------------------------------------------------------------------ more rulings


def test_draw_and_move_is_one_action_captures_come_after_the_move():
    # C3 will be joined to the blue piece on C2, which B3 already touches.
    g = game(setup="orange A5 B5 B3 E5; blue A1 C2 D1 E1; lines B3-C2 C3-C2")
    play(g, "draw B5-C3 and move")
    v = g.view()
    assert v["pieces"]["C3"] == "orange" and "C2" not in v["pieces"]
    assert v["captured_last"] == ["C2"] and v["last_path"] == ["B5", "C3"]


def test_a_draw_that_joins_your_piece_to_a_second_enemy_loses_it():
    # B3 (orange) touches C2 (blue); drawing B3-C4 joins it to the blue piece on C4 too.
    g = game(setup="orange A5 B3 D5 E5; blue A1 C2 C4 E1; lines B3-C2")
    play(g, "draw B3-C4")
    assert "B3" not in g.view()["pieces"] and g.view()["captured"] == {"orange": 1, "blue": 0}


def test_timeout_in_the_turn_order_choice_loses():
    g = game("fate")
    play(g, "pick extra slack", "pick turn order")
    g.timeout("p2")
    assert g.outcome().winner == "p1" and g.view()["phase"] == "over"


def test_play_refuses_an_illegal_move_object_and_changes_nothing():
    g = game()
    before = g.to_dict()
    with pytest.raises(IllegalMoveError):
        g.play(TightwireMove("p1", "draw", "A1", "C3"))
    with pytest.raises(NotYourTurnError):
        g.play(TightwireMove("p2", "draw", "A1", "A2"))
    assert g.to_dict() == before


def test_every_legal_move_is_legal_and_round_trips_through_its_text():
    g = fate(WOVEN)
    play(g, "draw C3-D4", "slack A2-B3")
    for move in g.legal_moves():
        assert g.is_legal(move)
        assert g.parse_move(move.text(), move.seat) == move


def test_a_line_drawn_twice_points_to_move_only_when_a_move_is_possible():
    g = game()
    play(g, "draw B5-C3", "draw A1-A2")
    assert refused(g, "draw B5-C3") == (
        "There is already a line between B5 and C3; to move along it write `move B5-C3`, or choose another line."
    )
    assert refused(g, "draw A1-A2") == "There is already a line between A1 and A2; choose another line."


def test_the_colour_of_each_captured_piece_is_kept_for_the_picture():
    # Blue steps from B2 to B3 between orange A3 and C3 and is captured at once (classic).
    g = new_game("tightwire", setup="orange A3 C3 A5; blue B2 E1 D1; lines A3-B3 B3-C3 B2-B3")
    events = play(g, "draw A4-A5", "move B2-B3")
    # The mover's own piece: the message names its colour and its seat.
    assert [e.text for e in events] == ["Blue (p2) moves B2 to B3.", "Blue (p2) loses the piece on B3."]
    v = g.view()
    assert v["captured_last"] == ["B3"] and v["captured_last_colors"] == {"B3": "blue"}
    assert load(g.to_dict()).view() == v
    play(g, "draw A4-B4")
    assert g.view()["captured_last_colors"] == {}
    # A game saved before the colours were kept still loads (its ghosts take the default shape).
    data = g.to_dict()
    del data["state"]["captured_last_colors"]
    assert load(data).view()["captured_last_colors"] == {}


def test_the_summary_teaches_only_notation_the_parser_reads():
    import re

    snippets = re.findall(r"`([^`]+)`", Words()(Tightwire.summary))
    assert {"draw B5-C3", "slack B5-C3", "move B5-C3", "revive C3", "pick turn order", "woven revive C3"} <= set(
        snippets
    )
    texts = [t for s in snippets for t in s.split("/")]

    def positions():
        yield new_game("tightwire")
        draft = new_game("tightwire", variant="fate")
        yield draft
        order = new_game("tightwire", variant="fate")
        play(order, "pick turn order", "pick extra slack")
        yield order
        played = new_game("tightwire", variant="fate")
        play(played, "pick turn order", "pick extra slack", "first")
        yield played

    for text in texts:
        read = False
        for g in positions():
            try:
                g.parse_move(text, g.to_move()[0])
                read = True
            except MalformedMoveError:
                continue
            except GameError:
                read = True
        assert read, f"the summary teaches {text!r}, which no phase reads"


def test_the_rule_texts_own_words_are_understood():
    # "slack line" / "slack thread" (the rule texts' names) and an item's first word in the draft.
    g = game()
    assert g.parse_move("slack line B5-C3", "p1") == TightwireMove("p1", "slack", "B5", "C3")
    assert g.parse_move("Slack thread b5 c4 and move", "p1") == TightwireMove("p1", "slack", "B5", "C4", True)
    f = game("fate")
    assert [f.parse_move(t, "p1").text() for t in ("pick woven", "pick extra", "turn")] == [
        "pick woven revive",
        "pick extra slack",
        "pick turn order",
    ]
    play(f, "pick extra", "pick turn", "second", "slack line B5-C4", "draw A1-B2")
    assert f.parse_move("extra slack line B5-C3", "p1") == TightwireMove("p1", "extra_slack", "B5", "C3")
    # Still no guessing at other words.
    assert "Write a line such as" in refused(f, "line B5-C3", error=MalformedMoveError)
