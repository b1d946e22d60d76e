"""Shared steps of the authoring tests: a teacher writing a quiz in the private chat."""

from __future__ import annotations

import re

from fakebot import FakeTelegram, StoredMessage, User

from bot.app.store import Store
from bot.features.authoring import drafts


async def write_quiz(tg: FakeTelegram, author: User, title: str, count: int = 2) -> str:
    """The author writes a quiz of ``count`` polls; returns the name it was saved as."""
    await say(tg, author, f"/newquiz {title}", "Now send")
    for n in range(1, count + 1):
        await poll(
            tg,
            author,
            f"Question {n} added",
            f"{title} question {n}?",
            ["right", "wrong"],
            correct=[0],
        )
    saved = await say(tg, author, "/done", "saved as")
    found = re.search(r"saved as (\S+),", saved.text)
    assert found is not None
    return found[1]


async def say(tg: FakeTelegram, user: User, text: str, expect: str) -> StoredMessage:
    """The user writes privately; wait for the bot's reply containing ``expect``."""
    before = len(tg.messages(user.id))
    tg.user_says(user.id, user, text)
    return await _reply(tg, user, before, expect)


async def poll(
    tg: FakeTelegram, user: User, expect: str, question: str, options: list[str], **kw: object
) -> StoredMessage:
    before = len(tg.messages(user.id))
    tg.user_sends_poll(user, question, options, **kw)  # type: ignore[arg-type]
    return await _reply(tg, user, before, expect)


async def photo(tg: FakeTelegram, user: User, data: bytes, expect: str) -> StoredMessage:
    """The user sends a photo privately; wait for the bot's reply containing ``expect``."""
    before = len(tg.messages(user.id))
    tg.user_sends_photo(user, data)
    return await _reply(tg, user, before, expect)


async def _reply(tg: FakeTelegram, user: User, before: int, expect: str) -> StoredMessage:
    """The bot's first message to ``user``, after the first ``before``, containing ``expect``."""
    return await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id)[before:] if expect in m.text), None),
        what=expect,
    )


async def draft_count(svc_store: Store, user: User) -> int:
    found = await svc_store.draft(user.id)
    return -1 if found is None else len(drafts.from_json(found.questions))
