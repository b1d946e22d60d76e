"""Shared steps of the authoring_upload tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User

MB = 1024 * 1024


async def upload(
    tg: FakeTelegram, user: User, name: str, data: bytes, expect: str, **kw: object
) -> StoredMessage:
    before = len(tg.messages(user.id))
    tg.user_sends_document(user, name, data, **kw)  # type: ignore[arg-type]
    return await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id)[before:] if expect in m.text), None),
        what=expect,
    )


async def wait_file(path: Path) -> None:
    """Wait until ``path`` exists (a worker's mark), at most a minute."""
    await asyncio.to_thread(_wait_file, path)


def _wait_file(path: Path) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.01)


async def say_slowly(tg: FakeTelegram, user: User, send: Callable[[], object], expect: str) -> None:
    """``send()``, then wait up to a minute for the bot's private reply containing ``expect``."""
    before = len(tg.messages(user.id))
    send()
    await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id)[before:] if expect in m.text), None),
        timeout=60,
        what=expect,
    )
