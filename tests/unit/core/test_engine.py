"""The pure quiz engine: scoring, first tap counts, closing, shuffling, restoring."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from quizkit import right_shown

from bot.banks.yaml_reader import load_quiz
from bot.core.engine import Plan, PlanMismatch, QuizEngine, make_plan, points_for

ZERO = load_quiz(Path(__file__).resolve().parents[3] / "questions" / "zero.yaml")
T0 = 1_700_000_000.0


def engine(seconds: int = 30, seed: int = 3) -> QuizEngine:
    return QuizEngine(ZERO, make_plan(ZERO, random.Random(seed)), seconds)


def test_points_follow_the_formula() -> None:
    assert points_for(0, 30) == 1000
    assert points_for(15, 30) == 750
    assert points_for(30, 30) == 500
    assert points_for(-2, 30) == 1000  # a tap racing the post is not rewarded extra
    assert points_for(99, 30) == 500
    assert points_for(7, 20) == round(1000 * (1 - 7 / 40))


def test_shuffle_is_seeded_and_moves_the_right_letter() -> None:
    a, b = make_plan(ZERO, random.Random(1)), make_plan(ZERO, random.Random(1))
    assert a == b
    plans = {make_plan(ZERO, random.Random(seed)).permutations for seed in range(20)}
    assert len(plans) > 1
    positions = {
        perm.index(ZERO.questions[0].correct)
        for perm in (make_plan(ZERO, random.Random(s)).permutations[0] for s in range(20))
    }
    assert len(positions) > 1
    for perm in a.permutations:
        assert sorted(perm) == [0, 1, 2, 3]


def test_no_shuffle_keeps_author_order() -> None:
    from dataclasses import replace

    plan = make_plan(replace(ZERO, shuffle=False), random.Random(9))
    assert all(p == (0, 1, 2, 3) for p in plan.permutations)


def test_first_tap_counts_and_scoring() -> None:
    e = engine()
    e.open(T0)
    right = right_shown(e)
    wrong = (right + 1) % 4
    v = e.answer(1, 0, right, T0 + 15)
    assert v.status == "accepted"
    assert v.answer is not None
    assert v.answer.correct
    assert v.answer.points == 750
    again = e.answer(1, 0, wrong, T0 + 16)
    assert again.status == "again"
    assert again.shown == right
    w = e.answer(2, 0, wrong, T0 + 1)
    assert w.answer is not None
    assert not w.answer.correct
    assert w.answer.points == 0
    assert e.answered() == 2


def test_closed_stale_and_invalid_taps() -> None:
    e = engine()
    assert e.answer(1, 0, 0, T0).status == "closed"  # not posted yet
    e.open(T0)
    assert e.answer(1, 0, 9, T0).status == "invalid"
    assert e.answer(1, 42, 0, T0).status == "invalid"
    assert e.answer(1, 3, 0, T0).status == "stale"  # a later question, not yet open
    assert e.answer(1, 0, 0, T0 + 30.5).status == "closed"  # past the deadline
    reveal = e.close()
    assert reveal.answered == 0
    assert e.answer(2, 0, 0, T0 + 1).status == "closed"
    assert e.advance()
    e.open(T0 + 40)
    assert e.answer(2, 0, 0, T0 + 41).status == "closed"  # the old question's button


def test_close_reveals_counts_by_shown_option() -> None:
    e = engine()
    e.open(T0)
    right = right_shown(e)
    for user in range(5):
        e.answer(user, 0, right, T0 + user)
    e.answer(9, 0, (right + 1) % 4, T0 + 2)
    reveal = e.close()
    assert reveal.correct_shown == right
    assert reveal.counts[right] == 5
    assert sum(reveal.counts) == 6
    assert (reveal.answered, reveal.right) == (6, 5)


def test_standings_break_ties_by_right_answers_then_who_finished_first() -> None:
    e = engine(seconds=10)
    e.open(T0)
    r = right_shown(e)
    e.answer(1, 0, r, T0 + 5)  # 750
    e.answer(2, 0, r, T0 + 5)  # 750
    e.answer(3, 0, r, T0 + 0)  # 1000
    e.close()
    e.advance()
    e.open(T0 + 20)
    e.answer(2, 1, right_shown(e), T0 + 30)  # 500, finishes later than 1... but more points
    e.answer(4, 1, (right_shown(e) + 1) % 4, T0 + 21)
    order = [s.user_id for s in e.standings()]
    assert order == [2, 3, 1, 4]
    e2 = engine(seconds=10)
    e2.open(T0)
    r = right_shown(e2)
    e2.answer(7, 0, r, T0 + 4)
    e2.answer(8, 0, r, T0 + 4)
    e2.answer(6, 0, (r + 1) % 4, T0 + 1)
    e2.answer(5, 0, (r + 1) % 4, T0 + 2)
    assert [s.user_id for s in e2.standings()] == [7, 8, 6, 5]


def test_restore_rebuilds_a_run_and_never_double_counts() -> None:
    e = engine()
    e.open(T0)
    v = e.answer(1, 0, right_shown(e), T0 + 3)
    assert v.answer is not None
    again = QuizEngine(ZERO, e.plan, 30, current=0, phase="open", posted_at=T0, deadline=T0 + 30)
    again.restore([v.answer, v.answer])
    assert again.answered() == 1
    assert again.answer(1, 0, 0, T0 + 4).status == "again"
    assert again.standings()[0].points == v.answer.points


def test_a_decision_changes_nothing_until_the_run_applies_it() -> None:
    """judge() only decides: an answer that was never stored (applied) leaves no trace, so the
    student may answer again; once applied, it stands."""
    e = engine()
    e.open(T0)
    v = e.judge(1, 0, 0, T0 + 1)
    assert v.status == "accepted" and v.answer is not None
    assert e.answered() == 0 and e.answers_of(1) == {}
    w = e.judge(1, 0, 1, T0 + 2)  # not applied: still the student's first answer
    assert w.status == "accepted" and w.answer is not None
    e.apply(w.answer)
    e.apply(v.answer)  # a late apply of another decision changes nothing: the first stands
    assert e.answered() == 1 and e.answers_of(1)[0] == w.answer
    assert e.judge(1, 0, 0, T0 + 3).status == "again"


def test_a_plan_that_no_longer_fits_the_bank_is_refused() -> None:
    with pytest.raises(PlanMismatch):
        QuizEngine(ZERO, Plan(("gone",), ((0, 1, 2, 3),)), 30)
    with pytest.raises(PlanMismatch):
        QuizEngine(ZERO, Plan((ZERO.questions[0].id,), ((0, 1),)), 30)


def test_engine_is_pure() -> None:
    import ast

    source = (Path(__file__).resolve().parents[3] / "bot" / "core" / "engine.py").read_text()
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names
            if isinstance(node, ast.Import)
            else [type("A", (), {"name": node.module or ""})()]
        )
    }
    assert not imported & {"telegram", "aiosqlite", "sqlite3", "time", "asyncio"}


def test_taps_are_judged_at_the_time_given() -> None:
    """The time passed in is when the tap arrived, however late it is judged."""
    e = engine(seconds=30)
    e.open(T0)
    right = right_shown(e)
    late = e.answer(2, 0, right, T0 + 31)  # arrived after the deadline
    assert late.status == "closed"
    early = e.answer(1, 0, right, T0 + 6)  # arrived in time, judged after the one above
    assert early.status == "accepted" and early.answer is not None
    assert early.answer.points == points_for(6, 30) and early.answer.at == T0 + 6
    e.end_at(T0 + 10)  # closed early (/next at T0 + 10): later taps are too late
    e.end_at(T0 + 20)  # never pushed back
    assert e.deadline == T0 + 10
    assert e.answer(3, 0, right, T0 + 10).status == "accepted"
    assert e.answer(4, 0, right, T0 + 10.5).status == "closed"
