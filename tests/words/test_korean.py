"""Korean beside English: geniusbot's Korean catalogue has every message of the code, each
translated (not empty, not left fuzzy), naming the fields of its English template, and nothing the
code no longer says. A new message fails here until its Korean is written (docs/words.md says how
the catalogue is brought up to date)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from geniusbot.words import Seat, Words, say
from geniusbot.words.message import fields

LOCALES = Path(__file__).resolve().parents[2] / "geniusbot" / "locales"


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


TEMPLATE = read(LOCALES / "geniusbot.pot")
KOREAN = read(LOCALES / "ko" / "LC_MESSAGES" / "geniusbot.po", "ko")


def test_every_message_of_the_code_has_its_korean():
    missing = sorted(keys(TEMPLATE) - keys(KOREAN), key=str)
    assert not missing, f"{len(missing)} messages have no Korean entry (pybabel update, then translate): {missing[:20]}"
    untranslated = [
        m.id for m in KOREAN if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))
    ]
    assert not untranslated, f"{len(untranslated)} Korean entries are empty or fuzzy: {untranslated[:20]}"


def test_the_korean_catalogue_keeps_nothing_the_code_no_longer_says():
    assert not keys(KOREAN) - keys(TEMPLATE), sorted(keys(KOREAN) - keys(TEMPLATE), key=str)[:20]


def test_every_korean_entry_names_the_fields_of_its_english():
    wrong = []
    for m in KOREAN:
        if not m.id:
            continue
        english = (m.id,) if isinstance(m.id, str) else m.id
        korean = m.string if isinstance(m.string, tuple) else (m.string,)
        # Korean has one plural form: it names the plural's fields (the number among them).
        if fields(korean[0]) not in {fields(english[-1]), fields(english[0])}:
            wrong.append((english[0], korean[0]))
    assert not wrong, wrong[:10]


def test_a_korean_server_reads_korean():
    words = Words("ko", names={"p1": "민수"})
    said = words(
        say("{seat} ran out of time; their lowest tile is played for them.", seat=Seat("p1"), domain="blackwhite")
    )
    assert said.startswith("민수")  # a plug-in's message without a Korean catalogue of its own stays English
    resigned = words(say("{seat} resigned", seat=Seat("p1")))
    assert "민수" in resigned and resigned != "민수 resigned"
    # Discord's locale for Korean is "ko"; a regional code finds the same catalogue.
    assert Words("ko-KR", names={"p1": "민수"})(say("{seat} resigned", seat=Seat("p1"))) == resigned
