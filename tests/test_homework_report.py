"""Issue 21: a student's report on a homework attempt reaches whoever set the homework (the
moderator who ran /homework), privately, with the re-grade buttons; the quiz's author too, and
one message when the author set it."""

from __future__ import annotations

import functools
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User
from quizkit import button_data, options_shown, populate
from teacherkit import FrozenClock, harness, hw_question, start_hw, take_hw
from test_authoring_manage import write_quiz

from bot.i18n import t_plain
from bot.i18n.lang import LANGS

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


async def test_a_homework_report_reaches_the_moderator_who_set_it(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    (student,) = cls.students
    setter, other = cls.admin, cls.creator  # the quiz is a folder bank: it has no author
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        for user in (setter, other, student):
            tg.user_says(tg.private_chat(user), user, "/start")
            await tg.wait_for(functools.partial(tg.messages, user.id))
        tg.user_says(cls.chat_id, setter, "/homework zero 1d")  # closed when the report comes
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "ZeRO"), what="card")
        await take_hw(tg, student, 1, [False] + [True] * 7)
        await report_from_review(tg, clock, student)
        (told,) = await tg.wait_for(lambda: regrade_offers(tg, setter) or None, what="told")
        assert "ZeRO" in told.text
        # its buttons are the setter's to use: not refused as someone else's (re-grading
        # itself: tests/test_regrade.py)
        offer = next(d for row in told.buttons for _, d in row if d)
        tapped = await tg.wait_answered(tg.tap(setter.id, setter, told.message_id, offer))
        refusals = {
            t_plain(lang, key) for lang in LANGS for key in ("alert_mod_only", "alert_invalid")
        }
        assert tapped.text not in refusals
        assert not regrade_offers(tg, other)  # nobody else is told


async def test_one_message_when_the_author_set_the_homework(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    (student,) = cls.students
    teacher = cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        for user in (teacher, student):
            tg.user_says(tg.private_chat(user), user, "/start")
            await tg.wait_for(functools.partial(tg.messages, user.id))
        name = await write_quiz(tg, teacher, "Cells", count=2)
        tg.user_says(cls.chat_id, teacher, f"/homework {name} 3d")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "Cells"), what="card")
        await take(tg, student, 2, wrong={0})
        await report_from_review(tg, clock, student)
        # the report's tap is answered once every teacher was written to
        assert len(regrade_offers(tg, teacher)) == 1
