"""Words that said the wrong thing: a student tapping a group's start button is told that
moderators start quizzes; the start prompt counts the questions the group run asks, as the
announcement does; a student's /quiz in a group offers nothing to pick; /me in private names a
quiz by its title, never its internal id; a group's first reply says how to choose its
language; English quotes are “ ”; report buttons one per row; the results of a run that left
typed questions out offer to set the quiz as homework."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import open_question, populate

from bot.i18n.messages import po_path
from bot.render import teacher as render_teacher

GIFT = b"""\
::A:: One? {=Alpha ~Beta}

::B:: Two? {=Gamma ~Delta}

::C:: The largest organ? {=Skin}
"""

COUNT = {"en": "2 questions", "bn": "\u09e8\u099f\u09bf \u09aa\u09cd\u09b0\u09b6\u09cd\u09a8"}


async def upload(tg: FakeTelegram, teacher: User) -> None:
    before = len(tg.messages(teacher.id))
    tg.user_sends_document(teacher, "lesson.gift", GIFT)
    await tg.wait_for(
        lambda: next((m for m in tg.messages(teacher.id)[before:] if "lesson" in m.text), None),
        what="the upload saved",
    )


async def new_in_group(tg: FakeTelegram, chat: int, before: int) -> StoredMessage:
    return await tg.wait_for(lambda: next(iter(tg.messages(chat)[before:]), None))


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_start_prompt_refusal_counts_and_homework_after_the_run(
    tg: FakeTelegram, db_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    chat, teacher, student = cls.chat_id, cls.creator, cls.students[0]
    async with BotHarness(tg, db_path):
        tg.user_says(teacher.id, teacher, f"/lang {lang}")
        await tg.wait_for(lambda: tg.messages(teacher.id))
        await upload(tg, teacher)
        tg.user_says(chat, teacher, f"/lang {lang}")
        await tg.wait_for(lambda: tg.messages(chat))
        before = len(tg.messages(chat))
        tg.user_says(chat, teacher, "/start qs-1")  # the card's "start in a group" link
        offer = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat)[before:] if m.buttons), None)
        )
        assert COUNT[lang] in offer.text  # the typed question is not counted: the run skips it
        start = offer.buttons[0][0][1]
        refused = await tg.wait_answered(tg.tap(chat, student, offer.message_id, start))
        assert refused.show_alert and refused.text is not None
        assert "moderators" in refused.text or "গ্রুপের অ্যাডমিন" in refused.text
        assert "no longer valid" not in refused.text and "আর কাজ করে না" not in refused.text
        await tg.wait_answered(tg.tap(chat, teacher, offer.message_id, start))
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        announced = tg.messages(chat)[tg.messages(chat).index(q1) - 1]
        assert COUNT[lang] in announced.text
        await tg.wait_answered(tg.tap(chat, student, q1.message_id, q1.buttons[0][0][1]))
        tg.user_says(chat, teacher, "/stop")
        results = await tg.wait_for(lambda: tg.find_message(chat, "🏁"))
        labels = {label: data for row in results.buttons for label, data in row}
        homework = next(d for label, d in labels.items() if label.startswith("📚"))
        refused = await tg.wait_answered(tg.tap(chat, student, results.message_id, homework))
        assert refused.show_alert
        before = len(tg.messages(chat))
        await tg.wait_answered(tg.tap(chat, teacher, results.message_id, homework))
        card = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat)[before:] if m.buttons), None),
            what="the homework card",
        )
        assert "lesson" in card.text


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_students_quiz_list_in_a_group_offers_no_pick(
    tg: FakeTelegram, db_path: Path, lang: str
) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id
    async with BotHarness(tg, db_path):
        tg.user_says(chat, cls.creator, f"/lang {lang}")
        await tg.wait_for(lambda: tg.messages(chat))
        before = len(tg.messages(chat))
        tg.user_says(chat, cls.students[0], "/quiz")
        listed = await new_in_group(tg, chat, before)
        assert "pick one" not in listed.text and "বেছে নিন" not in listed.text
        assert "moderators start quizzes" in listed.text or "অ্যাডমিনরা" in listed.text


@pytest.mark.parametrize(("default", "hint"), [("bn", "/lang en"), ("en", "/lang bn")])
async def test_a_groups_first_reply_says_how_to_choose_the_language(
    tg: FakeTelegram, db_path: Path, default: str, hint: str
) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": default}):
        tg.user_says(chat, cls.creator, "/quiz")
        first = await new_in_group(tg, chat, 0)
        assert hint in first.text
        assert "For English" in first.text or "For Bengali" in first.text  # readable by both
        before = len(tg.messages(chat))
        tg.user_says(chat, cls.creator, "/help", ephemeral=False)
        second = await new_in_group(tg, chat, before)
        assert "🌐" not in second.text  # once


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_me_in_private_names_the_quiz_never_its_id(
    tg: FakeTelegram, db_path: Path, lang: str
) -> None:
    teacher = tg.add_user(901, "Mita", language_code=lang)
    async with BotHarness(tg, db_path):
        await upload(tg, teacher)
        before = len(tg.messages(teacher.id))
        tg.user_says(teacher.id, teacher, "/quiz lesson")  # practise it, the first one wrong
        q1 = await tg.wait_for(
            lambda: next((m for m in tg.messages(teacher.id)[before:] if m.buttons), None)
        )
        wrong = next(d for row in q1.buttons for label, d in row if label == "B")
        await tg.wait_answered(tg.tap(teacher.id, teacher, q1.message_id, wrong))
        before = len(tg.messages(teacher.id))
        tg.user_says(teacher.id, teacher, "/me")
        me = await tg.wait_for(
            lambda: next((m for m in tg.messages(teacher.id)[before:] if "One?" in m.text), None)
        )
        assert not re.search(r"\bu\.[0-9]+", me.text), me.text
        assert "Lesson / One?" in me.text  # its title


def test_report_buttons_one_per_row_and_english_quotes() -> None:
    for lang in ("en", "bn"):
        keyboard = render_teacher.report_keyboard(lang, 7, [1, 2, 3])
        assert keyboard is not None
        assert [len(row) for row in keyboard.inline_keyboard] == [1, 1, 1]
    english = po_path("en").read_text(encoding="utf-8")
    assert "«" not in english and "»" not in english
