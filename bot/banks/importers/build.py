"""Drafts into a bank: the quiz model built directly from them, checked once by the bank's
validator (a question it refuses is reported at the draft's own place and left out), and written
as bank YAML once by the one writer."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from bot.banks.importers.language import Guess, guess
from bot.banks.importers.model import (
    TRUE,
    Answer,
    Draft,
    LanguageName,
    Location,
    Parsed,
    Place,
    Problem,
)
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import (
    MAX_FILE_BYTES,
    MAX_NOTE_CHARS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MAX_TITLE_CHARS,
    MIN_OPTIONS,
    MIN_SECONDS,
    OTHER_LANGUAGES,
    TRUE_FALSE,
    TYPED_KINDS,
    Accepted,
    Option,
    Question,
    Quiz,
    Text,
    utf16_len,
)
from bot.core.images import MAX_IMAGES, Picture, Refused, check
from bot.core.limits import bank_limits, cut_words
from bot.core.mathtext import tidy
from bot.core.problems import Problem as BankProblem
from bot.core.problems import SourceMap, Where, whole
from bot.core.validator import validate
from bot.i18n.lang import Lang, as_lang

_T = TypeVar("_T")
_DOLLARS = ("gift", "moodle-xml")  # Moodle's formats: ``$x$`` is a formula there


@dataclass(frozen=True, slots=True)
class ImportReport:
    """The outcome of one import.

    ``quiz`` is the bank, accepted by the bank validator, and ``yaml_text`` the same bank as a
    bank file; both None when nothing could be imported (then ``fatal`` says why).
    ``problems`` lists each skipped question or dropped part, one located line each; ``notes``
    what was imported otherwise than written (an explanation moved to the note, the bank's
    language when it is neither Bengali nor English). Both in source order.
    """

    format: str  # "yaml", "gift", "aiken", "moodle-xml", "csv", "opentdb"
    yaml_text: str | None
    imported: int
    problems: tuple[Problem, ...]
    fatal: Problem | None
    quiz: Quiz | None = None
    notes: tuple[Problem, ...] = ()
    #: the pictures the quiz names (``pictures/<sha256>.<ext>``), to be written beside the
    #: bank file or stored with the quiz
    pictures: Mapping[str, Picture] = field(default_factory=dict)

    @property
    def skipped(self) -> int:
        """How many reported problems there are (skipped questions and dropped parts)."""
        return len(self.problems)

    def lines(self) -> list[Problem]:
        """The problems and the notes together, in source order."""
        return in_order([*self.problems, *self.notes])


def guess_language(drafts: list[Draft]) -> Guess:
    """The language the drafts are written in: "bn", "en", or another one's code (and a
    close second, when the texts do not tell)."""
    return guess(
        [d.text + "\n" + ("" if d.true_false else "\n".join(d.options)) for d in drafts[:50]]
    )


def in_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` in source order: what concerns the whole file first, then by line, row or
    element (a stable sort: one place's problems keep their order)."""
    return sorted(problems, key=lambda p: _position(p.where))


def _position(where: Location) -> int:
    if isinstance(where, Place):
        return where.n
    if isinstance(where, Where):
        return where.question or 0
    tail = where.rpartition(":")[2]
    return int(tail) if tail.isdecimal() and len(tail) < 10 else 0


class Beside(Protocol):
    """Files given beside the source file (bot/banks/images.py ``FolderImages``)."""

    def read(self, name: str) -> Picture: ...


def build(
    parsed: Parsed,
    fmt: str,
    name: str,
    *,
    quiz_id: str,
    lang: Lang | None,
    title: str | None,
    fit_explanations: bool = True,
    beside: Beside | None = None,
) -> ImportReport:
    """The bank made of ``parsed``'s drafts; each draft the validator refuses is reported.
    The title is ``title`` (the teacher's), else the file's name; an explanation too long for
    the tap alert moves to the note (``fit_explanations``), said in a note; the pictures the
    drafts name are found in the source (``parsed.files``) or ``beside`` it."""
    problems = list(parsed.problems)
    notes = list(parsed.notes)
    if parsed.fatal is not None:
        return ImportReport(fmt, None, 0, tuple(in_order(problems)), parsed.fatal)
    drafts = parsed.drafts
    if len(drafts) > MAX_QUESTIONS:
        extra = len(drafts) - MAX_QUESTIONS
        where = drafts[MAX_QUESTIONS].where
        problems.append(Problem(where, "imp_too_many", {"count": extra, "limit": MAX_QUESTIONS}))
        drafts = drafts[:MAX_QUESTIONS]
    guessed = Guess(lang) if lang else guess_language(drafts)
    written = guessed.code
    language: Lang = as_lang(written) or "en"
    other = written if written in OTHER_LANGUAGES else None
    if other is not None and guessed.second is not None:
        values = {"language": LanguageName(other), "second": LanguageName(guessed.second)}
        notes.append(Problem(name, "imp_language_unsure", values))
    elif other is not None:
        notes.append(Problem(name, "imp_language_other", {"language": LanguageName(other)}))
    head_title = _title(title, name)
    if len(head_title) > MAX_TITLE_CHARS:
        problems.append(
            Problem(name, "imp_title_long", {"length": len(head_title), "limit": MAX_TITLE_CHARS})
        )
        head_title = _title(None, name)[:MAX_TITLE_CHARS] or "Quiz"
    # each draft in order: refused by its reader's own limits, or a question to validate
    slots: list[Problem | tuple[Draft, Question]] = []
    candidates: list[Question] = []
    room = _alert_room()
    for number, draft in enumerate(drafts, start=1):
        problem = _precheck(draft)
        if problem is not None:
            slots.append(problem)
            continue
        draft = _drop_repeats(draft, notes)
        if fit_explanations:
            draft = _fit_explanation(draft, room, notes)
        draft = _fit_texts(draft, room, notes)
        question = _question(draft, f"q{number}", len(candidates) + 1, fmt in _DOLLARS)
        candidates.append(question)
        slots.append((draft, question))
    head = Quiz(
        quiz_id,
        Text(head_title, head_title),
        language,
        (),
        source=name,
        bilingual=False,
        text_language=other,
    )
    refusals = _refusals(replace(head, questions=tuple(candidates)), slots) if candidates else {}
    kept: list[tuple[Draft, Question]] = []
    for slot in slots:
        if isinstance(slot, Problem):
            problems.append(slot)
        elif slot[1].number in refusals:
            problems.append(refusals[slot[1].number])
        else:
            kept.append(slot)
    ordered = tuple(in_order(problems))
    if not kept:
        return ImportReport(fmt, None, 0, ordered, Problem(name, "imp_nothing", {}))
    if None in refusals:  # the bank as a whole (its name): nothing can be imported
        return ImportReport(fmt, None, 0, ordered, refusals[None])
    found: dict[str, Picture] = {}
    questions = []
    for n, (draft, question) in enumerate(kept, start=1):
        picture = _picture(draft, parsed, beside, found, problems)
        image = None
        if picture is not None:
            file = f"pictures/{picture.stored_name}"
            found[file] = picture
            image = picture.image(file)
        questions.append(replace(question, number=n, image=image))
    ordered = tuple(in_order(problems))
    quiz = replace(head, questions=tuple(questions), seconds=_seconds([d for d, _ in kept]))
    text = write_yaml(quiz)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        fatal = Problem(name, "imp_bank_too_big", {"limit": MAX_FILE_BYTES})
        return ImportReport(fmt, None, 0, ordered, fatal)
    return ImportReport(
        fmt, text, len(kept), ordered, None, quiz, tuple(in_order(notes)), pictures=found
    )


def _fit_explanation(draft: Draft, room: int, notes: list[Problem]) -> Draft:
    """An explanation too long for the tap alert moved to the note, said in ``notes``; so is
    the right option's own feedback (GIFT's ``=answer#feedback``: what explains the answer),
    which the alert shows too. A wrong option's long feedback stays (and is reported)."""
    explanation = (draft.explanation or "").strip()
    if len(explanation) > room:
        draft = _to_note(replace(draft, explanation=None), explanation, room, notes)
    feedback = list(draft.feedback)
    right = (feedback[draft.correct] or "").strip() if draft.correct < len(feedback) else ""
    if len(right) > room:
        feedback[draft.correct] = None
        draft = _to_note(replace(draft, feedback=tuple(feedback)), right, room, notes)
    return draft


def _drop_repeats(draft: Draft, notes: list[Problem]) -> Draft:
    """A wrong option repeating an earlier one word for word (``124, 122, 123, 122`` in a
    generated bank) left out, said in ``notes``, the question kept; a repeat that is right,
    earns other credit or says other feedback is left for the validator to refuse."""
    if draft.kind in TYPED_KINDS or draft.true_false:
        return draft
    rights = set(draft.rights or (draft.correct,))
    first: dict[str, int] = {}
    dropped: list[int] = []
    for index, option in enumerate(draft.options):
        said = " ".join(option.split())
        if said not in first:
            first[said] = index
            continue
        earlier = first[said]
        if index in rights or earlier in rights or not _same(draft, earlier, index):
            return draft
        dropped.append(index)
    if not dropped or len(draft.options) - len(dropped) < MIN_OPTIONS:
        return draft
    for index in dropped:
        values = {"n": index + 1, "text": draft.options[index][:40]}
        values["first"] = first[" ".join(draft.options[index].split())] + 1
        notes.append(Problem(draft.where, "imp_option_repeat", values))
    kept = [i for i in range(len(draft.options)) if i not in dropped]
    new = {old: n for n, old in enumerate(kept)}

    def pick(values: tuple[_T, ...]) -> tuple[_T, ...]:
        return tuple(values[i] for i in kept if i < len(values))

    return replace(
        draft,
        options=pick(draft.options),
        correct=new[draft.correct],
        rights=tuple(new[i] for i in draft.rights),
        fractions=pick(draft.fractions),
        feedback=pick(draft.feedback),
    )


def _same(draft: Draft, a: int, b: int) -> bool:
    """Whether options ``a`` and ``b`` earn the same credit and say the same feedback."""
    for values in (draft.fractions, draft.feedback):
        one = values[a] if a < len(values) else None
        two = values[b] if b < len(values) else None
        if one != two and two is not None:
            return False
    return True


def _fit_texts(draft: Draft, room: int, notes: list[Problem]) -> Draft:
    """Long texts kept, never the question lost for them: the note up to what a message holds
    (a reveal it does not fit sends it alone), each option's feedback up to what the reveal
    leaves room for, each cut at a word past that and said in ``notes``; an option's feedback
    longer than the tap alert is said too (the alert shows its beginning)."""
    note = draft.note
    if note is not None and utf16_len(note.strip()) > MAX_NOTE_CHARS:
        values = {"length": len(note.strip()), "limit": MAX_NOTE_CHARS}
        notes.append(Problem(draft.where, "imp_note_cut", values))
        note = cut_words(note.strip(), MAX_NOTE_CHARS)
    feedback = list(draft.feedback)
    space = _feedback_room(draft)
    for index, given in enumerate(feedback):
        text = (given or "").strip()
        length = utf16_len(text)
        if length > space:
            values = {"n": index + 1, "length": len(text), "limit": space}
            notes.append(Problem(draft.where, "imp_feedback_cut", values))
            feedback[index] = cut_words(text, space)
        elif length > room and index not in (draft.rights or (draft.correct,)):
            values = {"n": index + 1, "length": len(text), "limit": room}
            notes.append(Problem(draft.where, "imp_feedback_alert", values))
    return replace(draft, note=note, feedback=tuple(feedback))


def _feedback_room(draft: Draft) -> int:
    """How long an option's own feedback may be: what the reveal's message leaves once its
    frame, the question, its options and the explanation are in (at least a tap alert's)."""
    limits = bank_limits()
    frame = max(limits.reveal_overhead.values()) if limits.reveal_overhead else 0
    used = frame + sum(
        utf16_len(text) for text in (draft.text, *draft.options, draft.explanation or "")
    )
    return max(limits.question_message - used, limits.alert)


def _to_note(draft: Draft, text: str, room: int, notes: list[Problem]) -> Draft:
    """``text`` put first in the draft's note, and said so."""
    notes.append(
        Problem(draft.where, "imp_explanation_moved", {"length": len(text), "limit": room})
    )
    return replace(draft, note=f"{text}\n\n{draft.note.strip()}" if draft.note else text)


def _alert_room() -> int:
    """How long an explanation may be: the tap alert less its longest verdict and points
    prefix (a one-language bank is served in chats of both languages)."""
    limits = bank_limits()
    prefix = max(limits.alert_prefix.values()) if limits.alert_prefix else 0
    return limits.alert - prefix


def _picture(
    draft: Draft,
    parsed: Parsed,
    beside: Beside | None,
    found: Mapping[str, Picture],
    problems: list[Problem],
) -> Picture | None:
    """The picture a draft names, checked; None (and the reason reported) if it has none
    that can be used."""
    if draft.image is None:
        return None
    name = draft.image
    try:
        data = parsed.files.get(name)
        if data is not None:
            picture = check(data)
        elif beside is not None and "://" not in name:
            picture = beside.read(name)
        else:
            problems.append(Problem(draft.where, "imp_image_missing", {"name": name}))
            return None
    except Refused as refused:
        if refused.key == "bank_image_missing":
            problems.append(Problem(draft.where, "imp_image_missing", {"name": name}))
            return None
        reason = whole(name, refused.key, **{"name": name, **refused.values})
        problems.append(Problem(draft.where, "imp_image_refused", {"name": name, "reason": reason}))
        return None
    if len(found) >= MAX_IMAGES and f"pictures/{picture.stored_name}" not in found:
        problems.append(
            Problem(draft.where, "imp_images_many", {"name": name, "limit": MAX_IMAGES})
        )
        return None
    return picture


def _refusals(
    quiz: Quiz, slots: list[Problem | tuple[Draft, Question]]
) -> dict[int | None, Problem]:
    """The validator's verdict on every candidate question at once: its first problem with each
    refused question (by number; None: the bank as a whole), located where its draft was read."""
    places = {slot[1].number: slot[0].where for slot in slots if isinstance(slot, tuple)}
    first: dict[int | None, Problem] = {}
    for found in validate(quiz, bank_limits(), SourceMap(quiz.source, places=places)):
        if found.where.question not in first:
            place = found.place if found.place is not None else quiz.source
            first[found.where.question] = Problem(place, "imp_invalid", _message(found))
    return first


def _seconds(drafts: list[Draft]) -> int | None:
    """The drafts' time limit when they all give the same one the bank allows, else None."""
    seconds = Counter(d.seconds for d in drafts).most_common(1)[0][0]
    if (
        seconds is not None
        and MIN_SECONDS <= seconds <= MAX_SECONDS
        and all(d.seconds == seconds for d in drafts)
    ):
        return seconds
    return None


def _title(given: str | None, name: str) -> str:
    if given and given.strip():
        title = " ".join(given.split())
    else:
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        title = " ".join(re.split(r"[_\-\s]+", stem)).strip() or "Quiz"
        title = title[:1].upper() + title[1:]
    return title


def _text(text: str, dollars: bool) -> Text:
    """A one-language text, trimmed as the YAML reader trims it, its formulas as a bank keeps
    them (bot/core/mathtext.py: empty markers dropped, Moodle's ``$x$`` as ``\\(x\\)``)."""
    kept = tidy(text.strip(), dollars=dollars).strip()
    return Text(kept, kept)


def _question(draft: Draft, qid: str, number: int, dollars: bool) -> Question:
    feedback = [*draft.feedback, *[None] * len(draft.options)]
    options = tuple(
        _option(option, given, dollars)
        for option, given in zip(draft.options, feedback, strict=False)
    )
    correct, kind = draft.correct, draft.kind
    if draft.true_false:  # the bank's own true/false, worded in each chat's language
        kind, options = "truefalse", TRUE_FALSE
        correct = 0 if draft.options[draft.correct] == TRUE else 1
    elif kind in TYPED_KINDS:
        options, correct = (), 0
    return Question(
        id=qid,
        number=number,
        text=_text(draft.text, dollars),
        options=options,
        correct=correct,
        explanation=_text(draft.explanation, dollars) if draft.explanation else None,
        note=_text(draft.note, dollars) if draft.note else None,
        tag=draft.tag.strip() if draft.tag else None,
        kind=kind,
        rights=draft.rights if kind in ("single", "multiple") else (),
        fractions=draft.fractions if kind in ("single", "multiple") else (),
        accepted=(
            tuple(_accepted(a, dollars) for a in draft.answers) if kind in TYPED_KINDS else ()
        ),
        units=draft.units if kind == "numeric" else (),
        case_sensitive=draft.case_sensitive and kind == "short",
        wrong_feedback=_text(draft.wrong_feedback, dollars) if draft.wrong_feedback else None,
    )


def _accepted(answer: Answer, dollars: bool) -> Accepted:
    return Accepted(
        text=answer.text.strip(),
        value=answer.value,
        tolerance=answer.tolerance,
        fraction=answer.fraction,
        feedback=_text(answer.feedback, dollars) if answer.feedback else None,
    )


def _option(text: str, feedback: str | None, dollars: bool) -> Option:
    """An option and its own feedback (None when it has none)."""
    kept = _text(text, dollars)
    given = _text(feedback, dollars) if feedback and feedback.strip() else None
    return Option(kept.bn, kept.en, given)


def _precheck(draft: Draft) -> Problem | None:
    """The limits an importer's reader knows best how to word."""
    if not draft.text.strip():
        return Problem(draft.where, "imp_empty_question", {})
    if draft.kind in TYPED_KINDS:
        return None  # its answers are the validator's to check
    count = len(draft.options)
    if not MIN_OPTIONS <= count <= MAX_OPTIONS:
        return Problem(
            draft.where,
            "imp_option_count",
            {"count": count, "low": MIN_OPTIONS, "high": MAX_OPTIONS},
        )
    for index, option in enumerate(draft.options, start=1):
        if not option.strip():
            return Problem(draft.where, "imp_empty_option", {"n": index})
        if len(option) > MAX_OPTION_CHARS:
            return Problem(
                draft.where,
                "imp_option_too_long",
                {"n": index, "length": len(option), "limit": MAX_OPTION_CHARS},
            )
    return None


def _message(problem: BankProblem) -> dict[str, object]:
    """The validator's problem as an import problem's message, without the question number of
    the bank it was checked in (the draft's own place names the question)."""
    return {"message": replace(problem, where=replace(problem.where, question=None, qid=None))}
