"""Leaderboards, personal stats, seasons and the CSV export."""

from __future__ import annotations

import datetime as dt
import logging

from telegram import Chat, Update
from telegram.error import TelegramError

from bot import render
from bot.core.bank import QUIZ_ID
from bot.handlers.replies import language, reply, thread_of
from bot.handlers.routes import Button, Command, Notice
from bot.i18n import t, whole_number
from bot.render import callbacks
from bot.services import analysis
from bot.services.container import Context
from bot.tg import outbox

log = logging.getLogger(__name__)

TOP = 10


async def leaderboard(update: Update, context: Context) -> None:
    """``/leaderboard [QUIZ | season N]``: the group's ranking; in private, your groups."""
    svc = context.bot_data
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await language(update, svc)
    if chat.type == Chat.PRIVATE:
        await reply(update, context, render.my_groups(await svc.store.user_overview(user.id), lang))
        return
    args = [a.casefold() for a in context.args or []]
    season: int | None = None
    quiz_id: str | None = None
    number = whole_number(args[1], 1, 999_999) if len(args) == 2 else None
    if args[:1] in (["season"], ["সিজন"]) and number is not None:
        season = number
    elif len(args) == 1 and QUIZ_ID.match(args[0]):
        quiz_id = args[0]
    elif args:
        await reply(update, context, t(lang, "lb_usage"))
        return
    board = await svc.store.leaderboard(
        chat.id, season=season, quiz_id=quiz_id, limit=TOP, user_id=user.id
    )
    await reply(update, context, render.leaderboard(board, lang, quiz_id))


async def me(update: Update, context: Context) -> None:
    """``/me``: your rank and accuracy here; in private, across groups and practice."""
    svc = context.bot_data
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await language(update, svc)
    if chat.type != Chat.PRIVATE:
        row = await svc.store.group_stats(chat.id, user.id)
        await reply(update, context, render.me_in_group(row, lang))
        return
    overview = await svc.store.user_overview(user.id)
    await reply(update, context, render.me_private(overview, lang, svc.catalog))


async def reset(update: Update, context: Context) -> None:
    """``/resetleaderboard`` (moderators): asks to confirm a new season."""
    svc = context.bot_data
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    lang = await language(update, svc)
    season = await svc.store.current_season(chat.id)
    await outbox.send(
        context.bot,
        chat.id,
        t(lang, "reset_confirm", season=season),
        thread_id=thread_of(message),
        markup=render.reset_keyboard(lang, season),
    )


async def reset_button(update: Update, context: Context, data: callbacks.ResetData) -> Notice:
    """The confirm or cancel button of ``/resetleaderboard``."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = await language(update, svc)
    if chat.type == Chat.PRIVATE or not await svc.moderators.may_moderate(chat, query.from_user.id):
        return t(lang, "not_moderator"), True
    if data.season != await svc.store.current_season(chat.id):
        return t(lang, "reset_stale"), True
    if data.confirm:
        season = await svc.store.new_season(chat.id)
        text = t(lang, "reset_done", season=season)
    else:
        text = t(lang, "reset_cancelled")
    await outbox.edit(context.bot, chat.id, query.message.message_id, text)
    return None, False


async def export(update: Update, context: Context) -> None:
    """``/export`` (moderators): the group's results as a CSV document."""
    svc = context.bot_data
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    lang = await language(update, svc)
    text = await svc.store.export_csv(chat.id)
    if text.count("\n") <= 1:
        await reply(update, context, t(lang, "export_empty"), important=True)
        return
    day = dt.datetime.fromtimestamp(svc.clock(), dt.UTC).strftime("%Y-%m-%d")
    try:
        await context.bot.send_document(
            chat.id,
            document=("\ufeff" + text).encode("utf-8"),
            filename=f"quizbot-results-{abs(chat.id)}-{day}.csv",
            caption=t(lang, "export_caption"),
            message_thread_id=thread_of(message) or None,
        )
        questions = await analysis.questions_csv(svc.store, svc.quizzes.get, chat.id)
        if questions is not None:  # the second file: how each question works, this season
            await context.bot.send_document(
                chat.id,
                document=("\ufeff" + questions).encode("utf-8"),
                filename=f"quizbot-questions-{abs(chat.id)}-{day}.csv",
                caption=t(lang, "export_analysis_caption"),
                message_thread_id=thread_of(message) or None,
            )
    except TelegramError as exc:  # one apology, here: the error handler is not involved
        log.error("export to chat %s failed: %s", chat.id, exc)
        await reply(update, context, t(lang, "apology"), important=True)


COMMANDS = (
    Command(
        "leaderboard",
        leaderboard,
        aliases=("top",),
        help="help_leaderboard",
        menu="cmd_top",
        mod_menu="cmd_top",
    ),
    Command("me", me, help="help_me", menu="cmd_me", mod_menu="cmd_me"),
    Command(
        "resetleaderboard",
        reset,
        who="moderator",
        where="group",
        help="help_reset",
        menu="cmd_reset",
    ),
    Command(
        "export", export, who="moderator", where="group", help="help_export", menu="cmd_export"
    ),
)
BUTTONS = (Button(callbacks.ResetData, reset_button),)
