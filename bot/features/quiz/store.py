"""The quiz feature's narrow view of the store: what its runs and explanations call."""

from __future__ import annotations

from typing import Protocol

from bot.services.runstore import RunStore
from bot.storage import NewRun, Standing, StoredRun


class QuizStore(RunStore, Protocol):
    """What ``GroupQuizzes`` and ``Explanations`` read and write (the driver's part too)."""

    async def create_run(self, run: NewRun) -> StoredRun: ...
    async def mark_explained(self, run_id: int, user_id: int, q_index: int) -> None: ...
    async def migrate_chat(self, old_id: int, new_id: int) -> None: ...
    async def run_results(self, run_id: int) -> list[Standing]: ...
