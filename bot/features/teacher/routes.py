"""Handlers of /analysis, /regrade and the "report a problem" buttons (question analysis,
reports, re-grading).

Thin: parse, check, call the pure computations (:mod:`bot.core.analysis`, :mod:`bot.core.regrade`)
or storage, then reply. Quizzes are looked up in ``Services.catalog`` at call time, so a reloaded
bank is used at once.
"""

from __future__ import annotations

import logging
import re

from telegram import Chat, Update
from telegram.ext import filters

from bot.core.bank import Quiz
from bot.features.teacher.store import store_of
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import callbacks
from bot.render import teacher as render_teacher
from bot.routing import guard
from bot.routing.replies import quiz_named, reply
from bot.routing.routes import Command
from bot.services import analysis
from bot.services.container import Context, Services
from bot.tg import outbox

log = logging.getLogger(__name__)

AN_PAYLOAD = re.compile(r"an-([1-9][0-9]{0,15})_(U[1-9][0-9]{0,15}|[a-z0-9][a-z0-9_-]{0,31})")


# --- /analysis ------------------------------------------------------------------------------------


async def _analysis_texts(svc: Services, chat_id: int, quiz: Quiz, lang: Lang) -> list[Safe]:
    season = await store_of(svc).current_season(chat_id)
    result = await analysis.build(store_of(svc), chat_id, season, quiz)
    title = await store_of(svc).chat_title(chat_id) or t_plain(lang, "your_group")
    return render_teacher.analysis_messages(
        quiz,
        lang,
        result,
        group=title,
        season=season,
        reports=await store_of(svc).report_counts(chat_id, quiz.id),
        resolved=await store_of(svc).resolved_reports(chat_id, quiz.id),
    )


async def analysis_command(update: Update, context: Context) -> None:
    """``/analysis [QUIZ]`` (moderators): the question analysis, sent privately."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang
    visible, played = await guard.visible_quizzes(svc, chat.id, user.id)
    if context.args:
        picked = await quiz_named(update, context, "analysis", " ".join(context.args), visible)
        if picked is None:
            return
        quiz = picked.quiz
    else:
        latest = next((c for c in visible if c.quiz_id in played), None)
        loaded = latest.load() if latest is not None else None
        if loaded is None:
            await reply(update, context, t(lang, "an_nothing"), important=True)
            return
        quiz = loaded
    private_lang = await svc.recaps.language_of(user.id, lang)
    if not await _send_analysis(svc, context, user.id, chat.id, quiz, private_lang):
        markup = render_teacher.analysis_link(
            lang, context.bot.username, f"an-{abs(chat.id)}_{_payload_id(quiz.id)}"
        )
        await reply(update, context, t(lang, "an_link"), important=True, markup=markup)
        return
    await reply(update, context, t(lang, "sent_privately"), important=True)


def _payload_id(quiz_id: str) -> str:
    """A quiz id fit for a deep link (``[A-Za-z0-9_-]``): a stored quiz's ``u.N`` as ``UN``."""
    return "U" + quiz_id[2:] if quiz_id.startswith("u.") else quiz_id


async def _send_analysis(
    svc: Services, context: Context, user_id: int, chat_id: int, quiz: Quiz, lang: Lang
) -> bool:
    """Send the report to the user's private chat; False if they never started the bot."""
    for text in await _analysis_texts(svc, chat_id, quiz, lang):
        sent = await outbox.send(context.bot, user_id, text)
        if sent.status == "gone":
            return False
    return True


async def start_analysis(update: Update, context: Context) -> None:
    """``/start an-<group>_<quiz>`` in private: the report a moderator could not get before."""
    svc = context.bot_data
    user, lang = context.caller.user, context.lang
    args = context.args or []
    match = AN_PAYLOAD.fullmatch(args[0]) if len(args) == 1 else None
    quiz_id = ("u." + match[2][1:] if match[2].startswith("U") else match[2]) if match else ""
    group = Chat(-int(match[1]), Chat.SUPERGROUP) if match else None
    quiz = await guard.may_see_quiz(svc, quiz_id, group.id, user.id) if group else None
    if quiz is None or group is None:
        await reply(update, context, t(lang, "an_nothing"))
        return
    if not await svc.moderators.may_moderate(group, user.id):
        await reply(update, context, t(lang, "not_moderator"))
        return
    await _send_analysis(svc, context, user.id, group.id, quiz, lang)


# --- table entries (joined in bot.app.registry) ----------------------------------------------

#: deep links (``/start hw-<id>``, ``/start an-<group>_<quiz>``), routed before the generic /start
#: (any payload with the prefix: a malformed one gets the handler's "not found" reply)
AN_START = (
    filters.Regex(callbacks.start_filter_pattern("an-", "[A-Za-z0-9_-]{1,61}"))
    & filters.ChatType.PRIVATE
)

COMMANDS = (
    Command("start", start_analysis, who="anyone", where="private", filters=AN_START),
    Command(
        "analysis",
        analysis_command,
        who="moderator",
        where="group",
        help="help_analysis",
        menu="cmd_analysis",
    ),
)
