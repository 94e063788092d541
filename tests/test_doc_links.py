"""The documentation holds together: every link of the README and of docs/ leads to a file (and
heading) of the repository, every docs/ path named in code exists, and every section that code or
the documentation cites by name ("docs/operations.md "Production"", "README "Run it"") is still
there, as a heading, a bold term, a table's first cell, a paragraph's label ("Address: ...") or a
term
in backticks of that file
(README "Documentation")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_citations import LINE_BREAK, ROOT, source_files

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
DOCS_PATH = re.compile(r"(?<![\w/.])docs/[\w./-]*\w")
SECTION = re.compile(r"\b(docs/[\w-]+\.md|README)(?:'s)?,?\s+\"([^\"\n]{2,80})\"")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def named_places(document: Path) -> tuple[set[str], set[str]]:
    """A document's anchors, and the names a citation may use: headings, bold terms, first cells
    of table rows, commands in backticks (lower case)."""
    text = document.read_text()
    headings = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    names = {heading.lower() for heading in headings}
    names |= {term.lower() for term in re.findall(r"\*\*([^*\n]+)\*\*", text)}
    names |= {cell.strip(" `").lower() for cell in re.findall(r"^\|([^|\n]+)\|", text, re.M)}
    names |= {code.lower() for code in re.findall(r"`([^`\n]+)`", text)}
    names |= {label.lower() for label in re.findall(r"^([A-Z][\w ]{1,40}):", text, re.M)}
    return {slug(heading) for heading in headings}, names


def cited(section: str, names: set[str]) -> bool:
    wanted = section.lower()
    return any(name == wanted or name.startswith(wanted) or wanted in name for name in names)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_of_the_documentation_leads_somewhere(document: Path) -> None:
    broken = []
    for found in LINK.finditer(document.read_text()):
        target = found.group(1) or found.group(2)
        if re.match(r"[a-z]+:", target):  # https:, mailto: - outside the repository
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in named_places(resolved)[0]:
            broken.append(target)
    assert broken == [], f"{document.name}: links to nothing: {broken}"


def test_every_docs_path_and_cited_section_exists() -> None:
    missing, unknown = [], []
    places: dict[Path, set[str]] = {}
    for path in source_files():
        text = LINE_BREAK.sub(" ", path.read_text(errors="replace"))
        name = path.relative_to(ROOT)
        for found in DOCS_PATH.finditer(text):
            if not (ROOT / found.group(0).rstrip(".")).exists():
                missing.append(f"{name}: {found.group(0)}")
        for found in SECTION.finditer(text):
            target = ROOT / ("README.md" if found.group(1) == "README" else found.group(1))
            if not target.exists():
                continue  # reported above as a missing docs/ path
            if target not in places:
                places[target] = named_places(target)[1]
            if not cited(found.group(2), places[target]):
                unknown.append(f'{name}: {found.group(1)} "{found.group(2)}"')
    assert missing == [], "docs/ paths that do not exist:\n" + "\n".join(missing)
    assert unknown == [], "sections cited that their file does not have:\n" + "\n".join(unknown)


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [("Calls: STUN and TURN (`deploy/coturn/`)", "calls-stun-and-turn-deploycoturn"),
     ("The live path's budget", "the-live-paths-budget")],
)  # fmt: skip
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
