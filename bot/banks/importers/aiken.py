"""Moodle's Aiken format: a question, options ``A.`` or ``A)``, then ``ANSWER: X``.

::

    What does ZeRO stage 1 shard?
    A. Parameters
    B. Optimizer states
    ANSWER: B
"""

from __future__ import annotations

import re

from bot.banks.importers.model import Draft, Parsed, clean
from bot.i18n import letter_index

_OPTION = re.compile(r"^\s*([A-Z]|[\u0995-\u099e])\s*[.)]\s+(.*\S)\s*$")  # A) or ক)
_ANSWER = re.compile(r"^\s*ANSWER\s*:\s*(.*?)\s*$", re.IGNORECASE)


def parse(name: str, text: str) -> Parsed:
    """Every question of an Aiken file; a question without a valid ``ANSWER:`` is reported."""
    out = Parsed()
    question: list[str] = []
    options: list[str] = []
    start = 0
    skipping = False  # after a broken question: ignore lines up to its ANSWER or a blank line

    def reset() -> None:
        question.clear()
        options.clear()

    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if skipping:
            skipping = bool(line.strip()) and not _ANSWER.match(line)
            continue
        if not line.strip():
            if options:  # a blank line inside a question: it never got its ANSWER line
                out.skip(f"{name}:{start}", "imp_aiken_no_answer")
                reset()
            elif question:
                question.append("")
            continue
        answer = _ANSWER.match(line)
        if answer and question:
            where = f"{name}:{start}"
            chosen = letter_index(answer.group(1))  # A, or the Bengali ক
            letters = [chr(ord("A") + i) for i in range(len(options))]
            if not options:
                out.skip(where, "imp_aiken_no_options")
            elif chosen is None or chosen >= len(options):
                out.skip(
                    where,
                    "imp_aiken_letter",
                    letter=answer.group(1)[:10],
                    letters=", ".join(letters),
                )
            else:
                out.drafts.append(Draft(where, clean("\n".join(question)), tuple(options), chosen))
            reset()
            continue
        option = _OPTION.match(line)
        if option and question:
            expected = chr(ord("A") + len(options))
            if letter_index(option.group(1)) != len(options):
                out.skip(
                    f"{name}:{number}", "imp_aiken_order", letter=option.group(1), expected=expected
                )
                reset()
                skipping = True
                continue
            options.append(clean(option.group(2)))
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
