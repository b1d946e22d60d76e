"""bot/services/driver.py: every run through one driver, every tap as one value, and no PTB
``Update`` in the services."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from quizkit import ROOT

from bot.features.homework import buttons as homework_buttons
from bot.features.homework.attempts import Attempts
from bot.features.practice.sessions import PracticeSessions
from bot.features.quiz.runs import GroupQuizzes
from bot.features.review import buttons as review_buttons
from bot.features.review.sessions import Reviews
from bot.render import callbacks
from bot.services.driver import Tap, Taps


def takes_taps(
    groups: GroupQuizzes, practice: PracticeSessions, attempts: Attempts, reviews: Reviews
) -> list[object]:
    """mypy checks this: the four services take taps in the one shape."""
    answers: list[Taps[callbacks.AnswerData]] = [groups, practice]
    homework: Taps[homework_buttons.HomeworkAnswerData] = attempts
    review: Taps[review_buttons.ReviewData] = reviews
    return [*answers, homework, review]


def test_a_tap_is_a_frozen_value() -> None:
    tap = Tap(
        user_id=1,
        name="A",
        lang="en",
        chat_id=-5,
        private=False,
        message_id=9,
        button=callbacks.AnswerData(7, 0, 2),
        at=100.0,
        update_id=3,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(tap, "at", 0.0)  # noqa: B010 (mypy would refuse the assignment)
    assert tap.button.shown == 2


def test_no_service_sees_ptbs_update() -> None:
    for path in sorted((ROOT / "bot" / "services").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "telegram":
                assert "Update" not in {a.name for a in node.names}, path.name
            if isinstance(node, ast.Attribute) and node.attr in (
                "callback_query",
                "effective_user",
            ):
                raise AssertionError(f"{path.name} reads an Update ({node.attr})")
