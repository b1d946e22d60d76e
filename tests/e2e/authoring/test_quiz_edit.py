"""Editing a stored quiz in Telegram, in English and in Bengali: from /myquizzes, one field at a
time (title, time per question, a question's key, options and explanation), each a new version
with the same name and share link; bad values and other people's taps change nothing; Cancel
drops the edit; a run planned before an edit still finds its version; a file with the same title
replaces the quiz."""

from __future__ import annotations

import functools
import re
import sqlite3
from pathlib import Path

import pytest
from authorkit import say, write_quiz
from fakebot import BOT_USERNAME, FakeTelegram, StoredMessage, User
from quizkit import open_question, options_shown
from teacherkit import FrozenClock, harness
from uploadkit import upload

from bot.core.bank import Quiz
from bot.i18n import t_plain
from bot.i18n.lang import Lang


def with_button(tg: FakeTelegram, user: User, data: str) -> StoredMessage | None:
    """The newest message to ``user`` with a button ``data``."""
    for message in reversed(tg.messages(user.id)):
        if any(d == data for row in message.buttons for _, d in row):
            return message
    return None


async def tap(tg: FakeTelegram, user: User, data: str, by: User | None = None) -> str | None:
    """``by`` (else ``user``) taps the button ``data`` in ``user``'s chat; the alert, if any."""
    message = await tg.wait_for(functools.partial(with_button, tg, user, data), what=data)
    answer = await tg.wait_answered(tg.tap(user.id, by or user, message.message_id, data))
    return answer.text if answer.show_alert else None


async def send(tg: FakeTelegram, user: User, text: str, expect: str) -> StoredMessage:
    return await say(tg, user, text, expect)


def versions(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM authored_versions").fetchone()[0])


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_editing_a_quiz_in_telegram(tg: FakeTelegram, db_path: Path, lang: Lang) -> None:
    teacher = tg.add_user(61, "Farhana")  # writes the quiz in English, then /lang
    student = tg.add_user(62, "Rumi", language_code=lang)
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        name = await write_quiz(tg, teacher, "Cells", count=2)  # "right" (A) / "wrong"
        shared = await say(tg, teacher, f"/share {name}", "Anyone who opens this link")
        link = re.search(rf"https://t\.me/{BOT_USERNAME}\?start=(sq-[A-Za-z0-9_-]+)", shared.text)
        assert link is not None
        await say(tg, teacher, f"/lang {lang}", t_plain(lang, "lang_set"))
        row = bot.services.authored.by_name(name)
        assert row is not None
        no, saved = row.quiz_no, t_plain(lang, "edit_saved", title="", name="", version="")[:6]

        # a practice planned with the first version
        early = tg.add_user(63, "Early", language_code=lang)
        tg.user_says(tg.private_chat(early), early, f"/start {link[1]}")
        await tg.wait_for(functools.partial(open_question, tg, early.id, 1))

        # /myquizzes: an Edit button per quiz; someone else's tap is refused
        listing = await send(tg, teacher, "/myquizzes", name)
        assert any(d == f"qe:{no}:0:m" for r in listing.buttons for _, d in r)
        forged = await tg.wait_answered(
            tg.tap(teacher.id, student, listing.message_id, f"qe:{no}:0:m")
        )
        assert forged.show_alert
        assert await tap(tg, teacher, f"qe:{no}:0:m") is None

        # the title
        assert await tap(tg, teacher, f"qe:{no}:0:t") is None
        await tg.wait_for(lambda: tg.find_message(teacher.id, "“Cells”"), what="ask title")
        await send(tg, teacher, "Cells and tissues", saved)
        # the time per question, in Bengali digits too; a bad one first
        assert await tap(tg, teacher, f"qe:{no}:0:s") is None
        await send(tg, teacher, "3", t_plain(lang, "edit_bad_seconds", low=5, high=600)[:20])
        await send(tg, teacher, "৪৫", saved)
        # question 1's key: a bad letter, then B in the author's script
        assert await tap(tg, teacher, f"qe:{no}:1:q") is None
        assert await tap(tg, teacher, f"qe:{no}:1:k") is None
        await send(tg, teacher, "Z", t_plain(lang, "edit_bad_key", letters="A B")[:20])
        await send(tg, teacher, "খ" if lang == "bn" else "B", saved)
        # its options: the same count, or refused
        assert await tap(tg, teacher, f"qe:{no}:1:q") is None
        assert await tap(tg, teacher, f"qe:{no}:1:o") is None
        await send(tg, teacher, "one line", t_plain(lang, "edit_bad_lines", count=2)[:15])
        await send(tg, teacher, "wrong now\nright now", saved)
        # its explanation
        assert await tap(tg, teacher, f"qe:{no}:1:q") is None
        assert await tap(tg, teacher, f"qe:{no}:1:e") is None
        await send(tg, teacher, "Because B is right.", saved)
        # Cancel: the text that follows changes nothing
        assert await tap(tg, teacher, f"qe:{no}:1:q") is None
        assert await tap(tg, teacher, f"qe:{no}:1:w") is None
        assert await tap(tg, teacher, f"qe:{no}:0:c") is None
        await tg.wait_for(lambda: tg.find_message(teacher.id, t_plain(lang, "edit_cancelled")))
        assert await bot.services.store.pending_edit(teacher.id) is None

        quiz: Quiz = bot.services.catalog[row.quiz_id]
        fresh = bot.services.authored.row(row.quiz_id)
        assert fresh is not None and (fresh.name, fresh.title) == (name, "Cells and tissues")
        assert fresh.share_token == row.share_token  # the same link
        q1 = quiz.questions[0]
        assert quiz.seconds == 45 and q1.correct == 1
        assert [o.en for o in q1.options] == ["wrong now", "right now"]
        assert q1.explanation is not None and q1.explanation.en == "Because B is right."
        assert versions(db_path) == 5  # every earlier version kept

        # the link still works, and serves the edited quiz
        tg.user_says(tg.private_chat(student), student, f"/start {link[1]}")
        shown = await tg.wait_for(functools.partial(open_question, tg, student.id, 1))
        assert set(options_shown(shown).values()) == {"wrong now", "right now"}

        # a corrected file with the same title replaces the quiz (a new version, same name)
        text = (
            "title: Cells and tissues\nlanguage: en\nquestions:\n"
            "- id: a1\n  question: Which is right?\n  options: [yes, no]\n  correct: 1\n"
            "- id: a2\n  question: And this?\n  options: [yes, no]\n  correct: 2\n"
        )
        replace = t_plain(lang, "upload_btn_replace", name=name)
        offer = await upload(tg, teacher, "cells.yaml", text.encode(), name)
        button = next(d for r in offer.buttons for t, d in r if t == replace)
        assert button == f"qe:{no}:0:r"
        await tg.wait_answered(tg.tap(teacher.id, teacher, offer.message_id, button))
        await tg.wait_for(
            lambda: bot.services.catalog[row.quiz_id].questions[0].text.en == "Which is right?"
        )
        assert [r.name for r in await bot.services.store.authored_by(teacher.id)] == [name]
        assert versions(db_path) == 6
        # the practice planned with version 1 is shown with it (its recap and reviews)
        with sqlite3.connect(db_path) as conn:
            (run_id,) = conn.execute(
                "SELECT run_id FROM runs WHERE mode = 'practice' AND chat_id = ?", (early.id,)
            ).fetchone()
        assert await bot.services.store.run_version(run_id) == 1
        planned = bot.services.catalog.matching(row.quiz_id, ("q1", "q2"), version=1)
        assert planned is not None and planned.title.en == "Cells"
        assert planned.questions[0].correct == 0
        # a run planned with the questions before still finds them, in the version it used
        older = bot.services.catalog.matching(row.quiz_id, ("q1", "q2"))
        assert older is not None and older.questions[0].options[0].en == "wrong now"
