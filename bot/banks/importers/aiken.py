"""Moodle's Aiken format: a question, options ``A.`` or ``A)`` (``A)Text`` too, and Bengali
teachers' ``ক)``, ``খ)``...), then ``ANSWER: X``.

::

    What does ZeRO stage 1 shard?
    A. Parameters
    B. Optimizer states
    ANSWER: B
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.banks.importers.model import Draft, Parsed, Problem, clean
from bot.banks.importers.scan import aiken_option, answer_value, letter_index, letters_like


def parse(name: str, text: str) -> Parsed:
    """Every question of an Aiken file; a question without a valid ``ANSWER:`` is reported."""
    out = Parsed()
    question: list[str] = []
    options: list[str] = []
    start = 0
    skipping = False  # after a broken question: ignore lines up to its ANSWER or a blank line
    script = "A"  # the first option's letter: A, B, C... or ক, খ, গ...

    def reset() -> None:
        question.clear()
        options.clear()

    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if skipping:
            skipping = bool(line.strip()) and answer_value(line) is None
            continue
        if not line.strip():
            if options:  # a blank line inside a question: it never got its ANSWER line
                out.skip(f"{name}:{start}", "imp_aiken_no_answer")
                reset()
            elif question:
                question.append("")
            continue
        answer = answer_value(line)
        if answer is not None and question:
            where = f"{name}:{start}"
            letters = letters_like(script, len(options))
            index = letter_index(answer)
            several = _several(answer, letters)
            if not options:
                out.skip(where, "imp_aiken_no_options")
            elif several:  # the several-answers dialect: "ANSWER: A, C"
                shown = ", ".join(letters[i] for i in several)
                out.notes.append(Problem(where, "imp_aiken_several", {"letters": shown}))
                draft = Draft(where, clean("\n".join(question)), tuple(options), several[0])
                out.drafts.append(replace(draft, kind="multiple", rights=several))
            elif index is None or index >= len(options) or answer.upper() not in letters:
                out.skip(
                    where,
                    "imp_aiken_letter",
                    letter=answer[:10],
                    letters=", ".join(letters),
                )
            else:
                out.drafts.append(Draft(where, clean("\n".join(question)), tuple(options), index))
            reset()
            continue
        option = aiken_option(line)
        if option is not None and question:
            if not options:
                script = option[0]
            expected = letters_like(script, len(options) + 1)[-1]
            if option[0] != expected:
                out.skip(f"{name}:{number}", "imp_aiken_order", letter=option[0], expected=expected)
                reset()
                skipping = True
                continue
            options.append(clean(option[1]))
            continue
        if options:  # text after the options but no ANSWER line yet
            out.skip(f"{name}:{start}", "imp_aiken_no_answer")
            reset()
        if not question:
            start = number
        question.append(line)
    if question:
        out.skip(f"{name}:{start}", "imp_aiken_no_answer")
    return out


def _several(answer: str, letters: str) -> tuple[int, ...]:
    """The options ``ANSWER: A, C`` names (several right ones), in order; empty unless it
    names two or more of ``letters``, each once."""
    picks = [p for p in re.split(r"[\s,;]+", answer.strip().upper()) if p]
    if len(picks) < 2 or len(set(picks)) != len(picks) or any(p not in letters for p in picks):
        return ()
    return tuple(sorted(letters.index(p) for p in picks))
