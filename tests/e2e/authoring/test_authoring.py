"""End to end: /newquiz with quiz polls and Aiken text, drafts across restarts, limits, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from authorkit import draft_count, poll, say
from fakebot import FakeTelegram, User
from harness import BotHarness
from quizkit import assert_quiet, open_question, populate

from bot.features.authoring import drafts
from bot.features.authoring.queries import NewAuthored
from bot.storage import Draft


def bot_texts(tg: FakeTelegram, user: User) -> list[str]:
    return [m.text for m in tg.messages(user.id)]


async def test_quiz_polls_become_a_quiz_its_author_runs_in_a_group(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=2)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz", "First send its title")
        await say(tg, teacher, "Adam & memory", "Now send the questions")
        first = await poll(
            tg,
            teacher,
            "Question 1 added",
            "Who keeps Adam's moments?",
            ["Optimizer state", "The data loader", "The tokenizer"],
            correct=[0],
            explanation="Adam keeps two moments per parameter.",
        )
        assert "Right answer: A) Optimizer state" in first.text
        await poll(
            tg, teacher, "Question 2 added", "Bytes per fp16 value?", ["1", "2", "4"], correct=[1]
        )
        third = await poll(
            tg, teacher, "Question 3 added", "A mistake?", ["yes", "no"], correct=[1]
        )
        # Undo: only the last question can go, and only once
        undo_2 = next(d for row in first.buttons for _, d in row)
        q = tg.tap(teacher.id, teacher, first, undo_2)
        assert "Only the draft's last question" in ((await tg.wait_answered(q)).text or "")
        undo_3 = next(d for row in third.buttons for _, d in row)
        tg.tap(teacher.id, teacher, third, undo_3)
        await tg.wait_for(lambda: "Question 3 was removed" in third.text)
        q = tg.tap(teacher.id, teacher, third, undo_3)
        assert (await tg.wait_answered(q)).show_alert
        saved = await say(tg, teacher, "/done", "saved as")
        assert "“Adam &amp; memory”" not in saved.text and "“Adam & memory”" in saved.text
        assert "adam-memory" in saved.text and "2 questions" in saved.text
        store = bot.services.store
        assert await store.draft(teacher.id) is None
        [row] = await store.authored_by(teacher.id)
        assert (row.name, row.question_count, row.origin) == ("adam-memory", 2, "polls")
        assert "Adam keeps two moments" in (await store.authored_text(row.quiz_no) or "")

        # a student (not a moderator) can never start it; another moderator does not see it
        tg.user_says(cls.chat_id, cls.outsider, "/quiz adam-memory")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "Only the group's moderators"))
        tg.user_says(cls.chat_id, cls.admin, "/quiz adam-memory")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "There is no quiz"))
        assert bot.services.groups.running(cls.chat_id, 0) is None
        # its author, a moderator there, starts it
        tg.user_says(cls.chat_id, teacher, "/quiz adam-memory 600")
        q1 = await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))
        assert "Question 1/2" in q1.text
        run = bot.services.groups.running(cls.chat_id, 0)
        assert run is not None and run.quiz.id == row.quiz_id
        tg.user_says(cls.chat_id, teacher, "/stop")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "🏁"))
    assert_quiet(caplog)


async def test_refused_polls_and_texts_change_nothing(tg: FakeTelegram, db_path: Path) -> None:
    teacher = tg.add_user(71, "Rina", language_code="bn")
    other = tg.add_user(72, "Sami")
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await poll(tg, teacher, "/newquiz", "প্রশ্ন?", ["ক", "খ"])  # no draft yet
        await say(tg, teacher, "/newquiz জিরো অনুশীলন", "এবার প্রশ্ন পাঠান")
        await poll(tg, teacher, "সাধারণ পোল", "Regular?", ["a", "b"], quiz=False)
        await poll(
            tg, teacher, "সাধারণ পোল", "Several?", ["a", "b"], quiz=False, allows_multiple=True
        )
        await poll(tg, teacher, "ফরোয়ার্ড করা কুইজের", "Fwd?", ["a", "b"], forwarded_from=other)
        await poll(  # several right options, hidden from the bot as well
            tg,
            teacher,
            "ফরোয়ার্ড করা কুইজের",
            "Fwd 2?",
            ["a", "b", "c"],
            correct=[0, 2],
            forwarded_from=other,
        )
        await poll(tg, teacher, "২ থেকে ১০টি বিকল্প", "Many?", [str(i) for i in range(12)])
        long = await poll(
            tg, teacher, "এই প্রশ্নটি নেওয়া গেল না", "Long why?", ["a", "b"], explanation="x" * 200
        )  # fits a poll, not our alert with its verdict; the validator's words in Bengali
        assert "• প্রশ্ন ১: প্রশ্নটি বাদ গেছে: explanation: ২০০ অক্ষর; " in long.text
        same = await poll(tg, teacher, "এই প্রশ্নটি নেওয়া গেল না", "Same?", ["a", "a"])
        assert "• প্রশ্ন ১: প্রশ্নটি বাদ গেছে: options[2]: বিকল্প ১-এর সঙ্গে হুবহু এক" in same.text
        assert await draft_count(store, teacher) == 0
        # flooding /newquiz: one draft, unchanged
        for _ in range(3):
            await say(tg, teacher, "/newquiz again", "আপনার একটি খসড়া চলছে")
        found = await store.draft(teacher.id)
        assert found is not None and found.title == "জিরো অনুশীলন"
        await say(tg, teacher, "/done", "কোনো প্রশ্ন নেই")
        # in a group, /newquiz is refused
        await say(tg, other, "/cancel", "There is no draft")
        await say(tg, teacher, "/cancel", "বাদ দেওয়া হলো")
        assert await store.draft(teacher.id) is None
        assert await store.authored_by(teacher.id) == []


async def test_a_draft_and_a_running_stored_quiz_survive_a_restart(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    teacher = cls.creator
    async with BotHarness(tg, db_path):
        await say(tg, teacher, "/newquiz", "title")
        await say(tg, teacher, "Restart-proof", "Now send")
        await poll(tg, teacher, "Question 1 added", "One?", ["a", "b"], correct=[1])
    async with BotHarness(tg, db_path) as bot:
        await poll(tg, teacher, "Question 2 added", "Two?", ["a", "b", "c"], correct=[2])
        await say(tg, teacher, "/done", "saved as")
        [row] = await bot.services.store.authored_by(teacher.id)
        assert row.question_count == 2
        quiz = bot.services.authored.quiz(row.quiz_id)
        assert quiz is not None and [q.correct for q in quiz.questions] == [1, 2]
        tg.user_says(cls.chat_id, teacher, f"/quiz {row.name} 600")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))
    async with BotHarness(tg, db_path) as bot:  # the stored quiz is found again: it resumes
        run = bot.services.groups.running(cls.chat_id, 0)
        assert run is not None and run.quiz.id == row.quiz_id
        tg.user_says(cls.chat_id, teacher, "/next")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 2))


async def test_limits_per_quiz_and_per_author(tg: FakeTelegram, db_path: Path) -> None:
    busy = tg.add_user(91, "Busy")
    prolific = tg.add_user(92, "Prolific")
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        full = [drafts.DraftQuestion(f"Q{i}?", ("a", "b"), 0) for i in range(200)]
        await store.save_draft(Draft(busy.id, "questions", "Big", "en", drafts.to_json(full), 0))
        await poll(tg, busy, "at most 200 questions", "One more?", ["a", "b"])
        assert await draft_count(store, busy) == 200
        saved = await say(tg, busy, "/done", "saved as")
        assert "200 questions" in saved.text
        small = drafts.bank("T", "en", full[:1]).yaml_text
        assert small is not None
        for n in range(49):
            row = await store.add_authored(
                NewAuthored(prolific.id, f"p{n}", "T", "en", small, 1, "polls", 0), limit=50
            )
            assert row is not None
            bot.services.authored.put(row)
        await say(tg, prolific, "/newquiz Fifty", "Now send")
        await poll(tg, prolific, "Question 1 added", "Q?", ["a", "b"])
        await say(tg, prolific, "/done", "saved as")
        await say(tg, prolific, "/newquiz Fifty-one", "already have 50 quizzes")
        assert len(await store.authored_by(prolific.id)) == 50
        assert await store.draft(prolific.id) is None
