"""End to end: leaderboards, /me, seasons, CSV export, supergroup migration, practice, /lang."""

from __future__ import annotations

import csv
import io
import sqlite3
from functools import partial
from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, Class, button_data, correct_label, open_question, populate, until


async def play_two_questions(tg: FakeTelegram, cls: Class, chat: int) -> None:
    """Students 0-2 answer right twice, student 3 wrong; then the quiz is stopped."""
    tg.user_says(chat, cls.creator, "/quiz zero 600")
    for number in (1, 2):
        q = await tg.wait_for(partial(open_question, tg, chat, number))
        right = correct_label(q)
        wrong = next(label for label in "ABCD" if label != right)
        for i, student in enumerate(cls.students[:4]):
            await tg.wait_answered(
                tg.tap(chat, student, q.message_id, button_data(q, right if i < 3 else wrong))
            )
        tg.user_says(chat, cls.creator, "/next" if number == 1 else "/stop")
    await tg.wait_for(lambda: tg.find_message(chat, "🏁"))


async def test_leaderboard_me_seasons_export(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=12)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        await play_two_questions(tg, cls, chat)
        await tg.wait_for(lambda: bot.services.groups.running(chat, 0) is None)

        tg.user_says(chat, cls.students[5], "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "Leaderboard"))
        lines = board.text.split("\n")
        assert lines[0] == "🏆 Leaderboard — season 1"
        ranked = [line for line in lines if " points · " in line]
        assert len(ranked) == 4
        assert all(line.endswith("2 right · 1 quiz") for line in ranked[:3])
        assert "Student3" in ranked[3]
        assert "0 points · 0 right" in ranked[3]
        assert "Players: 4" in board.text

        tg.user_says(chat, cls.students[6], "/top zero", ephemeral=False)
        by_quiz = await tg.wait_for(lambda: tg.find_message(chat, "Quiz: zero"))
        assert "Student0" in by_quiz.text

        tg.user_says(chat, cls.students[0], "/me", ephemeral=False)
        me = await tg.wait_for(lambda: tg.find_message(chat, "Right: 2/2 (100%)"))
        assert "Rank: 1" in me.text or "Rank: 2" in me.text or "Rank: 3" in me.text

        # A non-moderator cannot reset or export.
        tg.user_says(chat, cls.outsider, "/resetleaderboard")
        await tg.wait_for(lambda: tg.find_message(chat, "Only the group's moderators"))
        tg.user_says(chat, cls.creator, "/resetleaderboard")
        confirm = await tg.wait_for(lambda: tg.find_message(chat, "End season 1"))
        yes = confirm.buttons[0][0][1]
        assert yes is not None
        # Only a moderator's tap counts.
        refused = await tg.wait_answered(tg.tap(chat, cls.students[0], confirm.message_id, yes))
        assert refused.text == "Only the group's moderators can do that."
        await tg.wait_answered(tg.tap(chat, cls.admin, confirm.message_id, yes))
        await tg.wait_for(
            lambda: (
                "Season 2 has started"
                in (tg.stored_message(chat, confirm.message_id) or confirm).text
            )
        )
        stale = await tg.wait_answered(tg.tap(chat, cls.admin, confirm.message_id, yes))
        assert stale.text == "This button is out of date."

        tg.user_says(chat, cls.students[7], "/leaderboard", ephemeral=False)
        await tg.wait_for(lambda: tg.find_message(chat, "Nobody has scored this season"))
        tg.user_says(chat, cls.students[8], "/leaderboard season 1", ephemeral=False)
        old = await tg.wait_for(lambda: tg.find_message(chat, "season 1\n"))
        assert "Players: 4" in old.text

        # /export: the files go to the moderator's private chat, never to the group; one who
        # never started the bot gets a button to do so first
        tg.user_says(chat, cls.admin, "/export")
        first = await tg.wait_for(lambda: tg.find_message(chat, "start a private chat with me"))
        assert [u for row in first.buttons for u in row] != []
        tg.user_says(cls.admin.id, cls.admin, "/start")
        tg.user_says(chat, cls.admin, "/export")
        await tg.wait_for(lambda: tg.find_message(chat, "Sent to you privately"))
        doc = await tg.wait_for(
            lambda: next((m for m in tg.messages(cls.admin.id) if m.document), None)
        )
        assert not any(m.document for m in tg.messages(chat))
        assert doc.document is not None
        assert doc.document.filename is not None and doc.document.data is not None
        assert doc.document.filename.endswith(".csv")
        assert str(abs(chat)) not in doc.document.filename
        rows = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
        assert len(rows) == 4
        assert {r["correct"] for r in rows} == {"2", "0"}
        quiz_column = "zero (ZeRO and Sharded Optimizers)"
        assert all(r["quiz"] == quiz_column and r["q1"] and r["q2"] and not r["q3"] for r in rows)


async def test_a_failed_export_apologises_once(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    async with BotHarness(tg, db_path):
        await play_two_questions(tg, cls, chat)  # something to export
        # Telegram refuses the file: one apology, not two
        tg.user_says(cls.admin.id, cls.admin, "/start")  # the files go to the private chat
        tg.fail("sendDocument", error_code=400, description="Bad Request: file is too big")
        tg.user_says(chat, cls.admin, "/export")
        await tg.wait_for(lambda: tg.find_message(chat, "Sorry, something went wrong"))
        tg.user_says(chat, cls.admin, "/export")  # the next one goes through
        await tg.wait_for(lambda: next((m for m in tg.messages(cls.admin.id) if m.document), None))
        await tg.wait_consumed()
        assert len([m for m in tg.messages(chat) if m.text.startswith("Sorry")]) == 1


async def test_supergroup_migration_carries_the_leaderboard(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=4, chat_id=-4242)
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(-4242, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, -4242, 1))
        await tg.wait_answered(
            tg.tap(-4242, cls.students[0], q1.message_id, button_data(q1, correct_label(q1)))
        )
        new_id = -1009999999999
        tg.migrate_group(-4242, new_id)
        await tg.wait_for(lambda: bot.services.groups.running(new_id, 0) is not None)
        tg.user_says(new_id, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, new_id, 2))
        await tg.wait_answered(
            tg.tap(new_id, cls.students[0], q2.message_id, button_data(q2, correct_label(q2)))
        )
        tg.user_says(new_id, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(new_id, "🏁"))
        tg.user_says(new_id, cls.students[1], "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(new_id, "Leaderboard"))
        assert "2 right · 1 quiz\n" in board.text


async def test_private_practice_and_language(tg: FakeTelegram, db_path: Path) -> None:
    student = tg.add_user(77, "Rina", language_code="bn")
    dm = tg.private_chat(student)
    async with BotHarness(tg, db_path, env={"QUIZBOT_LANGUAGE": "en"}) as bot:
        tg.user_says(dm, student, "/start")
        hello = await tg.wait_for(lambda: tg.find_message(dm, "স্বাগতম"))
        assert "quizbot" in hello.text
        tg.user_says(dm, student, "/lang en")
        await tg.wait_for(lambda: tg.find_message(dm, "OK, I'll write in English"))
        tg.user_says(dm, student, "/help")
        await tg.wait_for(lambda: tg.find_message(dm, "Commands for students"))
        tg.user_says(dm, student, "/quiz zero")
        score = 0
        for number in range(1, 9):
            q = await tg.wait_for(partial(open_question, tg, dm, number))
            assert "⏱" not in q.text  # no timer in practice
            label = (
                correct_label(q)
                if number != 3
                else next(x for x in "ABCD" if x != correct_label(q))
            )
            score += number != 3
            answer = await tg.wait_answered(
                tg.tap(dm, student, q.message_id, button_data(q, label))
            )
            assert answer.text is not None
            assert not answer.show_alert
            edited = tg.stored_message(dm.id, q.message_id)
            assert edited is not None
            assert edited.buttons == []
            assert ("✅ Right!" if number != 3 else "❌ Wrong. The answer is") in edited.text
            # no group's "N answered, M right" line nor per-option counts about one student
            assert "answered" not in edited.text and " — 1" not in edited.text
        done = await tg.wait_for(lambda: tg.find_message(dm, "Practice finished"))
        assert f"Score: {score}/8" in done.text
        # Practice never counts on a group's leaderboard, but /me counts it.
        tg.user_says(dm, student, "/me")
        me = await tg.wait_for(lambda: tg.find_message(dm, "Practice: 7 right of 8"))
        assert "Your stats" in me.text
        assert bot.services.groups.active() == []


async def test_backup_command_while_the_bot_runs(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    import asyncio
    import os
    import sqlite3
    import sys

    cls = populate(tg, students=6)
    chat = cls.chat_id
    async with BotHarness(tg, db_path):
        await play_two_questions(tg, cls, chat)
        dest = tmp_path / "copy.sqlite3"
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "backup",
            str(dest),
            env={
                "PATH": os.environ.get("PATH", ""),
                "QUIZBOT_DB": str(db_path),
                "PYTHONPATH": str(ROOT),
            },
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err
        # the bot keeps working while and after the copy is made
        tg.user_says(chat, cls.students[0], "/me", ephemeral=False)
        await tg.wait_for(lambda: tg.find_message(chat, "Right: 2/2"))
    assert oct(dest.stat().st_mode & 0o777) == "0o600"
    with sqlite3.connect(dest) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone() == (8,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_results_follow_a_migration_learned_from_their_own_send(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2, chat_id=-777)
    new = tg.add_group(
        -1007770000000,
        "ZeRO study group",
        creator=cls.creator,
        members=cls.students,
        supergroup=True,
    )
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(-777, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, -777, 1))
        await tg.wait_answered(
            tg.tap(-777, cls.students[0], q1.message_id, button_data(q1, correct_label(q1)))
        )
        run_id = int(button_data(q1, "A").split(":")[1])
        tg.fail(
            "sendMessage",
            error_code=400,
            migrate_to_chat_id=new.id,
            description="Bad Request: group chat was upgraded to a supergroup chat",
            match=lambda p: "🏁" in str(p.get("text", "")),
        )
        tg.user_says(-777, cls.creator, "/stop")
        results = await tg.wait_for(lambda: tg.find_message(new.id, "🏁"))
        assert "1/1 right" in results.text
        stored = await tg.wait_for(lambda: bot.services.groups.running(new.id, 0) is None)
        assert stored
        run = await bot.services.store.get_run(run_id)
        assert run is not None
        assert (run.chat_id, run.status) == (new.id, "stopped")


async def test_names_and_group_titles_stay_current(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id

    def stored_name(user_id: int) -> str | None:
        with sqlite3.connect(db_path) as conn:
            row = conn.execute("SELECT name FROM users WHERE user_id = ?", (user_id,)).fetchone()
        return row[0] if row else None

    async with BotHarness(tg, db_path):
        await play_two_questions(tg, cls, chat)
        # Student0 changes their name in Telegram; any later update from them carries it, and
        # it is stored in the background (a tap's alert never waits for that write).
        cls.students[0].first_name = "Rumana"
        cls.students[0].last_name = "<Akter>"
        tg.user_says(chat, cls.students[0], "/me", ephemeral=False)
        await until(lambda: stored_name(cls.students[0].id) == "Rumana <Akter>")
        tg.user_says(chat, cls.students[1], "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(chat, "Leaderboard"))
        assert "Rumana <Akter>" in board.text
        assert "Student0" not in board.text
        # In a private chat, /leaderboard names the student's groups by their titles.
        dm = tg.private_chat(cls.students[0])
        tg.user_says(dm, cls.students[0], "/leaderboard")
        mine = await tg.wait_for(lambda: tg.find_message(dm, "Your groups"))
        assert "• ZeRO study group: rank " in mine.text
        assert str(chat) not in mine.text
