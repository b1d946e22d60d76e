"""/regrade for every kind of question, end to end: a several-answers key in a group
run, a numeric tolerance and one more short answer in a homework; each previewed (named by
option text, counted in students), applied by the moderator's tap only, bad keys refused in
both languages, the new scores on /leaderboard and in the homework's results, after a kill -9."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from botproc import BotProcess
from fakebot import FakeTelegram, StoredMessage, User
from homeworkkit import plain, totals_match_answers
from quizkit import button_data, open_question, populate
from regradekit import buttons, command, edited, kinds_env, take
from teacherkit import FrozenClock, harness


async def leaderboard(tg: FakeTelegram, chat: int, user: User, clock: FrozenClock) -> str:
    """/leaderboard's lines (without the marks around names, nor the group's first reply's
    language hint)."""
    shown = await command(tg, chat, user, "/leaderboard", "Leaderboard", clock)
    return plain(shown.text).split("\n\n🌐")[0]


async def test_a_several_answers_key_in_a_group(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=5)
    chat = cls.chat_id
    one, two, three, four, five = cls.students
    clock = FrozenClock()
    db = tmp_path / "db.sqlite3"
    async with harness(tg, db, clock, **kinds_env(tmp_path)):
        tg.user_says(chat, cls.creator, "/quiz kinds")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        data = {x: button_data(q1, x) for x in ["A", "B", "C", "D", "✔ Submit"]}

        async def submit(student: User, *labels: str) -> None:
            for x in (*labels, "✔ Submit"):
                await tg.wait_answered(tg.tap(chat, student, q1.message_id, data[x]))

        # the key is A, C ("2", "3"): full marks, a half, nothing, a half, nothing
        await submit(one, "A", "C")
        await submit(two, "C")
        await submit(three, "B", "D")
        await submit(four, "A", "B", "C")
        await submit(five, "B")
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        for student in (one, two, three, four, five):
            await tg.wait_answered(tg.tap(chat, student, q2.message_id, button_data(q2, "False")))
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results"))
        board = await leaderboard(tg, chat, cls.creator, clock)
        assert "Student0 — 2100 points · 2 right" in board  # 1000, then 1000 + streak 100
        assert "Student1 — 1500 points · 1 right" in board  # 500 + 1000
        assert "Student2 — 1000 points · 1 right" in board
        assert "Student3 — 1500 points · 1 right" in board
        assert "Student4 — 1000 points · 1 right" in board

        # bad keys: a short reply each (in the group's language), nothing changes
        for text, reply in (
            ("/regrade kinds 1 A,E", "Question 1 has options A, B, C, D."),
            ("/regrade kinds 1 +2", "Question 1 has options A, B, C, D."),
            ("/regrade kinds 2 A,B", "Question 2 has one right answer: give one letter of A, B."),
        ):
            await command(tg, chat, cls.creator, text, reply, clock)
        tg.user_says(chat, cls.creator, "/lang bn")
        await tg.wait_for(lambda: tg.find_message(chat, "বাংলা"))
        await command(
            tg, chat, cls.creator, "/regrade kinds 1 ক,ঙ", "প্রশ্ন ১-এর বিকল্প: A, B, C, D", clock
        )
        tg.user_says(chat, cls.creator, "/lang en")
        await tg.wait_for(lambda: tg.find_message(chat, "in English from now on"))
        assert board == await leaderboard(tg, chat, cls.creator, clock)

        # the key becomes B, D ("4", "6") — in Bengali letters: a preview, by option text
        preview = await command(tg, chat, cls.creator, "/regrade kinds 1 খ, ঘ", "Apply it?", clock)
        assert "question 1's right answer becomes B (“4”), D (“6”)." in preview.text
        # one 2100 -> 1000 (its streak bonus goes too: two rows), two 1500 -> 1000, three
        # 1000 -> 2100 (1000, then 1000 + 100), four 1500 -> 1000, five 1000 -> 1500
        assert (
            "verdict of 5 answers and the points of 5 students (points in all: -500)"
            in preview.text
        )
        apply, cancel = buttons(preview)
        assert apply == "rg:kinds:1:13:y" and cancel == "rg:kinds:1:13:n"
        refused = await tg.wait_answered(tg.tap(chat, one, preview.message_id, apply))
        assert refused.show_alert and "moderators" in (refused.text or "")
        assert board == await leaderboard(tg, chat, cls.creator, clock)  # not applied yet
        await tg.wait_answered(tg.tap(chat, cls.creator, preview.message_id, apply))
        done = await edited(tg, chat, preview, "re-graded")
        assert "5 answers scored differently, points of 5 students changed" in done.text
        board = await leaderboard(tg, chat, cls.creator, clock)
        assert "🥇 1. Student2 — 2100 points · 2 right" in board
        assert "Student4 — 1500 points · 1 right" in board
        for name in ("Student0", "Student1", "Student3"):
            assert f"{name} — 1000 points · 1 right" in board
        again = await command(
            tg, chat, cls.creator, "/regrade kinds 1 B,D", "Nothing to change", clock
        )
        assert again.buttons == []
    totals_match_answers(db)
    with sqlite3.connect(db) as conn:
        rows = {
            user: (correct, credit, points)
            for user, correct, credit, points in conn.execute(
                "SELECT user_id, correct, credit, points FROM answers WHERE q_index = 0"
            )
        }
    assert rows == {
        one.id: (0, None, 0),
        two.id: (0, None, 0),
        three.id: (1, None, 1000),
        four.id: (0, None, 0),
        five.id: (0, 0.5, 500),
    }


async def say(tg: FakeTelegram, chat: int, user: User, text: str, expect: str) -> StoredMessage:
    """``user`` sends ``text``; the bot's new message containing ``expect``."""
    before = {m.message_id for m in tg.messages(chat)}
    tg.user_says(chat, user, text, ephemeral=False)  # a visible command: its reply in the chat
    return await tg.wait_for(
        lambda: next(
            (m for m in tg.messages(chat) if m.message_id not in before and expect in m.text), None
        ),
        what=expect,
        timeout=20,
    )


def homework_rights(db: Path) -> dict[int, tuple[int, int]]:
    """Each student's (right answers, points) in the homework's attempt, as stored."""
    with sqlite3.connect(db) as conn:
        return {
            user: (right, points)
            for user, right, points in conn.execute(
                "SELECT a.user_id, SUM(a.correct), SUM(a.points) FROM homework_attempts AS h"
                " JOIN answers AS a ON a.run_id = h.run_id GROUP BY a.user_id"
            )
        }


async def test_a_numeric_tolerance_and_one_more_short_answer_in_a_homework_survive_kill_9(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    one, _, two = cls.students  # both read English
    db = tmp_path / "db.sqlite3"
    env = {**kinds_env(tmp_path), "QUIZBOT_HOMEWORK_RESULTS": "group"}  # on the leaderboard
    bot = await BotProcess(tg, db, **env).start()
    try:
        tg.user_says(chat, cls.creator, "/homework kinds 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "Kinds"), timeout=20)
        # one: pi outside the tolerance, the organ in other words; two: every answer right
        await take(tg, one, ("3.16", "9.8", "Outer  layer", "1971"))
        await take(tg, two, ("3.14", "9.8", "SKIN", "১৯৭১"))
        # open homework is no obstacle to a preview (applied below, once it has ended)
        early = await say(tg, chat, cls.creator, "/regrade kinds 3 3.14:0.05", "Apply it?")
        assert "verdict of 1 answer and the points of 1 student" in early.text
        tg.user_says(chat, cls.creator, "/homework stop")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework results"), timeout=20)
        before = homework_rights(db)
        assert before[one.id][0] == 4 and before[two.id][0] == 6

        # bad keys: a short reply each, nothing changes
        for text, reply in (
            ("/regrade kinds 3 abc", "Question 3 is answered with a number"),
            ("/regrade kinds 3 1..x", "Question 3 is answered with a number"),
            ("/regrade kinds 5 +", "Write the answer to accept after the +"),
            ("/regrade kinds 5 skin", "Question 5 is answered in words"),
            ("/regrade kinds 5 3.14", "Question 5 is answered in words"),
            ("/regrade kinds 1 3.14", "Question 1 has options A, B, C, D."),
        ):
            await say(tg, chat, cls.creator, text, reply)
        assert homework_rights(db) == before

        # a wider tolerance (Bengali digits): one's 3.16 is right now
        preview = await say(tg, chat, cls.creator, "/regrade kinds ৩ ৩.১৪:০.০৫", "Apply it?")
        assert "question 3's right answer becomes 3.14 ± 0.05." in preview.text
        assert "verdict of 1 answer and the points of 1 student" in preview.text
        apply = buttons(preview)[0]
        assert apply == "rg:kinds:3:#3.14:0.05:y"
        refused = await tg.wait_answered(tg.tap(chat, two, preview.message_id, apply))
        assert refused.show_alert and "moderators" in (refused.text or "")
        await tg.wait_answered(tg.tap(chat, cls.creator, preview.message_id, apply), timeout=20)
        done = await edited(tg, chat, preview, "re-graded")
        assert "1 answer scored differently, points of 1 student changed" in done.text
        # an interval, the bank's other notation: 3..3.2 is 3.1 ± 0.1, nothing changes for them
        # but the key itself, which is offered as such
        only = await say(tg, chat, cls.creator, "/regrade kinds 3 3.1..3.2", "Apply it?")
        assert "No stored answer scores differently" in only.text
        # the same key again: nothing at all
        await say(tg, chat, cls.creator, "/regrade kinds 3 3.14:0.05", "Nothing to change")

        # one more short answer, as the judge normalises it (case, spaces): previewed ...
        accept = await say(tg, chat, cls.creator, "/regrade kinds 5 +outer LAYER", "Apply it?")
        assert "question 5 also accepts “outer LAYER”, for full marks." in accept.text
        assert "verdict of 1 answer and the points of 1 student" in accept.text
        await bot.kill()  # ... and killed: the first re-grading is kept, the button still works
        bot = await BotProcess(tg, db, **env).start()
        after = homework_rights(db)
        assert after[one.id][0] == 5 and after[one.id][1] > before[one.id][1]
        assert after[two.id] == before[two.id]
        await tg.wait_answered(
            tg.tap(chat, cls.creator, accept.message_id, buttons(accept)[0]), timeout=20
        )
        accepted = await edited(tg, chat, accept, "re-graded")
        assert "question 5 is re-graded and accepts “outer layer” too" in accepted.text
        final = homework_rights(db)
        assert final[one.id][0] == 6 and final[one.id][1] > after[one.id][1]
        board = plain((await say(tg, chat, cls.creator, "/leaderboard", "Leaderboard")).text)
        assert f"Student0 — {final[one.id][1]} points · 6 right" in board
        assert f"Student2 — {final[two.id][1]} points · 6 right" in board
    finally:
        await bot.close()
    totals_match_answers(db)
