"""Spaced review of missed questions over simulated days, and the daily reminder."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ZERO, button_data, correct_label, explained
from reportkit import review_question
from reviewkit import say

from bot.core.deadlines import parse_offset
from bot.core.engine import DAY
from bot.core.spacing import first_review
from bot.features.review import sessions as review
from bot.features.review.sessions import next_fire, parse_time

HOUR = 3600.0


def harness(tg: FakeTelegram, db: Path, clock: ManualClock) -> BotHarness:
    return BotHarness(tg, db, clock=clock)


def test_parsing_and_next_fire() -> None:
    assert parse_time("20:30") == 20 * 60 + 30
    assert parse_time("৭:০৫") == 7 * 60 + 5
    assert parse_time("24:00") is None
    assert parse_time("8pm") is None
    assert parse_offset("+6") == 360
    assert parse_offset("+05:30") == 330
    assert parse_offset("UTC-3:30") == -210
    assert parse_offset("+15") is None
    assert parse_offset("6") is None
    midnight = 1_700_006_400.0  # a UTC midnight
    assert midnight % DAY == 0
    # 20:00 at UTC+6 is 14:00 UTC
    assert next_fire(midnight + 13 * HOUR, 360, 20 * 60) == HOUR
    assert next_fire(midnight + 14 * HOUR, 360, 20 * 60) == DAY  # just fired: tomorrow
    assert next_fire(midnight + 15 * HOUR, 360, 20 * 60) == DAY - HOUR
    assert next_fire(midnight + 23 * HOUR, 360, 60) == 20 * HOUR  # 01:00 local = 19:00 UTC


async def test_review_over_simulated_days(
    tg: FakeTelegram, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    student = tg.add_user(501, "Rina", language_code="en")
    clock = ManualClock(time.time(), running=True)
    async with harness(tg, db_path, clock) as bot:
        store = bot.services.store
        first = await say(tg, student, "/review")
        assert "Nothing to review yet" in first.text

        # A wrong answer in practice puts the question into review, due a day later.
        practice = await say(tg, student, "/quiz zero")
        right = correct_label(practice)
        wrong = next(x for x in "ABCD" if x != right)
        await tg.wait_answered(
            tg.tap(student.id, student, practice.message_id, button_data(practice, wrong))
        )
        await tg.wait_for(lambda: tg.find_message(student.id, "Question 2/8"))
        nothing = await say(tg, student, "/review")
        assert nothing.text == (
            "🎉 Nothing to review right now. The next question is due in a day."
        )

        # A day later it is due: right → FSRS brings it back in 2 days.
        clock.advance(DAY + 60)
        asked = await say(tg, student, "/review")
        assert asked.text.startswith("🔁 Review · ZeRO and Sharded Optimizers · 1 due now")
        assert ZERO.questions[0].text.en in asked.text
        label = correct_label(asked)
        data = button_data(asked, label)
        answer = await tg.wait_answered(tg.tap(student.id, student, asked.message_id, data))
        assert answer.text == "✅ Right!"
        assert not answer.show_alert
        done = await tg.wait_for(lambda: tg.find_message(student.id, "Review finished"))
        assert done.text == (
            "🏁 Review finished: 1 of 1 right.\n"
            "None left due now. The next question is due in 2 days."
        )
        edited = tg.stored_message(student.id, asked.message_id)
        assert edited is not None
        # the answer buttons are gone; what is left is "report a problem"
        assert [[text for text, _ in row] for row in edited.buttons] == [["⚠️ Report a problem"]]
        assert "It comes back in 2 days." in edited.text
        assert explained(ZERO.questions[0]).en in edited.text
        # The same button again changes nothing.
        again = await tg.wait_answered(tg.tap(student.id, student, asked.message_id, data))
        assert again.text is not None
        assert "already answered" in again.text
        # Someone else's card, or forged data, is refused.
        intruder = tg.add_user(502, "Evil")
        tg.start_bot(intruder)
        forged = await tg.wait_answered(tg.tap(intruder.id, intruder, asked.message_id, data))
        assert forged.text == "This button is no longer valid."

        # A day later: not yet. Two days after the answer: due; wrong → tomorrow.
        clock.advance(DAY)
        assert "due in a day" in (await say(tg, student, "/review")).text
        clock.advance(DAY)
        asked = await say(tg, student, "/review")
        assert "1 due now" in asked.text
        label = next(x for x in "ABCD" if x != correct_label(asked))
        answer = await tg.wait_answered(
            tg.tap(student.id, student, asked.message_id, button_data(asked, label))
        )
        assert answer.text is not None
        assert answer.text.startswith("❌ Wrong. The answer is ")
        await tg.wait_for(
            lambda: (
                "Not learnt yet: it comes back in a day."
                in (tg.stored_message(student.id, asked.message_id) or asked).text
            )
        )
        done = await tg.wait_for(lambda: tg.find_message(student.id, "0 of 1 right"))
        assert done.text.endswith("The next question is due in a day.")
        cards = await store.due_cards(student.id, clock() + DAY + 1, limit=5)
        assert [c.question_id for c in cards] == [ZERO.questions[0].id]
        assert cards[0].memory.stability < 1  # forgotten: a short memory again

        # A session asks at most SESSION questions, then says how many are still due.
        monkeypatch.setattr(review, "SESSION", 2)
        await store.add_missed(
            [(student.id, "zero", q.id) for q in ZERO.questions[1:4]], *first_review(clock() - DAY)
        )
        clock.advance(DAY + 60)
        for step in (1, 2):
            asked = (
                await tg.wait_for(lambda: review_question(tg, student))
                if step == 2
                else (await say(tg, student, "/review"))
            )
            assert "4 due now" in asked.text if step == 1 else "3 due now" in asked.text
            await tg.wait_answered(
                tg.tap(
                    student.id, student, asked.message_id, button_data(asked, correct_label(asked))
                )
            )
        done = await tg.wait_for(lambda: tg.find_message(student.id, "2 of 2 right"))
        assert done.text.endswith("2 more due now: /review again")


async def test_reminder_fires_after_restart(tg: FakeTelegram, db_path: Path) -> None:
    student = tg.add_user(601, "Tanvir", language_code="bn")
    tz = 6 * HOUR  # Bangladesh
    local_midnight = (time.time() + tz) // DAY * DAY - tz + 10 * DAY  # a day in the future
    clock = ManualClock(local_midnight + 10 * HOUR)  # 10:00 in Dhaka
    async with harness(tg, db_path, clock) as bot:
        await say(tg, student, "/lang en")
        ask = await say(tg, student, "/remind 20:00")
        assert "Which time zone" in ask.text
        assert [text for row in ask.buttons for text, _ in row] == [
            "Bangladesh (UTC+6)",
            "India (UTC+5:30)",
            "UTC",
        ]
        await tg.wait_answered(
            tg.tap(student.id, student, ask.message_id, button_data(ask, "Bangladesh (UTC+6)"))
        )
        await tg.wait_for(
            lambda: (
                "remind you at 20:00 (UTC+6)"
                in (tg.stored_message(student.id, ask.message_id) or ask).text
            )
        )
        jobs = bot.app.job_queue.get_jobs_by_name(f"remind:{student.id}")
        assert len(jobs) == 1
        # The offset is asked once: the next /remind just sets the time.
        changed = await say(tg, student, "/remind 20:30")
        assert changed.text == (
            "⏰ Done: on days with questions to review I'll remind you at 20:30 (UTC+6)."
        )
        await say(tg, student, "/remind 20:00")
        await bot.services.store.add_missed(
            [(student.id, "zero", ZERO.questions[2].id)], *first_review(clock() + HOUR - DAY)
        )
        sent = len(tg.messages(student.id))

    # Down until a moment before 20:00 in Dhaka; the question is due by then.
    clock.now = local_midnight + 20 * HOUR - 1.5
    async with harness(tg, db_path, clock) as bot:
        # Armed at start for 1.5 s from now; those seconds pass (on the bot's clock at once,
        # however long the machine takes to get there), so the reminder re-arms for tomorrow.
        clock.now = local_midnight + 20 * HOUR + 0.1
        reminder = await tg.wait_for(
            lambda: tg.find_message(student.id, "due for review today"), timeout=10
        )
        assert reminder.text == "📚 Questions due for review today: 1. /review"
        assert len(tg.messages(student.id)) == sent + 1
        await tg.wait_for(lambda: bot.app.job_queue.get_jobs_by_name(f"remind:{student.id}"))
        off = await say(tg, student, "/remind off")
        assert off.text == "🔕 Reminder off."
        assert bot.app.job_queue.get_jobs_by_name(f"remind:{student.id}") == ()
        stored = await bot.services.store.student(student.id)
        assert stored is not None
        assert stored.remind_minutes is None
        assert stored.tz_minutes == 360
