"""Shared fixtures: the fake Bot API server and the real bot running against it."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).parent / "support"))
# PTB 22 warns on every RetryAfter unless it may use timedelta (the future default).
os.environ.setdefault("PTB_TIMEDELTA", "1")
# t() refuses values that look HTML-escaped already (bot/i18n/markup.py): double escaping
# fails tests
os.environ.setdefault("QUIZBOT_STRICT_HTML", "1")

from clockkit import ManualClock
from fakebot import FakeTelegram
from fakebot.fixtures import fake_tg  # noqa: F401
from harness import BotHarness

from bot.app.store import Store

#: modules whose tests are slow (a wheel built, the bench run): marked ``slow``, still run by CI
SLOW_MODULES = frozenset({"test_wheel", "test_bench_smoke"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier (the folder it is in) and ``slow`` where it is."""
    tests = Path(__file__).parent
    for item in items:
        parts = item.path.relative_to(tests).parts
        if parts[0] in ("unit", "e2e"):
            item.add_marker(getattr(pytest.mark, parts[0]))
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A fake Telegram whose group window is short, so pacing shows in seconds, not minutes."""
    server = FakeTelegram(window=BotHarness.WINDOW, group_limit=20)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quizbot.sqlite3"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A new store in the test's folder, on a clock that stands still."""
    s = await Store.open(tmp_path / "quiz.db", clock=ManualClock())
    try:
        yield s
    finally:
        await s.close()
