"""What users read: HTML messages, alerts and keyboards, built from engine results.

Every user-supplied string (names) and every bank text is escaped here, and only here.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import CallbackQueryLimit, MessageLimit
from telegram.helpers import create_deep_linked_url

from bot import callbacks
from bot.bank import LANGS, Lang, Limits, Question, Quiz
from bot.engine import MAX_POINTS, STREAK_CAP, Reveal, Score, Verdict
from bot.i18n import num, t

ALERT_LIMIT: int = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH  # 200 characters
MESSAGE_LIMIT: int = MessageLimit.MAX_TEXT_LENGTH  # 4096 characters
NAME_LIMIT = 32
MEDALS = ("🥇", "🥈", "🥉")
_ISOLATE = "\u2068{}\u2069"  # first-strong isolate: an RTL name cannot flip the line around it


def label(shown: int) -> str:
    """The button label of shown position ``shown``: A, B, C ..."""
    return chr(ord("A") + shown)


def short_name(first: str | None, last: str | None = None, username: str | None = None) -> str:
    """A display name for a user: their name, cleaned of control characters, shortened."""
    name = " ".join(p for p in (first, last) if p) or (f"@{username}" if username else "?")
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))
    name = " ".join(name.split()) or "?"
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1].rstrip() + "…"
    return name


def html_name(name: str) -> str:
    """A stored display name, escaped and isolated for an HTML message."""
    return _ISOLATE.format(html.escape(name, quote=False))


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-") + "…"


# --- the quiz in a group --------------------------------------------------------------------


def announcement(quiz: Quiz, lang: Lang, seconds: int) -> str:
    return t(lang, "announce", title=html.escape(quiz.title(lang)), count=len(quiz.questions),
             seconds=seconds)


def _options(question: Question, permutation: Sequence[int], lang: Lang,
             counts: Sequence[int] | None = None, correct_shown: int | None = None) -> str:
    lines = []
    for shown, option in enumerate(permutation):
        text = f"{label(shown)}) {html.escape(question.options[option](lang))}"
        if counts is not None:
            text += f" — {num(lang, counts[shown])}"
        if shown == correct_shown:
            text = f"<b>{text}</b> ✅"
        lines.append(text)
    return "\n".join(lines)


def question_message(question: Question, permutation: Sequence[int], lang: Lang, *,
                     number: int, total: int, seconds: int, answered: int) -> str:
    """A question as posted: N/M, the question, every option on its own line."""
    head = t(lang, "question_head", n=number, total=total)
    foot = (t(lang, "question_timer", seconds=seconds, answered=answered) if seconds
            else t(lang, "question_untimed"))
    return (f"{head}\n\n{html.escape(question.text(lang))}\n\n"
            f"{_options(question, permutation, lang)}\n\n{foot}")


def answer_keyboard(run_id: int, q_index: int, options: int) -> InlineKeyboardMarkup:
    """One button per label; up to five in a row."""
    buttons = [
        InlineKeyboardButton(label(i), callback_data=callbacks.encode(
            callbacks.AnswerData(run_id, q_index, i)))
        for i in range(options)
    ]
    rows = [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
    return InlineKeyboardMarkup(rows)


def reveal_message(reveal: Reveal, lang: Lang, *, total: int) -> str:
    """A closed question: the right option marked, counts per option, explanation and note."""
    q = reveal.question
    parts = [
        t(lang, "reveal_head", n=reveal.q_index + 1, total=total),
        html.escape(q.text(lang)),
        _options(q, reveal.permutation, lang, reveal.counts, reveal.correct_shown),
        t(lang, "reveal_answer", label=label(reveal.correct_shown)) + "\n"
        + t(lang, "reveal_stats", answered=reveal.answered, right=reveal.right),
        "💡 " + html.escape(q.explanation(lang)),
    ]
    if q.note is not None:
        parts.append("📖 " + html.escape(q.note(lang)))
    return "\n\n".join(parts)


def results_message(quiz: Quiz, lang: Lang, scores: Sequence[Score], names: Mapping[int, str],
                    *, total: int, stopped: bool, limit: int = 10) -> str:
    """The podium and the top ``limit`` of a run."""
    lines = [t(lang, "results_head", title=html.escape(quiz.title(lang)))]
    if stopped:
        lines.append(t(lang, "results_stopped"))
    lines.append("")
    if not scores:
        lines.append(t(lang, "results_nobody"))
    for rank, score in enumerate(scores[:limit], start=1):
        line = t(lang, "results_line", rank=rank, name=html_name(names.get(score.user_id, "?")),
                 points=score.points, correct=score.correct, total=total)
        lines.append(f"{MEDALS[rank - 1]} {line}" if rank <= len(MEDALS) else line)
    best = max(scores, key=lambda s: s.best_streak, default=None)  # the first of equals
    if best is not None and best.best_streak >= 2:
        lines += ["", t(lang, "results_streak", name=html_name(names.get(best.user_id, "?")),
                        streak=best.best_streak)]
    lines += ["", t(lang, "results_footer")]
    return "\n".join(lines)


def recap_keyboard(lang: Lang, bot_username: str | None, run_id: int
                   ) -> InlineKeyboardMarkup | None:
    """The results' button that opens the private chat and delivers the student's recap."""
    if not bot_username:
        return None
    link = create_deep_linked_url(bot_username, callbacks.recap_payload(run_id))
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "recap_button"), url=link)]])


# --- alerts -----------------------------------------------------------------------------------


def verdict_prefix(lang: Lang, verdict: Verdict, question: Question, permutation: Sequence[int],
                   *, practice: bool) -> str:
    assert verdict.answer is not None
    if practice:
        if verdict.answer.correct:
            return t(lang, "alert_right_practice")
        return t(lang, "alert_wrong_practice", label=label(permutation.index(question.correct)))
    if verdict.answer.correct:
        text = t(lang, "alert_right", points=verdict.answer.points)
        if verdict.answer.streak >= 2:
            text += t(lang, "alert_streak", streak=verdict.answer.streak,
                      bonus=verdict.answer.bonus)
        return text
    return t(lang, "alert_wrong")


def tap_alert(lang: Lang, verdict: Verdict, question: Question, permutation: Sequence[int],
              *, practice: bool = False) -> str:
    """The private alert for a tap: verdict, points, explanation; at most 200 characters."""
    if verdict.status == "again":
        return t(lang, "alert_again", label=label(verdict.shown or 0))
    if verdict.status != "accepted":
        key = {"closed": "alert_closed", "stale": "alert_closed"}.get(verdict.status,
                                                                      "alert_invalid")
        return t(lang, key)
    prefix = verdict_prefix(lang, verdict, question, permutation, practice=practice)
    return fit(f"{prefix}\n\n{question.explanation(lang)}", ALERT_LIMIT)


def bank_limits() -> Limits:
    """The longest verdict prefix and message frame, so the validator checks real sizes."""
    most = MAX_POINTS + STREAK_CAP
    prefix = {lang: max(len(t(lang, "alert_right", points=most)
                            + t(lang, "alert_streak", streak=999, bonus=STREAK_CAP)),
                        len(t(lang, "alert_wrong")),
                        len(t(lang, "alert_wrong_practice", label="J"))) + 2
              for lang in LANGS}
    overhead = {lang: len(t(lang, "question_head", n=200, total=200))
                + len(t(lang, "question_timer", seconds=600, answered=99999)) + 6
                + 10 * len("J) \n") for lang in LANGS}
    return Limits(question_message=MESSAGE_LIMIT, alert=ALERT_LIMIT, alert_prefix=prefix,
                  question_overhead=overhead)


def start_keyboard(quizzes: Sequence[Quiz], lang: Lang) -> InlineKeyboardMarkup:
    """One start button per quiz."""
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(fit(f"▶️ {q.title(lang)}", 60),
                              callback_data=callbacks.encode(callbacks.StartData(q.id)))]
        for q in quizzes
    ])


def quiz_list(quizzes: Sequence[Quiz], lang: Lang, head_key: str = "quiz_list") -> str:
    if not quizzes:
        return t(lang, "quiz_none")
    lines = [t(lang, head_key)]
    lines += [t(lang, "quiz_list_item", id=q.id, title=html.escape(q.title(lang)),
                count=len(q.questions)) for q in quizzes]
    return "\n".join(lines)


# --- after the quiz: recaps and review --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Missed:
    """A question a student got wrong (``chosen`` shown position) or skipped (None)."""

    number: int  # 1-based, in the run
    question: Question
    permutation: tuple[int, ...]
    chosen: int | None


def recap_messages(quiz: Quiz, lang: Lang, *, points: int, correct: int, total: int, rank: int,
                   players: int, best_streak: int, missed: Sequence[Missed]) -> list[str]:
    """A student's private recap: score and rank, then each missed question with the right
    answer and its explanation; split into messages that fit Telegram's limit."""
    head = (t(lang, "recap_head", title=html.escape(quiz.title(lang))) + "\n"
            + t(lang, "recap_score", points=points, correct=correct, total=total, rank=rank,
                players=players))
    if best_streak >= 2:
        head += "\n" + t(lang, "recap_streak", streak=best_streak)
    blocks = [head]
    if missed:
        blocks.append(t(lang, "recap_missed_head", count=len(missed)))
        for item in missed:
            q = item.question
            right = item.permutation.index(q.correct)
            first = (t(lang, "recap_wrong", n=item.number, label=label(item.chosen))
                     if item.chosen is not None else t(lang, "recap_skipped", n=item.number))
            blocks.append("\n".join([
                first,
                html.escape(fit(q.text(lang), 1500)),
                t(lang, "recap_right", label=label(right),
                  answer=html.escape(fit(q.options[q.correct](lang), 500))),
                "💡 " + html.escape(q.explanation(lang)),
            ]))
        blocks.append(t(lang, "recap_review") + "\n" + t(lang, "recap_footer"))
    else:
        blocks.append(t(lang, "recap_perfect") + "\n" + t(lang, "recap_footer"))
    messages: list[str] = []
    current = ""
    for block in blocks:
        if current and len(current) + 2 + len(block) > MESSAGE_LIMIT:
            messages.append(current)
            current = block
        else:
            current = f"{current}\n\n{block}" if current else block
    messages.append(current)
    return messages


def when(lang: Lang, seconds: float) -> str:
    """How long until something, roughly: "within an hour", "in about 5 hours", "in 3 days"."""
    if seconds < 3600:
        return t(lang, "when_soon")
    if seconds < 86_400 - 1800:
        return t(lang, "when_hours", n=max(1, round(seconds / 3600)))
    days = max(1, round(seconds / 86_400))
    return t(lang, "when_day") if days == 1 else t(lang, "when_days", n=days)


def review_question(quiz: Quiz, question: Question, permutation: Sequence[int], lang: Lang, *,
                    box: int, boxes: int, due: int) -> str:
    """A question asked in /review: where it stands, the question, its options."""
    head = t(lang, "review_head", quiz=html.escape(quiz.title(lang)), box=box, boxes=boxes,
             due=due)
    return (f"{head}\n\n{html.escape(question.text(lang))}\n\n"
            f"{_options(question, permutation, lang)}\n\n{t(lang, 'question_untimed')}")


def review_answered(quiz: Quiz, question: Question, permutation: Sequence[int], lang: Lang, *,
                    chosen: int, verdict: str, schedule: str) -> str:
    """A reviewed question after the tap: the right option marked, the verdict, the
    explanation and when it comes back."""
    right = permutation.index(question.correct)
    lines = []
    for shown, option in enumerate(permutation):
        text = f"{label(shown)}) {html.escape(question.options[option](lang))}"
        if shown == right:
            text = f"<b>{text}</b> ✅"
        elif shown == chosen:
            text += " ❌"
        lines.append(text)
    return "\n\n".join([
        f"🔁 {html.escape(quiz.title(lang))}",
        html.escape(question.text(lang)),
        "\n".join(lines),
        f"<b>{html.escape(verdict)}</b>\n💡 {html.escape(question.explanation(lang))}",
        schedule,
    ])
