"""Tightwire's three rule sets, each a subclass of :class:`~geniusbot.games.tightwire.rules.Tightwire`
that names itself (``rule_set``), sets a class attribute or two and overrides a few hooks.

* :class:`ClassicTightwire` (``classic``, DM4 Tightwire) plays the shared rules as they are.
* :class:`DeadlyInflux` (``influx``) captures only for the mover and forbids repeating a position:
  it overrides :meth:`~Tightwire._captures`, and keeps the positions of play
  (:meth:`~Tightwire._record_position`) that :meth:`~Tightwire._repeats` looks up.
* :class:`ThreadsOfFate` (``fate``) offers the three items (``items_offered``) and opens with their
  draft and the Turn Order choice: it overrides the hooks of the phases before play (whose turn,
  which moves, how text is read, what a move does: ``_seat_before_play`` and the like) and the
  view's ``draft``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

from geniusbot.games.base import Event, GameError, IllegalMoveError, MalformedMoveError, Termination, other_seat
from geniusbot.games.tightwire.notation import (
    BLUE,
    COLOUR_NAMES,
    DRAFT_ORDER,
    ITEM_NAMES,
    ITEM_WORDS,
    ITEMS,
    ORANGE,
    RE_ORDER,
    RE_PICK,
    TURN_ORDER,
    TightwireEvent,
    TightwireMove,
    command,
    item_from_words,
)
from geniusbot.games.tightwire.rules import Tightwire
from geniusbot.games.tightwire.view import Draft
from geniusbot.words import Listing, Seat, say


class ClassicTightwire(Tightwire):
    """DM4 Tightwire: captures at once after every action, the opponent's pieces first."""

    rule_set = "classic"


class DeadlyInflux(Tightwire):
    """Genius Online's Deadly Influx: only the mover captures, and only the opponent's pieces (at the
    end of the turn); an action that recreates an earlier position, the start included, is illegal."""

    rule_set = "influx"

    def setup(self, **options: str) -> None:
        super().setup(**options)
        # Ruling: the start is an earlier position too (see docs/rules/tightwire.md).
        self._record_position(self.turn)

    def _captures(self, pieces: list[str | None], mover: str) -> list[int]:
        """Only the opponent's pieces surrounded by the mover's are taken; the mover's own stay."""
        return self._take_surrounded(pieces, BLUE if mover == ORANGE else ORANGE, mover)

    def _repeats(self, seat: str, frm: int | None, to: int) -> bool:
        return self._result_key(seat, frm, to) in self._seen

    def _record_position(self, to_move: str) -> None:
        key = self._position_key(self.pieces, self.line_mask, self.slack_left, self.captured, to_move)
        self.history.append(key)
        self._seen.add(key)

    def _result_key(self, seat: str, frm: int | None, to: int) -> str:
        """The position after ``seat`` moves ``frm`` -> ``to`` (or revives onto ``to`` when ``frm`` is None)."""
        colour = self.colours[seat]
        pieces = list(self.pieces)
        captured = dict(self.captured)
        if frm is None:
            captured[colour] -= 1
        else:
            pieces[frm] = None
        pieces[to] = colour
        before = list(pieces)
        for dot in self._captures(pieces, colour):
            captured[before[dot] or colour] += 1
        return self._position_key(pieces, self.line_mask, self.slack_left, captured, other_seat(seat))

    @staticmethod
    def _position_key(
        pieces: list[str | None],
        line_mask: int,
        slack_left: Mapping[str, int],
        captured: Mapping[str, int],
        to_move: str,
    ) -> str:
        board = "".join("." if p is None else p[0] for p in pieces)
        slack = f"{slack_left['p1']}{slack_left['p2']}"
        return f"{board}|{line_mask:x}|{slack}|{captured[ORANGE]}{captured[BLUE]}|{to_move}"


class ThreadsOfFate(Tightwire):
    """Threads of Fate: captures as ``classic``; first p1, p2, p1 draft the three items (the last pick
    is forced, so it is made at once), then the Turn Order holder says ``first`` or ``second``."""

    rule_set = "fate"
    items_offered: ClassVar[tuple[str, ...]] = ITEMS

    def setup(self, **options: str) -> None:
        super().setup(**options)
        # The draft comes first, and no one moves first until Turn Order says who.
        self._phase, self.first = "draft", None

    # ---- the draft and Turn Order, the phases before play ------------------------------------

    def _seat_before_play(self) -> str:
        """The drafting seat, then the Turn Order holder."""
        if self._phase == "draft":
            return DRAFT_ORDER[len(self.draft_picks)]
        return self._holder_of(TURN_ORDER) or "p1"

    def _moves_before_play(self, seat: str) -> Iterator[TightwireMove]:
        if self._phase == "draft":
            taken = {item for _, item in self.draft_picks}
            for item in self.items_offered:
                if item not in taken:
                    yield TightwireMove(seat, "pick", choice=item)
        else:
            yield TightwireMove(seat, "order", choice="first")
            yield TightwireMove(seat, "order", choice="second")

    def _check_before_play(self, move: TightwireMove) -> TightwireMove:
        seat = move.seat
        if self._phase == "draft":
            if move.action != "pick" or move.choice not in self.items_offered:
                raise self._draft_help()
            if self._holder_of(move.choice) is not None:
                raise IllegalMoveError(
                    say(
                        "{item} has already been picked; pick one of: {available}.",
                        item=ITEM_NAMES[move.choice],
                        available=self._available_words(),
                    )
                )
            return move
        if move.action != "order" or move.choice not in ("first", "second"):
            raise self._order_help(seat)
        return move

    def _parse_before_play(self, words: str, seat: str) -> TightwireMove:
        if self._phase == "draft":
            match = RE_PICK.match(words)
            if not match:
                raise self._draft_help()
            return self._check(TightwireMove(seat, "pick", choice=item_from_words(match.group(1))))
        match = RE_ORDER.match(words)
        if not match:
            raise self._order_help(seat)
        return self._check(TightwireMove(seat, "order", choice=match.group(1)))

    def _play_before_play(self, move: TightwireMove) -> list[Event]:
        return self._play_pick(move) if self._phase == "draft" else self._play_order(move)

    def _no_draft_now(self) -> IllegalMoveError:
        return IllegalMoveError(
            say("The draft and the turn order are settled; make a move of play, such as `draw B5-C3`.")
        )

    def _draft_view(self) -> Draft:
        return {
            "order": list(DRAFT_ORDER),
            "picks": [{"seat": s, "item": i} for s, i in self.draft_picks],
            "available": [i for i in self.items_offered if self._holder_of(i) is None],
        }

    def _holder_of(self, item: str) -> str | None:
        for seat, picked in self.draft_picks:
            if picked == item:
                return seat
        return None

    def _available_words(self) -> Listing:
        taken = {item for _, item in self.draft_picks}
        return Listing(tuple(command(f"pick {ITEM_WORDS[i]}") for i in self.items_offered if i not in taken))

    def _draft_help(self) -> GameError:
        return MalformedMoveError(
            say("The items are being drafted; write one of {available}.", available=self._available_words())
        )

    def _order_help(self, seat: str) -> GameError:
        return MalformedMoveError(
            say(
                "You hold {item}: write `first` to move first or `second` to let {other} move first.",
                item=ITEM_NAMES[TURN_ORDER],
                other=Seat(other_seat(seat)),
            )
        )

    def _play_pick(self, move: TightwireMove) -> list[Event]:
        seat, item = move.seat, str(move.choice)
        self.draft_picks.append((seat, item))
        self.items[seat].append(item)
        self.last_move, self.last_path, self.captured_last = move.text(), [], []
        self.captured_last_colours = {}
        events = [
            Event.of(
                say("{seat} picks {item}.", seat=Seat(seat), item=ITEM_NAMES[item]),
                kind=TightwireEvent.PHASE,
                data={"seat": seat, "item": item},
            )
        ]
        if len(self.draft_picks) == len(DRAFT_ORDER) - 1:
            # Ruling: the last pick is forced, so the host makes it at once.
            last_seat = DRAFT_ORDER[-1]
            (last,) = [i for i in self.items_offered if self._holder_of(i) is None]
            self.draft_picks.append((last_seat, last))
            self.items[last_seat].append(last)
            events.append(
                Event.of(
                    say("{seat} receives the last item, {item}.", seat=Seat(last_seat), item=ITEM_NAMES[last]),
                    kind=TightwireEvent.PHASE,
                    data={"seat": last_seat, "item": last},
                )
            )
            self._phase = "order"
            holder = self._holder_of(TURN_ORDER)
            assert holder is not None  # the draft is complete: every item has its holder
            events.append(
                Event.of(
                    say(
                        "{seat} holds {item}: `first` to move first, or `second` to let {other} move first.",
                        seat=Seat(holder),
                        item=ITEM_NAMES[TURN_ORDER],
                        other=Seat(other_seat(holder)),
                    ),
                    kind=TightwireEvent.PHASE,
                    data={"seat": holder},
                )
            )
        return events

    def _play_order(self, move: TightwireMove) -> list[Event]:
        seat = move.seat
        self.items[seat].remove(TURN_ORDER)
        self.first = seat if move.choice == "first" else other_seat(seat)
        self.turn = self.first
        self._phase = "play"
        self.last_move, self.last_path, self.captured_last = move.text(), [], []
        self.captured_last_colours = {}
        colour = self.colours[self.first]
        events = [
            Event.of(
                say(
                    "{seat} uses {item}: {first} ({colour}) moves first.",
                    seat=Seat(seat),
                    item=ITEM_NAMES[TURN_ORDER],
                    first=Seat(self.first),
                    colour=COLOUR_NAMES[colour],
                ),
                kind=TightwireEvent.PHASE,
                data={"seat": seat, "first": self.first},
            )
        ]
        if not self.has_legal_action(self.first):
            events += self.end(
                other_seat(self.first),
                Termination.NO_LEGAL_ACTION,
                say("{seat} has no legal action and loses", seat=Seat(self.first)),
                verdict="",
                seat=self.first,
            )
        return events
