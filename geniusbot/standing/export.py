"""A tournament's archive: one self-contained HTML page (the standings as a table and as a
picture, an elimination's bracket, every round's games, each linked to its match's replay page)
and its standings as CSV. Read with no server and no network, as the replay page is
(:mod:`geniusbot.archive.page`): the pictures are ``data:`` URIs, every text is escaped.

The replay pages the page links are files next to it (:func:`replay_name`), written by
``geniusbot tournament export --html``."""

from __future__ import annotations

import base64
import csv
import html
import io
from collections.abc import Mapping, Sequence

from geniusbot.storage.tournaments import Entry, Pairing, TournamentRecord
from geniusbot.words import Message, Verbatim, Words, say, say_c

from .tournament import (
    ELIMINATIONS,
    cards,
    names_of,
    number,
    table,
    title_of,
)

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

_STYLE = """
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c1c21;background:#f3f3f6}
header,main{max-width:1000px;margin:0 auto;padding:10px 12px}
h1{font-size:1.3rem;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:18px 0 6px}
table{border-collapse:collapse;background:#fff;border:1px solid #ccc}
th,td{padding:5px 10px;border-bottom:1px solid #eee;text-align:left;overflow-wrap:anywhere}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
img{display:block;max-width:100%;height:auto;margin:8px 0}
ol{background:#fff;border:1px solid #ccc;margin:0;padding:6px 6px 6px 2.5em}
li{padding:3px 0}
.note{color:#555;font-style:italic}
"""


def replay_name(stem: str, match_id: int) -> str:
    """The file name of a match's replay page beside the tournament's page ``stem``.html."""
    return f"{stem}-match{match_id}.html"


def _heads(form: str, words: Words) -> list[str]:
    heads = [
        words(say_c("standings column", "Place")),
        words(say_c("standings column", "Player")),
        words(say_c("standings column", "Points")),
    ]
    if form in ELIMINATIONS:
        return [*heads, words(say_c("standings column", "Games"))]
    return [*heads, words(say_c("standings column", "Buchholz")), words(say_c("standings column", "S-B"))]


def _cells(
    form: str, entries: Sequence[Entry], tournament: TournamentRecord, pairings: Sequence[Pairing]
) -> list[list[str]]:
    names = names_of(entries)
    rows = []
    for row in table(tournament, entries, pairings):
        cells = [str(row.place), names.get(row.player, str(row.player)), number(row.points)]
        if form in ELIMINATIONS:
            cells.append(str(row.played))
        else:
            cells += [number(row.buchholz), number(row.sonneborn)]
        rows.append(cells)
    return rows


def standings_csv(
    tournament: TournamentRecord, entries: Sequence[Entry], pairings: Sequence[Pairing], words: Words
) -> str:
    """The standings as CSV: a header line, then a player a line, the best first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_heads(tournament.format, words))
    writer.writerows(_cells(tournament.format, entries, tournament, pairings))
    return out.getvalue()


def _uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _score(pairing: Pairing) -> str:
    if pairing.score is None:
        return "–"
    first = "½" if pairing.score == 0.5 else number(pairing.score)
    second = "½" if pairing.score == 0.5 else number(1 - pairing.score)
    return f"{first}–{second}"


def tournament_page(
    tournament: TournamentRecord,
    entries: Sequence[Entry],
    pairings: Sequence[Pairing],
    words: Words,
    *,
    title: Message,
    replays: Mapping[int, str],
) -> str:
    """The HTML text of a tournament's page; ``replays`` maps a match id to its replay page's
    address (a match without one is listed unlinked)."""

    def said(message: Message) -> str:
        return html.escape(words(message), quote=True)

    names = names_of(entries)
    heading = title_of(tournament, pairings)
    head_row = "".join(
        f'<th scope="col"{"" if i == 1 else " class=n"}>{html.escape(h)}</th>'
        for i, h in enumerate(_heads(tournament.format, words))
    )
    body_rows = "\n".join(
        "<tr>"
        + "".join(f"<td{'' if i == 1 else ' class=n'}>{html.escape(c)}</td>" for i, c in enumerate(cells))
        + "</tr>"
        for cells in _cells(tournament.format, entries, tournament, pairings)
    )
    pictures = [
        f'<img src="{_uri(card.png)}" alt="{html.escape(card.alt, quote=True)}">'
        for card in cards(tournament, entries, pairings, words)
    ]
    rounds = []
    for round_number in sorted({p.round for p in pairings}):
        items = []
        for p in (p for p in pairings if p.round == round_number):
            first = Verbatim(names.get(p.first_id, str(p.first_id)))
            if p.second_id is None:
                items.append(f"<li>{said(say('{player} has a bye (a point).', player=first))}</li>")
                continue
            second = Verbatim(names.get(p.second_id, str(p.second_id)))
            line = said(say("{first} against {second}", first=first, second=second)) + " " + html.escape(_score(p))
            if p.match_id is not None and p.match_id in replays:
                link = said(say("the replay of match #{match}", match=p.match_id))
                line += f' (<a href="{html.escape(replays[p.match_id], quote=True)}">{link}</a>)'
            elif p.match_id is not None:
                line += " " + said(say("(match #{match})", match=p.match_id))
            if p.note:
                line += (
                    f' <span class="note">{said(say("(result replaced: {reason})", reason=Verbatim(p.note)))}</span>'
                )
            items.append(f"<li>{line}</li>")
        rounds.append(
            f"<h2>{said(say('Round {round}', round=round_number))}</h2>\n<ol>\n" + "\n".join(items) + "\n</ol>"
        )
    shown_title = words(title)
    return f"""<!DOCTYPE html>
<html lang="{html.escape(words.language, quote=True)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>{html.escape(shown_title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>{html.escape(shown_title)}</h1>
<p>{said(heading)}</p>
</header>
<main>
<table>
<thead><tr>{head_row}</tr></thead>
<tbody>
{body_rows}
</tbody>
</table>
{"".join(pictures)}
{"".join(rounds)}
</main>
</body>
</html>
"""
