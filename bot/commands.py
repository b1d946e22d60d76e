"""Thin handlers for the quiz commands and buttons: parse, check, call a service, reply."""

from __future__ import annotations

import logging
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import Chat, Message, Update
from telegram.ext import ContextTypes

from bot import callbacks, outbox, recap, render, review, stats
from bot.bank import MAX_SECONDS, MIN_SECONDS, QUIZ_ID
from bot.i18n import ascii_digits, parse_lang, t
from bot.replies import answer_query, is_moderator, language, moderator_here, reply, thread_of
from bot.services import Services, services

log = logging.getLogger(__name__)



def _names(svc: Services) -> str:
    return ", ".join(f"<code>{q}</code>" for q in sorted(svc.quizzes)) or "—"


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Greet and explain, in the user's language."""
    svc = services(context)
    lang = await language(update, svc)
    if await recap.start_payload(update, context, lang):  # /start recap_<run>: the deep link
        return
    await reply(update, context, t(lang, "start"))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """List the commands for students and moderators."""
    svc = services(context)
    await reply(update, context, t(await language(update, svc), "help"))


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/quiz``: list quizzes; ``/quiz NAME [SECONDS]``: start one (group) or practise it."""
    svc = services(context)
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None or update.effective_user is None:
        return
    lang = await language(update, svc)
    args = context.args or []
    private = chat.type == Chat.PRIVATE
    quizzes = [svc.quizzes[k] for k in sorted(svc.quizzes)]
    if not args:
        head = "practice_pick" if private else "quiz_list"
        mod = private or await is_moderator(update, svc)
        # a student's list is an optional reply under the cooldown: spamming /quiz costs them
        await reply(update, context, render.quiz_list(quizzes, lang, head), important=mod,
                    markup=render.start_keyboard(quizzes, lang) if quizzes else None)
        return
    if not private and not await is_moderator(update, svc):
        await reply(update, context, t(lang, "not_moderator"))
        return
    request = parse_quiz_args(args, svc.quizzes)
    if request.name is None:
        await reply(update, context, t(lang, "quiz_unknown", names=_names(svc)), important=True)
        return
    if request.usage:
        await reply(update, context, t(lang, "quiz_usage", low=MIN_SECONDS, high=MAX_SECONDS),
                    important=True)
        return
    name = request.name
    seconds = request.seconds or svc.quizzes[name].seconds or svc.settings.question_seconds
    if private:
        await svc.practice.start(chat.id, svc.quizzes[name], lang, svc.rng)
        return
    started = await svc.groups.start(chat.id, thread_of(message), svc.quizzes[name],
                                     seconds=seconds, lang=lang,
                                     started_by=update.effective_user.id, rng=svc.rng)
    if not started:
        await reply(update, context, t(lang, "quiz_running"), important=True)


@dataclass(frozen=True, slots=True)
class QuizArgs:
    """What ``/quiz NAME [SECONDS]`` asks for, checked.

    ``name`` is None when no served quiz has that name; ``usage`` is True when the rest is
    malformed (too many arguments, SECONDS not a whole number in range); ``seconds`` is None
    when not given.
    """

    name: str | None
    seconds: int | None = None
    usage: bool = False


def parse_quiz_args(args: Sequence[str], quiz_ids: Container[str]) -> QuizArgs:
    """Parse the (non-empty) arguments of ``/quiz`` against the served quiz ids; never raises."""
    name = args[0].casefold() if args else ""
    if not QUIZ_ID.match(name) or name not in quiz_ids:
        return QuizArgs(None)
    if len(args) > 2:
        return QuizArgs(name, usage=True)
    if len(args) == 2:
        seconds = _seconds(args[1])
        return QuizArgs(name, seconds or None, usage=seconds == 0)
    return QuizArgs(name)


def _seconds(raw: str) -> int:
    """Seconds per question from a command argument; 0 when invalid or out of range."""
    text = ascii_digits(raw)
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return 0
    value = int(text)
    return value if MIN_SECONDS <= value <= MAX_SECONDS else 0


async def _running_here(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Any:
    """The group run of this chat and topic, after the moderator check; None if it replied."""
    lang = await moderator_here(update, context)
    chat, message = update.effective_chat, update.effective_message
    if lang is None or chat is None or message is None:
        return None
    run = services(context).groups.running(chat.id, thread_of(message))
    if run is None:
        await reply(update, context, t(lang, "quiz_not_running"), important=True)
    return run


async def next_question(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Close the open question now (moderators)."""
    run = await _running_here(update, context)
    if run is not None and run.engine.phase == "open":
        await services(context).groups.close(run.run_id, expect=run.engine.current)


async def stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """End the quiz now and post the results (moderators)."""
    run = await _running_here(update, context)
    if run is not None:
        await services(context).groups.stop(run.run_id)


async def set_language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/lang bn|en``: the chat's language (moderators in groups, anyone in private)."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    lang = await language(update, svc)
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


async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every inline button. Each callback query is answered, forged ones included."""
    query = update.callback_query
    if query is None:
        return
    svc = services(context)
    try:
        text, alert = await _button(update, context, svc)
    except Exception:
        await answer_query(query, t(await language(update, svc), "apology"), True, svc)
        raise
    await answer_query(query, text, alert, svc)


async def _button(update: Update, context: ContextTypes.DEFAULT_TYPE,
                  svc: Services) -> tuple[str | None, bool]:
    query = update.callback_query
    assert query is not None
    user = query.from_user
    message = query.message
    chat = message.chat if message is not None else None
    data = callbacks.parse(query.data)
    if data is None or chat is None or message is None:
        return t(await language(update, svc), "alert_invalid"), True
    if isinstance(data, callbacks.AnswerData):
        run = svc.groups.by_id(data.run_id)
        if run is not None:
            if run.chat_id != chat.id:
                return t(run.lang, "alert_invalid"), True
            name = render.short_name(user.first_name, user.last_name, user.username)
            _, text = await svc.groups.tap(run, update, data.q_index, data.shown, name)
            return text, True
        if chat.type == Chat.PRIVATE:
            result = await svc.practice.tap(data.run_id, chat.id, user.id, message.message_id,
                                            data.q_index, data.shown)
            if result is not None:
                return result, False
        return t(await language(update, svc), "alert_over"), True
    if isinstance(data, callbacks.StartData):
        return await _start_button(update, context, svc, data.quiz_id)
    if isinstance(data, callbacks.ResetData):
        return await stats.reset_button(update, context, data)
    lang = await language(update, svc)
    if chat.type != Chat.PRIVATE:  # review and reminder buttons live in private chats only
        return t(lang, "alert_invalid"), True
    if isinstance(data, callbacks.ReviewData):
        return await review.reviews(context).tap(chat.id, user.id, message.message_id, data,
                                                 lang)
    await review.timezone_chosen(context, user.id, chat.id, message.message_id, data, lang)
    return None, False


async def _start_button(update: Update, context: ContextTypes.DEFAULT_TYPE, svc: Services,
                        quiz_id: str) -> tuple[str | None, bool]:
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = await language(update, svc)
    quiz_ = svc.quizzes.get(quiz_id)
    if quiz_ is None:
        return t(lang, "alert_invalid"), True
    if chat.type == Chat.PRIVATE:
        await svc.practice.start(chat.id, quiz_, lang, svc.rng)
        return None, False
    if not await svc.moderators.may_moderate(chat, query.from_user.id):
        return t(lang, "alert_mod_only"), True
    thread = thread_of(query.message) if isinstance(query.message, Message) else 0
    started = await svc.groups.start(chat.id, thread, quiz_,
                                     seconds=quiz_.seconds or svc.settings.question_seconds,
                                     lang=lang, started_by=query.from_user.id, rng=svc.rng)
    return (None, False) if started else (t(lang, "quiz_running"), True)


async def remember(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Keep group titles and people's names current (no write unless one changed), off the
    handler's path: a tap's alert never waits for it."""
    if not isinstance(update, Update):
        return
    store = services(context).store
    chat, user = update.effective_chat, update.effective_user
    app = context.application
    if not app.running:  # stopping: no new tasks; names are kept current from the next update
        return
    if (chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)
            and not store.knows_chat(chat.id, chat.title, chat.type)):
        app.create_task(store.remember_chat(chat.id, chat.title, chat.type),
                        name="remember-chat")
    if user is not None and not user.is_bot:
        name = render.short_name(user.first_name, user.last_name, user.username)
        if not store.knows_user(user.id, name, user.username):
            app.create_task(store.remember_user(user.id, name, user.username),
                            name="remember-user")


async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its quiz, leaderboard and history follow it."""
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    svc = services(context)
    await svc.groups.migrate(message.chat.id, message.migrate_to_chat_id)
    if message.chat.id in svc.chat_languages:
        svc.chat_languages[message.migrate_to_chat_id] = svc.chat_languages[message.chat.id]
    log.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)


async def membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot's own membership changed: a quiz in a group it left ends cleanly."""
    change = update.my_chat_member
    if change is None:
        return
    svc = services(context)
    svc.moderators.forget(change.chat.id)
    if change.new_chat_member.status in ("left", "kicked"):
        for run in svc.groups.active():
            if run.chat_id == change.chat.id:
                await svc.groups.abort(run.run_id, "the bot was removed from the group")


async def admins_changed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Someone's rights changed in a group: forget its cached administrators."""
    if update.chat_member is not None:
        services(context).moderators.forget(update.chat_member.chat.id)


async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log an unexpected error with its update; the user gets a short apology."""
    log.error("unexpected error handling update %s", _describe(update), exc_info=context.error)
    if not isinstance(update, Update) or update.callback_query is not None:
        return
    chat = update.effective_chat
    if chat is None or update.effective_message is None:
        return
    try:
        svc = services(context)
        lang = await language(update, svc)
        await outbox.send(context.bot, chat.id, t(lang, "apology"),
                          thread_id=thread_of(update.effective_message),
                          optional=chat.type != Chat.PRIVATE)
    except Exception:  # the apology itself failed; the error is logged already
        log.warning("could not send an apology to chat %s", chat.id)


def _describe(update: object) -> str:
    if not isinstance(update, Update):
        return repr(update)[:200]
    chat = update.effective_chat
    user = update.effective_user
    kind = "callback" if update.callback_query else "message" if update.message else "other"
    return (f"#{update.update_id} ({kind}, chat {chat.id if chat else None}, "
            f"user {user.id if user else None})")
