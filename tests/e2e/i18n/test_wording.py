"""The wording review (shared/reference/bengali-ui-review.md): counted nouns in English,
numbers typed in either digit system, one digit system per command shown, the streak bonus
described as it is computed, the "closed" alert after /next, and full command descriptions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import button_data, correct_label, open_question, populate
from reviewkit import say

from bot.i18n import MESSAGES, t, whole_number
from bot.render import when

ROOT = Path(__file__).resolve().parents[3]
ASCII_DIGIT = re.compile(r"[0-9]")


def test_english_counts_one_and_many() -> None:
    assert t("en", "quiz_list_item", n=1, id="zero", title="ZeRO", count=1).endswith("(1 question)")
    assert t("en", "quiz_list_item", n=1, id="zero", title="ZeRO", count=8).endswith(
        "(8 questions)"
    )
    line = t("en", "lb_line", rank=1, name="Mita", points=1, correct=1, runs=1)
    assert line == "1. Mita — 1 point · 1 right · 1 quiz"
    assert t("en", "lb_line", rank=2, name="Arif", points=0, correct=0, runs=3).endswith(
        "0 points · 0 right · 3 quizzes"
    )
    assert when("en", 3600) == "in about 1 hour"
    assert when("en", 5 * 3600) == "in about 5 hours"
    assert when("bn", 5 * 3600) == "প্রায় ৫ ঘণ্টা পরে"
    assert t("en", "announce", title="T", count=1, seconds=30).startswith(
        "📝 <b>T</b>\n1 question · 30 seconds each"
    )


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_no_english_count_is_always_plural(key: str) -> None:
    """A count before a plural noun goes through a plural entry ({n:n_quizzes}), so 1 never
    reads "1 quizzes"."""
    english = MESSAGES[key]["en"]
    assert not re.search(
        r"\{\w+\} (quizzes|questions|hours|days|points|times|players)\b", english
    ), english


def test_numbers_typed_in_either_digit_system() -> None:
    assert whole_number("৩০", 5, 600) == whole_number("30", 5, 600) == 30
    assert whole_number("১", 1, 999_999) == 1
    for junk in ("", "-1", "+3", " 3", "3.0", "３", "৪১", "০", "1e3", "1000000"):
        assert whole_number(junk, 1, 999_999) in (None, 41), junk  # ৪১ is 41: fine
    assert whole_number("০", 1, 9) is None


def test_the_streak_bonus_is_described_as_it_grows() -> None:
    english = t("en", "announce", title="T", count=8, seconds=30)
    assert "+100 for the second, +200 for the third, up to +500" in english
    assert "+100 each" not in english
    assert "দ্বিতীয়টি থেকে প্রতিবার ১০০ করে বাড়ে, সর্বোচ্চ +৫০০" in t(
        "bn", "announce", title="T", count=8, seconds=30
    )
    students = (ROOT / "docs" / "students.md").read_text(encoding="utf-8")
    assert "+100 each" not in students and "প্রতিটিতে +১০০" not in students
    assert "+200 for the third" in students and "তৃতীয়টিতে +২০০" in students


async def test_bengali_group_season_digits_closed_alert_and_menus(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "bn"}):
        # every menu description is a full phrase (the review's wording)
        menu = {
            c["command"]: c["description"]
            for c in tg.commands("all_chat_administrators", "bn") or []
        }
        assert menu["next"] == "চলতি প্রশ্ন বন্ধ করে পরেরটিতে যান"
        assert menu["stop"] == "কুইজ শেষ করে ফলাফল দেখান"
        assert menu["resetleaderboard"] == "লিডারবোর্ডের নতুন সিজন শুরু করুন"
        assert menu["export"] == "ফলাফল CSV ফাইল হিসেবে নিন"
        students = {c["command"]: c["description"] for c in tg.commands("default", "bn") or []}
        assert students["review"] == "ভুল হওয়া প্রশ্নগুলো রিভিউ করুন"

        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        b1 = button_data(q1, correct_label(q1, lang="bn"))
        tg.user_says(chat, cls.admin, "/next")  # closed by a moderator, not by the clock
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        late = await tg.wait_answered(tg.tap(chat, cls.students[0], q1.message_id, b1))
        assert late.text == "⌛ এই প্রশ্নটি বন্ধ হয়ে গেছে।"
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "ফলাফল"))

        # the season number as the reset confirmation prints it, in Bengali digits
        tg.user_says(chat, cls.students[1], "/leaderboard season ১", ephemeral=False)
        board = await tg.wait_for(
            lambda: (
                tg.find_message(chat, "লিডারবোর্ড</b> — সিজন ১")
                or tg.find_message(chat, "লিডারবোর্ড — সিজন ১")
            )
        )
        assert "ব্যবহার" not in board.text


async def test_remind_shows_one_digit_system(tg: FakeTelegram, db_path: Path) -> None:
    student = tg.add_user(610, "Tanvir", language_code="bn")
    async with BotHarness(tg, db_path):
        ask = await say(tg, student, "/remind ২০:৩০")
        command = re.search(r"/remind [^\n]*", ask.text)
        assert command is not None
        # a command to type: ASCII digits throughout, as in "/timezone +6"
        assert command[0] == "/remind 20:30 +5:45"
        assert not re.search("[০-৯]", command[0])
