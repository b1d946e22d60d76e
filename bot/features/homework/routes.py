"""Handlers of homework and /timezone: thin, they parse, check and call the homework services
(:mod:`bot.features.homework.cards` in the group, :mod:`bot.features.homework.attempts` in private
chats).

Quizzes are looked up in ``Services.catalog`` at call time, so a reloaded bank is used at once.
"""

from __future__ import annotations

import re

from telegram import Chat, Message, Update
from telegram.ext import filters

from bot.banks.resolver import named
from bot.core.bank import Quiz
from bot.core.deadlines import DEFAULT_DURATION, parse_duration, parse_offset, show_offset
from bot.core.engine import TYPED_MIN_SECONDS
from bot.features.homework import buttons as homework_buttons
from bot.features.homework import views as homework_views
from bot.features.homework.store import store_of
from bot.i18n import ascii_digits, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.render import callbacks
from bot.routing.replies import card_quiz, is_moderator, offer_quizzes, reply, thread_of
from bot.routing.routes import Button, Command, Notice
from bot.routing.taps import tap_of
from bot.services.container import Context, Services
from bot.storage import Homework
from bot.tg import outbox

HW_PAYLOAD = re.compile(r"hw-([1-9][0-9]{0,15})")


# --- /homework ------------------------------------------------------------------------------------


async def _open_items(svc: Services, chat_id: int) -> list[tuple[Homework, Quiz | None, int]]:
    items = []
    for hw in await store_of(svc).open_homework(chat_id):
        finished, _ = await store_of(svc).attempt_counts(hw.homework_id)
        items.append((hw, svc.catalog.get(hw.quiz_id), finished))
    return items


async def homework_command(update: Update, context: Context) -> None:
    """``/homework``: the open ones; ``/homework NAME [DURATION]``, ``/homework stop [N]``."""
    svc = context.bot_data
    chat, message, user = update.effective_chat, update.effective_message, update.effective_user
    if chat is None or message is None or user is None:
        return
    lang = context.lang
    args = context.args or []
    hws = context.bot_data.homeworks
    if not args:
        items = await _open_items(svc, chat.id)
        for hw, _, _ in items:  # each card catches up with the count this list shows
            hws.refresh_card(hw.homework_id)
        await reply(
            update,
            context,
            homework_views.homework_list(lang, items, await hws.timezone(chat.id)),
            important=await is_moderator(update, svc),
        )
        return
    if not await is_moderator(update, svc):
        await reply(update, context, t(lang, "not_moderator"))
        return
    if args[0].casefold() in ("stop", "বন্ধ"):
        await _stop(update, context, args[1:])
        return
    choices = svc.resolver.startable(chat.id, user.id, own=True)
    found, rest = named(args, lambda text: svc.resolver.find(text, choices, chat.id, user.id))
    picked = found.choice
    if picked is None:
        await offer_quizzes(update, context, "homework", found)
        return
    duration = (parse_duration(rest[0]) if rest else DEFAULT_DURATION) if len(rest) <= 1 else None
    quiz = picked.quiz
    if duration is None:
        await reply(update, context, t(lang, "hw_usage", names=picked.name), important=True)
        return
    assert message is not None
    query = update.callback_query  # picked from a "which quiz?" list: one homework per pick
    key = f"k:{chat.id}:{message.message_id}:{quiz.id}" if query is not None else None
    if not await _set(svc, chat.id, thread_of(message), quiz, lang, user.id, duration, key=key):
        await reply(update, context, t(lang, "hw_already_set", title=quiz.title(lang)))


async def _stop(update: Update, context: Context, args: list[str]) -> None:
    svc, lang = context.bot_data, context.lang
    chat = update.effective_chat
    assert chat is not None
    items = await _open_items(svc, chat.id)
    if not items:
        await reply(update, context, t(lang, "hw_none_open"), important=True)
        return
    if len(args) > 1 or (args and not ascii_digits(args[0]).isdecimal()):
        await reply(update, context, t(lang, "hw_stop_usage"), important=True)
        return
    if args:
        n = int(ascii_digits(args[0]))
        if not 1 <= n <= len(items):
            await reply(update, context, t(lang, "hw_stop_usage"), important=True)
            return
        await context.bot_data.homeworks.end(items[n - 1][0].homework_id, stopped=True)
        return
    if len(items) == 1:
        await context.bot_data.homeworks.end(items[0][0].homework_id, stopped=True)
        return
    tz = await context.bot_data.homeworks.timezone(chat.id)
    await reply(
        update,
        context,
        join("\n\n", [homework_views.homework_list(lang, items, tz), t(lang, "hw_stop_pick")]),
        important=True,
        markup=homework_views.homework_stop_keyboard(lang, items),
    )


async def start_homework(update: Update, context: Context) -> None:
    """``/start hw-<id>`` in private: the card's Start button."""
    user, lang = context.caller.user, context.lang
    args = context.args or []
    match = HW_PAYLOAD.fullmatch(args[0]) if len(args) == 1 else None
    if match is None:
        await reply(update, context, t(lang, "hw_missing"))
        return
    await context.bot_data.attempts.begin(user.id, int(match[1]), lang)


# --- /timezone ------------------------------------------------------------------------------------


async def timezone_command(update: Update, context: Context) -> None:
    """``/timezone [±H[:MM]]``: the group's (moderators set it) or, in private, your own."""
    svc = context.bot_data
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or update.effective_message is None:
        return
    lang = context.lang
    args = context.args or []
    offset = parse_offset(args[0]) if len(args) == 1 else None
    if len(args) > 1 or (args and offset is None):
        await reply(update, context, t(lang, "tz_usage"))
        return
    if chat.type == Chat.PRIVATE:
        if offset is None:
            student = await store_of(svc).student(user.id)
            tz = student.tz_minutes if student is not None else None
            await reply(
                update,
                context,
                t(lang, "tz_private_none")
                if tz is None
                else t(lang, "tz_private_show", offset=show_offset(lang, tz)),
            )
            return
        await store_of(svc).set_timezone(user.id, offset)
        student = await store_of(svc).student(user.id)
        if student is not None and student.remind_minutes is not None:
            context.bot_data.reviews.arm(user.id, offset, student.remind_minutes)  # re-armed in it
        await reply(update, context, t(lang, "tz_private_set", offset=show_offset(lang, offset)))
        return
    hws = context.bot_data.homeworks
    if offset is None:
        await reply(
            update,
            context,
            t(lang, "tz_group_show", offset=show_offset(lang, await hws.timezone(chat.id))),
        )
        return
    if not await is_moderator(update, svc):
        await reply(update, context, t(lang, "not_moderator"))
        return
    await store_of(svc).set_chat_timezone(chat.id, offset)
    await reply(
        update, context, t(lang, "tz_group_set", offset=show_offset(lang, offset)), important=True
    )
    for hw in await store_of(svc).open_homework(chat.id):  # cards show deadlines in the new zone
        hws.refresh_card(hw.homework_id, force=True)


async def _stop_picked(context: Context, chat: Chat, homework_id: int) -> tuple[Safe | None, bool]:
    """A button of the ``/homework stop`` picker: (callback answer, as an alert)."""
    svc, lang = context.bot_data, context.lang
    hw = await store_of(svc).homework(homework_id)
    if hw is None or hw.chat_id != chat.id:
        return t(lang, "alert_invalid"), True
    if not await context.bot_data.homeworks.end(homework_id, stopped=True):
        return t(lang, "hw_stop_gone"), True
    quiz = svc.catalog.get(hw.quiz_id)
    title = quiz.title(lang) if quiz is not None else "—"
    return t(lang, "hw_stopped", title=title), False


# --- buttons --------------------------------------------------------------------------------------


async def stop_button(
    update: Update, context: Context, data: homework_buttons.HomeworkStopData
) -> Notice:
    """A homework picked in the ``/homework stop`` picker: end it (moderators)."""
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    text, alert = await _stop_picked(context, chat, data.homework_id)
    if not alert and text:  # the picker becomes a note of what was done
        await outbox.edit(context.bot, chat.id, query.message.message_id, text)
    return (None, False) if not alert else (text, True)


async def answer_button(
    update: Update, context: Context, data: homework_buttons.HomeworkAnswerData
) -> Notice:
    """An option tapped in a homework attempt (the student's own, in private: its rule)."""
    svc = context.bot_data
    return await svc.attempts.tap(tap_of(update, svc, data, context.lang))


# --- table entries (joined in bot.app.registry) ----------------------------------------------

#: ``/start hw-<id>`` in a private chat (the card's Start button), routed before the generic /start
HW_START = (
    filters.Regex(callbacks.start_filter_pattern("hw-", "[A-Za-z0-9_-]{1,61}"))
    & filters.ChatType.PRIVATE
)


async def homework_from_card(update: Update, context: Context) -> None:
    """``/start qh-N`` in a group (a saved quiz's "set as homework" link, the group chosen
    there): asks the moderator who followed it for how long stored quiz N runs as homework."""
    found = await card_quiz(update, context, callbacks.GROUP_HOMEWORK_PREFIX)
    user = update.effective_user
    if found is None or user is None:
        return
    lang, quiz = found
    await reply(
        update,
        context,
        t(lang, "hw_pick_duration", title=quiz.title(lang)),
        important=True,
        markup=homework_views.homework_duration_keyboard(lang, quiz.id, user.id),
    )


async def duration_button(
    update: Update, context: Context, data: homework_buttons.HomeworkDurationData
) -> Notice:
    """A duration picked under a saved quiz's link (its rule lets only the moderator who
    followed it pick, in the group), of a quiz they may start: the homework is set, once."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None
    message = query.message
    lang = context.lang
    quiz = svc.authored.may_start(data.quiz_id, data.user_id)
    if not isinstance(message, Message) or quiz is None:
        return t_plain(lang, "alert_invalid"), True
    offered = message.reply_markup.inline_keyboard if message.reply_markup else ()
    if not any(b.callback_data == query.data for row in offered for b in row):
        return t_plain(lang, "alert_invalid"), True
    duration = homework_buttons.HOMEWORK_DURATIONS[data.index]
    words = homework_views.duration_words(lang, duration)
    if data.seconds is None:  # then each question's time, on the same message
        own = quiz.seconds or svc.settings.question_seconds
        await outbox.edit(
            context.bot,
            message.chat.id,
            message.message_id,
            t(
                lang,
                "hw_pick_seconds",
                title=quiz.title(lang),
                duration=words,
                typed=TYPED_MIN_SECONDS,
            ),
            markup=homework_views.homework_seconds_keyboard(lang, data, own),
        )
        return None, False
    key = f"hd:{message.chat.id}:{message.message_id}"  # one homework per link followed
    chat_id, thread = message.chat.id, thread_of(message)
    if not await _set(
        svc, chat_id, thread, quiz, lang, data.user_id, duration, data.seconds, key=key
    ):
        return t_plain(lang, "alert_invalid"), True  # picked already (a double tap, redelivery)
    await outbox.edit(
        context.bot,
        message.chat.id,
        message.message_id,
        t(lang, "hw_duration_set", title=quiz.title(lang), duration=words),
    )
    return None, False


async def _set(
    svc: Services,
    chat_id: int,
    thread_id: int,
    quiz: Quiz,
    lang: Lang,
    set_by: int,
    duration: int,
    seconds: int | None = None,
    *,
    key: str | None = None,
) -> bool:
    """Set ``quiz`` as a group's homework (in topic ``thread_id``) for ``duration`` seconds,
    ``seconds`` for each question (None: the quiz's own; a typed one gets at least
    ``TYPED_MIN_SECONDS`` either way); with ``key`` (a button's action) once: False if that
    action set it already."""
    hw = await svc.homeworks.create(
        chat_id,
        thread_id,
        quiz,
        seconds=seconds or quiz.seconds or svc.settings.question_seconds,
        lang=lang,
        set_by=set_by,
        duration=duration,
        key=key,
    )
    return hw is not None


#: ``/start qh-N`` in a group: the card's "set as homework" link added the bot (or found it) there
HOMEWORK_FROM_CARD = filters.Regex(
    callbacks.start_filter_pattern(callbacks.GROUP_HOMEWORK_PREFIX, "[1-9][0-9]{0,15}")
) & (filters.ChatType.GROUPS)

COMMANDS = (
    Command("start", start_homework, who="anyone", where="private", filters=HW_START),
    Command(
        "start", homework_from_card, who="moderator", where="group", filters=HOMEWORK_FROM_CARD
    ),
    Command(
        "homework",
        homework_command,
        who="anyone",
        where="group",
        help="help_homework",
        menu="cmd_homework_list",
        mod_help="help_homework_mod",
        mod_menu="cmd_homework",
    ),
    Command(
        "timezone",
        timezone_command,
        who="anyone",
        where="both",
        help="help_timezone",
        menu="cmd_timezone",
        mod_menu="cmd_timezone",
    ),
)
BUTTONS = (
    Button(homework_buttons.HomeworkAnswerData, answer_button, who="participant", where="private"),
    Button(homework_buttons.HomeworkStopData, stop_button, who="moderator", where="group"),
    Button(homework_buttons.HomeworkDurationData, duration_button, who="setter", where="group"),
)
