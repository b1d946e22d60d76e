"""Handlers of /analysis, /regrade and the "report a problem" buttons (question analysis,
reports, re-grading).

Thin: parse, check, call the pure computations (:mod:`bot.core.analysis`, :mod:`bot.core.regrade`)
or storage, then reply. Quizzes are looked up in ``Services.quizzes`` at call time, so a reloaded
bank is used at once.
"""

from __future__ import annotations

import logging
import re

from telegram import Chat, Update
from telegram.ext import filters

from bot import render
from bot.core.bank import Quiz
from bot.core.regrade import rescore
from bot.handlers import guard
from bot.handlers.replies import language, reply
from bot.handlers.routes import Button, Command, Notice
from bot.i18n import ascii_digits, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import callbacks, label
from bot.render import teacher as render_teacher
from bot.services import analysis
from bot.services.container import Context, Services
from bot.storage import Rescored
from bot.tg import outbox

log = logging.getLogger(__name__)

AN_PAYLOAD = re.compile(r"an-([1-9][0-9]{0,15})_([a-z0-9][a-z0-9_-]{0,31})")
TeacherData = callbacks.ReportData | callbacks.CardReportData


# --- /analysis ------------------------------------------------------------------------------------


async def _analysis_texts(svc: Services, chat_id: int, quiz: Quiz, lang: Lang) -> list[Safe]:
    season = await svc.store.current_season(chat_id)
    result = await analysis.build(svc.store, chat_id, season, quiz)
    title = await svc.store.chat_title(chat_id) or str(chat_id)
    return render_teacher.analysis_messages(
        quiz,
        lang,
        result,
        group=title,
        season=season,
        reports=await svc.store.report_counts(chat_id, quiz.id),
    )


async def analysis_command(update: Update, context: Context) -> None:
    """``/analysis [QUIZ]`` (moderators): the question analysis, sent privately."""
    svc = context.bot_data
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await language(update, svc)
    args = [a.casefold() for a in context.args or []]
    seen = await guard.may_see_quiz(svc, args[0], chat.id, user.id) if len(args) == 1 else None
    if len(args) > 1 or (args and seen is None):
        names = render.quiz_names(sorted(svc.quizzes))
        await reply(update, context, t(lang, "quiz_unknown", names=names), important=True)
        return
    if args:
        quiz_id = args[0]
    else:
        played = [
            q
            for q in await svc.store.quizzes_played(
                chat.id, await svc.store.current_season(chat.id)
            )
            if q in svc.quizzes
        ]
        if not played:
            await reply(update, context, t(lang, "an_nothing"), important=True)
            return
        quiz_id = played[0]
    private_lang = await svc.recaps.language_of(user.id, lang)
    if not await _send_analysis(svc, context, user.id, chat.id, svc.quizzes[quiz_id], private_lang):
        markup = render_teacher.analysis_link(
            lang, context.bot.username, f"an-{abs(chat.id)}_{quiz_id}"
        )
        await reply(update, context, t(lang, "an_link"), important=True, markup=markup)


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
    user = update.effective_user
    args = context.args or []
    match = AN_PAYLOAD.fullmatch(args[0]) if len(args) == 1 else None
    if user is None:
        return
    lang = await language(update, svc)
    group = Chat(-int(match[1]), Chat.SUPERGROUP) if match else None
    quiz = await guard.may_see_quiz(svc, match[2], group.id, user.id) if match and group else None
    if quiz is None or group is None:
        await reply(update, context, t(lang, "an_nothing"))
        return
    if not await svc.moderators.may_moderate(group, user.id):
        await reply(update, context, t(lang, "not_moderator"))
        return
    await _send_analysis(svc, context, user.id, group.id, quiz, lang)


# --- /regrade -------------------------------------------------------------------------------------


def parse_letter(raw: str) -> int | None:
    """An option letter (``A`` … ``J``) → bank index."""
    text = raw.strip().upper()
    return ord(text) - ord("A") if len(text) == 1 and "A" <= text <= "J" else None


async def regrade_command(update: Update, context: Context) -> None:
    """``/regrade QUIZ [N X]`` (moderators): re-score stored answers of this season."""
    svc = context.bot_data
    chat = update.effective_chat
    if chat is None:
        return
    lang = await language(update, svc)
    args = context.args or []
    user_id = update.effective_user.id if update.effective_user else 0
    quiz = await guard.may_see_quiz(svc, args[0].casefold(), chat.id, user_id) if args else None
    if quiz is None or len(args) not in (1, 3):
        await reply(update, context, t(lang, "regrade_usage"), important=True)
        return
    number: int | None = None
    if len(args) == 3:
        digits = ascii_digits(args[1])
        number = int(digits) if digits.isdecimal() and len(digits) < 5 else 0
        if not 1 <= number <= len(quiz.questions):
            await reply(
                update,
                context,
                t(lang, "regrade_bad_number", count=len(quiz.questions)),
                important=True,
            )
            return
        question = quiz.questions[number - 1]
        option = parse_letter(args[2])
        if option is None or option >= len(question.options):
            letters = ", ".join(label(i) for i in range(len(question.options)))
            await reply(
                update,
                context,
                t(lang, "regrade_bad_letter", n=number, letters=letters),
                important=True,
            )
            return
        keys = {question.id: option}
    else:
        keys = {q.id: q.correct for q in quiz.questions}
    busy = any(r.chat_id == chat.id and r.quiz.id == quiz.id for r in svc.groups.active()) or any(
        hw.quiz_id == quiz.id for hw in await svc.store.open_homework(chat.id)
    )
    if busy:
        await reply(update, context, t(lang, "regrade_busy"), important=True)
        return
    season = await svc.store.current_season(chat.id)
    changes = rescore(await svc.store.season_answers(chat.id, season, quiz.id), keys)
    changed = await svc.store.apply_regrade(
        [Rescored(c.run_id, c.q_index, c.user_id, c.correct, c.points) for c in changes]
    )
    if not changed:
        await reply(update, context, t(lang, "regrade_nothing"), important=True)
        return
    students = len({c.user_id for c in changes})
    log.info(
        "chat %s: quiz %s re-graded, %s answers of %s students", chat.id, quiz.id, changed, students
    )
    title = quiz.title(lang)
    text = (
        t(
            lang,
            "regrade_one",
            title=title,
            n=number,
            label=label(keys[quiz.questions[number - 1].id]),
            answers=changed,
            students=students,
        )
        if number is not None
        else t(lang, "regrade_all", title=title, answers=changed, students=students)
    )
    await reply(update, context, text, important=True)


# --- buttons --------------------------------------------------------------------------------------


async def button(update: Update, context: Context, data: TeacherData) -> Notice:
    """The buttons of this feature: (callback answer text, as an alert)."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat, user = query.message.chat, query.from_user
    lang = await language(update, svc)
    if chat.type != Chat.PRIVATE:  # reports live in private chats
        return t_plain(lang, "alert_invalid"), True
    if isinstance(data, callbacks.CardReportData):
        card = await svc.store.card(data.card_id)
        found = (
            await svc.store.latest_answer_run(user.id, card.quiz_id, card.question_id)
            if card is not None and card.user_id == user.id
            else None
        )
        if found is None:
            return t_plain(lang, "alert_invalid"), True
        data = callbacks.ReportData(found[0], found[1])
    if data.reason is None:
        return await _ask_reason(context, svc, chat.id, data, lang)
    added = await svc.store.add_report(data.run_id, data.q_index, user.id, data.reason, svc.clock())
    if added is None:
        return t_plain(lang, "alert_invalid"), True
    if not added:
        return t_plain(lang, "report_again"), True
    reason = t(lang, render_teacher.REASON_KEYS[data.reason])
    await outbox.edit(
        context.bot,
        chat.id,
        query.message.message_id,
        t(lang, "report_thanks", n=data.q_index + 1, reason=reason),
    )
    return None, False


async def _ask_reason(
    context: Context, svc: Services, chat_id: int, data: callbacks.ReportData, lang: Lang
) -> Notice:
    run = await svc.store.get_run(data.run_id)
    quiz = svc.quizzes.get(run.quiz_id) if run is not None else None
    if run is None or quiz is None or data.q_index >= run.question_count:
        return t_plain(lang, "alert_invalid"), True
    await outbox.send(
        context.bot,
        chat_id,
        t(lang, "report_ask", n=data.q_index + 1, title=quiz.title(lang)),
        markup=render_teacher.reason_keyboard(lang, data.run_id, data.q_index),
    )
    return None, False


# --- table entries (joined in bot.handlers.registry) ----------------------------------------------

#: deep links (``/start hw-<id>``, ``/start an-<group>_<quiz>``), routed before the generic /start
#: (any payload with the prefix: a malformed one gets the handler's "not found" reply)
AN_START = (
    filters.Regex(callbacks.start_filter_pattern("an-", "[A-Za-z0-9_-]{1,61}"))
    & filters.ChatType.PRIVATE
)

COMMANDS = (
    Command("start", start_analysis, where="private", filters=AN_START),
    Command(
        "analysis",
        analysis_command,
        who="moderator",
        where="group",
        help="help_analysis",
        menu="cmd_analysis",
    ),
    Command(
        "regrade",
        regrade_command,
        who="moderator",
        where="group",
        help="help_regrade",
        menu="cmd_regrade",
    ),
)
BUTTONS = (Button(callbacks.ReportData, button), Button(callbacks.CardReportData, button))
