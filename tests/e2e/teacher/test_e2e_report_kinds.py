"""A student's report reaches the teacher with what re-grades that kind of question (issues 21,
22), end to end: a several-answers question offers no one-option button but the ``/regrade``
to type, with its key by option text; a short answer the student typed gets a button accepting
it (a preview, then Apply: as ``/regrade QUIZ N +answer``), tapped by the teacher only; a
numeric one the typed ``/regrade``. A group without a title is named generically, never by its
id, in the report and in ``/analysis``. English and Bengali."""

from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User
from quizkit import button_data, open_question, populate
from regradekit import buttons, edited, kinds_env, take
from teacherkit import FrozenClock, harness


async def started(tg: FakeTelegram, *users: User) -> None:
    """Each user has a private chat with the bot (reports and recaps come there)."""
    for user in users:
        tg.user_says(tg.private_chat(user), user, "/start")
        await tg.wait_for(partial(tg.messages, user.id), what="/start")


async def report(tg: FakeTelegram, student: User, on: StoredMessage, run: int, q: int) -> None:
    """``student`` reports question ``q`` (0-based) of ``run`` as having a wrong key, by the
    button a recap carries (``p:RUN:Q``), then the reason."""
    chat = tg.private_chat(student).id
    await tg.wait_answered(tg.tap(chat, student, on.message_id, f"p:{run}:{q}"))
    ask = await tg.wait_for(lambda: tg.find_message(chat, "what is wrong?"), what="the reasons")
    await tg.wait_answered(tg.tap(chat, student, ask.message_id, f"p:{run}:{q}:k"))


def told(tg: FakeTelegram, teacher: User, part: str) -> StoredMessage | None:
    return next((m for m in tg.messages(teacher.id) if part in m.text), None)


async def test_a_several_answers_report_in_an_untitled_group(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=2)
    chat, teacher = cls.chat_id, cls.creator  # the teacher reads English
    tg.chats[chat].title = ""  # a group without a title
    s0, s1 = cls.students
    clock = FrozenClock()
    async with harness(tg, tmp_path / "db.sqlite3", clock, **kinds_env(tmp_path)):
        await started(tg, teacher, s0)
        tg.user_says(chat, teacher, "/quiz kinds")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        for student, ticks in ((s0, ["B"]), (s1, ["A", "C"])):  # the key is A, C
            for label in (*ticks, "✔ Submit"):
                await tg.wait_answered(tg.tap(chat, student, q1.message_id, button_data(q1, label)))
        tg.user_says(chat, teacher, "/stop")
        recap = await tg.wait_for(lambda: tg.find_message(s0.id, "your recap"))
        reports = [d for row in recap.buttons for _, d in row if d]
        assert reports and reports[0].endswith(":0")  # question 1
        run = int(reports[0].split(":")[1])
        await report(tg, s0, recap, run, 0)

        message = await tg.wait_for(lambda: told(tg, teacher, "reports question 1"))
        assert "A student in your group reports question 1 of Kinds" in message.text
        assert "Its right answer now: A (“2”), C (“3”)" in message.text
        assert "several right answers" in message.text
        assert "/regrade kinds 1 A,C" in message.text
        assert message.buttons == []  # no button making one option the only right one
        assert str(chat) not in message.text and str(abs(chat)) not in message.text

        before = len(tg.messages(teacher.id))
        tg.user_says(chat, teacher, "/analysis kinds")
        head = await tg.wait_for(
            lambda: next((m for m in tg.messages(teacher.id)[before:] if "Group:" in m.text), None)
        )
        assert "Group: your group" in head.text
        assert str(abs(chat)) not in "\n".join(m.text for m in tg.messages(teacher.id))


def attempt_run(db: Path, student: User) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT h.run_id FROM homework_attempts AS h JOIN runs AS r ON r.run_id = h.run_id"
            " JOIN answers AS a ON a.run_id = h.run_id WHERE a.user_id = ? LIMIT 1",
            (student.id,),
        ).fetchone()
    return int(row[0])


def verdict(db: Path, student: User, q_index: int) -> tuple[int, float | None]:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT correct, credit FROM answers WHERE user_id = ? AND q_index = ?",
            (student.id, q_index),
        ).fetchone()
    return int(row[0]), row[1]


async def test_typed_reports_offer_to_accept_the_answer_in_bengali(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat, teacher = cls.chat_id, cls.admin  # the teacher who sets the homework reads Bengali
    tg.chats[chat].title = ""
    one, two, _ = cls.students
    db = tmp_path / "db.sqlite3"
    clock = FrozenClock()
    async with harness(tg, db, clock, **kinds_env(tmp_path)):
        await started(tg, teacher)
        tg.user_says(chat, teacher, "/homework kinds 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "Kinds"), timeout=20)
        await take(tg, one, ("3.16", "9.8", "Outer  layer", "1971"))  # pi and the organ wrong
        tg.user_says(chat, teacher, "/homework stop")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework results"), timeout=20)
        run = attempt_run(db, one)
        done = await tg.wait_for(lambda: tg.find_message(one.id, "Homework done"))
        assert verdict(db, one, 4)[0] == 0

        # a short answer: a button accepting what the student typed
        await report(tg, one, done, run, 4)
        offer = await tg.wait_for(lambda: told(tg, teacher, "/regrade kinds 5 +উত্তর"))
        assert "নামহীন গ্রুপের একজন শিক্ষার্থী" in offer.text
        assert "এখনকার সঠিক উত্তর: Skin" in offer.text
        assert "এই শিক্ষার্থীর লেখা উত্তরটি গ্রহণ করতে" in offer.text
        assert str(abs(chat)) not in offer.text
        ((label, accept),) = [row[0] for row in offer.buttons]
        assert label == "✅ সঠিক ধরুন: “Outer layer”"
        assert accept is not None and accept.startswith(f"rr:{run}:5:+") and accept.endswith(":p")
        assert len(accept.encode()) <= 64
        refused = await tg.wait_answered(tg.tap(one.id, one, offer.message_id, accept))
        assert refused.show_alert  # only the group's moderators
        refused = await tg.wait_answered(tg.tap(two.id, two, offer.message_id, accept))
        assert refused.show_alert
        await tg.wait_answered(tg.tap(teacher.id, teacher, offer.message_id, accept))
        preview = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(teacher.id) if accept[:-1] + "y" in buttons(m)), None
            )
        )
        assert "প্রশ্ন ৫-এ “outer layer” উত্তরটিও পূর্ণ নম্বর পাবে" in preview.text
        assert verdict(db, one, 4)[0] == 0  # not applied yet
        await tg.wait_answered(tg.tap(teacher.id, teacher, preview.message_id, accept[:-1] + "y"))
        await edited(tg, teacher.id, preview, "outer layer")
        assert verdict(db, one, 4)[0] == 1

        # a number: the /regrade to type (number:tolerance), and a button widening the
        # tolerance to hold the number typed (a preview first)
        await report(tg, one, done, run, 2)
        number = await tg.wait_for(lambda: told(tg, teacher, "/regrade kinds 3 3.14:0.01"))
        assert "সহনসীমা" in number.text
        ((label, widen),) = [row[0] for row in number.buttons]
        assert label == "✅ সঠিক ধরুন: “3.16”" and widen == f"rr:{run}:3:#3.14:0.02:p"
        await tg.wait_answered(tg.tap(teacher.id, teacher, number.message_id, widen))
        wider = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(teacher.id) if widen[:-1] + "y" in buttons(m)), None
            )
        )
        assert "প্রশ্ন ৩-এর সঠিক উত্তর হবে ৩.১৪ ± ০.০২" in wider.text, wider.text
        await tg.wait_answered(tg.tap(teacher.id, teacher, wider.message_id, widen[:-1] + "y"))
        await tg.wait_for(lambda: verdict(db, one, 2)[0] == 1, what="3.16 right")
