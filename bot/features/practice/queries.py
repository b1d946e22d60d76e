"""The practice feature's queries: the sessions a stop caught posting a question.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

from bot.storage.core import StoreCore
from bot.storage.models import StoredRun
from bot.storage.runs import RUN_COLUMNS, run_from_row


class PracticeQueries(StoreCore):
    """The queries only the practice feature calls."""

    async def practice_posting(self) -> list[StoredRun]:
        """The running practice sessions stored as posting their question (stopped mid-send),
        oldest first; found through the partial index of running runs, the rest never read."""
        rows = await self._fetchall(
            f"SELECT {RUN_COLUMNS} FROM runs WHERE status = 'running' AND mode = 'practice'"
            " AND phase = 'posting' ORDER BY +run_id"
        )
        return [run_from_row(r) for r in rows]
