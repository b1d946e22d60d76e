"""Answering where a command came from: the chat's language, replies paced for groups, the
moderator test, and callback answers. Shared by every feature's handlers (who may use what,
where: ``bot.routing.access``, run by the registry)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import NamedTuple

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError

from bot import render
from bot.banks.resolver import LIST_SIZE, Choice, Found
from bot.core.bank import Quiz
from bot.i18n import parse_lang, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.services.container import Context, Services
from bot.tg import outbox

log = logging.getLogger(__name__)

SEEN = "👀"  # the reaction that says "seen, not now"
PRIVATE = "✍"  # the reaction that says "answered in your private chat"
REPLY_COOLDOWN = 20.0  # seconds between two optional replies to one student in one group


class Pressed(NamedTuple):
    """Where a button was pressed: by whom, in which chat, under which message."""

    user_id: int
    chat_id: int
    message_id: int


def pressed(update: Update) -> Pressed:
    """The place of the callback query a button handler answers (the registry routes only
    queries that have a message)."""
    query = update.callback_query
    assert query is not None and query.message is not None
    return Pressed(query.from_user.id, query.message.chat.id, query.message.message_id)


def thread_of(message: Message) -> int:
    """The forum topic a message belongs to (0 outside topics)."""
    return message.message_thread_id or 0 if message.is_topic_message else 0


async def language(update: Update, svc: Services) -> Lang:
    """The language to answer in: the chat's choice, else the user's Telegram language."""
    chat = update.effective_chat
    if chat is None:
        return svc.settings.language
    known = svc.chat_languages.get(chat.id)
    if known is not None:  # every update asks (a class's taps too): no coroutine for a hit
        return known
    if chat.type == ChatType.PRIVATE:
        stored = await svc.store.chat_language(chat.id)
        if stored is None:
            user = update.effective_user
            return parse_lang(user.language_code if user else None) or svc.settings.language
    return await svc.chat_language(chat.id)


async def reply(
    update: Update,
    context: Context,
    text: Safe,
    *,
    important: bool = False,
    markup: InlineKeyboardMarkup | None = None,
) -> None:
    """Answer a command where it was sent.

    In a group, replies that are not ``important`` spend the group's budget only when it has
    room, and at most once per student per ``REPLY_COOLDOWN``: spamming commands costs the
    spammer, not the group.
    """
    message = update.effective_message
    chat = update.effective_chat
    if message is None or chat is None:
        return
    svc = context.bot_data
    if await _ephemeral_reply(update, context, text):
        return
    text = await with_language_hint(svc, chat.id, chat.type, text)
    optional = chat.type != ChatType.PRIVATE and not important
    if optional:
        user_id = update.effective_user.id if update.effective_user else 0
        key = (chat.id, user_id)
        now = svc.clock()
        cooldowns = svc.cooldowns
        if now - cooldowns.get(key, -REPLY_COOLDOWN) < REPLY_COOLDOWN:
            await held_back(update, context, text)
            return
        cooldowns[key] = now
        if len(cooldowns) > 10_000:
            cooldowns.clear()
    sent = await outbox.send(
        context.bot,
        chat.id,
        text,
        thread_id=thread_of(message),
        optional=optional,
        reply_to=message.message_id,
        max_wait=svc.settings.group_window,
        markup=markup,
    )
    if optional and not sent.ok:  # the group's budget had no room: never silent
        await held_back(update, context, text)


async def with_language_hint(svc: Services, chat_id: int, kind: str, text: Safe) -> Safe:
    """The bot's first reply in a group that never chose a language ends with how to choose
    it, in both languages (an English teacher's group starts in the default language)."""
    if kind == ChatType.PRIVATE or chat_id in svc.language_hinted:
        return text
    svc.language_hinted.add(chat_id)
    if await svc.store.chat_language(chat_id) is not None:
        return text
    return join("\n\n", [text, t(await svc.chat_language(chat_id), "lang_hint")])


#: how long after a user's ephemeral command the reply may still be sent (the spec: "an
#: ephemeral message may only be replied to within 15 seconds"; a second kept for the way)
EPHEMERAL_REPLY_WINDOW = 14.0


async def _ephemeral_reply(update: Update, context: Context, text: Safe) -> bool:
    """Answer a student's ephemeral command (Bot API 10.2: only its sender and the bot see it)
    with an ephemeral reply to it, spending none of the group's budget; if Telegram refuses
    it (or no slot came in time), in their private chat. False when the command was a visible
    one, or neither worked (then it is answered as any command: in the group)."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None or chat.type == ChatType.PRIVATE:
        return False
    ident = message.api_kwargs.get("ephemeral_message_id")
    if not isinstance(ident, int):
        return False
    to = outbox.Ephemeral(user.id, reply_to=ident, max_wait=EPHEMERAL_REPLY_WINDOW)
    sent = await outbox.send_ephemeral(context.bot, chat.id, to, text, thread_id=thread_of(message))
    if sent.ok:
        return True
    return await _privately(update, context, text)


async def _privately(update: Update, context: Context, text: Safe) -> bool:
    """A reply to a command in a group, sent to its sender's private chat (if they started
    the bot), headed with the group's name."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    svc = context.bot_data
    lang = await svc.recaps.language_of(user.id, await language(update, svc))
    head = t(lang, "held_private", group=chat.title or t_plain(lang, "your_group"))
    return (await outbox.send(context.bot, user.id, join("\n", [head, text]))).ok


async def held_back(update: Update, context: Context, text: Safe) -> None:
    """A student's command the group gets no reply to (their cooldown, or the group's budget
    full): the answer goes to their private chat if they started the bot, with a ✍ reaction
    on the command ("see your private chat"), at most once per cooldown; else a 👀 reaction
    ("seen, not now"). Reactions cost none of the group's budget of sends and edits."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return
    svc = context.bot_data
    key = (user.id, 0)  # a user's private copies (group keys are (chat, user), chat < 0)
    now = svc.clock()
    emoji = SEEN
    if now - svc.cooldowns.get(key, -REPLY_COOLDOWN) >= REPLY_COOLDOWN:
        svc.cooldowns[key] = now
        emoji = PRIVATE if await _privately(update, context, text) else SEEN
    await outbox.react(context.bot, chat.id, message.message_id, emoji)


async def quiz_named(
    update: Update,
    context: Context,
    command: str,
    text: str,
    choices: Sequence[Choice],
) -> Choice | None:
    """The quiz ``text`` names among ``choices`` (the caller's visibility rule); None after
    answering with a short list of buttons (none named, an unknown name, or several match)."""
    found = context.bot_data.resolver.find(text, choices, *_who_where(update))
    if found.choice is not None:
        return found.choice
    await offer_quizzes(update, context, command, found)
    return None


async def offer_quizzes(update: Update, context: Context, command: str, found: Found) -> None:
    """Which quiz? A short numbered list, a button each; remembered so "/command 2" works."""
    lang = context.lang
    shown = list(found.options[:LIST_SIZE])
    context.bot_data.resolver.remember(*_who_where(update), shown)
    await reply(
        update,
        context,
        render.quiz_choices(lang, command, shown, found),
        important=True,
        markup=render.pick_keyboard(command, shown, lang) if shown else None,
    )


async def card_quiz(update: Update, context: Context, prefix: str) -> tuple[Lang, Quiz] | None:
    """The stored quiz a saved quiz's ``?startgroup=PREFIX N`` link names, if the sender may
    start it (their own, or published); None after saying the link is no longer valid."""
    svc = context.bot_data
    args, user = context.args or [], update.effective_user
    lang = context.lang
    number = args[0].removeprefix(prefix) if args else ""
    quiz = (
        svc.authored.may_start(f"u.{number}", user.id)
        if number.isdecimal() and user is not None
        else None
    )
    if quiz is None:
        await reply(update, context, t(lang, "alert_invalid"), important=True)
        return None
    return lang, quiz


def _who_where(update: Update) -> tuple[int, int]:
    chat, user = update.effective_chat, update.effective_user
    return (chat.id if chat else 0), (user.id if user else 0)


async def is_moderator(update: Update, svc: Services) -> bool:
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None and message is not None
    user_id = update.effective_user.id if update.effective_user else None
    sender = message.sender_chat.id if message.sender_chat else None
    return await svc.moderators.may_moderate(chat, user_id, sender)


async def private_here(update: Update, context: Context) -> Lang | None:
    """For private messages the registry does not route (files, a draft's polls and text): the
    language to answer in, or None after saying this belongs in a private chat."""
    chat = update.effective_chat
    if chat is None or update.effective_message is None:
        return None
    lang = await language(update, context.bot_data)
    if chat.type == ChatType.PRIVATE:
        return lang
    await reply(update, context, t(lang, "private_only"))
    return None


async def answer_query(query: CallbackQuery, text: str | None, alert: bool, svc: Services) -> None:
    """Answer a callback query (in the reply to its webhook request if that still waits); a
    late or failed answer is logged, never raised."""
    replies = svc.webhook_replies
    if replies is not None and replies.offer(query.id, text, alert):
        return
    try:
        await svc.answers.answer(query.id, text, alert)
    except BadRequest as exc:  # "query is too old": the student waited too long; nothing to do
        log.info("callback query not answered: %s", exc)
    except TelegramError as exc:
        log.warning("callback query not answered: %s", exc)
