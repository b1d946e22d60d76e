"""Red team, typed numbers: superscripts, subscripts and fractions are not digits (``1²`` is
not 12), odd spellings of numbers are asked again with nothing stored, and a unit written with
a superscript still reads."""

from __future__ import annotations

import sqlite3
import time
from functools import partial
from pathlib import Path

import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import bank_env
from typeskit import asked, types

from bot.core.scoring import read_number

BANK = """\
title: Squares
language: en
settings:
  shuffle: false
  seconds: 300
questions:
  - id: twelve
    type: numeric
    question: What is three times four?
    answers: [{answer: 12}]
  - id: area
    type: numeric
    question: The area of a 3 m square, in m²?
    answers: [{answer: 9}]
    units: [m²]
"""


@pytest.mark.parametrize(
    "typed", ["1²", "1₂", "¹²", "3.1⁴", "½", "1e400", "--1", "nan", "inf", "0x1A", "1_000", "٣"]
)
def test_odd_numbers_are_not_read(typed: str) -> None:
    assert read_number(typed) is None


def test_numbers_read_as_written() -> None:
    assert read_number("12") == read_number("১২") == read_number("１２") == 12.0
    assert read_number("9 m²", ["m²"]) == read_number("9 m2", ["m²"]) == 9.0
    assert read_number("9²", ["m²"]) is None


def asked_again(tg: FakeTelegram, chat_id: int, times: int) -> bool:
    """The student was asked ``times`` times to type a number."""
    return sum("Please type a number" in m.text for m in tg.messages(chat_id)) >= times


def answers(db: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT given, correct FROM answers ORDER BY q_index").fetchall()
    finally:
        conn.close()


async def test_a_superscript_is_asked_again_not_judged(tg: FakeTelegram, tmp_path: Path) -> None:
    student = tg.add_user(601, "Rina", language_code="en")
    env = bank_env(tmp_path, "squares", BANK)
    db = tmp_path / "db.sqlite3"
    async with BotHarness(tg, db, env=env, clock=ManualClock(time.time())):
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz squares")
        q1 = await asked(tg, student, "❓ Question 1/2")
        for n, typed in enumerate(("1²", "¹²", "1e400", "½"), start=1):
            tg.user_says(chat, student, typed)
            await tg.wait_for(partial(asked_again, tg, chat.id, n), what=f"again after {typed!r}")
        assert answers(db) == []
        assert "✅" in await types(tg, student, "12", q1)
        q2 = await asked(tg, student, "❓ Question 2/2")
        assert "✅" in await types(tg, student, "9 m²", q2)
        assert answers(db) == [("12", 1), ("9 m²", 1)]
