"""Spaced review scheduled by FSRS (bot/core/spacing.py), and review cards stored by the Leitner
boxes before it: upgraded in place, they keep their due dates (followed over days with the
injected clock)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clockkit import ManualClock
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ZERO, button_data, correct_label
from reviewkit import say

from bot.app.store import Store
from bot.core.spacing import DAY, LEARNT_DAYS, Memory, first_review, review
from bot.storage.schema import migrate

T0 = 1_750_000_000.0  # a fixed moment: schedules are reproducible


def test_a_miss_comes_back_the_next_day_and_right_answers_space_it_out() -> None:
    memory, due = first_review(T0)
    assert due == T0 + DAY
    gaps = []
    now = due
    for _ in range(5):
        memory, next_due = review(memory, True, now)
        assert next_due is not None
        gaps.append(round((next_due - now) / DAY))
        now = next_due
    assert gaps == sorted(gaps) and gaps[0] >= 2 and gaps[-1] > 3 * gaps[0]
    # a miss shortens the memory and brings the question back soon
    forgotten, back = review(memory, False, now)
    assert forgotten.stability < memory.stability
    assert back is not None and back - now < gaps[-1] * DAY / 4
    # the same history gives the same schedule (no random fuzz)
    assert review(memory, False, now) == (forgotten, back)


def test_graded_pass_fail_as_good_and_again() -> None:
    base = Memory(stability=10.0, difficulty=5.0, last_review=T0)
    passed, later = review(base, True, T0 + 10 * DAY)
    failed, sooner = review(base, False, T0 + 10 * DAY)
    assert later is not None and sooner is not None
    assert passed.difficulty < base.difficulty < failed.difficulty
    assert later - (T0 + 10 * DAY) > 10 * DAY > sooner - (T0 + 10 * DAY)


def test_a_card_that_would_wait_half_a_year_is_learnt() -> None:
    strong = Memory(stability=150.0, difficulty=2.0, last_review=T0)
    memory, due = review(strong, True, T0 + 150 * DAY)
    assert due is None  # learnt: leaves the review
    assert memory.stability >= LEARNT_DAYS
    # but a miss keeps it in review, whatever it knew before
    _, due = review(strong, False, T0 + 150 * DAY)
    assert due is not None


def _version_6_file_with_leitner_cards(path: Path, now: float) -> None:
    """A database as the last version with Leitner boxes left it: box 2 due in 2 days, box 5
    due in 20 days, a learnt card (due NULL)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrate(conn, target=6)
        conn.executemany(
            "INSERT INTO review_cards (card_id, user_id, quiz_id, question_id, box, due)"
            " VALUES (?, ?, 'zero', ?, ?, ?)",
            [
                (1, 801, ZERO.questions[0].id, 2, now + 2 * DAY),
                (2, 801, ZERO.questions[1].id, 5, now + 20 * DAY),
                (3, 801, ZERO.questions[2].id, 5, None),
            ],
        )
    finally:
        conn.close()


async def test_leitner_cards_keep_their_due_dates_after_the_upgrade(db_path: Path) -> None:
    _version_6_file_with_leitner_cards(db_path, T0)
    store = await Store.open(db_path)
    try:
        cards = {c.card_id: c for c in await store.due_cards(801, T0 + 365 * DAY, limit=10)}
        assert sorted(cards) == [1, 2]  # the learnt one stays learnt
        assert cards[1].due == T0 + 2 * DAY
        assert cards[2].due == T0 + 20 * DAY
        # the box's interval became the stability, the last review one interval before due
        assert cards[1].memory == Memory(3.0, 5.0, T0 + 2 * DAY - 3 * DAY)
        assert cards[2].memory == Memory(30.0, 5.0, T0 + 20 * DAY - 30 * DAY)
        assert await store.next_due(801, T0) == T0 + 2 * DAY
    finally:
        await store.close()


async def test_upgraded_cards_come_due_on_their_old_dates_over_days(
    tg: FakeTelegram, db_path: Path
) -> None:
    """Day by day on the injected clock: a box-2 card stored before FSRS is not asked before its
    old due date, is asked on it, and a right answer then schedules it by FSRS from the
    stability its box gave it."""
    _version_6_file_with_leitner_cards(db_path, T0)
    student = tg.add_user(801, "Rina", language_code="en")
    clock = ManualClock(T0)
    async with BotHarness(tg, db_path, clock=clock) as bot:
        for day in (0, 1):
            clock.now = T0 + day * DAY + 60
            reply = await say(tg, student, "/review")
            assert reply.text == (
                "🎉 Nothing to review right now. The next question is due in a day."
                if day == 1
                else "🎉 Nothing to review right now. The next question is due in 2 days."
            )
        clock.now = T0 + 2 * DAY + 60
        asked = await say(tg, student, "/review")
        assert asked.text.startswith("🔁 Review · ZeRO and Sharded Optimizers · 1 due now")
        assert ZERO.questions[0].text.en in asked.text
        data = button_data(asked, correct_label(asked))
        await tg.wait_answered(tg.tap(student.id, student, asked.message_id, data))
        _, expected_due = review(Memory(3.0, 5.0, T0 - DAY), True, T0 + 2 * DAY + 60)
        assert expected_due is not None
        days = round((expected_due - clock.now) / DAY)
        assert days > 3  # FSRS spaces it out beyond the old box's 3 days
        await tg.wait_for(
            lambda: (
                f"It comes back in {days} days."
                in (tg.stored_message(student.id, asked.message_id) or asked).text
            )
        )
        # the box-5 card keeps its own old date, 20 days after the upgrade
        card = await bot.services.store.card(2)
        assert card is not None and card.due == T0 + 20 * DAY
