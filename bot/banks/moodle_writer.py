"""The quiz model written as Moodle XML, for ``quizbot export-quiz NAME --format moodle-xml``.

Every question as Moodle's own type: ``multichoice`` (``single`` false for several right
answers, every answer's ``fraction``), ``truefalse``, ``numerical`` (tolerances, units of
multiplier 1) and ``shortanswer`` (``usecase``; a wrong answer's feedback on an answer ``*``),
its texts HTML (escaped, line breaks as ``<br>``) in CDATA sections, each option's own feedback
as its answer's ``<feedback>`` (the explanation on the right answer without one), the note as
``<generalfeedback>`` (after the explanation when no answer carries it); a ``category``
question before each run of questions with the same tag.
What Moodle's "Moodle XML format" import and our reader (bot/banks/importers/moodle.py) both
read back. A bilingual bank is written in one of its languages. An option's feedback comes
from :func:`option_feedback`; a picture joins at :func:`question_files`.
"""

from __future__ import annotations

from bot.banks.gift_writer import (
    explanation_carried,
    general_feedback,
    option_feedback,
    percent,
    plain_number,
)
from bot.core.bank import Question, Quiz
from bot.core.scoring import option_credit
from bot.i18n.lang import Lang

__all__ = ["option_feedback", "question_files", "write_moodle_xml"]


def _entities(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (a file for Moodle, not a Telegram message)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cdata(html: str) -> str:
    """``html`` in a CDATA section (a ``]]>`` inside split across two sections)."""
    return "<![CDATA[" + html.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def html_of(text: str) -> str:
    """Plain text as the HTML Moodle shows: escaped, each line break a ``<br>``."""
    return "<br>".join(_entities(line) for line in text.replace("\r\n", "\n").split("\n"))


def _text(tag: str, text: str, indent: str) -> list[str]:
    return [
        f'{indent}<{tag} format="html">',
        f"{indent}  <text>{cdata(html_of(text))}</text>",
        f"{indent}</{tag}>",
    ]


def question_files(question: Question, lang: Lang) -> list[str]:
    """The ``<file>`` elements of a question's text (a picture, once the model carries one):
    none yet."""
    return []


def write_moodle_xml(quiz: Quiz, lang: Lang) -> str:
    """``quiz`` as the text of a Moodle XML file, its texts in ``lang`` (a one-language bank:
    its own)."""
    title = " ".join(quiz.title(lang).split()).replace("--", "- -")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>", f"<!-- {title} -->"]
    tag: str | None = None
    for question in quiz.questions:
        if question.tag != tag:
            path = f"$course$/top/{question.tag or ''}".rstrip("/")
            lines += [
                '  <question type="category">',
                f"    <category><text>{_entities(path)}</text></category>",
                "  </question>",
            ]
            tag = question.tag
        lines += _question(question, lang, quiz.shuffle)
    lines += ["</quiz>", ""]
    return "\n".join(lines)


_TYPES = {"single": "multichoice", "multiple": "multichoice", "truefalse": "truefalse"}


def _question(question: Question, lang: Lang, shuffle: bool) -> list[str]:
    kind = _TYPES.get(question.kind, "numerical" if question.kind == "numeric" else "shortanswer")
    lines = [f'  <question type="{kind}">']
    lines.append(f"    <name><text>{_entities(question.id)}</text></name>")
    lines += _text("questiontext", question.text(lang), "    ")[:-1]
    lines += [f"      {f}" for f in question_files(question, lang)]
    lines.append("    </questiontext>")
    general = general_feedback(question, lang, carried=explanation_carried(question))
    if general is not None:
        lines += _text("generalfeedback", general, "    ")
    lines.append("    <defaultgrade>1</defaultgrade>")
    if kind == "multichoice":
        lines += [
            f"    <single>{'false' if question.kind == 'multiple' else 'true'}</single>",
            f"    <shuffleanswers>{'true' if shuffle else 'false'}</shuffleanswers>",
            "    <answernumbering>abc</answernumbering>",
        ]
    if question.typed:
        return [*lines, *_typed(question, lang), "  </question>"]
    credit = option_credit(question)
    for index, option in enumerate(question.options):
        text = ("true" if index == 0 else "false") if kind == "truefalse" else option(lang)
        feedback = option_feedback(question, index, lang)
        if kind == "truefalse" and index != question.correct and question.wrong_feedback:
            feedback = question.wrong_feedback(lang)
        lines += _answer(percent(credit[index]), text, feedback, [])
    lines.append("  </question>")
    return lines


def _answer(fraction: str, text: str, feedback: str | None, extra: list[str]) -> list[str]:
    lines = [f'    <answer fraction="{fraction}" format="html">']
    lines.append(f"      <text>{cdata(html_of(text))}</text>")
    lines += [f"      {line}" for line in extra]
    if feedback:
        lines += _text("feedback", feedback, "      ")
    lines.append("    </answer>")
    return lines


def _typed(question: Question, lang: Lang) -> list[str]:
    """A ``numerical`` question's answers (value, ``<tolerance>``) and ``<units>``, or a
    ``shortanswer`` one's with ``<usecase>``; the wrong answers' feedback on an answer ``*``."""
    numeric = question.kind == "numeric"
    lines = [] if numeric else [f"    <usecase>{int(question.case_sensitive)}</usecase>"]
    for accepted in question.accepted:
        feedback = accepted.feedback(lang) if accepted.feedback else None
        if numeric:
            tolerance = [f"<tolerance>{plain_number(accepted.tolerance)}</tolerance>"]
            lines += _answer(
                percent(accepted.fraction), plain_number(accepted.value), feedback, tolerance
            )
        else:
            lines += _answer(percent(accepted.fraction), accepted.text, feedback, [])
    if question.wrong_feedback is not None:
        tolerance = ["<tolerance>0</tolerance>"] if numeric else []
        lines += _answer("0", "*", question.wrong_feedback(lang), tolerance)
    if numeric and question.units:
        lines.append("    <units>")
        for unit in question.units:
            lines += [
                "      <unit>",
                "        <multiplier>1</multiplier>",
                f"        <unit_name>{_entities(unit)}</unit_name>",
                "      </unit>",
            ]
        lines.append("    </units>")
    return lines
