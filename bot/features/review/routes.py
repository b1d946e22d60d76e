"""Handlers of spaced review: ``/review``, ``/remind`` and their buttons (private chats)."""

from __future__ import annotations

from telegram import Update

from bot.core.deadlines import parse_offset, show_offset
from bot.features.review import buttons as review_buttons
from bot.features.review import views as review_views
from bot.features.review.buttons import TimezoneData
from bot.features.review.sessions import TZ_CHOICES, parse_time, show_time
from bot.features.review.store import store_of
from bot.i18n import t
from bot.routing.replies import reply
from bot.routing.routes import Button, Command, Notice
from bot.routing.taps import tap_of
from bot.services.container import Context
from bot.tg import outbox


async def review_command(update: Update, context: Context) -> None:
    """``/review`` in private."""
    svc = context.bot_data
    if update.effective_chat and update.effective_user:
        await svc.reviews.begin(update.effective_chat.id, update.effective_user.id, context.lang)


async def remind_command(update: Update, context: Context) -> None:
    """``/remind HH:MM [±H:MM]`` or ``/remind off`` in private."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang
    args = context.args or []
    rv = svc.reviews
    if len(args) == 1 and args[0].casefold() in ("off", "বন্ধ"):
        await rv.set_reminder(user.id, None, None)
        await reply(update, context, t(lang, "remind_off"))
        return
    minutes = parse_time(args[0]) if 1 <= len(args) <= 2 else None
    offset = parse_offset(args[1]) if minutes is not None and len(args) == 2 else None
    if minutes is None or (len(args) == 2 and offset is None):
        await reply(update, context, t(lang, "remind_usage"))
        return
    tz = await rv.set_reminder(user.id, minutes, offset)
    if tz is not None:
        await reply(
            update,
            context,
            t(lang, "remind_set", time=show_time(lang, minutes), offset=show_offset(lang, tz)),
        )
        return
    await outbox.send(
        context.bot,
        chat.id,
        t(lang, "remind_ask_tz", time=f"{minutes // 60:02d}:{minutes % 60:02d}"),  # ASCII
        markup=review_views.timezone_keyboard(lang, TZ_CHOICES),
    )


async def review_button(
    update: Update, context: Context, data: review_buttons.ReviewData
) -> Notice:
    """An answer button of a ``/review`` question."""
    svc = context.bot_data
    return await svc.reviews.tap(tap_of(update, svc, data, context.lang))


async def timezone_button(update: Update, context: Context, data: TimezoneData) -> Notice:
    """A time zone button of ``/remind``: store it, arm the reminder, say so in place."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    user_id, lang = query.from_user.id, context.lang
    tz = data.minutes
    await store_of(svc).set_timezone(user_id, tz)
    student = await store_of(svc).student(user_id)
    minutes = student.remind_minutes if student is not None else None
    if minutes is None:
        text = t(lang, "remind_usage")
    else:
        svc.reviews.arm(user_id, tz, minutes)
        text = t(lang, "remind_set", time=show_time(lang, minutes), offset=show_offset(lang, tz))
    await outbox.edit(context.bot, query.message.chat.id, query.message.message_id, text)
    return None, False


COMMANDS = (
    Command(
        "review",
        review_command,
        who="anyone",
        where="private",
        help="help_review",
        menu="cmd_review",
    ),
    Command(
        "remind",
        remind_command,
        who="anyone",
        where="private",
        help="help_remind",
        menu="cmd_remind",
    ),
)
BUTTONS = (
    Button(review_buttons.ReviewData, review_button, who="participant", where="private"),
    Button(TimezoneData, timezone_button, who="anyone", where="private"),
)
