"""Managing one's stored quizzes: ``/myquizzes``, ``/deletequiz``, ``/share``, ``/publish``, and
the ``/start sq-TOKEN`` share links that let anyone practise a quiz privately."""

from __future__ import annotations

import html
import secrets

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes
from telegram.helpers import create_deep_linked_url

from bot import callbacks, outbox
from bot.authoring.draft import MAX_QUIZZES_PER_AUTHOR
from bot.authoring.render import my_quizzes
from bot.bank import Lang, Quiz
from bot.i18n import t
from bot.replies import language, private_here, reply
from bot.services import Services, services
from bot.storage import AuthoredQuiz

SHARE_PREFIX = "sq-"


async def myquizzes(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """List the sender's stored quizzes with their question counts and runs."""
    lang = await private_here(update, context)
    if lang is None or update.effective_user is None:
        return
    svc = services(context)
    rows = svc.authored.of_author(update.effective_user.id)
    runs = await svc.store.run_counts([r.quiz_id for r in rows])
    await reply(update, context, my_quizzes(lang, rows, runs, MAX_QUIZZES_PER_AUTHOR))


async def _own(update: Update, context: ContextTypes.DEFAULT_TYPE, usage: str
               ) -> tuple[Lang, AuthoredQuiz] | None:
    """The sender's quiz named in the command (admins may name anyone's), after replying why
    not when there is none."""
    lang = await private_here(update, context)
    user = update.effective_user
    if lang is None or user is None:
        return None
    svc = services(context)
    args = context.args or []
    if len(args) != 1:
        await reply(update, context, t(lang, usage))
        return None
    row = svc.authored.by_name(args[0].casefold())
    if row is None or (row.author_id != user.id and user.id not in svc.settings.admin_ids):
        await reply(update, context, t(lang, "my_unknown", name=html.escape(args[0][:40])))
        return None
    return lang, row


async def deletequiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ask to confirm deleting one of the sender's quizzes."""
    found = await _own(update, context, "delete_usage")
    chat = update.effective_chat
    if found is None or chat is None:
        return
    lang, row = found
    buttons = InlineKeyboardMarkup([[
        InlineKeyboardButton(t(lang, "delete_yes"), callback_data=callbacks.encode(
            callbacks.DeleteData(row.quiz_no, True))),
        InlineKeyboardButton(t(lang, "delete_no"), callback_data=callbacks.encode(
            callbacks.DeleteData(row.quiz_no, False)))]])
    await outbox.send(context.bot, chat.id, t(lang, "delete_confirm", name=row.name,
                                              title=html.escape(row.title)), markup=buttons)


async def delete_button(context: ContextTypes.DEFAULT_TYPE, user_id: int, chat_id: int,
                        message_id: int, data: callbacks.DeleteData, lang: Lang
                        ) -> tuple[str | None, bool]:
    """The confirmation buttons of /deletequiz."""
    svc = services(context)
    row = svc.authored.row(f"u.{data.quiz_no}")
    if (row is None or row.deleted_at is not None
            or (row.author_id != user_id and user_id not in svc.settings.admin_ids)):
        return t(lang, "alert_invalid"), True
    if not data.confirm:
        await outbox.edit(context.bot, chat_id, message_id, t(lang, "delete_kept", name=row.name))
        return None, False
    await svc.store.delete_authored(row.quiz_no, svc.clock())
    await svc.authoring.refresh(row.quiz_no)
    await outbox.edit(context.bot, chat_id, message_id, t(lang, "delete_done", name=row.name))
    return None, False


async def share(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A deep link with which anyone can practise the quiz privately."""
    found = await _own(update, context, "share_usage")
    if found is None:
        return
    lang, row = found
    svc = services(context)
    token = row.share_token
    if token is None:
        token = secrets.token_urlsafe(12)  # 16 characters of [A-Za-z0-9_-]
        await svc.store.set_share_token(row.quiz_no, token)
        await svc.authoring.refresh(row.quiz_no)
    url = create_deep_linked_url(context.bot.username, SHARE_PREFIX + token)
    await reply(update, context, t(lang, "share_link", name=row.name, url=html.escape(url)))


async def publish(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/publish NAME [off]`` (admins): offer a stored quiz to every group, or withdraw it."""
    svc = services(context)
    lang = await private_here(update, context)
    user = update.effective_user
    if lang is None or user is None:
        return
    if user.id not in svc.settings.admin_ids:
        await reply(update, context, t(lang, "publish_admins_only"))
        return
    args = context.args or []
    off = len(args) == 2 and args[1].casefold() == "off"
    row = svc.authored.by_name(args[0].casefold()) if args and (len(args) == 1 or off) else None
    if not args or (len(args) > 1 and not off):
        await reply(update, context, t(lang, "publish_usage"))
        return
    if row is None:
        await reply(update, context, t(lang, "my_unknown", name=html.escape(args[0][:40])))
        return
    await svc.store.set_published(row.quiz_no, not off)
    await svc.authoring.refresh(row.quiz_no)
    await reply(update, context, t(lang, "publish_off" if off else "publish_on", name=row.name))


async def start_shared(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/start sq-TOKEN``: practise a shared quiz in this private chat."""
    svc = services(context)
    chat = update.effective_chat
    lang = await language(update, svc)
    if chat is None or chat.type != Chat.PRIVATE:
        return
    token = (context.args or [""])[0].removeprefix(SHARE_PREFIX)
    row = svc.authored.by_token(token) if token else None
    quiz = svc.authored.quiz(row.quiz_id) if row is not None else None
    if quiz is None:
        await reply(update, context, t(lang, "share_gone"))
        return
    await svc.practice.start(chat.id, quiz, lang, svc.rng)


def startable(svc: Services, user_id: int, *, own: bool) -> dict[str, Quiz]:
    """Stored quizzes a user may start (or practise) here, by every name they answer to.

    The published ones, and with ``own`` the user's own. A name a folder bank uses stays the
    folder bank's: such a stored quiz answers only to its internal id ``u.N``.
    """
    out: dict[str, Quiz] = {}
    for row in svc.authored.live():
        quiz = svc.authored.quiz(row.quiz_id)
        if quiz is None or not (row.published or (own and row.author_id == user_id)):
            continue
        if row.name not in svc.catalog.folder():
            out[row.name] = quiz
        out[row.quiz_id] = quiz
    return out
