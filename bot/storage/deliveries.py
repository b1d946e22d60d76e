"""Updates handled once, and each user's uploads.

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

    async def reserve_upload(
        self, user_id: int, size: int, now: float, *, most: int, budget: int
    ) -> int | None:
        """Count an upload of ``size`` bytes against the user's daily limits before it is
        downloaded, in one transaction (uploads sent at once cannot all pass the check): its
        reservation's id, or None when ``most`` uploads or ``budget`` bytes would be passed."""

        async def tx(conn: aiosqlite.Connection) -> int | None:
            await conn.execute("DELETE FROM uploads WHERE at < ?", (now - DAY,))
            async with conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM uploads WHERE user_id = ?"
                " AND at > ?",
                (user_id, now - DAY),
            ) as cur:
                row = await cur.fetchone()
            count, used = (0, 0) if row is None else (int(row[0]), int(row[1]))
            if count >= most or used + size > budget:
                return None
            cur = await conn.execute(
                "INSERT INTO uploads (user_id, at, bytes) VALUES (?, ?, ?)", (user_id, now, size)
            )
            return cur.lastrowid

        return await self._write(tx)

    async def settle_upload(self, reserved: int, size: int, *, budget: int) -> bool:
        """Count a reserved upload as ``size`` bytes (what it stores); False, the reservation
        left as it was, when that would pass the user's daily ``budget``."""

        async def tx(conn: aiosqlite.Connection) -> bool:
            async with conn.execute(
                "SELECT COALESCE(SUM(o.bytes), 0) FROM uploads u JOIN uploads o"
                " ON o.user_id = u.user_id AND o.rowid != u.rowid WHERE u.rowid = ?",
                (reserved,),
            ) as cur:
                row = await cur.fetchone()
            if row is not None and int(row[0]) + size > budget:
                return False
            await conn.execute("UPDATE uploads SET bytes = ? WHERE rowid = ?", (size, reserved))
            return True

        return await self._write(tx)

    async def release_upload(self, reserved: int) -> None:
        """An upload refused after all: it no longer counts."""
        await self._write(
            lambda conn: conn.execute("DELETE FROM uploads WHERE rowid = ?", (reserved,))
        )
