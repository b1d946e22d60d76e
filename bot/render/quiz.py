"""A quiz as users read it: announcement, questions, reveals, results, alerts, practice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.banks.resolver import Choice, Found
from bot.core.bank import Question, Quiz
from bot.core.engine import Reveal, Score, Verdict
from bot.core.limits import bank_limits as bank_limits  # re-exported: callers import it from here
from bot.i18n import num, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render.text import ALERT_LIMIT, fit, html_name, label, with_medal

# --- the quiz in a group --------------------------------------------------------------------


def announcement(quiz: Quiz, lang: Lang, seconds: int) -> Safe:
    return t(lang, "announce", title=quiz.title(lang), count=quiz.run_length, seconds=seconds)


def options_block(
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    counts: Sequence[int] | None = None,
    right: int | None = None,
    chosen: int | None = None,
) -> Safe:
    lines = []
    for shown, option in enumerate(permutation):
        text = html("{}) {}", label(shown), question.options[option](lang))
        if counts is not None:
            text = html("{} — {}", text, num(lang, counts[shown]))
        if shown == right:
            text = html("<b>{}</b> ✅", text)
        elif shown == chosen:
            text = html("{} ❌", text)
        lines.append(text)
    return join("\n", lines)


def question_message(
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    number: int,
    total: int,
    seconds: int,
    answered: int,
) -> Safe:
    """A question as posted: N/M, the question, every option on its own line."""
    foot = (
        t(lang, "question_timer", seconds=seconds, answered=answered)
        if seconds
        else t(lang, "question_untimed")
    )
    return join(
        "\n\n",
        [
            t(lang, "question_head", n=number, total=total),
            question.text(lang),
            options_block(question, permutation, lang),
            foot,
        ],
    )


def reveal_message(reveal: Reveal, lang: Lang, *, total: int, group: bool = True) -> Safe:
    """A closed question: the right option marked, explanation and note; in a ``group`` also
    the count of each option and how many answered and were right."""
    q = reveal.question
    answer = [t(lang, "reveal_answer", label=label(reveal.correct_shown))]
    if group:
        answer.append(t(lang, "reveal_stats", answered=reveal.answered, right=reveal.right))
    parts = [
        t(lang, "reveal_head", n=reveal.q_index + 1, total=total),
        q.text(lang),
        options_block(
            q,
            reveal.permutation,
            lang,
            counts=reveal.counts if group else None,
            right=reveal.correct_shown,
        ),
        join("\n", answer),
        *explained(q, lang),
    ]
    if q.note is not None:
        parts.append(html("📖 {}", q.note(lang)))
    return join("\n\n", parts)


def results_message(
    quiz: Quiz,
    lang: Lang,
    scores: Sequence[Score],
    names: Mapping[int, str],
    *,
    asked: int,
    total: int,
    stopped: bool,
    limit: int = 10,
) -> Safe:
    """The podium and the top ``limit`` of a run; right answers count out of the ``asked``
    questions (fewer than the quiz's ``total`` when a moderator stopped it)."""
    lines = [t(lang, "results_head", title=quiz.title(lang))]
    if stopped:
        lines.append(t(lang, "results_stopped", asked=asked, total=total))
    lines.append(Safe(""))
    if not scores:
        lines.append(t(lang, "results_nobody"))
    for rank, score in enumerate(scores[:limit], start=1):
        lines.append(
            with_medal(
                rank,
                t(
                    lang,
                    "results_line",
                    rank=rank,
                    name=html_name(names.get(score.user_id, "?")),
                    points=score.points,
                    correct=score.correct,
                    total=asked,
                ),
                score.points,
            )
        )
    best = max(scores, key=lambda s: s.best_streak, default=None)  # the first of equals
    if best is not None and best.best_streak >= 2:
        lines += [
            Safe(""),
            t(
                lang,
                "results_streak",
                name=html_name(names.get(best.user_id, "?")),
                streak=best.best_streak,
            ),
        ]
    lines += [Safe(""), t(lang, "results_footer")]
    return join("\n", lines)


# --- alerts (plain text) ---------------------------------------------------------------------


def verdict_prefix(
    lang: Lang, verdict: Verdict, question: Question, permutation: Sequence[int], *, practice: bool
) -> str:
    assert verdict.answer is not None
    if practice:
        if verdict.answer.correct:
            return t_plain(lang, "alert_right_practice")
        return t_plain(
            lang, "alert_wrong_practice", label=label(permutation.index(question.correct))
        )
    if verdict.answer.correct:
        text = t_plain(lang, "alert_right", points=verdict.answer.points)
        if verdict.answer.streak >= 2:
            text += t_plain(
                lang, "alert_streak", streak=verdict.answer.streak, bonus=verdict.answer.bonus
            )
        return text
    return t_plain(lang, "alert_wrong")


def tap_alert(
    lang: Lang,
    verdict: Verdict,
    question: Question,
    permutation: Sequence[int],
    *,
    practice: bool = False,
) -> str:
    """The private alert for a tap: verdict, points, explanation; at most 200 characters."""
    if verdict.status == "again":
        return t_plain(lang, "alert_again", label=label(verdict.shown or 0))
    if verdict.status != "accepted":
        key = {"closed": "alert_closed", "stale": "alert_closed"}.get(
            verdict.status, "alert_invalid"
        )
        return t_plain(lang, key)
    prefix = verdict_prefix(lang, verdict, question, permutation, practice=practice)
    if question.explanation is None:
        return fit(prefix, ALERT_LIMIT)
    return fit(f"{prefix}\n\n{question.explanation(lang)}", ALERT_LIMIT)


# --- choosing a quiz, and private practice ---------------------------------------------------


def quiz_list(
    quizzes: Sequence[Quiz],
    lang: Lang,
    head_key: str = "quiz_list",
    names: Mapping[str, str] | None = None,
) -> Safe:
    """The list of quizzes, each under the name ``/quiz`` takes (``names``: id -> name)."""
    if not quizzes:
        return t(lang, "quiz_none")
    names = names or {}
    return join(
        "\n",
        [
            t(lang, head_key),
            *(
                t(
                    lang,
                    "quiz_list_item",
                    n=n,
                    id=names.get(q.id, q.handle),
                    title=q.title(lang),
                    count=q.run_length,
                )
                for n, q in enumerate(quizzes, start=1)
            ),
        ],
    )


def quiz_choices(lang: Lang, command: str, choices: Sequence[Choice], found: Found) -> Safe:
    """A short numbered list answering a command that named no quiz, or several: each with the
    command that picks it (the number works too)."""
    if not choices:
        return t(lang, "pick_none_named" if found.unknown else "pick_none")
    head = t(
        lang,
        "pick_ambiguous" if found.ambiguous else "quiz_unknown" if found.unknown else "pick_head",
        command=command,
    )
    lines = [
        t(lang, "pick_item", n=n, title=c.title(lang), command=command, name=c.name)
        for n, c in enumerate(choices, start=1)
    ]
    return join("\n", [head, *lines, t(lang, "pick_number", command=command)])


def practice_answered(reveal: Reveal, lang: Lang, *, total: int, verdict: str) -> Safe:
    """A practice question after the tap: its reveal and the verdict."""
    return join(
        "\n\n", [reveal_message(reveal, lang, total=total, group=False), html("<b>{}</b>", verdict)]
    )


def practice_done(lang: Lang, *, right: int, total: int, quiz_id: str) -> Safe:
    """The end of a practice: the score, and how to play again (``quiz_id``: the name users
    type, never an internal id)."""
    return join(
        "\n",
        [
            t(lang, "practice_score", right=right, total=total),
            t(lang, "practice_restart", id=quiz_id),
        ],
    )


def explained(question: Question, lang: Lang) -> list[Safe]:
    """The explanation line of a question, if it has one."""
    if question.explanation is None:
        return []
    return [html("💡 {}", question.explanation(lang))]
