"""``/quiz`` lists stored quizzes from their indexed metadata: no quiz's questions are read or
decoded to list it (past the LRU of bot/banks/authored.py, listing decoded every published quiz
on every call), and what it shows (the title in the reader's language, the questions a run asks)
is the quiz's own, also for a file written before the listing columns existed."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from authorkit import say
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, populate
from storedkit import old_file

from bot.app.store import Store
from bot.banks.authored import CACHE_SIZE
from bot.banks.yaml_reader import load_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.features.authoring.queries import NewAuthored
from bot.storage.schema import migrate

ZERO = load_quiz(ROOT / "questions" / "zero.yaml")  # bilingual titles


async def store_published(path: Path, quizzes: dict[str, Quiz]) -> None:
    """Save ``quizzes`` as stored quizzes (by name), each published, as the bot saves them."""
    saved: list[int] = []
    async with await Store.open(path) as store:
        for name, quiz in quizzes.items():
            row = await store.add_authored(
                NewAuthored(
                    author_id=7 + len(saved) // 50,
                    name=name,
                    title=quiz.title(quiz.language),
                    language=quiz.language,
                    bank_yaml=write_yaml(quiz),
                    question_count=len(quiz.questions),
                    origin="yaml",
                    created_at=1.0,
                    bank_json=quiz.to_json(),
                ),
                limit=100,
            )
            assert row is not None
            await store.set_published(row.quiz_no, True)
            saved.append(row.quiz_no)


async def test_listing_reads_no_questions(tg: FakeTelegram, db_path: Path) -> None:
    picked = dataclasses.replace(ZERO, pick=3)
    await store_published(db_path, {"zero-all": ZERO, "zero-three": picked})
    cls = populate(tg, students=1)
    ann = tg.add_user(71, "Ann", language_code="en")
    imran = tg.add_user(72, "Imran", language_code="bn")
    async with BotHarness(tg, db_path) as bot:
        authored = bot.services.authored
        listed = (await say(tg, ann, "/quiz", "zero-three")).html or ""
        assert "zero-all</code> — \u2068ZeRO and Sharded Optimizers\u2069 (8 questions)" in listed
        assert "zero-three</code> — \u2068ZeRO and Sharded Optimizers\u2069 (3 questions)" in listed
        bengali = await say(tg, imran, "/quiz", "zero-three")
        assert "ZeRO ও শার্ডেড অপটিমাইজার" in bengali.text
        for _ in range(2):  # every call, not only the first
            tg.user_says(cls.chat_id, cls.students[0], "/quiz")
            await tg.wait_for_message(cls.chat_id, "zero-three")
        assert authored.loads == 0 and authored.cached() == 0


async def test_a_file_from_before_lists_its_quizzes_and_gets_their_listing(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A file of the version before: a converted quiz gets its listing columns from its JSON
    when the file is upgraded, one not yet converted is listed by its title and question count,
    and gets them when converted."""
    path = tmp_path / "old.db"
    old_file(path, 2)  # quiz-1 published, no JSON yet
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=12)  # the version before the listing columns (12 -> 13)
    conn.execute(
        "INSERT INTO authored_quizzes (author_id, name, title, language, bank_yaml,"
        " question_count, origin, published, created_at) VALUES (7, 'zero-three',"
        " 'ZeRO', 'bn', ?, 8, 'yaml', 1, 1.0)",
        (write_yaml(dataclasses.replace(ZERO, pick=3)),),
    )
    conn.execute(
        "INSERT INTO authored_bodies (quiz_no, bank_json) VALUES (3, ?)",
        (dataclasses.replace(ZERO, pick=3).to_json(),),
    )
    conn.close()
    async with await Store.open(path) as store:
        rows = {r.name: r for r in await store.authored_quizzes(include_deleted=False)}
        three = rows["zero-three"]
        assert (three.title_bn, three.title_en, three.run_length) == (
            ZERO.title.bn,
            ZERO.title.en,
            3,
        )
        assert rows["quiz-1"].run_length is None
    ann = tg.add_user(71, "Ann", language_code="en")
    async with BotHarness(tg, path) as bot:
        listed = (await say(tg, ann, "/quiz", "quiz-1")).html or ""
        assert "quiz-1</code> — \u2068Quiz  Number 1\u2069 (8 questions)" in listed
        assert "zero-three</code> — \u2068ZeRO and Sharded Optimizers\u2069 (3 questions)" in listed
        assert bot.services.authored.loads == 0
        await bot.services.authored.stop_converting()
        await bot.services.authored.convert_old()
        converted = await bot.services.store.authored(1)
        assert converted is not None and converted.run_length == 8
        assert converted.title_en == ZERO.title.en  # the bank text's own titles


async def test_a_long_list_fits_in_one_message(tg: FakeTelegram, db_path: Path) -> None:
    """120 published quizzes: /quiz answers (a list past Telegram's 4,096 UTF-16 units was
    refused, so /quiz answered nothing) with those that fit and how many more there are; the
    practice buttons are those listed."""
    await store_published(db_path, {f"zero-{n}": ZERO for n in range(120)})
    cls = populate(tg, students=1)
    ann = tg.add_user(71, "Ann", language_code="en")
    imran = tg.add_user(72, "Imran", language_code="bn")
    async with BotHarness(tg, db_path):
        tg.user_says(cls.chat_id, cls.creator, "/quiz")
        group = await tg.wait_for_message(cls.chat_id, "not listed here")
        assert "zero-0</code>" in (group.html or "")
        listed = await say(tg, ann, "/quiz", "not listed here")
        shown = sum("</code> — " in line for line in (listed.html or "").splitlines())
        assert 20 < shown < 121
        # 121: the 120 stored quizzes and the folder bank "zero"
        assert f"plus {121 - shown} quizzes not listed here" in listed.text
        assert listed.reply_markup is not None
        assert len(listed.reply_markup["inline_keyboard"]) == shown
        bengali = await say(tg, imran, "/quiz", "দেখানো হয়নি")
        assert "টি কুইজ" in bengali.text


async def test_starting_one_of_many_decodes_only_it(tg: FakeTelegram, db_path: Path) -> None:
    """Past the cache's size of published quizzes, ``/quiz NAME`` in a group, ``/homework NAME
    1h`` and a practice start (typed, a listed number, or a start button) each read and decode
    the one quiz named (they decoded every quiz the user could start, on every command)."""
    many = CACHE_SIZE + 20
    await store_published(db_path, {f"zero-{n}": ZERO for n in range(many)})
    cls = populate(tg, students=1)
    ann = tg.add_user(71, "Ann", language_code="en")
    bob = tg.add_user(73, "Bob", language_code="en")
    async with BotHarness(tg, db_path) as bot:
        authored = bot.services.authored
        tg.user_says(cls.chat_id, cls.creator, "/quiz zero-5 600")
        await tg.wait_for_message(cls.chat_id, "600 seconds each")
        assert authored.loads == 1
        tg.user_says(cls.chat_id, cls.creator, "/homework zero-7 1h")
        await tg.wait_for_message(cls.chat_id, "Homework: ZeRO")
        assert authored.loads == 2
        await say(tg, ann, "/quiz zero-9", "ZeRO")
        assert authored.loads == 3
        await say(tg, ann, "/quiz", "not listed here")  # then "/quiz 2": the second listed
        await say(tg, ann, "/quiz 2", "ZeRO")
        assert authored.loads == 4
        listed = await say(tg, bob, "/quiz", "not listed here")  # a start button, tapped
        assert listed.reply_markup is not None
        before = len(tg.messages(bob.id))
        tg.tap(bob.id, bob, listed, listed.reply_markup["inline_keyboard"][3][0]["callback_data"])
        await tg.wait_for(lambda: len(tg.messages(bob.id)) > before, what="a practice")
        assert authored.loads == 5


async def test_a_quiz_not_yet_converted_is_named_without_decoding(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A file from before the JSON form, not converted yet: its author names one of their
    quizzes by name, or by its title, and only that one is read (and parsed)."""
    path = tmp_path / "old.db"
    old_file(path, 40, author=71)  # 27 live, all Ann's
    ann = tg.add_user(71, "Ann", language_code="en")
    async with BotHarness(tg, path) as bot:
        authored = bot.services.authored
        await authored.stop_converting()
        await say(tg, ann, "/quiz quiz-2", "")
        assert authored.loads == 1
        await say(tg, ann, "/quiz quiz number 4", "")
        assert authored.loads == 2
