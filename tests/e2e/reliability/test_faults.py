"""Faults from Telegram and from the database, injected mid-quiz: the quiz goes on, no question
is skipped or posted twice, timers stay right and no stored answer is lost.

(A SIGKILL and restart mid-quiz is in tests/e2e/reliability/test_restart.py.)
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import (
    Class,
    assert_quiet,
    button_data,
    correct_label,
    is_question,
    open_question,
    populate,
    run_of,
    start_quiz,
)

OTHER_GROUP = -1009876543210
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply "
    "markup are exactly the same as a current content and reply markup of the message"
)
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def heads(tg: FakeTelegram, chat: int, prefix: str) -> list[StoredMessage]:
    """The bot's messages in ``chat`` whose first line starts with ``prefix``."""
    return [m for m in tg.messages(chat) if m.text.split("\n")[0].startswith(prefix)]


def posted(tg: FakeTelegram, chat: int, number: int) -> int:
    """How many times question ``number`` was posted (revealed or not)."""
    return len(heads(tg, chat, f"❓ Question {number}/")) + len(
        [m for m in heads(tg, chat, f"🔒 Question {number}/") if m.edits]
    )


def is_reveal(number: int) -> Any:
    return lambda params: (
        f"Question {number}/" in str(params.get("text", ""))
        and "closed" in str(params.get("text", ""))
    )


async def answer(
    tg: FakeTelegram, chat: int, user: User, question: StoredMessage, label: str | None = None
) -> str:
    data = button_data(question, label or correct_label(question))
    reply = await tg.wait_answered(tg.tap(chat, user, question.message_id, data))
    assert reply.text is not None
    return reply.text


# --- 429 Too Many Requests ---------------------------------------------------------------


async def test_429_on_posting_and_revealing_waits_and_skips_nothing(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        q1 = await start_quiz(tg, cls, seconds=5)
        run = run_of(q1)
        for student in cls.students[:2]:
            assert (await answer(tg, chat, student, q1)).startswith("✅")
        post_429 = tg.fail("sendMessage", retry_after=2, match=is_question(2))
        reveal_429 = tg.fail("editMessageText", retry_after=1, match=is_reveal(2))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=8)
        assert post_429.hits == 1
        tries = [c for c in tg.calls_to("sendMessage") if is_question(2)(c.params)]
        assert [c.status for c in tries] == [429, 200]
        assert tries[1].at - tries[0].at >= 2.0  # Telegram's retry_after was honoured
        # Question 2 is answered while its reveal is held up by the second 429.
        assert (await answer(tg, chat, cls.students[2], q2)).startswith("✅")
        q2_buttons = button_data(q2, "A")
        # No /next: the timer closes question 2, 5 s after it was really posted.
        await tg.wait_for(lambda: open_question(tg, chat, 3), timeout=15)
        assert reveal_429.hits == 1
        closed = tg.stored_message(chat, q2.message_id)
        assert closed is not None
        assert "Right answer" in closed.text
        reveal_calls = [c for c in tg.calls_to("editMessageText") if is_reveal(2)(c.params)]
        assert [c.status for c in reveal_calls] == [429, 200]
        assert 4.9 <= reveal_calls[0].at - q2.sent_at <= 7.5
        late = tg.tap(chat, cls.students[3], q2.message_id, q2_buttons)
        assert (await tg.wait_answered(late)).text == "⌛ This question is closed."
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for_message(chat, "results")
        for number in (1, 2, 3):
            assert posted(tg, chat, number) == 1, number
        assert posted(tg, chat, 4) == 0
        stored = await bot.services.store.answers(run)
        assert sorted((a.q_index, a.user_id) for a in stored) == [
            (0, cls.students[0].id),
            (0, cls.students[1].id),
            (1, cls.students[2].id),
        ]
        assert tg.max_in_window(chat) <= 20
    assert all(r.levelno <= logging.WARNING for r in caplog.records)


async def test_429_on_the_answer_count_does_not_hold_up_taps(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=8)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)

        def counts(p: dict[str, Any]) -> bool:
            return "answered" in str(p.get("text", ""))

        fault = tg.fail("editMessageText", retry_after=3, match=counts)
        await answer(tg, chat, cls.students[0], q1)
        limited = await tg.wait_for(
            lambda: next((c for c in tg.calls_to("editMessageText") if c.status == 429), None)
        )
        # Telegram said "wait 3 s" for this group; students keep tapping meanwhile.
        data = button_data(q1, correct_label(q1))
        queries = [tg.tap(chat, student, q1.message_id, data) for student in cls.students[1:]]
        replies = [await tg.wait_answered(q) for q in queries]
        assert all((r.text or "").startswith("✅") for r in replies)
        stored = await bot.services.store.answers(run)
        assert len(stored) == 8  # taken and stored during the wait
        retried = await tg.wait_for(
            lambda: next(
                (
                    c
                    for c in tg.calls_to("editMessageText")
                    if c.status == 200 and c.at > limited.at and counts(c.params)
                ),
                None,
            ),
            timeout=8,
        )
        assert retried.at - limited.at >= 3.0
        assert all(r.at < retried.at for r in replies), "taps waited for the 429"
        await tg.wait_for(
            lambda: "8 answered" in (tg.stored_message(chat, q1.message_id) or q1).text, timeout=8
        )
        assert fault.hits == 1
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert "8 answered, 8 right" in revealed.text
        assert posted(tg, chat, 2) == 1
    assert all(r.levelno <= logging.WARNING for r in caplog.records)


# --- network errors and timeouts ---------------------------------------------------------


async def test_dropped_connections_never_post_a_question_twice(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        q1 = await start_quiz(tg, cls, seconds=5)
        run = run_of(q1)
        await answer(tg, chat, cls.students[0], q1)
        # The reveal's connection drops before Telegram saw it: an edit is retried.
        tg.fail("editMessageText", drop_connection=True, match=is_reveal(1))
        # Question 2 is posted, then the connection drops before the answer: not retried.
        tg.fail("sendMessage", drop_connection=True, perform=True, match=is_question(2))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert "Right answer" in revealed.text
        assert len(revealed.edits) >= 1
        # The bot never learned question 2's message id, yet its buttons work.
        assert (await answer(tg, chat, cls.students[1], q2)).startswith("✅")
        # Its timer closes it; the reveal comes as a new message, then question 3.
        await tg.wait_for(lambda: open_question(tg, chat, 3), timeout=15)
        assert len(heads(tg, chat, "❓ Question 2/")) == 1  # never posted twice
        reveal2 = heads(tg, chat, "🔒 Question 2/")
        assert len(reveal2) == 1
        assert "1 answered, 1 right" in reveal2[0].text
        assert len(heads(tg, chat, "❓ Question 3/")) == 1
        drops = [c for c in tg.calls if c.fault == "drop"]
        assert len(drops) == 2
        stored = await bot.services.store.answers(run)
        assert sorted((a.q_index, a.user_id) for a in stored) == [
            (0, cls.students[0].id),
            (1, cls.students[1].id),
        ]
    loud = [r for r in caplog.records if r.levelno > logging.WARNING or r.exc_info]
    assert not loud, [r.getMessage() for r in loud]


async def test_slow_answers_past_the_timeout(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        request = bot.app.bot._request[1]
        request._read = 1.0  # stands in for the 10 s default
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)
        await answer(tg, chat, cls.students[0], q1)
        # Both are carried out at once but answered after the client gave up.
        tg.fail("editMessageText", delay=2.0, delay_then_process=False, match=is_reveal(1))
        tg.fail("sendMessage", delay=2.0, delay_then_process=False, match=is_question(2))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=8)
        # The edit was repeated ("message is not modified" then counts as done) ...
        # (the slow one is recorded when its answer finally goes out)
        edits = await tg.wait_for(
            lambda: (
                [c for c in tg.calls_to("editMessageText") if is_reveal(1)(c.params)][1:]
                and [c for c in tg.calls_to("editMessageText") if is_reveal(1)(c.params)]
            )
        )
        assert sorted(c.status for c in edits) == [200, 400]  # the slow one answers last
        assert any("message is not modified" in (c.description or "") for c in edits)
        # ... the send was not: question 2 exists once, and the quiz goes on.
        await tg.wait_for(
            lambda: [
                c
                for c in tg.calls_to("sendMessage")
                if c.fault == "delay" and is_question(2)(c.params)
            ]
        )
        assert len([c for c in tg.calls_to("sendMessage") if is_question(2)(c.params)]) == 1
        assert (await answer(tg, chat, cls.students[1], q2)).startswith("✅")
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 3), timeout=8)
        assert len(heads(tg, chat, "❓ Question 2/")) == 1
        assert len(heads(tg, chat, "🔒 Question 2/")) == 1
        assert len(await bot.services.store.answers(run)) == 2
    assert_quiet(caplog)


# --- "message is not modified", "message to edit not found", "query is too old" ----------


async def test_edit_and_callback_errors_do_not_stop_the_quiz(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)
        # The student's alert comes too late for Telegram: the answer still counts.
        tg.fail("answerCallbackQuery", error_code=400, description=TOO_OLD)
        data = button_data(q1, correct_label(q1))
        tg.tap(chat, cls.students[0], q1.message_id, data)
        await tg.wait_for(lambda: any(c.status == 400 for c in tg.calls_to("answerCallbackQuery")))
        await tg.wait_for(lambda: len(tg.group_traffic(chat)) >= 0 and store.group_commits >= 1)
        assert [a.user_id for a in await store.answers(run)] == [cls.students[0].id]
        assert (await answer(tg, chat, cls.students[1], q1)).startswith("✅")

        # Telegram says the reveal changes nothing: taken as done, the quiz goes on.
        tg.fail("editMessageText", error_code=400, description=NOT_MODIFIED, match=is_reveal(1))
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))

        # A moderator deletes question 2: taps on it still count, its reveal is posted anew.
        tg.api.delete_message({"chat_id": chat, "message_id": q2.message_id}, {})
        assert (await answer(tg, chat, cls.students[2], q2)).startswith("✅")
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 3))
        reveal2 = heads(tg, chat, "🔒 Question 2/")
        assert len(reveal2) == 1
        assert "1 answered, 1 right" in reveal2[0].text
        assert any(
            c.description and "message to edit not found" in c.description
            for c in tg.calls_to("editMessageText")
        )
        assert posted(tg, chat, 3) == 1
        assert len(await store.answers(run)) == 3
    assert_quiet(caplog)


# --- the bot removed, the group gone -----------------------------------------------------


def chat_calls_after(tg: FakeTelegram, chat: int, at: float) -> list[Any]:
    return [
        c
        for c in tg.calls
        if c.at > at and str(c.params.get("chat_id")) == str(chat) and c.method != "getUpdates"
    ]


async def test_bot_removed_or_group_gone_ends_only_that_run(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kicked = populate(tg, students=2)
    told = populate(tg, students=2, chat_id=OTHER_GROUP, base=5000)
    gone = populate(tg, students=2, chat_id=-1003333333333, base=8000)
    calm = populate(tg, students=2, chat_id=-1004444444444, base=9000)
    async with BotHarness(tg, db_path) as bot:
        groups, store = bot.services.groups, bot.services.store
        firsts = {
            cls.chat_id: await start_quiz(tg, cls, seconds=5 if cls is kicked else 600)
            for cls in (kicked, told, gone, calm)
        }
        runs = {chat: run_of(q1) for chat, q1 in firsts.items()}
        for cls in (kicked, told, gone, calm):
            await answer(tg, cls.chat_id, cls.students[0], firsts[cls.chat_id])

        # 1. Kicked without the bot noticing: its next edit gets 403 when the timer fires.
        tg.kick_bot(kicked.chat_id)
        await tg.wait_for(lambda: groups.running(kicked.chat_id, 0) is None, timeout=10)
        forbidden = next(c for c in tg.calls if c.status == 403)
        assert "bot was kicked" in (forbidden.description or "")

        # 2. Kicked, and Telegram tells the bot (my_chat_member): the run ends at once.
        tg.kick_bot(told.chat_id)
        tg.raw_update(
            {
                "my_chat_member": {
                    "chat": tg.chat(told.chat_id).to_dict(),
                    "from": told.creator.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": {"user": tg.bot.to_dict(), "status": "member"},
                    "new_chat_member": {
                        "user": tg.bot.to_dict(),
                        "status": "kicked",
                        "until_date": 0,
                    },
                }
            }
        )
        await tg.wait_for(lambda: groups.running(told.chat_id, 0) is None)

        # 3. The group was deleted: "chat not found" on the reveal.
        tg.fail(
            "*",
            times=100,
            error_code=400,
            description="Bad Request: chat not found",
            match=lambda p: str(p.get("chat_id")) == str(gone.chat_id),
        )
        tg.user_says(gone.chat_id, gone.creator, "/next")
        await tg.wait_for(lambda: groups.running(gone.chat_id, 0) is None)

        for cls in (kicked, told, gone):
            stored = await store.get_run(runs[cls.chat_id])
            assert stored is not None
            assert stored.status == "aborted", cls.chat_id
            assert len(await store.answers(runs[cls.chat_id])) == 1  # kept
        # Nothing more is sent to those chats.
        last = tg.now()
        await asyncio.sleep(0)
        # The other group's quiz goes on untouched.
        assert groups.running(calm.chat_id, 0) is not None
        assert (await answer(tg, calm.chat_id, calm.students[1], firsts[calm.chat_id])).startswith(
            "✅"
        )
        tg.user_says(calm.chat_id, calm.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, calm.chat_id, 2))
        tg.user_says(calm.chat_id, calm.creator, "/stop")
        await tg.wait_for_message(calm.chat_id, "results")
        await tg.wait_for(lambda: groups.running(calm.chat_id, 0) is None)
        calm_run = await store.get_run(runs[calm.chat_id])
        assert calm_run is not None
        assert calm_run.status == "stopped"
        for cls in (kicked, told, gone):
            assert not [
                c
                for c in chat_calls_after(tg, cls.chat_id, last)
                if c.method != "answerCallbackQuery"
            ]
    assert_quiet(caplog)


# --- supergroup migration ----------------------------------------------------------------


def basic_group(tg: FakeTelegram, chat_id: int, base: int) -> Class:
    creator = tg.add_user(base + 1, "Mita", username=f"mita{base}")
    pupils = [tg.add_user(base + 100 + i, f"Student{i}") for i in range(3)]
    tg.add_group(chat_id, "Basic group", creator=creator, members=pupils, supergroup=False)
    return Class(chat_id, creator, creator, pupils[0], pupils)


async def test_supergroup_migration_mid_quiz(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    told = basic_group(tg, -4001, 1000)
    silent = basic_group(tg, -4002, 2000)
    new_told, new_silent = -1004001, -1004002
    async with BotHarness(tg, db_path) as bot:
        groups, store = bot.services.groups, bot.services.store
        q1 = await start_quiz(tg, told)
        run = run_of(q1)
        await answer(tg, told.chat_id, told.students[0], q1)
        # 1. The group is upgraded and the bot gets the service message.
        tg.migrate_group(told.chat_id, new_told)
        await tg.wait_for(lambda: groups.running(new_told, 0) is not None)
        assert groups.running(told.chat_id, 0) is None
        tg.user_says(new_told, told.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, new_told, 2))
        assert len(heads(tg, new_told, "🔒 Question 1/")) == 1  # question 1's reveal followed
        await answer(tg, new_told, told.students[1], q2)
        tg.user_says(new_told, told.creator, "/stop")
        results = await tg.wait_for_message(new_told, "results")
        await tg.wait_for(lambda: groups.running(new_told, 0) is None)
        assert "Student0" in results.text
        assert "Student1" in results.text
        stored = await store.get_run(run)
        assert stored is not None
        assert (stored.chat_id, stored.status) == (new_told, "stopped")
        assert len(await store.answers(run)) == 2

        # 2. The bot learns of the upgrade only from Telegram's error on its next call.
        q1 = await start_quiz(tg, silent, seconds=5)
        run = run_of(q1)
        await answer(tg, silent.chat_id, silent.students[0], q1)
        tg.add_group(
            new_silent,
            "Basic group",
            supergroup=True,
            members=silent.students,
            creator=silent.creator,
        )
        tg.chat(silent.chat_id).migrated_to = new_silent
        q2 = await tg.wait_for(lambda: open_question(tg, new_silent, 2), timeout=10)
        reveal1 = heads(tg, new_silent, "🔒 Question 1/")
        assert len(reveal1) == 1, "question 1's reveal was lost in the move"
        assert "1 answered, 1 right" in reveal1[0].text
        assert (await answer(tg, new_silent, silent.students[1], q2)).startswith("✅")
        stored = await store.get_run(run)
        assert stored is not None
        assert (stored.chat_id, stored.status) == (new_silent, "running")
        assert len(await store.answers(run)) == 2
        await groups.stop(run)  # the results too go to the new chat
        await tg.wait_for_message(new_silent, "results")
    assert_quiet(caplog)


# --- the database briefly locked ---------------------------------------------------------

HOLD_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
print("released", flush=True)
"""


async def test_database_locked_by_another_process(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=5)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        # SQLite's own wait is cut short so the bot's retry is what saves the answers.
        await store.set_busy_timeout(0.1)
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)
        backup = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLD_LOCK, str(db_path), "2.0", stdout=asyncio.subprocess.PIPE
        )
        assert backup.stdout is not None
        assert (await backup.stdout.readline()).strip() == b"locked"
        locked = tg.now()
        queries = [
            tg.tap(chat, student, q1.message_id, button_data(q1, correct_label(q1)))
            for student in cls.students
        ]
        replies = [await tg.wait_answered(q, timeout=15) for q in queries]
        assert (await backup.stdout.readline()).strip() == b"released"
        assert await backup.wait() == 0
        for reply in replies:
            assert reply.text is not None
            assert reply.text.startswith("✅"), reply.text  # not "could not be saved"
            assert reply.at >= locked + 1.0  # they waited for the 2 s lock
        assert store.busy_retries > 0
        assert len(await store.answers(run)) == 5
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert "5 answered, 5 right" in revealed.text
    assert_quiet(caplog)
