"""Restart safety: the bot is SIGKILLed mid-quiz and the quiz goes on, losing nothing; a
question whose time ran out while the bot was down closes as soon as it is back."""

from __future__ import annotations

import logging
import sqlite3
import time
from functools import partial
from pathlib import Path

import pytest
from botproc import BotProcess
from clockkit import ManualClock
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import button_data, correct_label, open_question, populate, question_messages


def stored_answers(db: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT q_index, user_id, points FROM answers ORDER BY q_index, user_id"
        ).fetchall()


async def test_sigkill_mid_question_loses_no_acknowledged_answer(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=12)
    chat = cls.chat_id
    bot = await BotProcess(tg, db_path).start()
    try:
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=20)
        right = correct_label(q1)
        data = {label: button_data(q1, label) for label in "ABCD"}
        wrong = next(label for label in "ABCD" if label != right)
        # Eight students answer and are acknowledged before the crash.
        acked = {}
        for i, student in enumerate(cls.students[:8]):
            qid = tg.tap(chat, student, q1.message_id, data[right if i < 6 else wrong])
            acked[student.id] = await tg.wait_answered(qid)
        assert all(a.text and a.text.startswith(("✅", "❌")) for a in acked.values())
        before = stored_answers(db_path)
        await bot.kill()

        # While the bot is down: two more taps, and one student taps again.
        tg.tap(chat, cls.students[8], q1.message_id, data[right])
        tg.tap(chat, cls.students[9], q1.message_id, data[wrong])
        again = tg.tap(chat, cls.students[0], q1.message_id, data[wrong])

        bot = await BotProcess(tg, db_path).start()
        answer = await tg.wait_answered(again, timeout=20)
        assert answer.text == f"You already chose {right}; only your first tap counts."
        await tg.wait_for(lambda: len(stored_answers(db_path)) == 10, timeout=20)
        assert set(before) <= set(stored_answers(db_path))  # nothing acknowledged was lost

        # The quiz goes on from question 1: /next reveals it with every answer counted once.
        tg.user_says(chat, cls.admin, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=20)
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert "10 answered, 7 right" in revealed.text
        assert len([m for m in question_messages(tg, chat) if "Question 1/8" in m.text]) == 1

        # Play the rest with /next; student 0 keeps answering right.
        for number in range(2, 9):
            q = await tg.wait_for(partial(open_question, tg, chat, number), timeout=20)
            label = correct_label(q)
            await tg.wait_answered(
                tg.tap(chat, cls.students[0], q.message_id, button_data(q, label))
            )
            tg.user_says(chat, cls.admin, "/next")
        results = await tg.wait_for(lambda: tg.find_message(chat, "🏁"), timeout=20)
        assert "🥇 1. \u2068Student0\u2069" in results.text
        assert "8/8 right" in results.text
        rows = stored_answers(db_path)
        assert len(rows) == 17
        assert len({(q, u) for q, u, _ in rows}) == 17  # none counted twice

        # The leaderboard agrees with what was stored.
        tg.user_says(chat, cls.students[0], "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "Leaderboard"), timeout=20)
        total0 = sum(p for _, u, p in rows if u == cls.students[0].id)
        assert f"1. \u2068Student0\u2069 — {total0} points · 8 right · 1 quiz\n" in board.text
        assert "Players: 10" in board.text
    finally:
        await bot.close()


async def test_deadline_passed_while_down_closes_at_once(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot is down while a question's time runs out (the bot's injected clock moves on
    while it is stopped): on start, the question closes at once, not after a new timer."""
    cls = populate(tg, students=3)
    chat = cls.chat_id
    clock = ManualClock(time.time())
    async with BotHarness(tg, db_path, clock=clock):
        tg.user_says(chat, cls.creator, "/quiz zero 30")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=20)
        await tg.wait_answered(
            tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, correct_label(q1)))
        )
    clock.advance(31)  # the question's 30 seconds run out while nothing is running
    with caplog.at_level(logging.INFO, logger="bot"):
        async with BotHarness(tg, db_path, clock=clock):
            await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=20)
            revealed = tg.stored_message(chat, q1.message_id)
            assert revealed is not None
            assert "1 answered, 1 right" in revealed.text
    assert "question 1's time ran out while the bot was down: closed now" in caplog.text
    assert len(question_messages(tg, chat)) == 2
