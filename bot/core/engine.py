"""The quiz engine: pure game logic, no Telegram, no database, no clock of its own.

A run walks through its questions one at a time: ``open`` a question, take ``answer`` calls,
``close`` it (returning the reveal), ``advance`` to the next. Time always comes in as ``now``
(seconds since the epoch) and randomness as an injected ``random.Random``, so every behaviour
is reproducible in tests and a run can be rebuilt from what the storage layer kept.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bot.core.bank import MAX_ANSWER_CHARS, Question, Quiz
from bot.core.scoring import grade_choice, grade_typed

MAX_POINTS = 1000
STREAK_STEP = 100  # bonus per consecutive right answer after the first
STREAK_CAP = 500  # the most a streak adds to one answer
DAY = 86_400.0

Phase = Literal["posting", "open", "closed"]
VerdictStatus = Literal["accepted", "again", "closed", "stale", "invalid"]


@dataclass(frozen=True, slots=True)
class Plan:
    """The order of a run: which questions, and how each one's options are shuffled.

    ``permutations[i][shown]`` is the bank index of the option shown at position ``shown``.
    """

    question_ids: tuple[str, ...]
    permutations: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Answer:
    """A student's counted answer to one question of the run."""

    q_index: int
    user_id: int
    option: int  # bank index
    correct: bool
    points: int
    at: float
    streak: int = 0  # consecutive right answers ending with this one (0 if wrong)
    picked: tuple[int, ...] = ()  # several right answers: every option chosen (bank indices)
    typed: str | None = None  # a typed answer, as typed
    credit: float | None = None  # the fraction earned, 0..1; None: 1 if ``correct``, else 0
    matched: int | None = None  # typed: the accepted answer it matched

    @property
    def fraction(self) -> float:
        """The credit earned, 0..1 (``correct`` means full marks)."""
        if self.credit is not None:
            return self.credit
        return 1.0 if self.correct else 0.0

    @property
    def options(self) -> tuple[int, ...]:
        """Every option chosen (bank indices); none for a typed answer."""
        if self.typed is not None:
            return ()
        return self.picked or (self.option,)

    @property
    def bonus(self) -> int:
        """The streak part of ``points``."""
        return streak_bonus(self.streak)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a tap did. ``accepted`` is the only status that changed anything."""

    status: VerdictStatus
    answer: Answer | None = None
    shown: int | None = None  # shown position of the (first) answer, for accepted and again


@dataclass(frozen=True, slots=True)
class Reveal:
    """A closed question: the right option and how many chose each shown option."""

    q_index: int
    question: Question
    permutation: tuple[int, ...]
    counts: tuple[int, ...]  # by shown position (several right answers: each option chosen)
    correct_shown: int
    answered: int
    right: int
    rights_shown: tuple[int, ...] = ()  # every right option's shown position, in shown order
    partly: int = 0  # answers given some credit but not full marks


@dataclass(frozen=True, slots=True)
class Score:
    """One student's standing in a run."""

    user_id: int
    points: int
    correct: int
    answered: int
    finished_at: float  # time of their last answer, the tie-breaker
    best_streak: int = 0  # the longest run of consecutive right answers


def make_plan(quiz: Quiz, rng: random.Random, *, typed: bool = True) -> Plan:
    """The run's questions and option orders, drawn with ``rng``.

    Every question in the bank's order; with ``pick: N`` a fresh draw of N of them, still in
    the bank's order. Each question's options are shuffled if the quiz allows it. Without
    ``typed`` (a group run) the questions answered by typing are left out.
    """
    questions = quiz.questions if typed else tuple(q for q in quiz.questions if not q.typed)
    if quiz.pick is not None and quiz.pick < len(questions):
        chosen = sorted(rng.sample(range(len(questions)), quiz.pick))
        questions = tuple(questions[i] for i in chosen)
    perms: list[tuple[int, ...]] = []
    for question in questions:
        order = list(range(len(question.options)))
        if quiz.shuffle and question.kind != "truefalse":  # true stays first
            rng.shuffle(order)
        perms.append(tuple(order))
    return Plan(tuple(q.id for q in questions), tuple(perms))


TYPED_MIN_SECONDS = 60  # a homework's typed question: at least this long to type the answer


def points_for(elapsed: float, seconds: int, fraction: float = 1.0) -> int:
    """``round(1000 × (1 − t / 2T) × fraction)`` with t clamped to [0, T]: 1000 at once, 500 at
    the end, for full marks; partial credit scales it."""
    t = min(max(elapsed, 0.0), float(seconds))
    return round(MAX_POINTS * (1 - t / (2 * seconds)) * fraction)


def score(
    fraction: float, streak_before: int, elapsed: float, seconds: int
) -> tuple[bool, int, int]:
    """(full marks, points, streak) of an answer earning ``fraction``: speed points scale with
    it, and only full marks keep a streak going (and earn its bonus)."""
    full = fraction >= 1.0
    streak = streak_before + 1 if full else 0
    points = 0
    if fraction > 0 and seconds:
        points = points_for(elapsed, seconds, fraction) + (streak_bonus(streak) if full else 0)
    return full, points, streak


def streak_bonus(streak: int) -> int:
    """Points a streak adds to a right answer: 100 per right answer in a row after the first,
    at most 500 (``streak`` counts this answer)."""
    return min(STREAK_STEP * max(streak - 1, 0), STREAK_CAP)


def streaks(correct: Sequence[bool | None]) -> list[int]:
    """The streak after each question, given per question True (right), False (wrong) or None
    (not answered): a wrong or missed answer resets it."""
    out: list[int] = []
    run = 0
    for right in correct:
        run = run + 1 if right else 0
        out.append(run)
    return out


class PlanMismatch(ValueError):
    """A stored plan no longer fits the bank (questions removed or their options changed)."""


@dataclass(slots=True)
class QuizEngine:
    """The state of one run. ``seconds`` of 0 means untimed (private practice, no points)."""

    quiz: Quiz
    plan: Plan
    seconds: int
    current: int = 0
    phase: Phase = "posting"
    posted_at: float | None = None
    deadline: float | None = None
    typed_floor: int = 0  # a timed typed question is open at least this long (homework)
    _questions: tuple[Question, ...] = field(init=False, repr=False)
    _answers: list[dict[int, Answer]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_id = {q.id: q for q in self.quiz.questions}
        questions: list[Question] = []
        for qid, perm in zip(self.plan.question_ids, self.plan.permutations, strict=True):
            question = by_id.get(qid)
            if question is None or sorted(perm) != list(range(len(question.options))):
                raise PlanMismatch(f"question {qid!r} of quiz {self.quiz.id!r} changed or is gone")
            questions.append(question)
        self._questions = tuple(questions)
        self._answers = [{} for _ in questions]

    def seconds_for(self, q_index: int) -> int:
        """How long question ``q_index`` is open (0: untimed): a typed one at least
        ``typed_floor`` seconds, as typing takes longer than a tap."""
        if self.seconds and self._questions[q_index].typed:
            return max(self.seconds, self.typed_floor)
        return self.seconds

    @property
    def count(self) -> int:
        return len(self._questions)

    def use_keys(self, quiz: Quiz) -> None:
        """Judge from now on by ``quiz``'s keys: the same quiz with a key fixed (questions
        it no longer has keep theirs)."""
        by_id = {q.id: q for q in quiz.questions}
        self._questions = tuple(by_id.get(q.id, q) for q in self._questions)
        self.quiz = quiz

    @property
    def asked(self) -> int:
        """How many questions were put to the group: all but the current one while it is
        being posted, the current one too once it is out."""
        return self.current + (self.phase != "posting")

    @property
    def question(self) -> Question:
        return self._questions[self.current]

    def question_at(self, q_index: int) -> Question:
        return self._questions[q_index]

    @property
    def permutation(self) -> tuple[int, ...]:
        return self.plan.permutations[self.current]

    def answered(self, q_index: int | None = None) -> int:
        return len(self._answers[self.current if q_index is None else q_index])

    def restore(self, answers: Iterable[Answer]) -> None:
        """Put back answers kept by the storage layer (after a restart)."""
        for answer in answers:
            if 0 <= answer.q_index < self.count:
                self._answers[answer.q_index].setdefault(answer.user_id, answer)
        users = {uid for per_q in self._answers for uid in per_q}
        for uid in users:  # streaks are not stored: count them again from the answers
            for q_index, answer in self.answers_of(uid).items():
                self._answers[q_index][uid] = replace(
                    answer, streak=self._streak_before(uid, q_index) + 1 if answer.correct else 0
                )

    def _streak_before(self, user_id: int, q_index: int) -> int:
        """The streak a student brings to question ``q_index``: that of their answer to the
        question before (none, or a question they missed, resets it)."""
        if q_index == 0:
            return 0
        earlier = self._answers[q_index - 1].get(user_id)
        return earlier.streak if earlier is not None else 0

    def open(self, now: float) -> None:
        """The current question is now visible: its clock starts."""
        self.phase = "open"
        self.posted_at = now
        seconds = self.seconds_for(self.current)
        self.deadline = now + seconds if seconds else None

    def end_at(self, when: float) -> None:
        """The open question closes early, at ``when``: taps from then on are too late."""
        if self.deadline is None or when < self.deadline:
            self.deadline = when

    def is_open(self, now: float) -> bool:
        return self.phase == "open" and (self.deadline is None or now <= self.deadline)

    def judge(self, user_id: int, q_index: int, shown: int, now: float) -> Verdict:
        """The decision on a tap on option ``shown`` of question ``q_index`` (only a student's
        first tap counts). Nothing changes: the run applies an accepted answer once it is
        stored (:meth:`apply`), so one that could not be stored leaves no trace."""
        if not 0 <= q_index < self.count:
            return Verdict("invalid")
        if not 0 <= shown < len(self._questions[q_index].options):
            return Verdict("invalid")
        status = self.check(user_id, q_index, now)
        if status is not None:
            return status
        question = self._questions[q_index]
        option = self.plan.permutations[q_index][shown]
        if question.kind == "multiple":
            return self.judge_many(user_id, q_index, (shown,), now)
        fraction = grade_choice(question, (option,))
        return self._accept(user_id, q_index, now, fraction, shown, option=option)

    def judge_many(self, user_id: int, q_index: int, shown: tuple[int, ...], now: float) -> Verdict:
        """The decision on a Submit of the options at the ``shown`` positions (several right
        answers; only a student's first Submit counts). Nothing changes until :meth:`apply`."""
        status = self.check(user_id, q_index, now)
        if status is not None:
            return status
        perm = self.plan.permutations[q_index]
        if not shown or any(not 0 <= s < len(perm) for s in shown):
            return Verdict("invalid")
        picked = tuple(sorted({perm[s] for s in shown}))
        fraction = grade_choice(self._questions[q_index], picked, self.quiz.all_or_nothing)
        return self._accept(
            user_id, q_index, now, fraction, min(shown), option=picked[0], picked=picked
        )

    def judge_typed(self, user_id: int, q_index: int, text: str, now: float) -> Verdict:
        """The decision on a typed answer (numeric, short; only a student's first one counts).
        Nothing changes until :meth:`apply`."""
        status = self.check(user_id, q_index, now)
        if status is not None:
            return status
        question = self._questions[q_index]
        if not question.typed or not text.strip():
            return Verdict("invalid")
        fraction, matched = grade_typed(question, text)
        return self._accept(
            user_id,
            q_index,
            now,
            fraction,
            None,
            option=-1,
            typed=text.strip()[:MAX_ANSWER_CHARS],
            matched=matched,
        )

    def check(self, user_id: int, q_index: int, now: float) -> Verdict | None:
        """The verdict of an answer that cannot count (None: it may)."""
        if not 0 <= q_index < self.count:
            return Verdict("invalid")
        earlier = self._answers[q_index].get(user_id)
        if earlier is not None:
            perm = self.plan.permutations[q_index]
            shown = perm.index(earlier.option) if earlier.option in perm else None
            return Verdict("again", earlier, shown)
        if q_index != self.current or not self.is_open(now):
            return Verdict("closed" if q_index <= self.current else "stale")
        return None

    def _accept(
        self,
        user_id: int,
        q_index: int,
        now: float,
        fraction: float,
        shown: int | None,
        *,
        option: int,
        picked: tuple[int, ...] = (),
        typed: str | None = None,
        matched: int | None = None,
    ) -> Verdict:
        elapsed = now - (self.posted_at or now)
        full, points, streak = score(
            fraction, self._streak_before(user_id, q_index), elapsed, self.seconds_for(q_index)
        )
        credit = None if fraction in (0.0, 1.0) else fraction
        answer = Answer(
            q_index, user_id, option, full, points, now, streak, picked, typed, credit, matched
        )
        return Verdict("accepted", answer, shown)

    def apply(self, answer: Answer) -> None:
        """Record an accepted answer: the run applies the engine's decision once the answer is
        stored (a student's first answer stands, so applying one twice changes nothing)."""
        self._answers[answer.q_index].setdefault(answer.user_id, answer)

    def answer(self, user_id: int, q_index: int, shown: int, now: float) -> Verdict:
        """:meth:`judge` and :meth:`apply` at once, where nothing is stored (the terminal
        game, tests)."""
        return self._applied(self.judge(user_id, q_index, shown, now))

    def answer_many(
        self, user_id: int, q_index: int, shown: tuple[int, ...], now: float
    ) -> Verdict:
        """:meth:`judge_many` and :meth:`apply` at once, where nothing is stored."""
        return self._applied(self.judge_many(user_id, q_index, shown, now))

    def answer_typed(self, user_id: int, q_index: int, text: str, now: float) -> Verdict:
        """:meth:`judge_typed` and :meth:`apply` at once, where nothing is stored."""
        return self._applied(self.judge_typed(user_id, q_index, text, now))

    def _applied(self, verdict: Verdict) -> Verdict:
        if verdict.status == "accepted" and verdict.answer is not None:
            self.apply(verdict.answer)
        return verdict

    def close(self) -> Reveal:
        """Close the current question and tell what happened."""
        self.phase = "closed"
        return self.reveal(self.current)

    def reveal(self, q_index: int) -> Reveal:
        question = self._questions[q_index]
        perm = self.plan.permutations[q_index]
        counts = [0] * len(perm)
        for answer in self._answers[q_index].values():
            for option in answer.options:
                if option in perm:
                    counts[perm.index(option)] += 1
        answers = self._answers[q_index].values()
        right = sum(1 for a in answers if a.correct)
        partly = sum(1 for a in answers if not a.correct and a.fraction > 0)
        rights = tuple(sorted(perm.index(o) for o in question.right_options if o in perm))
        return Reveal(
            q_index,
            question,
            perm,
            tuple(counts),
            perm.index(question.correct) if question.correct in perm else -1,
            len(self._answers[q_index]),
            right,
            rights,
            partly,
        )

    def advance(self) -> bool:
        """Move to the next question; False when there is none."""
        if self.current + 1 >= self.count:
            return False
        self.current += 1
        self.phase = "posting"
        self.posted_at = self.deadline = None
        return True

    def standings(self) -> list[Score]:
        """Everyone who answered, best first: points, then right answers, then who was first."""
        totals: dict[int, list[float]] = {}
        for per_question in self._answers:
            for answer in per_question.values():
                line = totals.setdefault(answer.user_id, [0, 0, 0, 0.0, 0])
                line[0] += answer.points
                line[1] += int(answer.correct)
                line[2] += 1
                line[3] = max(line[3], answer.at)
                line[4] = max(line[4], answer.streak)
        scores = [
            Score(uid, int(v[0]), int(v[1]), int(v[2]), v[3], int(v[4]))
            for uid, v in totals.items()
        ]
        scores.sort(key=lambda s: (-s.points, -s.correct, s.finished_at, s.user_id))
        return scores

    def answers_of(self, user_id: int) -> Mapping[int, Answer]:
        """A student's answers by question index."""
        return {i: per_q[user_id] for i, per_q in enumerate(self._answers) if user_id in per_q}
