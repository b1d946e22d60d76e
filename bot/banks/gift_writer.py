"""The quiz model written as Moodle's GIFT, for ``quizbot export-quiz NAME --format gift``.

What our GIFT reader (bot/banks/importers/gift.py) and Moodle's both read back: one question a
block, ``::id::[plain]text {=right#feedback ~wrong#feedback ####note}``, ``$CATEGORY:`` before each
run of questions with the same tag, every GIFT special character (``~ = # { } :`` and ``\\``)
escaped with a backslash and line breaks as ``\\n``. A bilingual bank is written in one of its
languages. Each option's own feedback (the explanation on the right option when it has none):
:func:`option_feedback`; the explanation no option carries goes before the note in the general
feedback (``####``): :func:`general_feedback`. A picture joins at :func:`question_extras`.
"""

from __future__ import annotations

from bot.core.bank import Question, Quiz
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


def question_extras(question: Question, lang: Lang) -> str:
    """What goes before a question's text besides it (a picture's ``<img>``, once the model
    carries one): nothing yet."""
    return ""


def write_gift(quiz: Quiz, lang: Lang) -> str:
    """``quiz`` as the text of a GIFT file, its texts in ``lang`` (a one-language bank: its
    own)."""
    lines = [f"// {' '.join(quiz.title(lang).split())}", "// exported by quizbot", ""]
    tag: str | None = None
    for question in quiz.questions:
        if question.tag != tag:
            lines += [f"$CATEGORY: $course$/top/{question.tag or ''}".rstrip("/"), ""]
            tag = question.tag
        lines += [*_question(question, lang), ""]
    return "\n".join(lines)


def _question(question: Question, lang: Lang) -> list[str]:
    text = question_extras(question, lang) + gift_escape(question.text(lang))
    lines = [f"::{gift_escape(question.id)}::[plain]{text} {{"]
    if question.kind == "truefalse":
        lines.append(
            f"\t{'T' if question.correct == 0 else 'F'}" + _true_false_feedback(question, lang)
        )
    elif question.typed:
        lines += _typed(question, lang)
    else:
        lines += _options(question, lang)
    carried = question.kind == "truefalse" or explanation_carried(question)
    general = general_feedback(question, lang, carried=carried)
    if general is not None:
        lines.append(f"\t####{gift_escape(general)}")
    lines.append("}")
    return lines


def _options(question: Question, lang: Lang) -> list[str]:
    """``=right ~wrong``, or each option's weight (``~%50%``, ``~%-25%``) when the question
    gives partial or negative credit; several right options without weights are each ``=``."""
    lines = []
    rights = question.right_options
    for index, option in enumerate(question.options):
        if question.fractions:
            weight = percent(question.fractions[index])
            mark = "=" if weight == "100" and question.kind == "single" else f"~%{weight}%"
            mark = "~" if weight == "0" else mark
        else:
            mark = "=" if index in rights else "~"
        feedback = option_feedback(question, index, lang)
        tail = f"#{gift_escape(feedback)}" if feedback else ""
        lines.append(f"\t{mark}{gift_escape(option(lang))}{tail}")
    return lines


def _true_false_feedback(question: Question, lang: Lang) -> str:
    """``#wrong answer's feedback#right answer's feedback``, as far as there is any."""
    wrong = question.wrong_feedback(lang) if question.wrong_feedback else ""
    right = question.explanation(lang) if question.explanation else ""
    if right:
        return f"#{gift_escape(wrong)}#{gift_escape(right)}"
    return f"#{gift_escape(wrong)}" if wrong else ""


def _typed(question: Question, lang: Lang) -> list[str]:
    """``#=%100%3.14:0.01#feedback`` per accepted number (units are not GIFT's), or
    ``=%50%text#feedback`` per accepted short answer (letter case mattering is not GIFT's
    either); a number's wrong-answer feedback as ``~#feedback``."""
    lines = ["\t#"] if question.kind == "numeric" else []
    for accepted in question.accepted:
        weight = "" if accepted.fraction == 1 else f"%{percent(accepted.fraction)}%"
        if question.kind == "numeric":
            answer = plain_number(accepted.value)
            if accepted.tolerance:
                answer += f":{plain_number(accepted.tolerance)}"
        else:
            answer = gift_escape(accepted.text)
        tail = f"#{gift_escape(accepted.feedback(lang))}" if accepted.feedback else ""
        lines.append(f"\t={weight}{answer}{tail}")
    if question.kind == "numeric" and question.wrong_feedback is not None:
        lines.append(f"\t~#{gift_escape(question.wrong_feedback(lang))}")
    return lines


def percent(fraction: float) -> str:
    """A credit as Moodle's percentage: ``50``, ``-25``, ``33.33333``."""
    return plain_number(round(fraction * 100, 5))


def plain_number(value: float) -> str:
    """A number written plainly: whole ones without ``.0``, never in exponent form."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10f}".rstrip("0").rstrip(".")
