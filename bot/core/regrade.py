"""Re-scoring stored answers after a question's key changed. Pure: no Telegram, no database.

The rule (README, "Re-grading"): each answer is scored again as if the new key had been in
force when it was given.

- An answer is right when its option (a bank index) is the key of its question; questions
  without a new key keep their stored verdict.
- Time points stay what the answer earned: for an answer that was right, its stored points
  minus the streak bonus it had; for a newly right answer, ``points_for`` its answer time (from
  when its question was posted, which runs keep since schema version 5; an answer of an older
  run, whose question time is unknown, gets the minimum of a right answer, 500).
- Streak bonuses are recomputed over each student's run with the new verdicts (a newly wrong
  answer breaks a streak, a newly right one may extend it), exactly as the live quiz counts them.
- A wrong answer scores 0.

Scoring again with the same key changes nothing, so running a re-grading twice is harmless.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.core.engine import MAX_POINTS, points_for, streak_bonus, streaks

UNKNOWN_TIME_POINTS = MAX_POINTS // 2


@dataclass(frozen=True, slots=True)
class Graded:
    """A stored answer as re-grading sees it."""

    run_id: int
    q_index: int
    question_id: str
    user_id: int
    option: int
    correct: bool
    points: int
    answered_at: float
    posted_at: float | None
    seconds: int
    given: str | None = None  # several options: their letters in bank order ("AC"); or typed
    credit: float | None = None  # 0..1; None: 1 if correct, else 0


@dataclass(frozen=True, slots=True)
class Change:
    run_id: int
    q_index: int
    user_id: int
    correct: bool
    points: int
    old_correct: bool
    old_points: int


def rescore(answers: Iterable[Graded], keys: Mapping[str, int]) -> list[Change]:
    """New (correct, points) of every answer whose score changes under ``keys`` (question id →
    right bank option)."""
    sittings: dict[tuple[int, int], dict[int, Graded]] = {}
    for a in answers:
        sittings.setdefault((a.run_id, a.user_id), {})[a.q_index] = a
    changes: list[Change] = []
    for mine in sittings.values():
        changes += _rescore_sitting(mine, keys)
    return changes


def _rescore_sitting(mine: Mapping[int, Graded], keys: Mapping[str, int]) -> list[Change]:
    last = max(mine)
    old = streaks([mine[q].correct if q in mine else None for q in range(last + 1)])
    verdicts = {
        q: (a.option == keys[a.question_id]) if a.question_id in keys else a.correct
        for q, a in mine.items()
    }
    new = streaks([verdicts.get(q) for q in range(last + 1)])
    changes = []
    for q, a in sorted(mine.items()):
        right = verdicts[q]
        points = _time_points(a, old[q]) + streak_bonus(new[q]) if right else 0
        if right != a.correct or points != a.points:
            changes.append(Change(a.run_id, q, a.user_id, right, points, a.correct, a.points))
    return changes


def _time_points(a: Graded, old_streak: int) -> int:
    if a.correct:
        return a.points - streak_bonus(old_streak)
    if a.posted_at is None or a.seconds <= 0:
        return UNKNOWN_TIME_POINTS
    return points_for(a.answered_at - a.posted_at, a.seconds)
