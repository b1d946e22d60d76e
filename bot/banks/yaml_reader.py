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

from bot.banks.yaml_nodes import NodeReader, compose
from bot.core.bank import (
    MAX_FILE_BYTES,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MIN_OPTIONS,
    MIN_SECONDS,
    QUESTION_ID,
    Limits,
    Option,
    Question,
    Quiz,
    Text,
)
from bot.core.problems import BankError, Problem, SourceMap, Where, whole
from bot.core.validator import validate
from bot.i18n.lang import LANGS, Lang, as_lang

_TOP_KEYS = {"title", "language", "settings", "questions"}
_SETTINGS_KEYS = {"seconds", "shuffle", "pick"}
_QUESTION_KEYS = {"id", "question", "options", "correct", "explanation", "note", "tag"}
_OPTION_KEYS = {"text", "feedback"}
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
    return parse_quiz(raw, file, path.stem, limits)


def parse_quiz(raw: str, file: str, quiz_id: str, limits: Limits | None = None) -> Quiz:
    """Validate a bank given as text (``file`` only names it in problems); raise BankError."""
    if len(raw.encode("utf-8")) > MAX_FILE_BYTES:
        raise BankError([whole(file, "bank_over", limit=MAX_FILE_BYTES)])
    root = compose(raw, file)
    if root is None:
        raise BankError([whole(file, "bank_file_empty")])
    quiz, source, read = read_quiz(root, file, quiz_id)
    problems = validate(quiz, limits or Limits(), source, read)
    if problems:
        raise BankError(problems)
    return quiz


def read_quiz(root: yaml.Node, file: str, quiz_id: str) -> tuple[Quiz, SourceMap, list[Problem]]:
    """The quiz a composed bank holds, not yet validated: the model (stand-ins where a part
    could not be read), where each part was, and the problems met reading it."""
    reader = NodeReader(file)
    quiz = _read_quiz(reader, root, quiz_id, file)
    source = SourceMap(file, lines=reader.lines, unread=frozenset(reader.unread), held=reader.held)
    return quiz, source, reader.problems


def _read_quiz(reader: NodeReader, root: yaml.Node, quiz_id: str, file: str) -> Quiz:
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
    questions: tuple[Question, ...] = ()
    if "questions" in top:
        questions = _read_questions(reader, top["questions"])
    else:
        reader.lost(Where("questions"))
    return Quiz(
        id=quiz_id,
        title=title,
        language=language or "en",
        questions=questions,
        seconds=seconds,
        shuffle=shuffle,
        source=file,
        bilingual=reader.bilingual,
        pick=pick,
    )


def _text(reader: NodeReader, node: yaml.Node | None, where: Where) -> Text:
    """A text as read, or a stand-in (marked unread) when it could not be."""
    text = None if node is None else reader.text(node, where)
    if text is None:
        reader.lost(where)
        return _BLANK
    return text


def _language(reader: NodeReader, node: yaml.Node | None) -> Lang | None:
    if node is None:
        return None
    where = Where("language")
    value = reader.string(node, where)
    if value == "":
        reader.fail(node, where, "bank_empty")
        return None
    language = as_lang(value)
    if language is None and value is not None:
        reader.fail(node, where, "bank_bad_language", value=repr(value), langs=", ".join(LANGS))
    return language


def _read_questions(reader: NodeReader, node: yaml.Node) -> tuple[Question, ...]:
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
    return tuple(_read_question(reader, q, n) for n, q in enumerate(node.value, start=1))


def _read_question(reader: NodeReader, node: yaml.Node, number: int) -> Question:
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
    fields = reader.mapping(
        node, where, _QUESTION_KEYS, required=("id", "question", "options", "correct")
    )
    if fields is None:
        reader.lost(where)
        return Question("", number, _BLANK, (), 0, None)
    qid = reader.string(fields["id"], where.at("id")) if "id" in fields else None
    if qid is None:
        reader.lost(where.at("id"))
    text = _text(reader, fields.get("question"), where.at("question"))
    options = _read_options(reader, fields.get("options"), where)
    correct = None
    if "correct" in fields:  # its problems count only once the options are known good
        held = len(reader.problems)
        count = len(options or ())
        value = reader.integer(fields["correct"], where.at("correct"), 1, count)
        correct = None if value is None else value - 1
        reader.hold(where.at("correct"), held)
    if correct is None:
        reader.lost(where.at("correct"))
    explanation = None
    if "explanation" in fields:
        explanation = reader.text(fields["explanation"], where.at("explanation"))
        if explanation is None:
            reader.lost(where.at("explanation"))
    note = reader.text(fields["note"], where.at("note")) if "note" in fields else None
    tag = reader.string(fields["tag"], where.at("tag")) if "tag" in fields else None
    return Question(
        id=qid or "",
        number=number,
        text=text,
        options=options or (),
        correct=correct or 0,
        explanation=explanation,
        note=note,
        tag=tag,
    )


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
