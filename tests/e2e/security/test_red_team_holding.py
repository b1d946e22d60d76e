"""Red team, what held (kept so it keeps holding): forged and out-of-range ticks on a
several-answers question in a group, a tap replayed to the webhook, ``/rename`` against
homoglyphs and right-to-left marks, and hostile titles, options and names in ``/analysis`` and
``/export`` (escaped in the message, safe in the spreadsheet)."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path

from authorkit import poll, say
from botproc import BotProcess
from fakebot import FakeTelegram, User
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate
from refusalkit import answers
from regradekit import command, csv_rows
from teacherkit import FrozenClock, harness
from webhookkit import SECRET, webhook_env

BANK = """\
title: Ticks
language: en
settings:
  shuffle: false
  seconds: 600
questions:
  - id: primes
    question: Which are prime?
    options: ["2", "4", "3", "6"]
    correct: [1, 3]
  - id: sky
    type: truefalse
    question: The sky is green.
    correct: false
"""


def selections(db: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT user_id, picked FROM selections ORDER BY user_id").fetchall()
    finally:
        conn.close()


async def test_forged_ticks_in_a_group_change_nothing(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=2)
    other = populate(tg, students=1, chat_id=-1009999, base=3000)
    chat, (one, two) = cls.chat_id, cls.students
    db = tmp_path / "db.sqlite3"
    async with BotHarness(tg, db, env=bank_env(tmp_path, "ticks", BANK)):
        tg.user_says(chat, cls.creator, "/quiz ticks 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        tick_a = button_data(q1, "A")
        run = tick_a.split(":")[1]
        assert (await tg.wait_answered(tg.tap(chat, one, q1.message_id, tick_a))).show_alert
        before = selections(db)
        forged = [
            (chat, f"a:{run}:0:9"),  # an option the question does not have
            (chat, f"a:{run}:0:7"),
            (chat, f"a:{run}:1:0"),  # the next question, not open yet
            (chat, "a:999:0:0"),  # no such run
            (other.chat_id, f"a:{run}:0:1"),  # the run's data tapped in another group
            (one.id, f"a:{run}:0:1"),  # ... and in a private chat
        ]
        for where, data in forged:
            answer = await tg.wait_answered(tg.tap(where, two, q1.message_id, data))
            assert answer.show_alert and answer.text and "Your choice" not in answer.text, data
        assert selections(db) == before and answers(db) == []
        # the rightful ticks and Submit still work
        await tg.wait_answered(tg.tap(chat, two, q1.message_id, button_data(q1, "C")))
        done = await tg.wait_answered(tg.tap(chat, two, q1.message_id, button_data(q1, "✔ Submit")))
        assert done.text is not None and done.text.startswith("🟡 Partly right")
        assert len(answers(db)) == 1


async def test_a_tap_replayed_to_the_webhook_is_one_answer(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    env, url = webhook_env(tg, tmp_path, QUIZBOT_WEBHOOK_SECRET=SECRET)
    db = Path(env["QUIZBOT_DB"])
    extra = {k: v for k, v in env.items() if k.startswith(("QUIZBOT_WEBHOOK", "QUIZBOT_LISTEN"))}
    cls = populate(tg, students=1)
    chat, (student,) = cls.chat_id, cls.students
    bot = await BotProcess(tg, db, **extra).start()
    try:
        await tg.wait_for(lambda: tg.webhook_url == url, timeout=30, what="setWebhook")
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=20)
        first = tg.tap(chat, student, q1.message_id, button_data(q1, "A"))
        update = copy.deepcopy(tg.updates[-1].data)
        await tg.wait_answered(first, timeout=20)
        for _ in range(3):  # the same update, posted again
            tg.raw_update(copy.deepcopy(update))
        await tg.wait_for(tg.all_updates_consumed, timeout=20)
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results"), timeout=20)
        assert len(answers(db)) == 1
    finally:
        await bot.close()


async def written(tg: FakeTelegram, author: User, title: str, option: str) -> str:
    """A one-question quiz written in the chat; the name it was saved as."""
    await say(tg, author, f"/newquiz {title}", "Now send")
    await poll(tg, author, "Question 1 added", "Which one?", [option, "plain"], correct=[0])
    saved = await say(tg, author, "/done", "saved as")
    return saved.text.split("saved as ", 1)[1].split(",", 1)[0]


async def test_rename_refuses_homoglyphs_and_direction_marks(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(4242, "Teacher", language_code="en")
    async with BotHarness(tg, db_path):
        name = await written(tg, teacher, "Cells", "right")
        for new in ("cеlls-2", "\u202ecells", "cells\u200f", "ｃｅｌｌｓ", "zero"):
            reply = await say(tg, teacher, f"/rename {name} {new}", new[:3])
            assert "cannot be a name" in reply.text or "another quiz's name" in reply.text, new
        await say(tg, teacher, f"/rename {name} cell-basics", "is now")
        listing = await say(tg, teacher, "/myquizzes", "Your quizzes")
        assert "cell-basics" in listing.text


HOSTILE_TITLE = '<b>Bold</b> & "quotes" \u202eevil'
HOSTILE_OPTION = "</code><a href='tg://x'>x</a>"


async def test_analysis_and_export_show_hostile_texts_as_typed(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    eve = tg.add_user(7777, '=HYPERLINK("x")', "<i>Eve")
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        name = await written(tg, teacher, HOSTILE_TITLE, HOSTILE_OPTION)
        tg.user_says(chat, teacher, f"/quiz {name} 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        assert HOSTILE_OPTION in q1.text
        await tg.wait_answered(tg.tap(chat, eve, q1.message_id, button_data(q1, "A")))
        tg.user_says(chat, teacher, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "— results"))
        tg.user_says(teacher.id, teacher, "/start")  # reports come privately
        await command(tg, chat, teacher, f"/analysis {name}", "📬", clock)
        report = await tg.wait_for(lambda: tg.find_message(teacher.id, "Question analysis"))
        assert HOSTILE_TITLE in report.text  # shown as typed: escaped, not markup
        await command(tg, chat, teacher, "/export", "Sent to you privately", clock)
        results = await tg.wait_for(lambda: tg.find_message(teacher.id, "The group's results"))
        names = [row["name"] for row in csv_rows(results)]
        assert names and all(not n.startswith(("=", "+", "-", "@")) for n in names), names
        assert any("HYPERLINK" in n for n in names)
