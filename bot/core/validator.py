"""The one bank validator: a quiz model checked against the bank's limits (pure).

Every reader builds the model (bot/core/bank.py) and hands it here with the ``SourceMap`` of
where it found each part and the problems it met reading the source (a YAML file's shape, a
value that is not a number). ``validate`` returns those and its own, in the bank's order: the
whole file, the title, the language, the settings, then question by question (its fields in the
order the format lists them), then what needs every question (``settings.pick``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.bank import (
    MAX_NOTE_CHARS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MAX_TAG_CHARS,
    MAX_TITLE_CHARS,
    MIN_OPTIONS,
    MIN_SECONDS,
    QUESTION_ID,
    QUIZ_ID,
    Limits,
    Question,
    Quiz,
    Text,
)
from bot.core.limits import utf16_len
from bot.core.problems import Problem, SourceMap, Where
from bot.i18n.lang import LANGS


def validate(
    quiz: Quiz, limits: Limits, source: SourceMap, read: Sequence[Problem] = ()
) -> list[Problem]:
    """Every problem of ``quiz``: ``read`` (the reader's own) and the validator's, in the
    bank's order; none when it may be served."""
    checker = _Checker(quiz, limits, source)
    checker.check()
    return sorted([*read, *checker.problems], key=_order)


class _Checker:
    """Walks one quiz, collecting problems instead of stopping at the first."""

    def __init__(self, quiz: Quiz, limits: Limits, source: SourceMap) -> None:
        self.quiz, self.limits, self.source = quiz, limits, source
        self.problems: list[Problem] = []

    def fail(self, where: Where, at: str | None, key: str, /, **values: object) -> None:
        """A problem at ``where``, on the line of the part ``at`` (None: no line)."""
        q = where.question
        line = None if at is None else self.source.line(q, at)
        place = None if q is None else self.source.places.get(q)
        self.problems.append(Problem(self.source.file, line, where, key, values, place))

    def unread(self, question: int | None, path: str) -> bool:
        """Whether the reader could not read this part (or its whole question)."""
        unread = self.source.unread
        return (question, path) in unread or (question is not None and (question, "") in unread)

    def check(self) -> None:
        quiz = self.quiz
        if not QUIZ_ID.match(quiz.id):
            self.fail(Where(), None, "bank_bad_name", limit=32)
        if self.unread(None, ""):  # nothing of the bank could be read
            return
        self.text(quiz.title, Where("title"), MAX_TITLE_CHARS)
        if quiz.seconds is not None:
            self.whole(quiz.seconds, Where("settings.seconds"), MIN_SECONDS, MAX_SECONDS)
        pick = quiz.pick
        if pick is not None and not self.whole(pick, Where("settings.pick"), 1, MAX_QUESTIONS):
            pick = None
        usable = self.questions()
        if pick is not None and usable and pick > usable:
            where = Where("settings.pick")
            self.fail(where, where.path, "bank_pick_over", pick=pick, count=usable)

    def whole(self, value: int, where: Where, low: int, high: int) -> bool:
        if low <= value <= high:
            return True
        self.fail(where, where.path, "bank_out_of_range", value=value, low=low, high=high)
        return False

    def plain(self, value: str, where: Where, limit: int | None = None) -> bool:
        """One string: False if it is empty (an over-long one is reported, and still read)."""
        if not value:
            self.fail(where, where.path, "bank_empty")
            return False
        if limit is not None and len(value) > limit:
            self.fail(where, where.path, "bank_too_long", length=len(value), limit=limit)
        return True

    def text(self, text: Text, where: Where, limit: int | None = None) -> bool:
        """A text in each language of the bank (once in a one-language bank): False if a
        language's text is missing or empty."""
        q = where.question
        if self.unread(q, where.path):
            return False
        if not self.quiz.bilingual:
            return self.plain(text(self.quiz.language), where, limit)
        read = True
        for lang in LANGS:
            part = where.dot(lang)
            if self.unread(q, part.path) or not self.plain(text(lang), part, limit):
                read = False
        return read

    def questions(self) -> int:
        """Check each question; how many are usable (counted for ``settings.pick``)."""
        where = Where("questions")
        questions = self.quiz.questions
        if self.unread(None, where.path):
            return 0
        if not questions:
            self.fail(where, where.path, "bank_empty_list")
            return 0
        if len(questions) > MAX_QUESTIONS:
            count = len(questions)
            self.fail(where, where.path, "bank_too_many", count=count, limit=MAX_QUESTIONS)
            return 0
        ids: dict[str, int] = {}
        for q in questions:
            if not self.question(q):
                continue
            if q.id in ids:
                self.fail(Where("id", q.number, q.id), "", "bank_duplicate_id", n=ids[q.id])
                continue
            ids[q.id] = q.number
        return len(ids)

    def question(self, q: Question) -> bool:
        """Check one question; whether it is usable (its own fields fit)."""
        n = q.number
        if self.unread(n, ""):
            return False
        where = Where(question=n, qid=q.id if QUESTION_ID.match(q.id) else None)
        usable = self.ident(q, where)
        usable = self.text(q.text, where.at("question")) and usable
        options = self.options(q, where)
        usable = options and usable
        usable = self.feedback(q, where) and usable
        if options and not self.unread(n, "correct"):
            usable = self.whole(q.correct + 1, where.at("correct"), 1, len(q.options)) and usable
        else:
            usable = False
            if options:
                self.problems += self.source.held.get((n, "correct"), ())
        if q.explanation is not None:
            usable = self.text(q.explanation, where.at("explanation")) and usable
        elif self.unread(n, "explanation"):
            usable = False
        if q.note is not None:
            self.text(q.note, where.at("note"), MAX_NOTE_CHARS)
        if q.tag is not None:
            self.plain(q.tag, where.at("tag"), MAX_TAG_CHARS)
        if usable:
            self.lengths(q, where)
        return usable

    def ident(self, q: Question, where: Where) -> bool:
        at = where.at("id")
        if self.unread(q.number, at.path) or not self.plain(q.id, at):
            return False
        if not QUESTION_ID.match(q.id):
            self.fail(at, at.path, "bank_bad_id", id=repr(q.id), limit=48)
            return False
        return True

    def options(self, q: Question, where: Where) -> bool:
        at = where.at("options")
        if self.unread(q.number, at.path):
            return False
        count = len(q.options)
        if not MIN_OPTIONS <= count <= MAX_OPTIONS:
            self.fail(
                at, at.path, "bank_option_count", count=count, low=MIN_OPTIONS, high=MAX_OPTIONS
            )
            return False
        bilingual = self.quiz.bilingual
        ok = True
        seen: list[Text] = []
        for index, option in enumerate(q.options, start=1):
            path = f"options[{index}]"
            if not self.text(option, where.at(path), MAX_OPTION_CHARS):
                ok = False
                continue
            for lang in LANGS if bilingual else LANGS[:1]:  # one language: said once
                folded = [o(lang).casefold() for o in seen]
                if option(lang).casefold() in folded:
                    suffix = f".{lang}" if bilingual else ""
                    n = folded.index(option(lang).casefold()) + 1
                    self.fail(where.at(path + suffix), path, "bank_duplicate_option", n=n)
                    ok = False
            seen.append(option)
        return ok

    def feedback(self, q: Question, where: Where) -> bool:
        """Each option's own feedback, where it has one: False if one is empty or unread."""
        ok = True
        for index, option in enumerate(q.options, start=1):
            at = where.at(f"options[{index}]").dot("feedback")
            if option.feedback is not None:
                ok = self.text(option.feedback, at) and ok
            elif self.unread(q.number, at.path):
                ok = False
        return ok

    def lengths(self, q: Question, where: Where) -> None:
        """Sizes as sent, in each language the bank is served in (a one-language bank's texts
        go to chats of both languages: the longer frame counts, reported once)."""
        limits, bilingual = self.limits, self.quiz.bilingual
        message_done = alert_done = False
        for lang in LANGS:
            suffix = f".{lang}" if bilingual else ""
            if limits.question_overhead is not None and not message_done:
                size = (
                    limits.question_overhead[lang]
                    + len(q.text(lang))
                    + sum(len(o(lang)) for o in q.options)
                )
                if size > limits.question_message:
                    self.fail(
                        where.at(f"question{suffix}"),
                        "question",
                        "bank_message_long",
                        size=size,
                        limit=limits.question_message,
                    )
                    message_done = not bilingual
            if alert_done:
                continue
            prefix = limits.alert_prefix[lang] if limits.alert_prefix is not None else 0
            alerts = [("explanation", q.explanation)] + [
                (f"options[{n}].feedback", o.feedback) for n, o in enumerate(q.options, start=1)
            ]
            for path, text in alerts:
                if text is None:
                    continue
                length = utf16_len(text(lang))
                if prefix + length > limits.alert:
                    self.fail(
                        where.at(f"{path}{suffix}"),
                        path,
                        "bank_alert_long",
                        length=length,
                        prefix=prefix,
                        size=prefix + length,
                        limit=limits.alert,
                    )
                    alert_done = not bilingual


_TOP = ("", "title", "language", "settings", "questions")
_SETTINGS = ("", "seconds", "shuffle", "pick")
_FIELDS = ("", "id", "question", "options", "correct", "explanation", "note", "tag")


def _order(problem: Problem) -> tuple[int, ...]:
    """Where a problem comes in the bank's order: the file's name, the bank's own fields, the
    questions (each field in the format's order, an option's texts before its duplicates, then
    the sizes as sent, then a repeated id), and last ``settings.pick`` against the count."""
    if problem.key == "bank_bad_name":
        return (0,)
    if problem.key == "bank_pick_over":
        return (3,)
    head, _, rest = problem.where.path.partition(".")
    base, _, index = head.partition("[")
    feedback = rest.partition(".")[0] == "feedback"  # options[2].feedback.en
    rest = rest.partition(".")[2] if feedback else rest
    lang = LANGS.index(rest) + 1 if rest in LANGS else 0
    q = problem.where.question
    if q is None:
        if base == "settings":
            return (1, _TOP.index(base), _SETTINGS.index(rest) if rest in _SETTINGS else 0)
        return (1, _TOP.index(base) if base in _TOP else 0, lang)
    if problem.key in ("bank_message_long", "bank_alert_long"):
        return (2, q, len(_FIELDS), lang, problem.key == "bank_alert_long")
    if problem.key == "bank_duplicate_id":
        return (2, q, len(_FIELDS) + 1)
    number = int(index.rstrip("]")) if index.rstrip("]").isdigit() else 0
    rank = _FIELDS.index(base) if base in _FIELDS else 0
    kind = 2 if feedback else int(problem.key == "bank_duplicate_option")
    return (2, q, rank, number, kind, lang)
