"""The quiz model written as Moodle's GIFT, for ``quizbot export-quiz NAME --format gift``.

What our GIFT reader (bot/banks/importers/gift.py) and Moodle's both read back: one question a
block, ``::id::[plain]text {=right#feedback ~wrong#feedback ####note}``, ``$CATEGORY:`` before each
run of questions with the same tag, every GIFT special character (``~ = # { } :`` and ``\\``)
escaped with a backslash and line breaks as ``\\n``. A bilingual bank is written in one of its
languages. Each option's own feedback (the explanation on the right option when it has none):
:func:`option_feedback`; the explanation no option carries goes before the note in the general
feedback (``####``): :func:`general_feedback`. A question's picture is linked from its text
(``[html]``, ``<img src="@@PLUGINFILE@@/name">``), its file beside the GIFT file in the .zip
bot/banks/export.py writes (bot/banks/export_files.py). A literal ``*`` in a short answer is
``\\*`` (Moodle's wildcard otherwise); a several-answers question's options carry their weights.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.banks.export_files import html_of, img_tag, picture_names, shortanswer_text
from bot.core.bank import Question, Quiz
from bot.core.scoring import option_credit
from bot.i18n.lang import Lang

_SPECIAL = "\\~=#{}:"


def gift_escape(text: str) -> str:
    """``text`` as GIFT reads it back: special characters escaped, line breaks as ``\\n``."""
    out: list[str] = []
    for ch in text.replace("\r\n", "\n"):
        if ch in _SPECIAL:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return "".join(out)


def option_feedback(question: Question, index: int, lang: Lang) -> str | None:
    """The feedback written after option ``index`` (``#...``): the option's own feedback; on
    the right option without one, the explanation (GIFT and Moodle XML have no other place
    for it: it is read back as that option's own feedback, which the alert and the reveal
    show as they showed the explanation to whoever picked the right answer)."""
    own = question.options[index].feedback if index < len(question.options) else None
    if own is not None:
        return own(lang)
    if index == question.correct and question.explanation is not None:
        return question.explanation(lang)
    return None


def general_feedback(question: Question, lang: Lang, *, carried: bool) -> str | None:
    """The general feedback (GIFT ``####``, Moodle XML ``<generalfeedback>``): the note, with
    the explanation before it unless an option already ``carried`` it (a right option with
    feedback of its own, or a typed question, leaves it no other place)."""
    parts = [] if carried or question.explanation is None else [question.explanation(lang)]
    if question.note is not None:
        parts.append(question.note(lang))
    return "\n\n".join(parts) or None


def explanation_carried(question: Question) -> bool:
    """Whether :func:`option_feedback` writes the explanation (as the right option's feedback,
    which it then is on reading back): that option has none of its own, or the same text."""
    if question.explanation is None or question.typed:
        return question.explanation is None
    own = question.options[question.correct].feedback
    return own is None or own == question.explanation


def write_gift(quiz: Quiz, lang: Lang, pictures: Mapping[str, bytes] | None = None) -> str:
    """``quiz`` as the text of a GIFT file, its texts in ``lang`` (a one-language bank: its
    own); each question's picture whose bytes ``pictures`` holds (by its name in the bank)
    linked as ``@@PLUGINFILE@@/name``, the file to go beside it (bot/banks/export.py)."""
    names = picture_names(quiz, pictures or {})
    lines = [f"// {' '.join(quiz.title(lang).split())}", "// exported by quizbot", ""]
    tag: str | None = None
    for question in quiz.questions:
        if question.tag != tag:
            lines += [f"$CATEGORY: $course$/top/{question.tag or ''}".rstrip("/"), ""]
            tag = question.tag
        image = question.image.file if question.image is not None else ""
        lines += [*_question(question, lang, names.get(image)), ""]
    return "\n".join(lines)


def _question(question: Question, lang: Lang, picture: str | None) -> list[str]:
    """A question block; one with a ``picture`` has its text in HTML (``[html]``, the picture
    after it) and every answer and feedback marked ``[plain]``, as Moodle reads each piece."""
    if picture is None:
        text, piece = "[plain]" + gift_escape(question.text(lang)), gift_escape
    else:
        html = html_of(question.text(lang)) + "<br>" + img_tag(picture)
        text, piece = "[html]" + gift_escape(html), _plain_piece
    lines = [f"::{gift_escape(question.id)}::{text} {{"]
    if question.kind == "truefalse":
        lines.append(
            f"\t{'T' if question.correct == 0 else 'F'}"
            + _true_false_feedback(question, lang, piece)
        )
    elif question.typed:
        lines += _typed(question, lang, piece)
    else:
        lines += _options(question, lang, piece)
    carried = question.kind == "truefalse" or explanation_carried(question)
    general = general_feedback(question, lang, carried=carried)
    if general is not None:
        lines.append(f"\t####{piece(general)}")
    lines.append("}")
    return lines


def _plain_piece(text: str) -> str:
    """An answer's or a feedback's text marked ``[plain]`` (its question's text is HTML)."""
    return "[plain]" + gift_escape(text)


def _options(question: Question, lang: Lang, piece: Callable[[str], str]) -> list[str]:
    """``=right ~wrong``, or each option's weight (``~%50%``, ``~%-25%``) when the question
    gives partial or negative credit; a several-answers question's options always with their
    weights (``~%50%``, ``~%-50%``: Moodle reads any ``=`` as one right answer, and without
    weights there would be no penalty)."""
    lines = []
    rights = question.right_options
    credit = option_credit(question)
    for index, option in enumerate(question.options):
        text = option(lang)
        if question.fractions or question.kind == "multiple":
            weight = percent(credit[index])
            mark = "=" if weight == "100" and question.kind == "single" else f"~%{weight}%"
            mark = "~" if weight == "0" else mark
        else:
            mark = "=" if index in rights else "~"
        if text.startswith("%") and "%" not in mark:  # else read as a weight
            mark = f"{mark}%{percent(credit[index])}%"
        feedback = option_feedback(question, index, lang)
        tail = f"#{piece(feedback)}" if feedback else ""
        lines.append(f"\t{mark}{piece(text)}{tail}")
    return lines


def _true_false_feedback(question: Question, lang: Lang, piece: Callable[[str], str]) -> str:
    """``#wrong answer's feedback#right answer's feedback``, as far as there is any."""
    wrong = question.wrong_feedback(lang) if question.wrong_feedback else ""
    right = question.explanation(lang) if question.explanation else ""
    if right:
        return f"#{piece(wrong) if wrong else ''}#{piece(right)}"
    return f"#{piece(wrong)}" if wrong else ""


def _typed(question: Question, lang: Lang, piece: Callable[[str], str]) -> list[str]:
    """``#=%100%3.14:0.01#feedback`` per accepted number (units are not GIFT's), or
    ``=%50%text#feedback`` per accepted short answer (a literal ``*`` as ``\\*``, Moodle's
    wildcard otherwise; letter case mattering is not GIFT's); the wrong answers' feedback
    as ``~#feedback`` (a number) or ``=%0%*#feedback`` (a short answer: Moodle's "any other
    answer")."""
    numeric = question.kind == "numeric"
    lines = ["\t#"] if numeric else []
    for accepted in question.accepted:
        weight = "" if accepted.fraction == 1 else f"%{percent(accepted.fraction)}%"
        if numeric:
            answer = plain_number(accepted.value)
            if accepted.tolerance:
                answer += f":{plain_number(accepted.tolerance)}"
        else:
            answer = piece(shortanswer_text(accepted.text))
            if not weight and accepted.text.startswith("%"):  # else read as a weight
                weight = "%100%"
        tail = f"#{piece(accepted.feedback(lang))}" if accepted.feedback else ""
        lines.append(f"\t={weight}{answer}{tail}")
    if question.wrong_feedback is not None:
        mark = "~" if numeric else "=%0%*"
        lines.append(f"\t{mark}#{piece(question.wrong_feedback(lang))}")
    return lines


def percent(fraction: float) -> str:
    """A credit as Moodle's percentage: ``50``, ``-25``, ``33.33333``."""
    return plain_number(round(fraction * 100, 5))


def plain_number(value: float) -> str:
    """A number written plainly: whole ones without ``.0``, never in exponent form."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10f}".rstrip("0").rstrip(".")
