"""What the All Hands On Deck family shares: the three tasks, their anomalies, and reading an
anomaly list.

Every task game (``tiles``, ``decks``, ``swabbing``) takes an ``anomalies`` option, and the final
match (``allhands``) reads anomaly names in bans and overrides; both read names here, so that a
spelling the one accepts the other accepts too.

Names are written in any case, with hyphens, spaces or underscores inside a name or none
(``Pick Your Prize``, ``pick-your-prize``, ``pickyourprize``); a list is separated by commas,
semicolons or spaces. ``none`` (or nothing) is the empty list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from geniusbot.games.base import OptionError
from geniusbot.words import Listing, Message, Verbatim, say, say_c

#: The three tasks in the order the final match plays them (1-2-3-1-2-3...).
TASKS: tuple[str, ...] = ("tiles", "decks", "swabbing")

#: Each task's title, as the rule text names it.
TASK_TITLES: dict[str, str] = {
    "tiles": "Tile Decklaration",
    "decks": "Dueling Decks",
    "swabbing": "Deck Swabbing",
}

#: Each task's five anomalies (canonical names), in the order the rule text lists them.
TASK_ANOMALIES: dict[str, tuple[str, ...]] = {
    "tiles": ("chain", "implode", "landmine", "rainbow", "rectangle-adverse"),
    "decks": ("backup", "darkness", "overshadow", "pick-your-prize", "revolution"),
    "swabbing": ("hook", "linear", "pyramid", "snipe", "unique"),
}

#: Each task's title as a phrase of a message (``say(..., task=TASK_TITLE_WORDS["tiles"])``).
TASK_TITLE_WORDS: dict[str, Message] = {
    "tiles": say_c("task", "Tile Decklaration"),
    "decks": say_c("task", "Dueling Decks"),
    "swabbing": say_c("task", "Deck Swabbing"),
}

#: Each anomaly's name (canonical) as a phrase of a message.
ANOMALY_WORDS: dict[str, Message] = {
    "chain": say_c("anomaly", "chain"),
    "implode": say_c("anomaly", "implode"),
    "landmine": say_c("anomaly", "landmine"),
    "rainbow": say_c("anomaly", "rainbow"),
    "rectangle-adverse": say_c("anomaly", "rectangle-adverse"),
    "backup": say_c("anomaly", "backup"),
    "darkness": say_c("anomaly", "darkness"),
    "overshadow": say_c("anomaly", "overshadow"),
    "pick-your-prize": say_c("anomaly", "pick-your-prize"),
    "revolution": say_c("anomaly", "revolution"),
    "hook": say_c("anomaly", "hook"),
    "linear": say_c("anomaly", "linear"),
    "pyramid": say_c("anomaly", "pyramid"),
    "snipe": say_c("anomaly", "snipe"),
    "unique": say_c("anomaly", "unique"),
}

#: An empty list of anomalies, as a phrase.
NO_ANOMALY = say_c("anomalies", "none")


def anomaly_list(names: Iterable[str]) -> Listing | Message:
    """Anomaly names (canonical) as a message's argument: their phrases in a row (``chain,
    rainbow``), or "none" for none."""
    items = tuple(ANOMALY_WORDS[name] for name in names)
    return Listing(items) if items else NO_ANOMALY


# A name of several words, written with spaces, must survive a list separated by spaces: each
# such name is rewritten to its canonical form before the list is split.
_MULTI_WORD = [
    (re.compile(r"[\s_\-']*".join(map(re.escape, name.split("-"))), re.IGNORECASE), name)
    for names in TASK_ANOMALIES.values()
    for name in names
    if "-" in name
]


def anomaly_key(name: str) -> str:
    """The spelling-blind key of an anomaly name: lower case, no spaces, hyphens, underscores."""
    return re.sub(r"[\s_\-']", "", name.lower())


_BY_KEY: dict[str, tuple[str, str]] = {
    anomaly_key(name): (task, name) for task, names in TASK_ANOMALIES.items() for name in names
}


def task_of(anomaly: str) -> str | None:
    """The task an anomaly name belongs to (``"backup"`` -> ``"decks"``), or ``None``."""
    found = _BY_KEY.get(anomaly_key(anomaly))
    return found[0] if found else None


def require_task(task: str) -> str:
    """``task`` if it names one of the three tasks, else :class:`OptionError`."""
    if task not in TASK_ANOMALIES:
        raise OptionError(
            say(
                "There is no task {task}; the tasks are {tasks}.",
                task=Verbatim(repr(task)),
                tasks=Verbatim(", ".join(TASKS)),
            )
        )
    return task


def anomaly_name(word: str, task: str) -> str:
    """The canonical name of one anomaly of ``task`` that ``word`` spells, or :class:`OptionError`
    saying which names the task takes (and, for another task's anomaly, whose it is)."""
    require_task(task)
    title, names = TASK_TITLE_WORDS[task], anomaly_list(TASK_ANOMALIES[task])
    found = _BY_KEY.get(anomaly_key(word))
    shown = Verbatim(repr(word.strip()))
    if found and found[0] == task:
        return found[1]
    if found:
        raise OptionError(
            say(
                "{word} is an anomaly of another task ({other}); {task} takes: {anomalies}.",
                word=shown,
                other=TASK_TITLE_WORDS[found[0]],
                task=title,
                anomalies=names,
            )
        )
    raise OptionError(
        say(
            "{task} has no anomaly {word}; choose from: {anomalies} (or none).", task=title, word=shown, anomalies=names
        )
    )


def split_anomaly_words(text: str) -> list[str]:
    """The names in a list, separated by commas, semicolons or spaces, each name whole
    (``"rainbow rectangle adverse"`` -> ``["rainbow", "rectangle-adverse"]``); ``none`` dropped."""
    text = text or ""
    for pattern, name in _MULTI_WORD:
        text = pattern.sub(name, text)
    return [word for word in re.split(r"[\s,;]+", text) if word and word.lower() != "none"]


def parse_anomalies(text: str, task: str) -> tuple[str, ...]:
    """The anomalies of ``task`` that an ``anomalies`` option names, in the rule text's order,
    or :class:`OptionError`.

    Names are the task's five (see :data:`TASK_ANOMALIES`), in any spelling the module docstring
    allows; a name given twice counts once; ``none`` or nothing means no anomaly.
    """
    chosen = {anomaly_name(word, task) for word in split_anomaly_words(text)}
    return canonical_order(chosen, task)


def canonical_order(anomalies: Iterable[str], task: str) -> tuple[str, ...]:
    """``anomalies`` (canonical names of ``task``) in the order the rule text lists them."""
    chosen = set(anomalies)
    return tuple(name for name in TASK_ANOMALIES[require_task(task)] if name in chosen)


__all__ = [
    "ANOMALY_WORDS",
    "NO_ANOMALY",
    "TASKS",
    "TASK_ANOMALIES",
    "TASK_TITLES",
    "TASK_TITLE_WORDS",
    "anomaly_key",
    "anomaly_list",
    "anomaly_name",
    "canonical_order",
    "parse_anomalies",
    "require_task",
    "split_anomaly_words",
    "task_of",
]
