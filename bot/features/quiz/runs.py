"""Group quizzes at run time: post, time, close and reveal questions, then post the results.

This is the only place that turns engine transitions into Telegram messages and stored state.
Each transition (post, close, finish) runs under the run's lock and is written to storage
before the next one starts, so a restart picks up exactly where the run was:

``posting`` (the question may or may not be out) → ``open`` (message id and deadline stored)
→ ``closed`` (the reveal is due) → the next question's ``posting``, or the results.

Taps never take the lock: the engine decides at once, by the time the tap *arrived*
(bot/tg/arrivals.py), the answer is stored (group commit), and only then is the student's alert
sent. Closing a question first waits for the taps that arrived before it closed.

Posting, recording, closing and the timers are the run driver's (``driver.py``), shared with
homework attempts and practice; this module says what a group sees and when.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.ext import Application

from bot import render
from bot.core.bank import Quiz
from bot.core.engine import QuizEngine, Reveal, Verdict, make_plan
from bot.core.mathtext import question_has_math
from bot.features.quiz.bound import QuizBound
from bot.features.quiz.explanations import Explanations
from bot.features.quiz.store import QuizStore
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import callbacks
from bot.services.driver import Notice, RunDriver, Tap, edit, send
from bot.services.pictures import Shown
from bot.services.progress import restore_engine, save_ticks, ticked_of
from bot.storage import EndStatus, NewRun, RunConflict, StoredRun
from bot.tg import outbox
from bot.tg.arrivals import Arrivals

log = logging.getLogger(__name__)


@dataclass(slots=True)
class LiveRun:
    """A group run in memory: the engine plus where its messages go."""

    run_id: int
    chat_id: int
    thread_id: int
    lang: Lang
    quiz: Quiz
    engine: QuizEngine
    message_id: int | None = None
    names: dict[int, str] = field(default_factory=dict)
    shown_count: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: set while no question is being posted: a tap on the one being posted waits for it
    posted: asyncio.Event = field(default_factory=asyncio.Event)
    #: several right answers: the options (shown positions) each student has ticked on the
    #: open question and not yet submitted (also stored: ``Store.save_selection``)
    ticked: dict[int, frozenset[int]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, int]:
        return (self.chat_id, self.thread_id)

    @property
    def job(self) -> str:
        """The close timer's name: one per chat and topic, so it can be found and cancelled."""
        return f"close:{self.chat_id}:{self.thread_id}"

    @property
    def count_job(self) -> str:
        return f"count:{self.chat_id}:{self.thread_id}"


#: the longest a close waits for taps that arrived in time (a safety net: they take
#: milliseconds unless the bot is far behind)
SETTLE_TIMEOUT = 30.0


class GroupQuizzes(QuizBound):
    """Every running group quiz of the bot, one per (chat, topic)."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: QuizStore,
        clock: Callable[[], float],
        arrivals: Arrivals,
        *,
        count_interval: float = 5.0,
    ) -> None:
        self._app = app
        self._store = store
        self._clock = clock
        self._arrivals = arrivals
        self._count_interval = count_interval
        self._live: dict[tuple[int, int], LiveRun] = {}
        self._by_id: dict[int, LiveRun] = {}
        self._pending_resume: list[LiveRun] = []
        self._driver = RunDriver(app, store, clock)
        #: the whole explanation after a tap, to the tapper alone
        # (bot/features/quiz/explanations.py)
        self.explanations = Explanations(self)
        #: pending timers by name (close and count jobs)
        self._timers = self._driver.timers
        #: called (as a background task) with the run id once a run's results are out
        self.on_finish: Callable[[int], Coroutine[Any, Any, None]] | None = None

    def running(self, chat_id: int, thread_id: int) -> LiveRun | None:
        return self._live.get((chat_id, thread_id))

    def by_id(self, run_id: int) -> LiveRun | None:
        return self._by_id.get(run_id)

    def active(self) -> list[LiveRun]:
        return list(self._live.values())

    # --- starting and resuming ----------------------------------------------------------------

    async def start(
        self,
        chat_id: int,
        thread_id: int,
        quiz: Quiz,
        *,
        seconds: int,
        lang: Lang,
        started_by: int | None,
        rng: Any,
    ) -> bool:
        """Start ``quiz`` here; False if a quiz already runs in this chat and topic."""
        if (chat_id, thread_id) in self._live:
            return False
        plan = make_plan(quiz, rng, typed=False)  # typed answers are for private chats
        if not plan.question_ids:
            text = t(lang, "quiz_typed_only")
            await outbox.send(self._bot, chat_id, text, thread_id=thread_id)
            return True
        try:
            stored = await self._store.create_run(
                NewRun(
                    chat_id=chat_id,
                    thread_id=thread_id,
                    mode="group",
                    quiz_id=quiz.id,
                    language=lang,
                    seconds=seconds,
                    plan=plan,
                    started_by=started_by,
                    started_at=self._clock(),
                )
            )
        except RunConflict:
            return False
        run = LiveRun(
            stored.run_id, chat_id, thread_id, lang, quiz, QuizEngine(quiz, plan, seconds)
        )
        self._register(run)
        log.info(
            "quiz started: run %s, quiz %s, chat %s, topic %s, %s s, %s",
            run.run_id,
            quiz.id,
            chat_id,
            thread_id,
            seconds,
            lang,
        )
        self._app.create_task(self._opening(run), name=f"quiz-start:{run.run_id}")
        return True

    async def _opening(self, run: LiveRun) -> None:
        async with run.lock:
            sent = await outbox.send(
                self._bot,
                run.chat_id,
                render.announcement(run.quiz, run.lang, run.engine.seconds, run.engine.count),
                thread_id=run.thread_id,
                urgent=True,
            )
            if not await self._follow(run, sent):
                return
            await self._post(run)

    async def resume(self, stored: StoredRun, quiz: Quiz) -> None:
        """Take back a run found unfinished at start-up, before any update is handled, so a
        tap that waited while the bot was down finds its run; ``continue_resumed`` does the
        rest once the bot runs."""
        engine = await restore_engine(self._store, stored, quiz)
        run = LiveRun(
            stored.run_id,
            stored.chat_id,
            stored.thread_id,
            stored.language,
            quiz,
            engine,
            stored.message_id,
            shown_count=engine.answered(),
        )
        for standing in await self._store.run_results(stored.run_id):
            run.names[standing.user_id] = standing.name
        run.ticked.update(await ticked_of(self._store, run.run_id, engine))
        self._register(run)
        self._pending_resume.append(run)
        log.info(
            "quiz resumed: run %s in chat %s at question %s (%s)",
            run.run_id,
            run.chat_id,
            engine.current + 1,
            engine.phase,
        )

    async def continue_resumed(self) -> None:
        """Once the bot runs: re-arm timers and finish whatever a restored run was doing."""
        runs, self._pending_resume = self._pending_resume, []
        for run in runs:
            self._app.create_task(self._continue(run), name=f"quiz-resume:{run.run_id}")

    async def _continue(self, run: LiveRun) -> None:
        engine = run.engine
        if engine.phase == "open":
            remaining = (engine.deadline or 0) - self._clock()
            if remaining > 0:
                self._schedule_close(run, remaining)
                return
            log.info(
                "run %s: question %s's time ran out while the bot was down: closed now",
                run.run_id,
                engine.current + 1,
            )
            await self.close(run.run_id)
            return
        async with run.lock:
            if engine.phase == "posting":
                await self._post(run)
            else:  # closed: the reveal may not have gone out
                await self._after_close(run, engine.reveal(engine.current))

    async def abandon(self, stored: StoredRun, reason: str) -> None:
        log.warning("run %s in chat %s cannot continue: %s", stored.run_id, stored.chat_id, reason)
        await self._store.finish_run(stored.run_id, "aborted")

    # --- posting and closing --------------------------------------------------------------------

    async def _post(self, run: LiveRun) -> None:
        run.posted.clear()
        try:
            await self._post_question(run)
        finally:
            run.posted.set()

    async def _post_question(self, run: LiveRun) -> None:
        async def moved(new_chat_id: int | None) -> int:
            await self._moved(run, new_chat_id)
            return run.chat_id

        async def carry_on(sent: outbox.Outcome) -> bool:
            if sent.status == "stopped":  # stored as "posting": posted after the restart
                return False
            if sent.status in ("gone", "moved"):
                await self._end(run, "aborted")
                return False
            if sent.status == "unknown":
                log.warning(
                    "run %s: question %s may not have been posted; keeping it open without "
                    "posting it again",
                    run.run_id,
                    run.engine.current + 1,
                )
            run.shown_count = 0
            run.ticked.clear()
            return True

        await self._driver.post(
            run,
            run.chat_id,
            (self._question_text(run, 0), self._keyboard(run)),
            carry_on,
            thread_id=run.thread_id,
            moved=moved,
            arm=lambda seconds: self._schedule_close(run, seconds),
            urgent=True,
            shown=self._shown(run),
            rich=question_has_math(run.engine.question),
        )

    def _schedule_close(self, run: LiveRun, delay: float) -> None:
        self._timers.arm(run.job, delay, self._time_up, run.run_id)

    async def _time_up(self, run_id: int) -> None:
        """The question's time is up."""
        await self.close(run_id)

    async def close(self, run_id: int, *, expect: int | None = None) -> bool:
        """Close the open question (``/next`` or time up), reveal it, go on to the next one.

        With ``expect``, only if that question is still the open one.
        """
        run = self._by_id.get(run_id)
        if run is None or not self._app.running:
            return False  # shutting down: the stored run closes this question after a restart
        engine = run.engine
        if engine.phase != "open" or (expect is not None and engine.current != expect):
            return False
        await self._take_arrived(run)
        if self._arrivals.stopped:
            return False  # shutting down: as above
        async with run.lock:
            if engine.phase != "open" or (expect is not None and engine.current != expect):
                return False
            reveal = await self._driver.close(run, run.job)
            await self._after_close(run, reveal)
            return True

    async def _take_arrived(self, run: LiveRun) -> None:
        """Before an open question closes: it ends now (or at its deadline, if that passed),
        and the taps that arrived by then are judged first."""
        engine = run.engine
        if engine.phase != "open":
            return
        engine.end_at(self._clock())
        cutoff = engine.deadline if engine.deadline is not None else self._clock()
        if not await self._arrivals.settled(run.run_id, cutoff, SETTLE_TIMEOUT) and not (
            self._arrivals.stopped
        ):
            log.warning(
                "run %s: closing question %s with taps still pending",
                run.run_id,
                engine.current + 1,
            )

    async def _after_close(self, run: LiveRun, reveal: Reveal, *, go_on: bool = True) -> None:
        if not await self._reveal(run, reveal):
            return
        if go_on and run.engine.advance():
            await self._post(run)
        else:
            await self._finish(run, "finished" if go_on else "stopped")

    async def _reveal(self, run: LiveRun, reveal: Reveal) -> bool:
        self._timers.cancel(run.count_job)
        text = render.group_reveal(reveal, run.lang, total=run.engine.count)
        rich = question_has_math(reveal.question)
        result = outbox.Outcome("missing")
        if run.message_id is not None:
            result = await self._edit(run, run.message_id, text, urgent=True)
        if result.status == "moved":  # the group became a supergroup: its old message is out
            await self._moved(run, result.new_chat_id)  # of reach, the reveal goes there anew
            result = outbox.Outcome("missing")
        if result.status == "missing":  # deleted by a moderator, or never posted
            result = await send(
                self._bot,
                run.chat_id,
                text,
                lang=run.lang,
                rich=rich,
                thread_id=run.thread_id,
                urgent=True,
            )
        return await self._follow(run, result)

    async def stop(self, run_id: int) -> bool:
        """End the run now: reveal the open question, then post the results."""
        run = self._by_id.get(run_id)
        if run is None:
            return False
        await self._take_arrived(run)
        async with run.lock:
            self._timers.cancel(run.job)
            if run.engine.phase == "open":
                reveal = await self._driver.close(run)
                await self._after_close(run, reveal, go_on=False)
            else:
                await self._finish(run, "stopped")
        return True

    async def abort(self, run_id: int, reason: str) -> None:
        """End a run that cannot go on (the bot was removed from the group)."""
        run = self._by_id.get(run_id)
        if run is not None:
            log.warning("run %s in chat %s ends: %s", run_id, run.chat_id, reason)
            await self._end(run, "aborted")

    async def _finish(self, run: LiveRun, status: EndStatus) -> None:
        scores = run.engine.standings()
        text = render.results_message(
            run.quiz,
            run.lang,
            scores,
            run.names,
            asked=run.engine.asked,
            total=run.engine.count,
            stopped=status == "stopped",
        )
        typed = any(q.typed for q in run.quiz.questions)
        markup = render.recap_keyboard(
            run.lang,
            self._bot.username if scores and self.on_finish is not None else None,
            run.run_id,
            homework=run.quiz.id if typed else None,
        )
        sent = await outbox.send(
            self._bot, run.chat_id, text, thread_id=run.thread_id, markup=markup
        )
        if sent.status == "moved" and sent.new_chat_id is not None:  # upgraded to a supergroup
            await self._moved(run, sent.new_chat_id)
            sent = await outbox.send(
                self._bot, run.chat_id, text, thread_id=run.thread_id, markup=markup
            )
        if sent.status == "stopped":  # still running when stored: results after the restart
            return
        await self._end(run, status if sent.status not in ("gone", "moved") else "aborted")
        if scores and self.on_finish is not None and self._app.running:
            # private recaps, from a task of their own: never under the run's lock
            self._app.create_task(self.on_finish(run.run_id), name=f"recaps:{run.run_id}")

    async def _end(self, run: LiveRun, status: EndStatus) -> None:
        await self._driver.end(run, status, run.job, run.count_job)
        self._live.pop(run.key, None)
        self._by_id.pop(run.run_id, None)
        log.info(
            "quiz %s: run %s in chat %s, %s players",
            status,
            run.run_id,
            run.chat_id,
            len(run.engine.standings()),
        )

    async def _follow(self, run: LiveRun, outcome: outbox.Outcome) -> bool:
        """React to a failed send: end the run if the chat is gone. True to carry on."""
        if outcome.status == "stopped":
            return False
        if outcome.status == "moved" and outcome.new_chat_id is not None:
            await self._moved(run, outcome.new_chat_id)
            return True
        if outcome.status == "gone":
            await self._end(run, "aborted")
            return False
        return True

    async def _moved(self, run: LiveRun, new_chat_id: int | None) -> None:
        if new_chat_id is None:
            return
        await self.migrate(run.chat_id, new_chat_id)

    async def migrate(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its runs move to the new id, in memory and stored."""
        await self._store.migrate_chat(old_id, new_id)
        for run in [r for r in self._live.values() if r.chat_id == old_id]:
            self._live.pop(run.key)
            had_timer = self._timers.pending(run.job)
            self._timers.cancel(run.job)  # timers are named by chat: re-arm under the new id
            self._timers.cancel(run.count_job)
            run.chat_id = new_id
            self._live[run.key] = run
            if had_timer and run.engine.phase == "open" and run.engine.deadline is not None:
                self._schedule_close(run, run.engine.deadline - self._clock())

    # --- taps -----------------------------------------------------------------------------------

    async def tap(self, tap: Tap[callbacks.AnswerData]) -> Notice:
        """A student's tap: decide (by when it arrived), store, then give the alert."""
        run = self._by_id.get(tap.button.run_id)
        if run is None:
            return t_plain(tap.lang, "alert_over"), True
        q_index, shown = tap.button.q_index, tap.button.shown
        if run.engine.phase == "posting" and q_index == run.engine.current:
            # the student saw it before the bot learnt it was out: judge it once it is open
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.posted.wait(), SETTLE_TIMEOUT)
        question = run.engine.question_at(q_index) if 0 <= q_index < run.engine.count else None
        if question is not None and question.kind == "multiple":
            return await self._tick_or_submit(run, tap)
        decided = run.engine.judge(tap.user_id, q_index, shown, tap.at)
        self._arrivals.settle(tap.update_id)
        verdict = await self._driver.commit(run, decided)
        if verdict is None:
            return t_plain(run.lang, "alert_error"), True
        if verdict.status == "accepted":
            run.names[tap.user_id] = tap.name
            self._schedule_count(run)
        q = verdict.answer.q_index if verdict.answer else run.engine.current
        alert = render.tap_alert(
            run.lang, verdict, run.engine.question_at(q), run.engine.plan.permutations[q]
        )
        self._explain(run, tap, verdict, alert)
        return alert, True

    def _explain(
        self, run: LiveRun, tap: Tap[callbacks.AnswerData], verdict: Verdict, alert: str
    ) -> None:
        """Offer the whole explanation of an accepted answer, for when its alert is out."""
        if verdict.status != "accepted" or verdict.answer is None:
            return
        q = verdict.answer.q_index
        self.explanations.offer(
            tap.query_id,
            run_id=run.run_id,
            chat_id=run.chat_id,
            thread_id=run.thread_id,
            user_id=tap.user_id,
            lang=run.lang,
            verdict=verdict,
            question=run.engine.question_at(q),
            permutation=run.engine.plan.permutations[q],
            alert=alert,
            tapped_at=tap.at,
        )

    async def _tick_or_submit(self, run: LiveRun, tap: Tap[callbacks.AnswerData]) -> Notice:
        """A tap on a several-answers question: an option ticks or unticks it in the
        student's own selection (kept, and stored, before the alert says so); Submit commits
        the selection, judged by when it arrived, as any tap."""
        engine, q_index, shown = run.engine, tap.button.q_index, tap.button.shown
        mine = run.ticked.get(tap.user_id, frozenset())
        if shown == callbacks.SUBMIT:
            if not mine and engine.answers_of(tap.user_id).get(q_index) is None:
                self._arrivals.settle(tap.update_id)
                if q_index == engine.current and engine.is_open(tap.at):
                    return render.choice_alert(tap.lang, ()), True
            decided = engine.judge_many(tap.user_id, q_index, tuple(sorted(mine)), tap.at)
            self._arrivals.settle(tap.update_id)
            verdict = await self._driver.commit(run, decided)
            if verdict is None:
                return t_plain(tap.lang, "alert_error"), True
            if verdict.status == "accepted":
                run.names[tap.user_id] = tap.name
                self._schedule_count(run)
            perm = engine.plan.permutations[q_index]
            alert = render.tap_alert(tap.lang, verdict, engine.question_at(q_index), perm)
            self._explain(run, tap, verdict, alert)
            return alert, True
        check = engine.check(tap.user_id, q_index, tap.at)  # None: an answer may still count
        self._arrivals.settle(tap.update_id)
        if check is not None or not 0 <= shown < len(engine.permutation):
            perm = engine.plan.permutations[q_index]
            verdict = check or Verdict("invalid")
            return render.tap_alert(tap.lang, verdict, engine.question_at(q_index), perm), True
        mine = mine ^ {shown}
        run.ticked[tap.user_id] = mine
        try:
            await save_ticks(self._store, run.run_id, engine, tap.user_id, mine)
        except Exception:
            log.exception("run %s: could not store a selection of user %s", run.run_id, tap.user_id)
        return render.choice_alert(tap.lang, sorted(mine)), True

    # --- the "N answered" line ------------------------------------------------------------------

    def _schedule_count(self, run: LiveRun) -> None:
        if not self._timers.pending(run.count_job):
            self._timers.arm(run.count_job, self._count_interval, self._count, run.run_id)

    async def _count(self, run_id: int) -> None:
        """Refresh a question's answer count if the group's budget has room."""
        run = self._by_id.get(run_id)
        if run is None or run.message_id is None:
            return
        if run.lock.locked():  # posting or closing, perhaps waiting out a 429: try again later
            if run.engine.phase == "open":
                self._schedule_count(run)
            return
        async with run.lock:
            engine = run.engine
            answered = engine.answered()
            if engine.phase != "open" or answered == run.shown_count:
                return
            result = await self._edit(
                run,
                run.message_id,
                self._question_text(run, answered),
                markup=self._keyboard(run),
                optional=True,
            )
            if result.ok:
                run.shown_count = answered
        # taps that came in while the edit was on its way (or was refused) are shown next time
        if result.status == "skipped" or run.engine.answered() != run.shown_count:
            self._schedule_count(run)

    # --- helpers --------------------------------------------------------------------------------

    def _question_text(self, run: LiveRun, answered: int) -> Safe:
        engine = run.engine
        return render.question_message(
            engine.question,
            engine.permutation,
            run.lang,
            number=engine.current + 1,
            total=engine.count,
            seconds=engine.seconds,
            answered=answered,
        )

    def _shown(self, run: LiveRun) -> Shown | None:
        """The open question's picture, and whether the question is its caption (the same
        answer after a restart: it depends on the question and the chat's language only). A
        question holding math is never a caption (a caption cannot be a rich message): its
        picture goes first, then the question as a rich message."""
        engine = run.engine
        image = engine.question.image
        if image is None:
            return None
        caption = not question_has_math(engine.question) and render.caption_fits(
            engine.question,
            engine.permutation,
            run.lang,
            number=engine.current + 1,
            total=engine.count,
        )
        return Shown(run.quiz, image, caption)

    async def _edit(
        self,
        run: LiveRun,
        message_id: int,
        text: Safe,
        *,
        markup: InlineKeyboardMarkup | None = None,
        optional: bool = False,
        urgent: bool = False,
    ) -> outbox.Outcome:
        """Edit the open question's message: its photo's caption, or its text (a rich message
        when the question holds math), as it was posted."""
        shown = self._shown(run)
        if shown is not None and shown.caption:
            return await outbox.edit_caption(
                self._bot,
                run.chat_id,
                message_id,
                text,
                markup=markup,
                optional=optional,
                urgent=urgent,
            )
        return await edit(
            self._bot,
            run.chat_id,
            message_id,
            text,
            lang=run.lang,
            rich=question_has_math(run.engine.question),
            markup=markup,
            optional=optional,
            urgent=urgent,
        )

    def _keyboard(self, run: LiveRun) -> InlineKeyboardMarkup:
        return render.question_keyboard(
            run.run_id, run.engine.current, run.engine.question, run.lang
        )

    def _register(self, run: LiveRun) -> None:
        self._live[run.key] = run
        self._by_id[run.run_id] = run
