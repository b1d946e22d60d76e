"""Managing one's stored quizzes: ``/myquizzes``, ``/deletequiz``, ``/share``, ``/publish``, and
the ``/start sq-TOKEN`` share links that let anyone practise a quiz privately."""

from __future__ import annotations

import secrets

from telegram import Chat, Update
from telegram.ext import filters
from telegram.helpers import create_deep_linked_url

from bot.features.authoring import buttons as authoring_buttons
from bot.features.authoring.drafts import MAX_QUIZZES_PER_AUTHOR, name_key, slug
from bot.features.authoring.edit_views import my_quizzes_keyboard
from bot.features.authoring.queries import NameTaken
from bot.features.authoring.store import store_of
from bot.features.authoring.views import delete_keyboard, my_quizzes
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import callbacks
from bot.routing import guard
from bot.routing.replies import pressed, quiz_named, reply
from bot.routing.routes import Button, Command, Notice
from bot.services.container import Context
from bot.storage import AuthoredQuiz
from bot.tg import outbox

SHARE_PREFIX = "sq-"


async def myquizzes(update: Update, context: Context) -> None:
    """List the sender's stored quizzes with their question counts and runs."""
    lang = context.lang
    if update.effective_user is None:
        return
    svc = context.bot_data
    rows = svc.authored.of_author(update.effective_user.id)
    runs = await store_of(svc).run_counts([r.quiz_id for r in rows])
    edit = my_quizzes_keyboard(lang, [(r.quiz_no, r.name) for r in rows])
    await reply(update, context, my_quizzes(lang, rows, runs, MAX_QUIZZES_PER_AUTHOR), markup=edit)


async def _own(
    update: Update, context: Context, command: str, words: list[str] | None = None
) -> tuple[Lang, AuthoredQuiz] | None:
    """The sender's quiz named in the command (admins may name anyone's), after answering with
    a list of their quizzes when there is none."""
    lang, user = context.lang, context.caller.user
    svc = context.bot_data
    admin = user.id in svc.settings.admin_ids
    text = " ".join(context.args or [] if words is None else words)
    picked = await quiz_named(
        update, context, command, text, svc.resolver.own(user.id, admin=admin)
    )
    row = svc.authored.row(picked.quiz_id) if picked is not None else None
    return None if row is None else (lang, row)


async def rename(update: Update, context: Context) -> None:
    """``/rename NAME NEW``: a new name for one of the sender's quizzes."""
    args = context.args or []
    if len(args) < 2:
        await reply(update, context, t(context.lang, "rename_usage"))
        return
    found = await _own(update, context, "rename", args[:-1])
    if found is None:
        return
    lang, row = found
    svc = context.bot_data
    new = slug(args[-1])
    if new != args[-1].casefold() or new == row.name:
        await reply(update, context, t(lang, "rename_bad", name=args[-1][:40]))
        return
    taken = {name_key(n) for n in (*svc.catalog.folder(), *svc.authored.names()) if n != row.name}
    if name_key(new) in taken:
        await reply(update, context, t(lang, "rename_taken", name=new))
        return
    try:
        await store_of(svc).rename_authored(row.quiz_no, new)
    except NameTaken:
        await reply(update, context, t(lang, "rename_taken", name=new))
        return
    await svc.authoring.refresh(row.quiz_no)
    await reply(update, context, t(lang, "rename_done", old=row.name, name=new))


async def deletequiz(update: Update, context: Context) -> None:
    """Ask to confirm deleting one of the sender's quizzes."""
    found = await _own(update, context, "deletequiz")
    chat = update.effective_chat
    if found is None or chat is None:
        return
    lang, row = found
    await outbox.send(
        context.bot,
        chat.id,
        t(lang, "delete_confirm", name=row.name, title=row.title),
        markup=delete_keyboard(lang, row.quiz_no),
    )


async def delete_button(
    update: Update, context: Context, data: authoring_buttons.DeleteData
) -> Notice:
    """The confirmation buttons of /deletequiz."""
    svc = context.bot_data
    _, chat_id, message_id = pressed(update)
    lang = context.lang
    row = svc.authored.row(data.quiz_id)
    if row is None or row.deleted_at is not None:  # its author's or an admin's: its rule
        return t_plain(lang, "alert_invalid"), True
    if not data.confirm:
        await outbox.edit(context.bot, chat_id, message_id, t(lang, "delete_kept", name=row.name))
        return None, False
    await store_of(svc).delete_authored(row.quiz_no, svc.clock())
    await svc.authoring.refresh(row.quiz_no)
    await outbox.edit(context.bot, chat_id, message_id, t(lang, "delete_done", name=row.name))
    return None, False


async def share(update: Update, context: Context) -> None:
    """A deep link with which anyone can practise the quiz privately."""
    found = await _own(update, context, "share")
    if found is None:
        return
    _, row = found
    await reply(update, context, await _share_text(context, row))


async def _share_text(context: Context, row: AuthoredQuiz) -> Safe:
    """The share link of a quiz (made on first use)."""
    lang = context.lang
    svc = context.bot_data
    token = row.share_token
    if token is None:
        token = secrets.token_urlsafe(12)  # 16 characters of [A-Za-z0-9_-]
        await store_of(svc).set_share_token(row.quiz_no, token)
        await svc.authoring.refresh(row.quiz_no)
    url = create_deep_linked_url(context.bot.username, SHARE_PREFIX + token)
    return t(lang, "share_link", name=row.name, url=url)


async def card_button(
    update: Update, context: Context, data: authoring_buttons.QuizCardData
) -> Notice:
    """A button of a saved quiz's card (its rule: its author, privately): its share link, or
    how to set homework."""
    svc = context.bot_data
    _, chat_id, _ = pressed(update)
    lang = context.lang
    row = svc.authored.row(data.quiz_id)
    if row is None or row.deleted_at is not None:
        return t_plain(lang, "alert_invalid"), True
    if data.action == "s":
        await outbox.send(context.bot, chat_id, await _share_text(context, row))
    else:
        await outbox.send(context.bot, chat_id, t(lang, "card_homework_how", name=row.name))
    return None, False


async def publish(update: Update, context: Context) -> None:
    """``/publish NAME [off]`` (admins): offer a stored quiz to every group, or withdraw it."""
    svc = context.bot_data
    lang = context.lang
    args = context.args or []
    off = len(args) >= 2 and args[-1].casefold() == "off"
    picked = await quiz_named(
        update, context, "publish", " ".join(args[:-1] if off else args), svc.resolver.live()
    )
    row = svc.authored.row(picked.quiz_id) if picked is not None else None
    if row is None:
        return
    await store_of(svc).set_published(row.quiz_no, not off)
    await svc.authoring.refresh(row.quiz_no)
    await reply(update, context, t(lang, "publish_off" if off else "publish_on", name=row.name))


async def start_shared(update: Update, context: Context) -> None:
    """``/start sq-TOKEN``: practise a shared quiz in this private chat."""
    svc = context.bot_data
    chat = update.effective_chat
    lang = context.lang
    if chat is None or chat.type != Chat.PRIVATE:
        return
    token = (context.args or [""])[0].removeprefix(SHARE_PREFIX)
    row = svc.authored.by_token(token) if token else None
    quiz = svc.authored.quiz(row.quiz_id) if row is not None else None
    if quiz is None or row is None:
        await reply(update, context, t(lang, "share_gone"))
        return
    wait = await guard.practice_refusal(context, chat.id, quiz)
    if wait is not None:
        await reply(update, context, wait)
        return
    author = await store_of(svc).user_name(row.author_id)
    await reply(
        update,
        context,
        t(lang, "share_intro", title=quiz.title(lang), author=author or "—", count=quiz.run_length),
    )
    await svc.practice.start(chat.id, quiz, lang, svc.rng)


# --- table entries (joined in bot.app.registry) ----------------------------------------------

#: ``/start sq-TOKEN`` in a private chat (a share link), routed before the generic /start
SHARE_START = (
    filters.Regex(callbacks.start_filter_pattern(SHARE_PREFIX, "[A-Za-z0-9_-]{1,61}"))
    & filters.ChatType.PRIVATE
)

COMMANDS = (
    Command("start", start_shared, who="anyone", where="private", filters=SHARE_START),
    Command(
        "myquizzes",
        myquizzes,
        who="anyone",
        where="private",
        help="help_myquizzes",
        menu="cmd_myquizzes",
    ),
    Command("share", share, who="anyone", where="private", help="help_share", menu="cmd_share"),
    Command(
        "deletequiz",
        deletequiz,
        who="anyone",
        where="private",
        help="help_deletequiz",
        menu="cmd_deletequiz",
    ),
    Command("rename", rename, who="anyone", where="private", help="help_rename", menu="cmd_rename"),
    Command("publish", publish, who="admin", where="private", help="help_publish"),
)
BUTTONS = (
    Button(authoring_buttons.DeleteData, delete_button, who=("author", "admin"), where="private"),
    Button(authoring_buttons.QuizCardData, card_button, who="author", where="private"),
)
