"""After the quiz: private recaps, ``/review`` questions and their answers, recap settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.bank import Question, Quiz
from bot.features.review.buttons import TimezoneData
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import callbacks
from bot.render.quiz import explained, labels, options_block, typed_answers
from bot.render.text import MESSAGE_LIMIT, fit, label, pack


@dataclass(frozen=True, slots=True)
class Missed:
    """A question a student got wrong (``chosen``: the shown positions picked) or skipped
    (None)."""

    number: int  # 1-based, in the run
    question: Question
    permutation: tuple[int, ...]
    chosen: int | Sequence[int] | None


def recap_messages(
    quiz: Quiz,
    lang: Lang,
    *,
    points: int,
    correct: int,
    asked: int,
    total: int,
    rank: int,
    players: int,
    best_streak: int,
    missed: Sequence[Missed],
    unread: Sequence[Missed] = (),
) -> list[Safe]:
    """A student's private recap: score (out of the ``asked`` questions) and rank, then each
    missed question with the right answer, its explanation and its note, as the reveal showed
    them, then each question answered whose whole explanation the student could not read
    after their tap (``unread``: bot/render/explain.py); split into messages that fit
    Telegram's limit."""
    head = [
        t(lang, "recap_head", title=quiz.title(lang)),
        t(
            lang,
            "recap_score",
            points=points,
            correct=correct,
            total=asked,
            rank=rank,
            players=players,
        ),
    ]
    if asked < total:
        head.append(t(lang, "recap_stopped", asked=asked, total=total))
    if best_streak >= 2:
        head.append(t(lang, "recap_streak", streak=best_streak))
    blocks = [join("\n", head)]
    if missed:
        blocks.append(t(lang, "recap_missed_head", count=len(missed)))
        for item in missed:
            blocks += missed_blocks(item, lang)
    if unread:
        blocks.append(t(lang, "recap_unread_head", count=len(unread)))
        for item in unread:
            shown = _shown(item)
            first = t(lang, "recap_unread", n=item.number, label=labels(shown) if shown else "")
            blocks += missed_blocks(item, lang, first)
    ending = "recap_review" if missed else "recap_perfect"
    blocks.append(join("\n", [t(lang, ending), t(lang, "recap_footer")]))
    return pack(blocks)


def _shown(item: Missed) -> tuple[int, ...] | None:
    """The shown positions the student picked."""
    chosen = item.chosen
    return None if chosen is None else (chosen,) if isinstance(chosen, int) else tuple(chosen)


def missed_blocks(item: Missed, lang: Lang, first: Safe | None = None) -> list[Safe]:
    """One question of a recap (missed; or, with ``first`` as its head, answered but its whole
    explanation not read): what the student picked, the question, every right answer (a
    several-answers question: its options, the right ones and the picks marked), the feedback
    of each pick, the explanation and the note; one block, or, when a long feedback or note
    would not fit one message, each of those a block of its own, whole."""
    q, perm = item.question, item.permutation
    shown = _shown(item)
    if first is None:
        first = (
            t(lang, "recap_wrong", n=item.number, label=labels(shown))
            if shown
            else t(lang, "recap_skipped", n=item.number)
        )
    if q.kind == "multiple":
        rights = [perm.index(o) for o in q.right_options if o in perm]
        answer = options_block(q, perm, lang, right=rights, chosen=shown)
    else:
        right = perm.index(q.correct)
        answer = t(
            lang, "recap_right", label=label(right), answer=fit(q.options[q.correct](lang), 500)
        )
    lines = [first, fit(q.text(lang), 1500), answer]
    said = explained(q, lang, None if shown is None else [perm[s] for s in shown], perm)
    note = [html("📖 {}", fit(q.note(lang), MESSAGE_LIMIT - 3))] if q.note is not None else []
    whole = join("\n", [*lines, *said, *note])
    if len(whole) <= MESSAGE_LIMIT:
        return [whole]
    return [join("\n", lines), *said, *note]


def recap_setting(lang: Lang, on: bool, *, usage: bool = False) -> Safe:
    """Whether recaps come (``/recap``), with how to change it."""
    now = t(lang, "recap_on" if on else "recap_off")
    return join("\n\n", [now, t(lang, "recap_usage")]) if usage else now


def review_question(
    quiz: Quiz,
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    due: int,
) -> Safe:
    """A question asked in /review: how many are due, the question, its options (or how to
    answer a typed one)."""
    head = [t(lang, "review_head", quiz=quiz.title(lang), due=due), question.text(lang)]
    if question.typed:
        return join("\n\n", [*head, t(lang, "question_typed")])
    foot = t(lang, "question_multiple" if question.kind == "multiple" else "question_untimed")
    return join("\n\n", [*head, options_block(question, permutation, lang), foot])


def review_typed_answered(
    quiz: Quiz, question: Question, lang: Lang, *, given: str, verdict: str, schedule: Safe
) -> Safe:
    """A typed /review question after the student's answer: the answers worth full marks,
    what was typed, the verdict with its feedback, the explanation and when it comes back."""
    return join(
        "\n\n",
        [
            html("🔁 {}", quiz.title(lang)),
            question.text(lang),
            t(lang, "reveal_typed", answers=typed_answers(question, lang)),
            join(
                "\n",
                [
                    t(lang, "typed_yours", given=given),
                    html("<b>{}</b>", verdict),
                    *explained(question, lang),
                ],
            ),
            schedule,
        ],
    )


def review_answered(
    quiz: Quiz,
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    chosen: int | Sequence[int],
    verdict: str,
    schedule: Safe,
) -> Safe:
    """A reviewed question after the tap (``chosen``: the shown position tapped) or the Submit
    (``chosen``: every shown position ticked): the right options marked, the student's own
    picks with their feedback, the verdict, the explanation and when it comes back."""
    rights = [permutation.index(o) for o in question.right_options if o in permutation]
    if isinstance(chosen, int):
        mine = [html("<b>{}</b>", verdict), *explained(question, lang, permutation[chosen])]
    else:
        mine = [
            t(lang, "review_chosen", labels=labels(sorted(chosen))),
            html("<b>{}</b>", verdict),
            *explained(question, lang, [permutation[s] for s in chosen], permutation),
        ]
    return join(
        "\n\n",
        [
            html("🔁 {}", quiz.title(lang)),
            question.text(lang),
            options_block(question, permutation, lang, right=rights, chosen=chosen),
            join("\n", mine),
            schedule,
        ],
    )


def timezone_keyboard(lang: Lang, choices: Sequence[tuple[int, str]]) -> InlineKeyboardMarkup:
    """One button per (minutes east of UTC, label key) for ``/remind``."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, key),
                    callback_data=callbacks.encode(TimezoneData(value)),
                )
            ]
            for value, key in choices
        ]
    )
