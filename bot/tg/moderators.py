"""Who may moderate a group: its creator and administrators, and the configured admin ids.

Administrators are looked up through Telegram (getChatAdministrators) and cached per group, so
a burst of commands costs one lookup, not one each. Lookups do not spend the group's message
budget. A user not found in a cache older than ``recheck`` seconds triggers one fresh lookup,
so a newly promoted administrator is recognised quickly.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Bot, Chat
from telegram.constants import ChatID
from telegram.error import TelegramError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Entry:
    admins: frozenset[int]
    fetched_at: float


class Moderators:
    """Answers "may this sender moderate this chat?" with a small cache."""

    def __init__(
        self,
        bot: Bot,
        admin_ids: frozenset[int],
        *,
        ttl: float = 600.0,
        recheck: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bot, self._admin_ids = bot, admin_ids
        self._ttl, self._recheck, self._clock = ttl, recheck, clock
        self._cache: dict[int, _Entry] = {}

    def forget(self, chat_id: int) -> None:
        """Drop a chat's cached administrators (they changed)."""
        self._cache.pop(chat_id, None)

    async def may_moderate(
        self, chat: Chat, user_id: int | None, sender_chat_id: int | None = None
    ) -> bool:
        if user_id is not None and user_id in self._admin_ids:
            return True
        if chat.type == Chat.PRIVATE:
            return True
        if sender_chat_id is not None and sender_chat_id == chat.id:
            return True  # an anonymous administrator posting as the group itself
        if user_id is None or user_id == ChatID.ANONYMOUS_ADMIN:
            return False
        entry = self._cache.get(chat.id)
        age = self._clock() - entry.fetched_at if entry else None
        fresh = entry is not None and age is not None and age < self._ttl
        if (
            fresh
            and entry is not None
            and age is not None
            and (user_id in entry.admins or age < self._recheck)
        ):
            return user_id in entry.admins
        entry = await self._fetch(chat.id) or entry
        return entry is not None and user_id in entry.admins

    async def _fetch(self, chat_id: int) -> _Entry | None:
        try:
            members = await self._bot.get_chat_administrators(chat_id)
        except TelegramError as exc:
            log.warning("cannot look up administrators of chat %s: %s", chat_id, exc)
            return None
        entry = _Entry(frozenset(m.user.id for m in members), self._clock())
        self._cache[chat_id] = entry
        return entry
