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
    MAX_ACCEPTED,
    MAX_ANSWER_CHARS,
    MAX_NOTE_CHARS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MAX_TAG_CHARS,
    MAX_TITLE_CHARS,
    MAX_UNITS,
    MIN_OPTIONS,
    MIN_SECONDS,
    QUESTION_FIELDS,
    QUESTION_ID,
    QUIZ_ID,
    SETTINGS_FIELDS,
    Limits,
    Question,
    Quiz,
    Text,
    utf16_len,
)
from bot.core.images import MAX_IMAGES
from bot.core.problems import Problem, SourceMap, Where
from bot.i18n.lang import TEXT_LANGS


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
        pictures = sum(q.image is not None for q in quiz.questions)
        if pictures > MAX_IMAGES:
            where = Where("questions")
            self.fail(where, where.path, "bank_images_many", count=pictures, limit=MAX_IMAGES)
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
        for lang in TEXT_LANGS:
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
        if self.unread(n, "type"):
            usable = False
        elif q.typed:
            usable = self.accepted(q, where) and usable
        elif q.kind != "truefalse":
            usable = self.choices(q, where) and usable
        elif self.unread(n, "correct"):
            usable = False
        usable = self.feedback(q, where) and usable
        if q.wrong_feedback is not None:
            usable = self.text(q.wrong_feedback, where.at("wrong_feedback")) and usable
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

    def choices(self, q: Question, where: Where) -> bool:
        """The options of a question answered by tapping, the right ones, their fractions."""
        n = q.number
        options = self.options(q, where)
        if not options or self.unread(n, "correct"):
            if options:
                self.problems += self.source.held.get((n, "correct"), ())
            return False
        at = where.at("correct")
        usable = True
        seen: set[int] = set()
        for right in q.right_options:
            usable = self.whole(right + 1, at, 1, len(q.options)) and usable
            if right in seen:
                self.fail(at, at.path, "bank_correct_twice", n=right + 1)
                usable = False
            seen.add(right)
        if q.fractions and usable:
            usable = self.fractions(q, where)
        return usable

    def fractions(self, q: Question, where: Where) -> bool:
        """Per-option credit: one per option, each -1..1, the positive ones worth at least full
        marks together (several right answers) or the best of them full marks (one answer)."""
        at = where.at("fractions")
        if self.unread(q.number, at.path):
            return False
        if len(q.fractions) != len(q.options):
            self.fail(
                at, at.path, "bank_fraction_count", count=len(q.fractions), options=len(q.options)
            )
            return False
        bad = [f for f in q.fractions if not -1 <= f <= 1]
        if bad:
            self.fail(at, at.path, "bank_fraction_range", value=bad[0], low=-1)
            return False
        # several answers: the ticked options' sum, capped at full marks (Moodle's rule: the
        # positive ones may add up to more, 100/0/100/0), so full marks must be reachable
        if q.kind == "multiple":
            short = sum(f for f in q.fractions if f > 0) < 0.99
        else:
            short = abs(max(q.fractions) - 1) > 0.01
        if short:
            self.fail(at, at.path, "bank_full_credit")
            return False
        return True

    def accepted(self, q: Question, where: Where) -> bool:
        """A typed question's accepted answers (and units): at least one worth full marks."""
        at = where.at("answers")
        if self.unread(q.number, at.path):
            return False
        if not 1 <= len(q.accepted) <= MAX_ACCEPTED:
            self.fail(at, at.path, "bank_answer_count", count=len(q.accepted), high=MAX_ACCEPTED)
            return False
        usable = True
        for index, answer in enumerate(q.accepted, start=1):
            part = where.at(f"answers[{index}]")
            if self.unread(q.number, part.path):
                usable = False
                continue
            if q.kind == "short" and not self.plain(answer.text, part, MAX_ANSWER_CHARS):
                usable = False
            if not 0 <= answer.fraction <= 1:
                self.fail(part, part.path, "bank_fraction_range", value=answer.fraction, low=0)
                usable = False
            if answer.tolerance < 0:
                self.fail(part, part.path, "bank_tolerance", value=answer.tolerance)
                usable = False
            if answer.feedback is not None:
                usable = self.text(answer.feedback, part.dot("feedback")) and usable
        if usable and max(a.fraction for a in q.accepted) < 1:
            self.fail(at, at.path, "bank_full_credit")
            usable = False
        if len(q.units) > MAX_UNITS:
            at = where.at("units")
            self.fail(at, at.path, "bank_too_many", count=len(q.units), limit=MAX_UNITS)
        for index, unit in enumerate(q.units, start=1):
            self.plain(unit, where.at(f"units[{index}]"), MAX_TAG_CHARS)
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
            for lang in TEXT_LANGS if bilingual else TEXT_LANGS[:1]:  # one language: said once
                # exactly, spaces aside: "GB" and "Gb" (gigabyte, gigabit) are two options
                spaced = [" ".join(o(lang).split()) for o in seen]
                mine = " ".join(option(lang).split())
                if mine in spaced:
                    suffix = f".{lang}" if bilingual else ""
                    n = spaced.index(mine) + 1
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
        for lang in TEXT_LANGS:
            suffix = f".{lang}" if bilingual else ""
            texts = utf16_len(q.text(lang)) + sum(utf16_len(o(lang)) for o in q.options)
            # the note is not counted: a reveal it does not fit sends it as a message of its own
            extras = utf16_len(q.explanation(lang)) if q.explanation is not None else 0
            # and one option's own feedback (the student's pick, or the right one's)
            extras += max((utf16_len(o.feedback(lang)) for o in q.options if o.feedback), default=0)
            posted = limits.question_overhead[lang] + texts if limits.question_overhead else 0
            # the reveal: the options with their counts, the explanation and a feedback
            shown = limits.reveal_overhead[lang] + texts + extras if limits.reveal_overhead else 0
            if posted > limits.question_message and not message_done:
                self.fail(
                    where.at(f"question{suffix}"),
                    "question",
                    "bank_message_long",
                    size=posted,
                    limit=limits.question_message,
                )
                message_done = not bilingual
            elif shown > limits.question_message and not message_done:
                self.fail(
                    where.at(f"question{suffix}"),
                    "question",
                    "bank_reveal_long",
                    size=shown,
                    limit=limits.question_message,
                )
                message_done = not bilingual
            if alert_done:
                continue
            prefix = limits.alert_prefix[lang] if limits.alert_prefix is not None else 0
            # an option's own feedback is cut where it is shown in an alert, and shown whole in
            # the reveal and recaps: only the explanation must fit the alert
            alerts = [("explanation", q.explanation)]
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
_SETTINGS = ("", *SETTINGS_FIELDS)
_FIELDS = ("", *QUESTION_FIELDS)


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
    lang = TEXT_LANGS.index(rest) + 1 if rest in TEXT_LANGS else 0
    q = problem.where.question
    if q is None:
        if base == "settings":
            return (1, _TOP.index(base), _SETTINGS.index(rest) if rest in _SETTINGS else 0)
        return (1, _TOP.index(base) if base in _TOP else 0, lang)
    if problem.key in ("bank_message_long", "bank_reveal_long", "bank_alert_long"):
        return (2, q, len(_FIELDS), lang, problem.key == "bank_alert_long")
    if problem.key == "bank_duplicate_id":
        return (2, q, len(_FIELDS) + 1)
    number = int(index.rstrip("]")) if index.rstrip("]").isdigit() else 0
    rank = _FIELDS.index(base) if base in _FIELDS else 0
    kind = 2 if feedback else int(problem.key == "bank_duplicate_option")
    return (2, q, rank, number, kind, lang)
