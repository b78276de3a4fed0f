"""The plain-text match record, and what a record's actions do to a game.

===================  ==============================================================================
module               what it holds
===================  ==============================================================================
:mod:`.format`       the text: :class:`Record` and :class:`RecordLine`, :func:`parse_record`,
                     :func:`format_record`; the headers and the game they describe
                     (:func:`game_from_record`, :func:`record_from_game`)
:mod:`.file`         a record file's bytes: at most :data:`~.file.MAX_RECORD_BYTES`, UTF-8
:mod:`.actions`      an action as data (:class:`ActionKind`, :class:`GameAction`), the ``host:``
                     line grammar (:func:`read_host_line`, :func:`write_host_line`) and the one
                     function that applies an action to a game (:func:`apply_action`)
===================  ==============================================================================

The package sits just above the games (it imports the rules API, nothing else of geniusbot):
the adjudicator, the store, the host, the archive and the practice opponent all read it.
"""

from __future__ import annotations

from .actions import (
    GAME_KINDS,
    HOST_KINDS,
    MOVE_KINDS,
    Action,
    ActionKind,
    GameAction,
    apply_action,
    host_action,
    read_host_line,
    write_host_line,
)
from .file import MAX_RECORD_BYTES, RecordUnreadable, read_record, read_record_bytes, record_text
from .format import (
    BOM,
    METADATA_HEADERS,
    OPTIONAL_OPTION_HEADERS,
    RECORD_SEATS,
    STANDARD_HEADERS,
    Record,
    RecordError,
    RecordLine,
    checked_line,
    format_line,
    format_record,
    game_from_record,
    game_options,
    header_to_option,
    join_record,
    option_to_header,
    parse_record,
    read_result,
    record_from_game,
    result_text,
)

__all__ = [
    "BOM",
    "GAME_KINDS",
    "HOST_KINDS",
    "MAX_RECORD_BYTES",
    "METADATA_HEADERS",
    "MOVE_KINDS",
    "OPTIONAL_OPTION_HEADERS",
    "RECORD_SEATS",
    "STANDARD_HEADERS",
    "Action",
    "ActionKind",
    "GameAction",
    "Record",
    "RecordError",
    "RecordLine",
    "RecordUnreadable",
    "apply_action",
    "checked_line",
    "format_line",
    "format_record",
    "game_from_record",
    "game_options",
    "header_to_option",
    "host_action",
    "join_record",
    "option_to_header",
    "parse_record",
    "read_host_line",
    "read_record",
    "read_record_bytes",
    "read_result",
    "record_from_game",
    "record_text",
    "result_text",
    "write_host_line",
]
