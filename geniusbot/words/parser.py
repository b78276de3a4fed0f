"""A command line's own words as messages: :class:`SaidParser` is argparse's parser with what
argparse itself says (the usage line, the section titles, ``-h``'s help, the error line) said by a
:class:`~geniusbot.words.Words`, and its sub-commands' parsers speaking the same language. What a
command says of itself (its help, its arguments' help) is given as messages too, said with
:meth:`SaidParser.said_help`. argparse's own error sentences ("the following arguments are
required: ...") are the one text it makes itself: they are quoted as they are in the error line.

Standard library and the words only: the launcher builds its parser before it reads any setting.
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from geniusbot.words.message import Message, Verbatim, say
from geniusbot.words.render import Words


class _SaidFormatter(argparse.HelpFormatter):
    """argparse's formatter with its usage line's prefix said by the parser's words."""

    def __init__(self, prog: str, *, usage: str = "usage: ", **kwargs: Any) -> None:
        super().__init__(prog, **kwargs)
        self._usage_prefix = usage

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, self._usage_prefix if prefix is None else prefix)


class _SaidRawFormatter(_SaidFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`_SaidFormatter` keeping a description's own line breaks (paragraphs, lists)."""


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction["SaidParser"]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class SaidCommands(_SubParsers):
    """A parser's sub-commands (argparse's sub-parsers action) that says a sub-command's help line
    in the parser's words: ``commands.add_parser("play", help=commands.said_help(say(...)))``."""

    words: Words = Words()

    def said_help(self, message: Message) -> str:
        """``message`` as a sub-command's help line (its ``%`` kept from argparse's formatting)."""
        return self.words(message).replace("%", "%%")

    def said(self, message: Message) -> str:
        """``message`` in the parser's words: for a sub-command's description."""
        return self.words(message)


class SaidParser(argparse.ArgumentParser):
    """An argument parser whose own words are said by ``words`` (English without it).

    ``raw_description``: the description's line breaks are kept, as argparse's
    ``RawDescriptionHelpFormatter`` keeps them. Sub-commands' parsers are of the same class and
    speak the same words."""

    def __init__(self, *args: Any, words: Words | None = None, raw_description: bool = False, **kwargs: Any) -> None:
        self.words = words or Words()
        formatter = _SaidRawFormatter if raw_description else _SaidFormatter
        kwargs["formatter_class"] = functools.partial(formatter, usage=self.words(say("usage: ")))
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False  # its own -h, with its help said
        super().__init__(*args, **kwargs)
        self._positionals.title = self.words(say("positional arguments"))
        self._optionals.title = self.words(say("options"))
        if add_help:
            self.add_argument("-h", "--help", action="help", help=self.said_help(say("show this help and exit")))

    def said_help(self, message: Message) -> str:
        """``message`` as an argument's help: in the parser's words, its ``%`` kept from argparse's
        own formatting of help texts."""
        return self.words(message).replace("%", "%%")

    def said(self, message: Message) -> str:
        """``message`` in the parser's words: for a description, a title, a sub-command's help line."""
        return self.words(message)

    def add_subparsers(self, **kwargs: Any) -> SaidCommands:  # type: ignore[override]
        """The sub-commands, as :class:`SaidCommands` whose parsers speak this parser's words."""
        kwargs.setdefault("parser_class", functools.partial(type(self), words=self.words))
        kwargs.setdefault("action", SaidCommands)
        commands = super().add_subparsers(**kwargs)
        assert isinstance(commands, SaidCommands)
        commands.words = self.words
        return commands

    def error(self, message: str) -> NoReturn:
        """Say the usage and ``prog: error: message`` on standard error and exit 2, as argparse does,
        in the parser's words (argparse's own sentence quoted as it is)."""
        self.print_usage(sys.stderr)
        line = say("{prog}: error: {message}", prog=Verbatim(self.prog), message=Verbatim(message))
        self.exit(2, self.words(line) + "\n")
