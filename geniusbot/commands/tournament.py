"""``geniusbot tournament export``: a tournament's archive, its page (one self-contained HTML file
linking each match's replay page, written beside it) and its standings as CSV
(:mod:`geniusbot.standing.export`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from geniusbot.words.parser import SaidCommands


def add_parser(commands: SaidCommands) -> None:
    """Add ``tournament`` and its ``export`` to the launcher's sub-commands."""
    from geniusbot.words import say

    parser = commands.add_parser(
        "tournament",
        help=commands.said_help(say("export a tournament's page and standings")),
        description=commands.said(say("A tournament of a database, as files.")),
    )
    sub = parser.add_subparsers(
        dest="tournament_command",
        metavar="TOURNAMENT_COMMAND",
        title=parser.said(say("tournament commands")),
        required=True,
    )
    export = sub.add_parser(
        "export",
        help=sub.said_help(say("write a tournament's page (HTML) or its standings (CSV)")),
        description=sub.said(
            say(
                "Write tournament NUMBER of DATABASE_URL or --db: with --html OUT, one HTML file that loads "
                "nothing (the standings, the bracket of an elimination, every round's games) and, beside "
                "it, the replay page of each ended match it links (OUT-matchN.html); with --csv OUT, the "
                "standings, a player a line. Exit 0 when written, 2 for bad input (the message says what "
                "to fix)."
            )
        ),
    )
    export.add_argument("number", type=int, metavar="NUMBER", help=export.said_help(say("the tournament's number")))
    export.add_argument(
        "--db", metavar="URL", help=export.said_help(say("a SQLite file or database URL instead of DATABASE_URL"))
    )
    export.add_argument("--html", metavar="OUT", help=export.said_help(say("write the tournament's page to OUT")))
    export.add_argument("--csv", metavar="OUT", help=export.said_help(say("write the standings as CSV to OUT")))
    export.add_argument(
        "--language",
        metavar="CODE",
        help=export.said_help(
            say("the language of the page and the CSV's header (default: GENIUSBOT_LANGUAGE, else en)")
        ),
    )
    export.set_defaults(handler="geniusbot.commands.tournament:export_command")


async def export_command(args: argparse.Namespace) -> int:
    """``geniusbot tournament export NUMBER [--html OUT] [--csv OUT]``: exit 0 when written, 2 for
    bad input or a database that cannot be used."""
    from pathlib import Path

    from geniusbot.archive.page import page_of
    from geniusbot.archive.page_steps import PageRefused, match_steps
    from geniusbot.games import GameError, get_game
    from geniusbot.standing.export import replay_name, standings_csv, tournament_page
    from geniusbot.storage.tournaments import SIGNUP
    from geniusbot.words import Message, Verbatim, say

    from . import complainer, language_of, open_store, said_of, words_of
    from .replay import _database

    complain = complainer("tournament export", args)
    words = words_of(args)
    if not args.html and not args.csv:
        complain(say("give --html OUT for the tournament's page, --csv OUT for its standings, or both."))
        return 2
    try:
        url = _database(args)
    except ValueError as error:
        said = error.args[0] if error.args and isinstance(error.args[0], Message) else said_of(error)
        complain(said)
        return 2
    store = await open_store(url, complain)
    if store is None:
        return 2
    written: list[Path] = []
    try:
        tournament = await store.get_tournament(args.number)
        if tournament is None:
            complain(
                say(
                    "there is no tournament #{number} in {url}; check the number and --db.",
                    number=args.number,
                    url=Verbatim(repr(url)),
                )
            )
            return 2
        if tournament.status == SIGNUP:
            # Nothing is played before round 1: say when that comes, and who brings it on.
            when = (
                say(
                    "its sign-up closes at {time} UTC, or sooner when its host runs {start} on Discord",
                    time=Verbatim(tournament.signup_deadline.strftime("%Y-%m-%d %H:%M")),
                    start=Verbatim(f"/tournament start number:{args.number}"),
                )
                if tournament.signup_deadline is not None
                else say(
                    "its host starts it with {start} on Discord",
                    start=Verbatim(f"/tournament start number:{args.number}"),
                )
            )
            complain(
                say(
                    "tournament #{number} is still taking sign-ups, so there is nothing to export yet; {when}. "
                    "Export it once its first round has begun.",
                    number=args.number,
                    when=when,
                )
            )
            return 2
        entries, pairings = await store.entries(tournament.id), await store.pairings(tournament.id)
        files: dict[Path, str] = {}
        if args.csv:
            files[Path(args.csv)] = standings_csv(tournament, entries, pairings, words)
        if args.html:
            out = Path(args.html)
            replays: dict[int, str] = {}
            for pairing in pairings:
                if pairing.match_id is None:
                    continue
                try:
                    gathered = await match_steps(store, pairing.match_id, language=language_of(args))
                except PageRefused:
                    continue  # still being played: no page yet, listed without a link
                name = replay_name(out.stem, pairing.match_id)
                files[out.with_name(name)] = page_of(gathered)
                replays[pairing.match_id] = name
            try:
                game = get_game(tournament.game).title
            except GameError:
                game = tournament.game  # a game no longer installed: its name
            title = say(
                "Tournament #{number}: {game} ({variant})",
                number=tournament.id,
                game=Verbatim(game),
                variant=Verbatim(tournament.variant),
            )
            files[out] = tournament_page(tournament, entries, pairings, words, title=title, replays=replays)
    finally:
        await store.close()
    for path, text in files.items():
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            complain(
                say(
                    "cannot write {file}: {why}.",
                    file=Verbatim(repr(str(path))),
                    why=Verbatim(str(error.strerror or error)),
                )
            )
            return 2
        written.append(path)
    print(words(say("Wrote {files}.", files=Verbatim(", ".join(str(p) for p in written)))))
    return 0
