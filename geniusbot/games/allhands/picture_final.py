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
from geniusbot.games.allhands.common import TASK_ANOMALIES, TASK_TITLES, TASKS
from geniusbot.games.allhands.final import TIMES_PER_TASK
from geniusbot.games.allhands.picture_common import SEAT_FILL, anomaly_word, seat_sprite
from geniusbot.games.allhands.view import AllHandsView
from geniusbot.render.layout import FOOTER_HEIGHT, TITLE_HEIGHT, TITLE_SIZE, draw_footer, outcome_line, seat_name
from geniusbot.render.palette import PALETTE, ink, new_canvas
from geniusbot.render.sprites import paste_centred, triangle_right
from geniusbot.render.text import draw_text, fit_text

WIDTH = 900
TASK_RENDERERS: dict[str, Callable[..., Image.Image]] = {
    "tiles": tiles.render,
    "decks": decks.render,
    "swabbing": swabbing.render,
}
PHASE_WORDS = {"override": "Override?", "ban": "bans", "items": "All-In?", "task": "task under way", "over": "over"}
SHORT_TASK = {"tiles": "Tiles", "decks": "Decks", "swabbing": "Swabbing"}

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


@lru_cache(maxsize=1)
def band_background() -> Image.Image:
    """The static part of the scoreboard band: the table's grid and its labels."""
    canvas = new_canvas((WIDTH, BAND_H))
    draw = ImageDraw.Draw(canvas)
    for time in range(1, TIMES_PER_TASK + 1):
        x0, _, x1, _ = cell_box("tiles", time)
        label = f"{time}{_ordinal(time)} · {time} pt{'s' if time > 1 else ''}"
        draw_text(canvas, ((x0 + x1) / 2, TABLE_TOP + TABLE_HEAD_H / 2), label, SMALL, fg="muted", anchor="m")
    for task in TASKS:
        x0, y0, _, y1 = cell_box(task, 1)
        draw_text(canvas, (22, (y0 + y1) / 2), SHORT_TASK[task], 24, fg="muted")
        for time in range(1, TIMES_PER_TASK + 1):
            bx0, by0, bx1, by1 = cell_box(task, time)
            draw.rectangle([bx0 + 3, by0 + 3, bx1 - 3, by1 - 3], fill=ink("band"))
    draw.line([(0, BAND_H - 3), (WIDTH, BAND_H - 3)], fill=ink("band"), width=2)
    return canvas


def _spelled(n: int) -> str:
    """``n`` in words up to twenty ("fifteen"), else in digits."""
    words = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ]
    return words[n] if 0 <= n < len(words) else str(n)


def _ordinal(k: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(k, "th")


def items_text(items: Mapping[str, Any] | None) -> str:
    """The items a seat has left, as its row says them."""
    if not items:
        return "no items"
    bits = []
    if items.get("all_in"):
        bits.append("All-In")
    overrides = int(items.get("override") or 0)
    if overrides:
        bits.append("Override" + (f" x{overrides}" if overrides > 1 else ""))
    if items.get("clock"):
        bits.append("Clock")
    return ", ".join(bits) if bits else "no items"


def _score_rows(
    canvas: Image.Image, view: AllHandsView, players: Mapping[str, str] | None, clocks: Mapping[str, str] | None
) -> None:
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
        name = fit_text(seat_name(seat, players), NAME_SIZE, max(0, right - 86), True)
        draw_text(canvas, (86, top + 20), name, NAME_SIZE, bg=bg, bold=True)
        info = fit_text(items_text(items.get(seat)), SMALL, bar_x - 100)
        draw_text(canvas, (86, top + 47), info, SMALL, fg="muted", bg=bg)
        value = int(points.get(seat) or 0)
        y = top + SCORE_ROW_H // 2 - 9
        draw.rectangle([bar_x, y, bar_x + bar_w, y + 18], fill=ink("slate" if bg == "page" else "page"))
        filled = int(round(bar_w * min(1.0, value / target)))
        if filled:
            draw.rectangle([bar_x, y, bar_x + filled, y + 18], fill=ink(SEAT_FILL[seat]))
        tick = bar_x + bar_w  # the target line
        draw.line([(tick, y - 6), (tick, y + 24)], fill=ink("accent"), width=3)
        draw_text(canvas, (WIDTH - 22, top + SCORE_ROW_H / 2), f"{value}/{target}", 28, bg=bg, bold=True, anchor="r")


def _cell_anomalies(names: list[str]) -> list[str]:
    """The anomalies of a play on at most two short lines of a cell."""
    words = [anomaly_word(n, short=True) for n in names]
    if not words:
        return ["no anomaly"]
    if len(words) <= 1:
        return words
    if len(words) == 2:
        return [words[0] + ",", words[1]]
    return [words[0] + ", " + words[1] + ",", words[2]]


def _table(canvas: Image.Image, view: AllHandsView, players: Mapping[str, str] | None) -> None:
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
            scored += " all-in"
        draw_text(canvas, (x0 + 40, y0 + 22), scored, SMALL, bg="band", bold=True)
        _anomaly_lines(canvas, (x0, y0, x1, y1), list(play.get("anomalies") or []))
    current = view["current"]
    if current and view["phase"] != "over":
        task, time = current["task"], current["time"]
        if task in TASKS and 1 <= time <= TIMES_PER_TASK:
            x0, y0, x1, y1 = cell_box(task, time)
            draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=ink("accent"), width=4)
            chosen = current["anomalies"]
            draw_text(canvas, (x0 + 14, y0 + 22), "now", SMALL, fg="accent", bg="band", bold=True)
            if chosen is not None:
                _anomaly_lines(canvas, (x0, y0, x1, y1), list(chosen))
            used = current["all_in"]["used"]
            if used:
                draw_text(canvas, (x1 - 12, y0 + 22), "all-in", SMALL, fg="accent", bg="band", anchor="r")


def _anomaly_lines(canvas: Image.Image, box: tuple[int, int, int, int], names: list[str]) -> None:
    x0, y0, x1, _ = box
    for k, line in enumerate(_cell_anomalies(names)):
        text = fit_text(line, 18, x1 - x0 - 20)
        draw_text(canvas, (x0 + 12, y0 + 46 + k * 21), text, 18, fg="muted", bg="band")


def _band(
    canvas: Image.Image,
    view: AllHandsView,
    players: Mapping[str, str] | None,
    clocks: Mapping[str, str] | None,
    title: str | None,
) -> None:
    """The scoreboard band, drawn onto the top ``BAND_H`` rows of ``canvas``."""
    canvas.paste(band_background(), (0, 0))
    head = title or "All Hands On Deck"
    play = view["play"]
    if play:
        head = f"{head} · play {play}/{view['plays_total']}"
    phase = PHASE_WORDS.get(view["phase"])
    if phase:
        head = f"{head} · {phase}"
    head = f"{head} · first to {view['target']}"
    draw_text(
        canvas,
        (22, TITLE_H / 2 + 2),
        fit_text(head, TITLE_SIZE, WIDTH - 44),
        TITLE_SIZE,
        fg="muted",
    )
    _score_rows(canvas, view, players, clocks)
    _table(canvas, view, players)


def current_heading(current: Mapping[str, Any] | None) -> str:
    """ "Play 5: Dueling Decks, 2nd time, worth 2"."""
    if not current:
        return ""
    time = int(current.get("time") or 0)
    title = current.get("title") or TASK_TITLES.get(str(current.get("task")), str(current.get("task")))
    return f"Play {current.get('play')}: {title}, {time}{_ordinal(time)} time, worth {current.get('worth')}"


def status_line(view: AllHandsView, players: Mapping[str, str] | None) -> str:
    """What the card says at the bottom between tasks."""
    current = view["current"]

    def name(seat: str | None) -> str:
        return seat_name(seat, players)

    phase = view["phase"]
    if current is None:
        return ""
    if phase == "ban" and current["banner"]:
        return f"{name(current['banner'])} bans an anomaly (e.g. ban {current['pool'][0]}) · {current['bans_left']} ban{'' if current['bans_left'] == 1 else 's'} to go"
    if phase == "override":
        asked = current["override"]["asked"]
        if asked:
            count = current["anomaly_count"]
            return f"{name(asked)}: use the Override (hand-pick {count}: use override ...) or pass"
    if phase == "items":
        answered = current["all_in"]["answered"]
        waiting = [name(s) for s in view["to_move"] if not answered.get(s)]
        head = "All-In? Answer by DM: use all-in, or pass"
        return f"{head} · waiting for {' and '.join(waiting)}" if waiting else head
    return ""


CHIP_W, CHIP_H, CHIP_GAP = 166, 56, 8
PANEL_TOP = BAND_H + 16


def chip_box(index: int) -> tuple[int, int, int, int]:
    """The box of the ``index``-th anomaly chip (0-4, in the rule text's order)."""
    left = (WIDTH - (5 * CHIP_W + 4 * CHIP_GAP)) // 2 + index * (CHIP_W + CHIP_GAP)
    top = PANEL_TOP + 96
    return left, top, left + CHIP_W, top + CHIP_H


def _chips(canvas: Image.Image, view: AllHandsView, players: Mapping[str, str] | None) -> None:
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
        word = fit_text(anomaly_word(anomaly, short=True), 22, chip_w - 16)
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


def _panel(canvas: Image.Image, view: AllHandsView, players: Mapping[str, str] | None) -> None:
    top = PANEL_TOP
    current = view["current"]

    def name(seat: str | None) -> str:
        return seat_name(seat, players)

    if view["phase"] == "over" or not current:
        result = view["result"] or {}
        plays = view["plays"]
        draw_text(canvas, (22, top + 24), f"Match over after {len(plays)} plays", NAME_SIZE, bold=True)
        if plays:
            last = plays[-1]
            text = f"Last play: {TASK_TITLES.get(str(last.get('task')), '')}, won by {name(last.get('winner'))} (+{last.get('points')})"
            draw_text(canvas, (22, top + 70), fit_text(text, 24, WIDTH - 44), 24, fg="muted")
        if result.get("reason") == "plays-used":
            draw_text(canvas, (22, top + 110), f"All {_spelled(view['plays_total'])} plays used", 24, fg="muted")
        return
    draw_text(canvas, (22, top + 24), fit_text(current_heading(current), NAME_SIZE, WIDTH - 44), NAME_SIZE, bold=True)
    if current["time"] == 1:
        draw_text(canvas, (22, top + 70), "Played exactly as written: no anomalies", 24, fg="muted")
    else:
        draw_text(canvas, (22, top + 70), "Anomalies", 24, fg="muted")
        _chips(canvas, view, players)
    lines = []
    override = current["override"]
    if override["by"]:
        lines.append(f"{name(override['by'])} used the Override this play")
    elif override["asked"]:
        lines.append(f"{name(override['asked'])} is asked about the Override")
    if current["first"] and (current["bans"] or current["bans_left"]):
        lines.append(f"{name(current['first'])} bans first (won the last play)")
    all_in = current["all_in"]
    if all_in["used"]:
        lines.append(
            "All-In: " + ", ".join(name(s) for s in all_in["used"]) + f" (+{view['all_in_points']} to the winner)"
        )
    elif all_in["answered"]:
        sent = [name(s) for s, done in all_in["answered"].items() if done]
        if sent:
            lines.append("All-In answer sent: " + ", ".join(sent))
    if view["sealed"]:
        lines.append(f"your sealed answer: {view['sealed']}")
    y = top + (190 if current["time"] != 1 else 116)
    for line in lines[:4]:
        fg = "accent" if line.startswith("your sealed") else "text"
        draw_text(canvas, (22, y), fit_text(line, 24, WIDTH - 44), 24, fg=fg)
        y += 34


def render(
    view: AllHandsView,
    *,
    players: Mapping[str, str] | None = None,
    clocks: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Image.Image:
    """The card of an All Hands On Deck view: the scoreboard, and the task or the play being set up."""
    task_view = view["task"]
    if view["phase"] == "task" and task_view is not None:
        renderer = TASK_RENDERERS.get(str(task_view.get("game")))
        if renderer is not None:
            current = view["current"]
            play = (current["play"] if current else None) or view["play"]
            task_title = f"Play {play}: {TASK_TITLES.get(str(task_view.get('game')), '')}"
            picture = renderer(task_view, players=players, clocks=clocks, title=task_title)
            # One copy: the crop reaches BAND_H rows above the task's picture, which the band
            # then covers.
            canvas = picture.crop((0, -BAND_H, WIDTH, picture.height))
            canvas.putpalette(PALETTE)
            _band(canvas, view, players, clocks, title)
            return canvas
    canvas = new_canvas(canvas_size())
    _band(canvas, view, players, clocks, title)
    _panel(canvas, view, players)
    draw_footer(
        canvas,
        status_line(view, players),
        outcome_line(Outcome.from_dict(view["outcome"]), players, how_names_winner=True),
    )
    return canvas
