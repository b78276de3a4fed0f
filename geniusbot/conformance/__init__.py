"""The per-game conformance checks: the contract every game keeps (``docs/writing-a-game.md``),
as plain code that raises :class:`CheckFailed` with a sentence of what is wrong and what to do.

``geniusbot check GAME`` runs them all on any installed game (:mod:`.command`); geniusbot's own
test suite runs the same functions on every registered game, so a plug-in is held to exactly
the contract the built-in games are. The checks need no test runner.

===============  ==============================================================================
module           what it checks
===============  ==============================================================================
:mod:`.rules`    the class's declarations; random games to their end, every invariant after every
                 action, the record replayed; event kinds; timeouts; options; moves sent to the
                 wrong place; timeouts of stopped clocks; keywords
:mod:`.texts`    command names are never moves; text boards are never JSON; ``help`` offers a
                 legal move; the picture draws every view alike and its result banner fits
:mod:`.purity`   the rules import only the standard library and ``geniusbot.games``; no event kind
                 is a string in the source
:mod:`.hosted`   random matches through the real host and a database: the exported record, the
                 replay from snapshots, one view built per action
:mod:`.checks`   every check by name (:data:`~.checks.CHECKS`) and the runner
===============  ==============================================================================
"""

from .failures import CheckFailed as CheckFailed, expect as expect, where as where
