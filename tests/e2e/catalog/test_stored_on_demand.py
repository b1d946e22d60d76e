"""Stored quizzes loaded on demand (state bounded whatever is stored): a real file written
before the JSON form is upgraded without parsing at start-up, questions are read when first
played and cached in a bounded LRU, deleted quizzes stay out of memory until their history is
shown, and upload-delete cycles do not grow memory."""

from __future__ import annotations

import dataclasses
import gc
import os
import sqlite3
from pathlib import Path

from authorkit import say
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, open_question, populate
from storedkit import ZERO_YAML, old_file
from uploadkit import upload

from bot.app.store import Store
from bot.banks.authored import AuthoredCatalog
from bot.banks.catalog import Catalog
from bot.banks.yaml_reader import load_quiz
from bot.core.bank import Quiz
from bot.core.limits import bank_limits

MB = 1024 * 1024


def rss() -> int:
    """This process's resident memory in bytes (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def test_the_json_form_is_the_validated_quiz() -> None:
    quiz = load_quiz(ROOT / "questions" / "zero.yaml")
    assert Quiz.from_json(quiz.to_json(), quiz.id, quiz.source) == quiz


async def test_an_old_file_is_served_without_parsing_at_start_and_converted_after(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    old_file(path, 9)  # u.3, u.6, u.9 deleted
    async with await Store.open(path) as store:
        catalog = Catalog()
        authored = AuthoredCatalog(catalog, bank_limits(), cache_size=2)
        await authored.load(store)
        assert (authored.loads, authored.cached()) == (0, 0)  # nothing parsed at start-up
        assert [r.quiz_id for r in authored.live()] == ["u.1", "u.2", "u.4", "u.5", "u.7", "u.8"]
        assert authored.row("u.3") is None  # deleted: not in memory
        # indexed lookups: name, title (case and spaces aside), token, author, published
        assert authored.by_name("QUIZ-2") is not None and authored.by_name("quiz-3") is None
        assert [r.name for r in authored.by_title("quiz number 4")] == ["quiz-4"]
        assert [r.name for r in authored.published()] == ["quiz-1"]
        assert len(authored.of_author(7)) == 6
        # questions on first use (from the bank text: not converted yet), then cached
        quiz = catalog.get("u.2")
        assert quiz is not None and len(quiz.questions) == 8 and quiz.id == "u.2"
        assert catalog.get("u.2") is quiz and authored.loads == 1
        # a deleted quiz's history: loaded on demand, and only then
        assert catalog.get("u.3") is not None and authored.loads == 2
        assert catalog.get("u.4") is not None and authored.cached() == 2  # bounded
        # the conversion, in batches; afterwards every row loads from JSON
        assert await authored.convert_old() == 9
        assert await store.authored_unconverted(0, 100) == []
        body = store.authored_body_now(5)
        assert body is not None and body[0] is not None
        from_json = Quiz.from_json(body[0], "u.5", "stored quiz u.5")
        assert dataclasses.replace(from_json, name="quiz-5") == catalog.get("u.5")  # its name
        assert "u.5" not in catalog.folder() and "u.5" not in list(catalog)  # listed nowhere
    with sqlite3.connect(path) as conn:  # the listing reads an index, not the rows
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT quiz_no, author_id, name, title, language,"
            " question_count, origin, share_token, published, created_at, deleted_at"
            " FROM authored_quizzes INDEXED BY authored_live_meta WHERE deleted_at IS NULL"
        ).fetchall()
        assert "COVERING INDEX" in str(plan)


async def test_an_upgraded_bot_plays_an_old_stored_quiz(tmp_path: Path, tg: FakeTelegram) -> None:
    path = tmp_path / "old.db"
    old_file(path, 4, author=1001)
    cls = populate(tg, students=2)
    async with BotHarness(tg, path) as bot:
        authored = bot.services.authored
        assert authored.loads == 0
        tg.user_says(cls.chat_id, cls.creator, "/quiz quiz-2 600")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))
        # only the quiz named is read (not the creator's other live ones, u.1 and u.4), and the
        # deleted u.3 is not in memory at all
        assert authored.loads == 1 and authored.cached() == 1 and authored.row("u.3") is None


async def test_upload_delete_cycles_leave_nothing_in_memory(
    tmp_path: Path, tg: FakeTelegram
) -> None:
    teacher = tg.add_user(61, "Farhana")
    zero = ZERO_YAML.encode()
    # 35 uploads in a row: above the daily limit a user has by default
    env = {"QUIZBOT_UPLOADS_PER_DAY": "100", "QUIZBOT_UPLOAD_MB_PER_DAY": "100"}
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env) as bot:
        authored = bot.services.authored

        async def cycle() -> None:
            await upload(tg, teacher, "zero.yaml", zero, "8 questions")
            [row] = authored.of_author(teacher.id)
            ask = await say(tg, teacher, f"/deletequiz {row.name}", "Past results")
            delete = next(d for r in ask.buttons for t, d in r if t == "🗑 Delete")
            tg.tap(teacher.id, teacher, ask, delete)
            await tg.wait_for(lambda: "was deleted" in ask.text)

        for _ in range(5):  # warm up: imports, caches, connections
            await cycle()
        gc.collect()
        before = rss()
        for _ in range(30):
            await cycle()
        gc.collect()
        grown = rss() - before
        assert (authored.live(), authored.cached()) == ([], 0)
        assert grown < 10 * MB, grown / MB
