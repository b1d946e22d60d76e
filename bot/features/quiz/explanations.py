"""The whole explanation after a tap in a group, for the tapper alone (an ephemeral message).

A group run's tap is answered at once with its alert, as always. When the alert cannot say
everything (bot/render/explain.py), the run offers the explanation here under the tap's
callback query id; the handler releases it right after the alert went out, and it is sent in a
task of its own as an ephemeral message with that callback query (Bot API 10.3), so Telegram
shows it under the question to that student only. It takes the lowest priority of the bot's
budget and none of the group's (bot/tg/pacing.py), and is skipped when no slot comes before the
callback window closes (about 15 s after the tap): the student's recap then carries the text.
It also waits for a lull in the updates coming in, so a class's burst of taps is answered
first and the explanations follow.

Once Telegram took it, the store keeps (run, student, question) (``explained``), so the recap
leaves it out. Only an accepted answer offers one, so a tap handled again after a restart (its
answer stored, the verdict "again") sends nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot.core.bank import Question
from bot.core.engine import Verdict
from bot.features.quiz.bound import QuizBound
from bot.i18n.lang import Lang
from bot.render import explain
from bot.tg import outbox

log = logging.getLogger(__name__)

#: how long after a tap its callback query may still carry a message (libraries quote ~15 s;
#: a second is kept for the request's way to Telegram)
CALLBACK_WINDOW = 14.0
#: an explanation waits for a lull (at most this many updates in flight) before it takes its
#: turn, so a class's burst of taps is answered first; it waits at most ``LULL_SHARE`` of the
#: window, the rest being for the bot's budget
LULL_UPDATES = 4
LULL_SHARE = 0.5
#: ... and no update arrived for this long (seconds): long polling's next batch would
LULL_QUIET = 0.25
#: explanations sent at once: the bot's 30 a second allow no more, and each is built only when
#: its turn comes (most of a class's thousand are left to the recap, never built)
SENDERS = 4
#: picks whose need is kept (``Explanations.offer``); past it the memo starts afresh
NEEDS_KEPT = 4096


class Explanations(QuizBound):
    """Explanations offered with a tap's alert, sent once the alert is out."""

    def __init__(self, quizzes: QuizBound) -> None:
        """Sent through the same Application, store, clock and arrivals as ``quizzes``."""
        self._share(quizzes)
        self._offered: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._queue: deque[Callable[[], Coroutine[Any, Any, None]]] = deque()
        #: what each pick teaches beyond its alert, by (run, question, options, language):
        #: worked out once, not on each of a class's thousand taps
        self._needs: dict[tuple[int, int, tuple[int, ...], Lang], explain.Need] = {}
        #: explanations Telegram took, and those skipped (no slot in time, refused), for logs
        self.sent = self.skipped = 0

    def offer(
        self,
        query_id: str,
        *,
        run_id: int,
        chat_id: int,
        thread_id: int,
        user_id: int,
        lang: Lang,
        verdict: Verdict,
        question: Question,
        permutation: Sequence[int],
        alert: str,
        tapped_at: float,
    ) -> None:
        """Keep the explanation of an accepted tap, if its ``alert`` leaves something out."""
        answer = verdict.answer
        if not query_id or verdict.status != "accepted" or answer is None:
            return
        q_index = answer.q_index
        key = (run_id, q_index, answer.options, lang)
        need = self._needs.get(key)
        if need is None:
            if len(self._needs) >= NEEDS_KEPT:
                self._needs.clear()
            need = self._needs[key] = explain.need(question, answer, lang)
        if not need.left_out_of(alert):
            return

        async def send() -> None:
            left = CALLBACK_WINDOW - max(0.0, self._clock() - tapped_at)
            began = time.monotonic()
            await self._arrivals.lull(LULL_UPDATES, left * LULL_SHARE, LULL_QUIET)
            left -= time.monotonic() - began
            if left <= 0:  # its tap's window has passed: the recap carries it
                self.skipped += 1
                return
            to = outbox.Ephemeral(user_id, query_id=query_id, max_wait=left)
            image = question.image
            file_id = None
            if image is not None and image.sha256:
                file_id = await self._store.image_file_id(image.sha256)
            shown = explain.explanation(
                lang, verdict, question, permutation, picture=file_id is not None
            )
            sent = await outbox.send_ephemeral(
                self._bot,
                chat_id,
                to,
                shown.html,
                rich=shown.rich,
                photo_id=file_id,
                thread_id=thread_id,
            )
            if shown.rich and sent.status == "failed":  # refused: shown as text, with a note
                log.warning("run %s: a rich explanation was refused; sent as text", run_id)
                sent = await outbox.send_ephemeral(
                    self._bot, chat_id, to, shown.plain, thread_id=thread_id
                )
            if not sent.ok:
                self.skipped += 1
                log.info("run %s: explanation for %s not sent (%s)", run_id, user_id, sent.status)
                return
            self.sent += 1
            await self._store.mark_explained(run_id, user_id, q_index)

        self._offered[query_id] = send

    def release(self, query_id: str) -> None:
        """The tap's alert went out: send its explanation, if one was offered."""
        job = self._offered.pop(query_id, None)
        if job is None:
            return
        self._queue.append(job)
        if len(self._tasks) < SENDERS:
            task = asyncio.create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self) -> None:
        """Send the explanations waiting, in the order of their taps."""
        while self._queue:
            await self._run(self._queue.popleft())

    def drop(self, query_id: str) -> None:
        """The tap failed (its alert is an apology): no explanation."""
        self._offered.pop(query_id, None)

    @staticmethod
    async def _run(job: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await job()
        except Exception:
            log.exception("an explanation could not be sent")

    async def wait_idle(self) -> None:
        """Wait for the explanations being sent (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
