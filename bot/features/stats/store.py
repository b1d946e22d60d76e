"""The stats feature's narrow view of the store, and the routes' typed way to it."""

from __future__ import annotations

from typing import Protocol

from bot.features.stats.queries import Leaderboard, Overview
from bot.services.analysis import AnalysisStore
from bot.services.container import Services
from bot.storage import Export, Standing


class StatsStore(AnalysisStore, Protocol):
    """What ``/leaderboard``, ``/me`` and ``/export`` read (the analysis's part too)."""

    async def export_answers(self, chat_id: int) -> Export: ...
    async def group_stats(
        self, chat_id: int, user_id: int, *, season: int | None = None, homework: bool = True
    ) -> Standing | None: ...
    async def leaderboard(
        self,
        chat_id: int,
        *,
        season: int | None = None,
        quiz_id: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        homework: bool = True,
    ) -> Leaderboard: ...
    async def new_season(self, chat_id: int, after: int | None = None) -> int | None: ...
    async def user_overview(self, user_id: int) -> Overview: ...


def store_of(svc: Services) -> StatsStore:
    """The store as this feature sees it (mypy checks the real one fits)."""
    return svc.store
