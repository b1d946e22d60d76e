"""The review feature's queries: recap choices, reminders, due cards and an open review.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import aiosqlite

from bot.core.spacing import Memory
from bot.storage.review import (
    _CARD,
    _STUDENT,
    Card,
    OpenReview,
    ReviewMixin,
    Student,
    _card,
    _student,
)

_INSERT_OPEN = (
    "INSERT INTO review_open (user_id, card_id, step, right_count, message_id, picked)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


def _open_params(o: OpenReview) -> tuple[Any, ...]:
    return (o.card_id, o.step, o.right, o.message_id, o.picked)


class ReviewQueries(ReviewMixin):
    """The queries only the review feature calls."""

    async def set_started(self, user_id: int, started: bool) -> None:
        """Seen in a private chat (True), or a private message got 403 (False)."""
        await self._set_student(user_id, "started", int(started))

    async def set_recaps(self, user_id: int, on: bool) -> None:
        await self._set_student(user_id, "recaps", int(on))

    async def set_reminder(self, user_id: int, minutes: int | None) -> None:
        """The daily reminder time in minutes after local midnight; None switches it off."""
        await self._set_student(user_id, "remind_minutes", minutes)

    async def recap_targets(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` the bot may write to first and who did not turn recaps off."""
        ids = list(user_ids)
        found: set[int] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self._fetchall(
                "SELECT user_id FROM students WHERE started = 1 AND recaps = 1"
                f" AND user_id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
            found.update(int(r[0]) for r in rows)
        return found

    async def reminders(self) -> list[Student]:
        """Every student with a daily reminder set."""
        rows = await self._fetchall(
            f"SELECT {_STUDENT} FROM students WHERE remind_minutes IS NOT NULL ORDER BY user_id"
        )
        return [_student(r) for r in rows]

    async def due_cards(self, user_id: int, now: float, limit: int = 1) -> list[Card]:
        """A user's questions due by ``now``, longest overdue first."""
        rows = await self._fetchall(
            f"SELECT {_CARD} FROM review_cards WHERE user_id = ? AND due IS NOT NULL"
            " AND due <= ? ORDER BY due, card_id LIMIT ?",
            (user_id, now, limit),
        )
        return [_card(r) for r in rows]

    async def due_count(self, user_id: int, now: float) -> int:
        row = await self._fetchone(
            "SELECT COUNT(*) FROM review_cards WHERE user_id = ? AND due IS NOT NULL AND due <= ?",
            (user_id, now),
        )
        return int(row[0]) if row else 0

    async def next_due(self, user_id: int, now: float) -> float | None:
        """When the user's next question comes due after ``now`` (None: nothing scheduled)."""
        row = await self._fetchone(
            "SELECT MIN(due) FROM review_cards WHERE user_id = ? AND due IS NOT NULL AND due > ?",
            (user_id, now),
        )
        return None if row is None or row[0] is None else float(row[0])

    async def review_answered(
        self, card_id: int, memory: Memory, due: float | None, now: float
    ) -> bool:
        """Give a reviewed question its new memory state and ``due``, only if it is still due
        by ``now`` (so a second tap on the same question changes nothing); True if moved."""
        m = memory

        async def tx(conn: aiosqlite.Connection) -> bool:
            cursor = await conn.execute(
                "UPDATE review_cards SET stability = ?, difficulty = ?, last_review = ?, due = ?"
                " WHERE card_id = ? AND due IS NOT NULL AND due <= ?",
                (m.stability, m.difficulty, m.last_review, due, card_id, now),
            )
            return cursor.rowcount == 1

        return await self._write(tx)

    async def set_open_review(self, user_id: int, opened: OpenReview | None) -> None:
        """The question now open for ``user_id`` (None: none is)."""

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("DELETE FROM review_open WHERE user_id = ?", (user_id,))
            if opened is not None:
                await conn.execute(_INSERT_OPEN, (user_id, *_open_params(opened)))

        await self._write(tx)

    async def set_open_message(self, user_id: int, card_id: int, message_id: int) -> None:
        """The message of ``user_id``'s open question on ``card_id``, once sent (if still
        open: an answer of the same moment may have closed it)."""

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE review_open SET message_id = ? WHERE user_id = ? AND card_id = ?",
                (message_id, user_id, card_id),
            )

        await self._write(tx)

    async def toggle_review_pick(self, user_id: int, opened: OpenReview, letter: str) -> str:
        """Tick or untick ``letter`` on card ``opened.card_id`` (a selection kept for another
        card starts over), in one transaction; the options ticked now."""

        async def tx(conn: aiosqlite.Connection) -> str:
            cursor = await conn.execute(
                "SELECT picked FROM review_open WHERE user_id = ? AND card_id = ?",
                (user_id, opened.card_id),
            )
            row = await cursor.fetchone()
            before = set(row[0]) if row is not None else set()
            picked = "".join(sorted(before ^ {letter}))
            await conn.execute("DELETE FROM review_open WHERE user_id = ?", (user_id,))
            params = _open_params(replace(opened, picked=picked))
            await conn.execute(_INSERT_OPEN, (user_id, *params))
            return picked

        return await self._write(tx)

    async def close_open_review(self, user_id: int, card_id: int) -> bool:
        """Close ``user_id``'s open question on ``card_id``; True if it was open (so of two
        answers of the same moment, one only goes on)."""

        async def tx(conn: aiosqlite.Connection) -> bool:
            cursor = await conn.execute(
                "DELETE FROM review_open WHERE user_id = ? AND card_id = ?", (user_id, card_id)
            )
            return cursor.rowcount == 1

        return await self._write(tx)

    async def drop_card(self, card_id: int) -> None:
        """Forget a question that is no longer in any bank."""

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("DELETE FROM review_cards WHERE card_id = ?", (card_id,))

        await self._write(tx)
