"""Homework end to end: cards, private attempts, deadlines over days, restarts, several at once,
while a live quiz runs; /timezone. The bot's clock is frozen and moved by the tests."""

from __future__ import annotations

import functools
import time
from pathlib import Path

import pytest
from fakebot import BOT_USERNAME, FakeTelegram, StoredMessage
from harness import BotHarness
from homeworkkit import plain, totals_match_answers
from quizkit import button_data, correct_label, populate, start_quiz, until
from teacherkit import (
    FrozenClock,
    answer_hw,
    harness,
    hw_question,
    start_hw,
    take_hw,
)

from bot.core.deadlines import parse_duration

DAY = 86_400.0
TOPIC = 7


def test_durations() -> None:
    assert parse_duration("2m") == 120
    assert parse_duration("90m") == 5400
    assert parse_duration("24h") == 86_400
    assert parse_duration("3d") == 3 * 86_400
    assert parse_duration("৩d") == 3 * 86_400
    assert parse_duration("২ঘণ্টা") == 7200
    assert parse_duration("14d") == 14 * 86_400
    for bad in ("15d", "0m", "59s", "m", "3", "1.5h", "-2m", "3 d x"):
        assert parse_duration(bad) is None, bad


def run_of_hw(message: StoredMessage) -> int:
    return int(button_data(message, "A").split(":")[1])


async def test_homework_over_days_alongside_a_live_quiz(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    s0, s1, s2, s3 = cls.students  # s1 and s3 use Telegram in Bengali
    clock = FrozenClock()
    async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group") as bot:
        attempts = bot.app.bot_data.attempts
        tg.user_says(chat, cls.outsider, "/homework zero 3d")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        tg.user_says(chat, cls.creator, "/homework zero 15d")  # longer than 14 days
        await tg.wait_for(lambda: tg.find_message(chat, "Usage: /homework NAME [DURATION]"))
        tg.user_says(chat, cls.creator, "/homework zero ৩d")  # 3 days, in Bengali digits
        card = await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        assert "Deadline: Thu 4 Mar, 16:00 (UTC+6)" in card.text  # 10:00 UTC + 3 days, Dhaka
        assert "Finished: 0" in card.text
        url = card.reply_markup["inline_keyboard"][0][0]["url"]  # type: ignore[index]
        assert url == f"https://t.me/{BOT_USERNAME}?start=hw-1"

        # a live quiz runs in the group meanwhile; Student0 answers its first question
        live = await start_quiz(tg, cls)
        await tg.wait_answered(
            tg.tap(chat, s0, live.message_id, button_data(live, correct_label(live)))
        )

        await take_hw(tg, s0, 1, [True] * 8)
        await take_hw(tg, s1, 1, [True] * 4 + [False] * 4)
        closed = next(m for m in tg.messages(s0.id) if m.text.startswith("🔒 Question 2/8"))
        assert "✅ Right! +1100 points · 🔥 streak 2 (+100)" in closed.text
        assert "answered" not in closed.text  # about this student only: no group counts
        # Student2 lets question 1 run out (the clock passes its 30 s), then gets all right
        await start_hw(tg, s2, 1)
        first = await tg.wait_for(lambda: hw_question(tg, s2, 0))
        attempt = await until(
            lambda: (
                (a := attempts.get(run_of_hw(first))) is not None and a.engine.phase == "open" and a
            )
        )
        assert attempt.engine.deadline == clock() + 30
        clock.advance(31)
        late = await tg.wait_answered(
            tg.tap(s2.id, s2, first.message_id, button_data(first, correct_label(first)))
        )
        assert late.text == "⌛ This question is closed."
        assert "Time's up" in (tg.stored_message(s2.id, first.message_id) or first).text
        for q in range(1, 8):
            alert = await answer_hw(tg, s2, q, True)
            assert alert.startswith("✅ Right! +")
        done = await tg.wait_for(lambda: tg.find_message(s2.id, "Homework done"))
        assert "9000 points, 7/8 right" in done.text

        stranger = tg.add_user(4242, "Stranger", language_code="en")
        refused = await start_hw(tg, stranger, 1)  # someone the link reached outside the group
        assert refused.text == "This homework is for the members of its group only."
        again = await start_hw(tg, s0, 1)
        assert again.text == "You have already taken this homework: one attempt each."

        card_now = await tg.wait_for(
            functools.partial(message_with, tg, chat, card.message_id, "Finished: 3"),
            what="card count",
        )
        assert card_now.buttons  # still open: the Start button stays
        tg.user_says(chat, cls.admin, "/homework")
        listed = await tg.wait_for(lambda: tg.find_message(chat, "Open homework"))
        assert (
            "1. \u2068ZeRO and Sharded Optimizers\u2069 — until Thu 4 Mar, 16:00 (UTC+6)"
            " · 3 finished" in listed.text
        )

        tg.user_says(chat, cls.creator, "/stop")  # the live quiz ends; the homework goes on
        await tg.wait_for(lambda: tg.find_message(chat, "— results"))
        assert tg.find_message(chat, "Homework results") is None

        clock.advance(3 * DAY)  # the deadline passes
        results = await tg.wait_for(lambda: tg.find_message(chat, "Homework results"))
        lines = plain(results.text).split("\n")
        # 1000 per right answer at once, +100 per right answer in a row after the first (≤ 500)
        assert "🥇 1. Student0 — 10500 points, 8/8 right" in lines
        assert "🥈 2. Student2 — 9000 points, 7/8 right" in lines
        assert "🥉 3. Student1 — 4600 points, 4/8 right" in lines
        assert "👥 3 took it" in lines
        assert "📈 Average: 8033 points, 6.3/8 right" in lines
        assert any(line.startswith("🧩 Hardest: question 5 (67% right)") for line in lines)
        closed = await tg.wait_for(
            functools.partial(message_with, tg, chat, card.message_id, "Closed:"),
            what="card closed",
        )
        assert "Finished: 3" in closed.text and not closed.buttons

        late_start = await start_hw(tg, s3, 1)  # Bengali
        assert late_start.text == "এই হোমওয়ার্কের জমার শেষ সময় পেরিয়ে গেছে; এখন আর জমা দেওয়া যাবে না।"

        # homework points count on the leaderboard, with the live quiz's, in one season
        clock.advance(60)
        tg.user_says(chat, cls.creator, "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "quizzes"))
        assert "🥇 1. Student0 — 11500 points · 9 right · 2 quizzes" in plain(board.text)
        assert "🥈 2. Student2 — 9000 points · 7 right · 1 quiz" in plain(board.text)
        assert tg.max_in_window(chat) <= 20  # cards, refreshes and the live quiz, within budget
    totals_match_answers(db_path)


async def test_several_homework_stop_timezone_and_a_restart_past_the_deadline(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2, forum=True)
    chat = cls.chat_id
    tg.add_topic(chat, TOPIC, "Homework")
    s0, _ = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group"):
        tg.user_says(chat, cls.outsider, "/timezone +3")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        tg.user_says(chat, cls.admin, "/timezone +5:30")
        await tg.wait_for(lambda: tg.find_message(chat, "time zone is now UTC+5:30"))
        tg.user_says(chat, cls.creator, "/homework zero 2m", thread_id=TOPIC)
        first = await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO", TOPIC))
        assert "Deadline: Mon 1 Mar, 15:32 (UTC+5:30)" in first.text
        tg.user_says(chat, cls.creator, "/homework zero 90m")
        await tg.wait_for(lambda: tg.find_message(chat, "Deadline: Mon 1 Mar, 17:00", None))

        await start_hw(tg, s0, 1)  # homework 1: right, wrong, then the bot stops at question 3
        await answer_hw(tg, s0, 0, True)
        await answer_hw(tg, s0, 1, False)
        third = await tg.wait_for(lambda: hw_question(tg, s0, 2))
        tap_a = button_data(third, "A")

        tg.user_says(chat, cls.creator, "/homework stop")
        picker = await tg.wait_for(lambda: tg.find_message(chat, "Which one ends now?"))
        assert [len(row) for row in picker.buttons] == [1, 1]
        stop_two = picker.buttons[1][0][1]
        refused = await tg.wait_answered(tg.tap(chat, cls.outsider, picker.message_id, stop_two))
        assert refused.text == "Only the group's moderators can do that." and refused.show_alert
        await tg.wait_answered(tg.tap(chat, cls.creator, picker.message_id, stop_two))
        ended = await tg.wait_for(lambda: tg.find_message(chat, "Homework results", None))
        assert "(ended early by a moderator)" in ended.text
        assert "Nobody took this homework." in ended.text
        assert "Homework ended" in (tg.stored_message(chat, picker.message_id) or picker).text
        assert tg.find_message(chat, "Homework results", TOPIC) is None

    clock.advance(3600)  # homework 1's deadline passes while the bot is down
    async with harness(tg, db_path, clock, QUIZBOT_HOMEWORK_RESULTS="group"):
        results = await tg.wait_for(lambda: tg.find_message(chat, "Homework results", TOPIC))
        assert "🥇 1. Student0 — 1000 points, 1/8 right" in plain(results.text)
        assert "(ended early" not in results.text
        await tg.wait_for(lambda: tg.find_message(s0.id, "The homework is closed"))
        assert "Time's up" in (tg.stored_message(s0.id, third.message_id) or third).text
        tap = await tg.wait_answered(tg.tap(s0.id, s0, third.message_id, tap_a))
        assert tap.text == "This homework is no longer running."
        tg.user_says(chat, cls.creator, "/homework")
        await tg.wait_for(lambda: tg.find_message(chat, "No homework is open"))
    totals_match_answers(db_path)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("/homework nosuchquiz", "There is no quiz by that name"),
        ("/homework zero 3x", "Usage: /homework"),
        ("/homework zero 1d 2d", "Usage: /homework"),
    ],
)
async def test_bad_homework_commands_change_nothing(
    tg: FakeTelegram, db_path: Path, text: str, answer: str
) -> None:
    cls = populate(tg, students=1)
    async with harness(tg, db_path, FrozenClock()) as bot:
        tg.user_says(cls.chat_id, cls.creator, text)
        said = await tg.wait_for(lambda: tg.find_message(cls.chat_id, answer))
        if "nosuchquiz" in text:  # an unknown quiz: the quizzes to pick from, a button each
            assert [d for row in said.buttons for _, d in row] == ["k:homework:zero"]
        assert await bot.services.store.open_homework() == []


async def test_an_attempt_carries_on_after_a_restart(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    chat = cls.chat_id
    (s0,) = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        tg.user_says(chat, cls.creator, "/homework zero")  # 24 hours
        card = await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        assert "Deadline: Tue 2 Mar, 16:00 (UTC+6)" in card.text
        await start_hw(tg, s0, 1)
        await answer_hw(tg, s0, 0, True)
        await tg.wait_for(lambda: hw_question(tg, s0, 1))
    clock.advance(10)  # question 2 is still open: 20 of its 30 seconds are left
    async with harness(tg, db_path, clock):
        for q in range(1, 8):
            await answer_hw(tg, s0, q, True)
        done = await tg.wait_for(lambda: tg.find_message(s0.id, "Homework done"))
        # question 2 was answered 10 s after it was posted: 833 + its streak bonus of 100
        assert "10333 points, 8/8 right" in done.text
        assert (
            "Your teacher gets the results at the deadline: Tue 2 Mar, 16:00 (UTC+6)" in done.text
        )
        await tg.wait_for(
            lambda: (m := tg.stored_message(chat, card.message_id)) and "Finished: 1" in m.text,
            what="card count after a restart",
        )
    totals_match_answers(db_path)


async def test_the_card_count_waits_for_spare_budget(tg: FakeTelegram, db_path: Path) -> None:
    """The card's refresh is optional traffic: with the group's window nearly full (as during a
    busy live quiz) it waits until the window has room beyond the quiz's reserve."""
    cls = populate(tg, students=1)
    chat = cls.chat_id
    (s0,) = cls.students
    async with harness(tg, db_path, FrozenClock()) as bot:
        tg.user_says(chat, cls.creator, "/homework zero")
        card = await tg.wait_for(lambda: tg.find_message(chat, "Homework: ZeRO"))
        await start_hw(tg, s0, 1)
        for q in range(7):
            await answer_hw(tg, s0, q, True)
        window = bot.app.bot_data.pacer.group(chat)
        filled_at = time.monotonic()
        while window.free() > 4:  # quiz traffic holds all but 4 slots (the reserve is 5)
            window.record()
        await answer_hw(tg, s0, 7, True)
        updated = await tg.wait_for(
            functools.partial(message_with, tg, chat, card.message_id, "Finished: 1"),
            what="card count",
        )
        assert updated.edits, "the card was edited, not sent again"
        edited_at = tg.group_traffic(chat)[-1]
        assert edited_at >= filled_at + BotHarness.WINDOW - 0.05  # not before the slots freed


async def test_timezone_in_private_is_the_reminders(tg: FakeTelegram, db_path: Path) -> None:
    """In a private chat /timezone sets the student's own zone, the one /remind uses."""
    cls = populate(tg, students=1)
    (s0,) = cls.students
    chat = tg.private_chat(s0)
    async with harness(tg, db_path, FrozenClock()) as bot:
        for text, expect in (
            ("/timezone", "Your time zone is not set yet"),
            ("/timezone +25", "Usage: /timezone +6"),
            ("/timezone +৫:৩০", "Your time zone is now UTC+5:30"),
            ("/timezone", "Your time zone: UTC+5:30"),
            ("/remind 20:30", "20:30"),
        ):
            before = len(tg.messages(chat.id))
            tg.user_says(chat, s0, text)
            reply = await tg.wait_for(functools.partial(messages_after, tg, chat.id, before))
            assert expect in reply[0].text, (text, reply[0].text)
        student = await bot.services.store.student(s0.id)
        assert student is not None and student.tz_minutes == 330
        assert not tg.messages(chat.id)[-1].buttons  # /remind did not ask for the zone again


def message_with(tg: FakeTelegram, chat: int, message_id: int, text: str) -> StoredMessage | None:
    """The stored message, once it shows ``text``."""
    message = tg.stored_message(chat, message_id)
    return message if message is not None and text in message.text else None


def messages_after(tg: FakeTelegram, chat: int, count: int) -> list[StoredMessage] | None:
    """The chat's messages after its first ``count``, once there are any."""
    return tg.messages(chat)[count:] or None
