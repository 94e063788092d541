"""What a person may be called: a name that shows (config/showable_text.py) and that does not
pass for one of the site's own accounts.

The site names guests `Guest-4821` (accounts/guests.py) and its bots `Bot-Beginner`, `Bot-Club`
and `Bot-Master` (games/services/bots.py): a player called `Guest-4821` or `Bot-Masters` could
pass for one, so the words `guest` and `bot` at the start of a name, followed by nothing, a digit
or a separator, are the site's. Compared the way a reader sees a name: compatibility forms
folded (NFKD: `Ｂｏｔ`, `𝐁𝐨𝐭`), accents and invisible characters dropped, case ignored, and
letters that pass for Latin ones read as such (Cyrillic `Вот`, Greek `Βοτ`, small capitals,
digits for letters as in `B0t` or `Gu3st`), separators inside the word skipped (`B.o.t`), and a
capital after the word read as a new word (`BotMaster`). `Botanist` and `Guestbook` stay free.

Every place a username is chosen calls `validate_username`: sign-up (accounts/adapters.py) and
the admin's user forms (moderation/admin.py); the site's own accounts are made without it.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from config.showable_text import validate_showable

RESERVED_WORDS = ("guest", "bot")

# Characters read as each Latin letter of the reserved words, after NFKD and case folding
# (from Unicode's confusables, UTS #39, for these letters; digits and symbols as people use them).
LOOKALIKES = {
    "b": "ьъвβϐбᏼꮟƀƃƅɓʙᑲᖯ68",
    "o": "оοσօøᴏⲟ၀০੦૦୦௦౦೦൦๐໐ᴑɵ0",
    "t": "тτƭʈŧᴛꭲᎢͳ7+",
    "g": "ɡցǥɢԍꮐᏀɠ96",
    "u": "υսʋᴜμцꭎᑌ",
    "e": "еєεɛҽ℮ᴇꭼᎬ3",
    "s": "ѕʂꜱꮪꮥᏚᏕ5$",
}
_READINGS: dict[str, set[str]] = {}
for _letter, _characters in LOOKALIKES.items():
    for _character in _characters:
        for _folded in _character.casefold():
            _READINGS.setdefault(_folded, set()).add(_letter)


def _as_read(name: str) -> list[tuple[str, str]]:
    """The name's characters as a reader takes them in: (folded character, as written), without
    marks and invisible characters."""
    characters = []
    for character in unicodedata.normalize("NFKD", name):
        if unicodedata.category(character) in ("Mn", "Mc", "Me", "Cf"):
            continue
        characters.extend((folded, character) for folded in character.casefold())
    return characters


def _reads_as(character: str, letter: str) -> bool:
    return character == letter or letter in _READINGS.get(character, ())


def _word_ends(characters: list[tuple[str, str]], index: int) -> bool:
    """Whether the reserved word ends before `index`: at the end of the name, before a digit or a
    separator, or where a capital starts a new word after a small letter (`BotMaster`)."""
    if index == len(characters):
        return True
    folded, written = characters[index]
    previous = characters[index - 1][1]
    return not folded.isalpha() or (previous.islower() and written.isupper())


def reserved_word(name: str) -> str | None:
    """The reserved word the name starts with, as a reader would see it, or None."""
    characters = _as_read(name)
    for word in RESERVED_WORDS:
        index, matched = 0, 0
        while index < len(characters) and matched < len(word):
            folded = characters[index][0]
            if _reads_as(folded, word[matched]):
                matched += 1
            elif folded.isalnum():
                break
            index += 1  # a separator before or inside the word is skipped
        if matched == len(word) and _word_ends(characters, index):
            return word
    return None


def validate_username(username: str) -> None:
    """Raise ValidationError for a name that shows nothing or passes for the site's own."""
    validate_showable(username)
    if reserved_word(username) is not None:
        raise ValidationError(
            _("Names starting with “Guest” or “Bot” belong to the site's own accounts; choose "
              "another."),
            code="reserved",
        )  # fmt: skip
