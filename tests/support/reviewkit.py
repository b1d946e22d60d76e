"""Shared steps of the review tests (and of any test a user writes to privately)."""

from __future__ import annotations

from fakebot import FakeTelegram, StoredMessage, User


async def say(tg: FakeTelegram, user: User, text: str, wait: float = 10.0) -> StoredMessage:
    """``user`` writes privately; the bot's next message there (within ``wait`` seconds)."""
    chat = tg.private_chat(user)
    before = len(tg.messages(chat.id))
    tg.user_says(chat, user, text)
    await tg.wait_for(lambda: len(tg.messages(chat.id)) > before, timeout=wait)
    return tg.messages(chat.id)[before]
