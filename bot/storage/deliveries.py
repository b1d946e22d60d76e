"""Updates handled once, and each user's uploads (issue 23).

``deliveries`` remembers every message update for ``window`` seconds: Telegram redelivers an
update whose webhook request timed out, and after a crash it hands out again what was not
confirmed, so a second delivery of the same ``update_id`` is dropped. ``done`` turns 1 once the
update was handled: one still 0 at start-up was in flight when the bot died, and its sender is
told to send it again. Taps are not recorded here: an answer is stored once by its key anyway.

``uploads`` holds one row per accepted upload (who, when, how many bytes), for the per-user
daily limits; rows older than a day are dropped as new ones come.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from .core import StoreCore

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A message update the bot had not finished handling when it stopped."""

    update_id: int
    chat_id: int | None
    kind: str
    quiz_no: int | None = None  # an upload: the quiz it saved before the bot stopped


class DeliveriesMixin(StoreCore):
    async def first_delivery(
        self, update_id: int, chat_id: int | None, kind: str, now: float, window: float
    ) -> bool:
        """Record an update as being handled; False if it was seen within ``window`` before."""

        async def tx(conn: aiosqlite.Connection) -> bool:
            await conn.execute("DELETE FROM deliveries WHERE seen_at < ?", (now - window,))
            cursor = await conn.execute(
                "INSERT INTO deliveries (update_id, chat_id, kind, seen_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (update_id, chat_id, kind, now),
            )
            return cursor.rowcount > 0

        return await self._write(tx)

    async def delivery_done(self, update_id: int) -> None:
        """The update was handled (answered, or failed with an apology)."""
        await self._write(
            lambda conn: conn.execute(
                "UPDATE deliveries SET done = 1 WHERE update_id = ? AND done = 0", (update_id,)
            )
        )

    async def unfinished_deliveries(self) -> list[Unfinished]:
        """Updates a previous run started handling and never finished, oldest first; each is
        marked done as it is returned (its sender is told once)."""

        async def tx(conn: aiosqlite.Connection) -> list[Unfinished]:
            rows = await conn.execute_fetchall(
                "SELECT update_id, chat_id, kind, quiz_no FROM deliveries WHERE done = 0"
                " ORDER BY update_id"
            )
            await conn.execute("UPDATE deliveries SET done = 1 WHERE done = 0")
            return [Unfinished(int(r[0]), r[1], str(r[2]), r[3]) for r in rows]

        return await self._write(tx)

    async def uploaded_today(self, user_id: int, now: float) -> tuple[int, int]:
        """(uploads, bytes) the user stored in the last 24 hours."""
        row = await self._fetchone(
            "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM uploads WHERE user_id = ? AND at > ?",
            (user_id, now - DAY),
        )
        return (0, 0) if row is None else (int(row[0]), int(row[1]))

    async def record_upload(self, user_id: int, size: int, now: float) -> None:
        """Count an accepted upload against the user's daily limits."""

        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute("DELETE FROM uploads WHERE at < ?", (now - DAY,))
            await conn.execute(
                "INSERT INTO uploads (user_id, at, bytes) VALUES (?, ?, ?)", (user_id, now, size)
            )

        await self._write(tx)
