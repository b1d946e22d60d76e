"""Every user-facing string exists in Bengali and English, and each one renders."""

from __future__ import annotations

import re
import string

import pytest
from fakebot import parse_html

from bot.i18n import MESSAGES, PLURALS, ascii_digits, num, parse_lang, t, t_plain
from bot.i18n.check import check
from bot.i18n.lang import Lang

BENGALI = re.compile("[\u0980-\u09ff]")
SAME_IN_BOTH = {"tz_utc"}  # "UTC" is "UTC" in Bengali technical writing too


def test_catalog_has_both_languages_with_the_same_placeholders() -> None:
    assert check() == []


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_bengali_is_written_in_bengali(key: str) -> None:
    texts = MESSAGES[key]
    if key in SAME_IN_BOTH:
        return
    assert texts["bn"] != texts["en"], f"{key}: the Bengali is a copy of the English"
    assert BENGALI.search(texts["bn"]), f"{key}: no Bengali script in {texts['bn']!r}"
    assert not BENGALI.search(texts["en"]), f"{key}: Bengali script in the English"


@pytest.mark.parametrize("key", sorted(MESSAGES))
@pytest.mark.parametrize("lang", ["bn", "en"])
def test_every_text_formats_into_valid_telegram_html(key: str, lang: Lang) -> None:
    fields = {f for _, f, _, _ in string.Formatter().parse(MESSAGES[key][lang]) if f}
    text = t(lang, key, **{f: 7 for f in fields})
    parse_html(text)  # raises on a stray < or &, or an unbalanced tag
    if lang == "bn" and fields:
        assert "7" not in text, f"{key}: numbers in Bengali use Bengali digits"


@pytest.mark.parametrize("key", sorted(PLURALS))
@pytest.mark.parametrize("lang", ["bn", "en"])
def test_every_plural_form_renders(key: str, lang: Lang) -> None:
    for n in (0, 1, 2, 5, 21, 100):
        text = t(lang, key, n=n)
        parse_html(text)
        assert num(lang, n) in text, (key, lang, n)
        assert BENGALI.search(text) if lang == "bn" else not BENGALI.search(text)


def test_plurals_follow_each_language_s_cldr_rule() -> None:
    """English: 1 is singular, 0 and 2 are not; Bengali (CLDR: one = 0 or 1) counters do not
    inflect; a counted noun is composed into its message by t()."""
    assert [t_plain("en", "n_questions", n=n) for n in (0, 1, 2)] == [
        "0 questions",
        "1 question",
        "2 questions",
    ]
    assert t_plain("bn", "n_questions", n=1) == "১টি প্রশ্ন"
    assert t("en", "lb_line", rank=1, name="<A>", points=1, correct=3, runs=2) == (
        "1. &lt;A&gt; — 1 point · 3 right · 2 quizzes"
    )
    assert t_plain("en", "recap_stopped", asked=1, total=1).endswith("1 of 1 question was asked.")


def test_digits_and_language_names() -> None:
    assert num("bn", 1030) == "১০৩০"
    assert num("en", 1030) == "1030"
    assert ascii_digits("৩০") == "30"
    assert [parse_lang(v) for v in ("bn", "bn-BD", "বাংলা", "en_US", "English", "fr", None)] == [
        "bn",
        "bn",
        "bn",
        "en",
        "en",
        None,
        None,
    ]
