"""``quizbot play``: a quiz in the terminal, as a student meets it, for question authors."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from bot import render
from bot.core.bank import Quiz
from bot.core.engine import QuizEngine, make_plan
from bot.i18n import t_plain
from bot.i18n.lang import Lang


def play(
    quiz: Quiz,
    lang: Lang,
    read: Callable[[], str | None],
    out: TextIO,
    rng: random.Random,
    clock: Callable[[], float],
) -> tuple[int, int]:
    """Play ``quiz``; ``read`` returns the next answer line, or None at end of input.

    Returns (right, asked). An answer that is not one of the labels is asked again.
    """
    engine = QuizEngine(quiz, make_plan(quiz, rng, typed=False), 0)
    right = asked = 0
    print(render.plain_text(render.announcement(quiz, lang, 0)).split("\n")[0], file=out)
    while True:
        question = engine.question
        print(
            "\n"
            + render.plain_text(  # formulas in readable Unicode: a terminal renders no math
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
            ),
            file=out,
        )
        engine.open(clock())
        labels = [render.label(i) for i in range(len(question.options))]
        shown = None
        while shown is None:
            print(f"> ({'/'.join(labels)}) ", end="", file=out, flush=True)
            line = read()
            if line is None:
                print("", file=out)
                print(t_plain(lang, "cli_score", right=right, asked=asked), file=out)
                return right, asked
            choice = line.strip().upper()
            if choice in labels:
                shown = labels.index(choice)
            else:
                print(t_plain(lang, "quiz_usage_play", labels=", ".join(labels)), file=out)
        verdict = engine.answer(0, engine.current, shown, clock())
        asked += 1
        assert verdict.answer is not None
        right += int(verdict.answer.correct)
        prefix = render.verdict_prefix(lang, verdict, question, engine.permutation, practice=True)
        note = render.alert_note(question, verdict.answer.option, lang)
        print(prefix if note is None else f"{prefix}\n{note}", file=out)
        engine.close()
        if not engine.advance():
            break
    print("\n" + t_plain(lang, "cli_score", right=right, asked=asked), file=out)
    return right, asked
