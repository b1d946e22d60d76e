"""A document sent in a private chat: imported like ``quizbot import``, saved as the sender's quiz.

The size is checked three times: the document's announced size, the size getFile reports, and
the bytes really downloaded. The file comes from the Bot API's file endpoint, derived from
QUIZBOT_API_URL (``.../bot`` -> ``.../file/bot``), so a self-hosted Bot API server works too.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import PurePath

from telegram import Update
from telegram.error import TelegramError

from bot.handlers.replies import private_here, reply
from bot.i18n import t
from bot.render.authoring import import_text, quiz_card
from bot.services import draft_text as text_import
from bot.services.container import Context
from bot.services.drafts import MAX_QUIZZES_PER_AUTHOR

log = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 1024 * 1024  # 1 MB


async def document_sent(update: Update, context: Context) -> None:
    """Import an uploaded question file and report what was imported and each problem."""
    message, user = update.effective_message, update.effective_user
    if message is None or message.document is None or user is None:
        return
    lang = await private_here(update, context)
    if lang is None:
        return
    svc = context.bot_data
    document = message.document
    limit_text = t(lang, "upload_too_big", limit=1)
    if document.file_size is not None and document.file_size > MAX_UPLOAD_BYTES:
        await reply(update, context, limit_text)
        return
    if len(svc.authored.of_author(user.id)) >= MAX_QUIZZES_PER_AUTHOR:
        await reply(update, context, t(lang, "author_quiz_limit", limit=MAX_QUIZZES_PER_AUTHOR))
        return
    try:
        file = await document.get_file()
        if file.file_size is not None and file.file_size > MAX_UPLOAD_BYTES:
            await reply(update, context, limit_text)
            return
        data = bytes(await file.download_as_bytearray())
    except TelegramError as exc:
        log.warning("could not download a document from user %s: %s", user.id, exc)
        await reply(update, context, t(lang, "upload_failed"))
        return
    if len(data) > MAX_UPLOAD_BYTES:
        await reply(update, context, limit_text)
        return
    filename = PurePath(document.file_name or "upload").name
    # parsing and validating a file of hundreds of questions takes seconds: off the event loop
    report = await asyncio.to_thread(text_import.import_file, filename, data, MAX_UPLOAD_BYTES)
    quiz = await asyncio.to_thread(text_import.quiz_of, report)
    if quiz is None or report.yaml_text is None:
        await reply(update, context, import_text(lang, None, report))
        return
    hint = quiz.title(quiz.language) or PurePath(filename).stem
    saved = await svc.authoring.save(user.id, quiz, report.yaml_text, report.format, hint)
    if saved.row is None:
        await reply(update, context, t(lang, "author_quiz_limit", limit=MAX_QUIZZES_PER_AUTHOR))
        return
    card = quiz_card(lang, context.bot.username, saved.row) if saved.row is not None else None
    await reply(update, context, import_text(lang, saved.row, report), markup=card)
