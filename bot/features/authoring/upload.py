"""A document sent in a private chat: imported like ``quizbot import``, saved as the sender's quiz.

The size is checked three times: the document's announced size, the size getFile reports, and
the bytes really downloaded, while they stream in (the download stops at the limit): 1 MB, or
5 MB for a .zip holding a question file and its pictures (bot/banks/importers/ziparchive.py).
The file comes from the Bot API's file endpoint, derived from QUIZBOT_API_URL (``.../bot`` ->
``.../file/bot``), so a self-hosted Bot API server works too. It is read in a worker process
(bot.banks.importers.sandbox): a hostile file never holds up the event loop.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import PurePath

from telegram import Update
from telegram.error import TelegramError

from bot.banks.importers.sandbox import Failed
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Text
from bot.core.images import MAX_IMAGE_BYTES, Refused
from bot.features.authoring import draft_text as text_import
from bot.features.authoring import drafts, photos
from bot.features.authoring.drafts import MAX_QUIZZES_PER_AUTHOR
from bot.features.authoring.edit_views import same_title
from bot.features.authoring.queries import PendingEdit
from bot.features.authoring.saving import stored_size
from bot.features.authoring.store import store_of
from bot.features.authoring.views import import_text, problem_lines, quiz_card
from bot.i18n import t, t_plain
from bot.i18n.markup import join
from bot.routing import guard
from bot.routing.replies import private_here, reply
from bot.services.container import Context
from bot.storage import Draft

log = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 1024 * 1024  # 1 MB, a question file
MAX_ZIP_UPLOAD_BYTES = 5 * 1024 * 1024  # a .zip: a question file with its pictures


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
    zipped = PurePath(document.file_name or "").suffix.casefold() == ".zip"
    most = MAX_ZIP_UPLOAD_BYTES if zipped else MAX_UPLOAD_BYTES
    limit_text = t(lang, "upload_too_big", limit=most // (1024 * 1024))
    if document.file_size is not None and document.file_size > most:
        await reply(update, context, limit_text)
        return
    if svc.authoring.full(user.id):
        await reply(update, context, t(lang, "author_quiz_limit", limit=MAX_QUIZZES_PER_AUTHOR))
        return
    # counted before the download, so files sent at once cannot all pass the daily limits
    reserved = await guard.reserve_upload(svc, user.id, document.file_size or most, lang)
    if not isinstance(reserved, guard.Reserved):
        await reply(update, context, reserved)
        return
    try:
        file = await document.get_file()
        if file.file_size is not None and file.file_size > most:
            await guard.release_upload(svc, reserved)
            await reply(update, context, limit_text)
            return
        data = await svc.transports[0].fetch(photos.encoded(file.file_path or ""), most)
    except TelegramError as exc:
        log.warning("could not download a document from user %s: %s", user.id, exc)
        await guard.release_upload(svc, reserved)
        await reply(update, context, t(lang, "upload_failed"))
        return
    if data is None:  # more than the limit came: the download was stopped there
        await guard.release_upload(svc, reserved)
        await reply(update, context, limit_text)
        return
    # what was downloaded counts until the import says what it stores
    refused = await guard.settle_upload(svc, user.id, reserved, len(data), lang)
    if refused is not None:
        await reply(update, context, refused)
        return
    filename = PurePath(document.file_name or "upload").name
    # parsing and validating: in a worker process, under CPU and memory limits
    # (a .zip's question file: at most MAX_UPLOAD_BYTES too, its pictures at most 5 MB each)
    report = await svc.parsing.run(
        text_import.read_upload, filename, data, MAX_UPLOAD_BYTES, MAX_ZIP_UPLOAD_BYTES
    )
    if isinstance(report, Failed):
        if report.reason == "stopping":  # the bot stops: asked for again after the restart
            await guard.release_upload(svc, reserved)
            guard.left_unfinished()
        await reply(update, context, t(lang, f"parse_{report.reason}_file"))
        return
    quiz, bank_yaml = report.quiz, report.yaml_text
    if quiz is None or bank_yaml is None:
        await reply(update, context, import_text(lang, None, report))
        return
    caption = drafts.check_title(message.caption or "")
    if caption is not None:  # the document's caption is its title
        quiz = dataclasses.replace(quiz, title=Text(caption, caption))
        bank_yaml = write_yaml(quiz)
    # counted as what it stores: its bank text and its pictures, decoded from the .zip
    stored = stored_size(bank_yaml, report.pictures.values())
    refused = await guard.settle_upload(svc, user.id, reserved, max(stored, len(data)), lang)
    if refused is not None:
        await reply(update, context, refused)
        return
    hint = quiz.title(quiz.language) or PurePath(filename).stem
    same = [r for r in svc.authored.by_title(hint) if r.author_id == user.id]
    if same:  # a corrected file: replace that quiz (a new version), or keep both
        await store_of(svc).store_images(
            (p.sha256, p.mime, p.data) for p in report.pictures.values()
        )
        payload = f"{report.format}\n{quiz.to_json()}"
        pending = PendingEdit(user.id, same[-1].quiz_no, 0, "replace", payload, svc.clock())
        await store_of(svc).save_pending_edit(pending)
        ask, markup = same_title(lang, same[-1].quiz_no, hint, same[-1].name)
        await reply(update, context, join("\n", [ask, *problem_lines(report, lang)]), markup=markup)
        return
    saved = await svc.authoring.save(
        user.id,
        quiz,
        bank_yaml,
        report.format,
        hint,
        report.pictures.values(),
        delivery=update.update_id,  # named after a restart if the bot dies before replying
    )
    if saved.row is None:
        await guard.release_upload(svc, reserved)
        await reply(update, context, t(lang, "author_quiz_limit", limit=MAX_QUIZZES_PER_AUTHOR))
        return
    card = quiz_card(lang, context.bot.username, saved.row) if saved.row is not None else None
    text = import_text(lang, saved.row, report)
    waiting = await store_of(svc).draft(user.id)
    if waiting is not None:  # a /newquiz draft is still open: this file did not go into it
        title = waiting.title or t_plain(lang, "draft_untitled")
        text = join("\n\n", [text, t(lang, "upload_draft_waiting", title=title)])
    await reply(update, context, text, markup=card)


async def photo_sent(update: Update, context: Context) -> None:
    """A photo sent while writing a quiz: the picture of the draft's last question."""
    message, user = update.effective_message, update.effective_user
    if message is None or not message.photo or user is None:
        return
    svc = context.bot_data
    current = await store_of(svc).draft(user.id)
    if current is None:
        return  # not writing a quiz: a photo is not ours to answer
    lang = await private_here(update, context)
    if lang is None:
        return
    questions = drafts.from_json(current.questions)
    if current.title is None or not questions:
        await reply(update, context, t(lang, "author_photo_first"))
        return
    kept = sum(1 for q in questions[:-1] if q.image is not None)  # the last one's is replaced
    if kept >= svc.settings.draft_photos:
        await reply(update, context, t(lang, "author_photo_limit", limit=svc.settings.draft_photos))
        return
    largest = max(message.photo, key=lambda p: p.width * p.height)
    reserved = await guard.reserve_upload(svc, user.id, largest.file_size or MAX_IMAGE_BYTES, lang)
    if not isinstance(reserved, guard.Reserved):
        await reply(update, context, reserved)
        return
    try:
        photo = await photos.download(svc, message.photo)
    except TelegramError as exc:
        log.warning("could not download a photo from user %s: %s", user.id, exc)
        await guard.release_upload(svc, reserved)
        await reply(update, context, t(lang, "upload_failed"))
        return
    except Refused as refused:
        await guard.release_upload(svc, reserved)
        reason = t_plain(lang, refused.key, **refused.values)
        await reply(update, context, t(lang, "author_photo_refused", reason=reason))
        return
    over = await guard.settle_upload(svc, user.id, reserved, len(photo.picture.data), lang)
    if over is not None:
        await reply(update, context, over)
        return
    await photos.keep(svc, [photo])
    questions = drafts.with_picture(questions, photo.picture)
    await store_of(svc).save_draft(
        Draft(
            user.id,
            "questions",
            current.title,
            current.language,
            drafts.to_json(questions),
            svc.clock(),
        )
    )
    await reply(update, context, t(lang, "author_photo_added", number=len(questions)))
