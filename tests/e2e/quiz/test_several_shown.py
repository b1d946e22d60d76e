"""Several right answers, shown right wherever a student's own answer is shown after the fact:
homework, practice, /review and the group's recap mark every pick (☑/☐, as the student's
keyboard showed them) and every right option (✅), never a right option ❌; each ticked
option's own feedback is quoted, labelled; a wrong Submit's alert quotes a wrong pick's
feedback, never a right one's; the alert's feedback is one the closed question quotes too."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, labels_of, open_question, populate
from teacherkit import hw_question, set_and_open_homework

from bot.core.engine import DAY

BANK = """\
title:
  bn: ভেক্টর ও ধাতু
  en: Vectors and metals
language: en
settings:
  shuffle: false
  seconds: 300
questions:
  - id: vectors
    question: {bn: কোনগুলো ভেক্টর?, en: Which are vectors?}
    options:
      - {text: {bn: বল, en: Force}, feedback: {bn: বলের দিক আছে।, en: Force has a direction.}}
      - {text: {bn: ভর, en: Mass}, feedback: {bn: ভরের দিক নেই।, en: Mass has none.}}
      - {text: {bn: বেগ, en: Velocity}, feedback: {bn: বেগের দিক আছে।, en: Velocity too.}}
      - {bn: সময়, en: Time}
    correct: [1, 3]
  - id: metals
    question: {bn: কোনগুলো ধাতু?, en: Which are metals?}
    options:
      - {text: {bn: লোহা, en: Iron}, feedback: {bn: লোহা ধাতু।, en: Iron is a metal.}}
      - {text: {bn: অক্সিজেন, en: Oxygen}, feedback: {bn: অক্সিজেন গ্যাস।, en: Oxygen is a gas.}}
      - {bn: তামা, en: Copper}
      - {bn: সালফার, en: Sulfur}
    correct: [1, 3]
"""

WORDS = {
    "en": {
        "Force": "Force",
        "Mass": "Mass",
        "Velocity": "Velocity",
        "Iron": "Iron",
        "Oxygen": "Oxygen",
        "Copper": "Copper",
        "force_fb": "Force has a direction.",
        "velocity_fb": "Velocity too.",
        "iron_fb": "Iron is a metal.",
        "oxygen_fb": "Oxygen is a gas.",
        "submit": "✔ Submit",
    },
    "bn": {
        "Force": "বল",
        "Mass": "ভর",
        "Velocity": "বেগ",
        "Iron": "লোহা",
        "Oxygen": "অক্সিজেন",
        "Copper": "তামা",
        "force_fb": "বলের দিক আছে।",
        "velocity_fb": "বেগের দিক আছে।",
        "iron_fb": "লোহা ধাতু।",
        "oxygen_fb": "অক্সিজেন গ্যাস।",
        "submit": "",
    },
}


def line_of(text: str, option: str) -> str:
    """The line of ``text`` showing ``option`` (``A) Force ...``)."""
    return next(line for line in text.splitlines() if f") {option}" in line)


def assert_vectors_right(text: str, lang: str) -> None:
    """Force and Velocity both ticked and right, Mass not ticked, each pick's feedback."""
    w = WORDS[lang]
    assert line_of(text, w["Force"]).startswith("☑ A) ") and line_of(text, w["Force"]).endswith(
        "✅"
    )
    assert line_of(text, w["Velocity"]).startswith("☑ C) ")
    assert line_of(text, w["Velocity"]).endswith("✅")
    assert line_of(text, w["Mass"]) == f"☐ B) {w['Mass']}"
    assert "❌" not in line_of(text, w["Force"])
    assert f"💬 A) {w['force_fb']}" in text and f"💬 C) {w['velocity_fb']}" in text


def assert_metals_wrong(text: str, lang: str) -> None:
    """Iron (right) and Oxygen (wrong) ticked, Copper (right) missed."""
    w = WORDS[lang]
    assert line_of(text, w["Iron"]).startswith("☑ A) ") and line_of(text, w["Iron"]).endswith("✅")
    assert line_of(text, w["Oxygen"]) == f"☑ B) {w['Oxygen']} ❌"
    assert line_of(text, w["Copper"]).startswith("☐ C) ")
    assert line_of(text, w["Copper"]).endswith("✅")
    assert f"💬 A) {w['iron_fb']}" in text and f"💬 B) {w['oxygen_fb']}" in text


def submit_label(message: StoredMessage) -> str:
    return labels_of(message)[-1]


async def tick_and_submit(
    tg: FakeTelegram, chat_id: int, user: User, message: StoredMessage, labels: list[str]
) -> str:
    """Tick ``labels`` (A, C ...) on the student's own keyboard, then Submit: the alert."""
    for letter in labels:
        shown = tg.stored_message(chat_id, message.message_id) or message
        label = next(x for x in labels_of(shown) if x.endswith(f" {letter}"))
        await tg.wait_answered(tg.tap(chat_id, user, message.message_id, button_data(shown, label)))
    shown = tg.stored_message(chat_id, message.message_id) or message
    done = await tg.wait_answered(
        tg.tap(chat_id, user, message.message_id, button_data(shown, submit_label(shown)))
    )
    assert done.text is not None
    return done.text


def closed(tg: FakeTelegram, chat_id: int, message_id: int) -> StoredMessage | None:
    m = tg.stored_message(chat_id, message_id)
    return m if m is not None and m.text.startswith("🔒") else None


def student_of(tg: FakeTelegram, lang: str) -> User:
    return tg.add_user(701 if lang == "en" else 702, "Rina", language_code=lang)


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_practice_and_review_mark_every_pick(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    student = student_of(tg, lang)
    w = WORDS[lang]
    clock = ManualClock(time.time())
    env = bank_env(tmp_path, "several", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env, clock=clock):
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz several")
        q1 = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat.id) if m.buttons), None), what="q1"
        )
        await tick_and_submit(tg, chat.id, student, q1, ["A", "C"])
        text = (await tg.wait_for(lambda: closed(tg, chat.id, q1.message_id))).text
        assert_vectors_right(text, lang)

        q2 = await tg.wait_for(lambda: next(m for m in tg.messages(chat.id) if m.buttons))
        alert = await tick_and_submit(tg, chat.id, student, q2, ["A", "B"])
        assert w["iron_fb"] not in alert
        text = (await tg.wait_for(lambda: closed(tg, chat.id, q2.message_id))).text
        assert_metals_wrong(text, lang)

        # a day later /review asks the missed one again: the same marks
        clock.advance(DAY + 60)
        before = len(tg.messages(chat.id))
        tg.user_says(chat, student, "/review")
        asked = await tg.wait_for(
            lambda: next((m for m in tg.messages(chat.id)[before:] if m.buttons), None)
        )
        await tick_and_submit(tg, chat.id, student, asked, ["A", "B"])
        text = await tg.wait_for(
            lambda: (
                m.text
                if (m := tg.stored_message(chat.id, asked.message_id)) and "💬" in m.text
                else None
            )
        )
        assert_metals_wrong(text, lang)


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_homework_marks_every_pick_and_alert_matches(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    student = cls.students[0 if lang == "en" else 1]
    w = WORDS[lang]
    env = bank_env(tmp_path, "several", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env):
        chat = await set_and_open_homework(tg, cls, student, "several", "Vectors and metals")
        q1 = await tg.wait_for(lambda: hw_question(tg, student, 0))
        alert = await tick_and_submit(tg, chat.id, student, q1, ["A", "C"])
        assert alert.startswith("✅")
        text = (await tg.wait_for(lambda: closed(tg, chat.id, q1.message_id))).text
        assert_vectors_right(text, lang)
        feedback = alert.split("\n\n", 1)[1]  # the alert's feedback is the closed one's too
        assert f") {feedback}" in text

        q2 = await tg.wait_for(lambda: hw_question(tg, student, 1))
        alert = await tick_and_submit(tg, chat.id, student, q2, ["A", "B"])
        assert w["oxygen_fb"] in alert and w["iron_fb"] not in alert
        text = (await tg.wait_for(lambda: closed(tg, chat.id, q2.message_id))).text
        assert_metals_wrong(text, lang)


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_group_alert_and_recap_mark_every_pick(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    student = cls.students[0 if lang == "en" else 1]
    w = WORDS[lang]
    chat = cls.chat_id
    env = bank_env(tmp_path, "several", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env):
        private = tg.private_chat(student)
        tg.user_says(private, student, "/start")
        await tg.wait_for(lambda: tg.messages(private.id))
        tg.user_says(chat, cls.creator, f"/lang {lang}")
        await tg.wait_for(lambda: tg.messages(chat))
        tg.user_says(chat, cls.creator, "/quiz several 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        for label in ("B", labels_of(q1)[-1]):  # Mass only: wrong
            await tg.wait_answered(tg.tap(chat, student, q1.message_id, button_data(q1, label)))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        for label in ("A", "B"):
            await tg.wait_answered(tg.tap(chat, student, q2.message_id, button_data(q2, label)))
        alert = await tg.wait_answered(
            tg.tap(chat, student, q2.message_id, button_data(q2, labels_of(q2)[-1]))
        )
        assert alert.text is not None
        assert w["oxygen_fb"] in alert.text and w["iron_fb"] not in alert.text
        tg.user_says(chat, cls.creator, "/next")
        recap = await tg.wait_for(
            lambda: next((m for m in tg.messages(private.id) if w["oxygen_fb"] in m.text), None)
        )
        text = recap.text
        assert_metals_wrong(text, lang)
        assert line_of(text, w["Mass"]) == f"☑ B) {w['Mass']} ❌"
        assert line_of(text, w["Force"]).startswith("☐ A) ")
        assert line_of(text, w["Force"]).endswith("✅")
        assert "A, B" in text  # what the student chose, both picks
