"""Shared steps of the regrade tests."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import Class, bank_env, button_data
from teacherkit import FrozenClock, hw_question
from typeskit import asked, bank, types

from bot.render import label


async def tap_bank(
    tg: FakeTelegram,
    bot: BotHarness,
    cls: Class,
    student: User,
    question: StoredMessage,
    option: int,
) -> str:
    """The student taps the button showing bank option ``option``."""
    run = bot.services.groups.running(cls.chat_id, 0)
    assert run is not None
    shown = run.engine.permutation.index(option)
    answer = await tg.wait_answered(
        tg.tap(cls.chat_id, student, question.message_id, button_data(question, label(shown)))
    )
    assert answer.text is not None
    return answer.text


async def command(
    tg: FakeTelegram, chat: int, user: User, text: str, expect: str, clock: FrozenClock
) -> StoredMessage:
    before = {m.message_id for m in tg.messages(chat)}
    clock.advance(21)  # past the per-student reply cooldown
    tg.user_says(chat, user, text, ephemeral=False)  # a visible command: its reply in the chat
    return await tg.wait_for(
        lambda: next(
            (m for m in tg.messages(chat) if m.message_id not in before and expect in m.text), None
        ),
        what=expect,
    )


async def edited(tg: FakeTelegram, chat: int, message: StoredMessage, expect: str) -> StoredMessage:
    """Wait until ``message`` is edited to contain ``expect``."""

    def now() -> StoredMessage | None:
        stored = tg.stored_message(chat, message.message_id)
        return stored if stored is not None and expect in stored.text else None

    return await tg.wait_for(now, what=expect)


def csv_rows(message: StoredMessage) -> list[dict[str, str]]:
    assert message.document is not None and message.document.data is not None
    return list(csv.DictReader(io.StringIO(message.document.data.decode("utf-8-sig"))))


KINDS = bank(seconds=60)


def kinds_env(tmp_path: Path) -> dict[str, str]:
    return bank_env(tmp_path, "kinds", KINDS)


def buttons(message: StoredMessage) -> list[str]:
    return [d for row in message.buttons for _, d in row if d]


async def take(tg: FakeTelegram, student: User, typed: tuple[str, str, str, str]) -> None:
    """A whole homework attempt: A, C ticked and submitted, False, then four typed answers."""
    chat = tg.private_chat(student)
    tg.user_says(chat, student, "/start hw-1")
    q1 = await tg.wait_for(lambda: hw_question(tg, student, 0), timeout=20)
    for text in ("☐ A", "☐ C", "✔ Submit"):
        await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, button_data(q1, text)))
    q2 = await tg.wait_for(lambda: hw_question(tg, student, 1), timeout=20)
    await tg.wait_answered(tg.tap(chat.id, student, q2.message_id, button_data(q2, "False")))
    for number, text in enumerate(typed, 3):
        question = await asked(tg, student, f"❓ Question {number}/6")
        await types(tg, student, text, question)
    await tg.wait_for(lambda: tg.find_message(chat.id, "Homework done"), timeout=20)
