"""Leaderboards, personal stats, seasons and the CSV export."""

from __future__ import annotations

import datetime as dt
import logging

from telegram import Chat, Update
from telegram.error import TelegramError

from bot import render
from bot.banks.resolver import Choice
from bot.features.stats import views as stats_views
from bot.features.stats.buttons import ResetData
from bot.features.stats.store import store_of
from bot.i18n import t, t_plain, whole_number
from bot.render import export as render_export
from bot.routing.replies import quiz_named, reply, thread_of
from bot.routing.routes import Button, Command, Notice
from bot.services import analysis
from bot.services.container import Context
from bot.tg import outbox

log = logging.getLogger(__name__)

TOP = 10


async def leaderboard(update: Update, context: Context) -> None:
    """``/leaderboard [QUIZ | season N]``: the group's ranking; in private, your groups."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang
    if chat.type == Chat.PRIVATE:
        await reply(
            update, context, stats_views.my_groups(await store_of(svc).user_overview(user.id), lang)
        )
        return
    args = [a.casefold() for a in context.args or []]
    season: int | None = None
    quiz: Choice | None = None
    number = whole_number(args[1], 1, 999_999) if len(args) == 2 else None
    if args[:1] in (["season"], ["সিজন"]) and number is not None:
        season = number
    elif args:
        current = await store_of(svc).current_season(chat.id)
        played = await store_of(svc).quizzes_played(chat.id, current)
        quiz = await quiz_named(
            update, context, "leaderboard", " ".join(args), svc.resolver.known(played)
        )
        if quiz is None:
            return
    board = await store_of(svc).leaderboard(
        chat.id,
        season=season,
        quiz_id=quiz.quiz_id if quiz else None,
        limit=TOP,
        user_id=user.id,
        homework=svc.settings.homework_in_group,  # homework is private unless set otherwise
    )
    await reply(update, context, stats_views.leaderboard(board, lang, quiz.name if quiz else None))


async def me(update: Update, context: Context) -> None:
    """``/me``: your rank and accuracy here; in private, across groups and practice."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang
    if chat.type != Chat.PRIVATE:
        row = await store_of(svc).group_stats(
            chat.id, user.id, homework=svc.settings.homework_in_group
        )
        await reply(update, context, stats_views.me_in_group(row, lang))
        return
    overview = await store_of(svc).user_overview(user.id)
    await reply(update, context, stats_views.me_private(overview, lang, svc.catalog))


async def reset(update: Update, context: Context) -> None:
    """``/resetleaderboard`` (moderators): asks to confirm a new season."""
    svc = context.bot_data
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    lang = context.lang
    season = await store_of(svc).current_season(chat.id)
    await outbox.send(
        context.bot,
        chat.id,
        t(lang, "reset_confirm", season=season),
        thread_id=thread_of(message),
        markup=stats_views.reset_keyboard(lang, season),
    )


async def reset_button(update: Update, context: Context, data: ResetData) -> Notice:
    """The confirm or cancel button of ``/resetleaderboard``."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = context.lang
    if data.season != await store_of(svc).current_season(chat.id):
        return t(lang, "reset_stale"), True
    if data.confirm:
        season = await store_of(svc).new_season(chat.id, after=data.season)
        if season is None:  # reset already (a double tap, a tap delivered again)
            return t(lang, "reset_stale"), True
        text = t(lang, "reset_done", season=season)
    else:
        text = t(lang, "reset_cancelled")
    await outbox.edit(context.bot, chat.id, query.message.message_id, text)
    return None, False


async def export(update: Update, context: Context) -> None:
    """``/export`` (moderators): the group's results as CSV documents, sent privately."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang

    def quiz_label(quiz_id: str) -> str:
        found = svc.resolver.choice(quiz_id)
        return f"{found.name} ({found.title(lang)})" if found else "—"

    text = render_export.results_csv(
        await store_of(svc).export_answers(chat.id), svc.catalog.get, quiz_label, lang
    )
    if text.count("\n") <= 1:
        await reply(update, context, t(lang, "export_empty"), important=True)
        return
    day = dt.datetime.fromtimestamp(svc.clock(), dt.UTC).strftime("%Y-%m-%d")
    group = render_export.file_part(chat.title or "")
    private_lang = await svc.recaps.language_of(user.id, lang)
    try:
        group_name = chat.title or t_plain(private_lang, "your_group")
        sent = await outbox.send(
            context.bot, user.id, t(private_lang, "export_private", group=group_name)
        )
        if sent.status == "gone":  # never started the bot: a link to do so, in the group
            await reply(
                update,
                context,
                t(lang, "private_first"),
                important=True,
                markup=render.open_private_keyboard(lang, context.bot.username),
            )
            return
        await context.bot.send_document(
            user.id,
            document=("\ufeff" + text).encode("utf-8"),
            filename=f"quizbot-results-{group}-{day}.csv",
            caption=t(private_lang, "export_caption"),
        )
        questions = await analysis.questions_csv(store_of(svc), svc.catalog.get, chat.id, lang)
        if questions is not None:  # the second file: how each question works, this season
            await context.bot.send_document(
                user.id,
                document=("\ufeff" + questions).encode("utf-8"),
                filename=f"quizbot-questions-{group}-{day}.csv",
                caption=t(private_lang, "export_analysis_caption"),
            )
    except TelegramError as exc:  # one apology, here: the error handler is not involved
        log.error("export of chat %s failed: %s", chat.id, exc)
        await reply(update, context, t(lang, "apology"), important=True)
        return
    await reply(update, context, t(lang, "sent_privately"), important=True)


COMMANDS = (
    Command(
        "leaderboard",
        leaderboard,
        who="anyone",
        where="both",
        aliases=("top",),
        help="help_leaderboard",
        menu="cmd_top",
        mod_menu="cmd_top",
        ephemeral=True,
    ),
    Command(
        "me",
        me,
        who="anyone",
        where="both",
        help="help_me",
        menu="cmd_me",
        mod_menu="cmd_me",
        ephemeral=True,
    ),
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
BUTTONS = (Button(ResetData, reset_button, who="moderator", where="group"),)
