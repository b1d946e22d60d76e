"""End to end: stored quizzes' owners, names, /myquizzes, /share links, /publish, /deletequiz
with history kept, and ``quizbot export-quiz``."""

from __future__ import annotations

import asyncio
import functools
import re
from pathlib import Path

import pytest
from authorkit import say, write_quiz
from fakebot import BOT_USERNAME, FakeTelegram
from harness import BotHarness
from quizkit import ROOT, assert_quiet, button_data, open_question, populate
from shipkit import LOCALE

from bot.app.store import Store
from bot.banks.importers import import_bytes
from bot.banks.yaml_reader import load_quiz
from bot.cli import main
from bot.render import bank_limits


async def export(args: list[str], env: dict[str, str]) -> int:
    """``quizbot export-quiz ARGS`` (in a thread: the command runs its own event loop)."""
    return await asyncio.to_thread(main, ["export-quiz", *args], env)


async def test_names_owners_sharing_publishing_and_deleting(
    tg: FakeTelegram,
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cls = populate(tg, students=2)
    author, other_mod, student = cls.creator, cls.admin, cls.students[0]
    stranger = tg.add_user(4444, "Stranger")
    boss = tg.add_user(5555, "Boss")
    async with BotHarness(tg, db_path, env={"QUIZBOT_ADMIN_IDS": "5555"}) as bot:
        # a title that is a folder bank's name gets a free name; so does another author's twin
        name = await write_quiz(tg, author, "ZeRO", count=3)
        await say(tg, other_mod, "/lang en", "in English")  # Telegram gave them Bengali
        twin = await write_quiz(tg, other_mod, "ZeRO")
        assert (name, twin) == ("zero-2", "zero-3")
        listing = await say(tg, author, "/myquizzes", "Your quizzes")
        assert "zero-2 — \u2068ZeRO\u2069 · 3 questions · 0 runs" in listing.text
        assert "zero-3" not in listing.text

        # practising privately counts as a run
        tg.user_says(author.id, author, f"/quiz {name}")
        await tg.wait_for(lambda: open_question(tg, author.id, 1))
        assert "1 run" in (await say(tg, author, "/myquizzes", "Your quizzes")).text

        # only the author shares; the link lets anyone practise it, a forged one does not
        other = await say(tg, other_mod, f"/share {name}", "There is no quiz by that name")
        assert "/share zero-3" in other.text and f"/share {name}" not in other.text
        shared = await say(tg, author, f"/share {name}", "Anyone who opens this link")
        link = re.search(rf"https://t\.me/{BOT_USERNAME}\?start=(sq-[A-Za-z0-9_-]+)", shared.text)
        assert link is not None and len(link[1]) <= 64
        await say(tg, stranger, "/start sq-forged", "This link no longer works")
        tg.user_says(stranger.id, stranger, f"/start {link[1]}")
        practice = await tg.wait_for(lambda: open_question(tg, stranger.id, 1))
        assert "ZeRO question" in practice.text
        # ... but it does not put the quiz in the stranger's lists
        await say(tg, stranger, f"/quiz {name}", "There is no quiz")

        # in the group: the author's list holds it, a student's and another moderator's do not
        tg.user_says(cls.chat_id, other_mod, "/quiz")
        mod_list = await tg.wait_for(lambda: tg.find_message(cls.chat_id, "zero-3"))
        assert "zero-2" not in mod_list.text and "<code>zero</code>" in (mod_list.html or "")

        # publishing: admins only; then every group's moderators see and start it
        await say(tg, author, f"/publish {name}", "Only the bot's administrators")
        await say(tg, boss, f"/publish {name}", "now offered to every group")
        tg.user_says(cls.chat_id, other_mod, f"/quiz {name} 600")
        q1 = await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))
        tg.tap(cls.chat_id, student, q1, button_data(q1, "A"))
        await tg.wait_for(lambda: tg.alerts_for(student))

        # deleting: confirm first; the running quiz and its history stay
        ask = await say(tg, author, f"/deletequiz {name}", "Past results and leaderboards stay")
        keep = next(d for row in ask.buttons for t, d in row if t == "Keep it")
        tg.tap(author.id, author, ask, keep)
        await tg.wait_for(lambda: "was kept" in ask.text)
        ask = await say(tg, author, f"/deletequiz {name}", "Past results")
        forged = next(d for row in ask.buttons for t, d in row if t == "🗑 Delete")
        q = tg.tap(author.id, student, ask, forged)  # someone else's tap on a forged copy
        assert (await tg.wait_answered(q)).show_alert
        tg.tap(author.id, author, ask, forged)
        await tg.wait_for(lambda: "was deleted" in ask.text)
        for n in (2, 3):
            tg.user_says(cls.chat_id, other_mod, "/next")
            await tg.wait_for(functools.partial(open_question, tg, cls.chat_id, n))
        tg.user_says(cls.chat_id, other_mod, "/next")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "🏁"))
        tg.user_says(cls.chat_id, other_mod, "/leaderboard", ephemeral=False)
        board = await tg.wait_for(lambda: tg.find_message(cls.chat_id, "points"))
        assert "Student0" in board.text
        # ... and it is out of use: not startable, the link is dead, not in lists
        tg.user_says(cls.chat_id, author, f"/quiz {name}")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "There is no quiz"))
        await say(tg, stranger, f"/start {link[1]}", "This link no longer works")
        await say(tg, author, "/myquizzes", "You have no quizzes")
        # its name is free again; the old internal id still names the deleted one's history
        assert bot.services.authored.by_name(name) is None
        assert bot.services.catalog.get("u.1") is not None
    assert_quiet(caplog)

    # export: a stored quiz (deleted ones by internal id) and a folder bank
    out = db_path.parent / "exported.yaml"
    env = {"QUIZBOT_DB": str(db_path), "LANG": LOCALE["bn"]}  # the operator's locale: Bengali
    en = {**env, "LANG": LOCALE["en"], "QUIZBOT_LANGUAGE": "bn"}  # (the chats' default: no matter)
    capsys.readouterr()
    assert await export(["zero-3", "--out", str(out)], env) == 0
    assert capsys.readouterr().err == f"'zero-3' কুইজটি সংরক্ষণ করা হয়েছে: {out}\n"
    exported = load_quiz(out.rename(out.with_name("zero-3.yaml")), bank_limits())
    assert len(exported.questions) == 2
    assert await export(["u.1", "--out", str(out)], en) == 0
    assert capsys.readouterr().err == f"quiz u.1 written to {out}\n"
    assert "ZeRO question 3?" in out.read_text(encoding="utf-8")
    # a stored quiz as GIFT, for Moodle: it imports back whole
    gift = out.with_name("u1.gift")
    assert await export(["u.1", "--format", "gift", "--out", str(gift)], en) == 0
    assert capsys.readouterr().err == f"quiz u.1 written to {gift}\n"
    back = import_bytes("u1.gift", gift.read_bytes(), quiz_id="u1")
    assert back.problems == () and back.quiz is not None
    assert "ZeRO question 3?" in [q.text.en for q in back.quiz.questions]
    assert await export(["zero", "--out", str(out)], env) == 0
    assert out.read_text(encoding="utf-8") == (ROOT / "questions" / "zero.yaml").read_text(
        encoding="utf-8"
    )
    capsys.readouterr()
    assert await export(["zero-2", "--out", str(out)], env) == 2  # deleted: by id only
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith("quizbot: 'zero-2' নামে কোনো কুইজ নেই: ")
    assert said.err.endswith(f" ফোল্ডারেও নয়, {db_path} ডেটাবেসেও নয়\n")
    assert await export(["zero-2", "--out", str(out)], en) == 2
    said = capsys.readouterr()
    assert said.err.startswith("quizbot: no quiz 'zero-2' in ")
    assert said.err.endswith(f" or in {db_path}\n")
    # quizbot backup keeps them: the copy holds every stored quiz with its bank text
    copy = db_path.parent / "copy.sqlite3"
    assert await asyncio.to_thread(main, ["backup", str(copy)], env) == 0
    assert capsys.readouterr().err == f"ব্যাকআপ সংরক্ষণ করা হয়েছে: {copy}\n"
    second = db_path.parent / "copy2.sqlite3"
    assert await asyncio.to_thread(main, ["backup", str(second)], en) == 0
    assert capsys.readouterr().err == f"backup written to {second}\n"
    nowhere = {"QUIZBOT_DB": str(db_path.parent / "none.sqlite3")}
    for lang, said_there in [("en", "no database at "), ("bn", "কোনো ডেটাবেস পাওয়া যায়নি: ")]:
        assert main(["backup", str(copy)], {**nowhere, "LANG": LOCALE[lang]}) == 2
        assert capsys.readouterr().err == f"quizbot: {said_there}{nowhere['QUIZBOT_DB']}\n"
    store = await Store.open(copy)
    try:
        rows = await store.authored_quizzes()
        text = await store.authored_text(rows[1].quiz_no)
    finally:
        await store.close()
    assert [(r.name, r.deleted_at is not None) for r in rows] == [
        ("zero-2", True),
        ("zero-3", False),
    ]
    assert "ZeRO question 1?" in (text or "")
