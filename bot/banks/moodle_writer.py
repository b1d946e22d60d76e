"""The quiz model written as Moodle XML, for ``quizbot export-quiz NAME --format moodle-xml``.

Every question as Moodle's own type: ``multichoice`` (``single`` false for several right
answers, every answer's ``fraction``), ``truefalse``, ``numerical`` (tolerances, units of
multiplier 1) and ``shortanswer`` (``usecase``; a wrong answer's feedback on an answer ``*``),
its texts HTML (escaped, line breaks as ``<br>``) in CDATA sections, each option's own feedback
as its answer's ``<feedback>`` (the explanation on the right answer without one), the note as
``<generalfeedback>`` (after the explanation when no answer carries it); a ``category``
question before each run of questions with the same tag. A short answer is plain text, as
Moodle compares it with what is typed (``moodle_auto_format``), a literal ``*`` written ``\\*``
(Moodle's wildcard otherwise). A question's picture is linked from its text
(``@@PLUGINFILE@@/name``) and carried in it, base64 (:func:`question_files`), as Moodle's own
exports do (bot/banks/export_files.py).
What Moodle's "Moodle XML format" import and our reader (bot/banks/importers/moodle.py) both
read back. A bilingual bank is written in one of its languages. An option's feedback comes
from :func:`option_feedback`.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping

from bot.banks.export_files import (
    entities,
    html_of,
    img_tag,
    picture_names,
    shortanswer_text,
)
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

__all__ = ["html_of", "option_feedback", "question_files", "write_moodle_xml"]


def cdata(html: str) -> str:
    """``html`` in a CDATA section (a ``]]>`` inside split across two sections)."""
    return "<![CDATA[" + html.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _text(tag: str, text: str, indent: str) -> list[str]:
    return [
        f'{indent}<{tag} format="html">',
        f"{indent}  <text>{cdata(html_of(text))}</text>",
        f"{indent}</{tag}>",
    ]


def question_files(name: str | None, data: bytes | None) -> list[str]:
    """The ``<file>`` element of a question's picture, its bytes in base64 (none without)."""
    if name is None or data is None:
        return []
    attribute = entities(name).replace('"', "&quot;")
    encoded = base64.b64encode(data).decode("ascii")
    return [f'<file name="{attribute}" path="/" encoding="base64">{encoded}</file>']


def write_moodle_xml(quiz: Quiz, lang: Lang, pictures: Mapping[str, bytes] | None = None) -> str:
    """``quiz`` as the text of a Moodle XML file, its texts in ``lang`` (a one-language bank:
    its own); each question's picture whose bytes ``pictures`` holds (by its name in the bank)
    carried in it."""
    given = pictures or {}
    names = picture_names(quiz, given)
    title = " ".join(quiz.title(lang).split()).replace("--", "- -")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>", f"<!-- {title} -->"]
    tag: str | None = None
    for question in quiz.questions:
        if question.tag != tag:
            path = f"$course$/top/{question.tag or ''}".rstrip("/")
            lines += [
                '  <question type="category">',
                f"    <category><text>{entities(path)}</text></category>",
                "  </question>",
            ]
            tag = question.tag
        file = question.image.file if question.image is not None else ""
        picture = (names[file], given[file]) if file in names else None
        lines += _question(question, lang, quiz.shuffle, picture)
    lines += ["</quiz>", ""]
    return "\n".join(lines)


_TYPES = {"single": "multichoice", "multiple": "multichoice", "truefalse": "truefalse"}


def _question(
    question: Question, lang: Lang, shuffle: bool, picture: tuple[str, bytes] | None
) -> list[str]:
    kind = _TYPES.get(question.kind, "numerical" if question.kind == "numeric" else "shortanswer")
    lines = [f'  <question type="{kind}">']
    lines.append(f"    <name><text>{entities(question.id)}</text></name>")
    html = html_of(question.text(lang))
    if picture is not None:
        html += "<br>" + img_tag(picture[0])
    lines += [
        '    <questiontext format="html">',
        f"      <text>{cdata(html)}</text>",
        *[f"      {f}" for f in question_files(*(picture or (None, None)))],
        "    </questiontext>",
    ]
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
        lines += _answer(percent(credit[index]), cdata(html_of(text)), feedback, [])
    lines.append("  </question>")
    return lines


def _answer(
    fraction: str, text: str, feedback: str | None, extra: list[str], fmt: str = "html"
) -> list[str]:
    """An ``<answer>``: ``text`` as it goes into ``<text>`` (CDATA, or XML escaped)."""
    lines = [f'    <answer fraction="{fraction}" format="{fmt}">']
    lines.append(f"      <text>{text}</text>")
    lines += [f"      {line}" for line in extra]
    if feedback:
        lines += _text("feedback", feedback, "      ")
    lines.append("    </answer>")
    return lines


def _typed(question: Question, lang: Lang) -> list[str]:
    """A ``numerical`` question's answers (value, ``<tolerance>``) and ``<units>``, or a
    ``shortanswer`` one's with ``<usecase>``; the wrong answers' feedback on an answer ``*``.
    Their texts are plain, as Moodle reads them (``moodle_auto_format``)."""
    numeric = question.kind == "numeric"
    lines = [] if numeric else [f"    <usecase>{int(question.case_sensitive)}</usecase>"]
    plain = "moodle_auto_format"
    for accepted in question.accepted:
        feedback = accepted.feedback(lang) if accepted.feedback else None
        fraction = percent(accepted.fraction)
        if numeric:
            tolerance = [f"<tolerance>{plain_number(accepted.tolerance)}</tolerance>"]
            value = plain_number(accepted.value)
            lines += _answer(fraction, value, feedback, tolerance, plain)
        else:
            text = cdata(shortanswer_text(accepted.text))
            lines += _answer(fraction, text, feedback, [], plain)
    if question.wrong_feedback is not None:
        tolerance = ["<tolerance>0</tolerance>"] if numeric else []
        lines += _answer("0", "*", question.wrong_feedback(lang), tolerance, plain)
    if numeric and question.units:
        lines.append("    <units>")
        for unit in question.units:
            lines += [
                "      <unit>",
                "        <multiplier>1</multiplier>",
                f"        <unit_name>{entities(unit)}</unit_name>",
                "      </unit>",
            ]
        lines.append("    </units>")
    return lines
