"""Shared steps of the button_refusals tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fakebot import CallbackAnswer, FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import Class, start_quiz
from regradekit import tap_bank

from bot.i18n import t_plain
from bot.i18n.lang import LANGS


def alerts(*keys: str) -> set[str]:
    """The alert texts of these keys, in every language."""
    return {t_plain(lang, key) for lang in LANGS for key in keys}


async def refused(
    tg: FakeTelegram, chat: int, user: User, message_id: int, data: str, *keys: str
) -> CallbackAnswer:
    """``user`` taps ``data`` on ``message_id`` in ``chat``: answered by an alert of ``keys``."""
    answer = await tg.wait_answered(tg.tap(chat, user, message_id, data))
    assert answer.show_alert and answer.text in alerts(*keys), (data, answer.text)
    return answer


async def greeted(tg: FakeTelegram, user: User) -> StoredMessage:
    """``user`` starts the bot privately; its first message there (a message to tap on)."""
    tg.user_says(tg.private_chat(user), user, "/start")
    return await tg.wait_for(lambda: next(iter(tg.messages(user.id)), None))


def answers(db: Path) -> list[tuple[int, ...]]:
    """Every stored answer's verdict and points."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT run_id, q_index, user_id, correct, points FROM answers ORDER BY 1, 2, 3"
        ).fetchall()
    finally:
        conn.close()


async def played_with_a_wrong_answer(tg: FakeTelegram, cls: Class, bot: BotHarness) -> int:
    """``zero`` run in the group: Student0 picks a wrong option of question 1; the option."""
    q1 = bot.services.catalog["zero"].questions[0]
    wrong = (q1.correct + 1) % len(q1.options)
    first = await start_quiz(tg, cls)
    await tap_bank(tg, bot, cls, cls.students[0], first, wrong)
    tg.user_says(cls.chat_id, cls.creator, "/stop")
    await tg.wait_for(lambda: tg.find_message(cls.chat_id, "— results"))
    return wrong
