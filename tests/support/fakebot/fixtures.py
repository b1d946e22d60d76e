"""pytest fixtures. In tests/conftest.py: ``from fakebot.fixtures import fake_tg  # noqa: F401``"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .server import FakeTelegram

__all__ = ["fake_tg"]


@pytest_asyncio.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    """A started :class:`FakeTelegram` on 127.0.0.1 (random port), stopped afterwards."""
    server = FakeTelegram()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
