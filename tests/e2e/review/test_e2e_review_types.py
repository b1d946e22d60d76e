"""End to end, ``/review`` of the new kinds: a several-answers question is ticked
(☐/☑) and submitted like practice's, partial credit shown but scheduled by FSRS as a miss and
full marks as remembered, over days on the injected clock; the selection and a typed question
waiting for its answer both survive kill -9; a restart mid-answer names the question waiting."""

from __future__ import annotations

import sqlite3
import time
from functools import partial
from pathlib import Path

from botproc import BotProcess
from clockkit import ManualClock
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, labels_of
from reviewkit import say
from typeskit import answered

from bot.app.store import Store
from bot.core import spacing
from bot.core.engine import DAY
from bot.storage import Card
from bot.storage.schema import prepare_file

BANK = """\
title:
  bn: বাছাই
  en: Picks
language: en
settings:
  shuffle: false
questions:
  - id: primes
    question: {bn: কোনগুলো মৌলিক?, en: Which are prime?}
    options:
      - text: {bn: "২", en: "2"}
        feedback: {bn: ২ একমাত্র জোড় মৌলিক।, en: 2 is the only even prime.}
      - text: {bn: "৪", en: "4"}
        feedback: {bn: ৪ = ২ × ২।, en: 4 = 2 × 2.}
      - {bn: "৩", en: "3"}
      - {bn: "৬", en: "6"}
    correct: [1, 3]
    explanation: {bn: মৌলিক সংখ্যার ঠিক দুটি উৎপাদক।, en: A prime has exactly two factors.}
  - id: pi
    type: numeric
    question: {bn: পাই কত?, en: Pi to two places?}
    answers:
      - {answer: 3.14, tolerance: 0.01, feedback: {bn: ঠিক, en: "Yes, that is pi."}}
  - id: year
    type: short
    question: {bn: স্বাধীনতার বছর?, en: The year of independence?}
    answers: ["1971"]
"""


async def tap(tg: FakeTelegram, user: User, message: StoredMessage, label: str) -> str:
    """``user`` taps ``label`` on ``message`` as the student sees it now; the alert's text."""
    seen = tg.stored_message(user.id, message.message_id) or message
    return await tap_data(tg, user, message, button_data(seen, label))


async def tap_data(tg: FakeTelegram, user: User, message: StoredMessage, data: str) -> str:
    """``user`` taps a button of ``message`` with ``data`` (one since gone, too); the alert."""
    answer = await tg.wait_answered(tg.tap(user.id, user, message.message_id, data), timeout=20)
    assert answer.text is not None
    return answer.text


async def closed(tg: FakeTelegram, user: User, message: StoredMessage, mark: str) -> str:
    """The question's text once its answer closed it (``mark`` appears)."""
    done = await tg.wait_for(
        lambda: (
            m if (m := tg.stored_message(user.id, message.message_id)) and mark in m.text else None
        ),
        what=mark,
        timeout=20,
    )
    return done.text


async def the_card(store: Store, user: User) -> Card:
    cards = await store.due_cards(user.id, float("inf"), limit=5)
    assert len(cards) == 1
    return cards[0]


async def test_review_ticks_and_submit_schedule_by_full_marks_over_days(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(701, "Rina", language_code="en")
    other = tg.add_user(702, "Tanvir", language_code="bn")
    clock = ManualClock(time.time())
    env = bank_env(tmp_path, "picks", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env, clock=clock) as bot:
        store = bot.services.store
        missed = [(u.id, "picks", "primes") for u in (student, other)]
        await store.add_missed(missed, *spacing.first_review(clock()))

        # a day later it is due: the student's own keyboard, ☐ per option and ✔ Submit
        clock.advance(DAY + 60)
        asked = await say(tg, student, "/review", wait=20)
        assert asked.text.startswith("🔁 Review · Picks · 1 due now")
        assert "Select all that apply, then tap ✔ Submit." in asked.text
        assert labels_of(asked) == ["☐ A", "☐ B", "☐ C", "☐ D", "✔ Submit"]
        assert all(len(d.encode()) <= 64 for row in asked.buttons for _, d in row if d)
        submit, tick_c = button_data(asked, "✔ Submit"), button_data(asked, "☐ C")
        assert (await tap(tg, student, asked, "✔ Submit")).startswith("Nothing chosen yet")
        assert (await tap(tg, student, asked, "☐ A")) == "Your choice: A (tap ✔ Submit)"
        assert (await tap(tg, student, asked, "☐ B")) == "Your choice: A, B (tap ✔ Submit)"
        shown = tg.stored_message(student.id, asked.message_id)
        assert shown is not None and labels_of(shown)[:4] == ["☑ A", "☑ B", "☐ C", "☐ D"]
        assert (await tap(tg, student, asked, "☑ B")) == "Your choice: A (tap ✔ Submit)"

        # A alone: half the credit, shown as such, but scheduled as a miss (back tomorrow)
        before = await the_card(store, student)
        now = clock()
        partly = await tap(tg, student, asked, "✔ Submit")
        assert partly == "🟡 Partly right (50%). The answer: A, C"
        text = await closed(tg, student, asked, "comes back")
        assert "Your choice: A" in text
        assert "💬 A) 2 is the only even prime." in text
        assert "💡 A prime has exactly two factors." in text
        assert "C) 3 ✅" in text and "B) 4 ❌" not in text
        assert "Not learnt yet: it comes back in a day." in text
        await tg.wait_for(lambda: tg.find_message(student.id, "0 of 1 right"))
        failed = await the_card(store, student)
        memory, due = spacing.review(before.memory, False, now)
        assert (failed.memory, failed.due) == (memory, due)
        assert failed.due == now + DAY
        assert failed.memory != spacing.review(before.memory, True, now)[0]  # not as a pass
        # the same Submit again, or a tick, changes nothing
        assert "already answered" in await tap_data(tg, student, asked, submit)
        assert "already answered" in await tap_data(tg, student, asked, tick_c)
        assert await the_card(store, student) == failed

        # the next day: a wrong pick ticked and unticked, both right ones: full marks
        clock.advance(DAY + 60)
        asked = await say(tg, student, "/review", wait=20)
        assert labels_of(asked)[:4] == ["☐ A", "☐ B", "☐ C", "☐ D"]  # a fresh selection
        for label in ("☐ A", "☐ D", "☑ D", "☐ C"):
            await tap(tg, student, asked, label)
        now = clock()
        assert (await tap(tg, student, asked, "✔ Submit")) == "✅ Right!"
        text = await closed(tg, student, asked, "comes back")
        assert "Your choice: A, C" in text and "💬 A) 2 is the only even prime." in text
        await tg.wait_for(lambda: tg.find_message(student.id, "1 of 1 right"))
        passed = await the_card(store, student)
        memory, due = spacing.review(failed.memory, True, now)
        assert (passed.memory, passed.due) == (memory, due)
        assert passed.memory.stability > failed.memory.stability  # remembered: a longer memory
        assert "It comes back in a day." in text  # after two misses FSRS is still cautious

        # full marks again a day later: the interval grows
        clock.advance(DAY + 60)
        asked = await say(tg, student, "/review", wait=20)
        for label in ("☐ C", "☐ A"):
            await tap(tg, student, asked, label)
        now = clock()
        assert (await tap(tg, student, asked, "✔ Submit")) == "✅ Right!"
        assert "It comes back in 2 days." in await closed(tg, student, asked, "comes back")
        again = await the_card(store, student)
        assert (again.memory, again.due) == spacing.review(passed.memory, True, now)

        # ticking every box: each wrong one takes back a right one's credit, nothing earned
        other_asked = await say(tg, other, "/review", wait=20)
        assert labels_of(other_asked)[-1] == "✔ জমা দিন"
        assert "সব সঠিক উত্তর বেছে নিন" in other_asked.text
        for label in ("☐ A", "☐ B", "☐ C", "☐ D"):
            await tap(tg, other, other_asked, label)
        wrong = await tap(tg, other, other_asked, "✔ জমা দিন")
        assert wrong.startswith("❌")
        text = await closed(tg, other, other_asked, "আবার আসবে")
        assert "আপনার বাছাই: A, B, C, D" in text and "💬 B) ৪ = ২ × ২।" in text
        assert "B) ৪ ❌" in text and "D) ৬ ❌" in text
        assert (await the_card(store, other)).due == clock() + DAY


def seed_cards(db: Path, user_id: int, question_ids: list[str]) -> None:
    """Before the bot starts: ``user_id`` missed these questions two days ago, each due a
    little ago in this order (a wall clock: the bot runs as its own process)."""
    prepare_file(db)
    m, _ = spacing.first_review(time.time() - 2 * DAY)
    rows = [
        (user_id, q, m.stability, m.difficulty, m.last_review, time.time() - 120 + n)
        for n, q in enumerate(question_ids)
    ]
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO review_cards"
            " (user_id, quiz_id, question_id, stability, difficulty, last_review, due)"
            " VALUES (?, 'picks', ?, ?, ?, ?, ?)",
            rows,
        )


def verdict(
    tg: FakeTelegram, chat_id: int, question: StoredMessage, after: int
) -> StoredMessage | None:
    """The verdict on a typed answer: the question's message edited, or (the bot killed
    before that message's id was stored) a message of its own after the first ``after``."""
    return answered(tg, chat_id, question.message_id) or next(
        (m for m in tg.messages(chat_id)[after:] if "Your answer" in m.text), None
    )


async def test_review_selection_survives_kill_9(tg: FakeTelegram, tmp_path: Path) -> None:
    student = tg.add_user(711, "Rina", language_code="en")
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "picks", BANK)
    seed_cards(db, student.id, ["primes"])
    bot = await BotProcess(tg, db, **env).start()
    try:
        asked = await say(tg, student, "/review", wait=20)
        assert asked.text.startswith("🔁 Review · Picks · 1 due now")
        assert (await tap(tg, student, asked, "☐ A")) == "Your choice: A (tap ✔ Submit)"
        await bot.kill()  # the tick was stored before its answer went out

        bot = await BotProcess(tg, db, **env).start()
        assert (await tap(tg, student, asked, "☐ C")) == "Your choice: A, C (tap ✔ Submit)"
        shown = tg.stored_message(student.id, asked.message_id)
        assert shown is not None and labels_of(shown)[:4] == ["☑ A", "☐ B", "☑ C", "☐ D"]
        assert (await tap(tg, student, asked, "✔ Submit")) == "✅ Right!"
        done = await tg.wait_for(lambda: tg.find_message(student.id, "Review finished"), timeout=20)
        assert done.text.startswith("🏁 Review finished: 1 of 1 right.")
    finally:
        await bot.close()


async def test_typed_review_question_is_resumed_after_kill_9(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(712, "Rina", language_code="en")
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "picks", BANK)
    seed_cards(db, student.id, ["year", "pi"])
    bot = await BotProcess(tg, db, **env).start()
    try:
        asked = await say(tg, student, "/review", wait=20)
        assert "The year of independence?" in asked.text
        tg.user_says(tg.private_chat(student), student, "1972")
        first = await tg.wait_for(partial(answered, tg, student.id, asked.message_id))
        assert "❌ Not right." in first.text
        # the typed question waits for the student's text when the bot is killed
        typed = await tg.wait_for(
            lambda: tg.find_message(student.id, "Pi to two places?"), timeout=20
        )
        assert typed.buttons == [] and "Type your answer" in typed.text
        await bot.kill()  # stored before it was sent: it waits through the restart

        bot = await BotProcess(tg, db, **env).start()
        sent = len(tg.messages(student.id))
        tg.user_says(tg.private_chat(student), student, "3.14")
        text = (await tg.wait_for(partial(verdict, tg, student.id, typed, sent), timeout=20)).text
        assert "Your answer: 3.14" in text and "✅ Right! Yes, that is pi." in text
        assert "It comes back" in text
        # the session went on where it stood (1 right of 2), the question not asked again
        done = await tg.wait_for(lambda: tg.find_message(student.id, "Review finished"), timeout=20)
        assert done.text.startswith("🏁 Review finished: 1 of 2 right.")
        assert not any("Type your answer" in m.text for m in tg.messages(student.id)[sent:])
        with sqlite3.connect(db) as conn:
            dues = conn.execute(
                "SELECT question_id, due > ? FROM review_cards ORDER BY question_id",
                (time.time(),),
            ).fetchall()
            still_open = conn.execute("SELECT COUNT(*) FROM review_open").fetchone()[0]
        assert dues == [("pi", 1), ("year", 1)] and still_open == 0
    finally:
        await bot.close()


async def test_a_restart_mid_answer_names_the_typed_question_waiting(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Killed after the answer to one typed question was judged and the next asked, but before
    its message was marked handled: the student is not told to send it again (that text would
    be judged as the next question's answer) but which question waits for their answer."""
    student = tg.add_user(713, "Rina", language_code="en")
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "picks", BANK)
    seed_cards(db, student.id, ["year", "pi"])
    bot = await BotProcess(tg, db, **env).start()
    try:
        asked = await say(tg, student, "/review", wait=20)
        assert "The year of independence?" in asked.text
        tg.user_says(tg.private_chat(student), student, "1971")
        await tg.wait_for(partial(answered, tg, student.id, asked.message_id))
        typed = await tg.wait_for(
            lambda: tg.find_message(student.id, "Pi to two places?"), timeout=20
        )
        await bot.kill()
        with sqlite3.connect(db) as conn:  # as if killed before "1971" was marked handled
            conn.execute(
                "UPDATE deliveries SET done = 0 WHERE update_id ="
                " (SELECT MAX(update_id) FROM deliveries WHERE chat_id = ?)",
                (student.id,),
            )

        sent = len(tg.messages(student.id))
        bot = await BotProcess(tg, db, **env).start()
        notice = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(student.id)[sent:] if "restarted" in m.text), None
            ),
            timeout=20,
        )
        assert "The question waiting for your answer now is:\n❓ Pi to two places?" in notice.text
        assert "send it again" not in notice.text
        sent = len(tg.messages(student.id))
        tg.user_says(tg.private_chat(student), student, "3.14")
        text = (await tg.wait_for(partial(verdict, tg, student.id, typed, sent), timeout=20)).text
        assert "✅ Right! Yes, that is pi." in text
        done = await tg.wait_for(lambda: tg.find_message(student.id, "Review finished"), timeout=20)
        assert done.text.startswith("🏁 Review finished: 2 of 2 right.")
    finally:
        await bot.close()
