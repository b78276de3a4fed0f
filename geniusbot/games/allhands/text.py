"""The text boards of All Hands On Deck and its tasks: the console's boards, and the room's when
there is no picture. Each reads only the view it is given. A drawing (a grid, the prizes' cards)
is a line of text as it is; everything in words is a message, its seats
:class:`~geniusbot.words.Seat` (named by whoever says the board)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from geniusbot.games.allhands.common import ANOMALY_WORDS, TASK_TITLE_WORDS
from geniusbot.games.allhands.swabbing import board_text as swabbing_board_text
from geniusbot.games.allhands.tiles import A_TILE, COLOUR_WORDS, grid_text
from geniusbot.games.allhands.view import AllHandsView, DeckSwabbingView, DuelingDecksView, TileDecklarationView
from geniusbot.games.grid import parse_point, points_of
from geniusbot.words import Argument, Listing, Message, Seat, Verbatim, joined, say, say_c, say_n

#: What a board's line says where a list has nothing in it.
NONE = say_c("nothing", "none")
#: The phases of Dueling Decks, as its board's first line names them ("play phase").
DECKS_PHASES: dict[str, Message] = {"create": say_c("decks phase", "create"), "play": say_c("decks phase", "play")}
#: The ordinals of a task's plays, as the scoreboard says them ("2nd time").
ORDINALS: dict[int, Message] = {
    1: say_c("time", "1st"),
    2: say_c("time", "2nd"),
    3: say_c("time", "3rd"),
}
#: The items as the scoreboard lists them.
ITEM_TITLES: dict[str, Message] = {
    "all-in": say_c("item", "All-In"),
    "override": say_c("item", "Override"),
    "clock": say_c("item", "Clock"),
}


def _seats(seats: Iterable[Any]) -> Argument:
    """Seats joined as ``p1 and p2`` (none: nothing)."""
    named: list[Argument] = [Seat(str(s)) for s in seats]
    return joined(named) if named else Verbatim("")


def _anomalies(names: Iterable[str]) -> Listing:
    return Listing(tuple(ANOMALY_WORDS.get(a) or Verbatim(a) for a in names))


def _semicolons(items: Sequence[Message]) -> Message:
    """Phrases joined by "; " (each a seat's, which has commas of its own)."""
    if len(items) == 1:
        return items[0]
    return say("{items}; {last}", items=_semicolons(items[:-1]), last=items[-1])


def _either(points: Sequence[str]) -> Argument:
    """Points joined by "or" ("B3 or C4")."""
    if len(points) == 1:
        return Verbatim(points[0])
    return say("{first} or {rest}", first=Verbatim(points[0]), rest=_either(points[1:]))


def _drawing(text: str) -> list[str | Message]:
    """A drawing's lines (a grid), each said as it is."""
    return list(text.splitlines())


def tiles_lines(view: TileDecklarationView) -> list[str | Message]:
    size = view["size"]
    phase = view["phase"]
    declared = view["declared"]
    lines: list[str | Message] = []
    # The memorize phase has no line of its own: the host says the window under the board.
    if phase == "landmines":
        sent = view["mines_sent"] or {}
        waiting = [s for s, done in sent.items() if not done]
        example = Verbatim("`mines A1 B2 C3 E6 G7`")
        lines.append(
            say(
                "Landmines: each player sends five tiles by direct message, such as {example}; waiting for {seats}.",
                example=example,
                seats=_seats(waiting),
            )
            if waiting
            else say("Landmines: each player sends five tiles by direct message, such as {example}.", example=example)
        )
    elif phase == "call":
        lines.append(
            say(
                "{seat} calls the first colour, such as {example}.",
                seat=Seat(str(view["starter"])),
                example=Verbatim("`call red`"),
            )
        )
    elif phase == "declare":
        called = str(view["called"])
        head = say(
            "{seats} declares {tile}", seats=_seats(view["to_move"]), tile=A_TILE.get(called) or Verbatim(called)
        )
        if view["caller"]:
            head = say("{declares} (called by {seat})", declares=head, seat=Seat(str(view["caller"])))
        if view["chain_from"]:
            head = say("{declares}, next to {point}", declares=head, point=Verbatim(str(view["chain_from"])))
        line = say("{declares}, then calls a colour.", declares=head)
        if view["must_move_again"]:
            line = say("{line} A mine went off: move again.", line=line)
        lines.append(line)
    elif phase == "over":
        lines.append(say("The task is over; the grid is shown."))
    count = say_n("{n} tile declared.", "{n} tiles declared.", n=len(declared))
    lines.append(
        say("{declared} Anomalies: {anomalies}.", declared=count, anomalies=_anomalies(view["anomalies"]))
        if view["anomalies"]
        else count
    )
    marks = [parse_point(m, size, size) for m in view["marks"]]
    grid = view["grid"]
    if grid is not None:
        known = points_of(grid, size)
    else:
        # Hidden: only the black centre and the tiles declared so far (their true colours).
        known = {parse_point(view["centre"], size, size): "black"}
        known.update({parse_point(d["tile"], size, size): d["color"] for d in declared})
    lines += _drawing(grid_text(known, marks))
    colours = [
        say("{letter} {colour}", letter=Verbatim(c[:1].upper()), colour=COLOUR_WORDS.get(c) or Verbatim(c))
        for c in view["palette"]
    ]
    legend = say(
        "{colours}; {mark} the black centre {point}",
        colours=Listing(tuple(colours)),
        mark=Verbatim("*"),
        point=Verbatim(str(view["centre"])),
    )
    if grid is None:
        legend = say("{legend}; {mark} hidden", legend=legend, mark=Verbatim("?"))
    if marks:
        legend = say("{legend}; {mark} marked to implode", legend=legend, mark=Verbatim("!"))
    lines.append(say("{legend}.", legend=legend))
    original = view["original_grid"]
    if original is not None:
        lines.append(say("Before the implosion:"))
        lines += _drawing(grid_text(points_of(original, size)))
    mines = view["mines"]
    if mines is not None:
        lines.append(say("Your mines: {mines}.", mines=Verbatim(" ".join(mines)) if mines else NONE))
    exploded = view["exploded"]
    if exploded:
        gone: list[Argument] = [
            say("{tile} ({seats})", tile=Verbatim(str(e["tile"])), seats=_seats(e.get("owners") or ()))
            if e.get("owners")
            else say("{tile} ()", tile=Verbatim(str(e["tile"])))
            for e in exploded
        ]
        lines.append(say("Mines gone off: {tiles}.", tiles=Listing(tuple(gone))))
    return lines


def decks_lines(view: DuelingDecksView) -> list[str | Message]:
    """``Round 2 of 7: play phase, prize 9.`` / ``Prizes: 10 [9] 8 7 6 5 4`` / one line a seat
    (points, power, hand, Backup left; ``?`` where hidden) / one line a resolved round."""

    def shown(value: Any) -> Verbatim:
        return Verbatim("?" if value is None else str(value))

    def cards(values: Sequence[int]) -> Argument:
        return Verbatim(" ".join(map(str, values))) if values else NONE

    phase, number = view["phase"], view["round"]
    if phase == "over":
        head = say("The task is over.")
    else:
        named = DECKS_PHASES.get(phase) or Verbatim(phase)
        head = (
            say("Round {round} of {rounds}: {phase} phase.", round=number, rounds=view["rounds"], phase=named)
            if view.get("prize") is None
            else say(
                "Round {round} of {rounds}: {phase} phase, prize {prize}.",
                round=number,
                rounds=view["rounds"],
                phase=named,
                prize=shown(view["prize"]),
            )
        )
    if view["anomalies"]:
        head = say("{head} Anomalies: {anomalies}.", head=head, anomalies=_anomalies(view["anomalies"]))
    lines: list[str | Message] = [head]
    if any(p is not None for p in view["prizes"]):
        cells = [f"[{p}]" if i + 1 == number and phase != "over" else str(p) for i, p in enumerate(view["prizes"])]
        lines.append(say("Prizes: {cards}", cards=Verbatim(" ".join(cells))))
    for seat in ("p1", "p2"):
        hand = view["hands"][seat]
        parts: list[Argument] = [
            say("{points} points", points=shown(view["points"][seat])),
            say("{power} power", power=Verbatim(str(view["power"][seat]))),
            say("hand {cards}", cards=Verbatim("?"))
            if hand is None
            else (say("hand {cards}", cards=Verbatim(" ".join(map(str, hand)))) if hand else say("hand empty")),
        ]
        backups = view["backups_left"]
        if backups:
            parts.append(say("Backup {count} left", count=shown(backups[seat])))
        if phase != "over" and view["submitted"][seat]:
            parts.append(say_c("submission", "sent"))
        lines.append(say("{seat}: {parts}", seat=Seat(seat), parts=Listing(tuple(parts))))
    sealed = view["sealed"]
    if sealed:
        mine = (
            say("Your sealed creations: {cards}", cards=cards(sealed["cards"]))
            if phase == "create"
            else say("Your sealed play: {cards}", cards=cards(sealed["cards"]))
        )
        if sealed["backup"]:
            mine = say("{sealed} backup {card}", sealed=mine, card=Verbatim(str(sealed["backup"])))
        lines.append(mine)
    for entry in view["history"]:
        plays = entry["plays"] or {}
        each: list[Message] = []
        for seat in ("p1", "p2"):
            play = plays.get(seat)
            if play is None:
                each.append(say("{seat} ?", seat=Seat(seat)))
                continue
            said = say("{seat} {cards}", seat=Seat(seat), cards=cards(play["cards"]))
            if play["backup"]:
                said = say("{play} + backup {card}", play=said, card=Verbatim(str(play["backup"])))
            if entry["sums"] is not None:
                said = say("{play} = {total}", play=said, total=Verbatim(str(entry["sums"][seat])))
            each.append(said)
        won = say("{seat} wins", seat=Seat(str(entry["winner"]))) if entry["winner"] else say_c("round", "split")
        lines.append(
            say(
                "Round {round} (prize {prize}): {plays}; {won}.",
                round=Verbatim(str(entry["round"])),
                prize=shown(entry["prize"]),
                plays=_semicolons(each),
                won=won,
            )
        )
    return lines


def swabbing_lines(view: DeckSwabbingView) -> list[str | Message]:
    size = int(view.get("size") or 7)
    lines: list[str | Message] = []
    if view.get("phase") == "over":
        lines.append(say("The task is over."))
    elif view.get("turn"):
        turn = Seat(str(view["turn"]))
        lines.append(
            say(
                "{seat} colours two white tiles black; {sniper} may snipe a tile.",
                seat=turn,
                sniper=Seat(str(view["sniper"])),
            )
            if view.get("sniper")
            else say("{seat} colours two white tiles black.", seat=turn)
        )
    if view.get("anomalies"):
        lines.append(say("Anomalies: {anomalies}.", anomalies=_anomalies(view["anomalies"])))
    scores = view.get("scores") or {}
    each = Listing(tuple(say("{seat} {score}", seat=Seat(s), score=Verbatim(str(n))) for s, n in scores.items()))
    tiebreak = Seat(str(view.get("tiebreak")))
    lines.append(
        say("Score (points): {scores}; a tie goes to {seat}.", scores=each, seat=tiebreak)
        if view.get("values")
        else say("Score (tiles): {scores}; a tie goes to {seat}.", scores=each, seat=tiebreak)
    )
    numbers = points_of(view.get("numbers"), size) if view.get("numbers") else None
    lines += _drawing(swabbing_board_text(points_of(view.get("board"), size), numbers))
    marks: dict[str, Argument] = {
        "black": Verbatim("#"),
        "x": Verbatim("X"),
        "o": Verbatim("O"),
        "p1": Seat("p1"),
        "p2": Seat("p2"),
    }
    lines.append(
        Message(
            "{white} white; {black} black; {x} {p1}'s colour; {o} {p2}'s colour.", {**marks, "white": Verbatim(".")}
        )
        if not numbers
        else Message(
            "a number: a white tile and its number; {black} black; {x} {p1}'s colour; {o} {p2}'s colour.", marks
        )
    )
    if view.get("values"):
        centre = view.get("centre") or "D4"
        lines.append(
            say("Pyramid: a tile is worth 4 at {centre}, then 3, 2 and 1 ring by ring.", centre=Verbatim(centre))
        )
    hook = view.get("hook")
    if hook and hook.get("from"):
        if hook.get("lifted"):
            lines.append(say("Hook: no move can touch the last tiles, so any move will do."))
        else:
            lines.append(say("Hook: the next move must touch {points}.", points=_either(list(hook["from"]))))
    submitted = view.get("submitted")
    if submitted:
        sent = [s for s, done in submitted.items() if done]
        if sent:
            lines.append(say("Sealed and waiting: {seats}.", seats=_seats(sent)))
    if view.get("sealed"):
        lines.append(say("Your sealed submission: {move}.", move=Verbatim(str(view["sealed"]))))
    return lines


def _items_said(have: Mapping[str, Any]) -> list[Argument]:
    overrides = int(have.get("override") or 0)
    words: list[Argument] = [ITEM_TITLES["all-in"]] if have.get("all_in") else []
    if overrides:
        words.append(
            say("{item} x{count}", item=ITEM_TITLES["override"], count=overrides)
            if overrides > 1
            else ITEM_TITLES["override"]
        )
    if have.get("clock"):
        words.append(ITEM_TITLES["clock"])
    return words


def final_lines(view: AllHandsView) -> list[str | Message]:
    score = Listing(
        tuple(say("{seat} {points}", seat=Seat(s), points=Verbatim(str(n))) for s, n in view["points"].items())
    )
    points = say("Points: {score} (first to {target}).", score=score, target=Verbatim(str(view["target"])))
    current = view["current"]
    lines: list[str | Message] = []
    if current:
        time = current["time"]
        play: dict[str, Argument] = {
            "play": Verbatim(str(current["play"])),
            "plays": Verbatim(str(view["plays_total"])),
            "title": TASK_TITLE_WORDS.get(current["task"]) or Verbatim(current["title"]),
            "ordinal": ORDINALS.get(time) or say("{n}th", n=time),
            "worth": Verbatim(str(current["worth"])),
            "points": points,
        }
        anomalies = current["anomalies"]
        if anomalies is None:
            lines.append(Message("Play {play} of {plays}: {title} ({ordinal} time, worth {worth}). {points}", play))
        else:
            play["anomalies"] = _anomalies(anomalies) if anomalies else NONE
            lines.append(
                Message(
                    "Play {play} of {plays}: {title} ({ordinal} time, worth {worth}); anomalies: {anomalies}. {points}",
                    play,
                )
            )
        phase = view["phase"]
        asked = current["override"]["asked"]
        if phase == "override" and asked:
            lines.append(
                say(
                    "{seat}: use your Override ({example}) or {pass_}.",
                    seat=Seat(str(asked)),
                    example=Verbatim("`use override chain rainbow`"),
                    pass_=Verbatim("`pass`"),
                )
            )
        elif phase == "ban":
            bans = [
                say(
                    "{seat} {anomaly}",
                    seat=Seat(str(b["seat"])),
                    anomaly=ANOMALY_WORDS.get(b["anomaly"]) or Verbatim(b["anomaly"]),
                )
                for b in current["bans"]
            ]
            lines.append(
                say(
                    "Bans: {bans}. Still open: {pool}.",
                    bans=Listing(tuple(bans)) if bans else say_c("bans", "none yet"),
                    pool=_anomalies(current["pool"]),
                )
            )
            if current["banner"]:
                lines.append(
                    say(
                        "{seat} bans next ({count} to go), such as {example}.",
                        seat=Seat(str(current["banner"])),
                        count=Verbatim(str(current["bans_left"])),
                        example=Verbatim(f"`ban {(current['pool'] or ['chain'])[0]}`"),
                    )
                )
        elif phase == "items":
            answered = [s for s, done in current["all_in"]["answered"].items() if done]
            use, skip = Verbatim("`use all-in`"), Verbatim("`pass`")
            lines.append(
                say(
                    "All-In: send {use} or {pass_} by direct message; {seats} answered.",
                    use=use,
                    pass_=skip,
                    seats=_seats(answered),
                )
                if answered
                else say("All-In: send {use} or {pass_} by direct message.", use=use, pass_=skip)
            )
        used = current["all_in"]["used"]
        if used:
            lines.append(
                say(
                    "All-In used by {seats}: the winner of this play scores {points} more.",
                    seats=_seats(used),
                    points=Verbatim(str(view["all_in_points"])),
                )
            )
    else:
        lines.append(points)
    if view["sealed"]:
        lines.append(say("Your sealed answer: {answer}.", answer=Verbatim(str(view["sealed"]))))
    held = {seat: _items_said(have) for seat, have in view["items"].items()}
    if any(held.values()):
        each = [
            say("{seat} {items}", seat=Seat(s), items=Listing(tuple(w))) if w else say("{seat} none", seat=Seat(s))
            for s, w in held.items()
        ]
        lines.append(say("Items left: {items}.", items=_semicolons(each)))
    task = view["task"]
    if task is not None:
        lines += _TASK_LINES[str(task.get("game"))](task)
    return lines


# Each task's text board, by the task's name (a task's view is typed by its own lines function).
_TASK_LINES: dict[str, Callable[[Any], list[str | Message]]] = {
    "tiles": tiles_lines,
    "decks": decks_lines,
    "swabbing": swabbing_lines,
}
