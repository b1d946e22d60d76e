"""The injected wall clock of tests: time moves only when the test moves it."""

from __future__ import annotations

import time

T0 = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC


class ManualClock:
    """A wall clock (seconds since the epoch) for ``Services.clock`` and ``Store``.

    Frozen by default: the bot sees the same instant until the test calls ``advance`` or sets
    ``now``, so points, podiums and tie-breaks never depend on how fast a tap was processed.
    With ``running=True`` it also follows real time from ``now`` on (for features driven by
    real timers, e.g. a reminder due in a second), shifted by whatever the test adds.
    """

    def __init__(self, now: float = T0, *, running: bool = False) -> None:
        self._base, self.running = now, running
        self._since = time.monotonic()

    def __call__(self) -> float:
        return self.now

    @property
    def now(self) -> float:
        return self._base + (time.monotonic() - self._since if self.running else 0.0)

    @now.setter
    def now(self, when: float) -> None:
        self._base, self._since = when, time.monotonic()

    def advance(self, seconds: float) -> None:
        self.now = self.now + seconds
