"""The quiz model: a question bank as the bot serves it, whatever it was read from (pure).

Frozen dataclasses built by the readers (the YAML reader, bot/banks/yaml_reader.py; the
importers, bot/banks/importers/; quiz drafts written in the chat), checked by the one validator
(bot/core/validator.py) against the limits below, written back as YAML by one writer
(bot/banks/yaml_writer.py), and given as plain data by ``Quiz.to_dict``/``Quiz.from_dict``
(JSON), whose field names are the bank format's own and stay stable.

A reader builds the model as it read it; until the validator accepted it, texts may be empty,
too long or duplicated and ``correct`` out of range. Later question types add fields with
defaults (``Option``: its own feedback and credit; ``Question``: a kind, accepted answers), so
existing banks, their dicts and their JSON stay as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.core.images import STORED_NAME, Image
from bot.i18n.lang import Lang, as_lang

QUIZ_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
QUESTION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$")
MAX_FILE_BYTES = 512 * 1024
MAX_QUESTIONS = 200
MIN_OPTIONS, MAX_OPTIONS = 2, 10
MAX_OPTION_CHARS = 300
MAX_TITLE_CHARS = 200
#: a note (an imported question's general feedback) at most: what a message holds, less room for
#: its mark; a reveal it does not fit sends it as a message of its own
MAX_NOTE_CHARS = 4000
MAX_TAG_CHARS = 100
MIN_SECONDS, MAX_SECONDS = 5, 600
#: a question's keys in the bank format, in the format's order (the reader allows these, the
#: validator reports problems in this order)
QUESTION_FIELDS: tuple[str, ...] = (
    "id",
    "type",
    "question",
    "options",
    "correct",
    "fractions",
    "answers",
    "units",
    "case_sensitive",
    "wrong_feedback",
    "explanation",
    "note",
    "tag",
    "image",
)
#: the keys of a bank's ``settings``, in the format's order
SETTINGS_FIELDS: tuple[str, ...] = ("seconds", "shuffle", "pick", "all_or_nothing")
MAX_ACCEPTED = 20  # accepted typed answers of one question
MAX_ANSWER_CHARS = 200  # an accepted short answer; a typed answer is read up to this much too
MAX_UNITS = 10

#: a question's kind: ``single`` (one right option, the default), ``multiple`` (several right
#: options, "select all that apply"), ``truefalse``, and the typed ones: ``numeric``, ``short``
Kind = Literal["single", "multiple", "truefalse", "numeric", "short"]
KINDS: tuple[Kind, ...] = ("single", "multiple", "truefalse", "numeric", "short")
TYPED_KINDS: tuple[Kind, ...] = ("numeric", "short")
#: the languages besides Bengali and English a one-language bank may be written in
#: (``language: fr``): its texts are shown as written, the bot's own words in each chat's language
OTHER_LANGUAGES = frozenset(
    {"fr", "es", "ca", "de", "pt", "it", "nl", "ar", "ru", "hi", "el", "he", "ja", "zh", "ko", "th"}
)


@dataclass(frozen=True, slots=True)
class Text:
    """One piece of a bank's text, in Bengali and English (a one-language bank's text is in
    both fields)."""

    bn: str
    en: str

    def __call__(self, lang: Lang) -> str:
        """The text a chat in ``lang`` reads: Bengali in Bengali, English in every other
        language. A chat in a third UI language (Hindi, ``/lang hi``) so sees a bilingual
        bank's English and a one-language bank in its own language (Bengali, English, French...),
        with the bot's own words in Hindi."""
        return self.bn if lang == "bn" else self.en


@dataclass(frozen=True, slots=True)
class Option(Text):
    """One option of a question: its text in every language, and what it carries beyond its
    text: its own ``feedback``, shown to whoever picks it (right or wrong; the question's
    explanation when None)."""

    feedback: Text | None = None


#: the two options of a true/false question, true first (shown with the chat's own words)
TRUE_FALSE = (Option("সত্য", "True"), Option("মিথ্যা", "False"))


@dataclass(frozen=True, slots=True)
class Accepted:
    """One accepted typed answer: a short answer's text, or a numeric answer's value and
    tolerance (``value - tolerance`` .. ``value + tolerance``); the credit it gives (1: full
    marks) and its own feedback."""

    text: str = ""
    value: float = 0.0
    tolerance: float = 0.0
    fraction: float = 1.0
    feedback: Text | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """One question, its options in the author's order (none for a typed question)."""

    id: str
    number: int  # its place in the bank, from 1
    text: Text
    options: tuple[Option, ...]
    correct: int  # index into options, 0-based (the first right one; 0 for a typed question)
    explanation: Text | None  # the tap alert's text; None: the alert shows the verdict only
    note: Text | None = None
    tag: str | None = None  # the author's label (e.g. an imported category); never shown
    kind: Kind = "single"
    #: every right option, 0-based (``correct`` first): a ``multiple`` question's, or a
    #: ``single`` one's whose several options are each worth full marks alone (Moodle's
    #: one-answer question with several ``=``; written ``type: single``, ``correct: [2, 4]``)
    rights: tuple[int, ...] = ()
    fractions: tuple[float, ...] = ()  # per option, its credit (-1..1); empty: the default
    accepted: tuple[Accepted, ...] = ()  # ``numeric``/``short``: the answers given credit
    units: tuple[str, ...] = ()  # ``numeric``: units a typed number may carry
    case_sensitive: bool = False  # ``short``: letter case matters
    wrong_feedback: Text | None = None  # typed: what a wrong answer is told
    image: Image | None = None  # posted with the question (bot/core/images.py)

    @property
    def right_options(self) -> tuple[int, ...]:
        """The options that are right (bank indices): every one of a ``multiple`` question,
        otherwise ``correct`` alone; none for a typed question."""
        if self.typed:
            return ()
        return self.rights or (self.correct,)

    @property
    def typed(self) -> bool:
        """Whether the student types the answer (numeric, short) rather than taps it."""
        return self.kind in TYPED_KINDS


@dataclass(frozen=True, slots=True)
class Quiz:
    """A whole question bank."""

    id: str
    title: Text
    language: Lang
    questions: tuple[Question, ...]
    seconds: int | None = None
    shuffle: bool = True
    source: str = ""
    bilingual: bool = True  # False: every text is in ``language`` only, served as it is
    pick: int | None = None  # each run draws this many questions (None: all, in order)
    all_or_nothing: bool = False  # several right answers: credit only for exactly the right set
    #: a one-language bank written in neither Bengali nor English: its language's code
    #: (OTHER_LANGUAGES; ``language`` is then "en", the bot's fallback for its own words)
    text_language: str | None = None
    name: str = ""  # a stored quiz's name (what users type); a folder bank's is its id

    @property
    def handle(self) -> str:
        """The name users see and type: never a stored quiz's internal id."""
        return self.name or self.id

    @property
    def run_length(self) -> int:
        """How many questions one run asks."""
        return self.pick or len(self.questions)

    @property
    def group_length(self) -> int:
        """How many questions a group's live run asks: the typed ones are left out."""
        asked = sum(1 for q in self.questions if not q.typed)
        return asked if self.pick is None else min(self.pick, asked)

    @property
    def kind(self) -> str:
        """ "bilingual", or the one language the bank is written in ("bn only", "fr only")."""
        return "bilingual" if self.bilingual else f"{self.text_language or self.language} only"

    def to_dict(self) -> dict[str, Any]:
        """The bank as plain data in the bank format (what its YAML file holds): keys in the
        format's order, defaults left out; ``id`` and ``source`` are not part of it."""
        language = self.text_language or self.language
        out: dict[str, Any] = {"title": self._text(self.title), "language": language}
        settings: dict[str, Any] = {}
        if self.seconds is not None:
            settings["seconds"] = self.seconds
        if not self.shuffle:
            settings["shuffle"] = False
        if self.pick is not None:
            settings["pick"] = self.pick
        if self.all_or_nothing:
            settings["all_or_nothing"] = True
        if settings:
            out["settings"] = settings
        out["questions"] = [self._question(q) for q in self.questions]
        return out

    def _text(self, text: Text) -> str | dict[str, str]:
        return {"bn": text.bn, "en": text.en} if self.bilingual else text(self.language)

    def _option(self, option: Option) -> str | dict[str, Any]:
        """An option as its text, or ``{text, feedback}`` when it has its own feedback."""
        text = self._text(option)
        if option.feedback is None:
            return text
        return {"text": text, "feedback": self._text(option.feedback)}

    def _question(self, q: Question) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": q.id}
        if q.kind != "single" or len(q.right_options) > 1:  # several right, any one will do
            entry["type"] = q.kind
        entry["question"] = self._text(q.text)
        if q.kind in ("single", "multiple"):
            entry["options"] = [self._option(o) for o in q.options]
        if q.kind == "multiple" or len(q.right_options) > 1:
            entry["correct"] = [i + 1 for i in q.right_options]
        elif q.kind == "truefalse":
            entry["correct"] = q.correct == 0
        elif not q.typed:
            entry["correct"] = q.correct + 1
        if q.fractions:
            entry["fractions"] = [_number(f) for f in q.fractions]
        if q.typed:
            entry["answers"] = [self._accepted(q, a) for a in q.accepted]
        if q.units:
            entry["units"] = list(q.units)
        if q.case_sensitive:
            entry["case_sensitive"] = True
        if q.wrong_feedback is not None:
            entry["wrong_feedback"] = self._text(q.wrong_feedback)
        if q.explanation is not None:
            entry["explanation"] = self._text(q.explanation)
        if q.note is not None:
            entry["note"] = self._text(q.note)
        if q.tag is not None:
            entry["tag"] = q.tag
        if q.image is not None:
            entry["image"] = q.image.file
        return entry

    def _accepted(self, q: Question, a: Accepted) -> str | float | dict[str, Any]:
        """An accepted answer: plain (its text or value) when it has nothing more."""
        plain: str | float = a.text if q.kind == "short" else _number(a.value)
        out: dict[str, Any] = {"answer": plain}
        if q.kind == "numeric" and a.tolerance:
            out["tolerance"] = _number(a.tolerance)
        if a.fraction != 1:
            out["fraction"] = _number(a.fraction)
        if a.feedback is not None:
            out["feedback"] = self._text(a.feedback)
        return plain if len(out) == 1 else out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], quiz_id: str, source: str = "") -> Quiz:
        """The quiz ``to_dict`` gave (trusted: it was validated when it was stored, and it is
        not checked again); ValueError if its shape is not the bank format's."""
        try:
            bilingual = isinstance(data["title"], Mapping)
            language = as_lang(data["language"])
            other = data["language"] if data["language"] in OTHER_LANGUAGES else None
            if language is None and (other is None or bilingual):
                raise ValueError(f"unknown language {data['language']!r}")
            settings = data.get("settings", {})
            questions = tuple(
                _question_from(q, number, bilingual)
                for number, q in enumerate(data["questions"], start=1)
            )
            return cls(
                id=quiz_id,
                title=_text_from(data["title"], bilingual),
                language=language or "en",
                questions=questions,
                seconds=_whole_or_none(settings.get("seconds")),
                shuffle=bool(settings.get("shuffle", True)),
                source=source,
                bilingual=bilingual,
                pick=_whole_or_none(settings.get("pick")),
                all_or_nothing=bool(settings.get("all_or_nothing", False)),
                text_language=other,
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a quiz: {exc!r}") from None

    def to_json(self) -> str:
        """``to_dict`` as JSON text (UTF-8 kept)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str, quiz_id: str, source: str = "") -> Quiz:
        """The quiz ``to_json`` gave; ValueError if it is not one."""
        data = json.loads(raw)
        if not isinstance(data, Mapping):
            raise ValueError("not a quiz: not a JSON object")
        return cls.from_dict(data, quiz_id, source)


def _text_from(value: Any, bilingual: bool) -> Text:
    if bilingual:
        return Text(bn=str(value["bn"]), en=str(value["en"]))
    if not isinstance(value, str):
        raise TypeError(f"plain text expected, not {type(value).__name__}")
    return Text(bn=value, en=value)


def _option_from(value: Any, bilingual: bool) -> Option:
    feedback = None
    if isinstance(value, Mapping) and "text" in value:
        raw = value.get("feedback")
        feedback = None if raw is None else _text_from(raw, bilingual)
        value = value["text"]
    text = _text_from(value, bilingual)
    return Option(bn=text.bn, en=text.en, feedback=feedback)


def _whole_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _number(value: float) -> float | int:
    """A number as the bank format writes it: whole ones without ``.0``."""
    return int(value) if float(value).is_integer() else float(value)


def _kind(value: Any) -> Kind:
    for kind in KINDS:
        if value == kind:
            return kind
    raise ValueError(f"unknown question type {value!r}")


def _accepted_from(value: Any, kind: Kind, bilingual: bool) -> Accepted:
    entry = value if isinstance(value, Mapping) else {"answer": value}
    feedback = entry.get("feedback")
    answer = entry["answer"]
    return Accepted(
        text=str(answer) if kind == "short" else "",
        value=0.0 if kind == "short" else float(answer),
        tolerance=float(entry.get("tolerance", 0)),
        fraction=float(entry.get("fraction", 1)),
        feedback=None if feedback is None else _text_from(feedback, bilingual),
    )


def _question_from(entry: Mapping[str, Any], number: int, bilingual: bool) -> Question:
    explanation, note, tag = entry.get("explanation"), entry.get("note"), entry.get("tag")
    kind = _kind(entry.get("type", "single"))
    wrong = entry.get("wrong_feedback")
    options: tuple[Option, ...] = ()
    correct, rights = 0, tuple[int, ...]()
    if kind == "truefalse":
        options, correct = TRUE_FALSE, 0 if entry["correct"] else 1
    elif kind in ("single", "multiple"):
        options = tuple(_option_from(o, bilingual) for o in entry["options"])
        raw = entry["correct"]
        listed = [int(c) - 1 for c in (raw if isinstance(raw, list) else [raw])]
        correct = listed[0]
        rights = tuple(listed) if kind == "multiple" or len(listed) > 1 else ()
    return Question(
        id=str(entry["id"]),
        number=number,
        text=_text_from(entry["question"], bilingual),
        options=options,
        correct=correct,
        explanation=None if explanation is None else _text_from(explanation, bilingual),
        note=None if note is None else _text_from(note, bilingual),
        tag=None if tag is None else str(tag),
        kind=kind,
        rights=rights,
        fractions=tuple(float(f) for f in entry.get("fractions", ())),
        accepted=tuple(_accepted_from(a, kind, bilingual) for a in entry.get("answers", ())),
        units=tuple(str(u) for u in entry.get("units", ())),
        case_sensitive=bool(entry.get("case_sensitive", False)),
        wrong_feedback=None if wrong is None else _text_from(wrong, bilingual),
        image=_image_from(entry.get("image")),
    )


def _image_from(value: Any) -> Image | None:
    """A picture's name as stored; its hash is in a stored quiz's names (a folder bank's
    picture is hashed again when it is read)."""
    if value is None:
        return None
    found = STORED_NAME.match(str(value).rsplit("/", 1)[-1])
    return Image(str(value), found.group(1) if found else "")


@dataclass(frozen=True, slots=True)
class Limits:
    """Lengths the rendered texts must respect; filled in by the renderer's worst cases."""

    question_message: int = 4096
    alert: int = 200
    alert_prefix: Mapping[Lang, int] | None = None  # longest verdict+points prefix per language
    question_overhead: Mapping[Lang, int] | None = None  # header and labels around the texts
    #: the closed question's frame: header, counts, right-answer and stats lines, marks, verdict
    reveal_overhead: Mapping[Lang, int] | None = None


def utf16_len(text: str) -> int:
    """A text's length as Telegram counts it: UTF-16 code units (an emoji is often 2)."""
    return len(text.encode("utf-16-le")) // 2
