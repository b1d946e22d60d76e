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
from typing import Any

from bot.i18n.lang import Lang, as_lang

QUIZ_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
QUESTION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$")
MAX_FILE_BYTES = 512 * 1024
MAX_QUESTIONS = 200
MIN_OPTIONS, MAX_OPTIONS = 2, 10
MAX_OPTION_CHARS = 300
MAX_TITLE_CHARS = 200
MAX_NOTE_CHARS = 1000
MAX_TAG_CHARS = 100
MIN_SECONDS, MAX_SECONDS = 5, 600


@dataclass(frozen=True, slots=True)
class Text:
    """One piece of user-facing text in every supported language."""

    bn: str
    en: str

    def __call__(self, lang: Lang) -> str:
        return self.bn if lang == "bn" else self.en


@dataclass(frozen=True, slots=True)
class Option(Text):
    """One option of a question: its text in every language, and what it carries beyond its
    text: its own ``feedback``, shown to whoever picks it (right or wrong; the question's
    explanation when None)."""

    feedback: Text | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """One multiple-choice question, its options in the author's order."""

    id: str
    number: int  # its place in the bank, from 1
    text: Text
    options: tuple[Option, ...]
    correct: int  # index into options, 0-based
    explanation: Text | None  # the tap alert's text; None: the alert shows the verdict only
    note: Text | None = None
    tag: str | None = None  # the author's label (e.g. an imported category); never shown


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

    @property
    def run_length(self) -> int:
        """How many questions one run asks."""
        return self.pick or len(self.questions)

    @property
    def kind(self) -> str:
        """ "bilingual", or the one language the bank is written in ("bn only", "en only")."""
        return "bilingual" if self.bilingual else f"{self.language} only"

    def to_dict(self) -> dict[str, Any]:
        """The bank as plain data in the bank format (what its YAML file holds): keys in the
        format's order, defaults left out; ``id`` and ``source`` are not part of it."""
        out: dict[str, Any] = {"title": self._text(self.title), "language": self.language}
        settings: dict[str, Any] = {}
        if self.seconds is not None:
            settings["seconds"] = self.seconds
        if not self.shuffle:
            settings["shuffle"] = False
        if self.pick is not None:
            settings["pick"] = self.pick
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
        entry: dict[str, Any] = {
            "id": q.id,
            "question": self._text(q.text),
            "options": [self._option(o) for o in q.options],
            "correct": q.correct + 1,
        }
        if q.explanation is not None:
            entry["explanation"] = self._text(q.explanation)
        if q.note is not None:
            entry["note"] = self._text(q.note)
        if q.tag is not None:
            entry["tag"] = q.tag
        return entry

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], quiz_id: str, source: str = "") -> Quiz:
        """The quiz ``to_dict`` gave (trusted: it was validated when it was stored, and it is
        not checked again); ValueError if its shape is not the bank format's."""
        try:
            bilingual = isinstance(data["title"], Mapping)
            language = as_lang(data["language"])
            if language is None:
                raise ValueError(f"unknown language {data['language']!r}")
            settings = data.get("settings", {})
            questions = tuple(
                _question_from(q, number, bilingual)
                for number, q in enumerate(data["questions"], start=1)
            )
            return cls(
                id=quiz_id,
                title=_text_from(data["title"], bilingual),
                language=language,
                questions=questions,
                seconds=_whole_or_none(settings.get("seconds")),
                shuffle=bool(settings.get("shuffle", True)),
                source=source,
                bilingual=bilingual,
                pick=_whole_or_none(settings.get("pick")),
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


def _question_from(entry: Mapping[str, Any], number: int, bilingual: bool) -> Question:
    explanation, note, tag = entry.get("explanation"), entry.get("note"), entry.get("tag")
    return Question(
        id=str(entry["id"]),
        number=number,
        text=_text_from(entry["question"], bilingual),
        options=tuple(_option_from(o, bilingual) for o in entry["options"]),
        correct=int(entry["correct"]) - 1,
        explanation=None if explanation is None else _text_from(explanation, bilingual),
        note=None if note is None else _text_from(note, bilingual),
        tag=None if tag is None else str(tag),
    )


@dataclass(frozen=True, slots=True)
class Limits:
    """Lengths the rendered texts must respect; filled in by the renderer's worst cases."""

    question_message: int = 4096
    alert: int = 200
    alert_prefix: Mapping[Lang, int] | None = None  # longest verdict+points prefix per language
    question_overhead: Mapping[Lang, int] | None = None  # header and labels around the texts
