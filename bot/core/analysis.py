"""Question analysis (classical item analysis): which questions of a quiz work, which to fix.

Pure: no Telegram, no database. It is fed the answers storage kept (``/analysis``, ``/export``).

The unit is a *sitting*: one student in one run (a live quiz, or one homework attempt). A student
who took the quiz twice counts as two sittings. For each question, in the bank's order:

- ``answered``: how many sittings answered it; ``right``: how many with full marks, ``partly``:
  with some credit but not all; ``share_right``: the mean credit of those answers (full marks
  1, partial credit its fraction: several right answers, typed ones);
- ``discrimination`` (D): sittings are ranked by their score on the REST of the quiz (right
  credit earned on the other questions; ties broken by the run and user ids, so the result is
  reproducible); with n = round(27 % of the sittings), at least 1, D = (mean credit among the top
  n) − (mean credit among the bottom n), a sitting that did not answer counting as 0.
  It needs at least two sittings and one answer to the question (else None);
- the most chosen wrong option (a bank index: A = the bank's first option) and its share of the
  answers (one-option answers); a several-answers question's pick rate of each option; a typed
  question's most common wrong answers (no credit) and, apart, its partly right ones (some
  credit), normalised as they are compared; the median answer
  time in seconds (over answers whose question time is known);
- ``students``: how many different students answered it;
- a flag, only once at least ``MIN_FLAG_STUDENTS`` students answered (fewer say nothing sure),
  the first that applies: ``check_key`` when D < 0 (stronger students miss it more than
  weaker ones: often a wrong key), ``too_hard`` when at most 30 % are right, ``too_easy`` when
  at least 90 % are.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.core.bank import Question
from bot.core.scoring import earned, normalise, stored_choice

UPPER_SHARE = 0.27
EASY = 0.90
HARD = 0.30
MIN_FLAG_STUDENTS = 5  # a flag on fewer answers is noise ("3 answers of a 2-question quiz")
TOP_WRONG = 3  # typed answers: how many of the common wrong ones are shown


@dataclass(frozen=True, slots=True)
class Response:
    """One answer: who (the sitting), to which question, the option (bank index), right?"""

    run_id: int
    user_id: int
    question_id: str
    option: int
    correct: bool  # full marks
    seconds: float | None = None  # time from the question's posting to the answer
    given: str | None = None  # several options: their letters in bank order ("AC"); or typed
    credit: float | None = None  # 0..1; None: 1 if correct, else 0

    @property
    def fraction(self) -> float:
        """The credit earned, 0..1."""
        return earned(self.credit, self.correct)


@dataclass(frozen=True, slots=True)
class ItemStats:
    number: int  # 1-based, bank order
    question_id: str
    answered: int
    right: int
    share_right: float | None
    discrimination: float | None
    wrong_option: int | None
    wrong_share: float | None
    median_seconds: float | None
    flag: str | None  # 'check_key' | 'too_hard' | 'too_easy' | None
    students: int = 0  # different students who answered
    #: several right answers: each option's pick rate (bank order; a share of the answers)
    pick_rates: tuple[float, ...] = ()
    #: typed answers: the most common wrong ones (no credit), normalised, with how many gave each
    wrong_typed: tuple[tuple[str, int], ...] = ()
    partly: int = 0  # answers given some credit but not full marks
    #: typed answers: the most common partly right ones (some credit, not full marks), likewise
    partly_typed: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Analysis:
    sittings: int
    items: tuple[ItemStats, ...]


def group_size(sittings: int) -> int:
    """How many sittings the upper (and the lower) group holds."""
    return max(1, round(UPPER_SHARE * sittings))


Marks = dict[tuple[int, int], dict[str, float]]  # sitting -> question id -> credit


def analyse(
    question_ids: Sequence[str],
    responses: Iterable[Response],
    questions: Mapping[str, Question] | None = None,
) -> Analysis:
    """Item statistics of the questions ``question_ids`` (bank order) from ``responses``;
    answers to other questions are ignored. ``questions`` (by id) tells each one's kind: a
    several-answers question gets its options' pick rates, a typed one its common wrong
    answers."""
    wanted = set(question_ids)
    marks: Marks = {}
    by_question: dict[str, list[Response]] = {qid: [] for qid in question_ids}
    for r in responses:
        if r.question_id not in wanted:
            continue
        sitting = (r.run_id, r.user_id)
        mine = marks.setdefault(sitting, {})
        by_question[r.question_id].append(r)
        if r.fraction > 0:
            mine[r.question_id] = r.fraction
    sittings = sorted(marks)
    kinds = questions or {}
    items = tuple(
        _with_kind(
            _item(i + 1, qid, by_question[qid], sittings, marks), kinds.get(qid), by_question[qid]
        )
        for i, qid in enumerate(question_ids)
    )
    return Analysis(len(sittings), items)


def _common(question: Question, answers: Iterable[Response]) -> tuple[tuple[str, int], ...]:
    """The most common typed answers among ``answers``, normalised, with how many gave each."""
    counts = Counter(
        normalise(a.given, case_sensitive=question.case_sensitive)
        for a in answers
        if a.given is not None
    )
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_WRONG])


def _with_kind(item: ItemStats, question: Question | None, answers: list[Response]) -> ItemStats:
    """``item`` with what its kind adds: pick rates, or common wrong typed answers."""
    if question is None or not answers:
        return item
    if question.kind == "multiple":
        counts = [0] * len(question.options)
        for a in answers:
            for index in _picked(a):
                if 0 <= index < len(counts):
                    counts[index] += 1
        return replace(item, pick_rates=tuple(c / len(answers) for c in counts))
    if question.typed:
        wrong = _common(question, (a for a in answers if a.fraction <= 0))
        partly = _common(question, (a for a in answers if 0 < a.fraction < 1))
        return replace(item, wrong_typed=wrong, partly_typed=partly)
    return item


def _picked(answer: Response) -> tuple[int, ...]:
    """The options an answer chose (bank indices): its letters, else its one option."""
    return stored_choice(answer.option, answer.given)


def _item(
    number: int,
    qid: str,
    answers: list[Response],
    sittings: list[tuple[int, int]],
    marks: Marks,
) -> ItemStats:
    answered = len(answers)
    n_right = sum(1 for a in answers if a.correct)
    share = sum(a.fraction for a in answers) / answered if answered else None
    d = _discrimination(qid, sittings, marks) if answered else None
    wrong: dict[int, int] = {}
    for a in answers:
        if not a.correct and a.option >= 0 and not a.given:
            wrong[a.option] = wrong.get(a.option, 0) + 1
    wrong_option = min(wrong, key=lambda o: (-wrong[o], o)) if wrong else None
    wrong_share = wrong[wrong_option] / answered if wrong_option is not None else None
    times = [a.seconds for a in answers if a.seconds is not None]
    median = statistics.median(times) if times else None
    students = len({a.user_id for a in answers})
    flag = None
    if students < MIN_FLAG_STUDENTS:
        pass
    elif d is not None and d < 0:
        flag = "check_key"
    elif share is not None and share <= HARD:
        flag = "too_hard"
    elif share is not None and share >= EASY:
        flag = "too_easy"
    partly = sum(1 for a in answers if not a.correct and a.fraction > 0)
    return ItemStats(
        number,
        qid,
        answered,
        n_right,
        share,
        d,
        wrong_option,
        wrong_share,
        median,
        flag,
        students,
        partly=partly,
    )


def _discrimination(qid: str, sittings: list[tuple[int, int]], marks: Marks) -> float | None:
    if len(sittings) < 2:
        return None

    def rest(s: tuple[int, int]) -> float:
        return sum(marks[s].values()) - marks[s].get(qid, 0.0)

    # rest score: credit earned on the other questions; stable order for equal scores
    ranked = sorted(sittings, key=lambda s: (-rest(s), s))
    n = group_size(len(sittings))
    upper = sum(marks[s].get(qid, 0.0) for s in ranked[:n]) / n
    lower = sum(marks[s].get(qid, 0.0) for s in ranked[-n:]) / n
    return upper - lower
