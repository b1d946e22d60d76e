"""Homework in the group: the card, its deadline and the results.

A moderator sets a homework with ``/homework NAME [DURATION]``: it is stored first, then its card
is posted where the command was typed (the quiz, the deadline in the group's time zone, how many
finished, a Start button opening the private chat). Students take it privately
(:mod:`bot.features.homework.attempts`). The card's count is refreshed with *optional* edits,
which the pacer sends only from the group's spare budget (quiz traffic first), at most every
few seconds. A refresh the budget could not afford is tried again as soon as the group's window
has room (one pending refresh per card, showing the count as it is then), after a restart too,
and the card's edits are serialized with its closing, so the card ends with the count
``/homework`` shows.

At the deadline (a timer per homework, plus a sweep every ``sweep_every`` seconds that catches
deadlines the injected clock jumped past) the homework is ended in storage, attempts still running
are stopped (their answers count), and the results are posted in the card's topic. Everything is
read back from storage, so a restart re-arms open homework, ends those whose deadline passed
while the bot was down and posts results that did not go out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from telegram.ext import Application, ContextTypes, Job

from bot.core.bank import Quiz
from bot.core.deadlines import DEFAULT_TZ
from bot.features.homework import views as homework_views
from bot.features.homework.store import HomeworkStore
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.services.appbound import AppBound
from bot.storage import Homework, NewHomework
from bot.tg import outbox
from bot.tg.jobs import job_data

log = logging.getLogger(__name__)

Lookup = Callable[[str], Quiz | None]


class Homeworks(AppBound):
    """Every homework of the bot, group side."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: HomeworkStore,
        lookup: Lookup,
        clock: Callable[[], float],
        *,
        count_interval: float = 5.0,
        sweep_every: float = 30.0,
        spare_in: Callable[[int], float] = lambda chat_id: 0.0,
        podium_in_group: bool = False,
    ) -> None:
        self._app, self._store, self._lookup, self._clock = app, store, lookup, clock
        #: the results (naming students) posted in the group, or sent to the teacher privately
        self._podium_in_group = podium_in_group
        self._count_interval = count_interval
        #: seconds until a chat's budget has room for optional traffic (the pacer's spare_in)
        self._spare_in = spare_in
        self.sweep_every = sweep_every
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}  # homework id -> finished count on its card
        #: called with a homework id when it ends (the attempts still running stop)
        self.on_end: Callable[[int], Any] | None = None

    async def timezone(self, chat_id: int) -> int:
        tz = await self._store.chat_timezone(chat_id)
        return DEFAULT_TZ if tz is None else tz

    # --- setting one ------------------------------------------------------------------------

    async def create(
        self,
        chat_id: int,
        thread_id: int,
        quiz: Quiz,
        *,
        seconds: int,
        lang: Lang,
        set_by: int | None,
        duration: int,
        key: str | None = None,
    ) -> Homework | None:
        """Set ``quiz`` as homework and post its card. With ``key`` (a button's action), once:
        None if that action set it already (its card posted now if the bot died before)."""
        now = self._clock()
        new = NewHomework(
            chat_id=chat_id,
            thread_id=thread_id,
            quiz_id=quiz.id,
            language=lang,
            seconds=seconds,
            set_by=set_by,
            created_at=now,
            deadline=now + duration,
        )
        if key is None:
            hw = await self._store.create_homework(new)
        else:
            hw, created = await self._store.create_homework_once(new, key)
            if not created:
                if hw.card_message_id is None and hw.status == "open":
                    await self._post_card(hw, quiz)  # set, but the bot died before its card
                return None
        log.info(
            "homework %s set in chat %s: quiz %s, deadline in %s s",
            hw.homework_id,
            chat_id,
            quiz.id,
            duration,
        )
        await self._post_card(hw, quiz)
        return hw

    async def _post_card(self, hw: Homework, quiz: Quiz) -> None:
        """A new homework's card in its group, and its deadline armed."""
        sent = await outbox.send(
            self._bot,
            hw.chat_id,
            await self._card_text(hw, quiz, 0),
            thread_id=hw.thread_id,
            markup=homework_views.homework_card_markup(
                hw.language, self._bot.username, hw.homework_id
            ),
        )
        if sent.ok:
            await self._store.set_homework_card(hw.homework_id, sent.message_id)
        self._shown[hw.homework_id] = 0
        self.arm(hw)

    async def _card_text(self, hw: Homework, quiz: Quiz, finished: int) -> Safe:
        tz = await self.timezone(hw.chat_id)
        return homework_views.homework_card(
            quiz,
            hw.language,
            hw,
            tz,
            finished,
        )

    # --- timers -----------------------------------------------------------------------------

    def arm(self, hw: Homework) -> None:
        """The deadline timer of an open homework."""
        self._cancel(f"hwend:{hw.homework_id}")
        self._jobs.run_once(
            self._deadline_job,
            when=max(hw.deadline - self._clock(), 0.0),
            name=f"hwend:{hw.homework_id}",
            data=hw.homework_id,
        )

    async def _deadline_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A homework's deadline."""
        hw = await self._store.homework(job_data(context, int))
        if hw is None or hw.status != "open":
            return
        if hw.deadline > self._clock():  # the timer ran early (the clock moved): again later
            self.arm(hw)
            return
        await self.end(hw.homework_id)

    async def sweep(self, context: ContextTypes.DEFAULT_TYPE | None = None) -> None:
        """End every open homework whose deadline passed."""
        now = self._clock()
        for hw in await self._store.open_homework():
            if hw.deadline <= now:
                await self.end(hw.homework_id)

    async def restore(self) -> None:
        """At start-up: re-arm open homework; deadlines already past and results that did not
        go out are handled as soon as the bot runs."""
        for hw in await self._store.open_homework():
            self.arm(hw)
            self.refresh_card(hw.homework_id)  # a refresh skipped before the stop catches up
        for hw in await self._store.unposted_homework():
            self._jobs.run_once(
                self._post_job, when=0.0, name=f"hwpost:{hw.homework_id}", data=hw.homework_id
            )
        self._jobs.run_repeating(
            self.sweep, interval=self.sweep_every, first=self.sweep_every, name="homework-sweep"
        )

    async def _post_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Results that were due when the bot stopped."""
        hw_id = job_data(context, int)
        async with self._lock(hw_id):
            await self._post_results(hw_id)

    # --- the end ----------------------------------------------------------------------------

    async def end(self, homework_id: int, *, stopped: bool = False) -> bool:
        """End a homework now (deadline, or ``/homework stop``); False if it was not open."""
        async with self._lock(homework_id):
            if not await self._store.end_homework(homework_id, self._clock()):
                return False
            self._cancel(f"hwend:{homework_id}")
            self._cancel(f"hwcard:{homework_id}")
            log.info("homework %s ended%s", homework_id, " early" if stopped else "")
            if self.on_end is not None:
                await self.on_end(homework_id)
            await self._post_results(homework_id, stopped=stopped)
            return True

    async def _post_results(self, homework_id: int, *, stopped: bool = False) -> None:
        hw = await self._store.homework(homework_id)
        if hw is None or hw.results_posted:
            return
        quiz = self._lookup(hw.quiz_id)
        lang: Lang = hw.language
        finished, _ = await self._store.attempt_counts(homework_id)
        if quiz is not None:
            early = stopped or (hw.ended_at or 0) < hw.deadline
            text = homework_views.homework_results(
                quiz,
                lang,
                await self._store.homework_results(homework_id),
                await self._store.homework_tallies(homework_id),
                stopped=early,
            )
            if not self._podium_in_group:  # private work: the teacher gets the podium privately
                if hw.set_by is not None:
                    told = await outbox.send(self._bot, hw.set_by, text)
                    if told.status == "stopped":
                        return
                    if not told.ok:
                        log.warning("homework %s: results not sent to its teacher", homework_id)
                ended = t(lang, "hw_ended_private", title=quiz.title(lang), count=finished)
                text = join("\n", [ended, t(lang, "hw_results_stopped")]) if early else ended
            sent = await outbox.send(self._bot, hw.chat_id, text, thread_id=hw.thread_id)
            if sent.status == "moved" and sent.new_chat_id is not None:
                await self._store.migrate_chat(hw.chat_id, sent.new_chat_id)
                sent = await outbox.send(self._bot, sent.new_chat_id, text, thread_id=hw.thread_id)
            if sent.status == "stopped":  # not sent, the bot is stopping: posted after the restart
                return
            if sent.status == "unknown":
                log.warning("homework %s: results may not have been posted", homework_id)
        await self._store.homework_results_posted(homework_id)
        self._shown.pop(homework_id, None)
        hw = await self._store.homework(homework_id)
        if hw is not None and quiz is not None and hw.card_message_id is not None:
            await outbox.edit(
                self._bot, hw.chat_id, hw.card_message_id, await self._card_text(hw, quiz, finished)
            )

    # --- the card's count -------------------------------------------------------------------

    def refresh_card(self, homework_id: int, *, force: bool = False) -> None:
        """A student finished (or, ``force``, the group's time zone changed): update the card
        soon, from the group's spare budget."""
        if force:
            self._shown[homework_id] = -1
        name = f"hwcard:{homework_id}"
        if not self._jobs.get_jobs_by_name(name):
            self._jobs.run_once(
                self._card_job, when=self._count_interval, name=name, data=homework_id
            )

    async def _card_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Refresh a card's finished count if the group's budget has room; else again as soon
        as it has."""
        hw_id = job_data(context, int)
        async with self._lock(hw_id):  # never after the card's closing edit
            retry = await self._refresh(hw_id)
        if retry is not None:
            self._cancel(f"hwcard:{hw_id}")  # one pending refresh per card
            self._jobs.run_once(self._card_job, when=retry, name=f"hwcard:{hw_id}", data=hw_id)

    async def _refresh(self, hw_id: int) -> float | None:
        """Edit the card to the count stored now: None when done (or nothing to do), else the
        seconds to wait before trying again."""
        hw = await self._store.homework(hw_id)
        quiz = self._lookup(hw.quiz_id) if hw is not None else None
        if hw is None or quiz is None or hw.status != "open" or hw.card_message_id is None:
            return None
        finished, _ = await self._store.attempt_counts(hw_id)
        if finished == self._shown.get(hw_id):
            return None
        result = await outbox.edit(
            self._bot,
            hw.chat_id,
            hw.card_message_id,
            await self._card_text(hw, quiz, finished),
            markup=homework_views.homework_card_markup(
                hw.language,
                self._bot.username,
                hw_id,
            ),
            optional=True,
        )
        if result.ok:
            self._shown[hw_id] = finished
            return None
        if result.status == "skipped":  # no spare budget now: when the window has room
            return max(self._spare_in(hw.chat_id) + 0.05, min(self._count_interval, 1.0) / 4)
        if result.status in ("failed", "unknown"):  # a passing error: later
            return self._count_interval
        return None

    # --- helpers ----------------------------------------------------------------------------

    def _lock(self, homework_id: int) -> asyncio.Lock:
        return self._locks.setdefault(homework_id, asyncio.Lock())

    def _cancel(self, name: str) -> None:
        job: Job[Any]
        for job in self._jobs.get_jobs_by_name(name):
            job.schedule_removal()
