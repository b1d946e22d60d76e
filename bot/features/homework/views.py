"""What homework shows: the card in the group, the list, results, a student's attempt."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.helpers import create_deep_linked_url

from bot.core.bank import Question, Quiz, utf16_len
from bot.core.deadlines import DAY, HOUR
from bot.core.engine import Reveal
from bot.core.limits import MESSAGE_LIMIT
from bot.core.mathtext import readable
from bot.features.homework import buttons as homework_buttons
from bot.features.homework.queries import QuestionTally
from bot.i18n import num, plural, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import callbacks
from bot.render.quiz import explained, options_block, question_message, typed_closed
from bot.render.teacher import show_deadline
from bot.render.text import fit, html_name, isolated, plain_text, with_medal
from bot.storage import Homework, Standing

PODIUM = 3  # medals in homework results


def homework_card(quiz: Quiz, lang: Lang, hw: Homework, tz_minutes: int, finished: int) -> Safe:
    lines = [
        t(lang, "hw_card_head", title=quiz.title(lang)),
        t(lang, "hw_card_quiz", quiz=quiz.handle, count=len(quiz.questions), seconds=hw.seconds),
    ]
    if hw.status == "open":
        lines += [
            t(lang, "hw_card_deadline", when=show_deadline(lang, hw.deadline, tz_minutes)),
            t(lang, "hw_card_finished", count=finished),
            Safe(""),
            t(lang, "hw_card_how"),
        ]
    else:
        lines += [
            t(
                lang,
                "hw_card_ended",
                when=show_deadline(lang, hw.ended_at or hw.deadline, tz_minutes),
            ),
            t(lang, "hw_card_finished", count=finished),
        ]
    return join("\n", lines)


def homework_card_markup(
    lang: Lang, bot_username: str | None, homework_id: int
) -> InlineKeyboardMarkup | None:
    """The card's Start button: it opens the private chat with ``/start hw-<id>``."""
    if not bot_username:
        return None
    url = create_deep_linked_url(bot_username, f"hw-{homework_id}")
    return InlineKeyboardMarkup([[InlineKeyboardButton(t_plain(lang, "hw_start_button"), url=url)]])


def homework_list(
    lang: Lang, items: Sequence[tuple[Homework, Quiz | None, int]], tz_minutes: int
) -> Safe:
    if not items:
        return t(lang, "hw_none_open")
    lines = [t(lang, "hw_list_head")]
    for n, (hw, quiz, finished) in enumerate(items, start=1):
        title = isolated(quiz.title(lang)) if quiz is not None else "—"
        lines.append(
            t(
                lang,
                "hw_list_line",
                n=n,
                title=title,
                when=show_deadline(lang, hw.deadline, tz_minutes),
                count=finished,
            )
        )
    return join("\n", lines)


def duration_words(lang: Lang, seconds: int) -> str:
    """A homework's duration as a person says it: "1 hour", "3 days", "1 week"."""
    noun, n = (
        ("n_weeks", seconds // (7 * DAY))
        if seconds % (7 * DAY) == 0
        else ("n_days", seconds // DAY)
        if seconds % DAY == 0
        else ("n_hours", max(1, seconds // HOUR))
    )
    return plural(lang, noun, n).format(n=num(lang, n))


def homework_duration_keyboard(lang: Lang, quiz_id: str, user_id: int) -> InlineKeyboardMarkup:
    """How long a homework set from a saved quiz's link runs: a button per duration offered,
    for the moderator who followed the link."""
    buttons = [
        InlineKeyboardButton(
            duration_words(lang, seconds),
            callback_data=callbacks.encode(
                homework_buttons.HomeworkDurationData(quiz_id, n, user_id)
            ),
        )
        for n, seconds in enumerate(homework_buttons.HOMEWORK_DURATIONS)
    ]
    return InlineKeyboardMarkup([buttons[:2], buttons[2:]])


def homework_stop_keyboard(
    lang: Lang, items: Sequence[tuple[Homework, Quiz | None, int]]
) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    fit(
                        t_plain(
                            lang,
                            "hw_stop_button",
                            n=n,
                            title=(isolated(quiz.title(lang)) if quiz is not None else "—"),
                        ),
                        60,
                    ),
                    callback_data=callbacks.encode(
                        homework_buttons.HomeworkStopData(hw.homework_id)
                    ),
                )
            ]
            for n, (hw, quiz, _) in enumerate(items, start=1)
        ]
    )


def homework_results(
    quiz: Quiz,
    lang: Lang,
    standings: Sequence[Standing],
    tallies: Sequence[QuestionTally],
    *,
    stopped: bool,
) -> Safe:
    """Podium, how many took it, the average score and the hardest question."""
    total = len(quiz.questions)
    lines = [t(lang, "hw_results_head", title=quiz.title(lang))]
    if stopped:
        lines.append(t(lang, "hw_results_stopped"))
    lines.append(Safe(""))
    if not standings:
        lines.append(t(lang, "hw_results_nobody"))
        return join("\n", lines)
    for s in standings[:PODIUM]:
        lines.append(
            with_medal(
                s.rank,
                t(
                    lang,
                    "results_line",
                    rank=s.rank,
                    name=html_name(s.name),
                    points=s.points,
                    correct=s.correct,
                    total=total,
                ),
                s.points,
            )
        )
    takers = len(standings)
    avg_points = round(sum(s.points for s in standings) / takers)
    avg_right = num(lang, f"{sum(s.correct for s in standings) / takers:.1f}")
    lines += [
        Safe(""),
        t(lang, "hw_results_took", count=takers),
        t(lang, "hw_results_average", points=avg_points, right=avg_right, total=total),
    ]
    answered = [x for x in tallies if x.answered and x.q_index < total]
    if answered:
        hardest = min(answered, key=lambda x: (x.right / x.answered, x.q_index))
        question = quiz.questions[hardest.q_index]
        lines.append(
            t(
                lang,
                "hw_results_hardest",
                n=hardest.q_index + 1,
                share=round(100 * hardest.right / hardest.answered),
                text=fit(readable(question.text(lang)), 120),
            )
        )
    lines += [Safe(""), t(lang, "results_footer")]
    return join("\n", lines)


def attempt_question(
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    number: int,
    total: int,
    seconds: int,
) -> Safe:
    text = question_message(
        question, permutation, lang, number=number, total=total, seconds=0, answered=0
    )
    return join("\n", [text, t(lang, "hw_question_timer", seconds=seconds)])


def attempt_closed(
    reveal: Reveal,
    lang: Lang,
    *,
    total: int,
    verdict: str,
    chosen: int | Sequence[int] | None,
    given: str | None = None,
) -> Safe:
    """A homework question after the student's tap or Submit (``chosen``, the shown positions
    picked) or typed answer (``given``), or after its time ran out (None): every right option
    (or the answers worth full marks) and every pick marked, the verdict, the feedback of each
    pick and the explanation. Only about this student, so without the group reveal's counts."""
    q = reveal.question
    if q.typed:
        return typed_closed(reveal, lang, total=total, given=given, verdict=verdict)
    shown = None if chosen is None else (chosen,) if isinstance(chosen, int) else tuple(chosen)
    picked = None if shown is None else [reveal.permutation[s] for s in shown]
    parts = [
        t(lang, "reveal_head", n=reveal.q_index + 1, total=total),
        q.text(lang),
        options_block(
            q,
            reveal.permutation,
            lang,
            right=reveal.rights_shown or reveal.correct_shown,
            chosen=shown,
        ),
        html("<b>{}</b>", verdict),
        *explained(q, lang, picked, reveal.permutation),
    ]
    if q.note is not None:  # as much of it as the message holds
        room = MESSAGE_LIMIT - utf16_len(plain_text(join("\n\n", parts))) - 8
        parts.append(html("📖 {}", fit(q.note(lang), max(room, 1))))
    return join("\n\n", parts)


def homework_seconds_keyboard(
    lang: Lang, data: homework_buttons.HomeworkDurationData, own: int
) -> InlineKeyboardMarkup:
    """Each question's time in a homework set from a saved quiz's link (the duration picked in
    ``data``): a button per time offered, the quiz's ``own`` among them, marked."""
    offered = sorted({own, *homework_buttons.HOMEWORK_SECONDS})
    buttons = [
        InlineKeyboardButton(
            t_plain(lang, "hw_seconds_own" if seconds == own else "hw_seconds", seconds=seconds),
            callback_data=callbacks.encode(
                homework_buttons.HomeworkDurationData(
                    data.quiz_id, data.index, data.user_id, seconds
                )
            ),
        )
        for seconds in offered
    ]
    return InlineKeyboardMarkup([buttons[i : i + 3] for i in range(0, len(buttons), 3)])
