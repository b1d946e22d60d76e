"""Handlers of private recaps: who writes privately, ``/recap on|off`` and the recap deep link
(``/start recap_<run id>``, routed to its own handler)."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import filters

from bot.features.review import views as review_views
from bot.features.review.store import store_of
from bot.render.callbacks import RECAP_PREFIX, RECAP_START
from bot.routing.replies import reply
from bot.routing.routes import Command
from bot.services.container import Context

#: ``/start recap_<run id>`` in a private chat; any other /start goes to the generic handler
START_FILTER = filters.Regex(RECAP_START) & filters.ChatType.PRIVATE


async def observe(update: object, context: Context) -> None:
    """Runs first for every update: remember who writes privately (the bot may then write to
    them first); a block in private clears the flag (Telegram languages: ``commands.remember``)."""
    if not isinstance(update, Update) or not context.bot_data.opened():
        return
    rc = context.bot_data.recaps
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None or chat.type != ChatType.PRIVATE:
        return
    if update.my_chat_member is not None:
        if update.my_chat_member.new_chat_member.status in (
            ChatMemberStatus.BANNED,
            ChatMemberStatus.LEFT,
        ):
            await rc.unreachable(user.id)
        else:
            await rc.seen_private(user.id)
    elif update.message is not None or update.callback_query is not None:
        await rc.seen_private(user.id)


async def start_recap(update: Update, context: Context) -> None:
    """``/start recap_<run id>`` (the results' deep link): that user's recap of that run."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or not context.args:
        return
    svc = context.bot_data
    run_id = int(context.args[0].removeprefix(RECAP_PREFIX))
    await svc.recaps.deliver_link(chat.id, user.id, run_id, context.lang)


async def recap_command(update: Update, context: Context) -> None:
    """``/recap on|off`` in private: whether recaps come after group quizzes."""
    user = update.effective_user
    if user is None:
        return
    lang = context.lang
    args = [a.casefold() for a in context.args or []]
    choice = (
        {"on": True, "off": False, "চালু": True, "বন্ধ": False}.get(args[0])
        if len(args) == 1
        else None
    )
    store = store_of(context.bot_data)
    if choice is None:
        student = await store.student(user.id)
        on = student is None or student.recaps
        await reply(update, context, review_views.recap_setting(lang, on, usage=True))
        return
    await store.set_recaps(user.id, choice)
    await reply(update, context, review_views.recap_setting(lang, choice))


COMMANDS = (
    Command("start", start_recap, who="anyone", where="private", filters=START_FILTER),
    Command(
        "recap", recap_command, who="anyone", where="private", help="help_recap", menu="cmd_recap"
    ),
)
