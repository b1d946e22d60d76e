"""Question analysis (classical item analysis): which questions of a quiz work, which to fix.

Pure: no Telegram, no database. It is fed the answers storage kept (``/analysis``, ``/export``).

The unit is a *sitting*: one student in one run (a live quiz, or one homework attempt). A student
who took the quiz twice counts as two sittings. For each question, in the bank's order:

- ``answered``: how many sittings answered it; ``share_right``: the share of those right;
- ``discrimination`` (D): sittings are ranked by their score on the REST of the quiz (right
  answers to the other questions; ties broken by the run and user ids, so the result is
  reproducible); with n = round(27 % of the sittings), at least 1, D = (share right among the top
  n) − (share right among the bottom n), a sitting that did not answer counting as not right.
  It needs at least two sittings and one answer to the question (else None);
- the most chosen wrong option (a bank index: A = the bank's first option) and its share of the
  answers; the median answer time in seconds (over answers whose question time is known);
- ``students``: how many different students answered it;
- a flag, only once at least ``MIN_FLAG_STUDENTS`` students answered (fewer say nothing sure),
  the first that applies: ``check_key`` when D < 0 (stronger students miss it more than
  weaker ones: often a wrong key), ``too_hard`` when at most 30 % are right, ``too_easy`` when
  at least 90 % are.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

UPPER_SHARE = 0.27
EASY = 0.90
HARD = 0.30
MIN_FLAG_STUDENTS = (
    5  # a flag on fewer answers is noise (issue 21: "3 answers of a 2-question quiz")
)


@dataclass(frozen=True, slots=True)
class Response:
    """One answer: who (the sitting), to which question, the option (bank index), right?"""

    run_id: int
    user_id: int
    question_id: str
    option: int
    correct: bool
    seconds: float | None = None  # time from the question's posting to the answer


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


@dataclass(frozen=True, slots=True)
class Analysis:
    sittings: int
    items: tuple[ItemStats, ...]


def group_size(sittings: int) -> int:
    """How many sittings the upper (and the lower) group holds."""
    return max(1, round(UPPER_SHARE * sittings))


def analyse(question_ids: Sequence[str], responses: Iterable[Response]) -> Analysis:
    """Item statistics of the questions ``question_ids`` (bank order) from ``responses``;
    answers to other questions are ignored."""
    wanted = set(question_ids)
    right: dict[tuple[int, int], set[str]] = {}
    by_question: dict[str, list[Response]] = {qid: [] for qid in question_ids}
    for r in responses:
        if r.question_id not in wanted:
            continue
        sitting = (r.run_id, r.user_id)
        marks = right.setdefault(sitting, set())
        by_question[r.question_id].append(r)
        if r.correct:
            marks.add(r.question_id)
    sittings = sorted(right)
    items = tuple(
        _item(i + 1, qid, by_question[qid], sittings, right) for i, qid in enumerate(question_ids)
    )
    return Analysis(len(sittings), items)


def _item(
    number: int,
    qid: str,
    answers: list[Response],
    sittings: list[tuple[int, int]],
    right: dict[tuple[int, int], set[str]],
) -> ItemStats:
    answered = len(answers)
    n_right = sum(1 for a in answers if a.correct)
    share = n_right / answered if answered else None
    d = _discrimination(qid, sittings, right) if answered else None
    wrong: dict[int, int] = {}
    for a in answers:
        if not a.correct:
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
    return ItemStats(
        number, qid, answered, n_right, share, d, wrong_option, wrong_share, median, flag, students
    )


def _discrimination(
    qid: str, sittings: list[tuple[int, int]], right: dict[tuple[int, int], set[str]]
) -> float | None:
    if len(sittings) < 2:
        return None
    # rest score: right answers to the other questions; stable order for equal scores
    ranked = sorted(sittings, key=lambda s: (-(len(right[s]) - (qid in right[s])), s))
    n = group_size(len(sittings))
    upper = sum(1 for s in ranked[:n] if qid in right[s]) / n
    lower = sum(1 for s in ranked[-n:] if qid in right[s]) / n
    return upper - lower
