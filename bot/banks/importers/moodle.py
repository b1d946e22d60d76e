"""Moodle XML: ``multichoice`` questions (one right answer, or several with fractions:
``<single>false</single>``), ``truefalse``, ``numerical`` (tolerances, units) and
``shortanswer`` (``<usecase>``); other types (essays, matching, cloze, drag and drop) are
reported.

The file is parsed by defusedxml with DTDs forbidden: no entity is ever expanded, so an
entity bomb ("billion laughs") or an external entity is refused at once. Question texts are
HTML (often in CDATA): they become plain text. The first picture of a question's text
(``@@PLUGINFILE@@/name`` with its ``<file>``, base64) becomes the question's image; other
pictures, and every sound or video, are named in the report (bot/banks/importers/pictures.py).
A text in Moodle's own format (``moodle_auto_format``: HTML with line breaks kept) is read as
written unless it names a picture or sound, then as HTML; a ``markdown`` one shows ``<img>``
and ``![alt](x.png)`` pictures; a ``plain_text`` one none (Moodle escapes its ``<``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable  # only for the Element type and ParseError
from pyexpat import errors as expat_errors

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from bot.banks.importers import pictures
from bot.banks.importers.htmltext import (
    carries_media,
    html_to_text,
    markdown_as_html,
    markdown_to_text,
)
from bot.banks.importers.model import (
    FALSE,
    TRUE,
    Answer,
    Draft,
    Parsed,
    Place,
    Problem,
    clean,
    fraction_of,
    literal,
    percent_text,
    weigh,
    wildcard,
)


def parse(name: str, data: bytes) -> Parsed:
    """Every question element of a Moodle XML file."""
    out = Parsed()
    builder = _Lines()
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True
    )
    builder.parser = parser
    try:
        parser.feed(data)
        root = parser.close()
    except DefusedXmlException:
        out.fatal = Problem(name, "imp_xml_forbidden")
        return out
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
        if exc.code in _UNCLOSED and builder.open:
            unclosed, opened = builder.open[-1]
            values = {"tag": unclosed[:40], "line": line}
            out.fatal = Problem(f"{name}:{opened}", "imp_xml_unclosed", values)
        else:
            out.fatal = Problem(f"{name}:{line}", "imp_xml_invalid")
        return out
    if root.tag != "quiz":
        out.fatal = Problem(name, "imp_xml_not_moodle", {"tag": str(root.tag)[:40]})
        return out
    tag: str | None = None
    for index, element in enumerate(root.iter("question"), start=1):
        where = Place(name, "question", index)
        kind = element.get("type", "")
        if kind == "category":
            tag = _category(_plain(element.find("category")))
            continue
        if kind not in _KINDS:
            out.skip(where, "imp_not_mcq", kind=kind or "?")
            continue
        draft = _KINDS[kind](out, where, element, tag)
        if draft is not None:
            out.drafts.append(draft)
    return out


#: expat's errors at the end of an element that was never closed: the place to name is where
#: that element opened (a mismatched tag is found where the next closing tag is)
_UNCLOSED = frozenset(
    expat_errors.codes[message]
    for message in (
        expat_errors.XML_ERROR_TAG_MISMATCH,
        expat_errors.XML_ERROR_NO_ELEMENTS,
        expat_errors.XML_ERROR_UNCLOSED_TOKEN,
        expat_errors.XML_ERROR_UNCLOSED_CDATA_SECTION,
    )
)


class _Lines(ET.TreeBuilder):
    """The tree, and the elements open while it is built, each with the line it opened on."""

    def __init__(self) -> None:
        super().__init__()
        self.parser: DefusedXMLParser | None = None
        self.open: list[tuple[str, int]] = []

    def start(self, tag: str, attrs: dict[str, str], /) -> ET.Element:
        """An element opens: remembered with its line."""
        line = self.parser.parser.CurrentLineNumber if self.parser is not None else 0
        self.open.append((tag, line))
        return super().start(tag, attrs)

    def end(self, tag: str, /) -> ET.Element:
        """An element closes."""
        if self.open:
            self.open.pop()
        return super().end(tag)


def _category(path: str) -> str | None:
    for prefix in ("$course$/", "$system$/", "$module$/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
    if path.casefold() == "top" or path.casefold().startswith("top/"):  # Moodle's root
        path = path[4:]
    return path.strip("/ ") or None


def _html(out: Parsed, where: Place, element: ET.Element | None) -> str:
    """The text of a ``<questiontext>``/``<feedback>``-like element, as plain text."""
    if element is None:
        return ""
    markup = _markup(element)
    if markup is not None:  # its pictures and sound named, not kept
        pictures.take(out, where, markup, keep=False)
    return _formatted(element)[0]


def _markup(element: ET.Element) -> str | None:
    """An element's ``<text>`` as the HTML Moodle shows (Markdown's pictures as ``<img>``),
    or None when its format shows no picture (``plain_text``)."""
    raw = element.findtext("text") or ""
    fmt = element.get("format", "html")
    if fmt == "markdown":
        return markdown_as_html(raw)
    return None if fmt == "plain_text" else raw


def _formatted(element: ET.Element) -> tuple[str, int]:
    """An element's ``<text>`` as plain text (HTML converted), and the images it held."""
    raw = element.findtext("text") or ""
    fmt = element.get("format", "html")
    if fmt == "html" or (fmt == "moodle_auto_format" and carries_media(raw)):
        return html_to_text(raw)
    if fmt == "markdown":
        return markdown_to_text(raw), 0
    return clean(raw), 0


def _plain(element: ET.Element | None) -> str:
    return " ".join((element.findtext("text") or "").split()) if element is not None else ""


def _fraction(answer: ET.Element) -> float:
    """An ``<answer>``'s ``fraction`` (a percentage; 0 when it is not a number)."""
    try:
        value = float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0


def _choices(out: Parsed, where: Place, element: ET.Element, tag: str | None) -> Draft | None:
    """A ``multichoice`` question (``<single>false</single>``: several right answers, each
    with its fraction) or a ``truefalse`` one."""
    text, image = _question_text(out, where, element.find("questiontext"))
    image = pictures.old_image(out, where, element, image)
    note = _html(out, where, element.find("generalfeedback")) or None
    true_false = element.get("type") == "truefalse"
    options: list[str] = []
    percents: list[float] = []
    feedbacks: list[str] = []
    for answer in element.findall("answer"):
        percents.append(_fraction(answer))
        option = _html(out, where, answer)
        if true_false:
            option = TRUE if option.casefold() == TRUE else FALSE
        options.append(option)
        feedbacks.append(_html(out, where, answer.find("feedback")))
    # read before the <file> elements, so that a sound they name is reported once
    said = {name: _own(_html(out, where, element.find(name))) for name in _COMBINED}
    named = {str(p.values.get("name")) for p in out.problems if p.where == where and p.values}
    pictures.embedded(out, where, element, named, image)
    single = (element.findtext("single") or "true").strip() in ("true", "1")
    key = weigh(percents, several=not single and not true_false)
    if key is None:
        out.skip(where, "imp_right_count", count=0)
        return None
    is_tf = true_false and sorted(options) == [FALSE, TRUE]
    rights = set(key.rights) or {key.correct}
    combined = _combined(out, where, said, feedbacks, rights)
    wrong = [f for n, f in enumerate(combined) if n not in rights and f]
    return Draft(
        where,
        text,
        tuple(options),
        key.correct,
        combined[key.correct] if is_tf else None,
        note,
        tag,
        true_false=is_tf,
        image=image,
        feedback=() if is_tf else combined,
        kind=key.kind,
        rights=key.rights,
        fractions=() if is_tf else key.fractions,
        wrong_feedback=wrong[0] if is_tf and wrong else None,
    )


def _question_text(out: Parsed, where: Place, element: ET.Element | None) -> tuple[str, str | None]:
    """The question's text as plain text, and the picture it shows first."""
    if element is None:
        return "", None
    markup = _markup(element)
    image = pictures.take(out, where, markup) if markup is not None else None
    return _formatted(element)[0], image


#: what Moodle writes into every question's combined feedback unless the teacher changes it
#: (its lang strings correctfeedbackdefault, partiallycorrectfeedbackdefault and
#: incorrectfeedbackdefault, in the languages its packs give them); it only repeats the verdict
#: the alert already gives. Compared without case, spaces and final punctuation.
_MOODLE_DEFAULTS = frozenset(
    {
        # en
        "your answer is correct",
        "your answer is partially correct",
        "your answer is incorrect",
        # fr
        "votre réponse est correcte",
        "votre réponse est partiellement correcte",
        "votre réponse est incorrecte",
        # es
        "respuesta correcta",
        "respuesta parcialmente correcta",
        "respuesta incorrecta",
        "tu respuesta es correcta",
        "tu respuesta es parcialmente correcta",
        "tu respuesta es incorrecta",
        # ca
        "la vostra resposta és correcta",
        "la vostra resposta és parcialment correcta",
        "la vostra resposta és incorrecta",
        "la teva resposta és correcta",
        "la teva resposta és parcialment correcta",
        "la teva resposta és incorrecta",
        # gl
        "a súa resposta é correcta",
        "a súa resposta é parcialmente correcta",
        "a súa resposta é incorrecta",
        # pt
        "a sua resposta está correta",
        "a sua resposta está parcialmente correta",
        "a sua resposta está incorreta",
        "sua resposta está correta",
        "sua resposta está parcialmente correta",
        "sua resposta está incorreta",
        # it
        "risposta corretta",
        "risposta parzialmente corretta",
        "risposta errata",
        # de
        "die antwort ist richtig",
        "die antwort ist teilweise richtig",
        "die antwort ist falsch",
        # nl
        "je antwoord is juist",
        "je antwoord is gedeeltelijk juist",
        "je antwoord is niet juist",
        # ro
        "răspunsul dumneavoastră este corect",
        "răspunsul dumneavoastră este parțial corect",
        "răspunsul dumneavoastră este greșit",
        # ru
        "ваш ответ верный",
        "ваш ответ частично правильный",
        "ваш ответ неправильный",
        # tr
        "cevabınız doğru",
        "cevabınız kısmen doğru",
        "cevabınız yanlış",
        # id
        "jawaban anda benar",
        "jawaban anda separuh benar",
        "jawaban anda tidak benar",
        # ar, fa
        "إجابتك صحيحة",
        "إجابتك صحيحة جزئيًا",
        "إجابتك غير صحيحة",
        "پاسخ شما صحیح است",
        "پاسخ شما صحیح نیست",
        # zh, ja
        "您的答案是正确的",
        "您的答案部分正确",
        "您的答案不正确",
        "你答對了",
        "あなたの答えは正解です",
        "あなたの答えは部分的に正解です",
        "あなたの答えは正しくありません",
    }
)
_COMBINED = ("correctfeedback", "incorrectfeedback", "partiallycorrectfeedback")


def _combined(
    out: Parsed, where: Place, said: dict[str, str | None], feedbacks: list[str], rights: set[int]
) -> tuple[str | None, ...]:
    """Each option's feedback: its own ``<answer><feedback>``, else the question's
    ``<correctfeedback>`` (a right option) or ``<incorrectfeedback>`` (the others), as
    ``said`` holds them. ``<partiallycorrectfeedback>`` has no place in the bank (no
    option's own): reported."""
    if said["partiallycorrectfeedback"]:
        out.skip(where, "imp_feedback_dropped", kind="partiallycorrectfeedback")
    return tuple(
        own or said["correctfeedback" if n in rights else "incorrectfeedback"] or None
        for n, own in enumerate(feedbacks)
    )


def _own(text: str) -> str | None:
    """A combined feedback the teacher wrote (Moodle's default wording, in any language its
    packs give it, is not)."""
    said = " ".join(text.split()).rstrip(".!。 ").casefold()
    return None if said in _MOODLE_DEFAULTS else text or None


def _typed(out: Parsed, where: Place, element: ET.Element, tag: str | None) -> Draft | None:
    """A ``numerical`` question (its tolerances and units of multiplier 1) or a
    ``shortanswer`` one (``<usecase>``); an answer ``*`` (any other) is the wrong answers'
    feedback."""
    numeric = element.get("type") == "numerical"
    text, image = _question_text(out, where, element.find("questiontext"))
    image = pictures.old_image(out, where, element, image)
    answers: list[Answer] = []
    wrong: str | None = None
    for answer in element.findall("answer"):
        given = _formatted(answer)[0].strip()
        feedback = _html(out, where, answer.find("feedback")) or None
        if wildcard(given) == "any":  # any other answer: what a wrong one is told
            wrong = wrong or feedback
            if _fraction(answer):
                values = {"percent": percent_text(_fraction(answer))}
                out.notes.append(Problem(where, "imp_any_other_credit", values))
            continue
        fraction = fraction_of(_fraction(answer))
        if not numeric:
            if wildcard(given) == "pattern":  # Moodle's wildcard: no exact answer to compare
                out.skip(where, "imp_not_mcq", kind="shortanswer *")
                return None
            answers.append(Answer(text=literal(given), fraction=fraction, feedback=feedback))
            continue
        try:
            value = float(given)
            tolerance = abs(float(answer.findtext("tolerance") or 0))
        except ValueError:
            out.skip(where, "imp_bad_number", text=given[:40])
            return None
        if not (math.isfinite(value) and math.isfinite(tolerance)):
            out.skip(where, "imp_bad_number", text=given[:40])
            return None
        answers.append(
            Answer(value=value, tolerance=tolerance, fraction=fraction, feedback=feedback)
        )
    note = _html(out, where, element.find("generalfeedback")) or None
    named = {str(p.values.get("name")) for p in out.problems if p.where == where and p.values}
    pictures.embedded(out, where, element, named, image)
    units = tuple(
        name
        for unit in element.iter("unit")
        if (name := (unit.findtext("unit_name") or "").strip())
        and (unit.findtext("multiplier") or "1").strip() in ("1", "1.0")
    )
    return Draft(
        where,
        text,
        (),
        0,
        None,
        note,
        tag,
        kind="numeric" if numeric else "short",
        answers=tuple(answers),
        units=units if numeric else (),
        case_sensitive=(element.findtext("usecase") or "0").strip() in ("1", "true"),
        wrong_feedback=wrong,
        image=image,
    )


_Reader = Callable[[Parsed, Place, ET.Element, str | None], Draft | None]
_KINDS: dict[str, _Reader] = {
    "multichoice": _choices,
    "truefalse": _choices,
    "numerical": _typed,
    "shortanswer": _typed,
}
