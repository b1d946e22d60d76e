"""One run driver: the steps every run takes, written once.

A group run (``group_quiz.py``), a homework attempt (``attempts.py``) and a practice session
(``practice.py``) are the same machine with different messages: each question is *posted*
(progress saved as "posting" → sent → the send's outcome handled → *opened* → saved with its
message → its timer *armed*), each accepted answer is *recorded* before its alert goes out, and
each question is *closed* (timer cancelled, reveal decided, saved) before the next is posted.
:class:`RunDriver` does those steps; each service says only what to send and how to react to a
failed send. ``progress.py`` is the one mapping between the engine and the store.

Taps reach every service (``/review`` included) as one value, :class:`Tap`, built by the
handler from PTB's ``Update`` (bot/routing/taps.py), so no service sees the ``Update``; every
service's ``tap(tap)`` answers with a :data:`Notice`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from telegram import InlineKeyboardMarkup
from telegram.ext import Application, CallbackContext, ExtBot, Job, JobQueue

from bot.core.engine import Answer, QuizEngine, Reveal, Verdict
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render import rich as render_rich
from bot.services.pictures import Pictures, Shown
from bot.services.progress import save_progress, to_stored
from bot.services.runstore import RunStore
from bot.storage import EndStatus
from bot.tg import outbox
from bot.tg.ptb_internals import remove_job

log = logging.getLogger(__name__)

B = TypeVar("B")
T = TypeVar("T")

#: a callback query's answer: (text or None, shown as an alert)
Notice = tuple[str | None, bool]


@dataclass(frozen=True, slots=True)
class Tap(Generic[B]):
    """A tap on an answer button, resolved by the handler: who, where, which option, when."""

    #: who tapped, their display name, and the language to answer them in
    user_id: int
    name: str
    lang: Lang
    #: the message tapped: its chat (private or not) and id
    chat_id: int
    private: bool
    message_id: int
    #: the button's data: the run (or ``/review`` card), the question, the option shown
    button: B
    #: when the tap reached the bot (bot/tg/arrivals.py), and its update, to settle it there
    at: float
    update_id: int
    #: the callback query, which an explanation only the tapper sees is sent with
    query_id: str = ""


class Taps(Protocol[B]):
    """A service taking taps on its buttons (data ``B``): the one shape of every ``tap``."""

    async def tap(self, tap: Tap[B]) -> Notice: ...


class Run(Protocol):
    """What the driver needs of a run: its id, its engine, the open question's message, and
    the language its chat reads."""

    run_id: int
    lang: Lang
    engine: QuizEngine
    message_id: int | None


class Timers:
    """Named one-shot timers on the application's JobQueue, found by name without asking the
    scheduler (which would list every job of every run), each calling back with its own typed
    data."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self._app = app
        self._pending: dict[str, Job[Any]] = {}

    @property
    def _jobs(self) -> JobQueue[Any]:
        assert self._app.job_queue is not None
        return self._app.job_queue

    def arm(
        self, name: str, delay: float, callback: Callable[[T], Awaitable[None]], data: T
    ) -> None:
        """Call ``callback(data)`` in ``delay`` seconds (now if negative), replacing the timer
        of that name."""
        self.cancel(name)
        self._pending[name] = self._jobs.run_once(
            functools.partial(self._fire, name, callback, data), when=max(delay, 0.0), name=name
        )

    def pending(self, name: str) -> bool:
        return name in self._pending

    def cancel(self, name: str) -> None:
        job = self._pending.pop(name, None)
        if job is not None:
            remove_job(job)

    async def _fire(
        self,
        name: str,
        callback: Callable[[T], Awaitable[None]],
        data: T,
        context: CallbackContext[Any, Any, Any, Any],
    ) -> None:
        if self._pending.get(name) is context.job:  # gone off: no longer pending
            del self._pending[name]
        await callback(data)


def sent_after(asked: int | None, message_id: int) -> bool:
    """Whether a private text (``message_id``) was sent after the question whose message is
    ``asked``, and so answers it: one chat numbers its messages in order, both sides' alike, so
    a text numbered before the question was written before the student could see it (it
    answered an earlier question). An unknown question message (its send failed) takes any."""
    return asked is None or message_id > asked


async def send(
    bot: ExtBot[Any],
    chat_id: int,
    text: Safe,
    *,
    lang: Lang,
    rich: bool = False,
    thread_id: int = 0,
    markup: InlineKeyboardMarkup | None = None,
    urgent: bool = False,
) -> outbox.Outcome:
    """Send ``text``; with ``rich`` (a question that holds math) as a rich message, in which
    Telegram renders the formulas; ``urgent`` as for ``outbox.send``. A rich message Telegram
    refuses goes as text, with a note in the chat's language ``lang`` saying so."""
    if rich:
        html = render_rich.rich_html(text)
        sent = await outbox.send_rich(
            bot, chat_id, html, thread_id=thread_id, markup=markup, urgent=urgent
        )
        if sent.status != "failed":
            return sent
        # refused (a limit of rich messages we did not foresee): shown all the same, as text
        log.warning("chat %s: a rich message was refused; sent as a text message", chat_id)
        text = render_rich.plain_fallback(text, lang)
    return await outbox.send(bot, chat_id, text, thread_id=thread_id, markup=markup, urgent=urgent)


async def edit(
    bot: ExtBot[Any],
    chat_id: int,
    message_id: int,
    text: Safe,
    *,
    lang: Lang,
    rich: bool = False,
    markup: InlineKeyboardMarkup | None = None,
    optional: bool = False,
    urgent: bool = False,
) -> outbox.Outcome:
    """Edit a message ``send`` sent, in the same form (a rich message stays rich; one that went
    as text stays text, with its note in ``lang``)."""
    if rich:
        html = render_rich.rich_html(text)
        edited = await outbox.edit_rich(
            bot, chat_id, message_id, html, markup=markup, optional=optional, urgent=urgent
        )
        if edited.status != "failed":
            return edited
        # refused, or the message went as text (``send``'s fallback): edited as text, its note
        # kept
        text = render_rich.plain_fallback(text, lang)
    return await outbox.edit(
        bot, chat_id, message_id, text, markup=markup, optional=optional, urgent=urgent
    )


class RunDriver:
    """Post, record, open, arm the timer, close: for every kind of run."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: RunStore,
        clock: Callable[[], float],
    ) -> None:
        self._app, self._store, self._clock = app, store, clock
        self.timers = Timers(app)
        self.pictures = Pictures(store)
        #: answers being stored, by (run, question, student): a second answer meanwhile is the
        #: student's "again", the first one standing
        self._storing: dict[tuple[int, int, int], Answer] = {}
        #: how many answers of each run are still being stored (closing waits for them: a tap
        #: that came in time counts in the reveal); a count, not a future per answer, as every
        #: tap of a class's burst passes here and a close rarely waits
        self._in_flight: dict[int, int] = {}
        #: set once a run has no answer left being stored, made only for a close waiting
        self._drained: dict[int, asyncio.Event] = {}

    @property
    def _bot(self) -> ExtBot[Any]:
        bot: ExtBot[Any] = self._app.bot
        return bot

    async def post(
        self,
        run: Run,
        chat_id: int,
        question: tuple[Safe, InlineKeyboardMarkup | None],
        carry_on: Callable[[outbox.Outcome], Awaitable[bool]] | None = None,
        *,
        thread_id: int = 0,
        moved: Callable[[int | None], Awaitable[int]] | None = None,
        arm: Callable[[float], None] | None = None,
        urgent: bool = False,
        shown: Shown | None = None,
        rich: bool = False,
    ) -> bool:
        """Post the current question (its text and keyboard): progress saved as "posting",
        sent (again, to the new id ``moved`` returns, if the group became a supergroup), the
        outcome to ``carry_on`` (False: the run stops here; without it, go on whatever
        happened), then opened, saved with its message, and ``arm`` called with its time.
        ``urgent``: first in line when the bot's overall budget is short (a group's question).
        With ``shown``, the question's picture goes with it (bot/services/pictures.py).
        ``rich``: posted as a rich message (the question holds math; a picture then goes
        first, never with the question as its caption). True if the question is open."""
        engine = run.engine
        await save_progress(self._store, run.run_id, engine, None)
        sent = await self._send(chat_id, question, run.lang, thread_id, shown, urgent, rich)
        if sent.status == "moved" and moved is not None:
            chat_id = await moved(sent.new_chat_id)
            sent = await self._send(chat_id, question, run.lang, thread_id, shown, urgent, rich)
        if carry_on is not None and not await carry_on(sent):
            return False
        engine.open(self._clock())
        run.message_id = sent.message_id
        await save_progress(self._store, run.run_id, engine, run.message_id)
        if arm is not None:
            arm(engine.seconds_for(engine.current))
        return True

    async def _send(
        self,
        chat_id: int,
        question: tuple[Safe, InlineKeyboardMarkup | None],
        lang: Lang,
        thread_id: int,
        shown: Shown | None,
        urgent: bool,
        rich: bool,
    ) -> outbox.Outcome:
        """The question's picture (as its caption, or before it), then the question itself as
        a text or rich message unless it went as the caption."""
        text, markup = question
        if shown is not None:
            photo = await self.pictures.send(
                self._bot, chat_id, shown, text, markup, thread_id=thread_id, urgent=urgent
            )
            if photo is not None:
                return photo
        return await send(
            self._bot,
            chat_id,
            text,
            lang=lang,
            rich=rich,
            thread_id=thread_id,
            markup=markup,
            urgent=urgent,
        )

    async def commit(
        self, run: Run, verdict: Verdict, *, points: int | None = None
    ) -> Verdict | None:
        """Store the engine's decision to accept an answer (group commit) before its alert goes
        out, then apply it to the run: the verdict to tell the student. A second answer of the
        same student to the same question while the first is being stored gets "again" (the
        first stands); None if it could not be stored, and the run is as it was."""
        answer = verdict.answer
        if verdict.status != "accepted" or answer is None:
            return verdict
        key = (run.run_id, answer.q_index, answer.user_id)
        earlier = self._storing.get(key)
        if earlier is not None:
            perm = run.engine.plan.permutations[answer.q_index]
            shown = perm.index(earlier.option) if earlier.option in perm else None
            return Verdict("again", earlier, shown)
        self._storing[key] = answer
        run_id = run.run_id
        self._in_flight[run_id] = self._in_flight.get(run_id, 0) + 1
        try:
            await self._store.record_answer(
                to_stored(
                    run.run_id,
                    run.engine.plan.question_ids[answer.q_index],
                    answer,
                    points=points,
                )
            )
            run.engine.apply(answer)
        except Exception:
            log.exception(
                "run %s: could not store an answer of user %s", run.run_id, answer.user_id
            )
            return None
        finally:
            del self._storing[key]
            self._stored_one(run_id)
        return verdict

    def _stored_one(self, run_id: int) -> None:
        """One answer of ``run_id`` is stored (or failed): a close waiting for the last goes on."""
        left = self._in_flight[run_id] - 1
        if left:
            self._in_flight[run_id] = left
            return
        del self._in_flight[run_id]
        drained = self._drained.pop(run_id, None)
        if drained is not None:
            drained.set()

    async def settled(self, run: Run) -> None:
        """Wait until every answer of ``run`` being stored is stored and applied (also those
        judged while waiting)."""
        while self._in_flight.get(run.run_id):
            await self._drained.setdefault(run.run_id, asyncio.Event()).wait()

    async def close(self, run: Run, *timers: str) -> Reveal:
        """Close the open question: its timers cancelled, the reveal decided and saved."""
        for name in timers:
            self.timers.cancel(name)
        await self.settled(run)  # taps that came in time count in the reveal
        reveal = run.engine.close()
        await save_progress(self._store, run.run_id, run.engine, run.message_id)
        return reveal

    async def end(self, run: Run, status: EndStatus, *timers: str) -> None:
        """The run is over: its timers cancelled, its end stored."""
        for name in timers:
            self.timers.cancel(name)
        await self._store.finish_run(run.run_id, status)
