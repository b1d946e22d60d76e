"""Red team, names: another teacher's published quiz named like a teacher's own quiz's title
is not started in its place (the teacher chooses, their own first); a title holding
right-to-left marks is listed inside a bidi isolate (U+2068 … U+2069), in messages and on
buttons, so it cannot turn the rest of the line around."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from authorkit import say, write_quiz
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import open_question, populate

FSI, PDI = "\u2068", "\u2069"


def runs(db: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT quiz_id, mode FROM runs ORDER BY run_id").fetchall()
    finally:
        conn.close()


async def test_own_quiz_is_not_shadowed_by_a_published_namesake(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=1)
    chat, teacher, other = cls.chat_id, cls.creator, cls.outsider
    boss = tg.add_user(5555, "Boss")
    async with BotHarness(tg, db_path, env={"QUIZBOT_ADMIN_IDS": "5555"}):
        assert await write_quiz(tg, other, "biology") == "biology"  # u.1
        await say(tg, boss, "/publish biology", "now offered to every group")
        assert await write_quiz(tg, teacher, "Biology") == "biology-2"  # u.2, the teacher's
        tg.user_says(chat, teacher, "/quiz biology")
        offer = await tg.wait_for(lambda: tg.find_message(chat, "Several quizzes match"))
        picks = [d for row in offer.buttons for _, d in row]
        assert picks == ["k:quiz:u.2", "k:quiz:u.1"]  # their own first
        assert runs(db_path) == []  # nothing started unasked
        assert f"{FSI}Biology{PDI}" in offer.text and f"{FSI}biology{PDI}" in offer.text
        # the exact name still names it alone for someone with no quiz of that title
        tg.user_says(chat, cls.admin, "/quiz biology")
        await tg.wait_for(lambda: open_question(tg, chat, 1))
        assert runs(db_path) == [("u.1", "group")]


async def test_titles_are_isolated_in_lists(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    chat, teacher = cls.chat_id, cls.creator
    title = "\u202eevil \u200fمرحبا"
    async with BotHarness(tg, db_path):
        name = await write_quiz(tg, teacher, title)
        mine = await say(tg, teacher, "/myquizzes", "Your quizzes")
        assert f"{FSI}{title}{PDI}" in mine.text
        tg.user_says(chat, teacher, "/quiz")
        listing = await tg.wait_for(lambda: tg.find_message(chat, name))
        assert f"{FSI}{title}{PDI}" in listing.text
        private = await say(tg, teacher, "/quiz", name)  # with a start button per quiz
        labels = [label for row in private.buttons for label, _ in row]
        assert any(label.endswith(f"{FSI}{title}{PDI}") for label in labels), labels
        tg.user_says(chat, teacher, f"/homework {name} 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "Homework:"))
        tg.user_says(chat, teacher, "/homework")
        open_list = await tg.wait_for(lambda: tg.find_message(chat, "until"))
        assert f"{FSI}{title}{PDI}" in open_list.text
