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

from bot.core.bank import Quiz
from bot.core.regrade import rescore
from bot.handlers.replies import language, quiz_named, reply
from bot.handlers.routes import Button, Command, Notice
from bot.i18n import ascii_digits, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.render import callbacks, label
from bot.render import teacher as render_teacher
from bot.services import analysis
from bot.services.container import Context, Services
from bot.storage import Rescored
from bot.tg import outbox

log = logging.getLogger(__name__)

AN_PAYLOAD = re.compile(r"an-([1-9][0-9]{0,15})_(U[1-9][0-9]{0,15}|[a-z0-9][a-z0-9_-]{0,31})")
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
    played = await svc.store.quizzes_played(chat.id, await svc.store.current_season(chat.id))
    if context.args:
        picked = await quiz_named(
            update, context, lang, "analysis", " ".join(context.args), svc.resolver.known(played)
        )
        if picked is None:
            return
        quiz = picked.quiz
    else:
        latest = next((c for c in svc.resolver.known(played) if c.quiz_id in played), None)
        if latest is None:
            await reply(update, context, t(lang, "an_nothing"), important=True)
            return
        quiz = latest.quiz
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
    user = update.effective_user
    args = context.args or []
    match = AN_PAYLOAD.fullmatch(args[0]) if len(args) == 1 else None
    if user is None:
        return
    lang = await language(update, svc)
    quiz_id = ("u." + match[2][1:] if match[2].startswith("U") else match[2]) if match else ""
    quiz = svc.quizzes.get(quiz_id) if match else None
    group = Chat(-int(match[1]), Chat.SUPERGROUP) if match else None
    if quiz is None or group is None:
        await reply(update, context, t(lang, "an_nothing"))
        return
    if not await svc.moderators.may_moderate(group, user.id):
        await reply(update, context, t(lang, "not_moderator"))
        return
    await _send_analysis(svc, context, user.id, group.id, quiz, lang)


# --- /regrade -------------------------------------------------------------------------------------


BENGALI_LETTERS = "কখগঘঙচছজঝঞ"  # option letters in Bengali chats and imports


def parse_letter(raw: str) -> int | None:
    """An option letter (``A`` … ``J``, or ``ক`` … ``ঞ``) → bank index."""
    text = raw.strip().upper()
    if len(text) == 1 and text in BENGALI_LETTERS:
        return BENGALI_LETTERS.index(text)
    return ord(text) - ord("A") if len(text) == 1 and "A" <= text <= "J" else None


async def regrade_command(update: Update, context: Context) -> None:
    """``/regrade QUIZ [N X]`` (moderators): preview a re-scoring of this season's answers;
    a button applies it."""
    svc = context.bot_data
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await language(update, svc)
    args = context.args or []
    keyed = len(args) >= 3 and ascii_digits(args[-2]).isdecimal()
    words = args[:-2] if keyed else args
    played = await svc.store.quizzes_played(chat.id, await svc.store.current_season(chat.id))
    picked = await quiz_named(
        update, context, lang, "regrade", " ".join(words), svc.resolver.known(played)
    )
    if picked is None:
        return
    quiz = picked.quiz
    number, option = 0, 0
    if keyed:
        digits = ascii_digits(args[-2])
        number = int(digits) if len(digits) < 5 else 0
        if not 1 <= number <= len(quiz.questions):
            await reply(
                update,
                context,
                t(lang, "regrade_bad_number", count=len(quiz.questions)),
                important=True,
            )
            return
        question = quiz.questions[number - 1]
        found = parse_letter(args[-1])
        if found is None or found >= len(question.options):
            letters = ", ".join(label(i) for i in range(len(question.options)))
            await reply(
                update,
                context,
                t(lang, "regrade_bad_letter", n=number, letters=letters),
                important=True,
            )
            return
        option = found
    outcome = await _regrade(svc, chat.id, quiz, number, option, apply=False)
    if outcome is None:
        await reply(update, context, t(lang, "regrade_busy"), important=True)
        return
    flips, students, points = outcome
    if not flips and not points:
        await reply(update, context, t(lang, "regrade_nothing"), important=True)
        return
    head = (
        t(lang, "regrade_preview_one", title=quiz.title(lang), n=number, label=label(option))
        if number
        else t(lang, "regrade_preview_all", title=quiz.title(lang))
    )
    text = join(
        "\n",
        [head, t(lang, "regrade_preview_counts", answers=flips, students=students, points=points)],
    )
    markup = render_teacher.regrade_keyboard(lang, quiz.id, number, option)
    await reply(update, context, text, important=True, markup=markup)


async def _regrade(
    svc: Services, chat_id: int, quiz: Quiz, number: int, option: int, *, apply: bool
) -> tuple[int, int, int] | None:
    """Re-score this season's answers (question ``number``'s key = ``option``; 0: the bank's
    keys): (answers whose verdict changes, students whose points change, points gained in
    total), applied if ``apply``. None while the quiz runs here."""
    busy = any(r.chat_id == chat_id and r.quiz.id == quiz.id for r in svc.groups.active()) or any(
        hw.quiz_id == quiz.id for hw in await svc.store.open_homework(chat_id)
    )
    if busy:
        return None
    keys = (
        {quiz.questions[number - 1].id: option}
        if number
        else {q.id: q.correct for q in quiz.questions}
    )
    season = await svc.store.current_season(chat_id)
    changes = rescore(await svc.store.season_answers(chat_id, season, quiz.id), keys)
    flips = sum(1 for c in changes if c.correct != c.old_correct)
    students = len({c.user_id for c in changes if c.points != c.old_points})
    points = sum(c.points - c.old_points for c in changes)
    if apply and changes:
        await svc.store.apply_regrade(
            [Rescored(c.run_id, c.q_index, c.user_id, c.correct, c.points) for c in changes]
        )
        log.info("chat %s: quiz %s re-graded, %s answers changed", chat_id, quiz.id, len(changes))
    return flips, students, points


async def regrade_button(update: Update, context: Context, data: callbacks.RegradeData) -> Notice:
    """Apply (or drop) the re-grading ``/regrade`` previewed (the group's moderators)."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = await language(update, svc)
    if chat.type == Chat.PRIVATE or not await svc.moderators.may_moderate(chat, query.from_user.id):
        return t_plain(lang, "alert_mod_only"), True
    quiz = svc.quizzes.get(data.quiz_id)
    if quiz is None or data.number > len(quiz.questions):
        return t_plain(lang, "alert_invalid"), True
    if not data.confirm:
        await outbox.edit(
            context.bot, chat.id, query.message.message_id, t(lang, "regrade_dropped")
        )
        return None, False
    outcome = await _regrade(svc, chat.id, quiz, data.number, data.option, apply=True)
    if outcome is None:
        return t_plain(lang, "regrade_busy"), True
    flips, students, _ = outcome
    title = quiz.title(lang)
    text = (
        t(
            lang,
            "regrade_one",
            title=title,
            n=data.number,
            label=label(data.option),
            answers=flips,
            students=students,
        )
        if data.number
        else t(lang, "regrade_all", title=title, answers=flips, students=students)
    )
    await outbox.edit(context.bot, chat.id, query.message.message_id, text)
    return None, False


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
BUTTONS = (
    Button(callbacks.ReportData, button),
    Button(callbacks.CardReportData, button),
    Button(callbacks.RegradeData, regrade_button),
)
