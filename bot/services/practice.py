"""Self-paced practice in a private chat: no timer, the next question follows each tap.

A tap edits the question's message to show the verdict and the explanation, then the next
question is sent. Practice runs and answers are stored like group runs (mode ``practice``), so
a session survives a restart and ``/me`` can count it, but never on a group's leaderboard.
Posting, recording and closing are the run driver's (``driver.py``), as for group runs.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application

from bot import render
from bot.banks.catalog import Catalog
from bot.core.bank import Quiz
from bot.core.engine import PlanMismatch, QuizEngine, make_plan
from bot.core.mathtext import question_has_math
from bot.core.spacing import first_review
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.render import callbacks
from bot.services import pictures
from bot.services.appbound import AppBound
from bot.services.driver import Notice, RunDriver, Tap, edit
from bot.services.progress import to_engine
from bot.storage import NewRun, Store
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


class PracticeSessions(AppBound):
    """One practice session per private chat."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: Store,
        catalog: Catalog,
        clock: Callable[[], float],
    ) -> None:
        self._app, self._store, self._catalog, self._clock = app, store, catalog, clock
        self._by_id: dict[int, Session] = {}
        self._driver = RunDriver(app, store, clock)

    async def start(self, chat_id: int, quiz: Quiz, lang: Lang, rng: random.Random) -> None:
        """Begin practising ``quiz``; an unfinished earlier session is closed."""
        old = await self._store.running_run(chat_id, 0, "practice")
        if old is not None:
            self._by_id.pop(old.run_id, None)
            await self._store.finish_run(old.run_id, "stopped")
        plan = make_plan(quiz, rng, typed=False)
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

    async def _load(self, run_id: int, chat_id: int) -> Session | None:
        session = self._by_id.get(run_id)
        if session is not None:
            return session
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
        try:
            engine = QuizEngine(quiz, stored.plan, 0, current=stored.current, phase="open")
        except PlanMismatch:
            return None
        engine.restore(map(to_engine, await self._store.answers(run_id)))
        session = Session(run_id, chat_id, stored.language, engine.quiz, engine)
        self._by_id[run_id] = session
        return session

    async def tap(self, tap: Tap[callbacks.AnswerData]) -> Notice:
        """Answer a practice tap: the notification for the callback query."""
        session = await self._load(tap.button.run_id, tap.chat_id) if tap.private else None
        if session is None:
            return t(tap.lang, "alert_over"), True
        user_id, q_index, shown = tap.user_id, tap.button.q_index, tap.button.shown
        async with session.lock:
            engine = session.engine
            verdict = engine.answer(user_id, q_index, shown, self._clock())
            if verdict.status != "accepted" or verdict.answer is None:
                q = verdict.answer.q_index if verdict.answer else engine.current
                return render.tap_alert(
                    session.lang,
                    verdict,
                    engine.question_at(q),
                    engine.plan.permutations[q],
                    practice=True,
                ), False
            answer = verdict.answer
            if not await self._driver.record(session, answer, points=0):
                return t(session.lang, "alert_error"), True
            if not answer.correct:  # it comes back in /review
                await self._store.add_missed(
                    [(user_id, session.quiz.id, engine.question.id)], *first_review(answer.at)
                )
            prefix = render.verdict_prefix(
                session.lang, verdict, engine.question, engine.permutation, practice=True
            )
            session.message_id = tap.message_id  # the message tapped is the one answered
            reveal = await self._driver.close(session)
            text = render.practice_answered(
                reveal, session.lang, total=engine.count, verdict=prefix, picked=answer.option
            )
            rich = question_has_math(reveal.question)
            await edit(self._bot, tap.chat_id, tap.message_id, text, rich=rich)
            if engine.advance():
                await self._ask(session)
            else:
                await self._done(session, user_id)
            return prefix, False

    async def _ask(self, session: Session) -> None:
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
        keyboard = render.answer_keyboard(
            session.run_id, engine.current, len(engine.question.options)
        )
        # untimed: open whatever the send's outcome (the student may /practice again)
        shown = pictures.before(session.quiz, engine.question)
        rich = question_has_math(engine.question)
        await self._driver.post(session, session.chat_id, (text, keyboard), shown=shown, rich=rich)

    async def _done(self, session: Session, user_id: int) -> None:
        right = sum(1 for a in session.engine.answers_of(user_id).values() if a.correct)
        text = render.practice_done(
            session.lang, right=right, total=session.engine.count, quiz_id=session.quiz.handle
        )
        again = render.again_keyboard(session.lang, session.quiz.id)
        await outbox.send(self._bot, session.chat_id, text, markup=again)
        await self._driver.end(session, "finished")
        self._by_id.pop(session.run_id, None)
