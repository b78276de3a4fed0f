"""All Hands On Deck: the final match's scoreboard, and the running task's picture under it.

The scoreboard: each seat's points as a bar toward 23 with the items it has left, and a table of
the fifteen plays (a row per task, a column per time it is played, worth 1 to 5): a played cell
carries the winner's mark, the points scored and the anomalies played; the play under way is
framed in gold. While a task runs, the scoreboard is a band above the task's own picture (drawn
by that task's renderer from ``view["task"]``, the task view this viewer may see, so the task's
hidden information stays as hidden as the task keeps it). Between tasks the card shows the play
being prepared: its anomalies as chips (banned ones struck through with the banner's mark,
chosen ones in gold), the Override and All-In questions, and the status line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from geniusbot.games import Outcome
from geniusbot.games.allhands import picture_decks as decks, picture_swabbing as swabbing, picture_tiles as tiles
from geniusbot.games.allhands.common import (
    TASK_ANOMALIES,
    TASK_TITLE_WORDS,
    TASK_TITLES as TASK_TITLES,  # the tasks' English titles, as before
    TASKS,
)
from geniusbot.games.allhands.final import TIMES_PER_TASK
from geniusbot.games.allhands.picture_common import SEAT_FILL, anomaly_phrase, seat_sprite
from geniusbot.games.allhands.view import AllHandsView
from geniusbot.render.layout import (
    FOOTER_HEIGHT,
    TITLE_HEIGHT,
    TITLE_SIZE,
    card_words,
    draw_footer,
    heading,
    named,
    outcome_line,
    said_line,
    title_of,
)
from geniusbot.render.palette import PALETTE, ink, new_canvas
from geniusbot.render.sprites import paste_centred, triangle_right
from geniusbot.render.text import draw_text, fit_text
from geniusbot.words import ENGLISH, Argument, Listing, Message, Seat, Verbatim, Words, say, say_c, say_n

WIDTH = 900
TASK_RENDERERS: dict[str, Callable[..., Image.Image]] = {
    "tiles": tiles.render,
    "decks": decks.render,
    "swabbing": swabbing.render,
}
PHASE_WORDS = {
    "override": say_c("phase", "Override?"),
    "ban": say_c("phase", "bans"),
    "items": say_c("phase", "All-In?"),
    "task": say_c("phase", "task under way"),
    "over": say_c("phase", "over"),
}
SHORT_TASK = {
    "tiles": say_c("task, short", "Tiles"),
    "decks": say_c("task, short", "Decks"),
    "swabbing": say_c("task, short", "Swabbing"),
}

TITLE_H = TITLE_HEIGHT
SCORE_ROW_H = 64
TABLE_TOP = TITLE_H + 2 * SCORE_ROW_H + 12
TABLE_HEAD_H = 32
CELL_H = 84
LABEL_W = 128
CELL_W = (WIDTH - 22 - LABEL_W - 12) // TIMES_PER_TASK
BAND_H = TABLE_TOP + TABLE_HEAD_H + 3 * CELL_H + 14
PANEL_H = 300
HEIGHT = BAND_H + PANEL_H + FOOTER_HEIGHT
BAR_W = 300
NAME_SIZE = 28
SMALL = 20


def canvas_size() -> tuple[int, int]:
    """The size of a between-tasks card (a task's card is the band plus the task's picture)."""
    return WIDTH, HEIGHT


def cell_box(task: str, time: int) -> tuple[int, int, int, int]:
    """The table cell of the ``time``-th play (1 to ``TIMES_PER_TASK``) of ``task``."""
    row = TASKS.index(task)
    x = 22 + LABEL_W + (time - 1) * CELL_W
    y = TABLE_TOP + TABLE_HEAD_H + row * CELL_H
    return x, y, x + CELL_W, y + CELL_H


def score_row_top(seat: str) -> int:
    """The top of ``seat``'s score row."""
    return TITLE_H + (0 if seat == "p1" else SCORE_ROW_H)


def bar_box() -> tuple[int, int]:
    """The left edge and width of the points bars."""
    return WIDTH - 22 - 92 - BAR_W, BAR_W


@lru_cache(maxsize=4)
def band_background(language: str = ENGLISH) -> Image.Image:
    """The static part of the scoreboard band: the table's grid and its labels (in ``language``)."""
    words = Words(language)
    canvas = new_canvas((WIDTH, BAND_H))
    draw = ImageDraw.Draw(canvas)
    for time in range(1, TIMES_PER_TASK + 1):
        x0, _, x1, _ = cell_box("tiles", time)
        label = words(say_n("{nth} · {n} pt", "{nth} · {n} pts", n=time, nth=_ordinal(time)))
        draw_text(canvas, ((x0 + x1) / 2, TABLE_TOP + TABLE_HEAD_H / 2), label, SMALL, fg="muted", anchor="m")
    for task in TASKS:
        x0, y0, _, y1 = cell_box(task, 1)
        draw_text(canvas, (22, (y0 + y1) / 2), words(SHORT_TASK[task]), 24, fg="muted")
        for time in range(1, TIMES_PER_TASK + 1):
            bx0, by0, bx1, by1 = cell_box(task, time)
            draw.rectangle([bx0 + 3, by0 + 3, bx1 - 3, by1 - 3], fill=ink("band"))
    draw.line([(0, BAND_H - 3), (WIDTH, BAND_H - 3)], fill=ink("band"), width=2)
    return canvas


#: The numbers up to twenty in words.
SPELLED = (
    say_c("number", "zero"),
    say_c("number", "one"),
    say_c("number", "two"),
    say_c("number", "three"),
    say_c("number", "four"),
    say_c("number", "five"),
    say_c("number", "six"),
    say_c("number", "seven"),
    say_c("number", "eight"),
    say_c("number", "nine"),
    say_c("number", "ten"),
    say_c("number", "eleven"),
    say_c("number", "twelve"),
    say_c("number", "thirteen"),
    say_c("number", "fourteen"),
    say_c("number", "fifteen"),
    say_c("number", "sixteen"),
    say_c("number", "seventeen"),
    say_c("number", "eighteen"),
    say_c("number", "nineteen"),
    say_c("number", "twenty"),
)


def _spelled_said(n: int) -> Argument:
    """``n`` in words up to twenty ("fifteen"), else in digits."""
    return SPELLED[n] if 0 <= n < len(SPELLED) else n


def _spelled(n: int, words: Words | None = None) -> str:
    """``n`` in words up to twenty ("fifteen"), else in digits."""
    said = _spelled_said(n)
    return (words or Words())(said) if isinstance(said, Message) else str(said)


def _ordinal(k: int) -> Message:
    """``k`` as an ordinal: "1st", "2nd", "3rd", "4th"."""
    if k == 1:
        return say_c("ordinal", "{n}st", n=k)
    if k == 2:
        return say_c("ordinal", "{n}nd", n=k)
    if k == 3:
        return say_c("ordinal", "{n}rd", n=k)
    return say_c("ordinal", "{n}th", n=k)


def items_said(items: Mapping[str, Any] | None) -> Message:
    """The items a seat has left, as its row says them."""
    if not items:
        return say("no items")
    bits: list[Argument] = []
    if items.get("all_in"):
        bits.append(say_c("item", "All-In"))
    overrides = int(items.get("override") or 0)
    if overrides > 1:
        bits.append(say_c("item", "Override x{n}", n=overrides))
    elif overrides:
        bits.append(say_c("item", "Override"))
    if items.get("clock"):
        bits.append(say_c("item", "Clock"))
    return say_c("written as it is", "{text}", text=Listing(tuple(bits))) if bits else say("no items")


def items_text(items: Mapping[str, Any] | None, words: Words | None = None) -> str:
    """The items a seat has left, as its row says them (in English without ``words``)."""
    return (words or Words())(items_said(items))


def _score_rows(canvas: Image.Image, view: AllHandsView, words: Words, clocks: Mapping[str, str] | None) -> None:
    draw = ImageDraw.Draw(canvas)
    points = view["points"]
    items = view["items"]
    movers = set(view["to_move"]) if view["phase"] != "task" else set()
    bar_x, bar_w = bar_box()
    target = view["target"]
    for seat in ("p1", "p2"):
        top = score_row_top(seat)
        bg = "page"
        if seat in movers and not view["outcome"]:
            bg = "band"
            draw.rectangle([0, top + 2, WIDTH - 1, top + SCORE_ROW_H - 3], fill=ink("band"))
            triangle_right(draw, (20, top + SCORE_ROW_H / 2), 20, ink("accent"))
        paste_centred(canvas, seat_sprite(seat, 16, bg), (56, top + SCORE_ROW_H / 2))
        right = bar_x - 16
        clock = (clocks or {}).get(seat) if view["phase"] != "task" else None
        if clock:
            right -= draw_text(canvas, (right, top + SCORE_ROW_H / 2), clock, 28, bg=bg, bold=True, anchor="r") + 14
        name = fit_text(words(named(seat)), NAME_SIZE, max(0, right - 86), True)
        draw_text(canvas, (86, top + 20), name, NAME_SIZE, bg=bg, bold=True)
        info = fit_text(items_text(items.get(seat), words), SMALL, bar_x - 100)
        draw_text(canvas, (86, top + 47), info, SMALL, fg="muted", bg=bg)
        value = int(points.get(seat) or 0)
        y = top + SCORE_ROW_H // 2 - 9
        draw.rectangle([bar_x, y, bar_x + bar_w, y + 18], fill=ink("slate" if bg == "page" else "page"))
        filled = int(round(bar_w * min(1.0, value / target)))
        if filled:
            draw.rectangle([bar_x, y, bar_x + filled, y + 18], fill=ink(SEAT_FILL[seat]))
        tick = bar_x + bar_w  # the target line
        draw.line([(tick, y - 6), (tick, y + 24)], fill=ink("accent"), width=3)
        score = f"{value}/{target}"
        draw_text(canvas, (WIDTH - 22, top + SCORE_ROW_H / 2), score, 28, bg=bg, bold=True, anchor="r", notation=True)


def _cell_anomalies(names: list[str]) -> list[Message]:
    """The anomalies of a play on at most two short lines of a cell."""
    phrases = [anomaly_phrase(n, short=True) for n in names]
    if not phrases:
        return [say("no anomaly")]
    if len(phrases) == 1:
        return [say_c("written as it is", "{text}", text=phrases[0])]
    if len(phrases) == 2:
        return [say("{first},", first=phrases[0]), say_c("written as it is", "{text}", text=phrases[1])]
    return [
        say("{first}, {second},", first=phrases[0], second=phrases[1]),
        say_c("written as it is", "{text}", text=phrases[2]),
    ]


def _table(canvas: Image.Image, view: AllHandsView, words: Words) -> None:
    draw = ImageDraw.Draw(canvas)
    for play in view["plays"]:
        task, time = play.get("task"), int(play.get("time") or 0)
        if task not in TASKS or not 1 <= time <= TIMES_PER_TASK:
            continue
        x0, y0, x1, y1 = cell_box(task, time)
        winner = play.get("winner")
        if winner in SEAT_FILL:
            paste_centred(canvas, seat_sprite(str(winner), 12, "band"), (x0 + 22, y0 + 22))
        scored = f"+{play.get('points')}" if play.get("points") is not None else ""
        if play.get("all_in"):
            scored = words(say("{points} all-in", points=Verbatim(scored)))
        draw_text(canvas, (x0 + 40, y0 + 22), scored, SMALL, bg="band", bold=True)
        _anomaly_lines(canvas, (x0, y0, x1, y1), list(play.get("anomalies") or []), words)
    current = view["current"]
    if current and view["phase"] != "over":
        task, time = current["task"], current["time"]
        if task in TASKS and 1 <= time <= TIMES_PER_TASK:
            x0, y0, x1, y1 = cell_box(task, time)
            draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=ink("accent"), width=4)
            chosen = current["anomalies"]
            draw_text(canvas, (x0 + 14, y0 + 22), words(say("now")), SMALL, fg="accent", bg="band", bold=True)
            if chosen is not None:
                _anomaly_lines(canvas, (x0, y0, x1, y1), list(chosen), words)
            used = current["all_in"]["used"]
            if used:
                all_in = words(say("all-in"))
                draw_text(canvas, (x1 - 12, y0 + 22), all_in, SMALL, fg="accent", bg="band", anchor="r")


def _anomaly_lines(canvas: Image.Image, box: tuple[int, int, int, int], names: list[str], words: Words) -> None:
    x0, y0, x1, _ = box
    for k, line in enumerate(_cell_anomalies(names)):
        text = fit_text(words(line), 18, x1 - x0 - 20)
        draw_text(canvas, (x0 + 12, y0 + 46 + k * 21), text, 18, fg="muted", bg="band")


def _band(
    canvas: Image.Image,
    view: AllHandsView,
    words: Words,
    clocks: Mapping[str, str] | None,
    title: str | None,
) -> None:
    """The scoreboard band, drawn onto the top ``BAND_H`` rows of ``canvas``."""
    canvas.paste(band_background(words.language), (0, 0))
    parts: list[Argument] = []
    play = view["play"]
    if play:
        parts.append(say("play {play}/{plays}", play=Verbatim(str(play)), plays=Verbatim(str(view["plays_total"]))))
    phase = PHASE_WORDS.get(view["phase"])
    if phase:
        parts.append(phase)
    parts.append(say("first to {target}", target=Verbatim(str(view["target"]))))
    head = heading(words, title_of(title, say("All Hands On Deck")), *parts)
    draw_text(
        canvas,
        (22, TITLE_H / 2 + 2),
        fit_text(head, TITLE_SIZE, WIDTH - 44),
        TITLE_SIZE,
        fg="muted",
    )
    _score_rows(canvas, view, words, clocks)
    _table(canvas, view, words)


def _task_title(task: Any, fallback: Any = "") -> Argument:
    return TASK_TITLE_WORDS.get(str(task)) or Verbatim(str(fallback))


def current_heading(current: Mapping[str, Any] | None, words: Words | None = None) -> str:
    """ "Play 5: Dueling Decks, 2nd time, worth 2"."""
    if not current:
        return ""
    time = int(current.get("time") or 0)
    title = _task_title(current.get("task"), current.get("title") or current.get("task"))
    said = say(
        "Play {play}: {task}, {nth} time, worth {worth}",
        play=Verbatim(str(current.get("play"))),
        task=title,
        nth=_ordinal(time),
        worth=Verbatim(str(current.get("worth"))),
    )
    return (words or Words())(said)


def status_line(view: AllHandsView, words: Words | Mapping[str, str] | None = None) -> str:
    """What the card says at the bottom between tasks, said by ``words`` (English
    :func:`card_words` of the names, given names)."""
    return said_line(_status(view), words)


def _status(view: AllHandsView) -> Message | None:
    current = view["current"]
    phase = view["phase"]
    if current is None:
        return None
    if phase == "ban" and current["banner"]:
        return say_n(
            "{seat} bans an anomaly (e.g. ban {example}) · {n} ban to go",
            "{seat} bans an anomaly (e.g. ban {example}) · {n} bans to go",
            seat=Seat(str(current["banner"])),
            example=Verbatim(str(current["pool"][0])),
            n=int(current["bans_left"]),
        )
    if phase == "override":
        asked = current["override"]["asked"]
        if asked:
            count = current["anomaly_count"]
            return say(
                "{seat}: use the Override (hand-pick {n}: use override ...) or pass",
                seat=Seat(str(asked)),
                n=Verbatim(str(count)),
            )
    if phase == "items":
        answered = current["all_in"]["answered"]
        waiting = [Seat(s) for s in view["to_move"] if not answered.get(s)]
        head = say("All-In? Answer by DM: use all-in, or pass")
        if not waiting:
            return head
        who: Argument = waiting[0]
        for seat in waiting[1:]:
            who = say("{seats} and {seat}", seats=who, seat=seat)
        return say("{head} · waiting for {seats}", head=head, seats=who)
    return None


CHIP_W, CHIP_H, CHIP_GAP = 166, 56, 8
PANEL_TOP = BAND_H + 16


def chip_box(index: int) -> tuple[int, int, int, int]:
    """The box of the ``index``-th anomaly chip (0-4, in the rule text's order)."""
    left = (WIDTH - (5 * CHIP_W + 4 * CHIP_GAP)) // 2 + index * (CHIP_W + CHIP_GAP)
    top = PANEL_TOP + 96
    return left, top, left + CHIP_W, top + CHIP_H


def _chips(canvas: Image.Image, view: AllHandsView, words: Words) -> None:
    """The current task's five anomalies: open, banned (struck, with the banner's mark), chosen."""
    current = view["current"]
    if current is None:
        return
    names = TASK_ANOMALIES.get(current["task"], ())
    bans = {b.get("anomaly"): b for b in current["bans"]}
    chosen = set(current["anomalies"] or [])
    pool = set(current["pool"])
    draw = ImageDraw.Draw(canvas)
    for k, anomaly in enumerate(names):
        x, y, right, bottom = chip_box(k)
        chip_w, chip_h = right - x, bottom - y
        if anomaly in chosen:
            bg, fg = "accent", "banner_text"
        elif anomaly in bans or (pool and anomaly not in pool):
            bg, fg = "page", "muted"
        else:
            bg, fg = "band", "text"
        draw.rectangle(
            [x, y, x + chip_w, y + chip_h], fill=ink(bg), outline=ink("band" if bg == "page" else bg), width=2
        )
        word = fit_text(
            words(say_c("written as it is", "{text}", text=anomaly_phrase(anomaly, short=True))), 22, chip_w - 16
        )
        width = draw_text(
            canvas, (x + chip_w / 2, y + chip_h / 2), word, 22, fg=fg, bg=bg, bold=bg != "page", anchor="m"
        )
        ban = bans.get(anomaly)
        if ban:
            mid = y + chip_h // 2 + 1
            draw.line(
                [(x + chip_w / 2 - width / 2 - 4, mid), (x + chip_w / 2 + width / 2 + 4, mid)],
                fill=ink("muted"),
                width=3,
            )
            if ban.get("seat") in SEAT_FILL:
                paste_centred(canvas, seat_sprite(str(ban["seat"]), 10, "page"), (x + chip_w - 4, y + 4))


def _panel(canvas: Image.Image, view: AllHandsView, words: Words) -> None:
    top = PANEL_TOP
    current = view["current"]

    def name(seat: Any) -> Argument:
        return Seat(str(seat)) if seat else say("nobody")

    if view["phase"] == "over" or not current:
        result = view["result"] or {}
        plays = view["plays"]
        over = words(say("Match over after {n} plays", n=len(plays)))
        draw_text(canvas, (22, top + 24), over, NAME_SIZE, bold=True)
        if plays:
            last = plays[-1]
            said = say(
                "Last play: {task}, won by {seat} (+{points})",
                task=_task_title(last.get("task")),
                seat=name(last.get("winner")),
                points=Verbatim(str(last.get("points"))),
            )
            draw_text(canvas, (22, top + 70), fit_text(words(said), 24, WIDTH - 44), 24, fg="muted")
        if result.get("reason") == "plays-used":
            used = words(say("All {n} plays used", n=_spelled_said(view["plays_total"])))
            draw_text(canvas, (22, top + 110), used, 24, fg="muted")
        return
    head = current_heading(current, words)
    draw_text(canvas, (22, top + 24), fit_text(head, NAME_SIZE, WIDTH - 44), NAME_SIZE, bold=True)
    if current["time"] == 1:
        plain = words(say("Played exactly as written: no anomalies"))
        draw_text(canvas, (22, top + 70), plain, 24, fg="muted")
    else:
        draw_text(canvas, (22, top + 70), words(say("Anomalies")), 24, fg="muted")
        _chips(canvas, view, words)
    lines: list[tuple[Message, str]] = []
    override = current["override"]
    if override["by"]:
        lines.append((say("{seat} used the Override this play", seat=name(override["by"])), "text"))
    elif override["asked"]:
        lines.append((say("{seat} is asked about the Override", seat=name(override["asked"])), "text"))
    if current["first"] and (current["bans"] or current["bans_left"]):
        lines.append((say("{seat} bans first (won the last play)", seat=name(current["first"])), "text"))
    all_in = current["all_in"]
    if all_in["used"]:
        said = say(
            "All-In: {seats} (+{n} to the winner)",
            seats=Listing(tuple(name(s) for s in all_in["used"])),
            n=Verbatim(str(view["all_in_points"])),
        )
        lines.append((said, "text"))
    elif all_in["answered"]:
        sent = [name(s) for s, done in all_in["answered"].items() if done]
        if sent:
            lines.append((say("All-In answer sent: {seats}", seats=Listing(tuple(sent))), "text"))
    if view["sealed"]:
        lines.append((say("your sealed answer: {answer}", answer=Verbatim(str(view["sealed"]))), "accent"))
    y = top + (190 if current["time"] != 1 else 116)
    for line, fg in lines[:4]:
        draw_text(canvas, (22, y), fit_text(words(line), 24, WIDTH - 44), 24, fg=fg)
        y += 34


def render(
    view: AllHandsView,
    *,
    words: Words | None = None,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of an All Hands On Deck view: the scoreboard, and the task or the play being set
    up, its words said by ``words``
    (English without it, the seats named by ``players``)."""
    words = words or card_words(players=players)
    task_view = view["task"]
    if view["phase"] == "task" and task_view is not None:
        renderer = TASK_RENDERERS.get(str(task_view.get("game")))
        if renderer is not None:
            current = view["current"]
            play = (current["play"] if current else None) or view["play"]
            task_title = words(
                say("Play {play}: {task}", play=Verbatim(str(play)), task=_task_title(task_view.get("game")))
            )
            picture = renderer(task_view, words=words, clocks=clocks, title=task_title)
            # One copy: the crop reaches BAND_H rows above the task's picture, which the band
            # then covers.
            canvas = picture.crop((0, -BAND_H, WIDTH, picture.height))
            canvas.putpalette(PALETTE)
            _band(canvas, view, words, clocks, title)
            return canvas
    canvas = new_canvas(canvas_size())
    _band(canvas, view, words, clocks, title)
    _panel(canvas, view, words)
    draw_footer(
        canvas,
        status_line(view, words),
        outcome_line(Outcome.from_dict(view["outcome"]), words, how_names_winner=True),
    )
    return canvas
