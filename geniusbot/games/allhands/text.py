"""The text boards of All Hands On Deck and its tasks: the console's boards, and the room's when
there is no picture. Each reads only the view it is given."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from geniusbot.games.allhands.decks import board_text as decks_board_text
from geniusbot.games.allhands.swabbing import board_text as swabbing_board_text
from geniusbot.games.allhands.tiles import grid_text
from geniusbot.games.allhands.view import AllHandsView, DeckSwabbingView, DuelingDecksView, TileDecklarationView
from geniusbot.games.grid import parse_point, points_of, seat_list, with_article


def tiles_lines(view: TileDecklarationView) -> list[str]:
    size = view["size"]
    phase = view["phase"]
    declared = view["declared"]
    lines: list[str] = []
    # The memorize phase has no line of its own: the host says the window under the board.
    if phase == "landmines":
        sent = view["mines_sent"] or {}
        waiting = [s for s, done in sent.items() if not done]
        lines.append(
            "Landmines: each player sends five tiles by direct message, such as `mines A1 B2 C3 E6 G7`"
            + (f"; waiting for {seat_list(waiting)}." if waiting else ".")
        )
    elif phase == "call":
        lines.append(f"{view['starter']} calls the first colour, such as `call red`.")
    elif phase == "declare":
        movers = seat_list(view["to_move"])
        head = f"{movers} declares {with_article(str(view['called']))} tile"
        if view["caller"]:
            head += f" (called by {view['caller']})"
        if view["chain_from"]:
            head += f", next to {view['chain_from']}"
        head += ", then calls a colour."
        if view["must_move_again"]:
            head += " A mine went off: move again."
        lines.append(head)
    elif phase == "over":
        lines.append("The task is over; the grid is shown.")
    lines.append(
        f"{len(declared)} tile{'s' if len(declared) != 1 else ''} declared."
        + (f" Anomalies: {', '.join(view['anomalies'])}." if view["anomalies"] else "")
    )
    marks = [parse_point(m, size, size) for m in view["marks"]]
    grid = view["grid"]
    if grid is not None:
        known = points_of(grid, size)
    else:
        # Hidden: only the black centre and the tiles declared so far (their true colours).
        known = {parse_point(view["centre"], size, size): "black"}
        known.update({parse_point(d["tile"], size, size): d["color"] for d in declared})
    lines += grid_text(known, marks).splitlines()
    legend = ", ".join(f"{c[:1].upper()} {c}" for c in view["palette"])
    legend += f"; * the black centre {view['centre']}"
    if grid is None:
        legend += "; ? hidden"
    if marks:
        legend += "; ! marked to implode"
    lines.append(legend + ".")
    original = view["original_grid"]
    if original is not None:
        lines.append("Before the implosion:")
        lines += grid_text(points_of(original, size)).splitlines()
    mines = view["mines"]
    if mines is not None:
        lines.append("Your mines: " + (" ".join(mines) or "none") + ".")
    exploded = view["exploded"]
    if exploded:
        gone = [f"{e['tile']} ({' and '.join(e.get('owners') or ())})" for e in exploded]
        lines.append("Mines gone off: " + ", ".join(gone) + ".")
    return lines


def decks_lines(view: DuelingDecksView) -> list[str]:
    return decks_board_text(view).splitlines()


def swabbing_lines(view: DeckSwabbingView) -> list[str]:
    size = int(view.get("size") or 7)
    lines: list[str] = []
    if view.get("phase") == "over":
        lines.append("The task is over.")
    elif view.get("turn"):
        head = f"{view['turn']} colours two white tiles black"
        if view.get("sniper"):
            head += f"; {view['sniper']} may snipe a tile"
        lines.append(head + ".")
    if view.get("anomalies"):
        lines.append(f"Anomalies: {', '.join(view['anomalies'])}.")
    scores = view.get("scores") or {}
    word = "points" if view.get("values") else "tiles"
    lines.append(
        f"Score ({word}): "
        + ", ".join(f"{s} {n}" for s, n in scores.items())
        + f"; a tie goes to {view.get('tiebreak')}."
    )
    numbers = points_of(view.get("numbers"), size) if view.get("numbers") else None
    lines += swabbing_board_text(points_of(view.get("board"), size), numbers).splitlines()
    legend = ". white" if not numbers else "a number: a white tile and its number"
    lines.append(f"{legend}; # black; X p1's colour; O p2's colour.")
    values = view.get("values")
    if values:
        centre = view.get("centre") or "D4"
        lines.append(f"Pyramid: a tile is worth 4 at {centre}, then 3, 2 and 1 ring by ring.")
    hook = view.get("hook")
    if hook and hook.get("from"):
        if hook.get("lifted"):
            lines.append("Hook: no move can touch the last tiles, so any move will do.")
        else:
            lines.append(f"Hook: the next move must touch {' or '.join(hook['from'])}.")
    submitted = view.get("submitted")
    if submitted:
        sent = [s for s, done in submitted.items() if done]
        if sent:
            lines.append(f"Sealed and waiting: {seat_list(sent)}.")
    if view.get("sealed"):
        lines.append(f"Your sealed submission: {view['sealed']}.")
    return lines


def _items_words(have: Mapping[str, Any]) -> list[str]:
    overrides = int(have.get("override") or 0)
    words = ["All-In"] if have.get("all_in") else []
    if overrides:
        words.append("Override" + (f" x{overrides}" if overrides > 1 else ""))
    if have.get("clock"):
        words.append("Clock")
    return words


def final_lines(view: AllHandsView) -> list[str]:
    score = ", ".join(f"{s} {n}" for s, n in view["points"].items())
    current = view["current"]
    lines: list[str] = []
    if current:
        time = current["time"]
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(time, f"{time}th")
        anomalies = current["anomalies"]
        chosen = "" if anomalies is None else f"; anomalies: {', '.join(anomalies) or 'none'}"
        lines.append(
            f"Play {current['play']} of {view['plays_total']}: {current['title']} "
            f"({ordinal} time, worth {current['worth']}){chosen}. "
            f"Points: {score} (first to {view['target']})."
        )
        phase = view["phase"]
        asked = current["override"]["asked"]
        if phase == "override" and asked:
            lines.append(f"{asked}: use your Override (`use override chain rainbow`) or `pass`.")
        elif phase == "ban":
            bans = ", ".join(f"{b['seat']} {b['anomaly']}" for b in current["bans"]) or "none yet"
            lines.append(f"Bans: {bans}. Still open: {', '.join(current['pool'])}.")
            if current["banner"]:
                lines.append(
                    f"{current['banner']} bans next ({current['bans_left']} to go), such as `ban {(current['pool'] or ['chain'])[0]}`."
                )
        elif phase == "items":
            answered = [s for s, done in current["all_in"]["answered"].items() if done]
            lines.append(
                "All-In: send `use all-in` or `pass` by direct message"
                + (f"; {seat_list(answered)} answered." if answered else ".")
            )
        used = current["all_in"]["used"]
        if used:
            lines.append(
                f"All-In used by {seat_list(used)}: the winner of this play scores {view['all_in_points']} more."
            )
    else:
        lines.append(f"Points: {score} (first to {view['target']}).")
    if view["sealed"]:
        lines.append(f"Your sealed answer: {view['sealed']}.")
    held = {seat: _items_words(have) for seat, have in view["items"].items()}
    if any(held.values()):
        lines.append("Items left: " + "; ".join(f"{s} {', '.join(w) or 'none'}" for s, w in held.items()) + ".")
    task = view["task"]
    if task is not None:
        lines += _TASK_LINES[str(task.get("game"))](task)
    return lines


# Each task's text board, by the task's name (a task's view is typed by its own lines function).
_TASK_LINES: dict[str, Callable[[Any], list[str]]] = {
    "tiles": tiles_lines,
    "decks": decks_lines,
    "swabbing": swabbing_lines,
}
