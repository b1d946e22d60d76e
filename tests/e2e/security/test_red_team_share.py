"""Red team, share links: a stored quiz shared by link is practised only by those given the
link. Quiz numbers count up from 1 and show in buttons, so forged start payloads and callback
data on every start path (start buttons, "which quiz?" picks, group links, homework links,
duration buttons) must start nothing; the link, and the "practise again" button its practice
ends with, still work (also after a restart)."""

from __future__ import annotations

import re
import sqlite3
from functools import partial
from pathlib import Path

from authorkit import say, write_quiz
from fakebot import BOT_USERNAME, FakeTelegram, User
from quizkit import button_data, open_question, populate
from refusalkit import greeted, refused
from teacherkit import FrozenClock, harness

from bot.i18n import t_plain
from bot.i18n.lang import LANGS


def practice_runs(db: Path) -> list[tuple[int, str]]:
    """Every practice run: (chat, quiz)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT chat_id, quiz_id FROM runs WHERE mode = 'practice' ORDER BY run_id"
        ).fetchall()
    finally:
        conn.close()


def homework_rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM homework").fetchone()[0])
    finally:
        conn.close()


async def practise_to_the_end(tg: FakeTelegram, user: User, count: int) -> str:
    """``user`` answers every question of the practice open in their chat; the data of the
    "practise again" button its end offers."""
    for n in range(1, count + 1):
        question = await tg.wait_for(partial(open_question, tg, user.id, n), what=f"q{n}")
        await tg.wait_answered(
            tg.tap(user.id, user, question.message_id, button_data(question, "A"))
        )
    again = {t_plain(lang, "practice_again") for lang in LANGS}
    done = await tg.wait_for(
        lambda: next(
            (
                m
                for m in reversed(tg.messages(user.id))
                if any(b in again for r in m.buttons for b, _ in r)
            ),
            None,
        ),
        what="practise again",
    )
    return next(d for row in done.buttons for b, d in row if b in again and d)


async def test_a_shared_quiz_starts_only_from_its_link(tg: FakeTelegram, db_path: Path) -> None:
    """A stranger who never got the link forges every start path: each refused, no run made;
    the friend given the link practises, and again from the end's button."""
    cls = populate(tg, students=1)
    teacher, chat = cls.creator, cls.chat_id
    stranger = tg.add_user(4444, "Stranger")
    friend = tg.add_user(5555, "Friend")
    async with harness(tg, db_path, FrozenClock()):
        mine = await greeted(tg, stranger)
        await greeted(tg, friend)
        await greeted(tg, teacher)
        shared_name = await write_quiz(tg, teacher, "Shared")  # u.1, shared below
        await write_quiz(tg, teacher, "Hidden")  # u.2, never shared
        link = await say(tg, teacher, f"/share {shared_name}", "start=sq-")
        found = re.search(rf"https://t\.me/{BOT_USERNAME}\?start=sq-([A-Za-z0-9_-]+)", link.text)
        assert found is not None and len(found[1]) == 16
        token = found[1]
        forged_token = ("A" if token[0] != "A" else "B") + token[1:]
        assert practice_runs(db_path) == []

        # start buttons in the stranger's own chat: the bare id, a wrong token, another quiz
        for data in ("s:u.1", "s:u.2", f"s:u.1:{forged_token}", f"s:u.2:{token}"):
            await refused(tg, stranger.id, stranger, mine.message_id, data, "alert_invalid")
        # "which quiz?" picks run the command as typed: the quiz is not the stranger's to name
        for data in ("k:quiz:u.1", "k:quiz:u.2", "k:homework:u.1"):
            answer = await tg.wait_answered(tg.tap(stranger.id, stranger, mine.message_id, data))
            assert answer.text is None or "Practise" not in answer.text
        # deep links: a forged share token; the group links by number (not the stranger's)
        await say(tg, stranger, f"/start sq-{forged_token}", "This link no longer works")
        await say(tg, stranger, "/start sq-1", "This link no longer works")
        tg.user_says(chat, cls.outsider, "/start@" + BOT_USERNAME + " qs-1")
        tg.user_says(chat, cls.admin, "/start@" + BOT_USERNAME + " qh-1")
        await tg.wait_for(
            lambda: len([m for m in tg.messages(chat) if "no longer valid" in m.text]) >= 2,
            what="group links refused",
        )
        # a forged duration button for the quiz in the group (it names the tapping moderator)
        await refused(tg, chat, cls.admin, 1, f"hd:u.1:0:{cls.admin.id}", "alert_invalid")
        assert practice_runs(db_path) == [] and homework_rows(db_path) == 0
        assert open_question(tg, stranger.id, 1) is None

        # the friend given the link practises; its end's button carries the link's token
        tg.user_says(friend.id, friend, f"/start sq-{token}")
        again = await practise_to_the_end(tg, friend, 2)
        assert again == f"s:u.1:{token}" and len(again.encode()) <= 64
        assert practice_runs(db_path) == [(friend.id, "u.1")]
        # the stranger replays the button's data without the token: refused
        await refused(tg, stranger.id, stranger, mine.message_id, "s:u.1", "alert_invalid")
        # the friend's own "practise again" starts it again
        before = len(tg.messages(friend.id))
        done = tg.messages(friend.id)[-1]
        await tg.wait_answered(tg.tap(friend.id, friend, done.message_id, again))
        await tg.wait_for(
            lambda: open_question(tg, friend.id, 1) in tg.messages(friend.id)[before:]
        )
        assert practice_runs(db_path) == [(friend.id, "u.1")] * 2


async def test_own_and_published_quizzes_end_without_a_token(
    tg: FakeTelegram, db_path: Path
) -> None:
    """The author's own practice ends with a plain start button (no token to leak or need)."""
    cls = populate(tg, students=1)
    teacher = cls.creator
    async with harness(tg, db_path, FrozenClock()):
        await greeted(tg, teacher)
        name = await write_quiz(tg, teacher, "Mine")
        await say(tg, teacher, f"/share {name}", "start=sq-")
        tg.user_says(teacher.id, teacher, f"/quiz {name}")
        assert await practise_to_the_end(tg, teacher, 2) == "s:u.1"
