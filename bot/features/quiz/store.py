"""The quiz feature's narrow view of the store, and the routes' typed way to it."""

from __future__ import annotations

from typing import Protocol

from bot.i18n.lang import Lang
from bot.services.container import Services
from bot.services.runstore import RunStore
from bot.storage import NewRun, Standing, StoredRun


class QuizStore(RunStore, Protocol):
    """What group quizzes (routes, runs, explanations) read and write (the driver's part too)."""

    async def create_run(self, run: NewRun) -> StoredRun: ...
    def knows_chat(self, chat_id: int, title: str | None, kind: str) -> bool: ...
    def knows_user(
        self, user_id: int, name: str, username: str | None, language: Lang | None = None
    ) -> bool: ...
    async def mark_explained(self, run_id: int, user_id: int, q_index: int) -> None: ...
    async def migrate_chat(self, old_id: int, new_id: int) -> None: ...
    async def remember_chat(self, chat_id: int, title: str | None, kind: str) -> None: ...
    async def remember_user(
        self, user_id: int, name: str, username: str | None, language: Lang | None = None
    ) -> None: ...
    async def run_results(self, run_id: int) -> list[Standing]: ...


def store_of(svc: Services) -> QuizStore:
    """The store as this feature sees it (mypy checks the real one fits)."""
    return svc.store
