"""Which students saw a question's full explanation after their tap (an ephemeral message)."""

from __future__ import annotations

from .core import StoreCore


class ExplainedMixin(StoreCore):
    async def mark_explained(self, run_id: int, user_id: int, q_index: int) -> None:
        """Telegram took the explanation of question ``q_index`` for ``user_id``."""
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO explained (run_id, user_id, q_index) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (run_id, user_id, q_index),
            )
        )

    async def explained(self, run_id: int) -> set[tuple[int, int]]:
        """(user, question index) of every explanation a run's students saw after a tap."""
        rows = await self._fetchall(
            "SELECT user_id, q_index FROM explained WHERE run_id = ?", (run_id,)
        )
        return {(int(r[0]), int(r[1])) for r in rows}
