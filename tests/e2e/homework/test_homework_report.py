"""A student's report on a homework attempt reaches whoever set the homework (the
moderator who ran /homework), privately, with the re-grade buttons; the quiz's author too, and
one message when the author set it."""

from __future__ import annotations

import functools
from pathlib import Path

from authorkit import write_quiz
from fakebot import FakeTelegram
from quizkit import populate
from reportkit import regrade_offers, report_from_review, take
from teacherkit import FrozenClock, harness, take_hw

from bot.i18n import t_plain
from bot.i18n.lang import LANGS


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
        # itself: tests/e2e/teacher/test_regrade.py)
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
