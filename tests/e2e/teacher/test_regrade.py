"""Re-grading, question analysis and students' reports, end to end: checked through
/leaderboard, /me, /export and the private analysis report."""

from __future__ import annotations

import functools
from pathlib import Path

from fakebot import BOT_USERNAME, FakeTelegram
from homeworkkit import plain, totals_match_answers
from quizkit import open_question, populate, start_quiz, until
from regradekit import command, csv_rows, edited, tap_bank
from teacherkit import FrozenClock, harness

from bot.core.bank import Quiz
from bot.render import label


def bank_letter(option: int) -> str:
    return label(option)


async def test_regrade_analysis_and_reports(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    s0, s1, s2, s3 = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        quiz: Quiz = bot.services.catalog["zero"]
        q1 = quiz.questions[0]
        right, wrong = q1.correct, (q1.correct + 1) % len(q1.options)
        for student in (s2, cls.admin):  # they have started the bot: recaps come directly
            tg.user_says(tg.private_chat(student), student, "/start")
            await tg.wait_for(functools.partial(tg.messages, student.id))

        first = await start_quiz(tg, cls)
        busy = await command(tg, chat, cls.creator, "/regrade zero", "running in this group", clock)
        assert "Re-grade it once it has ended" in busy.text
        for student, option in ((s0, right), (s1, wrong), (s2, wrong), (s3, right)):
            await tap_bank(tg, bot, cls, student, first, option)
        tg.user_says(chat, cls.creator, "/next")
        second = await tg.wait_for(lambda: open_question(tg, chat, 2))
        for student in (s0, s1, s2, s3):
            await tap_bank(tg, bot, cls, student, second, quiz.questions[1].correct)
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results"))

        # frozen clock: 1000 per right answer, +100 for the second in a row
        board = await command(tg, chat, cls.creator, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student0 — 2100 points · 2 right" in plain(board.text)
        assert "🥉 3. Student1 — 1000 points · 1 right" in plain(board.text)

        # --- reports from a recap: the button under each missed question, then a reason
        recap = await tg.wait_for(lambda: tg.find_message(s2.id, "your recap"))
        assert recap.buttons == [[("⚠️ Report a problem: Q1", recap.buttons[0][0][1])]]
        await tg.wait_answered(tg.tap(s2.id, s2, recap.message_id, recap.buttons[0][0][1]))
        ask = await tg.wait_for(lambda: tg.find_message(s2.id, "question 1: what is wrong?"))
        assert [row[0][0] for row in ask.buttons] == ["Wrong answer key", "Unclear", "Typo"]
        key_report = ask.buttons[0][0][1]
        assert key_report is not None
        thanks = await tg.wait_answered(tg.tap(s2.id, s2, ask.message_id, key_report))
        assert thanks.text is None
        await tg.wait_for(
            lambda: "Thank you!" in (tg.stored_message(s2.id, ask.message_id) or ask).text
        )
        again = await tg.wait_answered(tg.tap(s2.id, s2, ask.message_id, key_report))
        assert again.text == "You have reported this already." and again.show_alert
        forged = await tg.wait_answered(tg.tap(s2.id, s2, ask.message_id, "p:999999:0:k"))
        assert forged.text == "This button is no longer valid." and forged.show_alert
        for data, alert in (
            ("pc:123456", "This button is no longer valid."),
            ("h:999999:0:0", "This homework is no longer running."),
            ("hs:1", "This button is no longer valid."),  # a group's button, in private
        ):
            got = await tg.wait_answered(tg.tap(s2.id, s2, ask.message_id, data))
            assert (got.text, got.show_alert) == (alert, True)
        # someone who was not in that run cannot report on it
        nadia = cls.outsider
        tg.user_says(tg.private_chat(nadia), nadia, "/start")
        await tg.wait_for(lambda: tg.messages(nadia.id))
        outsider = await tg.wait_answered(tg.tap(nadia.id, nadia, ask.message_id, key_report))
        assert outsider.text == "This button is no longer valid."
        in_group = await tg.wait_answered(tg.tap(chat, s2, first.message_id, key_report))
        assert in_group.text == "This button is no longer valid."

        # --- /analysis: the moderator who never started the bot gets a deep link
        refusal = await command(tg, chat, s0, "/analysis", "Only the group's moderators", clock)
        assert refusal is not None
        link = await command(tg, chat, cls.creator, "/analysis", "could not send you", clock)
        url = link.reply_markup["inline_keyboard"][0][0]["url"]  # type: ignore[index]
        assert url == f"https://t.me/{BOT_USERNAME}?start=an-{abs(chat)}_zero"
        tg.user_says(tg.private_chat(cls.outsider), cls.outsider, f"/start an-{abs(chat)}_zero")
        await tg.wait_for(lambda: tg.find_message(cls.outsider.id, "Only the group's moderators"))
        tg.user_says(tg.private_chat(cls.creator), cls.creator, f"/start an-{abs(chat)}_zero")
        report = await tg.wait_for(lambda: tg.find_message(cls.creator.id, "Question analysis"))
        assert "season 1 · taken 4 times" in report.text
        assert "Options are named by their text, as the class saw them" in report.text
        block = report.text.split("Q1. ")[1].split("Q2. ")[0]
        assert "👥 4 answered · ✅ 2 got it right (50%)" in block
        # the wrong option by its text (the class saw shuffled letters), not a bank letter
        assert f"most chosen wrong answer: “{q1.options[wrong].en[:40]}" in block
        assert "” (50%)" in block
        assert "half the answers came within 0.0 s" in block
        assert "students' reports: Wrong answer key 1" in block
        assert "D +" not in report.text and "sitting" not in report.text  # no jargon
        q2_block = report.text.split("Q2. ")[1].split("Q3. ")[0]
        assert "✅ 4 got it right (100%)" in q2_block
        assert "stronger and weaker students did about the same" in q2_block
        # four students are too few for a flag: nothing is called too easy or a wrong key
        assert "too easy" not in report.text and "check the key" not in report.text
        # the admin started the bot: the report goes straight to the private chat
        tg.user_says(chat, cls.admin, "/analysis zero")
        await tg.wait_for(lambda: tg.find_message(cls.admin.id, "প্রশ্ন বিশ্লেষণ"))  # in Bengali

        # --- /regrade QUIZ N X: question 1's key becomes the wrong option
        await command(
            tg,
            chat,
            s0,
            f"/regrade zero 1 {bank_letter(wrong)}",
            "Only the group's moderators",
            clock,
        )
        await command(tg, chat, cls.creator, "/regrade zero ৯ A", "questions 1 to 8", clock)
        await command(tg, chat, cls.creator, "/regrade zero 1 Z", "has options A, B, C, D", clock)
        # a preview first (nothing changes yet), applied by its button, only by a moderator
        bengali_letter = "কখগঘ"[wrong]  # ক–ঘ work as A–D (and Bengali digits as ASCII)
        preview = await command(
            tg, chat, cls.creator, f"/regrade zero ১ {bengali_letter}", "Apply it?", clock
        )
        new_key = f"{bank_letter(wrong)} (“{q1.options[wrong].en[:40]}"
        assert f"question 1's right answer becomes {new_key}" in preview.text
        assert "verdict of 4 answers and the points of 4 students" in preview.text
        apply = f"rg:zero:1:{wrong}:y"
        assert [d for row in preview.buttons for _, d in row] == [apply, f"rg:zero:1:{wrong}:n"]
        board = await command(tg, chat, cls.creator, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student0 — 2100 points" in plain(board.text)  # not applied yet
        refused = await tg.wait_answered(tg.tap(chat, s0, preview.message_id, apply))
        assert refused.show_alert and "moderators" in (refused.text or "")
        await tg.wait_answered(tg.tap(chat, cls.creator, preview.message_id, apply))
        done = await edited(tg, chat, preview, "re-graded")
        assert ("…”). 4 answers scored differently, points of 4 students changed.") in done.text
        assert f"question 1 is re-graded, its right answer is now {new_key}" in done.text
        board = await command(tg, chat, cls.creator, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student1 — 2100 points · 2 right" in plain(board.text)
        assert "🥈 2. Student2 — 2100 points · 2 right" in plain(board.text)
        assert "3. Student0 — 1000 points · 1 right" in plain(board.text)
        me = await command(tg, chat, s1, "/me", "Rank:", clock)
        assert "Rank: 1 · 2100 points" in me.text
        nothing = await command(
            tg,
            chat,
            cls.creator,
            f"/regrade zero 1 {bank_letter(wrong)}",
            "Nothing to change",
            clock,
        )
        assert nothing is not None

        # /export: the results reflect it, and a second file analyses each question
        tg.user_says(cls.creator.id, cls.creator, "/start")  # the files come privately
        await command(tg, chat, cls.creator, "/export", "Sent to you privately", clock)
        results = await tg.wait_for(lambda: tg.find_message(cls.creator.id, "The group's results"))
        by_user = {row["name"]: row for row in csv_rows(results)}
        assert (by_user["Student1"]["points"], by_user["Student1"]["correct"]) == ("2100", "2")
        assert (by_user["Student0"]["points"], by_user["Student0"]["correct"]) == ("1000", "1")
        questions = await tg.wait_for(
            lambda: tg.find_message(cls.creator.id, "Question analysis, this")
        )
        rows = csv_rows(questions)
        assert [row["question"] for row in rows] == [str(n) for n in range(1, 9)]
        assert rows[0]["answered"] == "4" and rows[0]["right_share"] == "0.500"
        assert rows[0]["top_wrong_option"] == q1.options[right].en  # the old key, by its text
        # the student's report of a wrong key is resolved by the fix
        assert rows[0]["reports_key"] == "0" and rows[0]["median_seconds"] == "0.0"
        assert rows[2]["answered"] == "0" and rows[2]["right_share"] == ""

        # the fix is the quiz's key now: /regrade QUIZ (the current keys) has nothing to undo
        await command(tg, chat, cls.creator, "/regrade zero", "Nothing to change", clock)
        # putting the old key back is offered only as what it is: an undo of the fix
        undo = f"/regrade zero 1 {bank_letter(right)}"
        back = await command(tg, chat, cls.creator, undo, "Apply it?", clock)
        assert "This undoes the key fix of question 1 made on" in back.text
        await tg.wait_answered(tg.tap(chat, cls.creator, back.message_id, f"rg:zero:1:{right}:n"))
        dropped = await edited(tg, chat, back, "cancelled")
        assert "nothing changed" in dropped.text
        board = await command(tg, chat, cls.creator, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student1 — 2100 points" in plain(board.text)  # cancelled: as it was
        back = await command(tg, chat, cls.creator, undo, "Apply it?", clock)
        await tg.wait_answered(tg.tap(chat, cls.creator, back.message_id, f"rg:zero:1:{right}:y"))
        await edited(tg, chat, back, "4 answers scored differently")
        board = await command(tg, chat, cls.creator, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student0 — 2100 points · 2 right" in plain(board.text)
        await until(lambda: True)
    totals_match_answers(db_path)


async def test_a_students_report_reaches_the_teacher_with_a_regrade_button(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    s0, s1 = cls.students
    teacher = cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        quiz: Quiz = bot.services.catalog["zero"]
        q1 = quiz.questions[0]
        right, wrong = q1.correct, (q1.correct + 1) % len(q1.options)
        for user in (s0, teacher):  # recaps and the report come privately
            tg.user_says(tg.private_chat(user), user, "/start")
            await tg.wait_for(functools.partial(tg.messages, user.id))
        first = await start_quiz(tg, cls)
        await tap_bank(tg, bot, cls, s0, first, wrong)
        await tap_bank(tg, bot, cls, s1, first, right)
        tg.user_says(chat, teacher, "/stop")
        recap = await tg.wait_for(lambda: tg.find_message(s0.id, "your recap"))
        await tg.wait_answered(tg.tap(s0.id, s0, recap.message_id, recap.buttons[0][0][1]))
        ask = await tg.wait_for(lambda: tg.find_message(s0.id, "question 1: what is wrong?"))
        await tg.wait_answered(tg.tap(s0.id, s0, ask.message_id, ask.buttons[0][0][1]))

        # the teacher who started the run hears of it privately: question, reason, key, buttons
        told = await tg.wait_for(lambda: tg.find_message(teacher.id, "A student in"))
        assert "reports question 1 of ZeRO and Sharded Optimizers: Wrong answer key" in told.text
        assert f"Its right answer now: {bank_letter(right)} (“" in told.text
        data = [d for row in told.buttons for _, d in row]
        assert len(data) == len(q1.options) - 1 and f"rr:1:1:{right}:p" not in data
        make_wrong = f"rr:1:1:{wrong}:p"
        assert make_wrong in data
        assert not tg.find_message(s1.id, "A student in")  # nobody else is told

        # a non-moderator's tap is refused; the teacher's shows the preview, Apply applies it
        forged = await tg.wait_answered(tg.tap(s0.id, s0, told.message_id, make_wrong))
        assert forged.show_alert
        await tg.wait_answered(tg.tap(teacher.id, teacher, told.message_id, make_wrong))
        preview = await tg.wait_for(lambda: tg.find_message(teacher.id, "Apply it?"))
        assert "verdict of 2 answers and the points of 2 students" in preview.text
        board = await command(tg, chat, teacher, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student1 — 1000 points" in plain(board.text)  # not applied yet
        apply = f"rr:1:1:{wrong}:y"
        assert [d for row in preview.buttons for _, d in row] == [apply, f"rr:1:1:{wrong}:n"]
        await tg.wait_answered(tg.tap(teacher.id, teacher, preview.message_id, apply))
        await edited(tg, teacher.id, preview, "2 answers scored differently")
        board = await command(tg, chat, teacher, "/leaderboard", "Leaderboard", clock)
        assert "🥇 1. Student0 — 1000 points" in plain(board.text)
    totals_match_answers(db_path)
