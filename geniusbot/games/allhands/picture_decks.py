"""Dueling Decks: the card table.

Under the two player rows: the seven prize cards in their order (the current one raised in a
gold frame, each played one with the mark of the seat that won it, or "split"), then a panel
for each seat: points toward 25 and power left as bars, the hand as white cards with empty slots
up to the deck size, Backup's uses, and whether the sealed submission is in. The last round's
result closes the card.

Darkness-aware by construction: the renderer draws only what the view holds. A hand that is
``None`` (the opponent's under Darkness) shows as "hidden"; a round whose sums are ``None`` shows
only its winner; a prize value that is ``None`` shows as "?". The viewer's own sealed submission
(``sealed``, in no other view) is marked on its own panel only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.allhands.picture_common import SEAT_FILL, anomaly_heading, seat_sprite, seat_symbol
from geniusbot.games.allhands.view import DuelingDecksView
from geniusbot.render.layout import (
    FOOTER_HEIGHT,
    HEADER_HEIGHT,
    card_words,
    dotted,
    draw_footer,
    draw_header,
    heading,
    named,
    outcome_line,
    player_rows,
    title_of,
    words_of,
)
from geniusbot.render.palette import ink, new_canvas
from geniusbot.render.sprites import Sprite, paste, paste_centred
from geniusbot.render.text import draw_text, fit_text
from geniusbot.words import ENGLISH, Argument, Message, Seat, Verbatim, Words, say

WIDTH = 900
PRIZE_TOP = HEADER_HEIGHT + 10
PRIZE_W, PRIZE_H, PRIZE_GAP = 92, 118, 18
PRIZE_BAND = 44 + PRIZE_H + 56
PANEL_TOP = PRIZE_TOP + PRIZE_BAND
PANEL_H = 232
CARD_W, CARD_H, CARD_GAP = 96, 128, 16
LAST_H = 84
HEIGHT = PANEL_TOP + 2 * PANEL_H + LAST_H + FOOTER_HEIGHT
LABEL_SIZE = 24
VALUE_SIZE = 48
BAR_W = 430


def canvas_size() -> tuple[int, int]:
    """The picture's width and height (the same for every view)."""
    return WIDTH, HEIGHT


def number(value: Any) -> str:
    """A sum or a score as a player reads it: 12, 12.5, 0.1."""
    if value is None:
        return "?"
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


def prize_xy(index: int) -> tuple[int, int]:
    """The top-left corner of prize card ``index`` (0-6)."""
    total = 7 * PRIZE_W + 6 * PRIZE_GAP
    left = (WIDTH - total) // 2
    return left + index * (PRIZE_W + PRIZE_GAP), PRIZE_TOP + 44


def panel_top(seat: str) -> int:
    """The top of ``seat``'s panel."""
    return PANEL_TOP + (0 if seat == "p1" else PANEL_H)


def card_xy(seat: str, index: int) -> tuple[int, int]:
    """The top-left corner of the ``index``-th card slot of ``seat``'s hand."""
    return 22 + index * (CARD_W + CARD_GAP), panel_top(seat) + 88


@lru_cache(maxsize=4)
def background(language: str = ENGLISH) -> Image.Image:
    """The static part: the labels (in ``language``) and the rules between the parts of the card."""
    canvas = new_canvas(canvas_size())
    draw = ImageDraw.Draw(canvas)
    draw_text(canvas, (22, PRIZE_TOP + 20), Words(language)(say("Prizes, in order")), LABEL_SIZE, fg="muted")
    for top in (PANEL_TOP, PANEL_TOP + PANEL_H, PANEL_TOP + 2 * PANEL_H):
        draw.line([(0, top - 4), (WIDTH, top - 4)], fill=ink("band"), width=2)
    return canvas


@lru_cache(maxsize=256)
def card_sprite(value: str, kind: str) -> Sprite:
    """A card: ``kind`` ``hand`` (white), ``prize`` (wood), ``empty`` (a dashed slot) or
    ``pending`` (a dashed gold slot with the value of a sealed creation)."""
    width, height = (PRIZE_W, PRIZE_H) if kind == "prize" else (CARD_W, CARD_H)
    if kind in ("empty", "pending"):
        image = new_canvas((width, height), "page")
        draw = ImageDraw.Draw(image)
        dash = 10
        edge = ink("ghost" if kind == "empty" else "accent")
        for x in range(0, width, 2 * dash):
            draw.rectangle([x, 0, min(x + dash, width) - 1, 2], fill=edge)
            draw.rectangle([x, height - 3, min(x + dash, width) - 1, height - 1], fill=edge)
        for y in range(0, height, 2 * dash):
            draw.rectangle([0, y, 2, min(y + dash, height) - 1], fill=edge)
            draw.rectangle([width - 3, y, width - 1, min(y + dash, height) - 1], fill=edge)
        if kind == "pending" and value:
            size = VALUE_SIZE if len(value) <= 2 else VALUE_SIZE * 2 // 3
            draw_text(image, (width / 2, height / 2), value, size, fg="accent", bold=True, anchor="m", notation=True)
        return Sprite(image, None)
    face = "wood" if kind == "prize" else "white_stone"
    image = new_canvas((width, height), face)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width - 1, height - 1], outline=ink("black_stone"), width=2)
    size = VALUE_SIZE if len(value) <= 2 else VALUE_SIZE * 2 // 3
    draw_text(
        image, (width / 2, height / 2), value, size, fg="black_stone", bg=face, bold=True, anchor="m", notation=True
    )
    return Sprite(image, None)


def _bar(draw: ImageDraw.ImageDraw, x: int, y: int, fraction: float, fill: str, ticks: int = 0) -> None:
    """A bar of ``BAR_W`` pixels, filled to ``fraction``."""
    h = 16
    draw.rectangle([x, y, x + BAR_W, y + h], fill=ink("band"))
    filled = int(round(BAR_W * max(0.0, min(1.0, fraction))))
    if filled:
        draw.rectangle([x, y, x + filled, y + h], fill=ink(fill))
    for k in range(1, ticks):
        tx = x + BAR_W * k // ticks
        draw.line([(tx, y), (tx, y + h)], fill=ink("page"), width=2)


def _prizes(canvas: Image.Image, view: DuelingDecksView, words: Words) -> None:
    draw = ImageDraw.Draw(canvas)
    prizes: Sequence[Any] = view["prizes"]
    history = {int(h.get("round", 0)): h for h in view["history"]}
    current = view["round"] if view["phase"] != "over" else 0
    for index in range(len(prizes)):
        x, y = prize_xy(index)
        rnd = index + 1
        value = prizes[index]
        played = history.get(rnd)
        if value is None and played is not None:
            value = played.get("prize")  # Pick Your Prize: a value once the round gave it one
        if rnd == current:
            draw.rectangle([x - 7, y - 7, x + PRIZE_W + 6, y + PRIZE_H + 6], fill=ink("accent"))
        paste(canvas, card_sprite(number(value), "prize"), (x, y))
        below = y + PRIZE_H + 26
        if played is not None:
            winner = played.get("winner")
            if winner in SEAT_FILL:
                paste_centred(canvas, seat_sprite(str(winner), 14, "page"), (x + PRIZE_W / 2, below))
            else:
                draw_text(canvas, (x + PRIZE_W / 2, below), words(say("split")), 22, fg="muted", anchor="m")
        elif rnd == current:
            draw_text(canvas, (x + PRIZE_W / 2, below), words(say("now")), 22, fg="accent", bold=True, anchor="m")


def _sealed_cards(view: DuelingDecksView) -> tuple[list[Any], int]:
    sealed = view["sealed"] or {}
    if not isinstance(sealed, Mapping):
        return [], 0
    return list(sealed.get("cards") or []), int(sealed.get("backup") or 0)


def _panel(canvas: Image.Image, view: DuelingDecksView, seat: str, words: Words, own: bool) -> None:
    draw = ImageDraw.Draw(canvas)
    top = panel_top(seat)
    name = fit_text(words(named(seat)), 28, 220, True)
    paste_centred(canvas, seat_sprite(seat, 14, "page"), (36, top + 26))
    draw_text(canvas, (60, top + 26), name, 28, bold=True)
    points = view["points"].get(seat)
    power = view["power"].get(seat)
    right = WIDTH - 22
    bar_x = right - BAR_W
    target, start_power = view["target"], view["start_power"]
    said = say("{points} / {target} pts", points=Verbatim(number(points)), target=int(target))
    draw_text(canvas, (bar_x - 14, top + 20), words(said), LABEL_SIZE, anchor="r")
    _bar(draw, bar_x, top + 12, (float(points) / target) if points is not None else 0.0, SEAT_FILL[seat], 5)
    said = say("power {power}", power=Verbatim(number(power)))
    draw_text(canvas, (bar_x - 14, top + 56), words(said), LABEL_SIZE, fg="muted", anchor="r")
    _bar(draw, bar_x, top + 48, (float(power) / start_power) if power is not None else 0.0, "muted")

    hands = view["hands"]
    hand = hands.get(seat) if isinstance(hands, Mapping) else None
    deck_size = view["deck_size"]
    sealed_cards, sealed_backup = _sealed_cards(view) if own else ([], 0)
    phase = view["phase"]
    if hand is None:
        # Darkness: the hand is unknown, but every creation is public.
        x, y = card_xy(seat, 0)
        draw_text(canvas, (x, y + 18), words(say("hand hidden (Darkness)")), LABEL_SIZE, fg="muted")
        made = [
            " ".join(number(v) for v in (entry.get("cards") or {}).get(seat) or [])
            for entry in view["created"]
            if isinstance(entry.get("cards"), Mapping)
        ]
        made = [m for m in made if m]
        if made:
            text = fit_text(words(say("created: {cards}", cards=Verbatim(" | ".join(made)))), LABEL_SIZE, 330)
            draw_text(canvas, (x, y + 54), text, LABEL_SIZE, fg="muted")
    else:
        marked = Counter(sealed_cards) if phase == "play" else Counter()
        pending = list(sealed_cards) if phase == "create" else []
        for index in range(deck_size):
            x, y = card_xy(seat, index)
            if index < len(hand):
                value = hand[index]
                if marked[value] > 0:
                    # The viewer's own sealed play: those cards framed in gold.
                    marked[value] -= 1
                    draw.rectangle([x - 6, y - 6, x + CARD_W + 5, y + CARD_H + 5], fill=ink("accent"))
                paste(canvas, card_sprite(number(value), "hand"), (x, y))
            elif pending:
                # The viewer's own sealed creation, in the slots it will fill.
                paste(canvas, card_sprite(number(pending.pop(0)), "pending"), (x, y))
            else:
                paste(canvas, card_sprite("", "empty"), (x, y))
    # The side column: Backup's uses, what was sent.
    col = card_xy(seat, 3)[0] + 20 if deck_size <= 3 else WIDTH - 260
    lines: list[tuple[Message, str]] = []
    backups = view["backups_left"]
    if isinstance(backups, Mapping):
        left = backups.get(seat)
        lines.append(
            (say("backup: hidden") if left is None else say("backup uses left: {n}", n=Verbatim(str(left))), "muted")
        )
    submitted = view["submitted"].get(seat)
    if phase in ("create", "play") and seat in view["to_move"]:
        lines.append((say("waiting for cards") if phase == "create" else say("waiting for a play"), "text"))
    elif phase in ("create", "play") and submitted:
        lines.append((say("sent, sealed"), "text"))
    if own and view["sealed"]:
        lines.append((_sealed_text(phase, sealed_cards, sealed_backup), "accent"))
    y = card_xy(seat, 0)[1] + 18
    for said, fg in lines:
        draw_text(canvas, (col, y), fit_text(words(said), LABEL_SIZE, WIDTH - col - 20), LABEL_SIZE, fg=fg)
        y += 36


def _sealed_text(phase: Any, cards: list[Any], backup: int) -> Message:
    shown = " + ".join(number(c) for c in cards)
    if phase == "create":
        return say("you create: {cards}", cards=Verbatim(shown)) if shown else say("you create: none")
    if not shown:
        return say("you play: none + backup {n}", n=backup) if backup else say("you play: none")
    if backup:
        return say("you play: {cards} + backup {n}", cards=Verbatim(shown), n=backup)
    return say("you play: {cards}", cards=Verbatim(shown))


def _play_text(play: Mapping[str, Any] | None, counted: Sequence[Any] | None, total: Any) -> Argument:
    if play is None:
        return Verbatim("?")
    cards = list(play.get("cards") or [])
    parts: list[Argument] = []
    for k, card in enumerate(cards):
        worth = counted[k] if counted is not None and k < len(counted) else card
        if float(worth) == float(card):
            parts.append(Verbatim(number(card)))
        else:
            parts.append(say("{card} (as {worth})", card=Verbatim(number(card)), worth=Verbatim(number(worth))))
    if play.get("backup"):
        parts.append(say("b{n}", n=Verbatim(str(play["backup"]))))
    shown: Argument = say("nothing")
    if parts:
        shown = parts[0]
        for part in parts[1:]:
            shown = say("{first} + {then}", first=shown, then=part)
    if total is None:
        return shown
    return say("{play} = {total}", play=shown, total=Verbatim(number(total)))


def last_round_lines(view: DuelingDecksView, words: Words | Mapping[str, str] | None = None) -> list[str]:
    """The last resolved round, as much of it as the view shows: who won it, then the plays."""
    words = words_of(words)
    return [words(line) for line in _last_round(view)]


def _last_round(view: DuelingDecksView) -> list[Message]:
    history = view["history"]
    if not history:
        return [say("No round played yet")]
    last = history[-1]
    winner = last.get("winner")
    points = last.get("points")
    result: Message
    if winner and isinstance(points, Mapping) and points.get(winner) is not None:
        result = say("{seat} wins it (+{points})", seat=Seat(str(winner)), points=Verbatim(number(points[winner])))
    elif winner:
        result = say("{seat} wins it", seat=Seat(str(winner)))
    else:
        result = say("a tie, the prize split")
    lines = [
        say(
            "Round {round}, prize {prize}: {result}",
            round=Verbatim(str(last.get("round"))),
            prize=Verbatim(number(last.get("prize"))),
            result=result,
        )
    ]
    plays = last.get("plays") or {}
    sums = last.get("sums")
    counted = last.get("counted") or {}
    seen: list[Argument] = []
    for seat in ("p1", "p2"):
        play = plays.get(seat) if isinstance(plays, Mapping) else None
        if play is None and sums is None:
            continue  # Darkness: nothing of this seat's play is in the view
        total = sums.get(seat) if isinstance(sums, Mapping) else None
        shown = _play_text(play, counted.get(seat) if counted else None, total)
        seen.append(say("{seat} {play}", seat=Seat(seat), play=shown))
    said = dotted(seen)
    if said is not None:
        lines.append(said)
    return lines


def last_round_text(view: DuelingDecksView, words: Words | Mapping[str, str] | None = None) -> str:
    """The last resolved round on one line."""
    return " · ".join(last_round_lines(view, words))


def status_line(view: DuelingDecksView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says at the bottom while the task runs."""
    words = words_of(words)
    phase = view["phase"]
    rnd = Verbatim(str(view["round"]))
    if phase == "create":
        return words(say("Round {round}: create cards by DM (create 20 15, or create none)", round=rnd))
    if phase == "play":
        # Who is still awaited shows in the player rows and the panels.
        if "backup" in view["anomalies"]:
            return words(say("Round {round}: play by DM (play 20 15, play 20 backup 3, or play none)", round=rnd))
        return words(say("Round {round}: play by DM (play 20 15, or play none)", round=rnd))
    return ""


def render(
    view: DuelingDecksView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card table of a Dueling Decks view as a palette image, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    canvas = background(words.language).copy()
    _prizes(canvas, view, words)
    # The viewer's seat is the one whose sealed submission or hand alone the view holds; a seat
    # view with nothing sealed marks nothing, so guessing it wrong draws nothing extra.
    own = _viewer(view)
    for seat in ("p1", "p2"):
        _panel(canvas, view, seat, words, own == seat)
    lines = last_round_lines(view, words)
    for k, line in enumerate(lines):
        y = PANEL_TOP + 2 * PANEL_H + (LAST_H / 2 - 6 if len(lines) == 1 else 18 + 34 * k)
        draw_text(canvas, (22, y), fit_text(line, LABEL_SIZE, WIDTH - 44), LABEL_SIZE, fg="text" if k == 0 else "muted")

    def detail(seat: str) -> Message:
        points = Verbatim(number(view["points"].get(seat)))
        return say("{points} pts · power {power}", points=points, power=Verbatim(number(view["power"].get(seat))))

    rows = player_rows(view, words, clocks, seat_symbol, detail)
    parts = anomaly_heading([str(a) for a in view["anomalies"]])
    parts.append(
        say("round {round}/{rounds}", round=Verbatim(str(view["round"])), rounds=Verbatim(str(view["rounds"])))
    )
    draw_header(canvas, heading(words, title_of(title, say("Dueling Decks")), *parts), rows)
    draw_footer(
        canvas,
        status_line(view, words),
        outcome_line(Outcome.from_dict(view["outcome"]), words, how_names_winner=True),
    )
    return canvas


def _viewer(view: DuelingDecksView) -> str | None:
    """The seat whose view this is, as far as the view tells. ``sealed`` is only ever the
    viewer's own, sent while the other seat is still awaited: the viewer is the seat that is
    no longer to move. Anything else marks nothing, so a wrong guess can draw nothing extra."""
    if not view["sealed"]:
        return None
    waiting = set(view["to_move"])
    done = [s for s in ("p1", "p2") if s not in waiting]
    return done[0] if len(done) == 1 else None
