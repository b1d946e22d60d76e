"""A student's homework attempt, in the private chat: once, question by question, timed.

``/start hw-<id>`` (the card's Start button) begins it: the attempt is stored (one per student:
a second start, or a start after the deadline, gets a clear message), then each question is sent
with the quiz's per-question timer. A tap is judged by the engine as in a live quiz (same points,
streaks and alert), stored before the alert is sent, and the message turns into the question's
reveal with the explanation; the next question follows. A question left unanswered closes when
its time is up (a timer, or the next tap after the clock passed it).

Attempts are runs of mode ``homework``: their state is saved at each step (the run driver,
``driver.py``), so a restart takes them back (an open question keeps its deadline and closes at
once if it passed meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application

from bot import render
from bot.core.bank import Question, Quiz
from bot.core.engine import (
    TYPED_MIN_SECONDS,
    Answer,
    PlanMismatch,
    QuizEngine,
    Reveal,
    Verdict,
    make_plan,
)
from bot.core.mathtext import question_has_math
from bot.core.scoring import typed_readable
from bot.core.spacing import first_review
from bot.features.homework import buttons as homework_buttons
from bot.features.homework import views as homework_views
from bot.features.homework.queries import AttemptRefused
from bot.features.homework.store import HomeworkStore
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import callbacks
from bot.render import teacher as render_teacher
from bot.services import pictures
from bot.services.appbound import AppBound
from bot.services.driver import Notice, RunDriver, Tap, edit, sent_after
from bot.services.progress import restore_engine, save_ticks, ticked_of
from bot.storage import HOMEWORK, EndStatus, NewRun, StoredRun
from bot.tg import outbox
from bot.tg.membership import is_member

log = logging.getLogger(__name__)

Lookup = Callable[[str], Quiz | None]
LATE_WINDOW = 3600.0  # seconds after a deadline a typed answer is still told it came late
LATE_MEMORY = 10_000  # students remembered so (the oldest forgotten first)


@dataclass(slots=True)
class Attempt:
    run_id: int
    homework_id: int
    user_id: int  # also the private chat's id
    lang: Lang
    quiz: Quiz
    engine: QuizEngine
    deadline: float  # the homework's: no answer counts after it
    message_id: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: several right answers: the options (shown positions) ticked on the open question
    ticked: frozenset[int] = frozenset()

    @property
    def timer(self) -> str:
        return f"hwq:{self.run_id}"


class Attempts(AppBound):
    """Every homework attempt in progress."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: HomeworkStore,
        lookup: Lookup,
        clock: Callable[[], float],
        rng: random.Random,
    ) -> None:
        self._app, self._store, self._lookup, self._clock, self._rng = (
            app,
            store,
            lookup,
            clock,
            rng,
        )
        self._by_id: dict[int, Attempt] = {}
        self._pending: list[Attempt] = []
        self._driver = RunDriver(app, store, clock)
        #: called with the homework id when a student finishes (the card's count changes)
        self.on_finish: Callable[[int], None] | None = None
        #: the deadline shown to a student who finished: homework id -> text
        self.deadline_text: Callable[[int, Lang], Coroutine[Any, Any, str]] | None = None
        #: students whose typed question the deadline closed: user id -> (when, language), so
        #: the answer they were typing is told it came late instead of going unanswered
        self._late: OrderedDict[int, tuple[float, Lang]] = OrderedDict()
        #: the homework's podium is posted in the group (else the teacher gets it privately)
        self.podium_in_group = False

    def get(self, run_id: int) -> Attempt | None:
        """The attempt in progress with this run id."""
        return self._by_id.get(run_id)

    def rekey(self, quiz: Quiz, homework_ids: set[int]) -> int:
        """The attempts in progress for these homeworks of ``quiz`` judge their questions
        still to come by its keys (a key was fixed); how many do."""
        mine = [
            a
            for a in self._by_id.values()
            if a.quiz.id == quiz.id and a.homework_id in homework_ids
        ]
        for attempt in mine:
            attempt.quiz = quiz
            attempt.engine.use_keys(quiz)
        return len(mine)

    # --- starting ---------------------------------------------------------------------------

    async def begin(self, user_id: int, homework_id: int, lang: Lang) -> None:
        """``/start hw-<id>``: start the student's one attempt, or say why not."""
        hw = await self._store.homework(homework_id)
        quiz = self._lookup(hw.quiz_id) if hw is not None else None
        if hw is None or quiz is None:
            await outbox.send(self._bot, user_id, t(lang, "hw_missing"))
            return
        member = await is_member(self._bot, hw.chat_id, user_id)  # the link may travel
        if not member:  # fails closed: when Telegram cannot say, nobody is admitted
            key = "hw_not_member" if member is False else "hw_member_unknown"
            await outbox.send(self._bot, user_id, t(lang, key))
            return
        try:
            stored = await self._store.start_attempt(
                homework_id,
                user_id,
                NewRun(
                    chat_id=hw.chat_id,
                    thread_id=0,
                    mode=HOMEWORK,
                    quiz_id=quiz.id,
                    language=lang,
                    seconds=hw.seconds,
                    plan=make_plan(quiz, self._rng),
                    started_by=user_id,
                    started_at=self._clock(),
                ),
            )
        except AttemptRefused as refused:
            await outbox.send(self._bot, user_id, t(lang, f"hw_refused_{refused.reason}"))
            return
        attempt = Attempt(
            stored.run_id,
            homework_id,
            user_id,
            lang,
            quiz,
            QuizEngine(quiz, stored.plan, stored.seconds, typed_floor=TYPED_MIN_SECONDS),
            hw.deadline,
        )
        self._by_id[attempt.run_id] = attempt
        log.info("homework %s: user %s started (run %s)", homework_id, user_id, attempt.run_id)
        await outbox.send(
            self._bot,
            user_id,
            t(
                lang,
                "hw_intro",
                title=quiz.title(lang),
                count=attempt.engine.count,
                seconds=stored.seconds,
            ),
        )
        async with attempt.lock:
            await self._post(attempt)

    async def _post(self, a: Attempt) -> None:
        engine = a.engine
        text = self._question_text(a)
        run_id, q_index = a.run_id, engine.current
        keyboard = render.own_keyboard(
            engine.question,
            a.lang,
            lambda shown: homework_buttons.HomeworkAnswerData(run_id, q_index, shown),
            a.ticked,
        )

        async def carry_on(sent: outbox.Outcome) -> bool:
            if sent.status == "gone":  # the student blocked the bot: the attempt ends here
                await self._end(a, "stopped")
                return False
            return sent.status != "stopped"  # stopped: stored as "posting", posted after restart

        await self._driver.post(
            a,
            a.user_id,
            (text, keyboard),
            carry_on,
            arm=lambda seconds: self._arm(a, seconds),
            shown=pictures.before(a.quiz, engine.question),
            rich=question_has_math(engine.question),
        )

    def _question_text(self, a: Attempt) -> Safe:
        engine = a.engine
        return homework_views.attempt_question(
            engine.question,
            engine.permutation,
            a.lang,
            number=engine.current + 1,
            total=engine.count,
            seconds=engine.seconds_for(engine.current),
        )

    # --- answering --------------------------------------------------------------------------

    async def tap(self, tap: Tap[homework_buttons.HomeworkAnswerData]) -> Notice:
        """A tap on a homework question: its alert."""
        user_id, q_index, shown = tap.user_id, tap.button.q_index, tap.button.shown
        a = self._by_id.get(tap.button.run_id)
        if a is None or a.user_id != user_id or self._clock() >= a.deadline:
            return t(tap.lang, "hw_alert_over"), True  # past the deadline: the sweep ends it
        async with a.lock:
            if a.run_id not in self._by_id:  # it ended while this tap waited
                return t(tap.lang, "hw_alert_over"), True
            engine, now = a.engine, self._clock()
            many = 0 <= q_index < engine.count and engine.question_at(q_index).kind == "multiple"
            if many and shown != callbacks.SUBMIT:
                return await self._tick(a, tap)
            if many and not a.ticked and engine.check(user_id, q_index, now) is None:
                return render.choice_alert(a.lang, ()), True
            verdict = (
                engine.judge_many(user_id, q_index, tuple(sorted(a.ticked)), now)
                if many
                else engine.judge(user_id, q_index, shown, now)
            )
            if verdict.status == "closed" and q_index == engine.current and engine.phase == "open":
                await self._time_up(a)  # its time ran out before its timer fired
            if verdict.status != "accepted" or verdict.answer is None:
                q = verdict.answer.q_index if verdict.answer else min(q_index, engine.count - 1)
                return render.tap_alert(
                    a.lang, verdict, engine.question_at(q), engine.plan.permutations[q]
                ), True
            committed = await self._driver.commit(a, verdict)
            if committed is None or committed.answer is None:
                return t(a.lang, "alert_error"), True
            verdict = committed
            alert = render.tap_alert(a.lang, verdict, engine.question, engine.permutation)
            prefix = render.verdict_prefix(
                a.lang, verdict, engine.question, engine.permutation, practice=False
            )
            picks = render.shown_picks(engine.permutation, committed.answer.options)
            await self._close(a, prefix, picks)
            return alert, True

    async def _tick(self, a: Attempt, tap: Tap[homework_buttons.HomeworkAnswerData]) -> Notice:
        """Several right answers: an option ticked or unticked on the student's own keyboard
        (☐/☑), kept and stored (under the lock)."""
        engine, q_index, shown = a.engine, tap.button.q_index, tap.button.shown
        check = engine.check(a.user_id, q_index, self._clock())
        if check is not None or not 0 <= shown < len(engine.permutation):
            perm = engine.plan.permutations[q_index]
            verdict = check or Verdict("invalid")
            return render.tap_alert(a.lang, verdict, engine.question_at(q_index), perm), True
        a.ticked = a.ticked ^ {shown}
        try:
            await save_ticks(self._store, a.run_id, engine, a.user_id, a.ticked)
        except Exception:
            log.exception("attempt %s: could not store a selection", a.run_id)
        run_id = a.run_id
        keyboard = render.own_keyboard(
            engine.question,
            a.lang,
            lambda s: homework_buttons.HomeworkAnswerData(run_id, q_index, s),
            a.ticked,
        )
        await edit(
            self._bot,
            a.user_id,
            tap.message_id,
            self._question_text(a),
            markup=keyboard,
            lang=a.lang,
            rich=question_has_math(engine.question),
        )
        return render.choice_alert(a.lang, sorted(a.ticked)), False

    def waiting(self, user_id: int) -> Question | None:
        """The typed question the student's homework attempt waits on an answer to, if any."""
        return next(
            (
                x.engine.question
                for x in self._by_id.values()
                if x.user_id == user_id
                and x.engine.phase == "open"
                and x.engine.question.typed
                and x.engine.current not in x.engine.answers_of(user_id)  # else: closing
            ),
            None,
        )

    async def typed(self, user_id: int, text: str, message_id: int) -> bool:
        """A text the student sent: the answer to their attempt's open typed question (True),
        or not for homework (False). A text sent before that question was asked answered an
        earlier one: it is told which question waits now."""
        a = next(
            (
                x
                for x in self._by_id.values()
                if x.user_id == user_id and x.engine.phase == "open" and x.engine.question.typed
            ),
            None,
        )
        if a is None:
            return await self._too_late(user_id, message_id)
        async with a.lock:
            engine, now = a.engine, self._clock()
            if a.run_id not in self._by_id or engine.phase != "open" or not engine.question.typed:
                return False
            if not sent_after(a.message_id, message_id):  # it answered an earlier question
                await self._say(a, render.typed_superseded(a.lang, engine.question), message_id)
                return True
            if not typed_readable(engine.question, text):
                await self._say(a, t(a.lang, "typed_not_number"), message_id)
                return True
            if now >= a.deadline:  # past the homework's deadline: the sweep ends the attempt
                await self._say(a, t(a.lang, "hw_alert_over"), message_id)
                return True
            verdict = engine.judge_typed(user_id, engine.current, text, now)
            if verdict.status == "closed":
                await self._time_up(a)  # its time ran out before its timer fired
            if verdict.status != "accepted" or verdict.answer is None:
                await self._say(a, t(a.lang, "hw_alert_over"), message_id)
                return True
            committed = await self._driver.commit(a, verdict)
            if committed is None or committed.answer is None:
                await self._say(a, t(a.lang, "alert_error"), message_id)
                return True
            verdict, answer = committed, committed.answer
            prefix = render.verdict_prefix(
                a.lang, verdict, engine.question, engine.permutation, practice=False
            )
            head = render.typed_verdict(a.lang, engine.question, answer, prefix)
            await self._close(a, head, None, answer.typed, report=answer.fraction < 1)
        return True

    def _stored_verdict(
        self, a: Attempt, answer: Answer
    ) -> tuple[str, Sequence[int] | None, str | None]:
        """How an answer stored before the bot stopped is shown on its question's message, as
        it would have been: the verdict, the options picked (shown positions), the text typed."""
        engine = a.engine
        verdict = Verdict("accepted", answer)
        prefix = render.verdict_prefix(
            a.lang, verdict, engine.question, engine.permutation, practice=False
        )
        if engine.question.typed:
            return render.typed_verdict(a.lang, engine.question, answer, prefix), None, answer.typed
        return prefix, render.shown_picks(engine.permutation, answer.options), None

    async def _too_late(self, user_id: int, message_id: int) -> bool:
        """A text from a student whose typed question the deadline closed a moment ago: told
        it came too late (True), once, unless they began writing a quiz meanwhile."""
        late = self._late.pop(user_id, None)
        if late is None or self._clock() - late[0] > LATE_WINDOW:
            return False
        if await self._store.draft(user_id) is not None:
            return False  # the text is the draft's
        await outbox.send(self._bot, user_id, t(late[1], "hw_typed_late"), reply_to=message_id)
        return True

    async def _say(self, a: Attempt, text: Safe, reply_to: int) -> None:
        await outbox.send(self._bot, a.user_id, text, reply_to=reply_to)

    async def _time_up(self, a: Attempt) -> None:
        await self._close(a, t(a.lang, "hw_time_up"), None)

    async def _close(
        self,
        a: Attempt,
        verdict: str,
        chosen: Sequence[int] | None,
        given: str | None = None,
        *,
        report: bool = False,
    ) -> None:
        """Close the current question with ``verdict`` shown, then go on (under the lock);
        ``report``: a typed answer refused (or given part of the marks), which its Report
        button lets the student ask the teacher to accept."""
        reveal = await self._driver.close(a, a.timer)
        a.ticked = frozenset()
        await self._show_closed(a, reveal, verdict, chosen, given, report=report)
        await self._next(a)

    async def _show_closed(
        self,
        a: Attempt,
        reveal: Reveal,
        verdict: str,
        chosen: Sequence[int] | None,
        given: str | None,
        *,
        report: bool = False,
    ) -> None:
        """The closed question's message edited into its reveal with ``verdict``."""
        if a.message_id is not None:
            await edit(
                self._bot,
                a.user_id,
                a.message_id,
                homework_views.attempt_closed(
                    reveal,
                    a.lang,
                    total=a.engine.count,
                    verdict=verdict,
                    chosen=chosen,
                    given=given,
                ),
                lang=a.lang,
                rich=question_has_math(reveal.question),
                markup=(
                    render_teacher.report_keyboard(a.lang, a.run_id, [reveal.q_index + 1])
                    if report
                    else None
                ),
            )

    async def _next(self, a: Attempt) -> None:
        if a.engine.advance():
            await self._post(a)
            return
        await self._finish(a)

    async def _finish(self, a: Attempt) -> None:
        engine = a.engine
        mine = engine.answers_of(a.user_id)
        missed = [
            (a.user_id, a.quiz.id, engine.plan.question_ids[q])
            for q in range(engine.count)
            if q not in mine or not mine[q].correct
        ]
        await self._store.add_missed(missed, *first_review(self._clock()))  # into /review
        await self._end(a, "finished")
        points = sum(x.points for x in mine.values())
        right = sum(1 for x in mine.values() if x.correct)
        when = (
            await self.deadline_text(a.homework_id, a.lang)
            if self.deadline_text is not None
            else ""
        )
        await outbox.send(
            self._bot,
            a.user_id,
            t(
                a.lang,
                "hw_done" if self.podium_in_group else "hw_done_private",
                points=points,
                right=right,
                total=engine.count,
                when=when,
            ),
        )
        if self.on_finish is not None:
            self.on_finish(a.homework_id)

    async def _end(self, a: Attempt, status: EndStatus) -> None:
        await self._driver.end(a, status, a.timer)
        self._by_id.pop(a.run_id, None)

    # --- the question timer -----------------------------------------------------------------

    def _arm(self, a: Attempt, delay: float) -> None:
        self._driver.timers.arm(a.timer, delay, self._timer_fired, (a.run_id, a.engine.current))

    async def _timer_fired(self, question: tuple[int, int]) -> None:
        """A homework question's time is up."""
        run_id, q_index = question
        a = self._by_id.get(run_id)
        if a is None or not self._app.running:
            return
        async with a.lock:
            engine = a.engine
            if engine.phase != "open" or engine.current != q_index:
                return
            remaining = (engine.deadline or 0) - self._clock()
            if remaining > 0:  # the clock was moved back: wait the rest
                self._arm(a, remaining)
                return
            await self._time_up(a)

    # --- the homework ended -----------------------------------------------------------------

    async def homework_ended(self, homework_id: int) -> None:
        """The deadline passed (or a moderator stopped it): running attempts end, their
        answers count; storage already marked them stopped."""
        for a in [x for x in self._by_id.values() if x.homework_id == homework_id]:
            async with a.lock:  # a tap being handled finishes first
                self._driver.timers.cancel(a.timer)
                if self._by_id.pop(a.run_id, None) is None:
                    continue  # it finished meanwhile
                if a.message_id is not None and a.engine.phase == "open":
                    if a.engine.question.typed:
                        self._late[a.user_id] = (self._clock(), a.lang)
                        while len(self._late) > LATE_MEMORY:
                            self._late.popitem(last=False)
                    closed = a.engine.close()
                    await edit(
                        self._bot,
                        a.user_id,
                        a.message_id,
                        homework_views.attempt_closed(
                            closed,
                            a.lang,
                            total=a.engine.count,
                            verdict=t(a.lang, "hw_time_up"),
                            chosen=None,
                        ),
                        lang=a.lang,
                        rich=question_has_math(closed.question),
                    )
                await outbox.send(self._bot, a.user_id, t(a.lang, "hw_ended_midway"))

    # --- restart ----------------------------------------------------------------------------

    async def restore(self) -> None:
        """At start-up: take back every attempt in progress."""
        for stored in await self._store.running_runs(HOMEWORK):
            attempt = await self._rebuild(stored)
            if attempt is None:
                await self._store.finish_run(stored.run_id, "stopped")
                continue
            self._by_id[attempt.run_id] = attempt
            self._pending.append(attempt)

    async def _rebuild(self, stored: StoredRun) -> Attempt | None:
        hw_id = await self._store.attempt_homework(stored.run_id)
        hw = await self._store.homework(hw_id) if hw_id is not None else None
        quiz = self._lookup(stored.quiz_id)
        if hw is None or hw.status != "open" or quiz is None:
            return None
        try:
            engine = await restore_engine(self._store, stored, quiz)
        except PlanMismatch:
            return None
        lang: Lang = stored.language
        user_id = stored.started_by or 0
        ticked = (await ticked_of(self._store, stored.run_id, engine)).get(user_id, frozenset())
        return Attempt(
            stored.run_id,
            hw.homework_id,
            user_id,
            lang,
            quiz,
            engine,
            hw.deadline,
            stored.message_id,
            ticked=ticked,
        )

    async def continue_resumed(self) -> None:
        """Once the bot runs: re-arm question timers, finish what a stop interrupted."""
        pending, self._pending = self._pending, []
        for a in pending:
            if a.run_id in self._by_id:  # else its homework ended meanwhile
                await self._continue(a)

    async def _continue(self, a: Attempt) -> None:
        async with a.lock:
            engine = a.engine
            stored = engine.answers_of(a.user_id).get(engine.current)
            if engine.phase == "open" and stored is not None:  # stored before a stop
                await self._close(a, *self._stored_verdict(a, stored))
            elif engine.phase == "open":
                remaining = (engine.deadline or 0) - self._clock()
                if remaining > 0:
                    self._arm(a, remaining)
                else:
                    await self._time_up(a)
            elif engine.phase == "posting":
                await self._post(a)
            else:  # closed: its reveal shown again (the stop may have come before it), then on
                verdict, chosen, given = (
                    self._stored_verdict(a, stored)
                    if stored is not None
                    else (t(a.lang, "hw_time_up"), None, None)
                )
                await self._show_closed(a, engine.reveal(engine.current), verdict, chosen, given)
                await self._next(a)
