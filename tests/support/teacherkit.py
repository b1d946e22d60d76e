"""Helpers for the homework, analysis and re-grading tests: a frozen clock and a student taking
a homework in their private chat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fakebot import Chat, FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import ZERO, Class, button_data, correct_label
from reviewkit import say

from bot.app.store import Store

T0 = 1_803_895_200.0  # Monday 1 March 2027, 10:00 UTC (16:00 in Dhaka)


class FrozenClock:
    """The bot's injected clock: it stands still unless a test moves it, so answer times (and
    points) are exact."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def harness(tg: FakeTelegram, db: Path, clock: FrozenClock, **env: str) -> BotHarness:
    bot = BotHarness(tg, db, env=env or None)
    bot.services.clock = clock
    # find deadlines the clock jumped past quickly
    bot.services.settings = replace(bot.services.settings, homework_sweep=0.2)
    return bot


def store_of(bot: BotHarness) -> Store:
    return bot.services.store


def lang_of(user: User) -> str:
    return "bn" if user.language_code == "bn" else "en"


def hw_question(tg: FakeTelegram, student: User, q_index: int) -> StoredMessage | None:
    """The student's open homework question ``q_index`` (0-based), with its buttons."""
    for message in reversed(tg.messages(student.id)):
        datas = [d for row in message.buttons for _, d in row if d]
        if datas and datas[0].startswith("h:") and int(datas[0].split(":")[2]) == q_index:
            return message
    return None


async def answer_hw(tg: FakeTelegram, student: User, q_index: int, right: bool) -> str:
    """Tap the right (or a wrong) option of homework question ``q_index``; the alert text."""
    question = await tg.wait_for(
        lambda: hw_question(tg, student, q_index),
        what=f"homework question {q_index + 1} for {student.id}",
    )
    label = correct_label(question, ZERO, lang_of(student))
    if not right:
        label = next(x for x in "ABCD" if x != label)
    answer = await tg.wait_answered(
        tg.tap(student.id, student, question.message_id, button_data(question, label))
    )
    assert answer.text is not None and answer.show_alert
    return answer.text


async def start_hw(tg: FakeTelegram, student: User, homework_id: int) -> StoredMessage:
    """The student opens the card's deep link; the bot's first answer."""
    return await say(tg, student, f"/start hw-{homework_id}")


async def set_and_open_homework(
    tg: FakeTelegram, cls: Class, student: User, name: str, card: str, wait: float = 10.0
) -> Chat:
    """``/homework NAME 1d`` by the group's creator; once its card (with ``card`` in it) is
    up, ``student`` opens its link; their private chat."""
    tg.user_says(cls.chat_id, cls.creator, f"/homework {name} 1d")
    await tg.wait_for(lambda: tg.find_message(cls.chat_id, card), timeout=wait)
    chat = tg.private_chat(student)
    tg.user_says(chat, student, "/start hw-1")
    return chat


async def take_hw(tg: FakeTelegram, student: User, homework_id: int, rights: list[bool]) -> None:
    """A whole attempt: right/wrong per question, in order."""
    await start_hw(tg, student, homework_id)
    for q_index, right in enumerate(rights):
        await answer_hw(tg, student, q_index, right)
    await tg.wait_for(
        lambda: (
            tg.find_message(student.id, "Homework done")
            or tg.find_message(student.id, "হোমওয়ার্ক শেষ!")
        ),
        what="homework done",
    )
