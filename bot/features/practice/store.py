"""The practice feature's narrow view of the store, and the routes' typed way to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.core.spacing import Memory
from bot.services.container import Services
from bot.services.runstore import RunStore
from bot.storage import Draft, Mode, NewRun, OpenReview, StoredRun


class PracticeStore(RunStore, Protocol):
    """What ``PracticeSessions`` read and write (the driver's part too)."""

    async def add_missed(
        self, missed: Sequence[tuple[int, str, str]], memory: Memory, due: float
    ) -> None: ...
    async def create_run(self, run: NewRun) -> StoredRun: ...
    async def draft(self, user_id: int) -> Draft | None: ...
    async def get_run(self, run_id: int) -> StoredRun | None: ...
    async def open_review(self, user_id: int) -> OpenReview | None: ...
    async def practice_posting(self) -> list[StoredRun]: ...
    async def running_run(self, chat_id: int, thread_id: int, mode: Mode) -> StoredRun | None: ...


def store_of(svc: Services) -> PracticeStore:
    """The store as this feature sees it (mypy checks the real one fits)."""
    return svc.store
