"""End to end: quizzes in forum topics.

A quiz lives in the topic where it was started: every message goes there, one quiz runs per
topic, the group's budget is shared by all its topics, and a restart resumes it in its topic.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import (
    Class,
    button_data,
    correct_label,
    open_question,
    populate,
    question_messages,
    run_of,
    until,
)

from bot.features.stats.queries import Leaderboard
from bot.storage import StoredRun

LECTURES, QUIZ = 50, 80  # thread ids of two forum topics


def forum_class(tg: FakeTelegram, *, students: int = 8) -> Class:
    cls = populate(tg, students=students, forum=True)
    tg.add_topic(cls.chat_id, LECTURES, "Lectures")
    tg.add_topic(cls.chat_id, QUIZ, "Quiz")
    return cls


async def stored_run(bot: BotHarness, run_id: int) -> StoredRun:
    run = await bot.services.store.get_run(run_id)
    assert run is not None
    return run


def send_threads(tg: FakeTelegram, chat: int) -> set[object]:
    """The message_thread_id of every sendMessage call the bot made into ``chat``."""
    return {
        c.params.get("message_thread_id")
        for c in tg.calls_to("sendMessage")
        if c.params.get("chat_id") == chat
    }


async def test_two_quizzes_in_two_topics_share_the_budget(tg: FakeTelegram, db_path: Path) -> None:
    cls = forum_class(tg)
    chat = cls.chat_id
    in_lectures, in_quiz = cls.students[:4], cls.students[4:]
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(chat, cls.creator, "/quiz zero 600", thread_id=LECTURES)
        tg.user_says(chat, cls.admin, "/quiz zero 600", thread_id=QUIZ)
        await tg.wait_for(
            lambda: open_question(tg, chat, 1, LECTURES) and open_question(tg, chat, 1, QUIZ)
        )
        run_l = bot.services.groups.running(chat, LECTURES)
        run_q = bot.services.groups.running(chat, QUIZ)
        assert run_l is not None and run_q is not None
        assert run_l.run_id != run_q.run_id
        assert bot.services.groups.running(chat, 0) is None
        assert (await stored_run(bot, run_l.run_id)).thread_id == LECTURES
        assert (await stored_run(bot, run_q.run_id)).thread_id == QUIZ
        for topic in (LECTURES, QUIZ):
            assert tg.find_message(chat, "8 questions", topic) is not None

        # A second quiz in the same topic is refused, with a reply in that topic.
        again = tg.user_says(chat, cls.admin, "/quiz zero", thread_id=LECTURES)
        refusal = await tg.wait_for_message(chat, "already running", thread_id=LECTURES)
        assert refusal.reply_to == again["message_id"]

        # Rounds: both topics answer and move on together; the Lectures quiz is stopped
        # after question 3, the Quiz topic's one plays all 8 questions.
        for number in range(1, 9):
            live = [(QUIZ, in_quiz, run_q.run_id)]
            if number <= 3:
                live.append((LECTURES, in_lectures, run_l.run_id))
            taps = []
            for topic, students, run_id in live:
                question = open_question(tg, chat, number, topic)
                assert question is not None, (topic, number)
                assert question.thread_id == topic
                assert run_of(question) == run_id
                data = button_data(question, correct_label(question))
                taps += [tg.tap(chat, s, question.message_id, data) for s in students]
            for query in taps:
                answer = await tg.wait_answered(query)
                assert answer.text is not None and answer.text.startswith("✅"), answer.text
            tg.user_says(chat, cls.admin, "/next", thread_id=QUIZ)
            if number < 3:
                tg.user_says(chat, cls.creator, "/next", thread_id=LECTURES)
            elif number == 3:
                tg.user_says(chat, cls.creator, "/stop", thread_id=LECTURES)
            if number < 8:
                await tg.wait_for(
                    partial(open_question, tg, chat, number + 1, QUIZ),
                    what=f"question {number + 1} in the Quiz topic",
                )
            if number < 3:
                await tg.wait_for(
                    partial(open_question, tg, chat, number + 1, LECTURES),
                    what=f"question {number + 1} in the Lectures topic",
                )
            if number == 3:
                stopped = await tg.wait_for_message(chat, "results", thread_id=LECTURES)
                assert "a moderator ended the quiz early" in stopped.text
                await until(lambda: bot.services.groups.running(chat, LECTURES) is None)
                # /next in Lectures now: nothing runs there, and the Quiz topic's quiz is
                # untouched.
                tg.user_says(chat, cls.creator, "/next", thread_id=LECTURES)
                await tg.wait_for_message(chat, "No quiz is running here", thread_id=LECTURES)
                assert bot.services.groups.running(chat, QUIZ) is run_q

        finished = await tg.wait_for_message(chat, "results", thread_id=QUIZ)
        assert "ended the quiz early" not in finished.text
        await until(lambda: bot.services.groups.running(chat, QUIZ) is None)
        assert (await stored_run(bot, run_l.run_id)).status == "stopped"
        assert (await stored_run(bot, run_q.run_id)).status == "finished"

        # Every message is in its topic; nothing landed in General.
        assert tg.messages(chat, None) == []
        assert None not in send_threads(tg, chat)
        assert [m.thread_id for m in question_messages(tg, chat, LECTURES)] == [LECTURES] * 3
        assert len(question_messages(tg, chat, QUIZ)) == 8
        assert "\n".join(m.text for m in tg.messages(chat, LECTURES)).count("results") == 1

        # The group's budget held across both topics, and it was needed: more was sent than
        # one window allows.
        assert len(tg.group_traffic(chat)) > 20
        assert tg.max_in_window(chat) <= 20

        # The leaderboard counts both topics' players, and answers in the topic it was asked.
        pacer = bot.app.bot_data.pacer
        await until(lambda: pacer.group(chat).idle(), timeout=BotHarness.WINDOW + 5)
        tg.user_says(chat, cls.students[0], "/leaderboard", thread_id=QUIZ, ephemeral=False)
        board = await tg.wait_for_message(chat, "Leaderboard", thread_id=QUIZ)
        assert "Players: 8" in board.text
        assert tg.max_in_window(chat) <= 20


async def test_resume_after_restart_in_the_same_topic(tg: FakeTelegram, db_path: Path) -> None:
    cls = forum_class(tg)
    chat = cls.chat_id
    first = BotHarness(tg, db_path)
    await first.start()
    try:
        tg.user_says(chat, cls.creator, "/quiz zero 600", thread_id=LECTURES)
        tg.user_says(chat, cls.admin, "/quiz zero 5", thread_id=QUIZ)
        await tg.wait_for(
            lambda: open_question(tg, chat, 1, LECTURES) and open_question(tg, chat, 1, QUIZ)
        )
        q1 = open_question(tg, chat, 1, LECTURES)
        assert q1 is not None
        right = correct_label(q1)
        answer = await tg.wait_answered(
            tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, right))
        )
        assert answer.text is not None and answer.text.startswith("✅")
        run_l = first.services.groups.running(chat, LECTURES)
        run_q = first.services.groups.running(chat, QUIZ)
        assert run_l is not None and run_q is not None
        ids = (run_l.run_id, run_q.run_id)
    finally:
        await first.stop()  # a crash: both runs are left running mid-question

    for run_id in ids:
        assert (await _peek(db_path, run_id)) == "running"

    async with BotHarness(tg, db_path) as bot:
        await until(
            lambda: (
                bot.services.groups.running(chat, LECTURES)
                and bot.services.groups.running(chat, QUIZ)
            )
        )
        resumed_l = bot.services.groups.running(chat, LECTURES)
        resumed_q = bot.services.groups.running(chat, QUIZ)
        assert resumed_l is not None and resumed_q is not None
        assert (resumed_l.run_id, resumed_q.run_id) == ids
        assert (resumed_l.thread_id, resumed_q.thread_id) == (LECTURES, QUIZ)

        # Starting again in Lectures: still running there, said in Lectures.
        tg.user_says(chat, cls.admin, "/quiz zero", thread_id=LECTURES)
        await tg.wait_for_message(chat, "already running", thread_id=LECTURES)

        # /next in Lectures: the reveal counts the answer given before the crash, and
        # question 2 is posted in Lectures.
        tg.user_says(chat, cls.creator, "/next", thread_id=LECTURES)
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2, LECTURES))
        assert q2.thread_id == LECTURES
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert "1 answered, 1 right" in revealed.text

        # The Quiz topic's 5-second question runs out on its own after the restart; the next
        # question follows in that topic.
        q2_quiz = await tg.wait_for(lambda: open_question(tg, chat, 2, QUIZ), timeout=15)
        assert q2_quiz.thread_id == QUIZ

        tg.user_says(chat, cls.creator, "/stop", thread_id=LECTURES)
        tg.user_says(chat, cls.admin, "/stop", thread_id=QUIZ)
        await tg.wait_for(
            lambda: (
                tg.find_message(chat, "results", LECTURES)
                and tg.find_message(chat, "results", QUIZ)
            )
        )
        assert tg.messages(chat, None) == []
        assert None not in send_threads(tg, chat)
        assert tg.max_in_window(chat) <= 20


async def _peek(db_path: Path, run_id: int) -> str:
    import aiosqlite

    async with aiosqlite.connect(db_path) as conn:
        rows = list(
            await conn.execute_fetchall("SELECT status FROM runs WHERE run_id = ?", (run_id,))
        )
    return str(rows[0][0])


async def test_closed_or_deleted_topic_ends_its_quiz_only(tg: FakeTelegram, db_path: Path) -> None:
    cls = forum_class(tg)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(chat, cls.creator, "/quiz zero 600", thread_id=LECTURES)
        tg.user_says(chat, cls.admin, "/quiz zero 5", thread_id=QUIZ)
        await tg.wait_for(
            lambda: open_question(tg, chat, 1, LECTURES) and open_question(tg, chat, 1, QUIZ)
        )
        run_l = bot.services.groups.running(chat, LECTURES)
        run_q = bot.services.groups.running(chat, QUIZ)
        assert run_l is not None and run_q is not None

        # Lectures is closed; an admin (who may still write there) moves on: the next
        # question cannot be posted (TOPIC_CLOSED) and the run ends.
        tg.close_topic(chat, LECTURES)
        tg.user_says(chat, cls.creator, "/next", thread_id=LECTURES)
        await until(lambda: bot.services.groups.running(chat, LECTURES) is None)
        assert (await stored_run(bot, run_l.run_id)).status == "aborted"
        assert any("TOPIC_CLOSED" in (c.description or "") for c in tg.calls_to("sendMessage"))

        # The Quiz topic's quiz goes on by itself.
        assert bot.services.groups.running(chat, QUIZ) is run_q
        await tg.wait_for(lambda: open_question(tg, chat, 2, QUIZ), timeout=15)

        # Reopened, Lectures can run a new quiz.
        tg.reopen_topic(chat, LECTURES)
        tg.user_says(chat, cls.creator, "/quiz zero 600", thread_id=LECTURES)
        await tg.wait_for(
            lambda: len([m for m in tg.messages(chat, LECTURES) if "8 questions" in m.text]) == 2
        )
        await tg.wait_for(lambda: open_question(tg, chat, 1, LECTURES))
        new_l = bot.services.groups.running(chat, LECTURES)
        assert new_l is not None and new_l.run_id != run_l.run_id

        # The Quiz topic is deleted: when its question runs out, the run ends.
        tg.delete_topic(chat, QUIZ)
        await until(lambda: bot.services.groups.running(chat, QUIZ) is None, timeout=15)
        assert (await stored_run(bot, run_q.run_id)).status == "aborted"
        assert bot.services.groups.running(chat, LECTURES) is new_l

        tg.user_says(chat, cls.creator, "/stop", thread_id=LECTURES)
        await tg.wait_for_message(chat, "results", thread_id=LECTURES)
        assert tg.messages(chat, None) == []
        assert tg.max_in_window(chat) <= 20


async def test_general_topic_and_start_button(tg: FakeTelegram, db_path: Path) -> None:
    """General has no message_thread_id: its quiz is keyed 0 and stays out of the topics."""
    cls = forum_class(tg)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(chat, cls.creator, "/quiz zero 600")  # in General
        await tg.wait_for(lambda: open_question(tg, chat, 1, None))
        general = bot.services.groups.running(chat, 0)
        assert general is not None

        # The quiz list answers in the topic (no start buttons in a group); a quiz started
        # there runs in that topic.
        tg.user_says(chat, cls.admin, "/quiz", thread_id=QUIZ)
        listing = await tg.wait_for_message(chat, "Quizzes", thread_id=QUIZ)
        assert listing.buttons == []
        tg.user_says(chat, cls.admin, "/quiz 1", thread_id=QUIZ)  # the list's number
        await tg.wait_for(lambda: open_question(tg, chat, 1, QUIZ))
        topic_run = bot.services.groups.running(chat, QUIZ)
        assert topic_run is not None and topic_run.run_id != general.run_id

        # /stop in General stops General's quiz only.
        tg.user_says(chat, cls.creator, "/stop")
        results = await tg.wait_for_message(chat, "results", thread_id=None)
        assert results.thread_id is None
        await until(lambda: bot.services.groups.running(chat, 0) is None)
        assert bot.services.groups.running(chat, QUIZ) is topic_run
        assert tg.find_message(chat, "results", QUIZ) is None

        # /stop in General again: nothing runs there (said in General).
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for_message(chat, "No quiz is running here", thread_id=None)
        assert bot.services.groups.running(chat, QUIZ) is topic_run

        tg.user_says(chat, cls.admin, "/stop", thread_id=QUIZ)
        await tg.wait_for_message(chat, "results", thread_id=QUIZ)
        assert [m.thread_id for m in question_messages(tg, chat)] == [None, QUIZ]
        assert tg.messages(chat, LECTURES) == []


async def test_group_without_topics_is_unchanged(tg: FakeTelegram, db_path: Path) -> None:
    """A reply thread in an ordinary supergroup is no topic: the quiz is the group's."""
    cls = populate(tg, students=2)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        # A moderator answers inside a reply thread (message_thread_id set, not a topic).
        said = tg.user_says(
            chat, cls.admin, "/next", thread_id=q1.message_id, reply_to=q1.message_id
        )
        assert said["message_thread_id"] == q1.message_id
        assert "is_topic_message" not in said
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        tg.user_says(chat, cls.admin, "/quiz zero", thread_id=q1.message_id, reply_to=q1.message_id)
        await tg.wait_for_message(chat, "already running")
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for_message(chat, "results")
        await until(lambda: bot.services.groups.running(chat, 0) is None)
        assert all(m.thread_id is None for m in tg.messages(chat))
        assert send_threads(tg, chat) == {None}


async def test_unexpected_error_apology_in_the_topic(tg: FakeTelegram, db_path: Path) -> None:
    cls = forum_class(tg)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:

        async def broken(*args: object, **kwargs: object) -> Leaderboard:
            raise RuntimeError("database on fire")

        bot.services.store.leaderboard = broken  # type: ignore[method-assign]
        tg.user_says(chat, cls.students[0], "/leaderboard", thread_id=LECTURES, ephemeral=False)
        apology = await tg.wait_for_message(chat, "Sorry, something went wrong")
        assert apology.thread_id == LECTURES
        assert tg.messages(chat, None) == []
