"""Comments cite what a newcomer has: docs/ (rules, protocol, glossary), the README, a module, a
formula's source. Never a ticket number ("issue 14") — the reason belongs in the comment — and
never a file outside this repository (the shared rules and conventions files, the rule pages'
"seed" numbers, a machine's paths): docs/architecture.md "How code is shaped here".

Every source and documentation file of the repository is read, comments and docstrings
included; a citation broken over two comment lines is found too."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED_SUFFIXES = {".py", ".js", ".mjs", ".html", ".css", ".md", ".toml", ".txt", ".conf", ".sh"}
CHECKED_NAMES = {"Makefile", "run"}  # the Makefile, .ci/run
# Not ours (installed packages, collected static files, caches) or not comments (translations).
SKIPPED_FOLDERS = {"__pycache__", "staticfiles", "build", "node_modules", "locale"}
# A line break inside a comment, a docstring or a template comment, with the next line's marker.
LINE_BREAK = re.compile(r"\n[ \t]*(?:#|//|\*|\{#)?[ \t]*")
# Written in pieces so that this file does not cite what it forbids.
FORBIDDEN = {
    "an issue number": re.compile(r"\b[Ii]ssues?\s*(?:#\s*)?\d+|\b[Ii]ssue\s*#"),
    "a file outside the repository": re.compile(
        "|".join(
            (
                r"\bRULES" + r"\.md",
                r"\bCONVENTIONS" + r"\.md",
                r"\.\./" + "shared",
                r"/" + r"work/",
                r"\b[Ss]eeds?\s+0" + r"0\d",
            )
        )
    ),
}


def source_files() -> list[Path]:
    """The repository's own files (a walk: a test starts no process, not even git)."""
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [
            name
            for name in folders
            if name not in SKIPPED_FOLDERS
            and (not name.startswith(".") or name == ".ci")
            and not name.endswith(".egg-info")
        ]
        found.extend(
            Path(folder) / name
            for name in files
            if Path(name).suffix in CHECKED_SUFFIXES or name in CHECKED_NAMES
        )
    return found


def citations(text: str) -> list[tuple[str, str]]:
    flat = LINE_BREAK.sub(" ", text)
    return [
        (what, flat[max(0, found.start() - 30) : found.end() + 10].strip())
        for what, pattern in FORBIDDEN.items()
        for found in pattern.finditer(flat)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Guests play casual games only (issue #16).", ["an issue number"]),
        ('"""A ban (issue\n    14): like resigning."""', ["an issue number"]),
        ("// Issue 17 on the page", ["an issue number"]),
        ("{# Provably fair dice (issues 18 and 19) #}", ["an issue number"]),
        (
            "# The head rule (" + "RULES" + '.md "A turn", item 4)',
            ["a file outside the repository"],
        ),
        ("# 1-2-4-8 (seed 0" + "03)", ["a file outside the repository"]),
        ("# thin (" + "CONVENTIONS" + ".md)", ["a file outside the repository"]),
        ("# The head rule (docs/rules.md, A turn, item 4)", []),
        ("# The Ukrainian rules page (docs/rules.md); a client seed 42, issued once", []),
    ],
)
def test_the_check_finds_what_it_should(text: str, expected: list[str]) -> None:
    assert [what for what, _ in citations(text)] == expected


def test_no_comment_cites_an_issue_number_or_a_file_outside_the_repository() -> None:
    found = {}
    for path in source_files():
        name = str(path.relative_to(ROOT))
        if path == Path(__file__).resolve():
            continue
        hits = citations(path.read_text(errors="replace"))
        if hits:
            found[name] = hits
    assert not found, "cite docs/ or say why instead:\n" + "\n".join(
        f"{name}: {what}: …{excerpt}…" for name, hits in found.items() for what, excerpt in hits
    )
