"""Typed answers in private chats: plain text a student sends, routed to the one
session waiting for it.

Precedence, decided here and nowhere else: a private text that is not a command goes first to
the student's homework attempt if its open question waits for a typed answer, then to their
practice session's, then to their ``/review`` question's; only a text none of them waits for
reaches a stored quiz's field being edited (bot/features/authoring/edit_routes.py), then the quiz
draft (bot/features/authoring/routes.py: a title or Aiken questions). A question asked and
waiting is what the student is doing now; a draft waits for as long as it likes.
"""

from __future__ import annotations

from telegram import Update

from bot.features.authoring import edit_routes as quiz_edit
from bot.features.authoring import routes as authoring
from bot.services.container import Context


async def text_sent(update: Update, context: Context) -> None:
    """Plain text in a private chat: a typed answer, else the draft's text."""
    message, user = update.effective_message, update.effective_user
    if message is None or message.text is None or user is None:
        return
    svc = context.bot_data
    chat_id, text, message_id = message.chat_id, message.text, message.message_id
    if (
        await svc.attempts.typed(user.id, text, message_id)
        or await svc.practice.typed(chat_id, user.id, text, message_id)
        or await svc.reviews.typed(chat_id, user.id, text, message_id)
        or await quiz_edit.text_sent(update, context)
    ):
        return
    await authoring.text_sent(update, context)
