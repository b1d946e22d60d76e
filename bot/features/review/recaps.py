"""Private recaps after a group quiz, and knowing whom the bot may write to first.

When a group run's results are out, every participant gets their score, rank and each question
they missed or skipped with the right answer and its explanation, in their language. Telegram
lets a bot write first only to users who have started it: those we have seen in a private chat
(``students.started``) get the recap at once, paced by one sender for the whole bot; everyone
can get theirs through the results' deep link (``/start recap_<run id>``). A 403 clears the
flag quietly. Every question a participant missed also goes into their spaced review.

Recaps are built from what storage kept (answers and the run's plan), never from the live run,
so they are sent from a background task that holds no group's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.ext import Application

from bot import render
from bot.banks.catalog import Catalog
from bot.core.bank import Quiz
from bot.core.engine import streaks
from bot.core.mathtext import has_math
from bot.core.spacing import first_review
from bot.features.review import views as review_views
from bot.features.review.store import ReviewStore
from bot.i18n import parse_lang, t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import teacher as render_teacher
from bot.render.explain import teaches_more
from bot.services.appbound import AppBound
from bot.services.driver import send
from bot.storage import StoredRun
from bot.tg.pacing import SlidingWindow

log = logging.getLogger(__name__)

RECAPS_PER_SECOND = 20  # of Telegram's ~30/s for the whole bot; the rest stays for quizzes


class Recaps(AppBound):
    """Recaps of finished group runs, the private-chat flag and the recap opt-out."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: ReviewStore,
        catalog: Catalog,
        clock: Callable[[], float],
        default: Lang,
        *,
        per_second: int = RECAPS_PER_SECOND,
    ) -> None:
        self._app, self._store, self._catalog, self._clock = app, store, catalog, clock
        self._default = default
        self._window = SlidingWindow(per_second, 1.0, time.monotonic)
        self._queue: deque[tuple[int, Lang, list[Safe], InlineKeyboardMarkup | None]] = deque()
        self._sending = False
        self._idle = asyncio.Event()
        self._idle.set()
        self._started: set[int] = set()  # known to have started the bot (saves writes)
        #: recaps sent directly, and skipped because the user blocked the bot (for tests, logs)
        self.sent = 0
        self.blocked = 0

    # --- who may be written to ------------------------------------------------------------------

    async def seen_private(self, user_id: int) -> None:
        """The user wrote to the bot privately: from now on it may write to them first."""
        if user_id in self._started:
            return
        await self._store.set_started(user_id, True)
        self._started.add(user_id)

    async def unreachable(self, user_id: int) -> None:
        """A private send got 403 (blocked, or never started): stop writing first."""
        self._started.discard(user_id)
        await self._store.set_started(user_id, False)

    async def language_of(self, user_id: int, fallback: Lang) -> Lang:
        """A user's language for a private message: their private chat's choice (/lang), else
        their Telegram language as last seen (stored: it survives a restart), else
        ``fallback``."""
        chosen = parse_lang(await self._store.chat_language(user_id))
        return chosen or await self._store.user_language(user_id) or fallback

    # --- after a run -----------------------------------------------------------------------------

    async def run_finished(self, run_id: int) -> None:
        """Put every participant's missed questions into review and send the recaps due."""
        try:
            await self._run_finished(run_id)
        except Exception:
            log.exception("recaps of run %s failed", run_id)

    async def _played(self, run_id: int) -> tuple[StoredRun | None, Quiz | None]:
        """The run and its quiz as it was played (None: gone, or its bank no longer has it)."""
        run = await self._store.get_run(run_id)
        if run is None:
            return None, None
        version = await self._store.run_version(run.run_id)
        return run, self._catalog.matching(run.quiz_id, run.plan.question_ids, version)

    async def _run_finished(self, run_id: int) -> None:
        run, quiz = await self._played(run_id)
        if run is None or quiz is None:
            return
        results = await self._store.run_results(run_id)
        answers = await self._answers(run_id)
        explained = await self._store.explained(run_id)
        missed = [
            (uid, run.quiz_id, run.plan.question_ids[q])
            for uid in answers
            for q in _missed(run, answers[uid])
        ]
        await self._store.add_missed(missed, *first_review(self._clock()))
        targets = await self._store.recap_targets(answers)
        for standing in results:
            if standing.user_id in targets:
                lang = await self.language_of(standing.user_id, run.language)
                read = {q for user, q in explained if user == standing.user_id}
                texts = self._texts(run, quiz, standing.user_id, answers, results, lang, read)
                if texts:
                    self._queue.append(
                        (
                            standing.user_id,
                            lang,
                            texts,
                            self._report_markup(run, answers, standing.user_id, lang),
                        )
                    )
        log.info(
            "run %s: %d recaps to send, %d questions into review", run_id, len(targets), len(missed)
        )
        if not self._sending:  # else the task already sending takes these too
            await self._send_all()

    async def _answers(self, run_id: int) -> dict[int, dict[int, tuple[tuple[int, ...], bool]]]:
        """user → question index → (bank options picked, right)."""
        out: dict[int, dict[int, tuple[tuple[int, ...], bool]]] = {}
        for a in await self._store.answers(run_id):
            out.setdefault(a.user_id, {})[a.q_index] = (a.options, a.correct)
        return out

    def _texts(
        self,
        run: StoredRun,
        quiz: Quiz,
        user_id: int,
        answers: Mapping[int, Mapping[int, tuple[tuple[int, ...], bool]]],
        results: Any,
        lang: Lang,
        read: set[int],
    ) -> list[Safe]:
        """The recap's messages; ``read``: the questions (indexes) whose whole explanation
        the student read after their tap (the others answered right are explained here)."""
        mine = answers.get(user_id)
        standing = next((s for s in results if s.user_id == user_id), None)
        if mine is None or standing is None:
            return []
        by_id = {q.id: q for q in quiz.questions}
        items = []
        for q_index in _missed(run, mine):
            question = by_id.get(run.plan.question_ids[q_index])
            perm = run.plan.permutations[q_index]
            if question is None or sorted(perm) != list(range(len(question.options))):
                continue  # the bank changed since
            chosen = mine.get(q_index)
            picks = render.shown_picks(perm, chosen[0]) if chosen else None
            items.append(review_views.Missed(q_index + 1, question, perm, picks))
        unread = []
        for q_index, (options, right) in sorted(mine.items()):
            question = by_id.get(run.plan.question_ids[q_index])
            perm = run.plan.permutations[q_index]
            if not right or question is None or sorted(perm) != list(range(len(question.options))):
                continue
            if q_index not in read and teaches_more(question, options, lang):
                picks = render.shown_picks(perm, options)
                unread.append(review_views.Missed(q_index + 1, question, perm, picks))
        asked = _asked(run, mine)
        best = max(streaks([mine[q][1] if q in mine else None for q in range(asked)]), default=0)
        return review_views.recap_messages(
            quiz,
            lang,
            points=standing.points,
            correct=standing.correct,
            asked=asked,
            total=run.question_count,
            rank=standing.rank,
            players=len(results),
            best_streak=best,
            missed=items,
            unread=unread,
        )

    @staticmethod
    def _report_markup(
        run: StoredRun,
        answers: Mapping[int, Mapping[int, tuple[tuple[int, ...], bool]]],
        user_id: int,
        lang: Lang,
    ) -> InlineKeyboardMarkup | None:
        """A "report a problem" button per item of the recap."""
        mine = answers.get(user_id, {})
        return render_teacher.report_keyboard(lang, run.run_id, [q + 1 for q in _missed(run, mine)])

    async def _send_all(self) -> None:
        """The one recap sender: one message at a time, at most ``per_second`` a second, so a
        group's sends never queue behind a burst of recaps in the bot-wide limiter."""
        self._sending = True
        self._idle.clear()
        try:
            while self._queue:
                user_id, lang, texts, markup = self._queue.popleft()
                try:
                    await self._deliver(user_id, lang, texts, markup)
                except Exception:
                    log.exception("recap to user %s failed", user_id)
        finally:
            self._sending = False
            self._idle.set()

    async def _deliver(
        self, user_id: int, lang: Lang, texts: list[Safe], markup: InlineKeyboardMarkup | None
    ) -> None:
        for n, text in enumerate(texts, start=1):
            async with self._window.lock:
                delay = self._window.wait_time()
                if delay > 0:
                    await asyncio.sleep(delay)
                self._window.record()
            last = markup if n == len(texts) else None
            outcome = await send(
                self._bot, user_id, text, lang=lang, rich=has_math(text), markup=last
            )
            if outcome.status == "gone":
                self.blocked += 1
                log.info("user %s can't be written to: recap skipped", user_id)
                await self.unreachable(user_id)
                return
            if not outcome.ok:
                return
        self.sent += 1

    async def wait_idle(self) -> None:
        """Until every queued recap went out (tests)."""
        await self._idle.wait()

    # --- through the deep link -----------------------------------------------------------------

    async def deliver_link(self, chat_id: int, user_id: int, run_id: int, lang: Lang) -> None:
        """``/start recap_<run id>`` in private: that user's recap of that run, here."""
        run, quiz = await self._played(run_id)
        texts: list[Safe] = []
        markup = None
        if run is not None and run.status == "running":  # the open question stays secret
            await send(self._bot, chat_id, t(lang, "recap_not_yet"), lang=lang)
            return
        if run is not None and quiz is not None and run.mode == "group":
            answers = await self._answers(run_id)
            if user_id in answers:
                results = await self._store.run_results(run_id)
                read = {q for user, q in await self._store.explained(run_id) if user == user_id}
                texts = self._texts(run, quiz, user_id, answers, results, lang, read)
                markup = self._report_markup(run, answers, user_id, lang)
        texts = texts or [t(lang, "recap_none")]
        for n, text in enumerate(texts, start=1):
            last = markup if n == len(texts) else None
            await send(self._bot, chat_id, text, lang=lang, rich=has_math(text), markup=last)


def _asked(run: StoredRun, mine: Mapping[int, Any]) -> int:
    """How many questions of the run were put to the group (all, unless it was stopped)."""
    if run.status == "finished":
        return run.question_count
    posted = run.current + (run.phase != "posting")
    return min(run.question_count, max(posted, max(mine, default=-1) + 1))


def _missed(run: StoredRun, mine: Mapping[int, tuple[tuple[int, ...], bool]]) -> list[int]:
    """Question indexes a participant answered wrong or let pass."""
    return [q for q in range(_asked(run, mine)) if q not in mine or not mine[q][1]]
