"""Homework: a quiz a group takes privately before a deadline, one attempt per student.

``homework`` holds what a moderator set (the group, the topic, the quiz, the deadline, the card's
message) and where it stands: ``open`` until the deadline or ``/homework stop``, then ``ended``;
``results_posted`` says whether the results reached the group (a restart posts them if not).
Each student's attempt is a run of mode ``homework`` under the group's chat id, so its answers
count on the group's leaderboard like a live quiz's; ``homework_attempts`` ties it to the
homework, and its primary key makes a second attempt impossible.

A group's time zone (``chats.tz_minutes``) lives here too: deadlines are shown in it.

Setting, posting and ending homework and its attempts are the homework feature's queries
(``bot/features/homework/queries.py``); what routing and re-grades read of a homework stays here.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from bot.i18n.lang import Lang

from .models import LANGUAGES
from .stats import StatsMixin

_HW = (
    "homework_id, chat_id, thread_id, quiz_id, language, seconds, set_by, created_at,"
    " deadline, status, ended_at, card_message_id, results_posted"
)


@dataclass(frozen=True, slots=True)
class NewHomework:
    """What a moderator sets: the group and topic, the quiz, its language and time per
    question, who set it, when, and until when."""

    chat_id: int
    thread_id: int
    quiz_id: str
    language: Lang
    seconds: int
    set_by: int | None
    created_at: float
    deadline: float


@dataclass(frozen=True, slots=True)
class Homework(NewHomework):
    """A homework as stored: what was set, and where it stands."""

    homework_id: int
    status: str  # 'open' | 'ended'
    ended_at: float | None
    card_message_id: int | None
    results_posted: bool


def _homework(row: sqlite3.Row | tuple[Any, ...]) -> Homework:
    return Homework(
        row[1],
        row[2],
        row[3],
        LANGUAGES[row[4]],
        row[5],
        row[6],
        row[7],
        row[8],
        row[0],
        row[9],
        row[10],
        row[11],
        bool(row[12]),
    )


class HomeworkMixin(StatsMixin):
    # -- the group's time zone ---------------------------------------------------------------

    async def chat_timezone(self, chat_id: int) -> int | None:
        row = await self._fetchone("SELECT tz_minutes FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None or row[0] is None else int(row[0])

    # -- homework ----------------------------------------------------------------------------

    async def homework(self, homework_id: int) -> Homework | None:
        row = await self._fetchone(
            f"SELECT {_HW} FROM homework WHERE homework_id = ?", (homework_id,)
        )
        return None if row is None else _homework(row)

    async def open_homework(self, chat_id: int | None = None) -> list[Homework]:
        """Open homework (of one chat, or of every chat), earliest deadline first."""
        if chat_id is None:
            rows = await self._fetchall(
                f"SELECT {_HW} FROM homework WHERE status = 'open' ORDER BY deadline, homework_id"
            )
        else:
            rows = await self._fetchall(
                f"SELECT {_HW} FROM homework WHERE chat_id = ? AND status = 'open'"
                " ORDER BY deadline, homework_id",
                (chat_id,),
            )
        return [_homework(r) for r in rows]

    # -- attempts ----------------------------------------------------------------------------

    async def attempt_homework(self, run_id: int) -> int | None:
        """The homework an attempt run belongs to."""
        row = await self._fetchone(
            "SELECT homework_id FROM homework_attempts WHERE run_id = ?", (run_id,)
        )
        return None if row is None else int(row[0])
