"""What every service of group quizzes acts with: the running Application, the quiz's store,
the clock and the updates' arrivals (``GroupQuizzes``, and the ``Explanations`` it sends)."""

from __future__ import annotations

from collections.abc import Callable

from bot.features.quiz.store import QuizStore
from bot.services.appbound import AppBound
from bot.tg.arrivals import Arrivals


class QuizBound(AppBound):
    """A service of group quizzes: the parts it acts with."""

    _store: QuizStore
    _clock: Callable[[], float]
    _arrivals: Arrivals

    def _share(self, other: QuizBound) -> None:
        """Act with the same Application, store, clock and arrivals as ``other``."""
        self._app, self._store = other._app, other._store
        self._clock, self._arrivals = other._clock, other._arrivals
