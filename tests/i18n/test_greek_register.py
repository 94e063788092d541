"""The Greek catalog speaks to the player in one register, the familiar singular, and puts no
gendered article before a player's name (docs/glossary.md, "Address")."""

from __future__ import annotations

import re
from pathlib import Path

import polib

CATALOG = Path(__file__).resolve().parents[2] / "locale/el/LC_MESSAGES/django.po"

# The polite (plural) forms the catalog once mixed in, addressing one player.
POLITE = re.compile(
    r"\b(σας|σάς|είστε|έχετε|μπορείτε|θέλετε|παίζετε|Παίζετε|Παίξτε|εγγραφείτε|Εγγραφείτε|"
    r"Συνδεθείτε|δοκιμάστε|Δοκιμάστε|Επιλέξτε|επιλέξτε|περιμένετε|ζητήσετε|ζητήσατε|τελειώστε|"
    r"δέχεστε|αρνείστε|αρνηθείτε|χάσετε|Διπλασιάσατε|διαλέξετε|κρατήσετε|αλλάξετε|πατήστε)\b"
)
# Where two people are meant, the plural is the right form.
TWO_PEOPLE = {
    "Choose one of your matches together, or no particular match.",
    "You blocked %(name)s: no matches or chat between you.",
    "You and a player you block cannot challenge, accept or be paired with each other, and "
    "neither sees the other's chat.",
    "%(name)s invites you to play",
}
TWO_PEOPLE_PREFIXES = ("Your camera and microphone turn on only", "Your opponent has turned on")
GENDERED = re.compile(r"\b[ΟοΗη]/[ΗηΟο]\b|τον/την|του/της|στον/στην|\b[ΟοΗη] (\{name\}|%\(name\)s)")


def entries():
    for entry in polib.pofile(str(CATALOG)):
        if not entry.obsolete:
            text = entry.msgstr or " ".join(entry.msgstr_plural.values())
            yield entry.msgid, text


def test_one_player_is_addressed_in_the_familiar_singular():
    polite = [
        (msgid, text)
        for msgid, text in entries()
        if POLITE.search(text)
        and msgid not in TWO_PEOPLE
        and not msgid.startswith(TWO_PEOPLE_PREFIXES)
    ]
    assert polite == []


def test_no_gendered_article_before_a_players_name():
    assert [(msgid, text) for msgid, text in entries() if GENDERED.search(text)] == []


def test_the_match_end_reads_without_an_article():
    texts = dict(entries())
    assert texts["{name} won the match"] == "{name} κέρδισε το ματς"
    assert texts["{name} won the match ({reason})"] == "{name} κέρδισε το ματς ({reason})"
