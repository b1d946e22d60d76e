"""Moodle XML: ``multichoice`` questions with ``single`` true, and ``truefalse``.

The file is parsed by defusedxml with DTDs forbidden: no entity is ever expanded, so an
entity bomb ("billion laughs") or an external entity is refused at once. Question texts are
HTML (often in CDATA): they become plain text; embedded images are reported and dropped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET  # only for the Element type and ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from bot.banks.importers.htmltext import html_to_text
from bot.banks.importers.model import FALSE, TRUE, Draft, Parsed, Place, Problem, clean


def parse(name: str, data: bytes) -> Parsed:
    """Every question element of a Moodle XML file."""
    out = Parsed()
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        out.fatal = Problem(name, "imp_xml_forbidden")
        return out
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
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
            if out.title is None and tag:
                out.title = tag.rsplit("/", 1)[-1]
            continue
        if kind not in ("multichoice", "truefalse"):
            out.skip(where, "imp_not_mcq", kind=kind or "?")
            continue
        if kind == "multichoice" and (element.findtext("single") or "true").strip() not in (
            "true",
            "1",
        ):
            out.skip(where, "imp_not_mcq", kind="multiple answers")
            continue
        draft = _question(out, where, element, tag)
        if draft is not None:
            out.drafts.append(draft)
    return out


def _category(path: str) -> str | None:
    for prefix in ("$course$/", "$system$/", "$module$/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
    if path.casefold().startswith("top/"):
        path = path[4:]
    return path.strip("/ ") or None


def _html(out: Parsed, where: Place, element: ET.Element | None) -> str:
    """The text of a ``<questiontext>``/``<feedback>``-like element, as plain text."""
    if element is None:
        return ""
    text, images = _formatted(element)
    images = max(images, len(element.findall("file")))  # <file> holds an <img>'s data
    if images:
        out.skip(where, "imp_image_dropped", count=images)
    return text


def _formatted(element: ET.Element) -> tuple[str, int]:
    """An element's ``<text>`` as plain text (HTML converted), and the images it held."""
    raw = element.findtext("text") or ""
    if element.get("format", "html") == "html":
        return html_to_text(raw)
    return clean(raw), 0


def _plain(element: ET.Element | None) -> str:
    return " ".join((element.findtext("text") or "").split()) if element is not None else ""


def _question(out: Parsed, where: Place, element: ET.Element, tag: str | None) -> Draft | None:
    text = _html(out, where, element.find("questiontext"))
    note = _html(out, where, element.find("generalfeedback")) or None
    options: list[str] = []
    rights: list[int] = []
    feedbacks: list[str] = []
    partial = False
    for answer in element.findall("answer"):
        try:
            fraction = float(answer.get("fraction", "0"))
        except ValueError:
            fraction = 0.0
        if fraction >= 100:
            rights.append(len(options))
        elif fraction > 0:
            partial = True
        option = _formatted(answer)[0]
        if element.get("type") == "truefalse":
            option = TRUE if option.casefold() == TRUE else FALSE
        options.append(option)
        feedbacks.append(_html(out, where, answer.find("feedback")))
    if partial:
        out.skip(where, "imp_not_mcq", kind="partial credit")
        return None
    if len(rights) != 1:
        out.skip(where, "imp_right_count", count=len(rights))
        return None
    return Draft(
        where,
        text,
        tuple(options),
        rights[0],
        None,
        note,
        tag,
        true_false=element.get("type") == "truefalse" and sorted(options) == [FALSE, TRUE],
        feedback=_combined(out, where, element, feedbacks, rights[0]),
    )


#: what Moodle writes into every question's combined feedback unless the teacher changes it;
#: it only repeats the verdict the alert already gives
_MOODLE_DEFAULTS = {
    "your answer is correct",
    "your answer is partially correct",
    "your answer is incorrect",
}


def _combined(
    out: Parsed, where: Place, element: ET.Element, feedbacks: list[str], right: int
) -> tuple[str | None, ...]:
    """Each option's feedback: its own ``<answer><feedback>``, else the question's
    ``<correctfeedback>`` (the right option) or ``<incorrectfeedback>`` (the others).
    ``<partiallycorrectfeedback>`` has no place in a single-answer question: reported."""
    said = {
        name: _own(_html(out, where, element.find(name)))
        for name in ("correctfeedback", "incorrectfeedback", "partiallycorrectfeedback")
    }
    if said["partiallycorrectfeedback"]:
        out.skip(where, "imp_feedback_dropped", kind="partiallycorrectfeedback")
    return tuple(
        own or said["correctfeedback" if n == right else "incorrectfeedback"] or None
        for n, own in enumerate(feedbacks)
    )


def _own(text: str) -> str | None:
    """A combined feedback the teacher wrote (Moodle's default wording is not)."""
    return None if text.strip().rstrip(".").casefold() in _MOODLE_DEFAULTS else text or None
