"""End to end: a whole /quiz zero in a group of 30 students, over real HTTP."""

from __future__ import annotations

from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import (
    ZERO,
    button_data,
    correct_label,
    explained,
    open_question,
    populate,
    question_messages,
)


async def test_whole_group_quiz(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=30)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        # A non-moderator cannot start a quiz; nothing starts.
        tg.user_says(chat, cls.outsider, "/quiz zero")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators") is not None)
        assert bot.services.groups.running(chat, 0) is None

        # /quiz alone lists the quizzes; in a group no start buttons (the whole class sees
        # them, few may press them), a line saying moderators start quizzes instead.
        tg.user_says(chat, cls.creator, "/quiz")
        await tg.wait_for(lambda: tg.find_message(chat, "Quizzes") is not None)
        listing = tg.find_message(chat, "Quizzes")
        assert listing is not None
        assert listing.buttons == []
        assert "1. zero — \u2068ZeRO and Sharded Optimizers\u2069" in listing.text
        assert "the group's moderators start quizzes" in listing.text

        tg.user_says(chat, cls.creator, "/quiz zero 600")
        await tg.wait_for(lambda: open_question(tg, chat, 1) is not None)
        announce = tg.find_message(chat, "8 questions")
        assert announce is not None
        assert "600 seconds each" in announce.text

        # Starting another while one runs says so and changes nothing.
        tg.user_says(chat, cls.admin, "/quiz zero")
        await tg.wait_for(lambda: tg.find_message(chat, "already running") is not None)

        q1 = open_question(tg, chat, 1)
        assert q1 is not None
        assert q1.text.startswith("❓ Question 1/8")
        assert ZERO.questions[0].text.en in q1.text
        assert [t for row in q1.buttons for t, _ in row] == ["A", "B", "C", "D"]
        right = correct_label(q1)
        wrong = next(label for label in "ABCD" if label != right)
        b1 = {label: button_data(q1, label) for label in "ABCD"}  # before the reveal drops them

        # Thirty students tap at once: half right, half wrong.
        queries = {}
        for i, student in enumerate(cls.students):
            label = right if i % 2 == 0 else wrong
            queries[student.id] = (label, tg.tap(chat, student, q1.message_id, b1[label]))
        for student in cls.students:
            label, qid = queries[student.id]
            answer = await tg.wait_answered(qid)
            assert answer.show_alert
            assert answer.text is not None
            assert len(answer.text) <= 200
            if label == right:
                assert answer.text.startswith("✅"), answer.text
                # The bot's clock stands still (tests/support/clockkit.py): every tap is "at once".
                assert answer.text.split("+")[1].split()[0] == "1000"
            else:
                assert answer.text.startswith("❌ Wrong. 0 points"), answer.text
            assert explained(ZERO.questions[0]).en[:40] in answer.text

        # A second tap by the same student changes nothing and says what they chose.
        first = cls.students[1]
        again = tg.tap(chat, first, q1.message_id, b1[right])
        answer = await tg.wait_answered(again)
        assert answer.text == f"You already chose {wrong}; only your first tap counts."

        # The answered count shows up on the open question (budget permitting).
        await tg.wait_for(
            lambda: "30 answered" in (tg.stored_message(chat, q1.message_id) or q1).text
        )

        # Non-moderator /next: refused, the question stays open. The outsider was refused a
        # moment ago, so their repeat costs the group nothing; another student gets the reply.
        refusals = len([m for m in tg.messages(chat) if "Only the group's moderators" in m.text])
        tg.user_says(chat, cls.outsider, "/next")
        tg.user_says(chat, cls.students[2], "/next")
        await tg.wait_for(
            lambda: (
                len([m for m in tg.messages(chat) if "Only the group's moderators" in m.text])
                == refusals + 1
            )
        )
        await tg.wait_consumed()
        assert open_question(tg, chat, 1) is not None

        # /next closes question 1: reveal with the right option and counts, then question 2.
        tg.user_says(chat, cls.admin, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2) is not None)
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert revealed.buttons == []
        assert f"Right answer: {right}" in revealed.text
        assert "30 answered, 15 right" in revealed.text
        assert f"{right}) {ZERO.questions[0].options[0].en} — 15 ✅" in revealed.text
        assert explained(ZERO.questions[0]).en in revealed.text
        assert ZERO.questions[0].note is not None
        assert ZERO.questions[0].note.en in revealed.text

        # A stale tap on the closed question gets an alert and changes nothing.
        late = tg.tap(chat, cls.outsider, q1.message_id, b1[wrong])
        assert (await tg.wait_answered(late)).text == "⌛ This question is closed."

        # Question 2: only the first three students answer, right; /stop ends the quiz early.
        q2 = open_question(tg, chat, 2)
        assert q2 is not None
        right2 = correct_label(q2)
        b2 = {label: button_data(q2, label) for label in "ABCD"}
        # 20 ms after question 2 was posted: still 1000 points (rounded), but later than every
        # answer to question 1.
        bot.clock.advance(0.02)
        for student in cls.students[:3]:
            await tg.wait_answered(tg.tap(chat, student, q2.message_id, b2[right2]))
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁") is not None)
        results = tg.find_message(chat, "🏁")
        assert results is not None
        assert "(a moderator ended the quiz early: 2 of 8 questions asked)" in results.text
        lines = results.text.split("\n")
        podium = [line for line in lines if line and line[0] in "🥇🥈🥉"]
        # Students 0 and 2 were right twice (1000 + 1000 + a streak bonus of 100: a tie on
        # points, right answers and time, so the lower user id first); student 4 ties student 1
        # on points and right answers (1000, 1) but finished first, so takes third place.
        assert [line.split(". ")[1].split(" —")[0].strip("\u2068\u2069") for line in podium] == [
            "Student0",
            "Student2",
            "Student4",
        ]
        # counted out of the 2 questions asked, not the quiz's 8
        assert "2100 points, 2/2 right" in podium[0] and "2100 points, 2/2 right" in podium[1]
        assert "1000 points, 1/2 right" in podium[2]
        assert sum(1 for line in lines if " points, " in line) == 10  # top ten of this run
        await tg.wait_for(lambda: bot.services.groups.running(chat, 0) is None)
        q2_closed = tg.stored_message(chat, q2.message_id)
        assert q2_closed is not None
        assert q2_closed.buttons == []
        assert len(question_messages(tg, chat)) == 2  # question 3 was never posted

        # An old quiz's button gets an alert.
        old = tg.tap(chat, cls.students[5], q2.message_id, b2[right2])
        assert (await tg.wait_answered(old)).text == "This quiz is over."

        # Every answer is stored: 30 + 3.
        run_id = int(b1["A"].split(":")[1])
        stored = await bot.services.store.answers(run_id)
        assert len(stored) == 33
        assert tg.max_in_window(chat) <= 20


async def test_timed_close_and_bengali(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "bn"}):
        tg.user_says(chat, cls.creator, "/quiz zero 5")
        await tg.wait_for(lambda: open_question(tg, chat, 1) is not None)
        q1 = open_question(tg, chat, 1)
        assert q1 is not None
        assert q1.text.startswith("❓ প্রশ্ন ১/৮")
        assert ZERO.questions[0].text.bn in q1.text
        right = correct_label(q1, lang="bn")
        answer = await tg.wait_answered(
            tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, right))
        )
        assert answer.text is not None
        assert answer.text.startswith("✅ সঠিক! +")
        assert explained(ZERO.questions[0]).bn in answer.text
        # No /next: the question closes by itself after 5 seconds, and question 2 follows.
        await tg.wait_for(lambda: open_question(tg, chat, 2) is not None, timeout=15)
        closed = tg.stored_message(chat, q1.message_id)
        assert closed is not None
        assert closed.buttons == []
        assert f"সঠিক উত্তর: {right}" in closed.text
        assert closed.edits, "the question message was edited, not re-sent"
        elapsed = closed.edits[-1].at - q1.sent_at  # when the reveal replaced the question
        assert elapsed >= 4.9  # not before its time (how much later depends on the machine)
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "ফলাফল") is not None)
