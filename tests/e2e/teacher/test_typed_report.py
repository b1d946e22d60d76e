"""Typed answers a student may contest: a refused typed answer in homework and in practice
carries a Report button (the report flow of recaps: a reason, thanks, the teacher told
privately with the answer typed); and a homework's typed question gets at least 60 seconds
when the quiz gives each question less."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, populate
from teacherkit import hw_question

BANK = """\
title:
  bn: ত্বক
  en: Skin
language: en
settings:
  shuffle: false
  seconds: 30
questions:
  - id: one
    question: {bn: এক?, en: One?}
    options: [{bn: ক, en: Alpha}, {bn: খ, en: Beta}]
    correct: 1
  - id: organ
    type: short
    question: {bn: বৃহত্তম অঙ্গ?, en: The largest organ?}
    answers: [Skin]
"""

REPORT = {"en": "⚠️ Report a problem: Q2", "bn": "⚠️"}


def typed_question(tg: FakeTelegram, user: User) -> StoredMessage | None:
    return next((m for m in tg.messages(user.id) if "organ" in m.text or "অঙ্গ" in m.text), None)


async def report_it(tg: FakeTelegram, user: User, closed: StoredMessage) -> str:
    """Tap the closed question's Report button, then the reason "wrong answer key": the
    thanks."""
    (label,) = [label for row in closed.buttons for label, _ in row]
    assert label.startswith("⚠️") and ("Q2" in label or "২" in label)
    before = len(tg.messages(user.id))
    tapped = await tg.wait_answered(
        tg.tap(user.id, user, closed.message_id, button_data(closed, label))
    )
    assert tapped.text is None, tapped.text
    ask = await tg.wait_for(
        lambda: next(
            (m for m in tg.messages(user.id)[before:] if m.buttons and "?" in m.text), None
        )
    )
    reason = ask.buttons[0][0]
    await tg.wait_answered(tg.tap(user.id, user, ask.message_id, reason[1]))
    thanks = await tg.wait_for(
        lambda: m if (m := tg.stored_message(user.id, ask.message_id)) and "🙏" in m.text else None
    )
    return thanks.text


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_homework_typed_answer_refused_can_be_reported(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    student = cls.students[0 if lang == "en" else 1]
    teacher = cls.creator
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "skin", BANK)):
        tg.user_says(teacher.id, teacher, "/start")
        await tg.wait_for(lambda: tg.messages(teacher.id))
        tg.user_says(cls.chat_id, teacher, "/homework skin 1d")
        await tg.wait_for(lambda: any(m.buttons for m in tg.messages(cls.chat_id)))
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/start hw-1")
        q1 = await tg.wait_for(lambda: hw_question(tg, student, 0))
        assert "30" in q1.text or "৩০" in q1.text  # the quiz's own time for a tap
        await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, button_data(q1, "A")))
        typed = await tg.wait_for(lambda: typed_question(tg, student))
        assert ("60" in typed.text or "৬০" in typed.text) and "30" not in typed.text
        tg.user_says(chat, student, "epidermis")  # refused: the key knows only "Skin"
        closed = await tg.wait_for(
            lambda: m if (m := tg.stored_message(chat.id, typed.message_id)) and m.buttons else None
        )
        assert "epidermis" in closed.text
        thanks = await report_it(tg, student, closed)
        assert "2" in thanks or "২" in thanks
        told = await tg.wait_for(
            lambda: next((m for m in tg.messages(teacher.id) if "📝" in m.text), None),
            what="the teacher told",
        )
        # one tap accepts what the student typed (the recap report's re-grade)
        assert "“epidermis”" in str(told.buttons)


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_practice_typed_answer_refused_can_be_reported(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    student = tg.add_user(801, "Rina", language_code=lang)
    env = bank_env(tmp_path, "skin", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env) as bot:
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz skin")
        q1 = await tg.wait_for(lambda: next((m for m in tg.messages(chat.id) if m.buttons), None))
        await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, button_data(q1, "B")))
        typed = await tg.wait_for(lambda: typed_question(tg, student))
        tg.user_says(chat, student, "Skin")  # right: nothing to contest
        done = await tg.wait_for(
            lambda: (
                m
                if (m := tg.stored_message(chat.id, typed.message_id))
                and "Skin" in m.text
                and "🔒" in m.text
                else None
            )
        )
        assert not done.buttons
        before = len(tg.messages(chat.id))
        tg.user_says(chat, student, "/quiz skin")  # again, and this time refused
        q1 = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(chat.id)[before:] if "❓" in m.text and m.buttons), None
            )
        )
        await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, button_data(q1, "B")))
        typed = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(chat.id)[before:] if "❓" in m.text and not m.buttons),
                None,
            )
        )
        tg.user_says(chat, student, "epidermis")
        closed = await tg.wait_for(
            lambda: m if (m := tg.stored_message(chat.id, typed.message_id)) and m.buttons else None
        )
        run_id = int(str(closed.buttons[0][0][1]).split(":")[1])
        await report_it(tg, student, closed)
        rows = await bot.services.store.answers(run_id)
        assert any(a.given == "epidermis" for a in rows)


async def test_a_practice_report_reaches_the_quizs_author(tg: FakeTelegram, tmp_path: Path) -> None:
    teacher = tg.add_user(811, "Mita", language_code="en")
    guest = tg.add_user(812, "Rina", language_code="en", started=True)
    async with BotHarness(tg, tmp_path / "db.sqlite3"):
        tg.user_sends_document(teacher, "lesson.gift", GIFT)
        await tg.wait_for(lambda: tg.find_message(teacher.id, "lesson"), what="saved")
        tg.user_says(teacher.id, teacher, "/share lesson")
        link = await tg.wait_for(lambda: tg.find_message(teacher.id, "start=sq-"))
        token = re.search(r"start=(sq-[A-Za-z0-9_-]+)", link.text)
        assert token is not None
        tg.user_says(guest.id, guest, f"/start {token[1]}")
        q1 = await tg.wait_for(lambda: next((m for m in tg.messages(guest.id) if m.buttons), None))
        first = next(d for row in q1.buttons for _, d in row if d)
        await tg.wait_answered(tg.tap(guest.id, guest, q1.message_id, first))
        typed = await tg.wait_for(lambda: typed_question(tg, guest))
        tg.user_says(guest.id, guest, "epidermis")
        closed = await tg.wait_for(
            lambda: (
                m if (m := tg.stored_message(guest.id, typed.message_id)) and m.buttons else None
            )
        )
        await report_it(tg, guest, closed)
        told = await tg.wait_for(
            lambda: next((m for m in tg.messages(teacher.id) if "epidermis" in m.text), None),
            what="the author told, with what was typed",
        )
        assert "practice" in told.text and "The largest organ?" in told.text


GIFT = b"""\
::A:: One? {=Alpha ~Beta}

::C:: The largest organ? {=Skin}
"""
