"""bot/features/practice/sessions.py: a practice session is restored from the store once, however
many callers need it at the same moment (the restart's resume, a tap, the notice of a message
left unfinished), and a question a stop caught being posted is posted again exactly once."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from telegram.ext import ApplicationBuilder

from bot.app.store import Store
from bot.banks.catalog import Catalog
from bot.banks.yaml_reader import load_quiz
from bot.core.engine import make_plan
from bot.features.practice.sessions import PracticeSessions, Session
from bot.storage import NewRun, StoredRun

ZERO = load_quiz(Path(__file__).resolve().parents[3] / "questions" / "zero.yaml")
T0 = 1_700_000_000.0


class SlowStore:
    """The real store, with ``get_run`` held until ``release`` is set (a slow disk)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.reads = 0
        self.entered = asyncio.Event()  # a read has begun
        self.release = asyncio.Event()

    async def get_run(self, run_id: int) -> StoredRun | None:
        self.reads += 1
        self.entered.set()
        await self.release.wait()
        return await self._store.get_run(run_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


async def test_callers_at_once_share_one_restoring(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "db.sqlite3") as store:
        stored = await store.create_run(
            NewRun(705, 0, "practice", "zero", "en", 0, make_plan(ZERO, random.Random(1)), 705, T0)
        )  # created as being posted: the stop came before its first question went out
        slow = SlowStore(store)
        app = ApplicationBuilder().token("1:x").build()
        practice = PracticeSessions(app, slow, Catalog({"zero": ZERO}), lambda: T0)
        posted: list[int] = []

        async def ask(session: Session) -> None:  # the question's send, counted
            posted.append(session.run_id)
            session.engine.open(T0)

        practice._ask = ask  # type: ignore[method-assign]
        loads = [asyncio.create_task(practice._load(stored.run_id, 705)) for _ in range(3)]
        await slow.entered.wait()
        slow.release.set()
        first, second, third = await asyncio.gather(*loads)
        assert first is not None and first is second is third  # one session for all
        assert slow.reads == 1 and posted == [stored.run_id]  # read once, posted once
        assert await practice._load(stored.run_id, 705) is first
