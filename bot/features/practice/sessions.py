"""Self-paced practice in a private chat: no timer, the next question follows each tap.

A tap edits the question's message to show the verdict and the explanation, then the next
question is sent. Practice runs and answers are stored like group runs (mode ``practice``), so
a session survives a restart and ``/me`` can count it, but never on a group's leaderboard.
Posting, recording and closing are the run driver's (bot/services/driver.py), as for group runs.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.ext import Application

from bot import render
from bot.banks.catalog import Catalog
from bot.core.bank import Question, Quiz
from bot.core.engine import Answer, PlanMismatch, QuizEngine, Verdict, make_plan
from bot.core.mathtext import question_has_math
from bot.core.scoring import typed_readable
from bot.core.spacing import first_review
from bot.features.practice.store import PracticeStore
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html
from bot.render import callbacks
from bot.render import teacher as render_teacher
from bot.services import pictures
from bot.services.appbound import AppBound
from bot.services.driver import Notice, RunDriver, Tap, edit, send, sent_after
from bot.services.progress import save_ticks, ticked_of, to_engine
from bot.storage import NewRun
from bot.tg import outbox

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Session:
    run_id: int
    chat_id: int
    lang: Lang
    quiz: Quiz
    engine: QuizEngine
    message_id: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: several right answers: the options (shown positions) ticked on the open question
    ticked: frozenset[int] = frozenset()


class PracticeSessions(AppBound):
    """One practice session per private chat."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: PracticeStore,
        catalog: Catalog,
        clock: Callable[[], float],
        typed_minutes: float = 30.0,
        again_token: Callable[[str, int], str] = lambda quiz_id, user_id: "",
    ) -> None:
        self._app, self._store, self._catalog, self._clock = app, store, catalog, clock
        #: how long a typed question waits for its answer before other private text is not
        #: taken for it any more (a draft's title, a /review answer)
        self._typed_seconds = typed_minutes * 60
        self._again_token = again_token  # a shared quiz's link token, for "practise again"
        self._by_id: dict[int, Session] = {}
        self._loading: dict[int, asyncio.Lock] = {}  # runs being restored, by id
        self._driver = RunDriver(app, store, clock)

    async def start(self, chat_id: int, quiz: Quiz, lang: Lang, rng: random.Random) -> None:
        """Begin practising ``quiz``; an unfinished earlier session is closed."""
        old = await self._store.running_run(chat_id, 0, "practice")
        if old is not None:
            self._by_id.pop(old.run_id, None)
            await self._store.finish_run(old.run_id, "stopped")
        plan = make_plan(quiz, rng)
        stored = await self._store.create_run(
            NewRun(
                chat_id=chat_id,
                thread_id=0,
                mode="practice",
                quiz_id=quiz.id,
                language=lang,
                seconds=0,
                plan=plan,
                started_by=chat_id,
                started_at=self._clock(),
            )
        )
        session = Session(stored.run_id, chat_id, lang, quiz, QuizEngine(quiz, plan, 0))
        self._by_id[session.run_id] = session
        async with session.lock:
            await self._ask(session)

    async def post_pending(self) -> None:
        """After a restart: each question a stop caught being posted is posted now, so no
        student waits for a question that never came (the others load when next used)."""
        for stored in await self._store.practice_posting():
            await self._load(stored.run_id, stored.chat_id)

    async def _load(self, run_id: int, chat_id: int) -> Session | None:
        """The session of practice run ``run_id`` in ``chat_id``, restored from the store the
        first time it is needed; callers at once share one restoring."""
        session = self._by_id.get(run_id)
        if session is not None:
            return session
        loading = self._loading.setdefault(run_id, asyncio.Lock())
        async with loading:
            try:
                session = self._by_id.get(run_id)  # restored while this caller waited
                return session if session is not None else await self._restore(run_id, chat_id)
            finally:
                self._loading.pop(run_id, None)

    async def _restore(self, run_id: int, chat_id: int) -> Session | None:
        stored = await self._store.get_run(run_id)
        if (
            stored is None
            or stored.mode != "practice"
            or stored.status != "running"
            or stored.chat_id != chat_id
        ):
            return None
        quiz = self._catalog.matching(stored.quiz_id, stored.plan.question_ids)
        if quiz is None:
            return None
        posting = stored.phase == "posting"  # stopped while its question was being posted
        try:
            engine = QuizEngine(
                quiz, stored.plan, 0, current=stored.current, phase="posting" if posting else "open"
            )
        except PlanMismatch:
            return None
        engine.posted_at = stored.posted_at
        engine.restore(map(to_engine, await self._store.answers(run_id)))
        session = Session(run_id, chat_id, stored.language, engine.quiz, engine, stored.message_id)
        session.ticked = (await ticked_of(self._store, run_id, engine)).get(chat_id, frozenset())
        self._by_id[run_id] = session
        stored_answer = engine.answers_of(chat_id).get(engine.current)
        if posting:  # it may not have gone out: posted (again) now
            async with session.lock:
                await self._ask(session)
        elif stored_answer is not None:  # stopped after storing it, before its verdict was shown
            async with session.lock:
                await self._answered(session, stored_answer, session.message_id)
        return session if session.run_id in self._by_id else None

    async def tap(self, tap: Tap[callbacks.AnswerData]) -> Notice:
        """Answer a practice tap: the notification for the callback query."""
        session = await self._load(tap.button.run_id, tap.chat_id) if tap.private else None
        if session is None:
            return t(tap.lang, "alert_over"), True
        user_id, q_index, shown = tap.user_id, tap.button.q_index, tap.button.shown
        async with session.lock:
            engine = session.engine
            if 0 <= q_index < engine.count and engine.question_at(q_index).kind == "multiple":
                return await self._tick_or_submit(session, tap)
            verdict = engine.judge(user_id, q_index, shown, self._clock())
            return await self._judged(session, verdict, tap.message_id)

    async def _tick_or_submit(self, session: Session, tap: Tap[callbacks.AnswerData]) -> Notice:
        """Several right answers: an option ticks or unticks it (the keyboard shows ☐/☑),
        Submit answers with what is ticked (under the lock)."""
        engine, q_index, shown = session.engine, tap.button.q_index, tap.button.shown
        check = engine.check(tap.user_id, q_index, self._clock())
        if shown == callbacks.SUBMIT and check is None:
            if not session.ticked:
                return render.choice_alert(session.lang, ()), True
            verdict = engine.judge_many(
                tap.user_id, q_index, tuple(sorted(session.ticked)), self._clock()
            )
            return await self._judged(session, verdict, tap.message_id)
        if check is not None or not 0 <= shown < len(engine.permutation):
            perm = engine.plan.permutations[q_index]
            verdict = check or Verdict("invalid")
            alert = render.tap_alert(session.lang, verdict, engine.question_at(q_index), perm)
            return alert, False
        session.ticked = session.ticked ^ {shown}
        try:
            await save_ticks(self._store, session.run_id, engine, tap.user_id, session.ticked)
        except Exception:
            log.exception("practice %s: could not store a selection", session.run_id)
        text, keyboard = self._question(session)
        rich = question_has_math(engine.question)
        await edit(
            self._bot,
            session.chat_id,
            tap.message_id,
            text,
            markup=keyboard,
            lang=session.lang,
            rich=rich,
        )
        return render.choice_alert(session.lang, sorted(session.ticked)), False

    async def waiting(self, chat_id: int) -> Question | None:
        """The typed question the private chat's practice session waits on an answer to; read
        under the session's lock, so a session being recovered (a stored answer's verdict shown,
        the next question asked) is named only once its next question is out."""
        stored = await self._store.running_run(chat_id, 0, "practice")
        session = await self._load(stored.run_id, chat_id) if stored is not None else None
        if session is None:
            return None
        async with session.lock:
            return session.engine.question if await self._claims(session) else None

    async def _claims(self, session: Session) -> bool:
        """Whether the session's open question takes private text: it is typed, and no other
        text waits elsewhere (a draft, a ``/review`` question) that was begun, written to or
        asked after it, or at all once it waited longer than the setting's minutes."""
        engine = session.engine
        if engine.phase != "open" or not engine.question.typed:
            return False
        asked = engine.posted_at
        if asked is None:
            return True
        draft = await self._store.draft(session.chat_id)
        review = await self._store.open_review(session.chat_id)
        if draft is None and review is None:
            return True
        if self._clock() - asked > self._typed_seconds:
            return False  # stale: what else waits takes the text
        if draft is not None and draft.updated_at > asked:
            return False
        return not (
            review is not None
            and review.message_id is not None
            and (session.message_id is None or review.message_id > session.message_id)
        )

    async def typed(self, chat_id: int, user_id: int, text: str, message_id: int) -> bool:
        """A text the student sent: the answer to the practice question waiting for one (True),
        or not for practice (False: another feature may take it). A text sent before the open
        question was asked answered an earlier one: it is told which question waits now."""
        stored = await self._store.running_run(chat_id, 0, "practice")
        session = await self._load(stored.run_id, chat_id) if stored is not None else None
        if session is None:
            return False
        async with session.lock:
            engine = session.engine
            if not await self._claims(session):
                return False
            if not sent_after(session.message_id, message_id):
                notice = render.typed_superseded(session.lang, engine.question)
                await outbox.send(self._bot, chat_id, notice, reply_to=message_id)
                return True
            if not typed_readable(engine.question, text):
                notice = t(session.lang, "typed_not_number")
                await outbox.send(self._bot, chat_id, notice, reply_to=message_id)
                return True
            verdict = engine.judge_typed(user_id, engine.current, text, self._clock())
            alert, _ = await self._judged(session, verdict, session.message_id)
            if verdict.status != "accepted" and alert:
                await outbox.send(self._bot, chat_id, html("{}", alert), reply_to=message_id)
        return True

    async def _judged(self, session: Session, verdict: Verdict, message_id: int | None) -> Notice:
        """An answer judged (under the lock): if accepted, stored, the question closed on its
        message, and the next one asked; the notification."""
        engine = session.engine
        if verdict.status != "accepted" or verdict.answer is None:
            q = verdict.answer.q_index if verdict.answer else engine.current
            alert = render.tap_alert(
                session.lang,
                verdict,
                engine.question_at(q),
                engine.plan.permutations[q],
                practice=True,
            )
            return alert, False
        committed = await self._driver.commit(session, verdict, points=0)
        if committed is None or committed.answer is None:
            return t(session.lang, "alert_error"), True
        return await self._answered(session, committed.answer, message_id), False

    async def _answered(self, session: Session, answer: Answer, message_id: int | None) -> str:
        """After an answer was stored (under the lock): kept for ``/review`` if missed, the
        question closed on its message, and the next one asked; the verdict."""
        engine = session.engine
        if not answer.correct:  # it comes back in /review
            await self._store.add_missed(
                [(answer.user_id, session.quiz.id, engine.question.id)], *first_review(answer.at)
            )
        session.message_id = message_id  # the message answered
        reveal = await self._driver.close(session)
        aside: Safe | None = None  # a note too long to share the reveal's message
        if engine.question.typed:
            prefix = render.typed_verdict(session.lang, engine.question, answer)
            text, aside = render.typed_parts(
                reveal, session.lang, total=engine.count, given=answer.typed, verdict=prefix
            )
        else:
            prefix = render.verdict_prefix(
                session.lang,
                Verdict("accepted", answer),
                engine.question,
                engine.permutation,
                practice=True,
            )
            text, aside = render.practice_parts(
                reveal, session.lang, total=engine.count, verdict=prefix, picked=answer.options
            )
        if message_id is not None:
            rich = question_has_math(reveal.question)
            refused = engine.question.typed and not answer.correct  # the student may contest it
            markup = (
                render_teacher.report_keyboard(session.lang, session.run_id, [reveal.q_index + 1])
                if refused
                else None
            )
            await edit(
                self._bot,
                session.chat_id,
                message_id,
                text,
                lang=session.lang,
                rich=rich,
                markup=markup,
            )
            if aside is not None:
                await send(self._bot, session.chat_id, aside, lang=session.lang, rich=rich)
        session.ticked = frozenset()
        if engine.advance():
            await self._ask(session)
        else:
            await self._done(session, answer.user_id)
        return prefix

    def _question(self, session: Session) -> tuple[Safe, InlineKeyboardMarkup | None]:
        engine = session.engine
        text = render.question_message(
            engine.question,
            engine.permutation,
            session.lang,
            number=engine.current + 1,
            total=engine.count,
            seconds=0,
            answered=0,
        )
        run_id, q_index = session.run_id, engine.current
        keyboard = render.own_keyboard(
            engine.question,
            session.lang,
            lambda shown: callbacks.AnswerData(run_id, q_index, shown),
            session.ticked,
        )
        return text, keyboard

    async def _ask(self, session: Session) -> None:
        # untimed: open whatever the send's outcome (the student may /practice again)
        shown = pictures.before(session.quiz, session.engine.question)
        rich = question_has_math(session.engine.question)
        await self._driver.post(
            session, session.chat_id, self._question(session), shown=shown, rich=rich
        )

    async def _done(self, session: Session, user_id: int) -> None:
        right = sum(1 for a in session.engine.answers_of(user_id).values() if a.correct)
        text = render.practice_done(
            session.lang, right=right, total=session.engine.count, quiz_id=session.quiz.handle
        )
        token = self._again_token(session.quiz.id, user_id)
        again = render.again_keyboard(session.lang, session.quiz.id, token)
        await outbox.send(self._bot, session.chat_id, text, markup=again)
        await self._driver.end(session, "finished")
        self._by_id.pop(session.run_id, None)
