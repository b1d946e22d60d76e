"""Shared steps of the review tests."""

from __future__ import annotations

from fakebot import FakeTelegram, StoredMessage, User


async def say(tg: FakeTelegram, user: User, text: str) -> StoredMessage:
    """``user`` writes privately; the bot's next message there."""
    chat = tg.private_chat(user)
    before = len(tg.messages(chat.id))
    tg.user_says(chat, user, text)
    await tg.wait_for(lambda: len(tg.messages(chat.id)) > before)
    return tg.messages(chat.id)[before]
