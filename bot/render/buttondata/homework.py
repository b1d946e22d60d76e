"""The buttons of homework: answers in an attempt, ``/homework stop``, a link's duration."""

from __future__ import annotations

#: a homework set from a saved quiz's link runs for one of these (seconds): 1 h, 1, 3, 7 days
HOMEWORK_DURATIONS = (3600, 86_400, 3 * 86_400, 7 * 86_400)
