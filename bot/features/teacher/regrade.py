"""Re-grading and students' reports: ``/regrade`` previews a re-scoring of this
season's stored answers and a button applies it; a student's report of a question (under a
recap or a /review card) is stored, and reaches the teacher who started the run (for a homework
attempt: who set the homework), and the quiz's author, each if they moderate the group,
privately, with buttons that re-grade it from there."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Chat, Update

from bot.core.bank import Quiz
from bot.core.regrade import NewKey, TextKey, rekey, rescore
from bot.features.teacher import views as teacher_views
from bot.features.teacher.buttons import RegradeData, RunRegradeData
from bot.features.teacher.regrade_keys import (
    accepting,
    current_key_label,
    key_code,
    key_label,
    key_of_code,
    read_key,
    report_how,
    split_args,
)
from bot.features.teacher.store import store_of
from bot.i18n import ascii_digits, num, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.render import callbacks, fit
from bot.render import teacher as render_teacher
from bot.routing import guard
from bot.routing.replies import quiz_named, reply
from bot.routing.routes import Button, Command, Notice
from bot.services.container import Context, Services
from bot.services.keyfix import keep_fix, last_fix, undoes
from bot.storage import HOMEWORK, Rescored, StoredRun
from bot.tg import outbox

log = logging.getLogger(__name__)

ReportButton = callbacks.ReportData | callbacks.CardReportData


def _counts(lang: Lang, flips: int, students: int, points: int) -> Safe:
    """What a previewed re-grading changes: answers, students, points (signed)."""
    signed = num(lang, f"{points:+d}")
    return t(lang, "regrade_preview_counts", answers=flips, students=students, points=signed)


def _head(lang: Lang, quiz: Quiz, number: int, key: NewKey | None) -> Safe:
    """The preview's first line: what the re-grading will do."""
    title = quiz.title(lang)
    if key is None:
        return t(lang, "regrade_preview_all", title=title)
    if isinstance(key, TextKey):
        return t(lang, "regrade_preview_accept", title=title, n=number, answer=fit(key.text, 60))
    return t(
        lang, "regrade_preview_one", title=title, n=number, label=key_label(lang, quiz, number, key)
    )


def _done(lang: Lang, quiz: Quiz, number: int, key: NewKey | None, outcome: Outcome) -> Safe:
    """What an applied re-grading did (a new key: kept from now on)."""
    title = quiz.title(lang)
    flips, students = outcome.flips, outcome.students
    if key is None:
        return t(lang, "regrade_all", title=title, answers=flips, students=students)
    if isinstance(key, TextKey):
        answer = fit(key.text, 60)
        done = t(
            lang,
            "regrade_accept",
            title=title,
            n=number,
            answer=answer,
            answers=flips,
            students=students,
        )
    else:
        label = key_label(lang, quiz, number, key)
        done = t(
            lang,
            "regrade_one",
            title=title,
            n=number,
            label=label,
            answers=flips,
            students=students,
        )
    return join("\n", [done, t(lang, "regrade_kept")]) if outcome.new_key else done


# --- /regrade -------------------------------------------------------------------------------------


async def regrade_command(update: Update, context: Context) -> None:
    """``/regrade QUIZ [N KEY]`` (moderators): preview a re-scoring of this season's answers;
    a button applies it."""
    svc = context.bot_data
    chat, user, lang = context.caller.chat, context.caller.user, context.lang
    args = context.args or []
    keyed = split_args(args)
    words = keyed[0] if keyed is not None else args
    visible, _ = await guard.visible_quizzes(svc, chat.id, user.id)
    picked = await quiz_named(update, context, "regrade", " ".join(words), visible)
    if picked is None:
        return
    quiz = picked.quiz
    number, key = 0, None
    if keyed is not None:
        digits = ascii_digits(keyed[1])
        number = int(digits) if len(digits) < 5 else 0
        if not 1 <= number <= len(quiz.questions):
            await reply(
                update,
                context,
                t(lang, "regrade_bad_number", count=len(quiz.questions)),
                important=True,
            )
            return
        read = read_key(lang, quiz.questions[number - 1], number, keyed[2])
        if isinstance(read, Safe):
            await reply(update, context, read, important=True)
            return
        key = read
    code = key_code(quiz.questions[number - 1], key) if key is not None else "0"
    try:
        markup = teacher_views.regrade_keyboard(lang, quiz.id, number, code)
    except ValueError:  # a number too long for its button
        await reply(update, context, t(lang, "regrade_key_long"), important=True)
        return
    outcome = await _regrade(svc, chat.id, quiz, number, key, apply=False)
    if outcome is None:
        await reply(update, context, t(lang, "regrade_busy"), important=True)
        return
    if not outcome.flips and not outcome.points and not outcome.new_key:
        await reply(update, context, t(lang, "regrade_nothing"), important=True)
        return
    text = await _preview(svc, chat.id, lang, quiz, number, key, outcome)
    await reply(update, context, text, important=True, markup=markup)


async def _preview(
    svc: Services,
    chat_id: int,
    lang: Lang,
    quiz: Quiz,
    number: int,
    key: NewKey | None,
    outcome: Outcome,
) -> Safe:
    """A re-grading previewed: what it does, what it changes, and a warning when it puts back
    the key an earlier fix replaced."""
    counts = (
        _counts(lang, outcome.flips, outcome.students, outcome.points)
        if outcome.flips or outcome.points
        else t(lang, "regrade_preview_key_only")
    )
    lines = [_head(lang, quiz, number, key), counts]
    if number and key is not None:
        fix = last_fix(await store_of(svc).key_fixes(quiz.id), quiz.questions[number - 1].id)
        if fix is not None and undoes(fix, key):
            tz = await store_of(svc).chat_timezone(chat_id)
            when = render_teacher.show_deadline(lang, fix.fixed_at, tz or 0)
            lines.insert(1, t(lang, "regrade_undoes", n=number, when=when))
    return join("\n", lines)


def _busy(svc: Services, chat_id: int, quiz: Quiz) -> bool:
    """Whether ``quiz`` is played live in the chat now (open homework is no obstacle: its
    answers given are re-scored, the attempts in progress judge the rest by the new key)."""
    return any(r.chat_id == chat_id and r.quiz.id == quiz.id for r in svc.groups.active())


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a re-grading changes (or changed): answers whose credit changes, students whose
    points change, points gained in total; and whether the key itself changes."""

    flips: int
    students: int
    points: int
    new_key: bool = False


async def _regrade(
    svc: Services,
    chat_id: int,
    quiz: Quiz,
    number: int,
    key: NewKey | None,
    *,
    apply: bool,
    by: int = 0,
) -> Outcome | None:
    """Re-score this season's answers (question ``number`` with its new ``key``; 0: the quiz's
    current keys), applied (in one transaction) if ``apply``: a new key is then the quiz's key
    from now on, kept as fixed by ``by`` (bot/services/keyfix.py). None while the quiz is
    played live here."""
    if _busy(svc, chat_id, quiz):
        return None
    question = quiz.questions[number - 1] if number and key is not None else None
    if question is not None and key is not None:
        questions = {question.id: rekey(question, key)}
    else:
        questions = {q.id: q for q in quiz.questions}
    season = await store_of(svc).current_season(chat_id)
    answers = await store_of(svc).season_answers(chat_id, season, quiz.id)
    changes = rescore(answers, questions, quiz.all_or_nothing)
    outcome = Outcome(
        sum(1 for c in changes if c.rescored),
        len({c.user_id for c in changes if c.points != c.old_points}),
        sum(c.points - c.old_points for c in changes),
        question is not None and questions[question.id] != question,
    )
    rescored = [
        Rescored(c.run_id, c.q_index, c.user_id, c.correct, c.points, c.credit) for c in changes
    ]
    if apply and question is not None and key is not None and outcome.new_key:
        await keep_fix(
            store_of(svc),
            svc.catalog,
            svc.authored,
            svc.attempts,
            rescored,
            quiz,
            question.id,
            key,
            chat_id=chat_id,
            user_id=by,
            now=svc.clock(),
        )
    elif apply and changes:
        await store_of(svc).apply_regrade(rescored)
    if apply:
        log.info("chat %s: quiz %s re-graded, %s answers changed", chat_id, quiz.id, len(changes))
    return outcome


async def _tell_group(
    context: Context, chat_id: int, quiz: Quiz, number: int, outcome: Outcome
) -> None:
    """One line in the group after a re-grade changed points (no names: /me tells each)."""
    if not outcome.students:
        return
    lang = await context.bot_data.chat_language(chat_id)
    title = quiz.title(lang)
    text = (
        t(lang, "regrade_notice_one", title=title, n=number)
        if number
        else t(lang, "regrade_notice_all", title=title)
    )
    await outbox.send(context.bot, chat_id, text)


async def _stored_key(
    svc: Services, chat_id: int, quiz: Quiz, number: int, code: str
) -> NewKey | None:
    """The key an Apply button carries (a short answer's is found among the answers typed)."""
    question = quiz.questions[number - 1]
    typed: list[str] = []
    if code.startswith("+"):
        season = await store_of(svc).current_season(chat_id)
        typed = [
            a.given
            for a in await store_of(svc).season_answers(chat_id, season, quiz.id)
            if a.question_id == question.id and a.given is not None
        ]
    return key_of_code(question, code, typed)


async def regrade_button(update: Update, context: Context, data: RegradeData) -> Notice:
    """Apply (or drop) the re-grading ``/regrade`` previewed (its rule: the group's moderators,
    in the group) of a quiz they may see there."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = context.lang
    quiz = await guard.may_see_quiz(svc, data.quiz_id, chat.id, query.from_user.id)
    if quiz is None or data.number > len(quiz.questions):
        return t_plain(lang, "alert_invalid"), True
    if not data.confirm:
        await outbox.edit(
            context.bot, chat.id, query.message.message_id, t(lang, "regrade_dropped")
        )
        return None, False
    key = None
    if data.number:
        key = await _stored_key(svc, chat.id, quiz, data.number, data.key)
        if key is None:
            return t_plain(lang, "alert_invalid"), True
    outcome = await _regrade(
        svc, chat.id, quiz, data.number, key, apply=True, by=query.from_user.id
    )
    if outcome is None:
        return t_plain(lang, "regrade_busy"), True
    text = _done(lang, quiz, data.number, key, outcome)
    await outbox.edit(context.bot, chat.id, query.message.message_id, text)
    await _tell_group(context, chat.id, quiz, data.number, outcome)
    return None, False


# --- buttons --------------------------------------------------------------------------------------


async def button(update: Update, context: Context, data: ReportButton) -> Notice:
    """The buttons of this feature: (callback answer text, as an alert)."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat, user = query.message.chat, query.from_user
    lang = context.lang
    if isinstance(data, callbacks.CardReportData):  # the student's own card: its rule
        card = await store_of(svc).card(data.card_id)
        found = (
            await store_of(svc).latest_answer_run(user.id, card.quiz_id, card.question_id)
            if card is not None
            else None
        )
        if found is None:
            return t_plain(lang, "alert_invalid"), True
        data = callbacks.ReportData(found[0], found[1])
    if data.reason is None:
        return await _ask_reason(context, chat.id, data)
    added = await store_of(svc).add_report(
        data.run_id, data.q_index, user.id, data.reason, svc.clock()
    )
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
    await _tell_teachers(context, svc, data.run_id, data.q_index, user.id, data.reason)
    return None, False


async def _tell_teachers(
    context: Context, svc: Services, run_id: int, q_index: int, reporter: int, reason: str
) -> None:
    """A student's report, privately to whoever started the group's run (or set the homework
    the attempt was for) and the quiz's author, each only if they moderate that group, one
    message each: the question, the reason, its key, and how to re-grade it (a preview first):
    a button per other option of a one-answer question, one accepting the short answer the
    student typed, the typed ``/regrade`` otherwise."""
    run = await store_of(svc).get_run(run_id)
    quiz = svc.catalog.get(run.quiz_id) if run is not None else None
    if run is None or quiz is None or q_index >= run.question_count:
        return
    number = next(
        (n for n, q in enumerate(quiz.questions, 1) if q.id == run.plan.question_ids[q_index]), 0
    )
    row = svc.authored.row(quiz.id)
    if run.chat_id >= 0:  # practice: the quiz's author hears of it (no group to re-grade)
        if row is not None and row.author_id != reporter and number:
            await _tell_author(
                context, svc, run, quiz, row.author_id, number, q_index, reporter, reason
            )
        return
    teachers = {await _run_teacher(svc, run), row.author_id if row else None}
    group = Chat(run.chat_id, Chat.SUPERGROUP)
    title = await store_of(svc).chat_title(run.chat_id)
    accept = await _typed_by(svc, run, q_index, reporter, quiz, number) if number else None
    name = svc.resolver.name(quiz.id)
    for teacher in sorted(u for u in teachers if u is not None and u != reporter):
        if not number or not await svc.moderators.may_moderate(group, teacher):
            continue
        lang = await svc.recaps.language_of(teacher, run.language)
        question = quiz.questions[number - 1]
        text = t(
            lang,
            "report_to_teacher",
            group=title or t_plain(lang, "your_group"),
            title=quiz.title(lang),
            n=number,
            question=fit(question.text(lang), 200),
            reason=t(lang, render_teacher.REASON_KEYS[reason]),
            right=current_key_label(lang, question),
            how=report_how(lang, question, name, number, accept is not None),
        )
        markup = teacher_views.report_regrade_keyboard(lang, quiz, run_id, number, accept)
        await outbox.send(context.bot, teacher, text, markup=markup)


async def _tell_author(
    context: Context,
    svc: Services,
    run: StoredRun,
    quiz: Quiz,
    author: int,
    number: int,
    q_index: int,
    reporter: int,
    reason: str,
) -> None:
    """A report from a practice of the author's quiz, privately to them: the question, the
    reason, its key, what the student typed, and how to re-grade it in their group."""
    lang = await svc.recaps.language_of(author, run.language)
    question = quiz.questions[number - 1]
    typed = next(
        (
            a.given
            for a in await store_of(svc).answers(run.run_id)
            if a.q_index == q_index and a.user_id == reporter and a.option < 0
        ),
        None,
    )
    how = report_how(lang, question, svc.resolver.name(quiz.id), number, False)
    text = t(
        lang,
        "report_to_teacher",
        group=t_plain(lang, "report_practice"),
        title=quiz.title(lang),
        n=number,
        question=fit(question.text(lang), 200),
        reason=t(lang, render_teacher.REASON_KEYS[reason]),
        right=current_key_label(lang, question),
        how=how if typed is None else join("\n", [t(lang, "typed_yours", given=typed), how]),
    )
    await outbox.send(context.bot, author, text)


async def _typed_by(
    svc: Services, run: StoredRun, q_index: int, reporter: int, quiz: Quiz, number: int
) -> tuple[str, str] | None:
    """The answer the reporting student typed to question ``number`` in the run, if it earned
    less than full marks: (the answer, the key accepting it as ``rr:`` carries it: one more
    short answer, or a numeric answer's tolerance widened to hold it); None if no button can."""
    question = quiz.questions[number - 1]
    if not question.typed:
        return None
    season = await store_of(svc).current_season(run.chat_id)
    given = next(
        (
            a
            for a in await store_of(svc).season_answers(run.chat_id, season, quiz.id)
            if a.run_id == run.run_id and a.q_index == q_index and a.user_id == reporter
        ),
        None,
    )
    if given is None or given.given is None or not given.given.strip() or given.fraction >= 1:
        return None
    text = " ".join(given.given.split())
    key = accepting(question, text)
    if key is None:
        return None
    code = key_code(question, key)
    try:  # a number too long for its button: the typed /regrade only
        callbacks.encode(RunRegradeData(run.run_id, number, code, "y"))
    except ValueError:
        return None
    return text, code


async def _run_teacher(svc: Services, run: StoredRun) -> int | None:
    """Who gave the class this run: the moderator who started it, or who set the homework a
    student's attempt is for."""
    if run.mode != HOMEWORK:
        return run.started_by
    homework_id = await store_of(svc).attempt_homework(run.run_id)
    homework = await store_of(svc).homework(homework_id) if homework_id is not None else None
    return homework.set_by if homework is not None else None


async def run_regrade_button(update: Update, context: Context, data: RunRegradeData) -> Notice:
    """A button under a report the teacher received privately: preview, apply or drop a
    re-grading of the run's group (its rule: the group's moderators, privately)."""
    svc = context.bot_data
    query = update.callback_query
    assert query is not None and query.message is not None
    chat = query.message.chat
    lang = context.lang
    run = await store_of(svc).get_run(data.run_id)
    quiz = svc.catalog.get(run.quiz_id) if run is not None else None
    if run is None or quiz is None or run.chat_id >= 0 or data.number > len(quiz.questions):
        return t_plain(lang, "alert_invalid"), True
    message_id = query.message.message_id
    if data.step == "n":
        await outbox.edit(context.bot, chat.id, message_id, t(lang, "regrade_dropped"))
        return None, False
    key = await _stored_key(svc, run.chat_id, quiz, data.number, data.key)
    if key is None or quiz.questions[data.number - 1].kind == "multiple":  # no option alone
        return t_plain(lang, "alert_invalid"), True
    outcome = await _regrade(
        svc, run.chat_id, quiz, data.number, key, apply=data.step == "y", by=query.from_user.id
    )
    if outcome is None:
        return t_plain(lang, "regrade_busy"), True
    if data.step == "y":
        done = _done(lang, quiz, data.number, key, outcome)
        await outbox.edit(context.bot, chat.id, message_id, done)
        await _tell_group(context, run.chat_id, quiz, data.number, outcome)
        return None, False
    if not outcome.flips and not outcome.points and not outcome.new_key:
        return t_plain(lang, "regrade_nothing"), True
    preview = await _preview(svc, run.chat_id, lang, quiz, data.number, key, outcome)
    markup = teacher_views.run_regrade_keyboard(lang, data.run_id, data.number, data.key)
    await outbox.send(context.bot, chat.id, preview, markup=markup)
    return None, False


async def _ask_reason(context: Context, chat_id: int, data: callbacks.ReportData) -> Notice:
    svc, lang = context.bot_data, context.lang
    run = await store_of(svc).get_run(data.run_id)
    quiz = svc.catalog.get(run.quiz_id) if run is not None else None
    if run is None or quiz is None or data.q_index >= run.question_count:
        return t_plain(lang, "alert_invalid"), True
    await outbox.send(
        context.bot,
        chat_id,
        t(lang, "report_ask", n=data.q_index + 1, title=quiz.title(lang)),
        markup=teacher_views.reason_keyboard(lang, data.run_id, data.q_index),
    )
    return None, False


# --- table entries (joined in bot.app.registry) ----------------------------------------------

COMMANDS = (
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
    Button(callbacks.ReportData, button, who="participant", where="private"),
    Button(callbacks.CardReportData, button, who="participant", where="private"),
    Button(RegradeData, regrade_button, who="moderator", where="group"),
    Button(RunRegradeData, run_regrade_button, who="moderator", where="private"),
)
