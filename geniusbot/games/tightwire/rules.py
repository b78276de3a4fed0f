"""Tightwire: draw lines between dots, move pieces along them, trap enemy pieces between two of yours.

The engine shared by three rule sets of the seed's game (see ``docs/rules/tightwire.md``). Each rule
set is a subclass of :class:`Tightwire` (in ``rulesets``) that sets a few class attributes and
overrides a few hooks; the class itself plays the rules they share, which are ``classic``'s:

* ``classic`` (DM4 Tightwire): captures are immediate after every action; the opponent's
  surrounded pieces go first, then the mover's own pieces that are still surrounded (the
  aggressor's advantage). A piece is *surrounded* when single lines join it to two or more
  enemy pieces.
* ``influx`` (Genius Online: Deadly Influx): captures only at the end of the mover's turn, and
  only of the opponent's pieces joined by single lines to two or more of the mover's pieces.
  An action that recreates an earlier position (the start included) is illegal.
* ``fate`` (Threads of Fate): captures as ``classic``; first a draft of three items (Turn Order,
  Extra Slack Thread, Woven Revive) in the order p1, p2, p1; the Turn Order holder then says
  ``first`` or ``second``.

``Tightwire(variant=...)`` (and so ``Tightwire.new`` and :func:`geniusbot.games.load`) makes a
game of the rule set's own subclass; the registry, the records and the stored games know the one
game ``tightwire`` and its rule sets by name. The notation is in ``notation``.

The view (``view(seat)``; there is no hidden information, every seat sees the same) holds:

* ``game``, ``variant``, ``to_move`` (list of seats), ``outcome`` (``None`` or
  ``{"winner", "reason"}``): the keys every game's view has.
* ``board`` (preset name), ``cols``, ``rows``: the grid is ``cols`` x ``rows`` dots named A1
  (bottom left) to e.g. E5 (top right).
* ``phase``: ``"draft"``, ``"order"`` (the Turn Order holder chooses), ``"play"`` or ``"over"``.
* ``pieces``: ``{"B5": "orange", ...}`` for every occupied dot.
* ``colors``: ``{"p1": "orange", "p2": "blue"}``.
* ``lines``: ``[{"a": "B5", "b": "C3", "slack": bool, "by": "p1" | "p2" | None}, ...]`` in the
  order drawn (``by`` is ``None`` for lines laid by the setup).
* ``captured``: ``{"orange": n, "blue": n}``, pieces waiting off the board to be revived.
* ``slack_left``: ``{"p1": n, "p2": n}``, the basic slack lines not yet used (0 or 1); the Extra
  Slack Thread is listed under ``items`` instead.
* ``items``: ``{"p1": [...], "p2": [...]}``, unused items as ids ``"turn_order"``,
  ``"extra_slack"``, ``"woven_revive"`` (titles in :data:`ITEM_TITLES`); empty lists outside ``fate``.
* ``draft``: ``{"order": ["p1", "p2", "p1"], "picks": [{"seat", "item"}, ...], "available": [...]}``
  (``fate`` only, otherwise ``None``).
* ``last_move``: canonical text of the last action (draft picks and the order choice included),
  or ``None``.
* ``last_path``: the dots the last action touched, in order (a line's two ends, a move's origin
  then destination, a revived dot); ``[]`` after a draft action.
* ``captured_last``: the dots emptied by captures in the last action.
* ``captured_last_colors``: ``{"D2": "blue", ...}``, the colour of the piece taken on each of
  those dots (a picture draws its ghost in the right shape).
* ``first``: the seat that makes the first move of play (``None`` until Turn Order decides).
* ``move_number``: how many actions of play have been made (draft and order not counted).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Self, cast

from geniusbot.games.base import (
    AmbiguousMoveError,
    Event,
    Game,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    OptionError,
    Termination,
    other_seat,
)
from geniusbot.games.grid import parse_point
from geniusbot.games.tightwire.geometry import BoardGeometry, geometry
from geniusbot.games.tightwire.layout import PRESETS, line_name, parse_layout
from geniusbot.games.tightwire.notation import (
    BLUE,
    COLOUR_NAMES,
    COLOURS,
    DRAW_ACTIONS,
    EXTRA_SLACK,
    ITEM_NAMES,
    ORANGE,
    RE_DRAW,
    RE_MOVE,
    RE_ORDER,
    RE_PICK,
    RE_REVIVE,
    TURN_ORDER,
    VERBS,
    WOVEN_REVIVE,
    TightwireEvent,
    TightwireMove,
    command,
    normalize,
    written,
)
from geniusbot.games.tightwire.view import Draft, TightwireView
from geniusbot.words import Argument, Message, Seat, Verbatim, say, say_n

__all__ = ["BLUE", "COLOURS", "ORANGE", "Tightwire", "TightwireEvent", "TightwireMove"]


def action_said(move: TightwireMove, colour: str) -> Message:
    """What the room is told of an action of play: the mover by colour and seat (the board shows
    colours, the host's captions name seats), the action and its dots. Each action is a whole
    sentence of its own, so that a translator may order its words."""
    kind, and_move = move.action, move.and_move
    mover: dict[str, Argument] = {"colour": COLOUR_NAMES[colour], "seat": Seat(move.seat), "a": Verbatim(move.a or "")}
    dots: dict[str, Argument] = {**mover, "b": Verbatim(move.b or "")}
    if kind == "draw" and and_move:
        return Message("{colour} ({seat}) draws {a}-{b} and moves {a} to {b}.", dots)
    if kind == "draw":
        return Message("{colour} ({seat}) draws {a}-{b}.", dots)
    if kind == "slack" and and_move:
        return Message("{colour} ({seat}) draws the slack line {a}-{b} and moves {a} to {b}.", dots)
    if kind == "slack":
        return Message("{colour} ({seat}) draws the slack line {a}-{b}.", dots)
    if kind == "extra_slack" and and_move:
        return Message(
            "{colour} ({seat}) weaves the {item} {a}-{b} and moves {a} to {b}.",
            {**dots, "item": ITEM_NAMES[EXTRA_SLACK]},
        )
    if kind == "extra_slack":
        return Message("{colour} ({seat}) weaves the {item} {a}-{b}.", {**dots, "item": ITEM_NAMES[EXTRA_SLACK]})
    if kind == "move":
        return Message("{colour} ({seat}) moves {a} to {b}.", dots)
    if kind == "woven_revive":
        return Message("{colour} ({seat}) uses the {item} on {a}.", {**mover, "item": ITEM_NAMES[WOVEN_REVIVE]})
    return Message("{colour} ({seat}) revives a piece on {a}.", mover)


class Tightwire(Game):
    """Tightwire, the game of the registry: the rules its three rule sets share (``classic``'s), and
    the hooks each rule set's subclass overrides (see the module docstring)."""

    name = "tightwire"
    variant_aliases = {"threadsoffate": "fate", "deadlyinflux": "influx"}
    title = "Tightwire"
    picture = "geniusbot.games.tightwire.picture:render"
    clocks = {"classic": "60s", "influx": "5x60s", "fate": "90s+5m/10s"}
    choice_phases = frozenset({"draft", "order"})
    perfect_information = True
    variants = ("classic", "influx", "fate")
    # "slack line", "slack thread" and "B5 to C3" are read too, but those words only follow a
    # verb or join two dots.
    keywords = frozenset(
        {
            "draw",
            "slack",
            "and",
            "move",
            "revive",  # play
            "pick",
            "turn",
            "order",
            "extra",
            "woven",
            "first",
            "second",  # the draft and Turn Order
        }
    )
    options = {
        "board": f"board preset: {', '.join(PRESETS)} (default classic5, 5 x 5 dots)",
        "setup": 'explicit layout on the preset\'s grid: "orange A5 B5 D5 E5; blue A1 B1 D1 E1" '
        '(optionally "; lines B5-C3 C3-C2")',
        "p1_color": "colour of p1: orange or blue (default orange)",
    }
    # The clock words are TimeControl.describe() of each rule set's preset (a test holds them equal).
    summary = say(
        "4 pieces each on a grid of dots, A1 at the bottom left. On your turn do one thing: **draw** "
        "a line between two dots (it may not cross a line or pass over a dot), **move** one of your "
        "pieces along a line to the empty dot at its other end, or **revive** a captured piece onto "
        "an empty dot with no line at it. Once per game your **slack** line may cross lines. Right "
        "after drawing you may move your piece along the new line. A piece joined by single lines to "
        "two enemy pieces is captured. You lose when left with one piece or none on the board, with "
        "no legal action, or out of time.\n"
        "**classic**: captures at once, the opponent's pieces first (stepping between two enemy "
        "pieces to take one is safe); 60 s a move. **influx** (Deadly Influx): only the player who "
        "just moved captures, at the end of the turn; no action may repeat an earlier position; 5 "
        "periods of 60 s (byo-yomi). **fate** (Threads of Fate): captures as classic. First p1, p2, "
        "p1 draft three items: Turn Order (its holder then says `first` or `second` for themself), "
        "Extra Slack Thread (one more slack line, after your first), Woven Revive (once, revive onto "
        "an empty dot with exactly one line); 90 s a move, then a 5:00 reserve spent in 10 s blocks.\n"
        "Write: `draw B5-C3`, `slack B5-C3`, `draw B5-C3 and move`, `move B5-C3`, `revive C3`; a bare"
        " `B5-C3` is a move along a line, else a draw (when your piece could also move along it, "
        "say which). Threads of Fate: `pick turn order`, `pick "
        "extra slack`, `pick woven revive` (or the buttons), `first`/`second`, `extra slack B5-C3`, "
        "`woven revive C3`."
    )

    # ---- the rule sets ----------------------------------------------------------------------

    #: The rule set a subclass plays (its ``variant``); the subclass of each is found by this name.
    rule_set: ClassVar[str] = ""
    #: The items a rule set deals out before play (Threads of Fate drafts them); none: no item is
    #: ever held, and an item's action is refused as having no place in the rule set.
    items_offered: ClassVar[tuple[str, ...]] = ()
    _rule_sets: ClassVar[dict[str, type[Tightwire]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rule_set" in vars(cls):
            if cls.rule_set not in cls.variants:
                raise TypeError(f"{cls.__name__} plays {cls.rule_set!r}, which is not one of {cls.variants}.")
            Tightwire._rule_sets[cls.rule_set] = cls

    def __new__(cls, *, seed: int = 0, variant: str | None = None) -> Self:
        """A game of the rule set ``variant`` names is an instance of that rule set's subclass
        (``Tightwire(variant="fate")`` is a ``ThreadsOfFate``); an unknown name is left to
        :class:`Game`'s check, which refuses it."""
        if variant is None and cls.rule_set:
            return object.__new__(cls)  # a rule set's own class, as a copy (pickle) makes its games: at once
        name = (variant or cls.rule_set or cls.variants[0]).strip().lower()
        rules = Tightwire._rule_sets.get(name, cls)
        if not issubclass(rules, cls):
            raise OptionError(
                say(
                    "{game} plays the rule set {rule_set}, not {variant}.",
                    game=Verbatim(cls.__name__),
                    rule_set=Verbatim(repr(cls.rule_set)),
                    variant=Verbatim(repr(variant)),
                )
            )
        return super().__new__(rules)

    def __init__(self, *, seed: int = 0, variant: str | None = None) -> None:
        super().__init__(seed=seed, variant=variant or self.rule_set or None)

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def text_board(cls, view: Mapping[str, Any]) -> list[str | Message] | None:
        """The dots and lines between neighbours, the longer lines listed, pieces off the board, items."""
        from geniusbot.games.tightwire.text import board_lines

        return board_lines(cast(TightwireView, view))  # a host passes the views of this game

    @classmethod
    def legend(cls, view: Mapping[str, Any]) -> dict[str, Message]:
        """Each seat's colour."""
        from geniusbot.games.tightwire.text import COLOUR_WORDS

        return {seat: COLOUR_WORDS[colour] for seat, colour in cast(TightwireView, view)["colors"].items() if colour}

    def setup(self, **options: str) -> None:
        """Lay out the preset or the explicit ``setup`` layout; validate every option."""
        board = options.get("board", "classic5").strip().lower()
        if board not in PRESETS:
            raise OptionError(
                say(
                    "There is no Tightwire board {board}; choose one of: {boards}.",
                    board=Verbatim(repr(board)),
                    boards=written(PRESETS),
                )
            )
        preset = PRESETS[board]
        p1_color = options.get("p1_color", ORANGE).strip().lower()
        if p1_color not in COLOURS:
            raise OptionError(say("p1_color must be orange or blue, not {value}.", value=Verbatim(repr(p1_color))))
        self.board_name = board
        self.cols, self.rows = preset.cols, preset.rows
        self.geo: BoardGeometry = geometry(self.cols, self.rows)
        self.colours = {"p1": p1_color, "p2": BLUE if p1_color == ORANGE else ORANGE}
        if options.get("setup"):
            layout, setup_lines = parse_layout(options["setup"], self.geo)
        else:
            layout = {ORANGE: list(preset.orange), BLUE: list(preset.blue)}
            setup_lines = []
        self.pieces: list[str | None] = [None] * self.geo.dot_count
        for colour in COLOURS:
            for name in layout[colour]:
                self.pieces[self._dot(name)] = colour
        self.lines: list[tuple[int, bool, str | None]] = []
        self.line_mask = 0
        self.neighbours: list[set[int]] = [set() for _ in range(self.geo.dot_count)]
        for pid in setup_lines:
            self._add_line(pid, False, None)
        self.captured = {ORANGE: 0, BLUE: 0}
        self.slack_left = {"p1": 1, "p2": 1}
        self.items: dict[str, list[str]] = {"p1": [], "p2": []}
        self.draft_picks: list[tuple[str, str]] = []
        self._phase = "play"
        self.first: str | None = "p1"
        self.turn = "p1"
        self.last_move: str | None = None
        self.last_path: list[str] = []
        self.captured_last: list[str] = []
        self.captured_last_colours: dict[str, str] = {}
        self.move_number = 0
        # The positions of play, for a rule set that forbids repeating one (see _record_position).
        self.history: list[str] = []
        self._seen: set[str] = set()

    # ---- small helpers ------------------------------------------------------------------

    def _dot(self, name: str) -> int:
        dot = self.geo.dot_of.get(name)
        if dot is not None:
            return dot
        point = parse_point(name, self.cols, self.rows)
        return self.geo.index(point.col, point.row)

    def _add_line(self, pid: int, slack: bool, by: str | None) -> None:
        self.lines.append((pid, slack, by))
        self.line_mask |= 1 << pid
        i, j = self.geo.pairs[pid]
        self.neighbours[i].add(j)
        self.neighbours[j].add(i)

    def _lines_at(self, dot: int) -> int:
        return (self.line_mask & self.geo.at_dot[dot]).bit_count()

    def _every_dot_has_a_line(self) -> bool:
        return all(self.line_mask & at for at in self.geo.at_dot)

    def _count(self, colour: str) -> int:
        return sum(1 for piece in self.pieces if piece == colour)

    @property
    def phase(self) -> str:
        """``draft``, ``order``, ``play`` or ``over``."""
        return "over" if self.is_over else self._phase

    # ---- whose turn -------------------------------------------------------------------

    def to_move(self) -> tuple[str, ...]:
        """The one seat that may act: the player to move, or the seat that acts before play."""
        if self.is_over:
            return ()
        return (self.turn,) if self._phase == "play" else (self._seat_before_play(),)

    # ---- captures -----------------------------------------------------------------------

    def _captures(self, pieces: list[str | None], mover: str) -> list[int]:
        """Remove (in ``pieces``) what the rules capture after ``mover``'s action; return the dots.

        The aggressor's advantage: the opponent's pieces go first, then the mover's own pieces
        only if still surrounded by what is left."""
        enemy = BLUE if mover == ORANGE else ORANGE
        taken = self._take_surrounded(pieces, enemy, mover)
        return taken + self._take_surrounded(pieces, mover, enemy)

    def _take_surrounded(self, pieces: list[str | None], colour: str, by: str) -> list[int]:
        """Remove (in ``pieces``) the ``colour`` pieces joined by single lines to two or more ``by``
        pieces; return their dots."""
        neighbours = self.neighbours
        taken = [
            dot
            for dot, piece in enumerate(pieces)
            if piece == colour and sum(1 for n in neighbours[dot] if pieces[n] == by) >= 2
        ]
        for dot in taken:
            pieces[dot] = None
        return taken

    # ---- legality -----------------------------------------------------------------------

    def _free_move(self, pid: int, colour: str, pieces: list[str | None]) -> tuple[int, int] | None:
        """The (from, to) of the free move along line ``pid``, if one end holds ``color`` and the other is empty."""
        i, j = self.geo.pairs[pid]
        if pieces[i] == colour and pieces[j] is None:
            return i, j
        if pieces[j] == colour and pieces[i] is None:
            return j, i
        return None

    def _repeats(self, seat: str, frm: int | None, to: int) -> bool:
        """Whether ``seat``'s move ``frm`` -> ``to`` (a revive onto ``to`` when ``frm`` is None) would
        repeat a position the rule set forbids repeating. Lines only ever accumulate, so a draw
        always makes a new position; only moves and revives can come back to an old one."""
        return False

    def _record_position(self, to_move: str) -> None:
        """Keep the position now, ``to_move`` to act, for :meth:`_repeats` (a rule set that forbids
        repeats keeps it in ``history``)."""

    def _play_actions(self, seat: str) -> Iterator[TightwireMove]:
        """Every legal action of ``seat`` in the play phase (the fast path of the legality rules)."""
        geo, mask, pieces = self.geo, self.line_mask, self.pieces
        names = geo.names
        colour = self.colours[seat]
        kinds_all: list[str] = []
        if self.slack_left[seat]:
            kinds_all.append("slack")
        elif EXTRA_SLACK in self.items[seat]:
            kinds_all.append("extra_slack")
        crossing = geo.crossing
        for pid, (i, j) in enumerate(geo.pairs):
            if mask >> pid & 1:
                continue
            kinds = kinds_all if crossing[pid] & mask else ["draw", *kinds_all]
            if not kinds:
                continue
            free = self._free_move(pid, colour, pieces)
            for kind in kinds:
                yield TightwireMove(seat, kind, names[i], names[j])
                if free:
                    yield TightwireMove(seat, kind, names[free[0]], names[free[1]], True)
        for pid, _slack, _by in self.lines:
            free = self._free_move(pid, colour, pieces)
            if free and not self._repeats(seat, free[0], free[1]):
                yield TightwireMove(seat, "move", names[free[0]], names[free[1]])
        if self.captured[colour]:
            woven = WOVEN_REVIVE in self.items[seat] and not self._every_dot_has_a_line()
            for dot in range(geo.dot_count):
                if pieces[dot] is not None:
                    continue
                count = (mask & geo.at_dot[dot]).bit_count()
                if count == 0 and not self._repeats(seat, None, dot):
                    yield TightwireMove(seat, "revive", names[dot])
                elif count == 1 and woven and not self._repeats(seat, None, dot):
                    yield TightwireMove(seat, "woven_revive", names[dot])

    def legal_moves(self, seat: str | None = None) -> Iterator[Move]:
        """Every legal action of ``seat`` (default: the seat to move), in canonical form."""
        movers = self.to_move()
        seats = movers if seat is None else [s for s in movers if s == seat]
        for s in seats:
            yield from self._play_actions(s) if self._phase == "play" else self._moves_before_play(s)

    def has_legal_action(self, seat: str) -> bool:
        """Whether ``seat`` could act if it were to move now (in the play phase)."""
        return next(self._play_actions(seat), None) is not None

    def _check(self, move: TightwireMove) -> TightwireMove:
        """Return ``move`` if it is legal now, else raise the error that tells the player why."""
        if self._phase != "play":
            return self._check_before_play(move)
        if move.action in ("pick", "order"):
            raise self._no_draft_now()
        if move.action in DRAW_ACTIONS:
            return self._check_draw(move)
        if move.action == "move":
            return self._check_move(move)
        if move.action in ("revive", "woven_revive"):
            return self._check_revive(move)
        raise MalformedMoveError(self._play_help())

    def _check_draw(self, move: TightwireMove) -> TightwireMove:
        seat, kind = move.seat, move.action
        a, b = self._dot(move.a or ""), self._dot(move.b or "")
        names = self.geo.names
        line = Verbatim(f"{names[a]}-{names[b]}")
        end_a, end_b = Verbatim(names[a]), Verbatim(names[b])
        if a == b:
            raise IllegalMoveError(say("A line joins two different dots; name two dots, such as B5-C3."))
        pid = self.geo.pair_id.get((a, b))
        if pid is None:
            over = names[self.geo.dots_between(a, b)[0]]
            raise IllegalMoveError(
                say(
                    "{line} would pass over the dot {over}; a line may not pass over a dot. Choose another line.",
                    line=line,
                    over=Verbatim(over),
                )
            )
        if self.line_mask >> pid & 1:
            if self._free_move(pid, self.colours[seat], self.pieces):
                raise IllegalMoveError(
                    say(
                        "There is already a line between {a} and {b}; to move along it write `move {line}`, "
                        "or choose another line.",
                        line=line,
                        a=end_a,
                        b=end_b,
                    )
                )
            raise IllegalMoveError(
                say("There is already a line between {a} and {b}; choose another line.", a=end_a, b=end_b)
            )
        if kind == "draw":
            crossed = self.geo.crossed_lines(pid, self.line_mask)
            if crossed:
                other = Verbatim(line_name(self.geo, crossed[0]))
                if self.slack_left[seat]:
                    raise IllegalMoveError(
                        say(
                            "{line} crosses the line {other}; choose another line, "
                            "or write `slack {line}` to use your slack line.",
                            line=line,
                            other=other,
                        )
                    )
                if EXTRA_SLACK in self.items[seat]:
                    raise IllegalMoveError(
                        say(
                            "{line} crosses the line {other}; choose another line, "
                            "or write `extra slack {line}` to weave your {item}.",
                            line=line,
                            other=other,
                            item=ITEM_NAMES[EXTRA_SLACK],
                        )
                    )
                raise IllegalMoveError(
                    say("{line} crosses the line {other}; choose another line.", line=line, other=other)
                )
        elif kind == "slack":
            if not self.slack_left[seat]:
                if EXTRA_SLACK in self.items[seat]:
                    raise IllegalMoveError(
                        say(
                            "You have used your slack line; write `extra slack {line}` to weave your {item}.",
                            line=line,
                            item=ITEM_NAMES[EXTRA_SLACK],
                        )
                    )
                raise IllegalMoveError(
                    say("You have used your slack line; draw a line that crosses no other, move a piece or revive one.")
                )
        else:
            if EXTRA_SLACK not in self.items_offered:
                raise IllegalMoveError(
                    say(
                        "There are no items in this rule set, so there is no {item} to weave.",
                        item=ITEM_NAMES[EXTRA_SLACK],
                    )
                )
            if EXTRA_SLACK not in self.items[seat]:
                raise IllegalMoveError(
                    say(
                        "You do not hold the {item}; draw a normal line or use your slack line.",
                        item=ITEM_NAMES[EXTRA_SLACK],
                    )
                )
            if self.slack_left[seat]:
                raise IllegalMoveError(
                    say(
                        "The {item} is woven only after your first slack line; write `slack {line}` first.",
                        item=ITEM_NAMES[EXTRA_SLACK],
                        line=line,
                    )
                )
        free = self._free_move(pid, self.colours[seat], self.pieces)
        if move.and_move:
            if free is None:
                raise IllegalMoveError(
                    say(
                        "You can move along the new line only if one end holds your piece and the other end is "
                        "empty; write {command} to draw the line alone.",
                        command=command(f"{VERBS[kind]} {line.text}"),
                    )
                )
            return TightwireMove(seat, kind, names[free[0]], names[free[1]], True)
        lo, hi = sorted((a, b))
        return TightwireMove(seat, kind, names[lo], names[hi])

    def _check_move(self, move: TightwireMove) -> TightwireMove:
        seat = move.seat
        a, b = self._dot(move.a or ""), self._dot(move.b or "")
        names = self.geo.names
        line = Verbatim(f"{names[a]}-{names[b]}")
        end_a, end_b = Verbatim(names[a]), Verbatim(names[b])
        if a == b:
            raise IllegalMoveError(
                say("A move goes from one dot to another along a line; name two dots, such as B5-C3.")
            )
        pid = self.geo.pair_id.get((a, b))
        if pid is None or not self.line_mask >> pid & 1:
            if pid is None:
                over = names[self.geo.dots_between(a, b)[0]]
                raise IllegalMoveError(
                    say(
                        "There is no line between {a} and {b}, and there can be none: it would pass over {over}. "
                        "Choose another move.",
                        over=Verbatim(over),
                        a=end_a,
                        b=end_b,
                    )
                )
            raise IllegalMoveError(
                say(
                    "There is no line between {a} and {b}; to draw one write `draw {line}`.",
                    line=line,
                    a=end_a,
                    b=end_b,
                )
            )
        colour = self.colours[seat]
        free = self._free_move(pid, colour, self.pieces)
        if free is None:
            held = (self.pieces[a], self.pieces[b])
            if colour not in held:
                raise IllegalMoveError(
                    say("Neither {a} nor {b} holds one of your pieces; move one of your own pieces.", a=end_a, b=end_b)
                )
            if held == (colour, colour):
                raise IllegalMoveError(
                    say("Both {a} and {b} hold your pieces; a piece moves only to an empty dot.", a=end_a, b=end_b)
                )
            target = b if self.pieces[a] == colour else a
            dot = Verbatim(names[target])
            if self.pieces[target] == ORANGE:
                raise IllegalMoveError(say("{dot} holds an orange piece; a piece moves only to an empty dot.", dot=dot))
            raise IllegalMoveError(say("{dot} holds a blue piece; a piece moves only to an empty dot.", dot=dot))
        if self._repeats(seat, free[0], free[1]):
            raise IllegalMoveError(
                say("That move would repeat an earlier position, which Deadly Influx forbids; choose another action.")
            )
        return TightwireMove(seat, "move", names[free[0]], names[free[1]])

    def _check_revive(self, move: TightwireMove) -> TightwireMove:
        seat, kind = move.seat, move.action
        dot = self._dot(move.a or "")
        name = self.geo.names[dot]
        at = Verbatim(name)
        woven = ITEM_NAMES[WOVEN_REVIVE]
        colour = self.colours[seat]
        holds_woven = WOVEN_REVIVE in self.items[seat]
        if kind == "woven_revive":
            if WOVEN_REVIVE not in self.items_offered:
                raise IllegalMoveError(
                    say("There are no items in this rule set; write `revive {dot}` to revive a piece.", dot=at)
                )
            if not holds_woven:
                raise IllegalMoveError(
                    say(
                        "You do not hold the {item}; revive onto an empty dot with no line with `revive {dot}`.",
                        item=woven,
                        dot=at,
                    )
                )
        if not self.captured[colour]:
            raise IllegalMoveError(say("You have no captured piece to revive; draw a line or move a piece."))
        if self.pieces[dot] is not None:
            if kind == "woven_revive":
                raise IllegalMoveError(say("{dot} is taken; revive onto an empty dot with exactly one line.", dot=at))
            raise IllegalMoveError(say("{dot} is taken; revive onto an empty dot with no line at it.", dot=at))
        count = self._lines_at(dot)
        if kind == "revive" and count:
            if holds_woven and count == 1 and not self._every_dot_has_a_line():
                raise IllegalMoveError(
                    say(
                        "{dot} has a line at it; revive onto an empty dot with no line at it, "
                        "or write `woven revive {dot}` to use your {item}.",
                        dot=at,
                        item=woven,
                    )
                )
            raise IllegalMoveError(say("{dot} has a line at it; revive onto an empty dot with no line at it.", dot=at))
        if kind == "woven_revive":
            if self._every_dot_has_a_line():
                raise IllegalMoveError(
                    say("Every dot has a line now, so the {item} can no longer be used.", item=woven)
                )
            if count == 0:
                raise IllegalMoveError(
                    say(
                        "{dot} has no line at it; the {item} places a piece on an empty dot with exactly one line, "
                        "and `revive {dot}` revives onto this one without spending it.",
                        dot=at,
                        item=woven,
                    )
                )
            if count != 1:
                raise IllegalMoveError(
                    say_n(
                        "{dot} has {n} line at it; the {item} places a piece on an empty dot with exactly one line.",
                        "{dot} has {n} lines at it; the {item} places a piece on an empty dot with exactly one line.",
                        n=count,
                        dot=at,
                        item=woven,
                    )
                )
        if self._repeats(seat, None, dot):
            raise IllegalMoveError(
                say("That revive would repeat an earlier position, which Deadly Influx forbids; choose another action.")
            )
        return TightwireMove(seat, kind, name)

    @staticmethod
    def _play_help() -> Message:
        return say(
            "Write a line such as `draw B5-C3` (or `slack B5-C3`, optionally followed by `and move`), "
            "a move such as `move B5-C3`, or `revive C3`."
        )

    # ---- parsing ------------------------------------------------------------------------

    def parse_move(self, text: str, seat: str, *, private: bool = False) -> Move:
        """The legal action ``text`` names for ``seat``, or a :class:`GameError` that says what to write."""
        self.require_turn(seat)
        self.require_room(private)
        words = normalize(text)
        if self._phase != "play":
            return self._parse_before_play(words, seat)
        if match := RE_MOVE.match(words):
            self._dot(match.group(1)), self._dot(match.group(2))
            return self._check(TightwireMove(seat, "move", match.group(1).upper(), match.group(2).upper()))
        if match := RE_REVIVE.match(words):
            self._dot(match.group(2))
            kind = "revive" if match.group(1) == "revive" else "woven_revive"
            return self._check(TightwireMove(seat, kind, match.group(2).upper()))
        if match := RE_DRAW.match(words):
            verb, a, b, and_move = match.groups()
            self._dot(a), self._dot(b)
            a, b, and_move = a.upper(), b.upper(), bool(and_move)
            if verb is not None:
                kind = "draw" if verb == "draw" else "extra_slack" if verb.startswith("extra") else "slack"
                return self._check(TightwireMove(seat, kind, a, b, and_move))
            return self._parse_bare(seat, a, b, and_move)
        if RE_PICK.match(words) or RE_ORDER.match(words):
            raise self._no_draft_now()
        raise MalformedMoveError(self._play_help())

    def _no_draft_now(self) -> IllegalMoveError:
        """A draft pick or a Turn Order choice in a rule set with neither (one with a draft says it is settled)."""
        return IllegalMoveError(
            say(
                "There is no draft or {item} in this rule set (only in Threads of Fate); "
                "make a move of play, such as `draw B5-C3`.",
                item=ITEM_NAMES[TURN_ORDER],
            )
        )

    def _parse_bare(self, seat: str, a: str, b: str, and_move: bool) -> TightwireMove:
        """A bare ``B5-C3``: a move along an existing line, otherwise a draw."""
        i, j = self._dot(a), self._dot(b)
        pid = self.geo.pair_id.get((i, j))
        if pid is not None and self.line_mask >> pid & 1:
            if and_move:
                raise IllegalMoveError(
                    say(
                        "There is already a line between {a} and {b}; to move along it write `move {a}-{b}`.",
                        a=Verbatim(a),
                        b=Verbatim(b),
                    )
                )
            return self._check(TightwireMove(seat, "move", a, b))
        draw = self._check(TightwireMove(seat, "draw", a, b, and_move))
        if not and_move and pid is not None and self._free_move(pid, self.colours[seat], self.pieces):
            raise AmbiguousMoveError(
                say(
                    "{a}-{b} could mean drawing the line alone or drawing it and moving your piece along it; "
                    "write `draw {a}-{b}` or `draw {a}-{b} and move`.",
                    a=Verbatim(a),
                    b=Verbatim(b),
                )
            )
        return draw

    # ---- playing ------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Apply a legal action and return what the room is told (captures and the end included)."""
        if not isinstance(move, TightwireMove):
            raise MalformedMoveError(say("That is not a Tightwire move."))
        self.require_turn(move.seat)
        move = self._check(move)
        if self._phase != "play":
            return self._play_before_play(move)
        return self._play_action(move)

    def _play_action(self, move: TightwireMove) -> list[Event]:
        seat, kind = move.seat, move.action
        colour = self.colours[seat]
        a = self._dot(move.a or "")
        path = [move.a or ""]
        if kind in DRAW_ACTIONS:
            b = self._dot(move.b or "")
            self._add_line(self.geo.pair_id[(a, b)], kind != "draw", seat)
            if kind == "slack":
                self.slack_left[seat] -= 1
            elif kind == "extra_slack":
                self.items[seat].remove(EXTRA_SLACK)
            if move.and_move:
                self.pieces[a], self.pieces[b] = None, colour
            path.append(move.b or "")
        elif kind == "move":
            b = self._dot(move.b or "")
            self.pieces[a], self.pieces[b] = None, colour
            path.append(move.b or "")
        else:
            self.pieces[a] = colour
            self.captured[colour] -= 1
            if kind == "woven_revive":
                self.items[seat].remove(WOVEN_REVIVE)
        before = list(self.pieces)
        taken = self._captures(self.pieces, colour)
        for dot in taken:
            self.captured[before[dot] or colour] += 1
        self.move_number += 1
        self.last_move, self.last_path = move.text(), path
        self.captured_last = [self.geo.names[d] for d in taken]
        self.captured_last_colours = {self.geo.names[d]: before[d] or colour for d in taken}
        events = [
            Event.of(
                action_said(move, colour),
                kind=TightwireEvent.MOVE,
                data={"seat": seat, "move": move.text(), "path": path},
            )
        ]
        opponent = other_seat(seat)
        # The capture lines in the rule's order: the opponent's pieces go first, then the mover's.
        for owner in (opponent, seat):
            loser_colour = self.colours[owner]
            dots = [self.geo.names[d] for d in taken if before[d] == loser_colour]
            if dots:
                events.append(
                    Event.of(
                        say_n(
                            "{colour} ({seat}) loses the piece on {dots}.",
                            "{colour} ({seat}) loses the pieces on {dots}.",
                            n=len(dots),
                            colour=COLOUR_NAMES[loser_colour],
                            seat=Seat(owner),
                            dots=written(dots),
                        ),
                        kind=TightwireEvent.CAPTURE,
                        data={"color": loser_colour, "dots": dots},
                    )
                )
        # The end is checked after the captures, the opponent first.
        for loser in (opponent, seat):
            left = self._count(self.colours[loser])
            if left <= 1:
                who, whose = COLOUR_NAMES[self.colours[loser]], Seat(loser)
                return events + self.end(
                    other_seat(loser),
                    Termination.CAPTURE,
                    # The host's caption names the winner; the reason says why the loser lost.
                    say("{colour} ({seat}) has one piece left on the board and loses", colour=who, seat=whose)
                    if left == 1
                    else say("{colour} ({seat}) has no piece left on the board and loses", colour=who, seat=whose),
                    verdict="",
                    seat=loser,
                    pieces=left,
                )
        self.turn = opponent
        self._record_position(opponent)
        if not self.has_legal_action(opponent):
            events += self.end(
                seat,
                Termination.NO_LEGAL_ACTION,
                say(
                    "{colour} ({seat}) has no legal action and loses",
                    colour=COLOUR_NAMES[self.colours[opponent]],
                    seat=Seat(opponent),
                ),
                verdict="",
                seat=opponent,
            )
        return events

    # ---- what a seat sees ---------------------------------------------------------------

    def view(self, seat: str | None = None) -> TightwireView:
        """The whole position (Tightwire hides nothing); the keys are listed in the module docstring."""
        names = self.geo.names
        return {
            **self.base_view(),
            "board": self.board_name,
            "cols": self.cols,
            "rows": self.rows,
            "phase": self.phase,
            "pieces": {names[d]: p for d, p in enumerate(self.pieces) if p is not None},
            "colors": dict(self.colours),
            "lines": [
                {"a": names[self.geo.pairs[pid][0]], "b": names[self.geo.pairs[pid][1]], "slack": slack, "by": by}
                for pid, slack, by in self.lines
            ],
            "captured": dict(self.captured),
            "slack_left": dict(self.slack_left),
            "items": {s: list(v) for s, v in self.items.items()},
            "draft": self._draft_view(),
            "last_move": self.last_move,
            "last_path": list(self.last_path),
            "captured_last": list(self.captured_last),
            "captured_last_colors": dict(self.captured_last_colours),
            "first": self.first,
            "move_number": self.move_number,
        }

    # ---- the phases before play: a rule set that has some (a draft) overrides these -------
    # A rule set without one starts in play and stays there, so these are what "no phase before
    # play" means: the seat to move is the turn's, nothing is legal, and a draft's or Turn Order's
    # move is refused with what to type instead.

    def _seat_before_play(self) -> str:
        """The seat that acts now, before play."""
        return self.turn

    def _moves_before_play(self, seat: str) -> Iterator[TightwireMove]:
        """The legal moves of ``seat`` before play."""
        return iter(())

    def _check_before_play(self, move: TightwireMove) -> TightwireMove:
        """``move`` if it is legal before play, else the error that tells the player why."""
        raise self._no_draft_now()

    def _parse_before_play(self, words: str, seat: str) -> TightwireMove:
        """The legal move that ``words`` (as :func:`normalize` gives them) names before play."""
        raise self._no_draft_now()

    def _play_before_play(self, move: TightwireMove) -> list[Event]:
        """Play ``move`` (legal) before play and say what happened."""
        raise self._no_draft_now()

    def _draft_view(self) -> Draft | None:
        """The view's ``draft``: ``None`` in a rule set without one."""
        return None

    # ---- serialisation ------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild the game, the influx position history included."""
        return {
            "board": self.board_name,
            "cols": self.cols,
            "rows": self.rows,
            "colors": dict(self.colours),
            "pieces": {self.geo.names[d]: p for d, p in enumerate(self.pieces) if p is not None},
            "lines": [[line_name(self.geo, pid), slack, by] for pid, slack, by in self.lines],
            "captured": dict(self.captured),
            "slack_left": dict(self.slack_left),
            "items": {s: list(v) for s, v in self.items.items()},
            "draft_picks": [[s, i] for s, i in self.draft_picks],
            "phase": self._phase,
            "turn": self.turn,
            "first": self.first,
            "last_move": self.last_move,
            "last_path": list(self.last_path),
            "captured_last": list(self.captured_last),
            "captured_last_colors": dict(self.captured_last_colours),
            "move_number": self.move_number,
            "history": list(self.history),
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        """Restore what :meth:`state_dict` gave."""
        self.board_name = data["board"]
        self.cols, self.rows = int(data["cols"]), int(data["rows"])
        self.geo = geometry(self.cols, self.rows)
        self.colours = dict(data["colors"])
        self.pieces = [None] * self.geo.dot_count
        for name, colour in data["pieces"].items():
            self.pieces[self._dot(name)] = colour
        self.lines, self.line_mask = [], 0
        self.neighbours = [set() for _ in range(self.geo.dot_count)]
        for line, slack, by in data["lines"]:
            a, b = line.split("-")
            self._add_line(self.geo.pair_id[(self._dot(a), self._dot(b))], bool(slack), by)
        self.captured = dict(data["captured"])
        self.slack_left = dict(data["slack_left"])
        self.items = {s: list(v) for s, v in data["items"].items()}
        self.draft_picks = [(s, i) for s, i in data["draft_picks"]]
        self._phase = data["phase"]
        self.turn = data["turn"]
        self.first = data["first"]
        self.last_move = data["last_move"]
        self.last_path = list(data["last_path"])
        self.captured_last = list(data["captured_last"])
        # Games saved before the colours were kept: the ghosts fall back to the default shape.
        self.captured_last_colours = dict(data.get("captured_last_colors") or {})
        self.move_number = int(data["move_number"])
        self.history = list(data["history"])
        self._seen = set(self.history)

    # ---- the practice opponent's hooks (see geniusbot.practice) --------------------------

    def search_moves(self, seat: str) -> list[Move] | None:
        """In play, the legal actions less the slack lines laid where a plain line may go (the
        slack is kept for a line that crosses)."""
        if self.is_over or self._phase != "play" or seat not in self.to_move():
            return None
        moves = list(self._play_actions(seat))
        plain = {(m.a, m.b) for m in moves if m.action == "draw"}
        return [m for m in moves if m.action not in ("slack", "extra_slack") or (m.a, m.b) not in plain] or None

    def rollout_move(self, seat: str, rng: random.Random) -> Move | None:
        """A quick play-out policy in play: a move along a line that takes an enemy piece when
        there is one, else a random plain line (now and then moving along it), else a random
        move along a line; ``None`` (a uniform draw of every action) when a few tries find none."""
        if self.is_over or self._phase != "play" or seat not in self.to_move():
            return None
        geo, mask, pieces, names = self.geo, self.line_mask, self.pieces, self.geo.names
        colour = self.colours[seat]
        enemy = BLUE if colour == ORANGE else ORANGE
        neighbours = self.neighbours
        # Each enemy piece and how many of the mover's pieces touch it: a step along a line
        # changes that count only for the pieces next to where it leaves and where it lands.
        touching = [
            (neighbours[dot], sum(1 for n in neighbours[dot] if pieces[n] == colour))
            for dot, piece in enumerate(pieces)
            if piece == enemy
        ]
        # The steps that take nothing; whether one repeats a position (Deadly Influx) is asked
        # only when a step is to be chosen (the question costs a whole position).
        quiet = []
        for pid, _slack, _by in self.lines:
            free = self._free_move(pid, colour, pieces)
            if free:
                frm, to = free
                if not any(count - (frm in near) + (to in near) >= 2 for near, count in touching):
                    quiet.append(free)
                elif not self._repeats(seat, frm, to):
                    return TightwireMove(seat, "move", names[frm], names[to])
        steps: list[tuple[int, int]] | None = None

        def allowed() -> list[tuple[int, int]]:
            nonlocal steps
            if steps is None:
                steps = [step for step in quiet if not self._repeats(seat, *step)]
            return steps

        some = any(not self._repeats(seat, *step) for step in quiet)
        if some and rng.random() < 0.3:
            frm, to = rng.choice(allowed())
            return TightwireMove(seat, "move", names[frm], names[to])
        for _ in range(12):
            pid = rng.randrange(len(geo.pairs))
            if mask >> pid & 1 or geo.crossing[pid] & mask:
                continue
            free = self._free_move(pid, colour, pieces)
            if free and rng.random() < 0.5:
                return TightwireMove(seat, "draw", names[free[0]], names[free[1]], True)
            i, j = geo.pairs[pid]
            return TightwireMove(seat, "draw", names[i], names[j])
        if some:
            frm, to = rng.choice(allowed())
            return TightwireMove(seat, "move", names[frm], names[to])
        return None

    def evaluate(self, seat: str) -> float | None:
        """The pieces: 0.5, and 0.15 more for each piece ``seat`` has on the board beyond the
        other seat (half that for a captured piece, which may be revived)."""
        own, theirs = self.colours[seat], self.colours[other_seat(seat)]
        lead = self._count(own) - self._count(theirs) + 0.5 * (self.captured[own] - self.captured[theirs])
        return min(0.95, max(0.05, 0.5 + 0.15 * lead))
