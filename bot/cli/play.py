"""``quizbot play``: a quiz in the terminal, as a student meets it, for question authors.

Every kind of question is asked: one right option and true/false by its letter, several right
answers by letters joined ("A,C"), a number or a short answer typed on a line, judged by the
engine as the bot judges it (bot/core/scoring.py). Formulas are shown in readable Unicode.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from bot import render
from bot.core.bank import Question, Quiz
from bot.core.engine import QuizEngine, Verdict, make_plan
from bot.core.mathtext import readable
from bot.core.scoring import typed_readable
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang

_SEPARATORS = str.maketrans({",": " ", ";": " ", "،": " ", "/": " "})


def play(
    quiz: Quiz,
    lang: Lang,
    read: Callable[[], str | None],
    out: TextIO,
    rng: random.Random,
    clock: Callable[[], float],
) -> tuple[int, int]:
    """Play ``quiz``; ``read`` returns the next answer line, or None at end of input.

    Returns (right, asked): right counts full marks only. An answer that cannot be judged (not
    one of the labels, not a number where one is asked, blank) is asked again.
    """
    engine = QuizEngine(quiz, make_plan(quiz, rng), 0)
    right = asked = 0
    print(render.plain_text(render.announcement(quiz, lang, 0)).split("\n")[0], file=out)
    while True:
        print("\n" + _shown(engine, lang), file=out)
        engine.open(clock())
        verdict = _answer(engine, lang, read, out, clock)
        if verdict is None:
            print("", file=out)
            print(t_plain(lang, "cli_score", right=right, asked=asked), file=out)
            return right, asked
        asked += 1
        assert verdict.answer is not None
        right += int(verdict.answer.correct)
        print(_feedback(engine, verdict, lang), file=out)
        engine.close()
        if not engine.advance():
            break
    print("\n" + t_plain(lang, "cli_score", right=right, asked=asked), file=out)
    return right, asked


def _shown(engine: QuizEngine, lang: Lang) -> str:
    """The open question as the bot posts it, formulas in readable Unicode (a terminal renders
    no math), its Telegram hint (tap Submit, send a message) told as the terminal's."""
    question = engine.question
    text = render.plain_text(
        render.question_message(
            question,
            engine.permutation,
            lang,
            number=engine.current + 1,
            total=engine.count,
            seconds=0,
            answered=0,
        ),
        math=True,
    )
    labels = ", ".join(render.label(i) for i in range(len(question.options)))
    hints = {"multiple": ("question_multiple", "play_usage_many")}
    hints.update(dict.fromkeys(("numeric", "short"), ("question_typed", "play_usage_typed")))
    if question.kind in hints:
        bot_hint, terminal_hint = hints[question.kind]
        told = render.plain_text(t(lang, bot_hint))
        text = text.replace(told, t_plain(lang, terminal_hint, labels=labels))
    return text


def _answer(
    engine: QuizEngine,
    lang: Lang,
    read: Callable[[], str | None],
    out: TextIO,
    clock: Callable[[], float],
) -> Verdict | None:
    """The student's answer to the open question, asked until one can be judged; None at the
    end of input."""
    question = engine.question
    labels = [render.label(i) for i in range(len(question.options))]
    while True:
        prompt = "> " if question.typed else f"> ({'/'.join(labels)}) "
        print(prompt, end="", file=out, flush=True)
        line = read()
        if line is None:
            return None
        if question.typed:
            if typed_readable(question, line):
                return engine.answer_typed(0, engine.current, line, clock())
            key = "typed_not_number" if question.kind == "numeric" else "play_usage_typed"
            print(t_plain(lang, key), file=out)
            continue
        picked = _letters(line, labels)
        if question.kind == "multiple" and picked:
            return engine.answer_many(0, engine.current, picked, clock())
        if len(picked) == 1:
            return engine.answer(0, engine.current, picked[0], clock())
        key = "play_usage_many" if question.kind == "multiple" else "quiz_usage_play"
        print(t_plain(lang, key, labels=", ".join(labels)), file=out)


def _letters(line: str, labels: list[str]) -> tuple[int, ...]:
    """The shown positions a line names ("A", "a, c", "A C", "AC"), each once, in order; none
    if anything else is on it."""
    words = line.translate(_SEPARATORS).upper().split()
    if len(words) == 1 and words[0] not in labels:
        words = list(words[0])  # "AC"
    if not words or any(w not in labels for w in words):
        return ()
    return tuple(sorted({labels.index(w) for w in words}))


def _feedback(engine: QuizEngine, verdict: Verdict, lang: Lang) -> str:
    """The verdict on an accepted answer and what the question says about it, as the bot's
    private practice says it (plain text, formulas in readable Unicode)."""
    question = engine.question
    answer = verdict.answer
    assert answer is not None
    if question.typed:
        lines = [render.typed_verdict(lang, question, answer)]
        if not answer.correct:
            lines.append(
                t_plain(lang, "reveal_typed", answers=render.typed_answers(question, lang))
            )
        lines += _explanation(question, lang)
    else:
        prefix = render.verdict_prefix(lang, verdict, question, engine.permutation, practice=True)
        lines = [prefix]
        if question.kind == "multiple":
            lines += _explanation(question, lang)
        else:
            note = render.alert_note(question, answer.option, lang)
            lines += [] if note is None else [note]
    return readable("\n".join(lines))


def _explanation(question: Question, lang: Lang) -> list[str]:
    return [] if question.explanation is None else [question.explanation(lang)]
