"""Red team, privacy: homework is private work unless the operator sets
``QUIZBOT_HOMEWORK_RESULTS=group``. By default its points stay off the group's ``/leaderboard``
and ``/me`` there, its podium goes to the teacher who set it in a private chat (the group reads
that it ended and how many finished), and a typed answer that arrives after the deadline is told
it came too late instead of going unanswered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fakebot import FakeTelegram
from quizkit import bank_env, button_data, correct_label, populate, start_quiz
from refusalkit import greeted
from teacherkit import FrozenClock, harness, take_hw
from typeskit import asked

from bot.core.engine import DAY


async def test_homework_results_stay_private_by_default(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=3)
    chat, teacher = cls.chat_id, cls.creator
    s0, s1, s2 = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        await greeted(tg, teacher)
        tg.user_says(chat, teacher, "/homework zero 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        live = await start_quiz(tg, cls)  # Student2 plays a live quiz: that counts in the group
        await tg.wait_answered(
            tg.tap(chat, s2, live.message_id, button_data(live, correct_label(live)))
        )
        tg.user_says(chat, teacher, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results"))
        await take_hw(tg, s0, 1, [True] * 8)
        await take_hw(tg, s1, 1, [True] * 4 + [False] * 4)

        tg.user_says(chat, teacher, "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "Student2"))
        assert "Student0" not in board.text and "Student1" not in board.text
        assert "1 right" in board.text  # Student2's live answer only
        seen = len(tg.messages(chat)), len(tg.messages(s0.id))
        tg.user_says(
            chat, s0, "/me", ephemeral=False
        )  # answered in the group, or privately (cooldown)
        await tg.wait_for(lambda: (len(tg.messages(chat)), len(tg.messages(s0.id))) != seen)
        mine = [m.text for m in tg.messages(chat)[seen[0] :] + tg.messages(s0.id)[seen[1] :]]
        assert mine and not any("10500" in text or "8 right" in text for text in mine), mine

        clock.advance(2 * DAY)  # the deadline passes
        ended = await tg.wait_for(lambda: tg.find_message(chat, "Homework ended"))
        assert "2 finished" in ended.text
        assert not any("Student0" in m.text for m in tg.messages(chat))  # nobody named there
        podium = await tg.wait_for(lambda: tg.find_message(teacher.id, "Homework results"))
        assert "Student0" in podium.text and "Student1" in podium.text


async def test_homework_results_in_the_group_when_set(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    chat, teacher, (s0,) = cls.chat_id, cls.creator, cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group"):
        tg.user_says(chat, teacher, "/homework zero 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        await take_hw(tg, s0, 1, [True] * 8)
        tg.user_says(chat, teacher, "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "Student0"))
        assert "8 right" in board.text
        clock.advance(2 * DAY)
        podium = await tg.wait_for(lambda: tg.find_message(chat, "Homework results"))
        assert "Student0" in podium.text


BANK = """\
title: Pi
language: en
settings:
  shuffle: false
  seconds: 600
questions:
  - id: pi
    type: numeric
    question: Pi to two places?
    answers: [{answer: 3.14, tolerance: 0.01}]
"""


async def test_a_typed_answer_after_the_deadline_is_answered(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=1)
    chat, teacher, (student,) = cls.chat_id, cls.creator, cls.students
    db = tmp_path / "db.sqlite3"
    clock = FrozenClock()
    async with harness(tg, db, clock, **bank_env(tmp_path, "pi", BANK)):
        tg.user_says(chat, teacher, "/homework pi 1h")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework: Pi"))
        tg.user_says(tg.private_chat(student), student, "/start hw-1")
        await asked(tg, student, "❓ Question 1/1")
        clock.advance(3601)  # the deadline passes while the student types
        await tg.wait_for(lambda: tg.find_message(student.id, "The answers you gave count"))
        tg.user_says(tg.private_chat(student), student, "3.14")
        late = await tg.wait_for(lambda: tg.find_message(student.id, "before your answer arrived"))
        assert late.reply_to is not None
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0
