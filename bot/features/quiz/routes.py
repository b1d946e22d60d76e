"""Thin handlers for the quiz commands and buttons: parse, check, call a service, reply."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import Chat, Message, Update
from telegram.constants import ChatMemberStatus
from telegram.ext import filters

from bot import render
from bot.banks.resolver import Choice, Found, named
from bot.core.bank import MAX_SECONDS, MIN_SECONDS
from bot.core.limits import ALERT_LIMIT
from bot.features.quiz.store import store_of
from bot.i18n import parse_lang, t, t_plain, whole_number
from bot.i18n.markup import join
from bot.render import callbacks
from bot.routing import guard
from bot.routing.replies import card_quiz, is_moderator, language, offer_quizzes, reply, thread_of
from bot.routing.routes import Button, Command, Notice
from bot.routing.taps import tap_of
from bot.services.container import Context
from bot.tg import outbox

log = logging.getLogger(__name__)


async def start(update: Update, context: Context) -> None:
    """Greet and explain, in the user's language."""
    await reply(update, context, t(context.lang, "start"))


async def quiz(update: Update, context: Context) -> None:
    """``/quiz``: list quizzes; ``/quiz NAME [SECONDS]``: start one (group) or practise it."""
    svc = context.bot_data
    chat, message, user = update.effective_chat, update.effective_message, update.effective_user
    if chat is None or message is None or user is None:
        return
    lang = context.lang
    args = context.args or []
    private = chat.type == Chat.PRIVATE
    mod = private or await is_moderator(update, svc)
    if not args:
        # the chat's list, then the stored quizzes this user may start here (own ones:
        # moderators), from their metadata: listing reads no questions
        listed = svc.resolver.listing(chat.id, user.id, own=mod)
        svc.resolver.remember(chat.id, user.id, listed)
        head = "practice_pick" if private else "quiz_list" if mod else "quiz_list_here"
        text = render.quiz_list(listed, lang, head)
        # start buttons only where the reader may press them: practice, in a private chat
        await reply(
            update,
            context,
            text if private or not listed else join("\n\n", [text, t(lang, "quiz_list_mods")]),
            important=mod,
            markup=render.start_keyboard(listed[: render.list_fit(listed, lang, head)], lang)
            if private and listed
            else None,
        )
        return
    choices = svc.resolver.startable(chat.id, user.id, own=mod)
    if not mod:
        await reply(update, context, t(lang, "not_moderator"))
        return
    request = parse_quiz_args(args, lambda text: svc.resolver.find(text, choices, chat.id, user.id))
    if request.choice is None:
        await offer_quizzes(update, context, "quiz", request.missed or Found(None))
        return
    if request.usage:
        await reply(
            update,
            context,
            t(lang, "quiz_usage", low=MIN_SECONDS, high=MAX_SECONDS),
            important=True,
        )
        return
    chosen = request.choice.quiz
    seconds = request.seconds or chosen.seconds or svc.settings.question_seconds
    if private:
        wait = await guard.practice_refusal(context, user.id, chosen)
        if wait is not None:
            await reply(update, context, wait)
            return
        await svc.practice.start(chat.id, chosen, lang, svc.rng)
        return
    started = await svc.groups.start(
        chat.id,
        thread_of(message),
        chosen,
        seconds=seconds,
        lang=lang,
        started_by=user.id,
        rng=svc.rng,
    )
    if not started:
        await reply(update, context, t(lang, "quiz_running"), important=True)


@dataclass(frozen=True, slots=True)
class QuizArgs:
    """What ``/quiz NAME [SECONDS]`` asks for, checked.

    ``choice`` is None when no quiz the sender may start answers to NAME (``options``: what to
    offer instead); ``usage`` is True when the rest is malformed (too many arguments, SECONDS
    not a whole number in range); ``seconds`` is None when not given.
    """

    choice: Choice | None
    seconds: int | None = None
    usage: bool = False
    missed: Found | None = None


def parse_quiz_args(args: Sequence[str], find: Callable[[str], Found]) -> QuizArgs:
    """Parse the (non-empty) arguments of ``/quiz``: a quiz (name, title of several words, or a
    listed number), then at most SECONDS; never raises."""
    found, rest = named(args, find)
    if found.choice is None:
        return QuizArgs(None, missed=found)
    if len(rest) > 1:
        return QuizArgs(found.choice, usage=True)
    if rest:
        seconds = _seconds(rest[0])
        return QuizArgs(found.choice, seconds or None, usage=seconds == 0)
    return QuizArgs(found.choice)


def _seconds(raw: str) -> int:
    """Seconds per question from a command argument; 0 when invalid or out of range."""
    return whole_number(raw, MIN_SECONDS, MAX_SECONDS) or 0


async def _running_here(update: Update, context: Context) -> Any:
    """The group run of this chat and topic; None after saying no quiz runs here."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return None
    lang = context.lang
    run = context.bot_data.groups.running(chat.id, thread_of(message))
    if run is None:
        await reply(update, context, t(lang, "quiz_not_running"), important=True)
    return run


async def next_question(update: Update, context: Context) -> None:
    """Close the open question now (moderators)."""
    run = await _running_here(update, context)
    if run is not None and run.engine.phase == "open":
        await context.bot_data.groups.close(run.run_id, expect=run.engine.current)


async def stop(update: Update, context: Context) -> None:
    """End the quiz now and post the results (moderators)."""
    run = await _running_here(update, context)
    if run is not None:
        await context.bot_data.groups.stop(run.run_id)


async def set_language(update: Update, context: Context) -> None:
    """``/lang bn|en``: the chat's language (moderators in groups, anyone in private)."""
    svc = context.bot_data
    chat = update.effective_chat
    if chat is None:
        return
    lang = context.lang
    chosen = parse_lang(context.args[0]) if context.args and len(context.args) == 1 else None
    if chosen is None:
        await reply(update, context, t(lang, "lang_usage"))
        return
    if chat.type != Chat.PRIVATE and not await is_moderator(update, svc):
        await reply(update, context, t(lang, "not_moderator"))
        return
    await svc.set_chat_language(chat.id, chosen)
    for run in svc.groups.active():  # a running quiz switches from its next message on
        if run.chat_id == chat.id:
            run.lang = chosen
    await reply(update, context, t(chosen, "lang_set"), important=True)


async def start_in_group(update: Update, context: Context) -> None:
    """``/start qs-N`` in a group (the card's "start in a group" link added the bot here):
    offer the quiz's start button, which only the group's moderators may press."""
    found = await card_quiz(update, context, callbacks.GROUP_START_PREFIX)
    if found is None:
        return
    lang, quiz_ = found
    await reply(
        update,
        context,
        t(lang, "group_offer", title=quiz_.title(lang), count=quiz_.group_length),
        important=True,
        markup=render.start_keyboard([quiz_], lang),
    )


async def answer_button(update: Update, context: Context, data: callbacks.AnswerData) -> Notice:
    """An answer button: a group quiz's tap, or a practice tap in a private chat."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    run = svc.groups.by_id(data.run_id)  # live in this chat: its entry's rule
    if run is not None:
        return await svc.groups.tap(tap_of(update, svc, data, run.lang))
    return await svc.practice.tap(tap_of(update, svc, data, context.lang))


async def start_button(update: Update, context: Context, data: callbacks.StartData) -> Notice:
    """A start button under ``/quiz``: practise in private; start the quiz in a group
    (moderators: its entry's rule), if the quiz is one listed here or the user may start."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat, lang, user_id = query.message.chat, context.lang, query.from_user.id
    private = chat.type == Chat.PRIVATE
    token = data.token if private else ""  # a quiz shared by link: practised with its token
    quiz_ = guard.startable_here(svc, data.quiz_id, chat.id, user_id, token=token)
    if quiz_ is None:
        return t_plain(lang, "alert_invalid"), True
    if private:
        if (key := await guard.practice_wait(context, user_id, quiz_)) is not None:
            return t_plain(lang, key, title=quiz_.title(lang))[:ALERT_LIMIT], True
        await svc.practice.start(chat.id, quiz_, lang, svc.rng)
        return None, False
    thread = thread_of(query.message) if isinstance(query.message, Message) else 0
    started = await svc.groups.start(
        chat.id,
        thread,
        quiz_,
        seconds=quiz_.seconds or svc.settings.question_seconds,
        lang=lang,
        started_by=query.from_user.id,
        rng=svc.rng,
    )
    return (None, False) if started else (t(lang, "quiz_running"), True)


async def remember(update: object, context: Context) -> None:
    """Keep group titles and people's names and Telegram languages current (no write unless
    one changed), off the handler's path: a tap's alert never waits for it."""
    if not isinstance(update, Update):
        return
    store = store_of(context.bot_data)
    chat, user = update.effective_chat, update.effective_user
    app = context.application
    if not app.running:  # stopping: no new tasks; names are kept current from the next update
        return
    if (
        chat is not None
        and chat.type in (Chat.GROUP, Chat.SUPERGROUP)
        and not store.knows_chat(chat.id, chat.title, chat.type)
    ):
        app.create_task(store.remember_chat(chat.id, chat.title, chat.type), name="remember-chat")
    if user is not None and not user.is_bot:
        name = render.short_name(user.first_name, user.last_name, user.username)
        lang = parse_lang(user.language_code)
        if not store.knows_user(user.id, name, user.username, lang):
            app.create_task(
                store.remember_user(user.id, name, user.username, lang), name="remember-user"
            )


async def migrated(update: Update, context: Context) -> None:
    """A group became a supergroup: its quiz, leaderboard and history follow it."""
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    svc = context.bot_data
    await svc.groups.migrate(message.chat.id, message.migrate_to_chat_id)
    if message.chat.id in svc.chat_languages:
        svc.chat_languages[message.migrate_to_chat_id] = svc.chat_languages[message.chat.id]
    log.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)


async def membership(update: Update, context: Context) -> None:
    """The bot's own membership changed: a quiz in a group it left ends cleanly."""
    change = update.my_chat_member
    if change is None:
        return
    svc = context.bot_data
    svc.moderators.forget(change.chat.id)
    if change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        for run in svc.groups.active():
            if run.chat_id == change.chat.id:
                await svc.groups.abort(run.run_id, "the bot was removed from the group")


async def admins_changed(update: Update, context: Context) -> None:
    """Someone's rights changed in a group: forget its cached administrators."""
    if update.chat_member is not None:
        context.bot_data.moderators.forget(update.chat_member.chat.id)


async def error_handler(update: object, context: Context) -> None:
    """Log an unexpected error with its update; the user gets a short apology."""
    log.error("unexpected error handling update %s", _describe(update), exc_info=context.error)
    if not isinstance(update, Update) or update.callback_query is not None:
        return
    chat = update.effective_chat
    if chat is None or update.effective_message is None:
        return
    try:
        svc = context.bot_data
        lang = await language(update, svc)
        await outbox.send(
            context.bot,
            chat.id,
            t(lang, "apology"),
            thread_id=thread_of(update.effective_message),
            optional=chat.type != Chat.PRIVATE,
        )
    except Exception:  # the apology itself failed; the error is logged already
        log.warning("could not send an apology to chat %s", chat.id)


def _describe(update: object) -> str:
    if not isinstance(update, Update):
        return repr(update)[:200]
    chat = update.effective_chat
    user = update.effective_user
    kind = "callback" if update.callback_query else "message" if update.message else "other"
    return (
        f"#{update.update_id} ({kind}, chat {chat.id if chat else None}, "
        f"user {user.id if user else None})"
    )


# --- table entries (joined in bot.app.registry) ----------------------------------------------

#: ``/start qs-N`` in a group: the bot was added there by a saved quiz's card
GROUP_START = filters.Regex(
    callbacks.start_filter_pattern(callbacks.GROUP_START_PREFIX, "[1-9][0-9]{0,15}")
) & (filters.ChatType.GROUPS)

COMMANDS = (
    Command("start", start_in_group, who="anyone", where="group", filters=GROUP_START),
    Command(
        "quiz",
        quiz,
        who="anyone",
        where="both",
        help="help_quiz",
        menu="cmd_quiz",
        mod_help="help_quiz_mod",
        mod_menu="cmd_quiz_mod",
    ),
    Command(
        "next", next_question, who="moderator", where="group", help="help_next", menu="cmd_next"
    ),
    Command("stop", stop, who="moderator", where="group", help="help_stop", menu="cmd_stop"),
)
#: listed after every feature's commands in /help and the menus
GENERAL_COMMANDS = (
    Command(
        "lang",
        set_language,
        who="anyone",
        where="both",
        help="help_lang",
        menu="cmd_lang",
        mod_help="help_lang_mod",
        mod_menu="cmd_lang",
    ),
    Command("start", start, who="anyone", where="both", menu="cmd_start"),
)
BUTTONS = (
    Button(callbacks.AnswerData, answer_button, who="participant", where="both"),
    # in a group, its moderators start the quiz; in a private chat, its user practises it
    Button(
        callbacks.StartData,
        start_button,
        who="moderator",
        where="both",
        refused="alert_mod_start",
    ),
)
