"""Bank files: YAML read safely into the quiz model, then checked by the one validator.

A bank is one YAML file under the questions folder; its file name is the quiz id. The file is read
with PyYAML's *safe* loader (libyaml's where present), but only as far as its node tree
(``yaml.compose``): no Python object is ever constructed, texts are taken as the exact strings
the author wrote (so ``yes``, ``no``, ``on`` or ``1.50`` stay text and never turn into booleans
or numbers), and anchors, aliases and explicit tags are refused, which also defuses "billion
laughs" alias bombs. Nesting deeper than MAX_DEPTH and files over MAX_FILE_BYTES are refused
before anything is read.

This module reports the file's shape (unknown or missing keys, a list where text belongs, a
number that is not whole); bot/core/validator.py reports what the texts and numbers say (empty,
too long, out of range, duplicated), each on the line recorded here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import yaml

from bot.banks.images import FolderImages, ImageFinder, NoImages
from bot.banks.yaml_nodes import NodeReader, compose
from bot.core.bank import (
    MAX_FILE_BYTES,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MIN_OPTIONS,
    MIN_SECONDS,
    OTHER_LANGUAGES,
    QUESTION_FIELDS,
    QUESTION_ID,
    SETTINGS_FIELDS,
    TRUE_FALSE,
    Accepted,
    Kind,
    Limits,
    Option,
    Question,
    Quiz,
    Text,
)
from bot.core.images import Image, Refused
from bot.core.problems import BankError, Problem, SourceMap, Where, whole
from bot.core.validator import validate
from bot.i18n.lang import TEXT_LANGS, as_lang

_TOP_KEYS = {"title", "language", "settings", "questions"}
_SETTINGS_KEYS = set(SETTINGS_FIELDS)
_QUESTION_KEYS = set(QUESTION_FIELDS)
_KINDS: dict[str, Kind] = {
    "single": "single",
    "multiple": "multiple",
    "truefalse": "truefalse",
    "numeric": "numeric",
    "short": "short",
}
_OPTION_KEYS = {"text", "feedback"}
_ANSWER_KEYS = {"answer", "tolerance", "min", "max", "fraction", "feedback"}
_BLANK = Text("", "")  # stands in for a text the reader could not read (marked unread)


def load_quiz(path: Path, limits: Limits | None = None) -> Quiz:
    """Read and validate one bank file; raise BankError naming every problem."""
    file = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BankError([whole(file, "bank_file_too_big", size=size, limit=MAX_FILE_BYTES)])
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BankError([whole(file, "bank_not_utf8")]) from None
    except OSError as exc:
        raise BankError([whole(file, "bank_unreadable", reason=exc.strerror)]) from None
    return parse_quiz(raw, file, path.stem, limits, FolderImages(path.parent))


def parse_quiz(
    raw: str,
    file: str,
    quiz_id: str,
    limits: Limits | None = None,
    images: ImageFinder | None = None,
) -> Quiz:
    """Validate a bank given as text (``file`` only names it in problems; ``images`` finds
    the pictures it names, none without it); raise BankError."""
    if len(raw.encode("utf-8")) > MAX_FILE_BYTES:
        raise BankError([whole(file, "bank_over", limit=MAX_FILE_BYTES)])
    root = compose(raw, file)
    if root is None:
        raise BankError([whole(file, "bank_file_empty")])
    quiz, source, read = read_quiz(root, file, quiz_id, images or NoImages())
    problems = validate(quiz, limits or Limits(), source, read)
    if problems:
        raise BankError(problems)
    return quiz


def read_quiz(
    root: yaml.Node, file: str, quiz_id: str, images: ImageFinder | None = None
) -> tuple[Quiz, SourceMap, list[Problem]]:
    """The quiz a composed bank holds, not yet validated: the model (stand-ins where a part
    could not be read), where each part was, and the problems met reading it."""
    reader = NodeReader(file)
    quiz = _read_quiz(reader, root, quiz_id, file, images or NoImages())
    source = SourceMap(file, lines=reader.lines, unread=frozenset(reader.unread), held=reader.held)
    return quiz, source, reader.problems


def _read_quiz(
    reader: NodeReader, root: yaml.Node, quiz_id: str, file: str, images: ImageFinder
) -> Quiz:
    blank = Quiz(id=quiz_id, title=_BLANK, language="en", questions=(), source=file)
    top = reader.mapping(root, Where(), _TOP_KEYS, required=("title", "language", "questions"))
    if top is None:
        reader.lost(Where())
        return blank
    if "title" in top and isinstance(top["title"], yaml.ScalarNode):
        reader.bilingual = False
    title = _text(reader, top.get("title"), Where("title"))
    language = _language(reader, top.get("language"))
    seconds = pick = None
    shuffle = True
    all_or_nothing = False
    if "settings" in top:
        settings = reader.mapping(top["settings"], Where("settings"), _SETTINGS_KEYS)
        if settings:
            if "seconds" in settings:
                seconds = reader.integer(
                    settings["seconds"], Where("settings.seconds"), MIN_SECONDS, MAX_SECONDS
                )
            if "shuffle" in settings:
                shuffle = bool(reader.boolean(settings["shuffle"], Where("settings.shuffle")))
            if "pick" in settings:
                pick = reader.integer(settings["pick"], Where("settings.pick"), 1, MAX_QUESTIONS)
            if "all_or_nothing" in settings:
                where = Where("settings.all_or_nothing")
                all_or_nothing = bool(reader.boolean(settings["all_or_nothing"], where))
    questions: tuple[Question, ...] = ()
    if "questions" in top:
        questions = _read_questions(reader, top["questions"], images)
    else:
        reader.lost(Where("questions"))
    return Quiz(
        id=quiz_id,
        title=title,
        language=as_lang(language or "en") or "en",
        questions=questions,
        seconds=seconds,
        shuffle=shuffle,
        source=file,
        bilingual=reader.bilingual,
        pick=pick,
        all_or_nothing=all_or_nothing,
        text_language=language if language in OTHER_LANGUAGES else None,
    )


def _text(reader: NodeReader, node: yaml.Node | None, where: Where) -> Text:
    """A text as read, or a stand-in (marked unread) when it could not be."""
    text = None if node is None else reader.text(node, where)
    if text is None:
        reader.lost(where)
        return _BLANK
    return text


def _language(reader: NodeReader, node: yaml.Node | None) -> str | None:
    """``bn`` or ``en``, or for a one-language bank another language's code (OTHER_LANGUAGES)."""
    if node is None:
        return None
    where = Where("language")
    value = reader.string(node, where)
    if value == "":
        reader.fail(node, where, "bank_empty")
        return None
    language = as_lang(value)
    if language is None and value in OTHER_LANGUAGES and not reader.bilingual:
        return value  # a one-language bank in another language: its texts as written
    if language is None and value is not None:
        reader.fail(
            node, where, "bank_bad_language", value=repr(value), langs=", ".join(TEXT_LANGS)
        )
    return language


def _read_questions(
    reader: NodeReader, node: yaml.Node, images: ImageFinder
) -> tuple[Question, ...]:
    where = Where("questions")
    if not reader.check_node(node, where):
        reader.lost(where)
        return ()
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        reader.fail(node, where, "bank_empty_list")
        reader.lost(where)
        return ()
    if len(node.value) > MAX_QUESTIONS:  # refused before reading any of them
        reader.fail(node, where, "bank_too_many", count=len(node.value), limit=MAX_QUESTIONS)
        reader.lost(where)
        return ()
    return tuple(_read_question(reader, q, n, images) for n, q in enumerate(node.value, start=1))


def _read_question(
    reader: NodeReader, node: yaml.Node, number: int, images: ImageFinder
) -> Question:
    where = Where(question=number)
    if isinstance(node, yaml.MappingNode):  # name the id in every problem, even the first
        for key_node, value_node in node.value:
            if (
                isinstance(key_node, yaml.ScalarNode)
                and key_node.value == "id"
                and isinstance(value_node, yaml.ScalarNode)
                and QUESTION_ID.match(str(value_node.value))
            ):
                where = Where(question=number, qid=str(value_node.value))
    kind = _read_kind(reader, node, where)
    required = {
        "single": ("id", "question", "options", "correct"),
        "multiple": ("id", "question", "options", "correct"),
        "truefalse": ("id", "question", "correct"),
    }.get(kind, ("id", "question", "answers"))
    fields = reader.mapping(node, where, _QUESTION_KEYS, required=required)
    if fields is None:
        reader.lost(where)
        return Question("", number, _BLANK, (), 0, None)
    qid = reader.string(fields["id"], where.at("id")) if "id" in fields else None
    if qid is None:
        reader.lost(where.at("id"))
    text = _text(reader, fields.get("question"), where.at("question"))
    options: tuple[Option, ...] | None = ()
    correct: int | None = 0
    rights: tuple[int, ...] = ()
    if kind in ("single", "multiple"):
        options = _read_options(reader, fields.get("options"), where)
        rights = _read_correct(reader, fields.get("correct"), where, len(options or ()))
        correct = rights[0] if rights else None
        if kind == "single" and len(rights) > 1 and not _typed_as(fields, "single"):
            kind = "multiple"  # several listed: "select all that apply"
        if kind == "single" and len(rights) < 2:
            rights = ()  # several listed under ``type: single``: any one is worth full marks
    elif kind == "truefalse":
        options = TRUE_FALSE
        correct = _read_truth(reader, fields.get("correct"), where)
    else:
        for key in ("options", "correct"):
            if key in fields:
                reader.fail(fields[key], where.at(key), "bank_key_for_kind", name=key, kind=kind)
    if correct is None:
        reader.lost(where.at("correct"))
    fractions: tuple[float, ...] = ()
    if "fractions" in fields:
        fractions = _read_numbers(reader, fields["fractions"], where.at("fractions"))
    accepted: tuple[Accepted, ...] = ()
    if "answers" in fields and kind in ("numeric", "short"):
        accepted = _read_accepted(reader, fields["answers"], where, kind)
    units: tuple[str, ...] = ()
    if "units" in fields:
        units = _read_strings(reader, fields["units"], where.at("units"))
    case_sensitive = False
    if "case_sensitive" in fields:
        at = where.at("case_sensitive")
        case_sensitive = bool(reader.boolean(fields["case_sensitive"], at))
    wrong = None
    if "wrong_feedback" in fields:
        wrong = reader.text(fields["wrong_feedback"], where.at("wrong_feedback"))
        if wrong is None:
            reader.lost(where.at("wrong_feedback"))
    explanation = None
    if "explanation" in fields:
        explanation = reader.text(fields["explanation"], where.at("explanation"))
        if explanation is None:
            reader.lost(where.at("explanation"))
    note = reader.text(fields["note"], where.at("note")) if "note" in fields else None
    tag = reader.string(fields["tag"], where.at("tag")) if "tag" in fields else None
    image = (
        _image(reader, fields["image"], where.at("image"), images) if "image" in fields else None
    )
    return Question(
        id=qid or "",
        number=number,
        text=text,
        options=options or (),
        correct=correct or 0,
        explanation=explanation,
        note=note,
        tag=tag,
        kind=kind,
        rights=rights,
        fractions=fractions,
        accepted=accepted,
        units=units,
        case_sensitive=case_sensitive,
        wrong_feedback=wrong,
        image=image,
    )


def _typed_as(fields: dict[str, yaml.Node], kind: str) -> bool:
    """Whether the question says its ``type`` is ``kind`` in so many words."""
    node = fields.get("type")
    return isinstance(node, yaml.ScalarNode) and node.value == kind


def _read_kind(reader: NodeReader, node: yaml.Node, where: Where) -> Kind:
    """The question's ``type`` (``single`` if none is given; a bad one is reported and the
    question marked unread)."""
    if not isinstance(node, yaml.MappingNode):
        return "single"
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == "type":
            value = reader.string(value_node, where.at("type"))
            kind = _KINDS.get(value or "")
            if kind is None:
                if value is not None:
                    kinds = ", ".join(_KINDS)
                    reader.fail(
                        value_node,
                        where.at("type"),
                        "bank_bad_type",
                        value=repr(value),
                        kinds=kinds,
                    )
                reader.lost(where.at("type"))
                return "single"
            return kind
    return "single"


def _read_correct(
    reader: NodeReader, node: yaml.Node | None, where: Where, count: int
) -> tuple[int, ...]:
    """``correct``: one option's number, or a list of them (0-based here); its problems count
    only once the options are known good."""
    at = where.at("correct")
    if node is None:
        return ()
    held = len(reader.problems)
    values: list[int | None]
    if isinstance(node, yaml.SequenceNode) and reader.check_node(node, at):
        if not node.value:
            reader.fail(node, at, "bank_empty_list")
            values = [None]
        else:
            values = [reader.integer(item, at, 1, count) for item in node.value]
    else:
        values = [reader.integer(node, at, 1, count)]
    reader.hold(at, held)
    if any(v is None for v in values):
        return ()
    return tuple(v - 1 for v in values if v is not None)


def _read_truth(reader: NodeReader, node: yaml.Node | None, where: Where) -> int | None:
    """A true/false question's ``correct``: ``true`` or ``false`` (the option's index)."""
    if node is None:
        return None
    value = reader.boolean(node, where.at("correct"))
    return None if value is None else (0 if value else 1)


def _read_numbers(reader: NodeReader, node: yaml.Node, at: Where) -> tuple[float, ...]:
    if not reader.check_node(node, at) or not isinstance(node, yaml.SequenceNode):
        if isinstance(node, yaml.Node) and not isinstance(node, yaml.SequenceNode):
            reader.fail(node, at, "bank_not_list")
        reader.lost(at)
        return ()
    numbers = [reader.number(item, at) for item in node.value]
    if any(n is None for n in numbers):
        reader.lost(at)
        return ()
    return tuple(n for n in numbers if n is not None)


def _read_strings(reader: NodeReader, node: yaml.Node, at: Where) -> tuple[str, ...]:
    if not reader.check_node(node, at) or not isinstance(node, yaml.SequenceNode):
        if not isinstance(node, yaml.SequenceNode):
            reader.fail(node, at, "bank_not_list")
        return ()
    out = [reader.string(item, at) for item in node.value]
    return tuple(s for s in out if s is not None)


def _read_accepted(
    reader: NodeReader, node: yaml.Node, where: Where, kind: Kind
) -> tuple[Accepted, ...]:
    """A typed question's ``answers``: each a text or number, or a mapping with ``answer``
    (or ``min``/``max`` for a number), ``tolerance``, ``fraction`` and ``feedback``."""
    at = where.at("answers")
    if not reader.check_node(node, at) or not isinstance(node, yaml.SequenceNode):
        if not isinstance(node, yaml.SequenceNode):
            reader.fail(node, at, "bank_not_list")
        reader.lost(at)
        return ()
    out: list[Accepted] = []
    for index, item in enumerate(node.value, start=1):
        part = where.at(f"answers[{index}]")
        answer = _read_one_accepted(reader, item, part, kind)
        if answer is None:
            reader.lost(part)
            answer = Accepted()
        out.append(answer)
    return tuple(out)


def _read_one_accepted(
    reader: NodeReader, node: yaml.Node, part: Where, kind: Kind
) -> Accepted | None:
    if isinstance(node, yaml.ScalarNode):
        fields: dict[str, yaml.Node] | None = {"answer": node}
    else:
        fields = reader.mapping(node, part, _ANSWER_KEYS)
    if fields is None:
        return None
    text, value, tolerance = "", 0.0, 0.0
    if kind == "short":
        if "answer" not in fields:
            reader.fail(node, part, "bank_missing_key", name=repr("answer"))
            return None
        text = reader.string(fields["answer"], part) or ""
    elif "min" in fields or "max" in fields:  # an interval: its middle, give or take half
        low = reader.number(fields["min"], part) if "min" in fields else None
        high = reader.number(fields["max"], part) if "max" in fields else None
        if low is None or high is None:
            if "min" not in fields or "max" not in fields:
                reader.fail(node, part, "bank_missing_key", name=repr("min, max"))
            return None
        value, tolerance = (low + high) / 2, (high - low) / 2
    else:
        if "answer" not in fields:
            reader.fail(node, part, "bank_missing_key", name=repr("answer"))
            return None
        number = reader.number(fields["answer"], part)
        if number is None:
            return None
        value = number
        if "tolerance" in fields:
            tolerance = reader.number(fields["tolerance"], part.dot("tolerance")) or 0.0
    fraction = 1.0
    if "fraction" in fields:
        read = reader.number(fields["fraction"], part.dot("fraction"))
        fraction = 1.0 if read is None else read
    feedback = None
    if "feedback" in fields:
        feedback = reader.text(fields["feedback"], part.dot("feedback"))
    return Accepted(text, value, tolerance, fraction, feedback)


def _image(reader: NodeReader, node: yaml.Node, where: Where, images: ImageFinder) -> Image | None:
    """The picture a question names, found (beside the bank file, or stored); a picture that
    cannot be used is a problem of the bank, named."""
    name = reader.string(node, where)
    if name is None:
        reader.lost(where)
        return None
    if not name:
        reader.fail(node, where, "bank_empty")
        return None
    try:
        return images.find(name)
    except Refused as refused:
        reader.fail(node, where, refused.key, **{"name": name, **refused.values})
        return None


def _read_options(
    reader: NodeReader, node: yaml.Node | None, where: Where
) -> tuple[Option, ...] | None:
    at = where.at("options")
    if node is None:
        reader.lost(at)
        return None
    if not reader.check_node(node, at):
        reader.lost(at)
        return None
    if not isinstance(node, yaml.SequenceNode):
        reader.fail(node, at, "bank_not_list")
        reader.lost(at)
        return None
    if not MIN_OPTIONS <= len(node.value) <= MAX_OPTIONS:  # the validator names the count
        return tuple(Option("", "") for _ in node.value)
    return tuple(
        _read_option(reader, opt_node, where.at(f"options[{index}]"))
        for index, opt_node in enumerate(node.value, start=1)
    )


def _read_option(reader: NodeReader, node: yaml.Node, at: Where) -> Option:
    """An option: its text (plain, or ``bn``/``en``), or ``text`` with its own ``feedback``."""
    if not _has_key(node, "text") and not _has_key(node, "feedback"):
        text = _text(reader, node, at)
        return Option(text.bn, text.en)
    fields = reader.mapping(node, at, _OPTION_KEYS, required=("text",))
    if fields is None or "text" not in fields:
        reader.lost(at)
        return Option("", "")
    text = _text(reader, fields["text"], at)
    feedback = None
    if "feedback" in fields:
        feedback = reader.text(fields["feedback"], at.dot("feedback"))
        if feedback is None:
            reader.lost(at.dot("feedback"))
    return Option(text.bn, text.en, feedback)


def _has_key(node: yaml.Node, key: str) -> bool:
    """Whether ``node`` is a mapping with ``key`` among its keys."""
    return isinstance(node, yaml.MappingNode) and any(
        isinstance(k, yaml.ScalarNode) and k.value == key for k, _ in node.value
    )


def load_folder(
    paths: Iterable[Path], limits: Limits | None = None
) -> tuple[dict[str, Quiz], list[Problem]]:
    """Load every ``*.yaml``/``*.yml`` bank in the given files or folders.

    Returns the valid quizzes by id and the problems of the others: one broken file never
    hides the rest.
    """
    quizzes: dict[str, Quiz] = {}
    problems: list[Problem] = []
    for path in _bank_files(paths, problems):
        try:
            quiz = load_quiz(path, limits)
        except BankError as exc:
            problems.extend(exc.problems)
            continue
        if quiz.id in quizzes:
            other = quizzes[quiz.id].source
            problems.append(whole(str(path), "bank_id_taken", quiz=repr(quiz.id), other=other))
            continue
        quizzes[quiz.id] = quiz
    return quizzes, problems


def _bank_files(paths: Iterable[Path], problems: list[Problem]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
            )
        elif path.is_file():
            files.append(path)
        else:
            problems.append(whole(str(path), "bank_missing_path"))
    return files
