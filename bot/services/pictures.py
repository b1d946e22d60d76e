"""A question's picture posted with it: uploaded once, then sent by Telegram's ``file_id``.

The first ``sendPhoto`` of a picture uploads its bytes (a stored quiz's from SQLite, a folder
bank's from its file beside the bank, checked again as it is read) and keeps the ``file_id``
Telegram returns, by the picture's content hash (bot/storage/images.py); every later post, in
any chat and after restarts, sends that id. If Telegram refuses the id (a file it no longer
knows), the picture is uploaded again and the new id kept.

How a question with a picture is posted (``Shown``): when the question and its longest reveal
both fit in a caption (1,024 characters as shown), one photo message with the question as its
caption and the answer keyboard, its "N answered" and reveal edits made to the caption; else
the photo first, then the question as a text message with the keyboard, edited as before.
In private (practice, homework attempts) the photo always goes first (``before``).
A question holding math goes as a rich message, which cannot be a caption: its photo goes first
(``GroupQuizzes._shown`` decides so), then the question; the driver sends the question.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from telegram import InlineKeyboardMarkup, InputFile
from telegram.ext import ExtBot

from bot.banks.images import FolderImages
from bot.core.bank import Question, Quiz
from bot.core.images import Image, Refused
from bot.i18n.markup import Safe
from bot.services.runstore import PictureStore
from bot.tg import outbox

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Shown:
    """A question's picture as it is posted: the quiz it belongs to, and whether the question
    is the photo's caption (else a text message after it)."""

    quiz: Quiz
    image: Image
    caption: bool


def before(quiz: Quiz, question: Question) -> Shown | None:
    """A question's picture posted before it (practice, homework: their edits stay text)."""
    return None if question.image is None else Shown(quiz, question.image, caption=False)


class Pictures:
    """Sends pictures, uploading each once."""

    def __init__(self, store: PictureStore) -> None:
        self._store = store

    async def send(
        self,
        bot: ExtBot[Any],
        chat_id: int,
        shown: Shown,
        text: Safe,
        markup: InlineKeyboardMarkup | None,
        *,
        thread_id: int = 0,
        urgent: bool = False,
    ) -> outbox.Outcome | None:
        """Post a question's picture: with the question as its caption (and the keyboard), or
        alone before it. The outcome of the message that carries the keyboard, or None when
        the question is still to be sent (as a text or rich message: the caller sends it),
        after the picture or without it (it could not be sent)."""
        caption = text if shown.caption else None
        keyboard = markup if shown.caption else None
        sent = await self._photo(bot, chat_id, shown, caption, keyboard, thread_id, urgent)
        if sent.status == "failed":  # the picture could not be sent: the question goes alone
            log.warning("chat %s: picture %s not sent", chat_id, shown.image.file)
        elif not sent.ok or shown.caption:
            return sent
        return None

    async def _photo(
        self,
        bot: ExtBot[Any],
        chat_id: int,
        shown: Shown,
        caption: Safe | None,
        markup: InlineKeyboardMarkup | None,
        thread_id: int,
        urgent: bool = False,
    ) -> outbox.Outcome:
        image = shown.image
        file_id = await self._store.image_file_id(image.sha256) if image.sha256 else None
        if file_id is not None:
            sent = await outbox.send_photo(
                bot, chat_id, file_id, caption, thread_id=thread_id, markup=markup, urgent=urgent
            )
            if sent.status != "failed":
                return sent
            log.warning("picture %s: Telegram refused its file_id; uploading it", image.file)
        content = await self._content(shown.quiz, image)
        if content is None:
            return outbox.Outcome("failed")
        data, mime, sha256 = content
        upload = InputFile(data, filename=image.file.rsplit("/", 1)[-1], attach=True)
        sent = await outbox.send_photo(
            bot, chat_id, upload, caption, thread_id=thread_id, markup=markup, urgent=urgent
        )
        if sent.ok and sent.file_id is not None:
            await self._store.set_image_file_id(sha256, mime, sent.file_id)
        return sent

    async def _content(self, quiz: Quiz, image: Image) -> tuple[bytes, str, str] | None:
        """The picture's bytes, type and hash: kept in SQLite (a stored quiz), else read from
        its file beside the bank."""
        if image.sha256:
            stored = await self._store.image_data(image.sha256)
            if stored is not None:
                return stored[0], stored[1], image.sha256
        bank = Path(quiz.source)  # a folder bank's file (a stored quiz's source is not one)
        if bank.suffix not in (".yaml", ".yml"):
            log.warning("quiz %s: picture %s is not stored", quiz.id, image.file)
            return None
        try:
            folder = FolderImages(bank.parent)
            picture = await asyncio.to_thread(folder.read, image.file)
        except Refused as refused:
            log.warning("quiz %s: picture %s: %s", quiz.id, image.file, refused.key)
            return None
        return picture.data, picture.mime, picture.sha256
