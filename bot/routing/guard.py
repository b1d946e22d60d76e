"""Which quizzes a caller may see or start here, practice waiting for a live quiz, daily upload
limits, and message updates handled once.

Who may press a button or use a command, and where, is each entry's rule, checked by the
registry (``bot.routing.access``). What a button or link names is checked here: a start button
only for a quiz listed in that chat (folder banks with a chat list) or one the user may start
(own, published; in private, one shared by link when the button carries the link's token: the
quiz's number alone grants nothing), and, in private, not while that quiz is live or open as
homework in one of the user's groups (:func:`practice_wait`); a /regrade preview's buttons and
the teacher's commands and links only for a quiz the moderator may see there
(:func:`may_see_quiz`). Message updates are handled once (:func:`once`, :func:`handled`,
:func:`tell_unfinished`).
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from typing import NoReturn

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.banks.authored import AUTHORED_ID
from bot.banks.resolver import Choice
from bot.core.bank import Question, Quiz
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import fit
from bot.services.container import Context, Services
from bot.tg import outbox
from bot.tg.membership import is_member

log = logging.getLogger(__name__)


def startable_here(
    svc: Services, quiz_id: str, chat_id: int, user_id: int, *, token: str = ""
) -> Quiz | None:
    """The quiz a start button names, if it is listed in this chat or the user may start it
    (``token``: practice in private, where a quiz shared by link may be practised again with
    the link's token)."""
    if AUTHORED_ID.match(quiz_id):
        return svc.authored.may_start(quiz_id, user_id, token=token)
    return next((q for q in svc.catalog.for_chat(chat_id) if q.id == quiz_id), None)


async def practice_refusal(context: Context, user_id: int, quiz: Quiz) -> Safe | None:
    """Why this user may not practise ``quiz`` privately now, as a message in the caller's
    language, or None."""
    lang = context.lang
    key = await practice_wait(context, user_id, quiz)
    return t(lang, key, title=quiz.title(lang)) if key is not None else None


async def practice_wait(context: Context, user_id: int, quiz: Quiz) -> str | None:
    """The key of the reason this user may not practise ``quiz`` privately now (it is live, or
    open as homework, in one of their groups: its right answers would be seen), or None."""
    svc = context.bot_data
    chats = {r.chat_id for r in svc.groups.active() if r.quiz.id == quiz.id}
    homework = {hw.chat_id for hw in await svc.store.open_homework() if hw.quiz_id == quiz.id}
    for chat_id in sorted(chats | homework):
        # in doubt (Telegram cannot say), the student waits: practice is never urgent
        if await is_member(context.bot, chat_id, user_id) is not False:
            return "practice_wait_live" if chat_id in chats else "practice_wait_homework"
    return None


async def may_see_quiz(svc: Services, quiz_id: str, chat_id: int, user_id: int) -> Quiz | None:
    """A quiz a moderator may analyse or re-grade in this group: one listed here, their own or
    a published one, or one this group played this season. None for any other id (another
    author's unshared quiz, a deleted one): the caller answers as for an unknown name, so
    nothing about it (title, size) is revealed."""
    quiz = startable_here(svc, quiz_id, chat_id, user_id)
    if quiz is not None:
        return quiz
    season = await svc.store.current_season(chat_id)
    if quiz_id in await svc.store.quizzes_played(chat_id, season):
        return svc.catalog.get(quiz_id)
    return None


async def visible_quizzes(
    svc: Services, chat_id: int, user_id: int
) -> tuple[list[Choice], set[str]]:
    """The quizzes a moderator may name to /analysis or /regrade in this group, for the quiz
    resolver, and the ids played here this season: the resolver's ``known`` quizzes kept only
    where :func:`may_see_quiz` admits them too (the stricter of both rules): those played here
    this season first, then those listed here or that the user may start (own, published)."""
    recent = await svc.store.quizzes_played(chat_id, await svc.store.current_season(chat_id))
    played = set(recent)  # ``recent``: the latest first (a bare /analysis takes it)
    seen = {c.quiz_id: c for c in svc.resolver.known(recent) if c.quiz_id in played}
    for choice in svc.resolver.startable(chat_id, user_id, own=True):
        seen.setdefault(choice.quiz_id, choice)
    return list(seen.values()), played


# --- updates handled once ----------------------------------------------------------------------

REDELIVERY_WINDOW = 2 * 86_400.0  # seconds: Telegram keeps an unconfirmed update for 24 hours


async def once(update: object, context: Context) -> None:
    """Runs first for every update: a message seen before (Telegram redelivers after a webhook
    timeout or a crash) goes no further; a new one is recorded as being handled."""
    if not isinstance(update, Update) or update.message is None:
        return  # taps: an answer is stored once by its key; chat events are idempotent
    svc = context.bot_data
    chat = update.effective_chat
    first = await svc.store.first_delivery(
        update.update_id,
        chat.id if chat is not None else None,
        "document" if update.message.document is not None else "message",
        svc.clock(),
        REDELIVERY_WINDOW,
    )
    if not first:
        log.info("update %s delivered again: dropped", update.update_id)
        raise ApplicationHandlerStop


async def handled(update: object, context: Context) -> None:
    """Runs last for every update: a message recorded by :func:`once` is done."""
    if isinstance(update, Update) and update.message is not None:
        await context.bot_data.store.delivery_done(update.update_id)


def left_unfinished() -> NoReturn:
    """End the handling of this message without an answer, as if the bot had died here: it
    stays recorded as unfinished (:func:`handled` does not run), so after the restart its
    sender is asked to send it again (:func:`tell_unfinished`). For a message whose reading
    the bot's stop ended (nothing of it was saved)."""
    log.info("stopping: a message being read is left for its sender to send again")
    raise ApplicationHandlerStop


async def tell_unfinished(context: Context) -> None:
    """After a restart: whoever sent, in private, a message the bot was still handling when it
    died (an upload being imported) is asked to send it again; nothing is left unanswered. If
    a typed question waits for their answer, they are not asked to resend (it may have been
    the answer to the question before, which would then be judged as this one's): the
    question waiting is named instead, and they answer it knowing which it is."""
    svc = context.bot_data
    for item in await svc.store.unfinished_deliveries():
        if item.chat_id is None or item.chat_id <= 0:
            continue  # a group: its command's effect is visible there, or it is simply redone
        lang = await svc.recaps.language_of(item.chat_id, svc.settings.language)
        if item.kind == "document":
            row = svc.authored.row(f"u.{item.quiz_no}") if item.quiz_no is not None else None
            text = (
                t(lang, "resend_upload")
                if row is None  # nothing of it was saved
                else t(lang, "upload_saved_before", name=row.name, title=row.title)
            )
            await outbox.send(context.bot, item.chat_id, text)
            continue
        waiting = await waiting_question(svc, item.chat_id)
        text = (
            t(lang, "resend_message")
            if waiting is None  # "send it again" would answer the question now waiting
            else t(lang, "resend_typed", question=fit(waiting.text(lang), 200))
        )
        await outbox.send(context.bot, item.chat_id, text)


async def waiting_question(svc: Services, user_id: int) -> Question | None:
    """The typed question a student's private chat waits on an answer to (the precedence of
    bot/app/typed.py: homework, practice, /review), if any."""
    return (
        svc.attempts.waiting(user_id)
        or await svc.practice.waiting(user_id)
        or await svc.reviews.waiting(user_id)
    )


# --- bounded uploads -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reserved:
    """An upload counted against its sender's daily limits before its download (``slot``: the
    reservation, None for the bot's administrators, who are not limited)."""

    slot: int | None


async def reserve_upload(svc: Services, user_id: int, size: int, lang: Lang) -> Reserved | Safe:
    """Count an upload of ``size`` bytes (at most) before it is downloaded: the reservation,
    or why not (the disk is nearly full; the user's daily number of uploads or bytes, or their
    storage, is used up). Reserved in one transaction, so uploads sent at once are counted one
    after the other; release it (:func:`release_upload`) if the upload is refused after all."""
    if low_on_disk(svc, size):
        return t(lang, "upload_disk_low")
    if user_id in svc.settings.admin_ids:
        return Reserved(None)
    if await over_storage(svc, user_id, size):
        return storage_full(svc, lang)
    most, budget = svc.settings.uploads_per_day, svc.settings.upload_bytes_per_day
    slot = await svc.store.reserve_upload(user_id, size, svc.clock(), most=most, budget=budget)
    if slot is None:
        return t(lang, "upload_daily_limit", count=most, mb=budget // (1024 * 1024))
    return Reserved(slot)


async def settle_upload(
    svc: Services, user_id: int, reserved: Reserved, stored: int, lang: Lang
) -> Safe | None:
    """Count a reserved upload as the bytes it stores (pictures decoded), or why it may not be
    kept (its stored size passes the daily bytes or the user's storage, or the disk's reserve):
    then the reservation is released."""
    refusal: Safe | None = None
    if low_on_disk(svc, stored):
        refusal = t(lang, "upload_disk_low")
    elif reserved.slot is None:
        return None
    elif await over_storage(svc, user_id, stored):
        refusal = storage_full(svc, lang)
    else:
        budget = svc.settings.upload_bytes_per_day
        if not await svc.store.settle_upload(reserved.slot, stored, budget=budget):
            most = svc.settings.uploads_per_day
            refusal = t(lang, "upload_daily_limit", count=most, mb=budget // (1024 * 1024))
    if refusal is not None:
        await release_upload(svc, reserved)
    return refusal


async def release_upload(svc: Services, reserved: Reserved) -> None:
    """An upload refused after its reservation: it no longer counts."""
    if reserved.slot is not None:
        await svc.store.release_upload(reserved.slot)


async def over_storage(svc: Services, user_id: int, size: int) -> bool:
    """Whether ``size`` more bytes would pass what the user may keep stored (their live
    quizzes' texts and pictures); the bot's administrators are not limited."""
    if user_id in svc.settings.admin_ids:
        return False
    return await svc.store.stored_by(user_id) + size > svc.settings.user_storage_bytes


def storage_full(svc: Services, lang: Lang) -> Safe:
    return t(lang, "upload_storage_full", mb=svc.settings.user_storage_bytes // (1024 * 1024))


def low_on_disk(svc: Services, size: int) -> bool:
    """Whether storing ``size`` more bytes would leave the database's disk with less free space
    than the reserve kept for answers (QUIZBOT_DISK_RESERVE_MB)."""
    reserve = svc.settings.disk_reserve_bytes
    if reserve == 0:
        return False
    folder = svc.settings.db_path.resolve().parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return True  # in doubt, uploads wait: answers must never lack room
    return free - size < reserve
