"""After the quiz: who can be written to privately, recap and reminder choices, review cards.

``students`` holds one row per user who has a private-chat preference: whether the bot may write
to them first (``started``: seen in a private chat, cleared by a 403), whether they want recaps,
their UTC offset and their daily reminder time (minutes after local midnight).

``review_cards`` is the spaced-review schedule of questions a user missed: each card's FSRS memory
state (:class:`bot.core.spacing.Memory`) and when the question is ``due`` again; a learnt question
keeps its row with ``due`` NULL.

``review_open`` is the ``/review`` question each student has open: a typed one waiting for the
student's text, or a several-answers one with the options ticked so far (``picked``: their
letters in the bank's order), so that a restart loses neither.

Recap and reminder choices, due cards and the open review are the review feature's queries
(``bot/features/review/queries.py``); what practice and homework share with it stays here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.core.spacing import Memory

from .core import StoreCore


@dataclass(frozen=True, slots=True)
class Student:
    user_id: int
    started: bool
    recaps: bool
    tz_minutes: int | None
    remind_minutes: int | None


@dataclass(frozen=True, slots=True)
class Card:
    card_id: int
    user_id: int
    quiz_id: str
    question_id: str
    memory: Memory
    due: float | None


@dataclass(frozen=True, slots=True)
class OpenReview:
    """A student's open ``/review`` question: its card, the session's count so far (as its
    buttons carry it), its message, and the options ticked (bank letters, ``"AC"``)."""

    card_id: int
    step: int
    right: int
    message_id: int | None
    picked: str


_STUDENT = "user_id, started, recaps, tz_minutes, remind_minutes"
_CARD = "card_id, user_id, quiz_id, question_id, stability, difficulty, last_review, due"
_ENSURE_STUDENT = "INSERT INTO students (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING"


def _student(row: sqlite3.Row | tuple[Any, ...]) -> Student:
    return Student(row[0], bool(row[1]), bool(row[2]), row[3], row[4])


def _card(row: sqlite3.Row | tuple[Any, ...]) -> Card:
    return Card(row[0], row[1], row[2], row[3], Memory(row[4], row[5], row[6]), row[7])


class ReviewMixin(StoreCore):
    # -- students ----------------------------------------------------------------------------

    async def student(self, user_id: int) -> Student | None:
        row = await self._fetchone(f"SELECT {_STUDENT} FROM students WHERE user_id = ?", (user_id,))
        return None if row is None else _student(row)

    async def _set_student(self, user_id: int, column: str, value: Any) -> None:
        assert column in ("started", "recaps", "tz_minutes", "remind_minutes")

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(_ENSURE_STUDENT, (user_id,))
            await conn.execute(
                f"UPDATE students SET {column} = ? WHERE user_id = ?", (value, user_id)
            )

        await self._write(tx)

    async def set_timezone(self, user_id: int, tz_minutes: int) -> None:
        await self._set_student(user_id, "tz_minutes", tz_minutes)

    # -- review cards ------------------------------------------------------------------------

    async def add_missed(
        self, missed: Sequence[tuple[int, str, str]], memory: Memory, due: float
    ) -> None:
        """Put missed questions ``(user_id, quiz_id, question_id)`` into review with the memory
        state of a first miss, due at ``due``. A question already under review starts over."""
        if not missed:
            return
        m = memory

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.executemany(
                "INSERT INTO review_cards"
                " (user_id, quiz_id, question_id, stability, difficulty, last_review, due)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, quiz_id, question_id)"
                " DO UPDATE SET stability = excluded.stability,"
                " difficulty = excluded.difficulty, last_review = excluded.last_review,"
                " due = excluded.due",
                [(u, q, i, m.stability, m.difficulty, m.last_review, due) for u, q, i in missed],
            )

        await self._write(tx)

    async def card(self, card_id: int) -> Card | None:
        row = await self._fetchone(
            f"SELECT {_CARD} FROM review_cards WHERE card_id = ?", (card_id,)
        )
        return None if row is None else _card(row)

    # -- the open review question ------------------------------------------------------------

    async def open_review(self, user_id: int) -> OpenReview | None:
        row = await self._fetchone(
            "SELECT card_id, step, right_count, message_id, picked FROM review_open"
            " WHERE user_id = ?",
            (user_id,),
        )
        return None if row is None else OpenReview(row[0], row[1], row[2], row[3], row[4])
