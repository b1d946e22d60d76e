"""A quiz as users read it: announcement, questions, reveals, results, alerts, practice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.banks.resolver import Choice, Found, Listed
from bot.core.bank import Question, Quiz, Text, utf16_len
from bot.core.engine import Answer, Reveal, Score, Verdict
from bot.core.limits import MESSAGE_LIMIT, trim_utf16
from bot.core.limits import bank_limits as bank_limits  # re-exported: callers import it from here
from bot.core.mathtext import readable
from bot.i18n import num, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render.text import (
    ALERT_LIMIT,
    CAPTION_LIMIT,
    fit,
    html_name,
    isolated,
    label,
    plain_text,
    shown_length,
    with_medal,
)

# --- the quiz in a group --------------------------------------------------------------------


def announcement(quiz: Quiz, lang: Lang, seconds: int, count: int | None = None) -> Safe:
    """A run's first message; ``count``: the questions a group run asks, when the quiz's
    typed questions are left out of it (said in a line of its own)."""
    asked = quiz.run_length if count is None else count
    head = t(lang, "announce", title=quiz.title(lang), count=asked, seconds=seconds)
    typed = sum(1 for q in quiz.questions if q.typed)
    if count is None or not typed:
        return head
    return join("\n\n", [head, t(lang, "announce_typed", count=typed)])


def option_text(question: Question, option: int, lang: Lang) -> str:
    """An option's text in ``lang``: a true/false question's in the chat's own words."""
    if question.kind == "truefalse":
        return t_plain(lang, "tf_true" if option == 0 else "tf_false")
    return question.options[option](lang)


def labels(shown: Sequence[int]) -> str:
    """Shown positions as their labels: ``A, C``."""
    return ", ".join(label(s) for s in sorted(shown))


def options_block(
    question: Question,
    permutation: Sequence[int],
    lang: Lang,
    *,
    counts: Sequence[int] | None = None,
    right: int | Sequence[int] | None = None,
    chosen: int | Sequence[int] | None = None,
) -> Safe:
    """Every option on its own line (shown positions): its count if given, the ``right`` ones
    marked ✅, the ``chosen`` ones that are not right marked ❌; for a several-answers question
    with the student's ``chosen`` given, each line starts ☑ (ticked) or ☐, as their keyboard
    showed it."""
    rights = (right,) if isinstance(right, int) else tuple(right or ())
    picks = (chosen,) if isinstance(chosen, int) else tuple(chosen or ())
    ticks = question.kind == "multiple" and chosen is not None
    lines = []
    for shown, option in enumerate(permutation):
        text = html("{}) {}", label(shown), option_text(question, option, lang))
        if counts is not None:
            text = html("{} — {}", text, num(lang, counts[shown]))
        if shown in rights:
            text = html("<b>{}</b> ✅", text)
        elif shown in picks:
            text = html("{} ❌", text)
        if ticks:
            text = html("{} {}", "☑" if shown in picks else "☐", text)
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
    if question.typed:  # private chats only: the student types the answer
        foot = t(lang, "question_typed")
    parts = [t(lang, "question_head", n=number, total=total), question.text(lang)]
    if not question.typed:
        parts.append(options_block(question, permutation, lang))
    if question.kind == "multiple":
        parts.append(t(lang, "question_multiple"))
    return join("\n\n", [*parts, foot])


def caption_fits(
    question: Question, permutation: Sequence[int], lang: Lang, *, number: int, total: int
) -> bool:
    """Whether a question and its longest reveal (the largest counts) both fit in a photo's
    caption, so the question can be the caption of its picture."""
    most = 99_999
    asked = question_message(
        question, permutation, lang, number=number, total=total, seconds=600, answered=most
    )
    counts = tuple(most for _ in permutation)
    longest = Reveal(number - 1, question, tuple(permutation), counts, 0, most, most)
    revealed = reveal_message(longest, lang, total=total)
    return max(shown_length(asked), shown_length(revealed)) <= CAPTION_LIMIT


def group_reveal(reveal: Reveal, lang: Lang, *, total: int) -> Safe:
    """A group's reveal; its note left out when the two would not fit one message (a quiz
    stored before the bank's length check): every student who answered saw the note in their
    own explanation (bot/render/explain.py), the others get it in their recap."""
    whole = reveal_message(reveal, lang, total=total)
    if reveal.question.note is None or utf16_len(plain_text(whole)) <= MESSAGE_LIMIT:
        return whole
    return reveal_message(reveal, lang, total=total, with_note=False)


def note_left_out(question: Question, lang: Lang) -> bool:
    """Whether a question's note may be too long to share its group reveal (counted without
    the option counts and marks, which ``VERDICT_ROOM`` stands for)."""
    if question.note is None:
        return False
    texts = [question.text(lang), question.note(lang), *(o(lang) for o in question.options)]
    if question.explanation is not None:
        texts.append(question.explanation(lang))
    return sum(utf16_len(x) for x in texts) > MESSAGE_LIMIT - VERDICT_ROOM


def reveal_message(
    reveal: Reveal,
    lang: Lang,
    *,
    total: int,
    group: bool = True,
    picked: int | Sequence[int] | None = None,
    with_note: bool = True,
) -> Safe:
    """A closed question: every right option marked, explanation and note; in a ``group`` also
    the count of each option and how many answered and were right; with ``picked`` (bank
    indices: one student's own answer) each of those options marked, with its feedback."""
    q = reveal.question
    if q.typed:
        answer = [t(lang, "reveal_typed", answers=typed_answers(q, lang))]
    elif q.kind == "multiple" or len(reveal.rights_shown) > 1:  # several right: any one
        answer = [t(lang, "reveal_answers", labels=labels(reveal.rights_shown))]
    else:
        answer = [t(lang, "reveal_answer", label=label(reveal.correct_shown))]
    if group and reveal.partly:
        answer.append(
            t(
                lang,
                "reveal_stats_partly",
                answered=reveal.answered,
                right=reveal.right,
                partly=reveal.partly,
            )
        )
    elif group:
        answer.append(t(lang, "reveal_stats", answered=reveal.answered, right=reveal.right))
    parts = [
        t(lang, "reveal_head", n=reveal.q_index + 1, total=total),
        q.text(lang),
        *(
            []
            if q.typed
            else [
                options_block(
                    q,
                    reveal.permutation,
                    lang,
                    counts=reveal.counts if group else None,
                    right=reveal.rights_shown or reveal.correct_shown,
                    chosen=shown_picks(reveal.permutation, picked),
                )
            ]
        ),
        join("\n", answer),
        *explained(q, lang, picked, reveal.permutation),
    ]
    if q.note is not None and with_note and group:  # too long: left out by group_reveal
        parts.append(html("📖 {}", q.note(lang)))
    elif q.note is not None and with_note:
        # a practice reveal is one message: what a bank checked in code points may still be
        # over Telegram's UTF-16 limit (a quiz stored before the check): the note gives way,
        # cut to what fits
        room = MESSAGE_LIMIT - utf16_len(join("\n\n", parts)) - VERDICT_ROOM
        parts.append(html("📖 {}", trim_utf16(q.note(lang), room)))
    return join("\n\n", parts)


VERDICT_ROOM = 300  # UTF-16 units kept for the blank lines, marks and a practice verdict


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
    answer = verdict.answer
    assert answer is not None
    rights = labels([permutation.index(o) for o in question.right_options if o in permutation])
    partly = not answer.correct and answer.fraction > 0
    percent = round(100 * answer.fraction)
    if practice:
        if answer.correct:
            return t_plain(lang, "alert_right_practice")
        if partly:
            return t_plain(lang, "alert_partly_practice", percent=percent, labels=rights)
        return t_plain(lang, "alert_wrong_practice", label=rights)
    if partly:
        return t_plain(lang, "alert_partly", percent=percent, points=answer.points)
    if answer.correct:
        text = t_plain(lang, "alert_right", points=answer.points)
        if answer.streak >= 2:
            text += t_plain(lang, "alert_streak", streak=answer.streak, bonus=answer.bonus)
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
    if verdict.status == "again" and verdict.answer is not None and verdict.answer.picked:
        shown = [permutation.index(o) for o in verdict.answer.picked if o in permutation]
        return t_plain(lang, "alert_again_many", labels=labels(shown))
    if verdict.status == "again":
        return t_plain(lang, "alert_again", label=label(verdict.shown or 0))
    if verdict.status != "accepted":
        key = {"closed": "alert_closed", "stale": "alert_closed"}.get(
            verdict.status, "alert_invalid"
        )
        return t_plain(lang, key)
    prefix = verdict_prefix(lang, verdict, question, permutation, practice=practice)
    assert verdict.answer is not None
    note = alert_note(question, note_option(question, verdict.answer, permutation), lang)
    if note is None:
        return fit(prefix, ALERT_LIMIT)
    return fit(f"{prefix}\n\n{note}", ALERT_LIMIT)


def alert_note(question: Question, option: int, lang: Lang) -> str | None:
    """What a tap on ``option`` (a bank index) says after its verdict: that option's own
    feedback, else the question's explanation; formulas in readable Unicode (an alert shows
    no math)."""
    own = own_feedback(question, option)
    text = own if own is not None else question.explanation
    return None if text is None else readable(text(lang))


def note_option(question: Question, answer: Answer, permutation: Sequence[int]) -> int:
    """The option (a bank index) whose feedback an answer's alert quotes: for several options
    ticked, the first wrong one shown, so a wrong submission never quotes a right option's
    feedback as its verdict; else the first ticked with feedback of its own (the closed
    question lists every ticked option's feedback, this one among them)."""
    picks = answer.options
    if len(picks) < 2:
        return answer.option
    ticked = [o for o in permutation if o in picks]
    wrong = [o for o in ticked if o not in question.right_options]
    if wrong:
        return wrong[0]
    if not answer.correct:
        return -1  # right ones only, not all of them: the question's word on a wrong answer
    own = [o for o in ticked if question.options[o].feedback is not None]
    return (own or ticked)[0]


def shown_picks(
    permutation: Sequence[int], picked: int | Sequence[int] | None
) -> tuple[int, ...] | None:
    """A student's picks (bank indices) as the shown positions they had (None: no pick)."""
    if picked is None:
        return None
    picks = (picked,) if isinstance(picked, int) else tuple(picked)
    return tuple(sorted(permutation.index(o) for o in picks if o in permutation))


def own_feedback(question: Question, option: int) -> Text | None:
    """The feedback of a pick (a bank index): the option's own, else, for a wrong pick, the
    question's feedback for a wrong answer (a true/false question's wrong side keeps it there,
    its two options being the bot's own)."""
    if 0 <= option < len(question.options) and question.options[option].feedback is not None:
        return question.options[option].feedback
    if option not in question.right_options and question.wrong_feedback is not None:
        return question.wrong_feedback
    return None


def typed_answers(question: Question, lang: Lang) -> str:
    """A typed question's answers worth full marks (or its best ones), as a reader of ``lang``
    writes them: ``3.14 ± 0.01 m`` or ``Skin / skin``."""
    accepted = question.accepted
    best = max((a.fraction for a in accepted), default=1.0)
    shown = []
    for a in (a for a in accepted if a.fraction >= best):
        if question.kind == "short":
            shown.append(a.text)
            continue
        value = num(lang, _plain_number(a.value))
        if a.tolerance:
            value += f" ± {num(lang, _plain_number(a.tolerance))}"
        shown.append(f"{value} {question.units[0]}" if question.units else value)
    return " / ".join(shown)


def _plain_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def typed_feedback(lang: Lang, question: Question, answer: Answer) -> str | None:
    """The feedback of the accepted answer a typed answer matched, or the question's own for
    a wrong one (plain text; None: there is none)."""
    if answer.matched is not None and answer.matched < len(question.accepted):
        feedback = question.accepted[answer.matched].feedback
    else:
        feedback = question.wrong_feedback if answer.fraction <= 0 else None
    return None if feedback is None else feedback(lang)


def typed_verdict(lang: Lang, question: Question, answer: Answer, head: str | None = None) -> str:
    """The verdict on a typed answer (plain text): ``head``, or right, partly right or not,
    then the feedback."""
    if head is not None:
        pass
    elif answer.correct:
        head = t_plain(lang, "alert_right_practice")
    elif answer.fraction > 0:
        head = t_plain(lang, "typed_partly", percent=round(100 * answer.fraction))
    else:
        head = t_plain(lang, "typed_wrong")
    feedback = typed_feedback(lang, question, answer)
    return head if feedback is None else f"{head} {feedback}"


def typed_superseded(lang: Lang, question: Question) -> Safe:
    """A text sent before the open typed question was asked: it answered a question that has
    closed since; the one waiting now, named (formulas in Unicode, cut to 200 characters)."""
    return t(lang, "typed_superseded", question=fit(readable(question.text(lang)), 200))


def typed_closed(
    reveal: Reveal,
    lang: Lang,
    *,
    total: int,
    given: str | None,
    verdict: str,
    with_note: bool = True,
) -> Safe:
    """A typed question closed in a private chat: the answers worth full marks, what the
    student typed (``given``; None: nothing, its time ran out) and the ``verdict``; its note
    as far as the message holds it."""
    q = reveal.question
    parts = [
        t(lang, "reveal_head", n=reveal.q_index + 1, total=total),
        q.text(lang),
        t(lang, "reveal_typed", answers=typed_answers(q, lang)),
    ]
    mine = [html("<b>{}</b>", verdict)]
    if given is not None:
        mine.insert(0, t(lang, "typed_yours", given=given))
    parts += [join("\n", mine), *explained(q, lang)]
    if q.note is not None and with_note:
        room = MESSAGE_LIMIT - utf16_len(plain_text(join("\n\n", parts))) - 8
        parts.append(html("📖 {}", trim_utf16(q.note(lang), max(room, 1))))
    return join("\n\n", parts)


def typed_parts(
    reveal: Reveal, lang: Lang, *, total: int, given: str | None, verdict: str
) -> tuple[Safe, Safe | None]:
    """A typed question closed in practice, and its note as a message of its own when the two
    would not fit one message (as ``practice_parts``)."""
    without = typed_closed(reveal, lang, total=total, given=given, verdict=verdict, with_note=False)
    aside = note_aside(reveal.question, lang, without)
    if aside is not None or reveal.question.note is None:
        return without, aside
    return typed_closed(reveal, lang, total=total, given=given, verdict=verdict), None


def note_aside(question: Question, lang: Lang, shown: Safe) -> Safe | None:
    """The question's note as a message of its own when it does not fit beside ``shown`` (a
    closed question without it): whole, cut only past a message; None when it fits."""
    note = question.note
    if note is None:
        return None
    if utf16_len(plain_text(shown)) + utf16_len(note(lang)) + VERDICT_ROOM <= MESSAGE_LIMIT:
        return None
    return html("📖 {}", fit(note(lang), MESSAGE_LIMIT - 3))


def choice_alert(lang: Lang, shown: Sequence[int]) -> str:
    """What a tap on an option of a several-answers question says: the student's choice so
    far (at most 200 characters: ten labels at most)."""
    if not shown:
        return t_plain(lang, "alert_choice_none")
    return fit(t_plain(lang, "alert_choice", labels=labels(shown)), ALERT_LIMIT)


# --- choosing a quiz, and private practice ---------------------------------------------------


LIST_ROOM = MESSAGE_LIMIT - 800  # UTF-16 units a list may take: room for lines after it


def quiz_list(
    quizzes: Sequence[Quiz | Listed],
    lang: Lang,
    head_key: str = "quiz_list",
    names: Mapping[str, str] | None = None,
) -> Safe:
    """The list of quizzes, each under the name ``/quiz`` takes (``names``: id -> name): the
    first :func:`list_fit` of them, then how many more there are."""
    if not quizzes:
        return t(lang, "quiz_none")
    head = t(lang, head_key)
    lines = _fitting_lines(head, quizzes, lang, names or {})
    left = len(quizzes) - len(lines)
    return join("\n", [head, *lines, *([t(lang, "quiz_list_more", count=left)] if left else [])])


def list_fit(
    quizzes: Sequence[Quiz | Listed],
    lang: Lang,
    head_key: str = "quiz_list",
    names: Mapping[str, str] | None = None,
) -> int:
    """How many of ``quizzes`` :func:`quiz_list` shows: as many as fit in one message."""
    return len(_fitting_lines(t(lang, head_key), quizzes, lang, names or {}))


def _fitting_lines(
    head: Safe, quizzes: Sequence[Quiz | Listed], lang: Lang, names: Mapping[str, str]
) -> list[Safe]:
    """The lines of the first quizzes that fit under ``head`` (the rest are not rendered)."""
    lines: list[Safe] = []
    size = utf16_len(str(head))
    for n, q in enumerate(quizzes, start=1):
        line = t(
            lang,
            "quiz_list_item",
            n=n,
            id=names.get(q.id, q.handle),  # a name: ASCII or Bengali words (copied from code)
            title=isolated(q.title(lang)),
            count=q.run_length,
        )
        size += utf16_len(str(line)) + 1
        if size > LIST_ROOM:
            break
        lines.append(line)
    return lines


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
        t(lang, "pick_item", n=n, title=isolated(c.title(lang)), command=command, name=c.name)
        for n, c in enumerate(choices, start=1)
    ]
    return join("\n", [head, *lines, t(lang, "pick_number", command=command)])


def practice_answered(
    reveal: Reveal,
    lang: Lang,
    *,
    total: int,
    verdict: str,
    picked: int | Sequence[int] | None = None,
    with_note: bool = True,
) -> Safe:
    """A practice question after the tap: its reveal (the student's ``picked`` options, bank
    indices, each with its feedback) and the verdict."""
    shown = reveal_message(
        reveal, lang, total=total, group=False, picked=picked, with_note=with_note
    )
    return join("\n\n", [shown, html("<b>{}</b>", verdict)])


def practice_parts(
    reveal: Reveal,
    lang: Lang,
    *,
    total: int,
    verdict: str,
    picked: int | Sequence[int] | None = None,
) -> tuple[Safe, Safe | None]:
    """A practice question after the tap, and its note as a message of its own when the two
    would not fit one message: moved whole, not cut (only a note longer than a whole message
    is cut)."""
    without = practice_answered(
        reveal, lang, total=total, verdict=verdict, picked=picked, with_note=False
    )
    aside = note_aside(reveal.question, lang, without)
    if aside is not None or reveal.question.note is None:
        return without, aside
    return practice_answered(reveal, lang, total=total, verdict=verdict, picked=picked), None


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


def explained(
    question: Question,
    lang: Lang,
    picked: int | Sequence[int] | None = None,
    permutation: Sequence[int] | None = None,
) -> list[Safe]:
    """What a closed question explains: the feedback of the student's own picks (``picked``,
    bank indices; for a several-answers question each ticked option's, labelled as shown by
    ``permutation``), then the question's explanation; without a pick (a group's reveal) the
    explanation, else the right option's feedback."""
    picks = () if picked is None else (picked,) if isinstance(picked, int) else tuple(picked)
    picks = tuple(o for o in picks if 0 <= o < len(question.options))
    lines: list[Safe] = []
    if question.kind == "multiple" and picks:
        order = permutation if permutation is not None else range(len(question.options))
        for shown, option in enumerate(order):
            feedback = own_feedback(question, option) if option in picks else None
            if feedback is not None:
                lines.append(html("💬 {}) {}", label(shown), feedback(lang)))
    elif picks:
        feedback = own_feedback(question, picks[0])
        if feedback is not None:
            lines.append(html("💬 {}", feedback(lang)))
    if question.explanation is not None:
        lines.append(html("💡 {}", question.explanation(lang)))
    elif (
        question.correct not in picks
        and question.correct < len(question.options)
        and (question.kind != "multiple" or not picks)
    ):
        right = question.options[question.correct].feedback
        if right is not None:
            lines.append(html("💡 {}", right(lang)))
    return lines
