"""Spaced review: when a missed question comes back, scheduled by FSRS (the ``fsrs`` package).

Every question a student missed is a card with an FSRS memory state (stability in days,
difficulty from 1 to 10, the time of its last review). A review is graded pass/fail, as
``Good``/``Again``: the binary variant of FSRS loses almost no accuracy on the open benchmark,
and a multiple-choice tap has no "hard" or "easy". The next review is set for when the student
would still remember it with 90 % probability; a miss brings it back the next day.

Pure: times are epoch seconds passed in; intervals are whole days, without FSRS's random fuzz
(so a schedule is reproducible). No learning steps in minutes either: a quiz question comes back
at the earliest the next day. A card whose next interval would reach :data:`LEARNT_DAYS` is
learnt and leaves the review (``due`` None), as the boxes before FSRS did after the fifth.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler, State

DAY = 86_400
#: a card that would next come back this many days or more later is learnt
LEARNT_DAYS = 180

_SCHEDULER = Scheduler(
    desired_retention=0.9,
    learning_steps=(),
    relearning_steps=(),
    maximum_interval=LEARNT_DAYS,
    enable_fuzzing=False,
)


@dataclass(frozen=True, slots=True)
class Memory:
    """A card's FSRS memory state."""

    stability: float  # days until recall drops to 90 %
    difficulty: float  # 1 (easy) … 10 (hard)
    last_review: float  # epoch seconds


def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def review(memory: Memory | None, correct: bool, now: float) -> tuple[Memory, float | None]:
    """A card reviewed at ``now`` (``memory`` None: a question never reviewed before): its new
    memory state and when it is due next (None: learnt)."""
    card = Card(card_id=1, state=State.Review)
    if memory is not None:
        card = Card(
            card_id=1,
            state=State.Review,
            stability=memory.stability,
            difficulty=memory.difficulty,
            due=_at(now),
            last_review=_at(memory.last_review),
        )
    else:
        card = Card(card_id=1, state=State.Learning, due=_at(now))
    reviewed, _ = _SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, _at(now))
    assert reviewed.stability is not None and reviewed.difficulty is not None
    after = Memory(reviewed.stability, reviewed.difficulty, now)
    days = round((reviewed.due - _at(now)).total_seconds() / DAY)
    if correct and days >= LEARNT_DAYS:
        return after, None
    return after, now + max(1, days) * DAY


def first_review(now: float) -> tuple[Memory, float]:
    """A question just missed (in a quiz, practice or homework): a failed first review, so it
    comes back the next day."""
    memory, due = review(None, False, now)
    assert due is not None
    return memory, due
