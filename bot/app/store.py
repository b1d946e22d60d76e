"""The whole ``Store``: the kernel's queries and each feature's own, composed in one class."""

from __future__ import annotations

from bot.features.authoring.queries import AuthoringQueries
from bot.features.homework.queries import HomeworkQueries
from bot.features.practice.queries import PracticeQueries
from bot.features.review.queries import ReviewQueries
from bot.features.stats.queries import StatsQueries
from bot.features.teacher.queries import TeacherQueries
from bot.storage import StoreBase


class Store(
    StoreBase,
    AuthoringQueries,
    HomeworkQueries,
    PracticeQueries,
    ReviewQueries,
    StatsQueries,
    TeacherQueries,
):
    """All persistent state of the bot; composed here, the one place that may name every feature."""
