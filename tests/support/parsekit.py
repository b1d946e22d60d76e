"""Jobs for the parsing workers' tests (bot.banks.importers.sandbox), importable by a worker,
the hostile inputs once quadratic, and a quiz as GIFT and Moodle XML carry it (round trips)."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from bot.banks.importers import import_bytes
from bot.banks.importers.sandbox import Failed, ParsePool
from bot.core.bank import Question, Quiz, Text

T = TypeVar("T")


def spin() -> None:
    """A job that never ends on its own (only the CPU limit stops it)."""
    while True:
        pass


def hog() -> int:
    """A job that asks for 4 GB."""
    return len(bytearray(4 * 1024 * 1024 * 1024))


GATE_SECONDS = 90.0  # a held job goes on by itself after this (a test that never opens it)


def gated(gate: str, fn: Callable[..., T], args: tuple[object, ...]) -> T:
    """``fn(*args)`` once the test opens the gate: the job marks ``gate/started``, then waits
    for ``gate/open``. If it is never opened (the test itself cannot run: the job holds the
    event loop), it goes on after ``GATE_SECONDS`` and marks ``gate/gave_up``."""
    folder = Path(gate)
    (folder / "started").touch()
    deadline = time.monotonic() + GATE_SECONDS
    while not (folder / "open").exists():
        if time.monotonic() > deadline:
            (folder / "gave_up").touch()
            break
        time.sleep(0.01)
    return fn(*args)


class HeldJobs(ParsePool):
    """Each job waits in its worker until the test opens its gate (a folder: ``gated``)."""

    gate = ""

    async def run(self, fn: Callable[..., T], *args: object) -> T | Failed:
        return await super().run(gated, self.gate, fn, args)


def where() -> tuple[int, int, int]:
    """The worker's pid, its memory limit and its CPU limit."""
    return (
        os.getpid(),
        resource.getrlimit(resource.RLIMIT_AS)[0],
        resource.getrlimit(resource.RLIMIT_CPU)[0],
    )


def read(name: str, data: bytes) -> tuple[str, str | None]:
    """An import's format and why nothing (or not everything) was imported."""
    report = import_bytes(name, data, quiz_id="h", max_bytes=8 * 1024 * 1024)
    if report.fatal is not None:
        return report.format, report.fatal.key
    return report.format, report.problems[0].key if report.problems else None


def moodle_html(markup: bytes) -> bytes:
    """A Moodle XML file whose one question's text is ``markup`` in CDATA."""
    return (
        b'<?xml version="1.0"?><quiz><question type="multichoice"><questiontext format="html">'
        b"<text><![CDATA[" + markup + b"]]></text></questiontext>"
        b'<answer fraction="100"><text>a</text></answer>'
        b'<answer fraction="0"><text>b</text></answer></question></quiz>'
    )


#: an Aiken question first, so that a file is recognised as Aiken by its first lines
AIKEN = b"Fine?\nA. yes\nB. no\nANSWER: A\n\n"


def hostile(size: int) -> dict[str, bytes]:
    """Files of about ``size`` bytes that regular expressions read in quadratic time."""
    tag = "<a‹a".encode()
    return {
        "braces.txt": b"x" + b"{" * size,  # \{[^}]*[=~]
        "blank-lines.txt": b"\n" * size + b"ANSWER",  # MULTILINE ^\s*ANSWER
        "aiken.txt": AIKEN + b"Q?\nA." + b" " * size + b"x\nANSWER: A\n",  # \s+(.*\S)\s*$
        "answer.txt": AIKEN + b"Q?\nA. x\nB. y\nANSWER: " + b" " * size + b"x\n",  # (.*?)\s*$
        "header.csv": b"question," + b" " * min(size, 60_000) + b"x,A,B,answer\n",  # \s*\(
        "options.gift": b"Q {" + b"~" * size + b"}",
        "html.gift": b"[html]" + tag * (size // len(tag)) + b"{=a ~b}",
        "html.xml": moodle_html(tag * (size // len(tag))),
        "comments.xml": moodle_html(b"<!--" * (size // 4)),
        "quotes.xml": moodle_html(b"<a " + b"'" * size),
        # the CSV reader: quoted cells, escaped quotes, quotes never closed
        "quotes.csv": b"question,A,B,answer\n" + b'"' * size,
        "open-quotes.csv": b"question,A,B,answer\n" + b'x,"' * (size // 3),
        "stray-quotes.csv": b"question,A,B,answer\n" + b'"a"b,' * (size // 5),
        "right-marks.gift": b"Q {" + b"~=" * (size // 2) + b"}",
        # typed answers: numbers, intervals, weights
        "numbers.gift": b"Q {#" + b"=" * size + b"}",
        "interval.gift": b"Q {#" + b"." * size + b"}",
        "weights.gift": b"Q {=%" + b"1" * size + b"}",
        # pictures pasted as data: URIs, decoded and named, never printed
        "datauri.gift": b'Q <img src="data:image/png;base64,' + b"A" * size + b'"> {=a ~b}',
        "datauris.gift": b"Q <img src=" + b"data:," * (size // 6) + b"> {=a ~b}",
        "datauri.xml": moodle_html(b'<img src="data:image/png;base64,' + b"QUJD" * (size // 4)),
        # Markdown's pictures: links never closed, alts never closed
        "md-links.gift": b"[markdown]Q " + b"![a](" * (size // 5) + b" {=a ~b}",
        "md-alts.gift": b"[markdown]Q ![x](y.png) " + b"![" * (size // 2) + b"{=a ~b}",
    }


def as_exported(quiz: Quiz) -> Quiz:
    """``quiz`` as GIFT and Moodle XML carry it: an explanation is the right answer's own
    feedback there (when that option has none of its own), and comes back as such; else (the
    right answer has feedback of its own, or a typed question has no options) it goes before
    the note in the general feedback, and comes back in the note; a true/false question keeps
    it (its options are the bank's own)."""
    questions = []
    for q in quiz.questions:
        if q.kind == "truefalse" or q.explanation is None:
            questions.append(q)
            continue
        explanation = q.explanation
        right = q.options[q.correct] if q.options else None
        if right is not None and right.feedback in (None, explanation):
            options = list(q.options)
            options[q.correct] = replace(right, feedback=explanation)
            q = replace(q, options=tuple(options), explanation=None)
        else:
            q = replace(q, explanation=None, note=_before(explanation, q))
        questions.append(q)
    return replace(quiz, questions=tuple(questions))


def _before(explanation: Text, question: Question) -> Text:
    """The explanation, then the question's note after a blank line."""
    note = question.note
    if note is None:
        return explanation
    return Text(f"{explanation.bn}\n\n{note.bn}", f"{explanation.en}\n\n{note.en}")
