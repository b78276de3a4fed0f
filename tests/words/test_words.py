"""Words as data: a message is made into text in one place, for a language and the players.

English is the templates; another language comes from its gettext catalogue (a ``.po`` file in
the domain package's ``locales`` folder), plurals by that catalogue's rule; the pseudo-language
brackets and accents every message, so text that did not come from a message shows.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from geniusbot.words import (
    PSEUDO,
    Listing,
    Message,
    Seat,
    Verbatim,
    Words,
    pseudo,
    say,
    say_c,
    say_n,
    say_nc,
    spoken_names,
    unsaid,
)
from geniusbot.words.render import catalogue, languages

TIMEOUT = say("{seat} ran out of time", seat=Seat("p2"))


def test_english_is_the_template_with_its_arguments():
    assert Words()(TIMEOUT) == "p2 ran out of time"
    assert Words(names={"p1": "alice", "p2": "bob"})(TIMEOUT) == "bob ran out of time"


def test_a_number_picks_the_english_plural():
    anomalies = [say_n("{n} different anomaly", "{n} different anomalies", n=n) for n in (0, 1, 2)]
    assert [Words()(m) for m in anomalies] == ["0 different anomalies", "1 different anomaly", "2 different anomalies"]


def test_notation_is_said_as_written_and_a_phrase_in_the_same_language():
    red = say_c("colour", "red")
    move = say("{seat} places {colour} on {point}", seat=Seat("p1"), colour=red, point=Verbatim("H8"))
    assert Words(names={"p1": "alice"})(move) == "alice places red on H8"
    assert Words(PSEUDO, names={"p1": "alice"})(move) == "⟦alice ṕĺáçéś ⟦ŕéđ⟧ óñ H8⟧"


def test_english_cannot_come_in_through_an_argument():
    with pytest.raises(TypeError, match="words come from the catalogue"):
        say("{seat} ran out of time", seat="p2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a Seat, a Verbatim"):
        say("{n} points", n=True)
    with pytest.raises(TypeError, match="needs seat"):
        say("{seat} ran out of time")
    with pytest.raises(TypeError, match="its int argument n"):
        say_n("{seat} point", "{seat} points", seat=Seat("p1"))


def test_a_message_made_again_is_checked_as_the_first_was():
    # A message made again with the same parts is the one made before (pictures say the same
    # labels on every move); an argument equal to a kept one but of another class is not.
    assert say("{n} points", n=1) is say("{n} points", n=1)
    with pytest.raises(TypeError, match="a Seat, a Verbatim"):
        say("{n} points", n=True)
    with pytest.raises(TypeError, match="a Seat, a Verbatim"):
        say("{n} points", n=1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a Seat, a Verbatim"):
        say_n("{n} point", "{n} points", n=True)
    listed = say("{cards}", cards=Listing([1, 2]))  # type: ignore[arg-type]  # a list cannot be a key
    assert Words()(listed) == "1, 2" and Words()(listed) == "1, 2"


@pytest.mark.parametrize("remember", [False, True])
def test_words_say_a_message_again_as_they_said_it_first(remember: bool):
    # A card's words remember what they said (remember=True); either way the words are the same.
    words = Words(names={"p1": "alice", "p2": "bob"}, remember=remember)
    for _ in range(2):
        assert words(say("{seat} ran out of time", seat=Seat("p1"))) == "alice ran out of time"
        assert words(say("{seat} ran out of time", seat=Seat("p2"))) == "bob ran out of time"
        assert words(say_n("{n} point", "{n} points", n=1)) == "1 point"
        assert words(say_n("{n} point", "{n} points", n=2)) == "2 points"
    assert Words(PSEUDO)(say("{n} points", n=1)) == "⟦{n} ṕóíñţś⟧".replace("{n}", "1")


def test_a_message_is_a_value():
    assert say("{seat} ran out of time", seat=Seat("p2")) == TIMEOUT
    assert len({TIMEOUT, say("{seat} ran out of time", seat=Seat("p2"))}) == 1
    assert say("{seat} ran out of time", seat=Seat("p1")) != TIMEOUT


def test_the_pseudo_language_brackets_and_accents_every_word_but_keeps_the_fields():
    assert pseudo("{seat} ran out of time") == "⟦{seat} ŕáñ óúţ óƒ ţíḿé⟧"
    assert Words(PSEUDO)(TIMEOUT) == "⟦p2 ŕáñ óúţ óƒ ţíḿé⟧"
    assert Words(PSEUDO)(say_n("{n} tile", "{n} tiles", n=3)) == "⟦3 ţíĺéś⟧"


@pytest.mark.parametrize(
    ("names", "spoken"),
    [
        ({"p1": "alice", "p2": "bob"}, {"p1": "alice", "p2": "bob"}),
        ({"p1": "p1", "p2": "bob"}, {"p1": "p1", "p2": "bob"}),
        ({"p1": "", "p2": ""}, {}),
        # A name another seat's id can be read in, or one two players share: the label form.
        ({"p1": "P2 fan", "p2": "bob"}, {"p1": "P2 fan (p1)", "p2": "bob (p2)"}),
        ({"p1": "sam", "p2": "Sam"}, {"p1": "sam (p1)", "p2": "Sam (p2)"}),
    ],
)
def test_the_seats_are_said_by_name_unless_a_name_would_mislead(names, spoken):
    assert spoken_names(names) == spoken


def test_a_discord_locale_finds_its_language():
    assert languages("en-US") == ["en_US", "en"]
    assert languages("ko") == ["ko"]


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A package ``wordsplugin`` with Korean and Polish catalogues, on the path for the test."""
    package = tmp_path / "wordsplugin"
    catalogues = {
        "ko": """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=1; plural=0;\\n"

            msgid "{seat} ran out of time"
            msgstr "{seat}의 시간이 다 되었습니다"

            msgctxt "colour"
            msgid "red"
            msgstr "빨강"

            msgid "{n} tile"
            msgid_plural "{n} tiles"
            msgstr[0] "타일 {n}개"

            #, fuzzy
            msgid "{seat} resigned"
            msgstr "{seat} 기권"

            msgid "{seat} wins"
            msgstr "{player} 승리"
            """,
        "pl": """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

            msgctxt "board"
            msgid "{n} tile"
            msgid_plural "{n} tiles"
            msgstr[0] "{n} płytka"
            msgstr[1] "{n} płytki"
            msgstr[2] "{n} płytek"
            """,
    }
    for language, text in catalogues.items():
        folder = package / "locales" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "wordsplugin.po").write_text(textwrap.dedent(text), encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    catalogue.cache_clear()
    yield "wordsplugin"
    catalogue.cache_clear()
    sys.modules.pop("wordsplugin", None)


def test_another_language_comes_from_its_catalogue(plugin: str):
    korean = Words("ko", names={"p2": "bob"})
    assert korean(say("{seat} ran out of time", seat=Seat("p2"), domain=plugin)) == "bob의 시간이 다 되었습니다"
    assert korean(say_c("colour", "red", domain=plugin)) == "빨강"
    assert korean(say_n("{n} tile", "{n} tiles", n=3, domain=plugin)) == "타일 3개"
    # A Discord locale finds the language; a message the catalogue lacks stays English, and so
    # does one only marked fuzzy (a translator's guess not yet checked).
    assert Words("ko-KR")(say("{seat} ran out of time", seat=Seat("p1"), domain=plugin)) == "p1의 시간이 다 되었습니다"
    assert korean(say("{seat} passes", seat=Seat("p2"), domain=plugin)) == "bob passes"
    assert korean(say("{seat} resigned", seat=Seat("p2"), domain=plugin)) == "bob resigned"
    # A language no catalogue of the domain has stays English.
    assert Words("ja", names={"p2": "bob"})(TIMEOUT) == "bob ran out of time"
    # An empty message says nothing (gettext's "" would be the catalogue's header).
    assert korean(say("", domain=plugin)) == "" and Words("qps")(say("")) == ""


def test_the_catalogues_plural_rule_picks_the_form(plugin: str):
    polish = Words("pl")
    said = [polish(say_nc("board", "{n} tile", "{n} tiles", n=n, domain=plugin)) for n in (1, 3, 5, 22, 25)]
    assert said == ["1 płytka", "3 płytki", "5 płytek", "22 płytki", "25 płytek"]
    # Without its context the message is another one, which the catalogue lacks.
    assert polish(say_n("{n} tile", "{n} tiles", n=3, domain=plugin)) == "3 tiles"


def test_a_translation_that_names_other_fields_is_said_in_english(plugin: str, caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.WARNING):
        assert Words("ko")(say("{seat} wins", seat=Seat("p1"), domain=plugin)) == "p1 wins"
    assert "do not fit its arguments" in caplog.text


def test_english_and_an_unknown_language_read_no_catalogue(plugin: str):
    assert catalogue(plugin, "en-GB") is None
    assert catalogue(plugin, "xx") is None
    assert catalogue("no_such_package_here", "ko") is None
    assert Words("xx")(TIMEOUT) == "p2 ran out of time"


def test_a_message_of_its_own_kind_keeps_its_domain():
    message = Message("{seat} passes", {"seat": Seat("p1")}, domain="blackwhite")
    assert message.domain == "blackwhite" and Words()(message) == "p1 passes"


def test_making_english_words_imports_no_catalogue_reader():
    # A game's rules make messages (the standard library only), and the launcher's start-up pays
    # for Babel only when a language other than English is asked for.
    code = (
        "import sys; from geniusbot.words import Words, say, Seat; "
        "Words()(say('{seat} passes', seat=Seat('p1'))); print('babel' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_unsaid_is_what_no_message_said():
    assert unsaid("⟦Ḿáţçĥ #1 ⟦alice ṽś bob⟧⟧\n⟦x⟧: 12") == "\n: 12"
    assert unsaid("Result: ⟦áñđ ŵíñś⟧") == "Result: "
    for broken in ("⟦open", "closed⟧", "⟦a⟧⟧"):
        with pytest.raises(ValueError, match="bracket"):
            unsaid(broken)
