"""Editing a stored quiz in Telegram, from its card (/myquizzes, or after /done and an upload):
its title, time per question, and each question's text, options, right answer, options'
feedback and explanation, one field at a time. A tap on a field stores the pending edit (one per
user, ``quiz_edits``) and asks for the new value; the author's next plain text sets it, checked by
the bank validator, and saves a new version of the quiz: same name, links and history, earlier
versions kept for the runs planned with them. Cancel drops the pending edit. After a file whose
title is one of the author's quizzes, the same buttons replace that quiz with it or keep both."""

from __future__ import annotations

import logging

from telegram import Update

from bot.banks.authored import parse
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.problems import BankError
from bot.features.authoring import buttons as authoring_buttons
from bot.features.authoring import edit_views as render
from bot.features.authoring.drafts import MAX_QUIZZES_PER_AUTHOR
from bot.features.authoring.editing import Refused, edited
from bot.features.authoring.queries import PendingEdit
from bot.features.authoring.store import store_of
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.render import bank_limits
from bot.routing.replies import language, pressed, private_here, reply
from bot.routing.routes import Button, Notice
from bot.services.container import Context
from bot.tg import outbox

log = logging.getLogger(__name__)

TYPED_FIELDS = frozenset("tswokfe")  # a value the author sends as text
REPLACE = "replace"  # the pending edit of an uploaded quiz waiting for "replace or keep both"


async def edit_button(
    update: Update, context: Context, data: authoring_buttons.QuizEditData
) -> Notice:
    """A step of editing a stored quiz (the guard let only its author, privately)."""
    svc = context.bot_data
    user_id, chat_id, message_id = pressed(update)
    lang = await language(update, svc)
    invalid = t_plain(lang, "alert_invalid"), True
    row = svc.authored.row(f"u.{data.quiz_no}")
    quiz = svc.catalog.get(row.quiz_id) if row is not None else None
    if row is None or quiz is None:
        return invalid
    field, number = data.field, data.number
    if field == "c":
        await store_of(svc).drop_pending_edit(user_id)
        await outbox.edit(context.bot, chat_id, message_id, t(lang, "edit_cancelled"))
        return None, False
    if field in ("r", "n"):
        return await _uploaded(context, data, chat_id, message_id, lang)
    if number > len(quiz.questions) or (field in "qwokfe") != (number > 0):
        return invalid
    if field == "m":
        text, markup = render.quiz_menu(lang, row.quiz_no, row.name, quiz)
        await outbox.send(context.bot, chat_id, text, markup=markup)
        return None, False
    if field == "q":
        text, markup = render.question_menu(lang, row.quiz_no, quiz, number)
        await outbox.send(context.bot, chat_id, text, markup=markup)
        return None, False
    if field in "okf" and quiz.questions[number - 1].typed:
        return t_plain(lang, "edit_typed_only"), True
    await store_of(svc).save_pending_edit(
        PendingEdit(user_id, row.quiz_no, number, field, None, svc.clock())
    )
    prompt = render.prompt(lang, quiz, number, field)
    await outbox.send(
        context.bot, chat_id, prompt, markup=render.cancel_keyboard(lang, row.quiz_no)
    )
    return None, False


async def text_sent(update: Update, context: Context) -> bool:
    """The author's text while a field is being edited: the new value, saved as a new version
    of the quiz (or why it does not fit, the edit still waiting). False: no edit waits for it."""
    message, user = update.effective_message, update.effective_user
    if message is None or message.text is None or user is None:
        return False
    svc = context.bot_data
    pending = await store_of(svc).pending_edit(user.id)
    if pending is None or pending.field not in TYPED_FIELDS:
        return False
    lang = await private_here(update, context)
    if lang is None:
        return True
    row = svc.authored.row(f"u.{pending.quiz_no}")
    quiz = svc.catalog.get(row.quiz_id) if row is not None else None
    if row is None or quiz is None or row.author_id != user.id:
        await store_of(svc).drop_pending_edit(user.id)
        await reply(update, context, t(lang, "edit_gone"))
        return True
    cancel = render.cancel_keyboard(lang, row.quiz_no)
    changed = edited(quiz, pending.number, pending.field, message.text, lang)
    if isinstance(changed, Refused):
        await reply(update, context, t(lang, changed.key, **changed.values), markup=cancel)
        return True
    try:  # the one validator, as for a file
        parse(write_yaml(changed), row.name, bank_limits(), row.quiz_id)
    except BankError as refused:
        text = refused.problems[0].text(lang) if refused.problems else ""
        await reply(update, context, render.problem(lang, text), markup=cancel)
        return True
    saved = await svc.authoring.replace(row, changed)
    await store_of(svc).drop_pending_edit(user.id)
    if saved is None:
        await reply(update, context, t(lang, "edit_gone"))
        return True
    fresh, version = saved
    log.info(
        "stored quiz %s edited (%s of question %s)", row.quiz_id, pending.field, pending.number
    )
    text, markup = render.quiz_menu(lang, fresh.quiz_no, fresh.name, changed)
    await reply(update, context, render.saved(lang, changed, fresh.name, version))
    await reply(update, context, text, markup=markup)
    return True


async def _uploaded(
    context: Context,
    data: authoring_buttons.QuizEditData,
    chat_id: int,
    message_id: int,
    lang_: Lang,
) -> Notice:
    """Replace the quiz with the file just sent (a new version), or keep both."""
    svc = context.bot_data
    pending = await store_of(svc).pending_edit(chat_id)
    row = svc.authored.row(f"u.{data.quiz_no}")
    if pending is None or pending.field != REPLACE or pending.quiz_no != data.quiz_no:
        return t_plain(lang_, "alert_invalid"), True
    if row is None or pending.payload is None:
        return t_plain(lang_, "alert_invalid"), True
    origin, _, body = pending.payload.partition("\n")
    new = Quiz.from_json(body, row.quiz_id, row.name)
    await store_of(svc).drop_pending_edit(chat_id)
    if data.field == "r":
        saved = await svc.authoring.replace(row, new)
        if saved is None:
            return t_plain(lang_, "alert_invalid"), True
        fresh, version = saved
        text = render.saved(lang_, new, fresh.name, version)
    else:
        kept = await svc.authoring.save(
            chat_id, new, write_yaml(new), origin, new.title(new.language)
        )
        if kept.row is None:
            return t_plain(lang_, "author_quiz_limit", limit=MAX_QUIZZES_PER_AUTHOR), True
        text = t(
            lang_,
            "author_saved",
            title=kept.row.title,
            name=kept.row.name,
            count=kept.row.question_count,
        )
    await outbox.edit(context.bot, chat_id, message_id, text)
    return None, False


BUTTONS = (Button(authoring_buttons.QuizEditData, edit_button, who="author", where="private"),)
