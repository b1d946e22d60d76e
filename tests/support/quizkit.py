"""Helpers for end-to-end tests: a populated group, and reading quiz messages as a student."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
from fakebot import Chat, FakeTelegram, StoredMessage, User

from bot.banks.yaml_reader import load_quiz
from bot.core.bank import Question, Quiz, Text
from bot.core.engine import QuizEngine

ROOT = Path(__file__).resolve().parents[2]
ZERO: Quiz = load_quiz(ROOT / "questions" / "zero.yaml")
GROUP_ID = -1001234567890


@dataclass
class Class:
    """A study group: a creator, an admin, a non-moderator and many students."""

    chat_id: int
    creator: User
    admin: User
    outsider: User
    students: list[User]


def populate(
    tg: FakeTelegram,
    *,
    students: int = 30,
    chat_id: int = GROUP_ID,
    forum: bool = False,
    base: int = 1000,
) -> Class:
    creator = tg.add_user(base + 1, "Mita", "Rahman", username="mita_teacher")
    admin = tg.add_user(base + 2, "Arif", username="arif_ta", language_code="bn")
    outsider = tg.add_user(base + 3, "Nadia", username="nadia")
    pupils = [
        tg.add_user(base + 100 + i, f"Student{i}", language_code="bn" if i % 2 else "en")
        for i in range(students)
    ]
    tg.add_group(
        chat_id,
        "ZeRO study group",
        creator=creator,
        admins=[admin],
        members=[outsider, *pupils],
        supergroup=True,
        forum=forum,
    )
    return Class(chat_id, creator, admin, outsider, pupils)


def question_messages(
    tg: FakeTelegram, chat_id: int | Chat, thread: int | None = None
) -> list[StoredMessage]:
    """The bot's question messages (open or revealed), in order."""
    from fakebot import ANY

    found = tg.messages(chat_id, ANY if thread is None else thread)
    return [m for m in found if re.search(r"(Question|প্রশ্ন) \S+/\S+", m.text.split("\n")[0])]


def newest_after(tg: FakeTelegram, chat_id: int, count: int) -> StoredMessage | None:
    """The chat's newest message once it has more than ``count`` messages."""
    messages = tg.messages(chat_id)
    return messages[-1] if len(messages) > count else None


def open_question(
    tg: FakeTelegram, chat_id: int | Chat, number: int, thread: int | None = None
) -> StoredMessage | None:
    """Question ``number`` (1-based) if it is posted and still has its buttons."""
    for message in question_messages(tg, chat_id, thread):
        head = message.text.split("\n")[0]
        if (f" {number}/" in head or f" {bn_digits(number)}/" in head) and message.buttons:
            return message
    return None


def bn_digits(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))


def options_shown(message: StoredMessage) -> dict[str, str]:
    """Label → option text, read from the message as a student reads it."""
    out = {}
    for line in message.text.split("\n"):
        m = re.match(r"^([A-J])\) (.*?)(?: — \S+)?(?: ✅)?$", line)
        if m:
            out[m[1]] = m[2]
    return out


def correct_label(message: StoredMessage, quiz: Quiz = ZERO, lang: str = "en") -> str:
    """The label of the right option, found by matching the bank's text."""
    shown = options_shown(message)
    for question in quiz.questions:
        right = question.options[question.correct](lang)
        for label, text in shown.items():
            if text == right and question.text(lang) in message.text:
                return label
    raise AssertionError(f"no right option found in {message.text!r}")


def button_data(message: StoredMessage, label: str) -> str:
    for row in message.buttons:
        for text, data in row:
            if text == label and data is not None:
                return data
    raise AssertionError(f"no button {label} in {message.buttons}")


def run_of(message: StoredMessage) -> int:
    """The run id carried by a question message's buttons."""
    return int(button_data(message, "A").split(":")[1])


async def start_quiz(tg: FakeTelegram, cls: Class, seconds: int = 600) -> StoredMessage:
    """The group's creator starts ``zero``; returns question 1 once it is posted."""
    tg.user_says(cls.chat_id, cls.creator, f"/quiz zero {seconds}")
    return await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))


def is_question(number: int) -> Callable[[dict[str, object]], bool]:
    """A request's match (a fault's ``match``): its text is question ``number``."""
    return lambda params: f"Question {number}/" in str(params.get("text", ""))


def assert_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing above WARNING and no traceback was logged."""
    loud = [
        (r.name, r.levelname, r.getMessage(), repr(r.exc_info[1]) if r.exc_info else "")
        for r in caplog.records
        if r.levelno > logging.WARNING or r.exc_info
    ]
    assert not loud, loud


def right_shown(engine: QuizEngine) -> int:
    """The shown position of the current question's right option."""
    return engine.permutation.index(engine.question.correct)


T = TypeVar("T")


def bank_env(tmp_path: Path, name: str, text: str) -> dict[str, str]:
    """The environment of a bot whose questions folder holds one bank, ``name``.yaml."""
    folder = tmp_path / "questions"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return {"QUIZBOT_QUESTIONS": str(folder)}


def labels_of(message: StoredMessage) -> list[str]:
    """Every button's label of ``message``, row after row."""
    return [text for row in message.buttons for text, _ in row]


async def until(predicate: Callable[[], T | None], timeout: float = 10.0) -> T:  # noqa: ASYNC109
    """Wait for a condition on state no Bot API call announces (the bot's memory, its
    database), polling briefly; ``tg.wait_for`` is the way for anything the server sees."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := predicate()):
        if loop.time() > deadline:
            raise TimeoutError(f"condition not met within {timeout}s")
        await asyncio.sleep(0.02)
    return value


def explained(question: Question) -> Text:
    """A question's explanation, which the shipped banks always have."""
    assert question.explanation is not None, question.id
    return question.explanation
