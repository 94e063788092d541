"""What people may write where others read it: chat messages, usernames, report texts.

docs/protocol.md promises `bad_field` for an "empty or unshowable" chat text; this module is
that definition, one rule for every text a user writes for others:

- no control characters (Unicode category Cc; a multi-line text such as a report may hold line
  breaks and tabs) and no lone surrogates (Cs, which no encoding can even store);
- no explicit bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069
  isolates): a right-to-left override flips what follows it, the author's name or the next
  message on the page. The marks U+200E, U+200F and U+061C only direct the characters around
  them, so they stay;
- something visible is left once the invisible is taken away: format characters (Cf: zero-width
  spaces, joiners, the BOM, tags), combining marks (M*: accents and variation selectors, which
  show only on a base character), separators and whitespace (Z*, and the line breaks allowed
  above), and the letters and symbols fonts draw as blank (the Hangul fillers, U+2800 braille
  blank). Joiners and marks stay inside a text that shows something (emoji sequences, scripts
  that need them).

The services, the forms (`validate_showable`, a Django validator: usernames, tournament names)
and the socket fuzz test share it (the standard library and Django's translation and validation
error only).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\n\r\t")
INVISIBLE_CATEGORIES = frozenset({"Cf", "Mn", "Mc", "Me", "Zs", "Zl", "Zp"})
# Letters and symbols drawn as blank (Unicode's Default_Ignorable_Code_Point lists the fillers).
BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class UnshowableText(ValueError):
    """The text breaks the rule; `reason` says which part, `message` says it to the author."""

    MESSAGES = {
        "control": _("The text holds control characters."),
        "bidi": _("The text holds direction controls (such as a right-to-left override)."),
        "invisible": _("The text shows nothing: only spaces, invisible or combining characters."),
    }

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = self.MESSAGES[reason]


def _visible(character: str) -> bool:
    return (
        unicodedata.category(character) not in INVISIBLE_CATEGORIES
        and character not in BLANK_GLYPHS
        and character not in LINE_BREAKS
        and not 0xE0000 <= ord(character) <= 0xE0FFF  # tags and their reserved plane block
    )


def check_showable(text: str, *, multiline: bool = False) -> None:
    """Raise UnshowableText unless `text` follows the rule (an empty text shows nothing)."""
    for character in text:
        category = unicodedata.category(character)
        if category == "Cs" or (category == "Cc" and not (multiline and character in LINE_BREAKS)):
            raise UnshowableText("control")
        if character in BIDI_CONTROLS:
            raise UnshowableText("bidi")
    if not any(_visible(character) for character in text):
        raise UnshowableText("invisible")


def is_showable(text: str, *, multiline: bool = False) -> bool:
    try:
        check_showable(text, multiline=multiline)
    except UnshowableText:
        return False
    return True


def validate_showable(text: str) -> None:
    """The rule as a Django validator (a form's or a model field's): ValidationError with the
    code `unshowable` and the reason's message."""
    try:
        check_showable(text)
    except UnshowableText as refusal:
        raise ValidationError(refusal.message, code="unshowable") from None
