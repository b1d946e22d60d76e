"""Whether a user belongs to a group, as Telegram says, failing closed.

``getChatMember`` answers with a status: creator, administrator and member belong; a restricted
user belongs only while ``is_member`` is true (a restricted user who left keeps the status
"restricted" with ``is_member`` false); left and kicked do not. When Telegram cannot tell (an
error, the bot removed from the group), the answer is ``None``: the caller decides, and a check
that admits someone must treat it as "no".
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import ChatMemberRestricted
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import ExtBot

log = logging.getLogger(__name__)

_IN = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


async def is_member(bot: ExtBot[Any], chat_id: int, user_id: int) -> bool | None:
    """True if the user is in the group now, False if not, None if Telegram could not say."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.warning("cannot check membership of %s in chat %s: %s", user_id, chat_id, exc)
        return None
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in _IN
