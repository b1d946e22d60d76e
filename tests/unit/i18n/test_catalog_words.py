"""The catalogs' wording, read as a whole: no message written twice in one string, one word
for each thing in Bengali (the terms the Bengali reviews settled), Bengali digits in Bengali
prose, and "the right answer" never confused with the student's own."""

from __future__ import annotations

import re

import pytest

from bot.i18n import MESSAGES, t_plain
from bot.i18n.lang import Lang

_MARKUP = re.compile(r"<code>.*?</code>|\{[^}]*\}|<[^>]+>")


@pytest.mark.parametrize("lang", ["bn", "en"])
def test_no_message_says_itself_twice(lang: Lang) -> None:
    """A message whose text is repeated inside its own string (a copy pasted onto the end)."""
    doubled = []
    for key, texts in MESSAGES.items():
        text = texts[lang]
        half = len(text) // 2
        # any stretch of 40 characters that comes back later in the same message
        for start in range(0, max(0, half - 40) + 1):
            if text.find(text[start : start + 40], start + 40) != -1:
                doubled.append(key)
                break
    assert doubled == []


# A settled term, and the words it replaces (Bengali reviews: bn-ui-review-2 and -3).
_REPLACED = {
    "সঠিক করেছেন": "সঠিক উত্তর দিয়েছেন",  # "corrected", not "answered right"
    "বাড়ির কাজ": "হোমওয়ার্ক",
    "খোলা হোমওয়ার্ক": "চলমান হোমওয়ার্ক",  # "open the homework!" on a menu line
    "বোতাম": "বাটন",
    "ব্যক্তিগত চ্যাট": "প্রাইভেট চ্যাট",
    "ইমপোর্ট": "আনা",
    "পুনর্মূল্যায়ন": "নতুন করে নম্বর",
    "অপশন": "বিকল্প",
    "মেসেজ": "বার্তা",
    "Telegram সর্বোচ্চ": "টেলিগ্রাম সর্বোচ্চ",
    "«": "“",
    "»": "”",
}


def test_bengali_uses_one_word_for_each_thing() -> None:
    """No Bengali message keeps a word the reviews replaced."""
    found = [
        (key, old)
        for key, texts in MESSAGES.items()
        for old in _REPLACED
        if old in texts["bn"] and key != "cli_help_options"  # argparse's own heading
    ]
    assert found == []


def test_bengali_prose_writes_bengali_digits() -> None:
    """Numbers written into Bengali prose are Bengali; ASCII digits stay only in commands,
    formulas and names (A,C · 3.14 · UTC+6 · fp16), and where the rule is about them."""
    ascii_numbers = re.compile(r"(?<![A-Za-z0-9_.\-+/:,^])[0-9]+(?![A-Za-z0-9_.:,/+])")
    found = [
        (key, number)
        for key, texts in MESSAGES.items()
        for number in ascii_numbers.findall(_MARKUP.sub("", texts["bn"]))
        if key != "rename_bad"  # names take the digits 0–9: said as such
    ]
    assert found == []


def test_the_right_answer_is_named_as_such_next_to_the_students() -> None:
    """Where the student's own answer is shown too, the right one says "সঠিক উত্তর"."""
    assert t_plain("bn", "reveal_typed", answers="৩.১৪").startswith("সঠিক উত্তর: ")
    partly = t_plain("bn", "alert_partly_practice", percent=50, labels="A, D")
    assert partly.endswith("। সঠিক উত্তর: A, D")
    assert t_plain("bn", "typed_wrong") == t_plain("bn", "alert_wrong").split("।")[0] + "।"
