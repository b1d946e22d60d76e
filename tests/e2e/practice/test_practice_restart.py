"""End to end, in real processes: a practice session the bot was killed in (kill -9) while its
next question was being posted gets that question after the restart, once, without the student
doing anything; and their answer to it counts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from botproc import BotProcess
from fakebot import FakeTelegram, StoredMessage
from quizkit import (
    bank_env,
    button_data,
    correct_label,
    is_question,
    open_question,
    question_messages,
    until,
)
from typeskit import NUMBERS


def phase(db: Path) -> tuple[int, str] | None:
    """Where the running practice run stands in the store: (question index, phase)."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT current, phase FROM runs WHERE mode = 'practice' AND status = 'running'"
        ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


async def test_a_question_being_posted_at_kill_9_is_posted_after_the_restart(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(705, "Mitu", language_code="en")
    chat = tg.private_chat(student)
    db = tmp_path / "db.sqlite3"
    bot = await BotProcess(tg, db).start()
    try:
        tg.user_says(chat, student, "/quiz zero")
        q1 = await tg.wait_for(lambda: open_question(tg, chat.id, 1), timeout=20)
        # question 2's send never comes back: the bot dies with it stored as being posted
        stuck = tg.fail("sendMessage", delay=60, match=is_question(2))
        tg.tap(chat, student, q1.message_id, button_data(q1, correct_label(q1)))
        await until(lambda: stuck.hits > 0, timeout=20)  # a fault's hit is no call yet
        await bot.kill()  # the send is in flight: stored as being posted, nothing shown yet
        assert phase(db) == (1, "posting") and open_question(tg, chat.id, 2) is None

        bot = await BotProcess(tg, db).start()
        q2 = await tg.wait_for(lambda: open_question(tg, chat.id, 2), timeout=20)
        await tg.wait_for(lambda: phase(db) == (1, "open"), timeout=20)
        tg.tap(chat, student, q2.message_id, button_data(q2, correct_label(q2)))
        await tg.wait_for(lambda: open_question(tg, chat.id, 3), timeout=20)
        seconds = [m for m in question_messages(tg, chat.id) if " 2/" in m.text.split("\n")[0]]
        assert seconds == [q2]  # the killed process's send never went out; one after restart
        with sqlite3.connect(db) as conn:
            answered = conn.execute(
                "SELECT q_index, correct FROM answers WHERE user_id = ?", (student.id,)
            ).fetchall()
        assert sorted(answered) == [(0, 1), (1, 1)]
    finally:
        await bot.close()


def numbers_asked(tg: FakeTelegram, chat_id: int, n: int) -> list[StoredMessage]:
    return [m for m in tg.messages(chat_id) if m.text.startswith(f"❓ Question {n}/8")]


async def test_a_typed_answer_whose_next_question_was_being_posted_gets_it_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The message that answered is left unfinished by the kill, so after the restart two things
    restore the session at once (the question being posted, and the notice that names the
    question waiting): it is restored once, and the question posted once, before the notice."""
    student = tg.add_user(706, "Sumi", language_code="en")
    chat = tg.private_chat(student)
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "numbers", NUMBERS)
    bot = await BotProcess(tg, db, **env).start()
    try:
        tg.user_says(chat, student, "/quiz numbers")
        await tg.wait_for(lambda: numbers_asked(tg, chat.id, 1), timeout=20)
        stuck = tg.fail("sendMessage", delay=60, match=is_question(2))
        tg.user_says(chat, student, "2")
        await until(lambda: stuck.hits > 0, timeout=20)
        await bot.kill()
        assert phase(db) == (1, "posting") and not numbers_asked(tg, chat.id, 2)

        bot = await BotProcess(tg, db, **env).start()
        told = await tg.wait_for(lambda: tg.find_message(chat.id, "I restarted"), timeout=20)
        [q2] = numbers_asked(tg, chat.id, 2)
        assert "What is 2 + 2?" in told.text and told.message_id > q2.message_id
        tg.user_says(chat, student, "4")
        await tg.wait_for(lambda: numbers_asked(tg, chat.id, 3), timeout=20)
        assert [m for m in tg.messages(chat.id) if "Question 2/8" in m.text] == [
            tg.stored_message(chat.id, q2.message_id)
        ]  # posted once, now closed with its verdict
    finally:
        await bot.close()
