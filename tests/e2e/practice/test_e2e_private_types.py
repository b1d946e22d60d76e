"""End to end in private chats: typed numbers and short answers in practice,
homework and /review (the student types; the text goes to the waiting question, not to a
draft); ticks with ☐/☑ and ✔ Submit on the student's own keyboard, partial credit; true/false
in the chat's language."""

from __future__ import annotations

import sqlite3
import time
from functools import partial
from pathlib import Path

from botproc import BotProcess
from clockkit import ManualClock
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import bank_env, button_data, labels_of, open_question, populate
from teacherkit import hw_question, set_and_open_homework
from typeskit import BANK, answered, asked, types

from bot.core.engine import DAY


async def test_practice_every_kind_then_review_the_missed_typed_one(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(601, "Rina", language_code="en")
    clock = ManualClock(time.time())
    env = bank_env(tmp_path, "kinds", BANK)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env, clock=clock) as bot:
        chat = tg.private_chat(student)
        # a draft is open and waiting for its title: typed answers still go to the question
        tg.user_says(chat, student, "/newquiz")
        await tg.wait_for(lambda: tg.messages(chat.id))
        tg.user_says(chat, student, "/quiz kinds")
        q1 = await asked(tg, student, "❓ Question 1/6")
        # ticks on the student's own keyboard: ☐/☑ and ✔ Submit
        assert labels_of(q1) == ["☐ A", "☐ B", "☐ C", "☐ D", "✔ Submit"]
        assert all(len(d.encode()) <= 64 for row in q1.buttons for _, d in row if d)
        submit = button_data(q1, "✔ Submit")
        empty = await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, submit))
        assert empty.text is not None and empty.text.startswith("Nothing chosen yet")
        tick = await tg.wait_answered(
            tg.tap(chat.id, student, q1.message_id, button_data(q1, "☐ A"))
        )
        assert tick.text == "Your choice: A (tap ✔ Submit)"
        await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, button_data(q1, "☐ B")))
        shown = tg.stored_message(chat.id, q1.message_id)
        assert shown is not None and labels_of(shown)[:4] == ["☑ A", "☑ B", "☐ C", "☐ D"]
        untick = await tg.wait_answered(
            tg.tap(chat.id, student, q1.message_id, button_data(shown, "☑ B"))
        )
        assert untick.text == "Your choice: A (tap ✔ Submit)"
        result = await tg.wait_answered(tg.tap(chat.id, student, q1.message_id, submit))
        assert result.text == "🟡 Partly right (50%). The answer: A, C"
        closed = tg.stored_message(chat.id, q1.message_id)
        assert closed is not None and closed.buttons == []
        assert "Right answers: A, C" in closed.text

        # true/false: the words, in the chat's language
        q2 = await asked(tg, student, "❓ Question 2/6")
        assert labels_of(q2) == ["True", "False"]
        right = await tg.wait_answered(
            tg.tap(chat.id, student, q2.message_id, button_data(q2, "False"))
        )
        assert right.text == "✅ Right!"

        # a number within the tolerance (Bengali digits); not a number first: asked again
        q3 = await asked(tg, student, "❓ Question 3/6")
        assert q3.buttons == [] and "Type your answer" in q3.text
        tg.user_says(chat, student, "pi")
        again = await tg.wait_for_message(chat.id, "Please type a number")
        assert again.reply_to is not None
        text = await types(tg, student, "৩.১৪৫", q3)
        assert "Answer: 3.14 ± 0.01" in text
        assert "Your answer: ৩.১৪৫" in text
        assert "✅ Right! Yes, that is pi." in text

        # a number outside the tolerance (units accepted): wrong, with the wrong feedback
        q4 = await asked(tg, student, "❓ Question 4/6")
        text = await types(tg, student, "10.5 m/s²", q4)
        assert "Answer: 9.8 ± 0.1 m/s²" in text
        assert "❌ Not right. g is about 9.8." in text

        # a short answer in another letter case, with extra spaces
        q5 = await asked(tg, student, "❓ Question 5/6")
        text = await types(tg, student, "  sKIN ", q5)
        assert "✅ Right! The skin it is." in text
        # a short answer in Bengali digits
        q6 = await asked(tg, student, "❓ Question 6/6")
        text = await types(tg, student, "১৯৭১", q6)
        assert "✅ Right!" in text
        await tg.wait_for_message(chat.id, "Score: 4/6")

        store = bot.services.store
        draft = await store.draft(student.id)
        assert draft is not None and draft.title is None  # the draft took none of it
        run_id = int(submit.split(":")[1])
        rows = {a.question_id: (a.given, a.credit, a.correct) for a in await store.answers(run_id)}
        assert rows["primes"] == ("A", 0.5, False)
        assert rows["pi"] == ("৩.১৪৫", None, True)
        assert rows["gravity"] == ("10.5 m/s²", None, False)
        assert rows["organ"] == ("sKIN", None, True)
        assert rows["year"] == ("১৯৭১", None, True)

        # a day later /review asks the missed ones; the typed one is answered by typing
        clock.advance(DAY + 60)
        seen = len(tg.messages(chat.id))
        tg.user_says(chat, student, "/review")
        for _ in range(2):
            await tg.wait_for(partial(more_than, tg, chat.id, seen))
            question = tg.messages(chat.id)[-1]
            seen = len(tg.messages(chat.id))
            if question.buttons:  # the several-answers question: ticks, then Submit
                assert question.text.startswith("🔁 Review")
                for label in ("☐ A", "☐ C"):
                    await tg.wait_answered(
                        tg.tap(chat.id, student, question.message_id, button_data(question, label))
                    )
                submit = button_data(question, "✔ Submit")
                result = await tg.wait_answered(
                    tg.tap(chat.id, student, question.message_id, submit)
                )
                assert result.text == "✅ Right!"
                continue
            assert "g in m/s²?" in question.text and "Type your answer" in question.text
            text = await types(tg, student, "9,8", question)
            assert "✅ Right!" in text and "Your answer: 9,8" in text
            seen = len(tg.messages(chat.id))
        await tg.wait_for_message(chat.id, "Review finished")


def more_than(tg: FakeTelegram, chat_id: int, count: int) -> bool:
    return len(tg.messages(chat_id)) > count


def tapped_alert(answer: object) -> str:
    text = getattr(answer, "text", None)
    assert isinstance(text, str)
    return text


async def test_homework_with_ticks_and_typed_answers_survives_kill_9(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=2)
    student = cls.students[0]
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "kinds", BANK)
    bot = await BotProcess(tg, db, **env).start()
    try:
        chat = await set_and_open_homework(tg, cls, student, "kinds", "Kinds", wait=20)
        q1 = await tg.wait_for(lambda: hw_question(tg, student, 0), timeout=20)
        assert labels_of(q1) == ["☐ A", "☐ B", "☐ C", "☐ D", "✔ Submit"]
        tick = await tg.wait_answered(
            tg.tap(chat.id, student, q1.message_id, button_data(q1, "☐ A"))
        )
        assert tick.text == "Your choice: A (tap ✔ Submit)"
        await bot.kill()  # the tick was stored before its answer went out

        bot = await BotProcess(tg, db, **env).start()
        more = tg.tap(chat.id, student, q1.message_id, button_data(q1, "☐ C"))
        assert (await tg.wait_answered(more, timeout=20)).text == "Your choice: A, C (tap ✔ Submit)"
        shown = tg.stored_message(chat.id, q1.message_id)
        assert shown is not None and labels_of(shown)[:4] == ["☑ A", "☐ B", "☑ C", "☐ D"]
        done = await tg.wait_answered(
            tg.tap(chat.id, student, q1.message_id, button_data(shown, "✔ Submit")), timeout=20
        )
        assert tapped_alert(done).startswith("✅ Right! +")
        q2 = await tg.wait_for(lambda: hw_question(tg, student, 1), timeout=20)
        assert labels_of(q2) == ["True", "False"]
        await tg.wait_answered(tg.tap(chat.id, student, q2.message_id, button_data(q2, "False")))

        # killed while a typed question waits: after the restart the answer is taken
        q3 = await asked(tg, student, "❓ Question 3/6")
        assert q3.buttons == [] and "Type your answer" in q3.text
        await bot.kill()
        bot = await BotProcess(tg, db, **env).start()
        tg.user_says(chat, student, "3.14")
        text = (await tg.wait_for(partial(answered, tg, chat.id, q3.message_id), timeout=20)).text
        assert "Your answer: 3.14" in text and "✅ Right! +" in text and "Yes, that is pi." in text
        q4 = await asked(tg, student, "❓ Question 4/6")
        assert "❌ Wrong" in await types(tg, student, "10.5", q4)
        q5 = await asked(tg, student, "❓ Question 5/6")
        assert "✅ Right!" in await types(tg, student, "SKIN", q5)
        q6 = await asked(tg, student, "❓ Question 6/6")
        assert "✅ Right!" in await types(tg, student, "১৯৭১", q6)
        finished = await tg.wait_for(lambda: tg.find_message(chat.id, "Homework done"), timeout=20)
        assert "5/6 right" in finished.text  # every answer but the number outside the tolerance
        with sqlite3.connect(db) as conn:
            given = dict(
                conn.execute(
                    "SELECT question_id, given FROM answers WHERE user_id = ?", (student.id,)
                ).fetchall()
            )
        assert given["primes"] == "AC" and given["pi"] == "3.14" and given["year"] == "১৯৭১"
    finally:
        await bot.close()


async def test_group_selection_survives_kill_9(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    one, two = cls.students
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "kinds", BANK)
    bot = await BotProcess(tg, db, **env).start()
    try:
        tg.user_says(chat, cls.creator, "/quiz kinds 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=20)
        data = {label: button_data(q1, label) for label in ["A", "C", "✔ Submit"]}
        for student, label in ((one, "A"), (one, "C"), (two, "C")):
            await tg.wait_answered(tg.tap(chat, student, q1.message_id, data[label]))
        await bot.kill()

        bot = await BotProcess(tg, db, **env).start()
        # one's A and C were kept: Submit counts them; two's C was kept: A joins it
        submitted = await tg.wait_answered(
            tg.tap(chat, one, q1.message_id, data["✔ Submit"]), timeout=20
        )
        assert tapped_alert(submitted).startswith("✅ Right! +")
        ticked = await tg.wait_answered(tg.tap(chat, two, q1.message_id, data["A"]), timeout=20)
        assert ticked.text == "Your choice: A, C (tap ✔ Submit)"
    finally:
        await bot.close()
