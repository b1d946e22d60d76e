"""Taps on answer buttons, turned from PTB's ``Update`` into the services' :class:`Tap`.

Every kind of run (group quiz, practice, homework attempt, ``/review``) gets its taps as one
value (bot/services/driver.py): who tapped, the message, the button (run, question, option
shown) and when the tap arrived (bot/tg/arrivals.py), resolved here so no service sees the
``Update``. Shared by the feature handlers, like ``replies.py``.
"""

from __future__ import annotations

from typing import TypeVar

from telegram import Chat, Update

from bot import render
from bot.i18n.lang import Lang
from bot.render import callbacks
from bot.services.container import Services
from bot.services.driver import Tap

B = TypeVar("B")


def tap_key(update: Update) -> int | None:
    """The group run a tap on an answer button is for (bot/tg/arrivals.py counts it as
    pending there until judged); None for any other update."""
    query = update.callback_query
    if query is None:
        return None
    data = callbacks.parse(query.data)
    return data.run_id if isinstance(data, callbacks.AnswerData) else None


def tap_of(update: Update, svc: Services, button: B, lang: Lang) -> Tap[B]:
    """The tap ``update`` carries, on a button whose data is ``button``; ``lang`` is the
    language to answer in when no run takes it."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user, message = query.from_user, query.message
    return Tap(
        user_id=user.id,
        name=render.short_name(user.first_name, user.last_name, user.username),
        lang=lang,
        chat_id=message.chat.id,
        private=message.chat.type == Chat.PRIVATE,
        message_id=message.message_id,
        button=button,
        at=svc.arrivals.at(update),
        update_id=update.update_id,
        query_id=query.id,
    )
