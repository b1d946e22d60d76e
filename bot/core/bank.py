"""Question banks: the YAML format, its strict validator, and the typed quizzes it produces.

A bank is one YAML file under the questions folder; its file name is the quiz id. The file is read
with PyYAML's *safe* loader (libyaml's where present), but only as far as its node tree
(``yaml.compose``): no Python object is ever constructed, texts are taken as the exact strings
the author wrote (so ``yes``, ``no``, ``on`` or ``1.50`` stay text and never turn into booleans
or numbers), and anchors, aliases and explicit tags are refused, which also defuses "billion
laughs" alias bombs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from bot.i18n import t_plain
from bot.i18n.lang import LANGS, Lang, as_lang

QUIZ_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
QUESTION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$")
MAX_FILE_BYTES = 512 * 1024
MAX_QUESTIONS = 200
MIN_OPTIONS, MAX_OPTIONS = 2, 10
MAX_OPTION_CHARS = 300
MAX_TITLE_CHARS = 200
MAX_NOTE_CHARS = 1000
MIN_SECONDS, MAX_SECONDS = 5, 600

_TOP_KEYS = {"title", "language", "settings", "questions"}
_SETTINGS_KEYS = {"seconds", "shuffle", "pick"}
_QUESTION_KEYS = {"id", "question", "options", "correct", "explanation", "note", "tag"}
MAX_TAG_CHARS = 100
_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
}


@dataclass(frozen=True, slots=True)
class Text:
    """One piece of user-facing text in every supported language."""

    bn: str
    en: str

    def __call__(self, lang: Lang) -> str:
        return self.bn if lang == "bn" else self.en


@dataclass(frozen=True, slots=True)
class Question:
    """One multiple-choice question, its options in the author's order."""

    id: str
    number: int
    text: Text
    options: tuple[Text, ...]
    correct: int  # index into options, 0-based
    explanation: Text | None  # the tap alert's text; None: the alert shows the verdict only
    note: Text | None = None
    tag: str | None = None  # the author's label (e.g. an imported category); never shown


@dataclass(frozen=True, slots=True)
class Quiz:
    """A whole validated question bank."""

    id: str
    title: Text
    language: Lang
    questions: tuple[Question, ...]
    seconds: int | None = None
    shuffle: bool = True
    source: str = ""
    bilingual: bool = True  # False: every text is in ``language`` only, served as it is
    pick: int | None = None  # each run draws this many questions (None: all, in order)
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
    def kind(self) -> str:
        """ "bilingual", or the one language the bank is written in ("bn only", "en only")."""
        return "bilingual" if self.bilingual else f"{self.language} only"


@dataclass(frozen=True, slots=True)
class Where:
    """The place in a bank a problem is about: a question (its number, and its id once known),
    a field named as in the YAML (``title.bn``, ``settings.seconds``, ``options[2].en``), or
    both; neither for the whole file."""

    path: str = ""
    question: int | None = None
    qid: str | None = None

    def at(self, name: str) -> Where:
        """A field of this question (``id``, ``options[2]``)."""
        return replace(self, path=name)

    def dot(self, name: str) -> Where:
        """A part of this field (``title`` -> ``title.bn``)."""
        return replace(self, path=f"{self.path}.{name}")

    def text(self, lang: Lang) -> str:
        """``question 3 (id q7): options[2].en`` in ``lang`` (the field as written)."""
        head = ""
        if self.question is not None and self.qid is not None:
            head = t_plain(lang, "bank_where_question_id", n=self.question, id=self.qid)
        elif self.question is not None:
            head = t_plain(lang, "bank_where_question", n=self.question)
        return ": ".join(part for part in (head, self.path) if part)

    def __str__(self) -> str:
        return self.text("en")


@dataclass(frozen=True, slots=True)
class Problem:
    """One validation problem, located as precisely as the file allows: ``key`` names its
    text in the catalog (bot/i18n/strings_bank.py), ``values`` fill it in. ``str()`` is the English
    line (logs); ``text(lang)`` the line a person reads."""

    file: str
    line: int | None
    where: Where
    key: str
    values: Mapping[str, object] = field(default_factory=dict)

    def detail(self, lang: Lang) -> str:
        """The problem in ``lang`` with its place in the bank but not its file and line."""
        message = t_plain(lang, self.key, **self.values)
        where = self.where.text(lang)
        return f"{where}: {message}" if where else message

    def text(self, lang: Lang) -> str:
        """The whole line in ``lang``: ``file:line: place: problem`` (plain text)."""
        loc = f"{self.file}:{self.line}" if self.line else self.file
        return f"{loc}: {self.detail(lang)}"

    def __str__(self) -> str:
        return self.text("en")


class BankError(Exception):
    """A bank failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True, slots=True)
class Limits:
    """Lengths the rendered texts must respect; filled in by the renderer's worst cases."""

    question_message: int = 4096
    alert: int = 200
    alert_prefix: Mapping[Lang, int] | None = None  # longest verdict+points prefix per language
    question_overhead: Mapping[Lang, int] | None = None  # header and labels around the texts


class _Reader:
    """Walks a composed YAML node tree, collecting problems instead of raising at the first."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self._seen: set[int] = set()
        self.bilingual = True  # set from the title: a plain-text title makes a one-language bank

    def fail(self, node: yaml.Node | None, where: Where, key: str, /, **values: object) -> None:
        line = node.start_mark.line + 1 if node is not None else None
        self.problems.append(Problem(self.file, line, where, key, values))

    def check_node(self, node: yaml.Node, where: Where) -> bool:
        if id(node) in self._seen:
            self.fail(node, where, "bank_alias", marks="&, *")
            return False
        self._seen.add(id(node))
        if node.tag not in _STANDARD_TAGS:
            self.fail(node, where, "bank_tag", tag=repr(node.tag))
            return False
        return True

    def mapping(
        self, node: yaml.Node, where: Where, allowed: set[str], required: Iterable[str] = ()
    ) -> dict[str, yaml.Node] | None:
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, where, "bank_not_mapping")
            return None
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key == "<<":
                self.fail(key_node, where, "bank_merge_key", marks="<<")
                continue
            if not isinstance(key, str) or key not in allowed:
                allowed_list = ", ".join(sorted(allowed))
                self.fail(key_node, where, "bank_unknown_key", name=repr(key), allowed=allowed_list)
                continue
            if key in out:
                self.fail(key_node, where, "bank_key_twice", name=repr(key))
                continue
            out[key] = value_node
        for key in required:
            if key not in out:
                self.fail(node, where, "bank_missing_key", name=repr(key))
        return out

    def string(self, node: yaml.Node, where: Where) -> str | None:
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
            self.fail(node, where, "bank_not_text")
            return None
        value = str(node.value).strip()
        if not value:
            self.fail(node, where, "bank_empty")
            return None
        return value

    def text(self, node: yaml.Node, where: Where, limit: int | None = None) -> Text | None:
        if not self.bilingual:  # one-language bank: plain text, the same in every chat
            if isinstance(node, yaml.MappingNode):
                self.fail(node, where, "bank_one_language")
                return None
            value = self.string(node, where)
            if value is None:
                return None
            if limit is not None and len(value) > limit:
                self.fail(node, where, "bank_too_long", length=len(value), limit=limit)
            return Text(bn=value, en=value)
        if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
            self.fail(node, where, "bank_bilingual")
            return None
        fields = self.mapping(node, where, set(LANGS), required=LANGS)
        if fields is None:
            return None
        values: dict[str, str] = {}
        for lang in LANGS:
            if lang in fields:
                value = self.string(fields[lang], where.dot(lang))
                if value is not None:
                    if limit is not None and len(value) > limit:
                        self.fail(
                            fields[lang],
                            where.dot(lang),
                            "bank_too_long",
                            length=len(value),
                            limit=limit,
                        )
                    values[lang] = value
        if len(values) != len(LANGS):
            return None
        return Text(bn=values["bn"], en=values["en"])

    def integer(self, node: yaml.Node, where: Where, low: int, high: int) -> int | None:
        if not self.check_node(node, where):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:int":
            self.fail(node, where, "bank_not_whole", low=low, high=high)
            return None
        try:
            value = int(str(node.value), 10)
        except ValueError:
            self.fail(node, where, "bank_not_whole", low=low, high=high)
            return None
        if not low <= value <= high:
            self.fail(node, where, "bank_out_of_range", value=value, low=low, high=high)
            return None
        return value

    def boolean(self, node: yaml.Node, where: Where) -> bool | None:
        if not self.check_node(node, where):
            return None
        raw = str(node.value) if isinstance(node, yaml.ScalarNode) else ""
        if raw not in ("true", "false"):
            self.fail(node, where, "bank_not_bool")
            return None
        return raw == "true"


MAX_DEPTH = 64  # nesting a bank never needs; deeper is refused at once, not at Python's limit


class _TooDeep(Exception):
    pass


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing nesting deeper than MAX_DEPTH while composing."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep
            return super().compose_node(parent, index)  # type: ignore[arg-type]
        finally:
            self._depth -= 1


#: libyaml's parser where PyYAML has it (its wheels do): it composes a bank about ten times
#: faster than the pure-Python one, which matters when hundreds of stored quizzes are read at
#: start-up; it caps nesting at 1,000 levels itself, and MAX_DEPTH is checked on its tree
_FAST_LOADER: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)


def _compose(raw: str) -> yaml.Node | None:
    """The node tree of ``raw``; _TooDeep past MAX_DEPTH levels."""
    if _FAST_LOADER is None:
        return yaml.compose(raw, Loader=_Loader)
    root = yaml.compose(raw, Loader=_FAST_LOADER)
    if root is not None and _deeper_than(root, MAX_DEPTH):
        raise _TooDeep
    return root


def _deeper_than(root: yaml.Node, limit: int) -> bool:
    """Whether the tree nests more than ``limit`` levels (each node once: an alias is the same
    node, so a "billion laughs" tree is walked in its written size)."""
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack += [(key, depth + 1), (value, depth + 1)]
    return False


def load_quiz(path: Path, limits: Limits | None = None) -> Quiz:
    """Read and validate one bank file; raise BankError naming every problem."""
    file = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BankError([_whole(file, "bank_file_too_big", size=size, limit=MAX_FILE_BYTES)])
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BankError([_whole(file, "bank_not_utf8")]) from None
    except OSError as exc:
        raise BankError([_whole(file, "bank_unreadable", reason=exc.strerror)]) from None
    return parse_quiz(raw, file, path.stem, limits)


def _whole(file: str, key: str, line: int | None = None, /, **values: object) -> Problem:
    """A problem of the whole file (no place in the bank)."""
    return Problem(file, line, Where(), key, values)


def parse_quiz(raw: str, file: str, quiz_id: str, limits: Limits | None = None) -> Quiz:
    """Validate a bank given as text (``file`` only names it in problems); raise BankError."""
    reader = _Reader(file)
    if not QUIZ_ID.match(quiz_id):
        reader.fail(None, Where(), "bank_bad_name", limit=32)
    if len(raw.encode("utf-8")) > MAX_FILE_BYTES:
        raise BankError([_whole(file, "bank_over", limit=MAX_FILE_BYTES)])
    try:
        root = _compose(raw)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(exc):  # libyaml's own cap
            raise BankError([_whole(file, "bank_too_deep")]) from None
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise BankError([_whole(file, "bank_yaml", line, problem=problem)]) from None
    except (RecursionError, _TooDeep):  # PyYAML composes nested lists and maps recursively
        raise BankError([_whole(file, "bank_too_deep")]) from None
    if root is None:
        raise BankError([_whole(file, "bank_file_empty")])
    quiz = _read_quiz(reader, root, quiz_id, file, limits or Limits())
    if reader.problems or quiz is None:
        raise BankError(reader.problems)
    return quiz


def _read_quiz(
    reader: _Reader, root: yaml.Node, quiz_id: str, file: str, limits: Limits
) -> Quiz | None:
    top = reader.mapping(root, Where(), _TOP_KEYS, required=("title", "language", "questions"))
    if top is None:
        return None
    if "title" in top and isinstance(top["title"], yaml.ScalarNode):
        reader.bilingual = False
    title = reader.text(top["title"], Where("title"), MAX_TITLE_CHARS) if "title" in top else None
    language: Lang | None = None
    if "language" in top:
        value = reader.string(top["language"], Where("language"))
        language = as_lang(value)
        if language is None and value is not None:
            reader.fail(
                top["language"],
                Where("language"),
                "bank_bad_language",
                value=repr(value),
                langs=", ".join(LANGS),
            )
    seconds: int | None = None
    pick: int | None = None
    pick_node: yaml.Node | None = None
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
                pick_node = settings["pick"]
                pick = reader.integer(pick_node, Where("settings.pick"), 1, MAX_QUESTIONS)
    questions: list[Question] = []
    if "questions" in top:
        questions = _read_questions(reader, top["questions"], limits)
    if pick is not None and questions and pick > len(questions):
        reader.fail(
            pick_node, Where("settings.pick"), "bank_pick_over", pick=pick, count=len(questions)
        )
    if title is None or language is None or reader.problems:
        return None
    return Quiz(
        id=quiz_id,
        title=title,
        language=language,
        questions=tuple(questions),
        seconds=seconds,
        shuffle=shuffle,
        source=file,
        bilingual=reader.bilingual,
        pick=pick,
    )


def _read_questions(reader: _Reader, node: yaml.Node, limits: Limits) -> list[Question]:
    where = Where("questions")
    if not reader.check_node(node, where):
        return []
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        reader.fail(node, where, "bank_empty_list")
        return []
    if len(node.value) > MAX_QUESTIONS:
        reader.fail(node, where, "bank_too_many", count=len(node.value), limit=MAX_QUESTIONS)
        return []
    out: list[Question] = []
    ids: dict[str, int] = {}
    for number, q_node in enumerate(node.value, start=1):
        question = _read_question(reader, q_node, number, limits)
        if question is None:
            continue
        if question.id in ids:
            reader.fail(
                q_node,
                Where("id", number, question.id),
                "bank_duplicate_id",
                n=ids[question.id],
            )
            continue
        ids[question.id] = number
        out.append(question)
    return out


def _read_question(
    reader: _Reader, node: yaml.Node, number: int, limits: Limits
) -> Question | None:
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
        return None
    qid = reader.string(fields["id"], where.at("id")) if "id" in fields else None
    if qid is not None and not QUESTION_ID.match(qid):
        reader.fail(fields["id"], where.at("id"), "bank_bad_id", id=repr(qid), limit=48)
        qid = None
    text = reader.text(fields["question"], where.at("question")) if "question" in fields else None
    options = _read_options(reader, fields.get("options"), where)
    correct = None
    if "correct" in fields and options:
        value = reader.integer(fields["correct"], where.at("correct"), 1, len(options))
        correct = None if value is None else value - 1
    explanation = (
        reader.text(fields["explanation"], where.at("explanation"))
        if "explanation" in fields
        else None
    )
    note = (
        reader.text(fields["note"], where.at("note"), MAX_NOTE_CHARS) if "note" in fields else None
    )
    tag = reader.string(fields["tag"], where.at("tag")) if "tag" in fields else None
    if tag is not None and len(tag) > MAX_TAG_CHARS:
        reader.fail(
            fields["tag"], where.at("tag"), "bank_too_long", length=len(tag), limit=MAX_TAG_CHARS
        )
    if None in (qid, text, options, correct) or (explanation is None and "explanation" in fields):
        return None
    assert qid is not None
    assert text is not None
    assert options
    assert correct is not None
    question = Question(
        id=qid,
        number=number,
        text=text,
        options=tuple(options),
        correct=correct,
        explanation=explanation,
        note=note,
        tag=tag,
    )
    _check_lengths(reader, fields, question, where, limits)
    return question


def _read_options(reader: _Reader, node: yaml.Node | None, where: Where) -> list[Text] | None:
    if node is None:
        return None
    if not reader.check_node(node, where.at("options")):
        return None
    if not isinstance(node, yaml.SequenceNode):
        reader.fail(node, where.at("options"), "bank_not_list")
        return None
    count = len(node.value)
    if not MIN_OPTIONS <= count <= MAX_OPTIONS:
        reader.fail(
            node,
            where.at("options"),
            "bank_option_count",
            count=count,
            low=MIN_OPTIONS,
            high=MAX_OPTIONS,
        )
        return None
    options: list[Text] = []
    ok = True
    for index, opt_node in enumerate(node.value, start=1):
        text = reader.text(opt_node, where.at(f"options[{index}]"), MAX_OPTION_CHARS)
        if text is None:
            ok = False
            continue
        for lang in LANGS if reader.bilingual else LANGS[:1]:  # one language: said once
            seen = [o(lang).casefold() for o in options]
            if text(lang).casefold() in seen:
                suffix = f".{lang}" if reader.bilingual else ""
                reader.fail(
                    opt_node,
                    where.at(f"options[{index}]{suffix}"),
                    "bank_duplicate_option",
                    n=seen.index(text(lang).casefold()) + 1,
                )
                ok = False
        options.append(text)
    return options if ok else None


def _check_lengths(
    reader: _Reader, fields: dict[str, yaml.Node], q: Question, where: Where, limits: Limits
) -> None:
    """Sizes as sent, in each language the bank is served in (a one-language bank's texts
    go to chats of both languages: the longer frame counts, reported once)."""
    message_done = alert_done = False
    for lang in LANGS:
        suffix = f".{lang}" if reader.bilingual else ""
        if limits.question_overhead is not None and not message_done:
            size = (
                limits.question_overhead[lang]
                + len(q.text(lang))
                + sum(len(o(lang)) for o in q.options)
            )
            if size > limits.question_message:
                reader.fail(
                    fields["question"],
                    where.at(f"question{suffix}"),
                    "bank_message_long",
                    size=size,
                    limit=limits.question_message,
                )
                message_done = not reader.bilingual
        if q.explanation is None or alert_done:
            continue
        prefix = limits.alert_prefix[lang] if limits.alert_prefix is not None else 0
        size = prefix + len(q.explanation(lang))
        if size > limits.alert:
            reader.fail(
                fields["explanation"],
                where.at(f"explanation{suffix}"),
                "bank_alert_long",
                length=len(q.explanation(lang)),
                prefix=prefix,
                size=size,
                limit=limits.alert,
            )
            alert_done = not reader.bilingual


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
            problems.append(_whole(str(path), "bank_id_taken", quiz=repr(quiz.id), other=other))
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
            problems.append(_whole(str(path), "bank_missing_path"))
    return files
