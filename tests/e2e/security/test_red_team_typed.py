"""Red team: a typed answer is judged only for the question it answers.

A private chat numbers its messages in order, the bot's and the student's alike: a text numbered
before the open question's message was written before the student could see that question, so
it answered an earlier one. Sent twice, in a burst, or while the session's lock is held for the
question before, it is told which question waits now and never graded as that one. A typed
practice question that waits is not the only thing waiting for text: a draft begun after it, or
once it is stale, takes the student's text."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from botproc import BotProcess
from clockkit import ManualClock
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, populate, until
from teacherkit import set_and_open_homework
from typeskit import NUMBERS

from bot.core.engine import DAY

CLOSED = "That question has closed"


def asked(tg: FakeTelegram, user: User, n: int) -> StoredMessage | None:
    return next((m for m in tg.messages(user.id) if m.text.startswith(f"❓ Question {n}/8")), None)


def notices(tg: FakeTelegram, user: User) -> list[StoredMessage]:
    return [m for m in tg.messages(user.id) if m.text.startswith(CLOSED)]


def opened(db: Path, n: int) -> bool:
    """Whether the practice run's question ``n`` is open (its clock started) in the store."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT current, phase FROM runs WHERE mode = 'practice' AND status = 'running'"
        ).fetchone()
    return row is not None and row == (n - 1, "open")


def shown_text(tg: FakeTelegram, chat_id: int, message_id: int) -> str:
    message = tg.stored_message(chat_id, message_id)
    return message.text if message is not None else ""


def given(db: Path, user: User) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT question_id, given FROM answers WHERE user_id = ?", (user.id,)
        ).fetchall()
    return {str(q): str(g) for q, g in rows}


async def test_practice_answer_twice_and_a_burst_answer_one_question_each(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(701, "Rina", language_code="en")
    db = tmp_path / "db.sqlite3"
    async with BotHarness(tg, db, env=bank_env(tmp_path, "numbers", NUMBERS)):
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz numbers")
        await tg.wait_for(lambda: asked(tg, student, 1))
        # the same answer sent twice before the next question came: the second is not its answer
        tg.user_says(chat, student, "2")
        tg.user_says(chat, student, "2")
        q2 = await tg.wait_for(lambda: asked(tg, student, 2))
        told = await tg.wait_for(lambda: notices(tg, student))
        assert "What is 2 + 2?" in told[0].text  # the question waiting now, named
        assert told[0].reply_to is not None
        # a burst of 40 while question 2 waits: one answer, 39 told which question waits
        for _ in range(40):
            tg.user_says(chat, student, "4")
        await tg.wait_for(lambda: asked(tg, student, 3))
        await tg.wait_for(lambda: len(notices(tg, student)) == 40, timeout=30)
        assert given(db, student) == {"n1": "2", "n2": "4"}
        after = tg.stored_message(chat.id, q2.message_id)
        assert after is not None and "Your answer: 4" in after.text
        q3 = asked(tg, student, 3)
        assert q3 is not None and tg.stored_message(chat.id, q3.message_id) == q3  # still open
        # an answer sent after question 3 was asked answers it
        tg.user_says(chat, student, "6")
        await tg.wait_for(lambda: asked(tg, student, 4))
        assert given(db, student)["n3"] == "6"


async def test_homework_answer_sent_twice_grades_one_question(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=1)
    student = cls.students[0]
    db = tmp_path / "db.sqlite3"
    async with BotHarness(tg, db, env=bank_env(tmp_path, "numbers", NUMBERS)):
        chat = await set_and_open_homework(tg, cls, student, "numbers", "Numbers", wait=20)
        await tg.wait_for(lambda: asked(tg, student, 1), timeout=20)
        for _ in range(12):
            tg.user_says(chat, student, "2")
        await tg.wait_for(lambda: asked(tg, student, 2))
        await tg.wait_for(lambda: len(notices(tg, student)) == 11, timeout=30)
        assert given(db, student) == {"n1": "2"}
        waiting = notices(tg, student)[0].text
        assert "What is 2 + 2?" in waiting


async def test_stale_practice_question_leaves_a_new_draft_its_title(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(702, "Rafi", language_code="en")
    clock = ManualClock(time.time())
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "numbers", NUMBERS)
    async with BotHarness(tg, db, env=env, clock=clock) as bot:
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz numbers")
        await tg.wait_for(lambda: opened(db, 1))
        clock.advance(60)  # the question waits; the student begins writing a quiz
        tg.user_says(chat, student, "/newquiz")
        await tg.wait_for(lambda: tg.find_message(chat.id, "title"))
        tg.user_says(chat, student, "Biology")
        await tg.wait_for(lambda: tg.find_message(chat.id, "Biology"))
        assert not tg.find_message(chat.id, "Please type a number")
        draft = await bot.services.store.draft(student.id)
        assert draft is not None and draft.title == "Biology"
        assert given(db, student) == {}


async def test_practice_question_past_its_minutes_gives_way_to_an_older_draft(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(703, "Mitu", language_code="en")
    clock = ManualClock(time.time())
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "numbers", NUMBERS)
    async with BotHarness(tg, db, env=env, clock=clock) as bot:
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/newquiz")
        await tg.wait_for(lambda: tg.find_message(chat.id, "title"))
        clock.advance(60)
        tg.user_says(chat, student, "/quiz numbers")
        await tg.wait_for(lambda: asked(tg, student, 1))
        # fresh: the question asked after the draft was begun takes the text
        tg.user_says(chat, student, "2")
        await tg.wait_for(lambda: opened(db, 2))
        clock.advance(31 * 60)  # the student left question 2 waiting past its 30 minutes
        tg.user_says(chat, student, "Chemistry")
        await tg.wait_for(lambda: tg.find_message(chat.id, "Chemistry"))
        draft = await bot.services.store.draft(student.id)
        assert draft is not None and draft.title == "Chemistry"
        assert given(db, student) == {"n1": "2"}


async def test_after_kill_9_before_the_verdict_the_notice_names_the_question_waiting(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Killed after an answer was stored and before its message was edited: after the restart
    the student is told which question waits, and the answer they send again is judged for
    that question only (never as the question after it)."""
    student = tg.add_user(704, "Tuli", language_code="en")
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "numbers", NUMBERS)
    bot = await BotProcess(tg, db, **env).start()
    try:
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz numbers")
        q1 = await tg.wait_for(lambda: asked(tg, student, 1), timeout=20)
        stuck = tg.fail(
            "editMessageText", delay=60, match=lambda p: p.get("message_id") == q1.message_id
        )
        tg.user_says(chat, student, "2")
        # neither a fault's hit nor the database is a call the fake announces: polled, so the
        # kill comes while the edit is held, not after the bot gave up on it and moved on
        await until(lambda: stuck.hits > 0 and given(db, student) == {"n1": "2"}, timeout=20)
        await bot.kill()
        bot = await BotProcess(tg, db, **env).start()
        told = await tg.wait_for(lambda: tg.find_message(chat.id, "I restarted"), timeout=20)
        # the stored answer was shown on its question, and the question after it asked
        shown = tg.stored_message(chat.id, q1.message_id)
        assert shown is not None and "Your answer: 2" in shown.text
        q2 = await tg.wait_for(lambda: asked(tg, student, 2), timeout=20)
        assert "What is 2 + 2?" in told.text and told.message_id > q2.message_id
        tg.user_says(chat, student, "4")  # the answer to the question named
        await tg.wait_for(lambda: asked(tg, student, 3), timeout=20)
        assert given(db, student) == {"n1": "2", "n2": "4"}
    finally:
        await bot.close()


async def test_homework_killed_before_the_verdict_shows_it_and_asks_the_next(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=1)
    student = cls.students[0]
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "numbers", NUMBERS)
    bot = await BotProcess(tg, db, **env).start()
    try:
        chat = await set_and_open_homework(tg, cls, student, "numbers", "Numbers", wait=20)
        q1 = await tg.wait_for(lambda: asked(tg, student, 1), timeout=20)
        stuck = tg.fail(
            "editMessageText", delay=60, match=lambda p: p.get("message_id") == q1.message_id
        )
        tg.user_says(chat, student, "2")
        # neither a fault's hit nor the database is a call the fake announces: polled, so the
        # kill comes while the edit is held, not after the bot gave up on it and moved on
        await until(lambda: stuck.hits > 0 and given(db, student) == {"n1": "2"}, timeout=20)
        await bot.kill()
        bot = await BotProcess(tg, db, **env).start()
        q2 = await tg.wait_for(lambda: asked(tg, student, 2), timeout=20)
        await tg.wait_for(lambda: "Your answer: 2" in shown_text(tg, chat.id, q1.message_id))
        tg.user_says(chat, student, "4")
        await tg.wait_for(lambda: asked(tg, student, 3), timeout=20)
        assert given(db, student) == {"n1": "2", "n2": "4"}
        assert tg.stored_message(chat.id, q2.message_id) is not None
    finally:
        await bot.close()


TWO = """\
title: {bn: দুই, en: Two}
language: en
settings: {shuffle: false, seconds: 300}
questions:
  - id: a
    type: numeric
    question: {bn: "১ + ১?", en: "What is 1 + 1?"}
    answers: [{answer: 2}]
  - id: b
    type: numeric
    question: {bn: "২ + ২?", en: "What is 2 + 2?"}
    answers: [{answer: 4}]
"""


async def test_review_answer_sent_twice_answers_one_card(tg: FakeTelegram, tmp_path: Path) -> None:
    student = tg.add_user(705, "Joya", language_code="en")
    clock = ManualClock(time.time())
    db = tmp_path / "db.sqlite3"
    async with BotHarness(tg, db, env=bank_env(tmp_path, "two", TWO), clock=clock):
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz two")
        for n, wrong in ((1, "5"), (2, "5")):
            await tg.wait_for(
                lambda n=n: next(  # type: ignore[misc]
                    (m for m in tg.messages(chat.id) if m.text.startswith(f"❓ Question {n}/2")),
                    None,
                )
            )
            tg.user_says(chat, student, wrong)
        await tg.wait_for(lambda: tg.find_message(chat.id, "Score: 0/2"))
        clock.advance(DAY + 60)
        tg.user_says(chat, student, "/review")
        first = await tg.wait_for(lambda: tg.find_message(chat.id, "🔁 Review"))
        tg.user_says(chat, student, "2")
        tg.user_says(chat, student, "2")
        await tg.wait_for(lambda: notices(tg, student))
        assert "What is 1 + 1?" in first.text
        done = tg.stored_message(chat.id, first.message_id)
        assert done is not None and "Your answer: 2" in done.text
        second = tg.find_message(chat.id, "🔁 Review")
        assert second is not None and second.message_id != first.message_id
        assert "What is 2 + 2?" in second.text and "Your answer" not in second.text  # waiting
        assert "What is 2 + 2?" in notices(tg, student)[0].text
