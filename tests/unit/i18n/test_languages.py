"""A UI language is its catalog: found in the locale folder, checked like Bengali and English,
its digits and dates from CLDR; a bank's texts stay Bengali and English."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from bot.core.bank import Text
from bot.i18n import check as po_check
from bot.i18n import num
from bot.i18n.cldr import digits, format_date
from bot.i18n.lang import languages
from bot.i18n.messages import LOCALE_DIR, load, po_path


@pytest.fixture
def locale(tmp_path: Path) -> Path:
    """A copy of the shipped catalogs with a Hindi one: the English texts, CLDR's plural rule."""
    folder = Path(shutil.copytree(LOCALE_DIR, tmp_path / "locale"))
    hindi = po_path("hi", folder)
    hindi.parent.mkdir(parents=True)
    english = po_path("en", folder).read_text("utf-8")
    hindi.write_text(english.replace('"Language: en\\n"', '"Language: hi\\n"'), "utf-8")
    po_check.write_template(folder)  # sets Hindi's Plural-Forms to CLDR's
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_catalog_in_the_locale_folder_is_a_language(locale: Path) -> None:
    assert languages(LOCALE_DIR) == ("bn", "en")
    assert languages(locale) == ("bn", "en", "hi")
    assert po_check.check(locale) == []
    assert load(locale).texts["lang_set"]["hi"] == load(locale).texts["lang_set"]["en"]


def test_the_check_holds_a_third_language_to_every_rule(locale: Path) -> None:
    hindi = po_path("hi", locale)
    edit(hindi, 'msgid "lang_set"', 'msgid "lang_set_gone"')
    edit(hindi, 'msgstr "EEE d MMM, HH:mm"', 'msgstr "[hi] d MMM"')
    edit(hindi, 'msgstr "/me — your stats"', 'msgstr "/me — {your} stats"')
    problems = po_check.check(locale)
    assert "lang_set: no hi translation (missing)" in problems
    assert any(p.startswith("date_pattern [hi]: '[hi] d MMM' is not a CLDR") for p in problems)
    assert any(p.startswith("help_me: placeholders differ") for p in problems)


def test_a_folder_the_bot_would_not_read_fails_the_check(locale: Path) -> None:
    for name in ("pt_BR", "xx", "ur"):  # regional, unknown to CLDR, no quizbot.po
        (locale / name / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(po_path("hi", locale), po_path("pt_BR", locale))
    shutil.copy(po_path("hi", locale), po_path("xx", locale))
    assert languages(locale) == ("bn", "en", "hi")
    strays = [p.partition(":")[0] for p in po_check.check(locale)]
    assert strays == ["pt_BR", "ur", "xx"]


def test_digits_and_dates_come_from_cldr() -> None:
    assert num("bn", "20:30 4") == "২০:৩০ ৪"
    assert num("en", 2026) == "2026"
    assert "2026".translate(digits("mr")) == "२०२६"  # Marathi: Devanagari digits by default
    assert "2026".translate(digits("hi")) == "2026"  # Hindi: ASCII digits by default
    when = dt.datetime(2026, 12, 4, 20, 30)
    assert format_date("bn", when, "EEEE, d MMMM, HH:mm") == "শুক্রবার, 4 ডিসেম্বর, 20:30"
    assert format_date("hi", when, "EEEE, d MMMM, HH:mm") == "शुक्रवार, 4 दिसंबर, 20:30"
    assert format_date("en", when.replace(tzinfo=dt.UTC), "EEE d MMM, HH:mm") == "Fri 4 Dec, 20:30"


def test_a_bank_text_in_a_third_language_is_its_english() -> None:
    bilingual, bengali_only = Text("বাংলা লেখা", "English text"), Text("শুধু বাংলা", "শুধু বাংলা")
    assert bilingual("hi") == "English text"
    assert bilingual("bn") == "বাংলা লেখা"
    assert bengali_only("hi") == "শুধু বাংলা"
