"""The docs stand alone: no page names a file outside the repository or links out of it.

Every ruling is stated in the project's own pages (each game's in ``docs/rules/<game>.md``, the
host's in ``docs/host.md``), so no page may send a reader to a rulings file that the repository
does not hold, and every relative link must reach a file of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# [text](target) and ![alt](target); the target ends at a space (a title may follow) or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+[^)]*)?\)")
# [label]: target, a reference-style link definition.
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # https:, mailto: ...
OUTSIDE_NAMES = ("RULINGS.md",)


def doc_files() -> list[Path]:
    """The repository's docs: the README, CONTRIBUTING, docs/ and the examples' READMEs."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "examples").rglob("README.md"))
    return [f for f in files if f.is_file()]


def link_targets(text: str) -> list[str]:
    """The link targets in a page's Markdown (inline, images and reference definitions)."""
    return [m.group(1) for m in LINK.finditer(text)] + [m.group(1) for m in REFERENCE.finditer(text)]


def problems(page: Path, text: str, root: Path = ROOT) -> list[str]:
    """What in ``text`` (the page at ``page``) names or links to something outside ``root``."""
    found = []
    for name in OUTSIDE_NAMES:
        if name.lower() in text.lower():
            found.append(f"names {name}, which is not in the repository")
    for target in link_targets(text):
        if EXTERNAL.match(target) or target.startswith("#"):
            continue  # a web address, or a heading of this page
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not path:
            continue
        resolved = (root / path.lstrip("/")) if path.startswith("/") else (page.parent / path)
        resolved = resolved.resolve()
        if not resolved.is_relative_to(root.resolve()):
            found.append(f"links to {target}, outside the repository")
        elif not resolved.exists():
            found.append(f"links to {target}, which does not exist in the repository")
    return found


def test_the_docs_are_found() -> None:
    names = {f.relative_to(ROOT).as_posix() for f in doc_files()}
    assert {"README.md", "CONTRIBUTING.md", "docs/host.md", "docs/rules/tiles.md"} <= names
    assert "examples/blackwhite/README.md" in names


@pytest.mark.parametrize("page", doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_page_stands_alone(page: Path) -> None:
    assert problems(page, page.read_text(encoding="utf-8")) == []


def test_the_check_catches_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("here")
    page = tmp_path / "docs" / "page.md"
    text = "\n".join(
        [
            "As `RULINGS.md` says.",
            "[up and out](../../shared/seeds/000.md)",
            "[missing](nothere.md)",
            "![picture](/img/none.png)",
            "[ref]: ../../outside.md",
            "[fine](here.md#a-heading) [web](https://example.com/x.md) [anchor](#rules)",
        ]
    )
    assert problems(page, text, tmp_path) == [
        "names RULINGS.md, which is not in the repository",
        "links to ../../shared/seeds/000.md, outside the repository",
        "links to nothere.md, which does not exist in the repository",
        "links to /img/none.png, which does not exist in the repository",
        "links to ../../outside.md, outside the repository",
    ]


RULED_PAGES = sorted((ROOT / "docs" / "rules").glob("*.md")) + [ROOT / "docs" / "host.md"]


@pytest.mark.parametrize("page", RULED_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_rulings_are_numbered_one_by_one(page: Path) -> None:
    """Each game's page and the host's hold their rulings under "## Rulings", numbered 1, 2, 3 ...,
    so that code, tests and other pages can cite a ruling by its page and number."""
    text = page.read_text(encoding="utf-8")
    assert "\n## Rulings\n" in text
    section = text.split("\n## Rulings\n", 1)[1].split("\n## ", 1)[0]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", section, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers
