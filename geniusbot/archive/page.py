"""A replay page: one self-contained HTML file of a match, read with no server and no network.

:func:`replay_page` writes the page of a list of :class:`~geniusbot.archive.page_steps.PageStep`:
the board of every step (a PNG in a ``data:`` URI, or the text board), the move list (each entry
a link to its step), First / Previous / Play / Next / Last buttons, the arrow keys, Home and End,
the clocks of each step and the result. Every text on it (names, moves, the title) is escaped;
the page loads nothing (its Content-Security-Policy allows only its own inline style and script
and ``data:`` images). A picture that two steps share is in the page once, as the steps drew it
(compact already: :func:`~geniusbot.archive.page_steps.picture`). The page is built in one pass
over the steps, each part joined once, so its cost grows with the number of steps and no faster. The play button
advances one step every ``data-interval`` milliseconds (an attribute of ``<body>``, 1000).
``#step-12`` in the address opens the page at step 12.

:func:`html_command` is ``--html OUT`` of ``geniusbot replay FILE`` / ``--match N --db URL``;
``python -m geniusbot.archive.page`` runs it on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import functools
import html
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from geniusbot.words import ENGLISH, Listing, Message, Verbatim, Words, say

if TYPE_CHECKING:
    from geniusbot.words.parser import SaidParser

from .page_steps import PageMatch, PageRefused, PageStep, match_steps, record_steps

#: Milliseconds between two steps while the page plays.
PLAY_INTERVAL_MS = 1000
#: The least a board is scaled to fit the window's height (its smallest text, 20 px, stays 12 px
#: high): a taller board makes the page scroll rather than shrink further.
MIN_SCALE = 0.6

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

_STYLE = """
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c1c21;background:#f3f3f6}
header,main{max-width:1200px;margin:0 auto;padding:10px 12px}
h1{font-size:1.2rem;margin:0 0 4px;overflow-wrap:anywhere}
#note{margin:0 0 4px;color:#444;overflow-wrap:anywhere}
#result{margin:0;font-weight:600;overflow-wrap:anywhere}
main{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
#stage{flex:1 1 520px;min-width:0}
#board-img{display:block;max-width:100%;max-height:80vh;width:auto;height:auto;margin:0 auto}
#board-text{max-width:100%;overflow-x:auto;margin:0;padding:8px;background:#fff;border:1px solid #ccc;font-size:14px}
#status,#clocks{margin:6px 0;overflow-wrap:anywhere}
#clocks{font-variant-numeric:tabular-nums;color:#444}
#controls{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
#controls button{font:inherit;padding:8px 12px;min-width:44px;min-height:44px;border:1px solid #888;border-radius:6px;background:#fff}
#controls button[aria-pressed=true]{background:#2a5db0;color:#fff}
#movelist{flex:1 1 280px;min-width:0}
#movelist h2{font-size:1rem;margin:0 0 4px}
#moves{position:relative;list-style:none;margin:0;padding:0;max-height:75vh;overflow-y:auto;background:#fff;border:1px solid #ccc}
#moves a{display:block;padding:5px 8px;color:inherit;text-decoration:none;overflow-wrap:anywhere;border-bottom:1px solid #eee}
#moves .n{display:inline-block;min-width:2.5em;color:#777;font-variant-numeric:tabular-nums}
#moves .dm{font-style:italic;color:#555}
#moves .mark,#review li{color:#9a5b00}#review img{max-width:100%}
#moves .refused,#refused{margin:0;padding:3px 8px 5px 3.3em;color:#8a1c1c;white-space:pre-line;overflow-wrap:anywhere}
#refused{padding:0}
#moves li.current a{background:#2a5db0;color:#fff}
#moves li.current .n,#moves li.current .dm{color:#dde}
@media (max-width:700px){#moves{max-height:45vh}}
@media (max-width:480px){#controls .word{display:none}#controls button{flex:1 1 auto}}
"""

_SCRIPT = """
(function () {
  "use strict";
  var frames = JSON.parse(document.getElementById("frames").textContent);
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var img = document.getElementById("board-img");
  var pre = document.getElementById("board-text");
  var list = document.getElementById("moves");
  var items = list.querySelectorAll("li");
  var status = document.getElementById("status");
  var clocks = document.getElementById("clocks");
  var refused = document.getElementById("refused");
  var result = document.getElementById("result");
  var play = document.getElementById("play");
  // The page's words, said in its language with {fields} the script fills in.
  var said = {
    status: status.getAttribute("data-said"),
    alt: img.getAttribute("data-said"),
    play: play.getAttribute("data-play"),
    pause: play.getAttribute("data-pause")
  };
  var last = steps.length - 1;
  var MIN_SCALE = parseFloat(document.body.getAttribute("data-min-scale")) || 0.6;
  var current = -1;
  var timer = null;

  function fill(template, values) {
    // One pass, so that a field's value (a move, a name) is never read as a field.
    return template.replace(/\\{(\\w+)\\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function keepInView(li) {
    var top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) { list.scrollTop = bottom - list.clientHeight; }
  }

  function go(n) {
    n = Math.max(0, Math.min(last, n));
    var step = steps[n], frame = frames[step.f];
    if (frame.png) {
      if (img.getAttribute("src") !== frame.png) {
        img.src = frame.png;
        // Never smaller than MIN_SCALE of its size: a tall board fitted to the window's height
        // had its text a few pixels high; the page scrolls instead.
        img.style.maxHeight = "max(80vh, " + Math.ceil(frame.h * MIN_SCALE) + "px)";
      }
      img.alt = fill(said.alt, {step: n});
      img.hidden = false; pre.hidden = true;
    } else {
      pre.textContent = frame.text;
      pre.hidden = false; img.hidden = true;
    }
    if (current >= 0 && current !== n) {
      items[current].classList.remove("current");
      items[current].firstElementChild.removeAttribute("aria-current");
    }
    items[n].classList.add("current");
    items[n].firstElementChild.setAttribute("aria-current", "step");
    keepInView(items[n]);
    status.textContent = fill(said.status, {step: n, last: last, what: step.t});
    clocks.textContent = step.c;
    clocks.hidden = !step.c;
    refused.textContent = step.x;
    refused.hidden = !step.x;
    // The result only once the last step is reached: before, it would give the ending away.
    result.textContent = n === last ? steps[last].r : "";
    result.hidden = n !== last;
    document.body.setAttribute("data-step", String(n));
    current = n;
    if (n === last) { stop(); }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = said.play;
    play.setAttribute("aria-pressed", "false");
  }

  function start() {
    if (current === last) { go(0); }
    var interval = parseInt(document.body.getAttribute("data-interval"), 10) || 1000;
    timer = setInterval(function () { go(current + 1); }, interval);
    play.textContent = said.pause;
    play.setAttribute("aria-pressed", "true");
  }

  function remember(n) {
    try { history.replaceState(null, "", "#step-" + n); } catch (e) { /* a page opened from a file may refuse */ }
  }

  function fromHash() {
    var found = /^#step-(\\d+)$/.exec(location.hash);
    return found ? parseInt(found[1], 10) : null;
  }

  list.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-step]");
    if (!link) { return; }
    event.preventDefault();
    stop();
    var n = parseInt(link.getAttribute("data-step"), 10);
    go(n); remember(n);
  });
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    if (event.key !== "End") { stop(); }
    go(to);
  });
  window.addEventListener("hashchange", function () { var n = fromHash(); if (n !== null) { go(n); } });
  var opened = fromHash();
  go(opened === null ? 0 : opened);
  document.body.setAttribute("data-ready", "true");
})();
"""


def _json(value: Any) -> str:
    """JSON to sit inside ``<script>``: no ``<``, ``>`` or ``&`` (so no ``</script>`` in a name)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def seat_label(seat: str | None, names: Mapping[str, str]) -> str:
    """``Hyunmin (p1)``, ``host``, or the seat alone when it has no name of its own."""
    if seat is None:
        return ""
    name = names.get(seat, "")
    return f"{name} ({seat})" if name and name != seat else seat


def step_text(step: PageStep, names: Mapping[str, str]) -> Message:
    """What the move list and the status line say of a step."""
    if step.seat is None:
        return say("the start")
    who = Verbatim(seat_label(step.seat, names))
    if step.private:
        return say("{who} sent a private submission", who=who)
    return say("{who}: {move}", who=who, move=Verbatim(step.text))


def clock_text(step: PageStep, names: Mapping[str, str]) -> Message | None:
    """The clocks of a step, ``Clocks: Hyunmin 0:52+5:00, Dongmin 1:00+5:00`` (``None`` without any)."""
    shown = [Verbatim(f"{names.get(seat) or seat} {value}") for seat, value in step.clocks.items() if value]
    return say("Clocks: {clocks}", clocks=Listing(tuple(shown))) if shown else None


def png_uri(data: bytes) -> str:
    """The ``data:`` URI a page shows the PNG ``data`` with."""
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def png_height(data: bytes) -> int:
    """The height in pixels of the PNG ``data`` (read from its header)."""
    return int.from_bytes(data[20:24], "big")


def _frames(steps: Sequence[PageStep]) -> tuple[list[dict[str, Any]], list[int]]:
    """The distinct boards of the steps (each once) and, for every step, the index of its board."""
    frames: list[dict[str, Any]] = []
    seen: dict[bytes | str, int] = {}
    order: list[int] = []
    for step in steps:
        key: bytes | str = step.picture if step.picture is not None else step.board
        if key not in seen:
            seen[key] = len(frames)
            if step.picture is not None:
                frames.append({"png": png_uri(step.picture), "h": png_height(step.picture)})
            else:
                frames.append({"text": step.board})
        order.append(seen[key])
    return frames, order


def refused_text(step: PageStep, names: Mapping[str, str], words: Words) -> str:
    """The lines refused after a step, one a line ("" for none): a refused line is no move."""
    return "\n".join(words(note.said(names)) for note in step.refused)


def _move_item(step: PageStep, names: Mapping[str, str], words: Words, marks: Mapping[int, str]) -> str:
    n = step.index
    body = html.escape(words(step_text(step, names)))
    if step.private:
        body = f'<span class="dm">{body}</span>'
    # Refused lines sit under the step they followed, inside its entry (no step of their own).
    refused = "".join(f'<p class="refused">{html.escape(words(note.said(names)))}</p>' for note in step.refused)
    if n in marks:  # the engine review's mark: what the move threw away, the better move
        refused = f'<p class="mark">{html.escape(marks[n])}</p>{refused}'
    # The entry carries no id: an address's #step-N is the page's to go to, not the window's to scroll to.
    return (
        f'<li data-step="{n}"><a href="#step-{n}" data-step="{n}"><span class="n">{n}.</span> {body}</a>{refused}</li>'
    )


def replay_page(
    steps: Sequence[PageStep],
    *,
    title: str,
    result: str,
    names: Mapping[str, str] | None = None,
    interval_ms: int = PLAY_INTERVAL_MS,
    note: str = "",
    language: str = ENGLISH,
    review: str = "",
    marks: Mapping[int, str] | None = None,
) -> str:
    """The HTML text of the replay page of ``steps`` (the start first), headed ``title``, with the
    ``result`` line; ``names`` maps seats to the players' names for the move list; ``note``, when
    given, is a line under the title (how the page shows a long match). ``title``, ``result`` and
    ``note`` are said already; the page's own words (its controls, the move list, the status line)
    are said in ``language``. Each distinct board is in the page once. ``review``: the engine
    review's section (HTML, :mod:`.review_page`), ``marks`` its marked moves' lines by step."""
    if not steps:
        raise ValueError("a replay page needs at least the start")
    names = dict(names or {})
    words = Words(language)

    def said(message: Message) -> str:
        return html.escape(words(message), quote=True)

    def clocks(step: PageStep) -> str:
        shown = clock_text(step, names)
        return words(shown) if shown is not None else ""

    frames, order = _frames(steps)
    data: list[dict[str, Any]] = [
        {"f": frame, "t": words(step_text(step, names)), "c": clocks(step), "x": refused_text(step, names, words)}
        for step, frame in zip(steps, order)
    ]
    data[-1]["r"] = result  # the result is the last step's: shown only there
    last = len(steps) - 1
    first = frames[order[0]]
    img_src = html.escape(first.get("png", ""), quote=True)
    first_text = html.escape(first.get("text", ""))
    has_img = "png" in first
    moves = "\n".join(_move_item(step, names, words, marks or {}) for step in steps)
    # The status line and the board's text, said with the fields the script fills in at each step.
    status_said = say(
        "Step {step} of {last}: {what}", step=Verbatim("{step}"), last=Verbatim("{last}"), what=Verbatim("{what}")
    )
    alt_said = say("The board at step {step}", step=Verbatim("{step}"))
    height = first.get("h")
    img_style = f' style="max-height:max(80vh, {math.ceil(int(height) * MIN_SCALE)}px)"' if height else ""
    return f"""<!DOCTYPE html>
<html lang="{html.escape(language, quote=True)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body data-interval="{int(interval_ms)}" data-steps="{len(steps)}" data-min-scale="{MIN_SCALE}">
<header>
<h1>{html.escape(title)}</h1>
{f'<p id="note">{html.escape(note)}</p>' if note else ""}
<p id="result"{"" if last == 0 else " hidden"}>{html.escape(result) if last == 0 else ""}</p>
</header>
{review}<main>
<section id="stage" aria-label="{said(say("Board"))}">
<p id="status" aria-live="polite" data-said="{said(status_said)}">{said(say("Step {step} of {last}: {what}", step=0, last=last, what=step_text(steps[0], names)))}</p>
<p id="clocks"{"" if clocks(steps[0]) else " hidden"}>{html.escape(clocks(steps[0]))}</p>
<p id="refused"{"" if steps[0].refused else " hidden"}>{html.escape(refused_text(steps[0], names, words))}</p>
<div id="controls">
<button type="button" id="first" title="{said(say("First (Home)"))}" aria-label="{said(say("First"))}">&#xAB;<span class="word"> {said(say("First"))}</span></button>
<button type="button" id="prev" title="{said(say("Previous (Left arrow)"))}" aria-label="{said(say("Previous"))}">&#x25C0;<span class="word"> {said(say("Previous"))}</span></button>
<button type="button" id="play" aria-pressed="false" data-play="{said(say("Play"))}" data-pause="{said(say("Pause"))}">{said(say("Play"))}</button>
<button type="button" id="next" title="{said(say("Next (Right arrow)"))}" aria-label="{said(say("Next"))}"><span class="word">{said(say("Next"))} </span>&#x25B6;</button>
<button type="button" id="last" title="{said(say("Last (End)"))}" aria-label="{said(say("Last"))}"><span class="word">{said(say("Last"))} </span>&#xBB;</button>
</div>
<img id="board-img" src="{img_src}" alt="{said(say("The board at step {step}", step=0))}" data-said="{said(alt_said)}"{img_style}{"" if has_img else " hidden"}>
<pre id="board-text"{" hidden" if has_img else ""}>{first_text}</pre>
</section>
<nav id="movelist" aria-label="{said(say("Moves"))}">
<h2>{said(say("Moves"))}</h2>
<ol id="moves">
{moves}
</ol>
</nav>
</main>
<script type="application/json" id="frames">{_json(frames)}</script>
<script type="application/json" id="steps">{_json(data)}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def page_of(match: PageMatch, review: tuple[str, Mapping[int, str]] | None = None) -> str:
    """The replay page of a gathered match (:func:`record_steps`, :func:`match_steps`); ``review``:
    the engine review's section and marks (:func:`.review_page.review_parts`)."""
    section, marks = review or ("", {})
    return replay_page(
        match.steps,
        title=match.title,
        result=match.result,
        names=match.names,
        note=match.note,
        language=match.language,
        review=section,
        marks=marks,
    )


# --------------------------------------------------------------------------- the command


def _language(args: argparse.Namespace) -> str:
    """``--language``, else the settings' GENIUSBOT_LANGUAGE (the environment's, run on its own), else English."""
    given = getattr(args, "language", None) or getattr(getattr(args, "settings", None), "geniusbot_language", None)
    return str(given or os.environ.get("GENIUSBOT_LANGUAGE", "").strip() or "en")


def _say(args: argparse.Namespace, said: Message) -> None:
    line = say("{command}: {line}", command=Verbatim("geniusbot replay"), line=said)
    print(Words(_language(args))(line), file=sys.stderr)


def _said_of(error: BaseException) -> Message:
    """What an error says: its message, or its text as it is (the settings' own words, quoted
    as they are)."""
    said = getattr(error, "said", None)
    return said if isinstance(said, Message) else say("{text}", text=Verbatim(str(error)))


async def _gathered(args: argparse.Namespace) -> PageMatch | int:
    """The match the arguments name (a record file, or ``--match`` in ``--db``), or exit 2 said."""
    from geniusbot.record import RecordError, parse_record
    from geniusbot.record.file import RecordUnreadable, read_record

    if getattr(args, "match", None) is not None:
        return await _stored(args)
    if not getattr(args, "file", None):
        _say(args, say("give a record FILE, or --match N with --db URL for a stored match."))
        return 2
    try:
        text, _ = read_record(args.file)  # '-' is standard input; at most the largest record is read
    except RecordUnreadable as error:
        _say(args, error.said)
        return 2
    try:
        return await asyncio.to_thread(functools.partial(record_steps, parse_record(text), language=_language(args)))
    except RecordError as error:
        words = Words(_language(args))
        refusal = Verbatim(" ".join(words(error.said).split()))  # one line, whatever a game's message holds
        _say(args, say("{file}: {refusal}", file=Verbatim(str(args.file)), refusal=refusal))
        return 2


async def _stored(args: argparse.Namespace) -> PageMatch | int:
    from geniusbot.storage import MatchNotFound, StorageUnavailable, Store
    from geniusbot.storage.db import checked_url

    if not getattr(args, "db", None):
        _say(args, say("--match needs --db URL, the database the match is in (a SQLite file or a database URL)."))
        return 2
    try:
        url = checked_url(args.db, "--db")
    except ValueError as error:
        _say(args, say("{problem}.", problem=_said_of(error)))
        return 2
    shown = Verbatim(repr(url))
    if url.startswith("sqlite") and "///" in url:
        where = url.split("///", 1)[1].split("?", 1)[0]
        if where and where != ":memory:" and not Path(where).exists():
            _say(args, say("there is no database file {file}; check --db.", file=Verbatim(repr(where))))
            return 2
    try:
        store = await Store.open(url, migrate=False)
    except StorageUnavailable as error:
        _say(args, say("{error} The database was {url}.", error=error.said, url=shown))
        return 2
    except Exception as error:  # a bad URL, a schema it does not know
        _say(
            args,
            say("the database {url} cannot be opened ({error}); check --db.", url=shown, error=Verbatim(str(error))),
        )
        return 2
    try:
        return await match_steps(store, args.match, language=_language(args))
    except MatchNotFound:
        _say(args, say("there is no match #{id} in {url}.", id=args.match, url=shown))
        return 2
    except PageRefused as error:
        _say(args, error.said)
        return 2
    finally:
        await store.close()


async def html_command(args: argparse.Namespace, review: tuple[str, Mapping[int, str]] | None = None) -> int:
    """``--html OUT``: write the replay page of ``args.file`` (a record) or of ``args.match`` in
    ``args.db`` (with the engine review's ``review`` parts, when given); exit 0 when written, 2
    when nothing could be (and nothing is)."""
    gathered = await _gathered(args)
    if isinstance(gathered, int):
        return gathered
    text = page_of(gathered, review)
    out = Path(args.html)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        _say(
            args,
            say(
                "cannot write {file}: {why}.",
                file=Verbatim(repr(str(out))),
                why=Verbatim(str(error.strerror or error)),  # the system's own words
            ),
        )
        return 2
    frames = len({step.picture or step.board for step in gathered.steps})
    boards = (
        say("distinct text boards (too many steps for a picture of each)") if gathered.note else say("distinct boards")
    )
    wrote = say(
        "Wrote {out} ({size} bytes): {steps} steps, {frames} {boards}.",
        out=Verbatim(str(out)),
        size=Verbatim(f"{len(text.encode('utf-8')):,}"),
        steps=len(gathered.steps),
        frames=frames,
        boards=boards,
    )
    print(Words(_language(args))(wrote))
    return 0


def build_parser() -> SaidParser:
    """The standalone command's arguments (the same as ``geniusbot replay``'s for a page), its help
    in GENIUSBOT_LANGUAGE (the environment's; English without it)."""
    from geniusbot.words.parser import SaidParser

    parser = SaidParser(
        prog="python -m geniusbot.archive.page", words=Words(os.environ.get("GENIUSBOT_LANGUAGE") or "en")
    )
    parser.description = parser.said(
        say("Write the replay page of a match record, or of a stored match: one HTML file, no network.")
    )
    parser.add_argument("file", nargs="?", help=parser.said_help(say("the record file (leave out with --match)")))
    parser.add_argument("--html", required=True, metavar="OUT", help=parser.said_help(say("the HTML file to write")))
    parser.add_argument(
        "--match", type=int, metavar="N", help=parser.said_help(say("a stored match (ended) instead of a record file"))
    )
    parser.add_argument(
        "--db", metavar="URL", help=parser.said_help(say("the database of --match: a SQLite file or a database URL"))
    )
    parser.add_argument(
        "--language",
        metavar="CODE",
        help=parser.said_help(
            say(
                "the language of the page: en, a language with a catalogue, or qps, the pseudo-language "
                "(default: GENIUSBOT_LANGUAGE, else en)"
            )
        ),
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m geniusbot.archive.page FILE --html OUT`` (or ``--match N --db URL``)."""
    return asyncio.run(html_command(build_parser().parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
