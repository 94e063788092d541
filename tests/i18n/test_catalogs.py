"""The catalogs are complete, consistent and compiled: how the project keeps "every new string in
all six languages". A string added to the code or a template without a translation in
every catalog fails here; docs/translations.md "Translations" says how to add one."""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from config.catalogs import catalog_locales

ROOT = Path(settings.BASE_DIR)
LOCALES = catalog_locales()
# %(name)s, %s, %d, %r ... (Python), {name} (the JS strings of templates/games/*.html), %%.
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|%[sdr]|%%|\{[a-z_]+\}")
# Russian, Ukrainian and Serbian: one (1, 21), few (2-4, 22-24), many (5-20, 25...); Romanian: one,
# few (0, 2-19, 101-119), other; Greek: one, other (CLDR plural rules, as gettext writes them).
EXPECTED_PLURAL_INDEX = {
    "ru": {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 25: 2, 111: 2},
    "uk": {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 25: 2, 111: 2},
    "sr_Latn": {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 25: 2, 111: 2},
    "ro": {0: 1, 1: 0, 2: 1, 19: 1, 20: 2, 100: 2, 101: 1, 120: 2},
    "el": {0: 1, 1: 0, 2: 1, 5: 1, 21: 1},
}


def po_path(locale: str) -> Path:
    return ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"


def catalog(locale: str) -> polib.POFile:
    return polib.pofile(str(po_path(locale)))


def test_every_offered_language_has_a_catalog():
    assert sorted(LOCALES) == sorted(EXPECTED_PLURAL_INDEX)
    for locale in LOCALES:
        assert po_path(locale).is_file(), f"no catalog for {locale}"
        assert po_path(locale).with_suffix(".mo").is_file(), f"{locale}: not compiled"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated_and_none_is_fuzzy(locale):
    po = catalog(locale)
    assert len(po) > 100, "the catalog is nearly empty"
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    partly = [
        entry.msgid
        for entry in po.translated_entries()
        if entry.msgid_plural and not all(entry.msgstr_plural.values())
    ]
    obsolete = [entry.msgid for entry in po.obsolete_entries()]
    assert not untranslated, f"{locale}: untranslated {untranslated}"
    assert not fuzzy, f"{locale}: fuzzy (check and remove the flag) {fuzzy}"
    assert not partly, f"{locale}: plural forms missing {partly}"
    assert not obsolete, f"{locale}: obsolete entries left (make messages drops them) {obsolete}"
    assert not po.metadata_is_fuzzy


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_are_the_same_in_msgid_and_msgstr(locale):
    wrong = []
    for entry in catalog(locale).translated_entries():
        if entry.msgid_plural:
            # The singular form may spell the number out ("1 point"), the others must not.
            wanted = sorted(PLACEHOLDER.findall(entry.msgid_plural))
            forms = entry.msgstr_plural.values()
        else:
            wanted = sorted(PLACEHOLDER.findall(entry.msgid))
            forms = [entry.msgstr]
        wrong += [
            (entry.msgid, form) for form in forms if sorted(PLACEHOLDER.findall(form)) != wanted
        ]
    assert not wrong, f"{locale}: placeholders differ: {wrong}"


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_forms_header_gives_each_number_its_form(locale):
    header = catalog(locale).metadata["Plural-Forms"]
    expected = EXPECTED_PLURAL_INDEX[locale]
    assert f"nplurals={max(expected.values()) + 1};" in header.replace(" ", "")
    # The compiled catalog, through the standard library, picks the form gettext will pick.
    with po_path(locale).with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    entry = next(entry for entry in catalog(locale) if entry.msgid == "%(points)d point")
    for number, index in expected.items():
        chosen = translations.ngettext(entry.msgid, entry.msgid_plural, number)
        assert chosen == entry.msgstr_plural[index], (locale, number)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_committed_mo_matches_its_po(locale):
    """The .mo files are committed (make run needs no gettext): they must not lag the .po."""
    with po_path(locale).with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    stale = []
    for entry in catalog(locale).translated_entries():
        if entry.msgid_plural:
            for index, form in entry.msgstr_plural.items():
                number = next(
                    n for n, i in EXPECTED_PLURAL_INDEX[locale].items() if i == int(index)
                )
                if translations.ngettext(entry.msgid, entry.msgid_plural, number) != form:
                    stale.append(entry.msgid)
        elif (
            translations.pgettext(entry.msgctxt, entry.msgid)
            if entry.msgctxt
            else translations.gettext(entry.msgid)
        ) != entry.msgstr:
            stale.append(entry.msgid)
    assert not stale, f"{locale}: the .mo is out of date, run `make messages`: {stale}"


def gettext_tools_or_skip() -> None:
    if shutil.which("xgettext") and shutil.which("msgmerge"):
        return
    message = "GNU gettext is not installed (Debian: apt-get install gettext)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.mark.integration  # starts a process
def test_makemessages_finds_no_string_missing_from_the_catalogs(tmp_path):
    """Run `make messages`' extraction on a copy of the tree: every marked string of the code and
    templates must already be in every catalog (so it went through the tests above)."""
    gettext_tools_or_skip()
    copy = tmp_path / "tree"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", ".data", "node_modules", "staticfiles", "__pycache__", "*.mo"
        ),
    )
    subprocess.run(
        [sys.executable, "-m", "config.catalogs", "make"],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        check=True,
        capture_output=True,
        timeout=300,
    )
    for locale in LOCALES:
        before = {(entry.msgctxt, entry.msgid) for entry in catalog(locale)}
        after_po = polib.pofile(str(copy / "locale" / locale / "LC_MESSAGES" / "django.po"))
        after = {(entry.msgctxt, entry.msgid) for entry in after_po if not entry.obsolete}
        assert after - before == set(), (
            f"{locale}: strings not in the catalog yet (run `make messages`, translate them): "
            f"{sorted(msgid for _context, msgid in after - before)}"
        )
        assert before - after == set(), (
            f"{locale}: strings the code no longer uses (run `make messages`): "
            f"{sorted(msgid for _context, msgid in before - after)}"
        )
