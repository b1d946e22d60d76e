"""``/newquiz`` in a private chat: a title, then quiz polls or Aiken text, ``/done`` or ``/cancel``.

The draft lives in the database (one per user), so it survives a restart; every question is
checked when it arrives, and its confirmation carries an Undo button.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from telegram import Message, Poll, Update

from bot.banks.importers import ImportReport
from bot.core.images import MAX_IMAGE_BYTES, STORED_NAME
from bot.features.authoring import buttons as authoring_buttons
from bot.features.authoring import draft_text as text_import
from bot.features.authoring import drafts, photos
from bot.features.authoring.drafts import DraftQuestion, PollFacts
from bot.features.authoring.photos import Photo
from bot.features.authoring.saving import stored_size
from bot.features.authoring.store import store_of
from bot.features.authoring.views import (
    added,
    poll_notes,
    problem_lines,
    quiz_card,
    refused,
    saved_text,
    undo_keyboard,
)
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.routing import guard
from bot.routing.replies import pressed, private_here, reply
from bot.routing.routes import Button, Command, Notice
from bot.services.container import Context, Services
from bot.storage import Draft
from bot.tg import outbox


async def newquiz(update: Update, context: Context) -> None:
    """Start a draft: ask for its title (or take it from the command)."""
    lang = context.lang
    if update.effective_user is None:
        return
    svc = context.bot_data
    user_id = update.effective_user.id
    current = await store_of(svc).draft(user_id)
    if current is not None:  # one draft a user: /newquiz again changes nothing
        count = len(drafts.from_json(current.questions))
        await reply(
            update, context, t(lang, "author_draft_exists", title=current.title or "—", count=count)
        )
        return
    if svc.authoring.full(user_id):
        await reply(
            update, context, t(lang, "author_quiz_limit", limit=drafts.MAX_QUIZZES_PER_AUTHOR)
        )
        return
    title = drafts.check_title(" ".join(context.args or []))
    await store_of(svc).save_draft(
        Draft(user_id, "questions" if title else "title", title, lang, "[]", svc.clock())
    )
    await reply(
        update,
        context,
        t(lang, "author_send_questions", title=title) if title else t(lang, "author_ask_title"),
    )


async def cancel(update: Update, context: Context) -> None:
    """Drop the draft."""
    lang = context.lang
    if update.effective_user is None:
        return
    dropped = await store_of(context.bot_data).drop_draft(update.effective_user.id)
    await reply(update, context, t(lang, "author_cancelled" if dropped else "author_no_draft"))


async def done(update: Update, context: Context) -> None:
    """Validate the draft as a whole and save it as the author's quiz."""
    lang, user = context.lang, context.caller.user
    svc = context.bot_data
    current = await store_of(svc).draft(user.id)
    if current is None:
        await reply(update, context, t(lang, "author_no_draft"))
        return
    questions = drafts.from_json(current.questions)
    if current.title is None:
        await reply(update, context, t(lang, "author_ask_title"))
        return
    if not questions:
        await reply(update, context, t(lang, "author_empty"))
        return
    built = await _build(current, lang, questions, pictures=await _pictures(svc, questions))
    quiz = built.quiz
    if quiz is None or built.yaml_text is None or built.problems:
        await reply(update, context, refused(lang, "author_invalid", problem_lines(built, lang)))
        return
    size = stored_size(built.yaml_text, built.pictures.values())
    if await guard.over_storage(svc, user.id, size):
        await reply(update, context, guard.storage_full(svc, lang))  # the draft stays
        return
    saved = await svc.authoring.save(
        user.id, quiz, built.yaml_text, "polls", current.title, built.pictures.values()
    )
    if saved.row is None:
        await reply(
            update, context, t(lang, "author_quiz_limit", limit=drafts.MAX_QUIZZES_PER_AUTHOR)
        )
        return
    await store_of(svc).drop_draft(user.id)
    card = quiz_card(lang, context.bot.username, saved.row)
    await reply(update, context, saved_text(lang, saved.row), markup=card)


async def poll_sent(update: Update, context: Context) -> None:
    """A poll the author sent: a quiz poll becomes the draft's next question."""
    message = update.effective_message
    if message is None or message.poll is None or update.effective_user is None:
        return
    svc = context.bot_data
    lang = await private_here(update, context)
    if lang is None:
        return
    current = await store_of(svc).draft(update.effective_user.id)
    if current is None or current.title is None:
        await reply(update, context, t(lang, "author_poll_no_draft"))
        return
    found = drafts.from_poll(_facts(message, message.poll))
    if isinstance(found, str):
        await reply(update, context, t(lang, found))
        return
    user_id = update.effective_user.id
    refusal, reserved = await _poll_photo_room(svc, user_id, current, message.poll, lang)
    photo, extras = await photos.poll_media(svc, message.poll, refusal)
    if reserved is not None and photo is None:
        await guard.release_upload(svc, reserved)
    elif reserved is not None and photo is not None:
        over = await guard.settle_upload(svc, user_id, reserved, len(photo.picture.data), lang)
        if over is not None:  # larger than the day's room left: the question without it
            photo, extras = None, replace(extras, photo=False, refused=("upload_photo_room", {}))
    if photo is not None:
        found = replace(found, image=photo.name)
    kept = [photo] if photo is not None else []
    notes = poll_notes(lang, extras)
    await _add(update, context, svc, current, [found], lang, kept=kept, notes=notes)


async def _poll_photo_room(
    svc: Services, user_id: int, current: Draft, poll: Poll, lang: Lang
) -> tuple[tuple[str, dict[str, object]] | None, guard.Reserved | None]:
    """Whether a quiz poll's photo may be taken: why not (an i18n key and its values), or its
    reservation against the daily limits (None: the poll has no photo)."""
    size = photos.poll_photo(poll)
    if size is None:
        return None, None
    pictures = sum(1 for q in drafts.from_json(current.questions) if q.image is not None)
    if pictures >= svc.settings.draft_photos:
        return ("author_photo_limit_reason", {"limit": svc.settings.draft_photos}), None
    reserved = await guard.reserve_upload(svc, user_id, size.file_size or MAX_IMAGE_BYTES, lang)
    if not isinstance(reserved, guard.Reserved):
        return ("upload_photo_room", {}), None
    return None, reserved


async def text_sent(update: Update, context: Context) -> None:
    """Plain text in a private chat while a draft is open: its title, or Aiken questions."""
    message = update.effective_message
    user = update.effective_user
    if message is None or message.text is None or user is None:
        return
    svc = context.bot_data
    current = await store_of(svc).draft(user.id)
    if current is None:
        return  # not writing a quiz: other text is not ours to answer
    lang = await private_here(update, context)
    if lang is None:
        return
    if current.title is None:
        title = drafts.check_title(message.text)
        if title is None:
            await reply(update, context, t(lang, "author_bad_title", limit=200))
            return
        await store_of(svc).save_draft(
            Draft(user.id, "questions", title, current.language, current.questions, svc.clock())
        )
        await reply(update, context, t(lang, "author_send_questions", title=title))
        return
    found = await text_import.aiken_questions(
        svc.parsing, message.text, _lang(current.language, lang), lang
    )
    if found is None:  # the bot stops: asked for again after the restart
        guard.left_unfinished()
    if isinstance(found, str):
        await reply(update, context, found)
        return
    await _add(update, context, svc, current, found, lang)


async def _add(
    update: Update,
    context: Context,
    svc: Services,
    current: Draft,
    new: list[DraftQuestion],
    lang: Lang,
    *,
    kept: Sequence[Photo] = (),
    notes: Sequence[Safe] = (),
) -> None:
    """Append checked questions to the draft, one writer per draft: questions that arrive
    together (polls in one batch) each read the draft the previous one wrote."""
    async with svc.draft_locks.hold(current.user_id):
        fresh = await store_of(svc).draft(current.user_id)
        if fresh is not None and fresh.title is not None:
            await _append(update, context, svc, fresh, new, lang, kept, notes)


async def _append(
    update: Update,
    context: Context,
    svc: Services,
    current: Draft,
    new: list[DraftQuestion],
    lang: Lang,
    kept: Sequence[Photo],
    notes: Sequence[Safe],
) -> None:
    """Append checked questions to the draft (with the photos they name, kept in SQLite once
    they are accepted) and confirm each (the last with Undo), then each note."""
    questions = drafts.from_json(current.questions)
    if len(questions) + len(new) > drafts.MAX_DRAFT_QUESTIONS:
        await reply(
            update, context, t(lang, "author_question_limit", limit=drafts.MAX_DRAFT_QUESTIONS)
        )
        return
    pictures = {p.name: p.picture.data for p in kept}
    built = await _build(current, lang, new, first=len(questions) + 1, pictures=pictures)
    if built.yaml_text is None or built.problems:
        await reply(
            update, context, refused(lang, "author_question_refused", problem_lines(built, lang))
        )
        return
    questions.extend(new)
    await photos.keep(svc, kept)
    await store_of(svc).save_draft(
        Draft(
            current.user_id,
            "questions",
            current.title,
            current.language,
            drafts.to_json(questions),
            svc.clock(),
        )
    )
    number = len(questions)
    rights = [[(i, q.options[i]) for i in q.right_options] for q in new]
    text = added(lang, number - len(new) + 1, rights, number, notes)
    chat = update.effective_chat
    assert chat is not None
    await outbox.send(
        context.bot, chat.id, text, markup=undo_keyboard(lang, number, _stamp(questions[-1]))
    )


async def undo(update: Update, context: Context, data: authoring_buttons.UndoData) -> Notice:
    """The Undo button: drop question N if it is still the draft's last (one writer per draft,
    as for appending)."""
    user_id, _, _ = pressed(update)
    async with context.bot_data.draft_locks.hold(user_id):
        return await _undo(update, context, data)


async def _undo(update: Update, context: Context, data: authoring_buttons.UndoData) -> Notice:
    svc = context.bot_data
    user_id, chat_id, message_id = pressed(update)
    lang = context.lang
    current = await store_of(svc).draft(user_id)
    questions = drafts.from_json(current.questions) if current is not None else []
    if current is None or len(questions) != data.number or _stamp(questions[-1]) != data.stamp:
        return t_plain(lang, "author_undo_stale"), True
    questions.pop()
    await store_of(svc).save_draft(
        Draft(
            user_id,
            current.stage,
            current.title,
            current.language,
            drafts.to_json(questions),
            svc.clock(),
        )
    )
    await outbox.edit(
        context.bot,
        chat_id,
        message_id,
        t(lang, "author_undone", number=data.number, count=len(questions)),
    )
    return None, False


async def _pictures(svc: Services, questions: list[DraftQuestion]) -> dict[str, bytes]:
    """The pictures the draft's questions name, from SQLite, where each was kept as it came."""
    found: dict[str, bytes] = {}
    for name in {q.image for q in questions if q.image is not None}:
        named = STORED_NAME.match(name.rsplit("/", 1)[-1])
        stored = await store_of(svc).image_data(named.group(1)) if named else None
        if stored is not None:
            found[name] = stored[0]
    return found


def _facts(message: Message, poll: Poll) -> PollFacts:
    return PollFacts(
        type=poll.type,
        question=poll.question,
        options=tuple(o.text for o in poll.options),
        correct_ids=tuple(poll.correct_option_ids or ()),
        allows_multiple=poll.allows_multiple_answers,
        explanation=poll.explanation,
        forwarded=message.forward_origin is not None,
    )


def _stamp(question: DraftQuestion) -> int:
    """Ties an Undo button to the question it was made for (not a later one in its place)."""
    return zlib.crc32(question.text.encode("utf-8"))


async def _build(
    current: Draft,
    lang: Lang,
    questions: Sequence[DraftQuestion],
    *,
    first: int = 1,
    pictures: dict[str, bytes],
) -> ImportReport:
    """``drafts.bank`` of ``questions`` in the draft's language, off the event loop (building
    validates every question: a few ms for 200)."""
    assert current.title is not None
    bank = partial(drafts.bank, current.title, _lang(current.language, lang), questions)
    return await asyncio.to_thread(bank, first=first, pictures=pictures)


def _lang(stored: str, fallback: Lang) -> Lang:
    return "bn" if stored == "bn" else "en" if stored == "en" else fallback


# --- table entries (joined in bot.app.registry) ----------------------------------------------

COMMANDS = (
    Command(
        "newquiz", newquiz, who="anyone", where="private", help="help_newquiz", menu="cmd_newquiz"
    ),
    Command("done", done, who="anyone", where="private", help="help_done", menu="cmd_done"),
    Command("cancel", cancel, who="anyone", where="private", help="help_cancel", menu="cmd_cancel"),
)
#: the draft undone is the tapping user's own (drafts are kept per user)
BUTTONS = (Button(authoring_buttons.UndoData, undo, who="anyone", where="private"),)
