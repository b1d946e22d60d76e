"""Spaced review of missed questions (``/review``) and the daily reminder (``/remind``).

Every question a student missed, in a group quiz or in practice, is a card with the time it is
due again, scheduled by FSRS (:func:`bot.core.spacing.review`: a miss comes back the next day, a
remembered card later each time, until it is learnt). ``/review`` plays the due ones like
private practice: tap, verdict and explanation, next; a session asks at most ``SESSION``
questions and ends with how many remain due and when the next ones come.

A session keeps no state in memory: each question's buttons carry the card id, the option order
and the session's running count, so a tap works the same after a restart. What a button cannot
carry is stored (``Store.open_review``): a typed question waiting for the student's text, and the
options ticked on a several-answers question (☐/☑ on the student's own keyboard, then ✔ Submit;
only full marks count as remembered for FSRS). Both survive a restart. Time comes only from the
injected clock (``Services.clock``), so tests can jump days.

The reminder is one job per student (``remind:<user id>``) in the JobQueue, armed for the next
reminder time by the injected clock, re-armed after each firing and restored from the database
at start-up.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Collection, Sequence
from datetime import timedelta
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.ext import Application, CallbackContext, Job

from bot import render
from bot.banks.catalog import Catalog
from bot.core import spacing
from bot.core.bank import MAX_ANSWER_CHARS, Question, Quiz
from bot.core.engine import DAY, Answer, Verdict
from bot.core.mathtext import question_has_math
from bot.core.scoring import from_letters, grade_choice, grade_typed, letters, typed_readable
from bot.features.review import buttons as review_buttons
from bot.features.review import views as review_views
from bot.features.review.recaps import Recaps
from bot.features.review.store import ReviewStore
from bot.i18n import ascii_digits, num, t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.render import callbacks
from bot.render import teacher as render_teacher
from bot.services.appbound import AppBound
from bot.services.driver import Notice, Tap, edit, send, sent_after
from bot.services.serial import KeyedLocks
from bot.storage import Card, OpenReview
from bot.tg import outbox
from bot.tg.jobs import job_data

log = logging.getLogger(__name__)

SESSION = 10  # questions per /review
_TIME = re.compile(r"([01]?[0-9]|2[0-3])[:.]([0-5][0-9])")
TZ_CHOICES = ((360, "tz_bd"), (330, "tz_in"), (0, "tz_utc"))


def parse_time(text: str) -> int | None:
    """``HH:MM`` (Bengali digits too) → minutes after midnight."""
    m = _TIME.fullmatch(ascii_digits(text).strip())
    return int(m[1]) * 60 + int(m[2]) if m else None


def show_time(lang: Lang, minutes: int) -> str:
    return num(lang, f"{minutes // 60:02d}:{minutes % 60:02d}")


def next_fire(now: float, tz_minutes: int, remind_minutes: int) -> float:
    """Seconds from ``now`` to the next ``remind_minutes`` local time (UTC + ``tz_minutes``)."""
    local = now + tz_minutes * 60
    target = local - local % DAY + remind_minutes * 60
    if target <= local + 0.5:
        target += DAY
    return target - local


class Reviews(AppBound):
    """``/review`` sessions and review reminders."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        store: ReviewStore,
        catalog: Catalog,
        clock: Callable[[], float],
        rng: random.Random,
        recaps: Recaps,
        default: Lang,
    ) -> None:
        self._app, self._store, self._catalog = app, store, catalog
        self._clock, self._rng, self._recaps, self._default = clock, rng, recaps, default
        self._typing = KeyedLocks()  # a student's texts, one at a time

    # --- the session ---------------------------------------------------------------------------

    def _lookup(self, card: Card) -> tuple[Quiz, Question] | None:
        quiz = self._catalog.matching(card.quiz_id, [card.question_id])
        question = (
            next((q for q in quiz.questions if q.id == card.question_id), None) if quiz else None
        )
        return (quiz, question) if quiz is not None and question is not None else None

    async def begin(self, chat_id: int, user_id: int, lang: Lang) -> None:
        """``/review``: the first due question, or when the next one comes."""
        if not await self._ask(chat_id, user_id, lang, step=1, right=0):
            now = self._clock()
            upcoming = await self._store.next_due(user_id, now)
            text = (
                t(lang, "review_empty")
                if upcoming is None
                else t(lang, "review_nothing_due", when=render.when(lang, upcoming - now))
            )
            await outbox.send(self._bot, chat_id, text)

    async def _ask(self, chat_id: int, user_id: int, lang: Lang, *, step: int, right: int) -> bool:
        """Send the next due question; False if none is due."""
        now = self._clock()
        while True:
            cards = await self._store.due_cards(user_id, now)
            if not cards:
                return False
            card = cards[0]
            found = self._lookup(card)
            if found is not None:
                break
            await self._store.drop_card(card.card_id)  # no longer in any bank
        quiz, question = found
        perm = list(range(len(question.options)))
        if quiz.shuffle:
            self._rng.shuffle(perm)
        due = await self._store.due_count(user_id, now)
        text = review_views.review_question(quiz, question, perm, lang, due=due)
        rich = question_has_math(question)
        if question.typed:  # the answer comes as a message: stored before it is asked
            opened = OpenReview(card.card_id, step, right, None, "")
            await self._store.set_open_review(user_id, opened)
            sent = await send(self._bot, chat_id, text, lang=lang, rich=rich)
            if sent.message_id is not None:  # its message, for the verdict to edit
                await self._store.set_open_message(user_id, card.card_id, sent.message_id)
            return True
        await self._store.set_open_review(user_id, None)
        keyboard = self._keyboard(card.card_id, question, perm, lang, step, right)
        await send(self._bot, chat_id, text, lang=lang, rich=rich, markup=keyboard)
        return True

    @staticmethod
    def _keyboard(
        card_id: int,
        question: Question,
        perm: Sequence[int],
        lang: Lang,
        step: int,
        right: int,
        ticked: Collection[int] = (),
    ) -> InlineKeyboardMarkup | None:
        """A review question's buttons (the session travels in their data): ☐/☑ per option
        (``ticked``: shown positions) and ✔ Submit when several are right."""
        order = tuple(perm)
        return render.own_keyboard(
            question,
            lang,
            lambda shown: review_buttons.ReviewData(card_id, order, shown, step, right),
            ticked,
        )

    async def waiting(self, user_id: int) -> Question | None:
        """The typed ``/review`` question waiting for the student's answer, if any."""
        waiting = await self._store.open_review(user_id)
        card = await self._store.card(waiting.card_id) if waiting is not None else None
        found = self._lookup(card) if card is not None else None
        return found[1] if found is not None and found[1].typed else None

    async def typed(self, chat_id: int, user_id: int, text: str, message_id: int) -> bool:
        """A text the student sent: the answer to the typed ``/review`` question waiting for
        one (True), or not for review (False). One text of a student at a time, so a text
        sent before the next question was asked finds that question's message stored and is
        told which question waits now."""
        async with self._typing.hold(user_id):
            return await self._typed(chat_id, user_id, text, message_id)

    async def _typed(self, chat_id: int, user_id: int, text: str, message_id: int) -> bool:
        waiting = await self._store.open_review(user_id)
        if waiting is None:
            return False
        card = await self._store.card(waiting.card_id)
        found = self._lookup(card) if card is not None else None
        if card is None or found is None:  # gone from the banks: nothing waits any more
            await self._store.set_open_review(user_id, None)
            return False
        if not found[1].typed:  # a several-answers question's ticks
            return False
        lang = await self._recaps.language_of(chat_id, self._default)
        quiz, question = found
        if not sent_after(waiting.message_id, message_id):  # it answered an earlier question
            notice = render.typed_superseded(lang, question)
            await outbox.send(self._bot, chat_id, notice, reply_to=message_id)
            return True
        if not typed_readable(question, text):
            await outbox.send(self._bot, chat_id, t(lang, "typed_not_number"), reply_to=message_id)
            return True
        if not await self._store.close_open_review(user_id, card.card_id):
            return True  # another text of the same moment took it
        fraction, matched = grade_typed(question, text)
        answer = Answer(
            0,
            user_id,
            -1,
            fraction >= 1,
            0,
            self._clock(),
            typed=text.strip()[:MAX_ANSWER_CHARS],
            credit=fraction,
            matched=matched,
        )
        verdict = render.typed_verdict(lang, question, answer)
        schedule = await self._judged(card, answer.correct, lang)
        if schedule is None:
            await outbox.send(self._bot, chat_id, t(lang, "review_stale"), reply_to=message_id)
            return True
        shown = review_views.review_typed_answered(
            quiz, question, lang, given=answer.typed or "", verdict=verdict, schedule=schedule
        )
        report = render_teacher.card_report_keyboard(lang, card.card_id)
        rich = question_has_math(question)
        if waiting.message_id is not None:
            await edit(
                self._bot, chat_id, waiting.message_id, shown, lang=lang, rich=rich, markup=report
            )
        else:  # the question's message is unknown (its send failed): the verdict on its own
            await send(self._bot, chat_id, shown, lang=lang, rich=rich, markup=report)
        await self._next(chat_id, user_id, lang, waiting.step, waiting.right + int(answer.correct))
        return True

    async def _judged(self, card: Card, correct: bool, lang: Lang) -> Safe | None:
        """The card answered, its next review stored: when it comes back (None: the answer
        was stale, another one came first)."""
        now = self._clock()
        memory, due = spacing.review(card.memory, correct, now)
        if not await self._store.review_answered(card.card_id, memory, due, now):
            return None
        if due is None:
            return t(lang, "review_learnt")
        key = "review_up" if correct else "review_reset"
        return t(lang, key, when=render.when(lang, due - now))

    async def _next(self, chat_id: int, user_id: int, lang: Lang, step: int, right: int) -> None:
        """The session's next question, or its end."""
        if step >= SESSION or not await self._ask(
            chat_id, user_id, lang, step=step + 1, right=right
        ):
            await self._done(chat_id, user_id, lang, answered=step, right=right)

    async def tap(self, tap: Tap[review_buttons.ReviewData]) -> Notice:
        """A tap on a review question: (notification, as an alert)."""
        chat_id, user_id, message_id, lang = tap.chat_id, tap.user_id, tap.message_id, tap.lang
        data = tap.button
        card = await self._store.card(data.card_id)
        found = self._lookup(card) if card is not None else None
        if card is None or card.user_id != user_id or found is None:
            return t(lang, "alert_invalid"), True
        quiz, question = found
        perm, shown, step, right = data.order, data.shown, data.step, data.right
        if len(perm) != len(question.options) or question.typed:
            return t(lang, "alert_invalid"), True
        if question.kind == "multiple":
            return await self._tick_or_submit(tap, card, quiz, question)
        if shown == callbacks.SUBMIT:
            return t(lang, "alert_invalid"), True
        correct = perm[shown] == question.correct
        schedule = await self._judged(card, correct, lang)
        if schedule is None:
            return t(lang, "review_stale"), True
        verdict = (
            t_plain(lang, "alert_right_practice")
            if correct
            else t_plain(
                lang, "alert_wrong_practice", label=render.label(perm.index(question.correct))
            )
        )
        await edit(
            self._bot,
            chat_id,
            message_id,
            review_views.review_answered(
                quiz, question, perm, lang, chosen=shown, verdict=verdict, schedule=schedule
            ),
            lang=lang,
            rich=question_has_math(question),
            markup=render_teacher.card_report_keyboard(lang, card.card_id),
        )
        await self._next(chat_id, user_id, lang, step, right + int(correct))
        return verdict, False

    async def _tick_or_submit(
        self, tap: Tap[review_buttons.ReviewData], card: Card, quiz: Quiz, question: Question
    ) -> Notice:
        """Several right answers: an option ticks or unticks it (stored; the keyboard shows
        ☐/☑), Submit judges what is ticked: partial credit is shown, but only full marks
        count as remembered."""
        if card.due is None or card.due > self._clock():
            return t(tap.lang, "review_stale"), True
        if tap.button.shown != callbacks.SUBMIT:
            return await self._tick(tap, card, quiz, question)
        stored = await self._store.open_review(tap.user_id)
        if stored is None or stored.card_id != card.card_id or not stored.picked:
            return render.choice_alert(tap.lang, ()), True
        return await self._submit(tap, card, quiz, question, from_letters(stored.picked))

    async def _tick(
        self, tap: Tap[review_buttons.ReviewData], card: Card, quiz: Quiz, question: Question
    ) -> Notice:
        """An option ticked or unticked, in one transaction: the keyboard and alert show the
        choice so far."""
        data, lang, user_id = tap.button, tap.lang, tap.user_id
        perm = data.order
        opened = OpenReview(card.card_id, data.step, data.right, tap.message_id, "")
        picked = await self._store.toggle_review_pick(user_id, opened, letters((perm[data.shown],)))
        ticked = sorted(perm.index(o) for o in from_letters(picked) if o in perm)
        due = await self._store.due_count(user_id, self._clock())
        text = review_views.review_question(quiz, question, perm, lang, due=due)
        keyboard = self._keyboard(card.card_id, question, perm, lang, data.step, data.right, ticked)
        rich = question_has_math(question)
        await edit(
            self._bot, tap.chat_id, tap.message_id, text, lang=lang, rich=rich, markup=keyboard
        )
        return render.choice_alert(lang, ticked), False

    async def _submit(
        self,
        tap: Tap[review_buttons.ReviewData],
        card: Card,
        quiz: Quiz,
        question: Question,
        chosen: tuple[int, ...],
    ) -> Notice:
        """The options ``chosen`` (bank indices) submitted: graded, the card scheduled as
        passed only on full marks, the question closed with the student's picks, then on."""
        data, lang, user_id = tap.button, tap.lang, tap.user_id
        perm = data.order
        fraction = grade_choice(question, chosen, quiz.all_or_nothing)
        answer = Answer(
            0, user_id, chosen[0], fraction >= 1, 0, self._clock(), picked=chosen, credit=fraction
        )
        schedule = await self._judged(card, answer.correct, lang)
        if schedule is None:
            return t(lang, "review_stale"), True
        await self._store.close_open_review(user_id, card.card_id)
        verdict = render.verdict_prefix(
            lang, Verdict("accepted", answer), question, perm, practice=True
        )
        ticked = [perm.index(o) for o in chosen if o in perm]
        await edit(
            self._bot,
            tap.chat_id,
            tap.message_id,
            review_views.review_answered(
                quiz, question, perm, lang, chosen=ticked, verdict=verdict, schedule=schedule
            ),
            lang=lang,
            rich=question_has_math(question),
            markup=render_teacher.card_report_keyboard(lang, card.card_id),
        )
        await self._next(tap.chat_id, user_id, lang, data.step, data.right + int(answer.correct))
        return verdict, False

    async def _done(
        self, chat_id: int, user_id: int, lang: Lang, *, answered: int, right: int
    ) -> None:
        now = self._clock()
        due = await self._store.due_count(user_id, now)
        upcoming = await self._store.next_due(user_id, now)
        if due:
            tail = t(lang, "review_more", due=due)
        elif upcoming is not None:
            tail = t(lang, "review_next", when=render.when(lang, upcoming - now))
        else:
            tail = t(lang, "review_all_learnt")
        await outbox.send(
            self._bot,
            chat_id,
            join("\n", [t(lang, "review_done", right=right, answered=answered), tail]),
        )

    # --- reminders -----------------------------------------------------------------------------

    async def restore(self) -> int:
        """Arm every stored reminder (at start-up); the number armed."""
        armed = 0
        for student in await self._store.reminders():
            if student.tz_minutes is not None and student.remind_minutes is not None:
                self.arm(student.user_id, student.tz_minutes, student.remind_minutes)
                armed += 1
        if armed:
            log.info("%d review reminders restored", armed)
        return armed

    def arm(self, user_id: int, tz_minutes: int, remind_minutes: int) -> None:
        self.disarm(user_id)
        delay = next_fire(self._clock(), tz_minutes, remind_minutes)
        self._jobs.run_once(
            self._fire, when=timedelta(seconds=delay), name=f"remind:{user_id}", data=user_id
        )

    def disarm(self, user_id: int) -> None:
        job: Job[Any]
        for job in self._jobs.get_jobs_by_name(f"remind:{user_id}"):
            job.schedule_removal()

    async def _fire(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        user_id = job_data(context, int)
        student = await self._store.student(user_id)
        if student is None or student.remind_minutes is None or student.tz_minutes is None:
            return
        self.arm(user_id, student.tz_minutes, student.remind_minutes)  # tomorrow's
        due = await self._store.due_count(user_id, self._clock())
        if not due:
            return
        lang = await self._recaps.language_of(user_id, self._default)
        outcome = await outbox.send(self._bot, user_id, t(lang, "remind_message", due=due))
        if outcome.status == "gone":
            await self._recaps.unreachable(user_id)

    async def set_reminder(
        self, user_id: int, minutes: int | None, tz_minutes: int | None
    ) -> int | None:
        """Store the reminder (None: off) and the offset if given; arm it if the offset is
        known. Returns the offset in use (None: still to ask)."""
        if tz_minutes is not None:
            await self._store.set_timezone(user_id, tz_minutes)
        await self._store.set_reminder(user_id, minutes)
        if minutes is None:
            self.disarm(user_id)
            return tz_minutes
        student = await self._store.student(user_id)
        tz = student.tz_minutes if student is not None else None
        if tz is not None:
            self.arm(user_id, tz, minutes)
        return tz
