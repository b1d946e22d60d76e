"""Shared steps of the homework_report tests."""

from __future__ import annotations

import functools

from fakebot import FakeTelegram, StoredMessage, User
from quizkit import button_data, options_shown
from teacherkit import FrozenClock, hw_question, start_hw

DAY = 86_400.0


def regrade_offers(tg: FakeTelegram, user: User) -> list[StoredMessage]:
    """The messages in ``user``'s private chat offering to re-grade from a report."""
    return [
        m
        for m in tg.messages(user.id)
        if any((d or "").startswith("rr:") for row in m.buttons for _, d in row)
    ]


async def take(tg: FakeTelegram, student: User, count: int, wrong: set[int]) -> None:
    """The student takes homework 1 of a stored quiz of "right"/"wrong" options: "wrong" on
    the questions in ``wrong``."""
    await start_hw(tg, student, 1)
    for q in range(count):
        shown = await tg.wait_for(functools.partial(hw_question, tg, student, q))
        texts = options_shown(shown)
        pick = next(
            label for label, text in texts.items() if text == ("wrong" if q in wrong else "right")
        )
        await tg.wait_answered(
            tg.tap(student.id, student, shown.message_id, button_data(shown, pick))
        )
    await tg.wait_for(lambda: tg.find_message(student.id, "Homework done"), what="done")


def review_question(tg: FakeTelegram, user: User) -> StoredMessage | None:
    found = [m for m in tg.messages(user.id) if m.text.startswith("🔁 Review") and m.buttons]
    return found[-1] if found else None


def report_button(tg: FakeTelegram, user: User, message_id: int) -> str | None:
    stored = tg.stored_message(user.id, message_id)
    datas = [d for row in stored.buttons for _, d in row] if stored is not None else []
    return next((d for d in datas if d and d.startswith("pc:")), None)


async def report_from_review(tg: FakeTelegram, clock: FrozenClock, student: User) -> None:
    """A day later the missed question comes back in /review; the student answers it, then
    reports it ("wrong answer key")."""
    clock.advance(DAY + 60)
    tg.user_says(tg.private_chat(student), student, "/review")
    asked = await tg.wait_for(functools.partial(review_question, tg, student), what="/review")
    answer = next(d for row in asked.buttons for _, d in row if d)
    await tg.wait_answered(tg.tap(student.id, student, asked.message_id, answer))
    report = await tg.wait_for(
        functools.partial(report_button, tg, student, asked.message_id), what="report button"
    )
    await tg.wait_answered(tg.tap(student.id, student, asked.message_id, report))
    ask = await tg.wait_for(lambda: tg.find_message(student.id, "what is wrong?"))
    await tg.wait_answered(tg.tap(student.id, student, ask.message_id, ask.buttons[0][0][1]))
