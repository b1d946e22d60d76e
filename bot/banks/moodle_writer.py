"""The quiz model written as Moodle XML, for ``quizbot export-quiz NAME --format moodle-xml``.

Every question is a ``multichoice`` question with ``single`` true, its texts HTML (escaped,
line breaks as ``<br>``) in CDATA sections, each option's own feedback as its answer's
``<feedback>`` (the explanation on the right answer without one), the note as
``<generalfeedback>``; a ``category`` question before each run of questions with the same tag.
What Moodle's "Moodle XML format" import and our reader (bot/banks/importers/moodle.py) both
read back. A bilingual bank is written in one of its
languages. An option's feedback comes from :func:`option_feedback`; a picture joins at
:func:`question_files`.
"""

from __future__ import annotations

from bot.banks.gift_writer import option_feedback
from bot.core.bank import Question, Quiz
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


def _question(question: Question, lang: Lang, shuffle: bool) -> list[str]:
    lines = ['  <question type="multichoice">']
    lines.append(f"    <name><text>{_entities(question.id)}</text></name>")
    lines += _text("questiontext", question.text(lang), "    ")[:-1]
    lines += [f"      {f}" for f in question_files(question, lang)]
    lines.append("    </questiontext>")
    if question.note is not None:
        lines += _text("generalfeedback", question.note(lang), "    ")
    lines += [
        "    <defaultgrade>1</defaultgrade>",
        "    <single>true</single>",
        f"    <shuffleanswers>{'true' if shuffle else 'false'}</shuffleanswers>",
        "    <answernumbering>abc</answernumbering>",
    ]
    for index, option in enumerate(question.options):
        fraction = 100 if index == question.correct else 0
        lines.append(f'    <answer fraction="{fraction}" format="html">')
        lines.append(f"      <text>{cdata(html_of(option(lang)))}</text>")
        feedback = option_feedback(question, index, lang)
        if feedback:
            lines += _text("feedback", feedback, "      ")
        lines.append("    </answer>")
    lines.append("  </question>")
    return lines
