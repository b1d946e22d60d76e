"""End to end: question files sent in a private chat (getFile, download from the file endpoint),
imported like ``quizbot import``; hostile files; Aiken text typed into a draft."""

from __future__ import annotations

from pathlib import Path

import pytest
from authorkit import draft_count, say
from fakebot import FakeTelegram
from harness import TOKEN, BotHarness
from quizkit import ROOT, assert_quiet, button_data, open_question, options_shown
from uploadkit import MB, upload

from bot.core.settings import file_url

DATA = Path(__file__).resolve().parents[2] / "data" / "import"


def test_the_file_endpoint_follows_the_api_url() -> None:
    assert file_url("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert file_url("http://10.0.0.5:8081/bot") == "http://10.0.0.5:8081/file/bot"
    assert file_url("https://tg.example.org/api/bot/") == "https://tg.example.org/api/file/bot"


async def test_uploaded_files_become_quizzes(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    teacher = tg.add_user(61, "Farhana")
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        gift = (DATA / "networking.gift").read_bytes()
        reply = await upload(tg, teacher, "networking.gift", gift, "saved as")
        # fetched with getFile, then from /file/bot<token>/<file_path> (a self-hosted server too)
        assert [c.params["file_id"] for c in tg.calls_to("getFile")] == [next(iter(tg.files.by_id))]
        assert tg.files.downloads == ["documents/file_1"]
        assert TOKEN in tg.tokens_seen
        [row] = await store.authored_by(teacher.id)
        assert row.origin == "gift" and f"{row.question_count} questions" in reply.text
        assert "File format: GIFT" in reply.text
        assert "networking.gift:" in reply.text  # each problem with its line
        # what was saved is a working quiz: practise it
        tg.user_says(teacher.id, teacher, f"/quiz {row.name}")
        await tg.wait_for(lambda: open_question(tg, teacher.id, 1))

        # a bilingual YAML bank, and a Bengali spreadsheet
        zero = (ROOT / "questions" / "zero.yaml").read_bytes()
        await upload(tg, teacher, "my-zero.yaml", zero, "8 questions")
        await upload(tg, teacher, "zero-bn.csv", (DATA / "zero-bn.csv").read_bytes(), "saved as")
        assert len(await store.authored_by(teacher.id)) == 3
    assert_quiet(caplog)


async def test_hostile_files_change_nothing(tg: FakeTelegram, db_path: Path) -> None:
    mallory = tg.add_user(66, "Mallory")
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        # too big by its announced size: not even fetched
        await upload(tg, mallory, "big.gift", b"x" * (MB + 1), "too big")
        assert tg.calls_to("getFile") == []
        # announced small, getFile tells the truth: not downloaded
        await upload(tg, mallory, "liar.gift", b"x" * (MB + 1), "too big", announced_size=10)
        assert tg.files.downloads == []
        # no size anywhere: refused after the download
        await upload(
            tg,
            mallory,
            "sly.gift",
            b"x" * (MB + 1),
            "too big",
            announced_size=None,
            size_known=False,
        )
        # an XML entity bomb, a YAML alias bomb, a binary, a file of nothing importable
        await upload(tg, mallory, "bomb.xml", (DATA / "bomb.xml").read_bytes(), "nothing was saved")
        aliases = b"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\ntitle: t\n"
        await upload(tg, mallory, "aliases.yaml", aliases, "nothing was saved")
        await upload(tg, mallory, "photo.gift", bytes(range(256)) * 50, "nothing was saved")
        essay = await upload(tg, mallory, "essay.gift", b"Tell us about TCP.{}\n", "nothing")
        assert "essay.gift:1" in essay.text
        assert await store.authored_by(mallory.id) == []
        assert bot.services.authored.live() == []


async def test_aiken_text_goes_into_the_draft(tg: FakeTelegram, db_path: Path) -> None:
    teacher = tg.add_user(67, "Imran", language_code="bn")
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await say(tg, teacher, "/newquiz নেটওয়ার্ক", "এবার প্রশ্ন পাঠান")
        text = (DATA / "networking-aiken.txt").read_text(encoding="utf-8")
        good = "\n\n".join(text.split("\n\n")[:3])
        added = await say(tg, teacher, good, "প্রশ্ন ৩ যোগ হলো")
        assert "প্রশ্ন ১ যোগ হলো। সঠিক উত্তর: B) Switch" in added.text
        count = await draft_count(store, teacher)
        assert count == 3
        # a message with any problem adds nothing, and says where
        refused = await say(tg, teacher, text, "কিছুই যোগ হয়নি")
        assert "message.txt:" in refused.text
        await say(tg, teacher, "just chatting", "কিছুই যোগ হয়নি")
        assert await draft_count(store, teacher) == count
        await say(tg, teacher, "/done", "সংরক্ষিত")
        [row] = await store.authored_by(teacher.id)
        assert row.question_count == count


BROKEN_YAML = """\
title: Networks
language: en
questions:
  - id: q1
    question: Is TCP reliable?
    options: ["Yes", "No"]
    correct: 3
    <i>&: x
"""


async def test_the_validators_problems_come_in_the_uploaders_language(
    tg: FakeTelegram, db_path: Path
) -> None:
    bn, en = tg.add_user(68, "Nasrin", language_code="bn"), tg.add_user(69, "Ann")
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, bn, "net.yaml", BROKEN_YAML.encode(), "কিছুই সংরক্ষণ হয়নি")
        assert (
            "• net.yaml:8: প্রশ্নব্যাংকে সমস্যা: প্রশ্ন ১ (id q1): অজানা key '<i>&' (যেগুলো চলে: "
            "answers, case_sensitive, correct, explanation, fractions, id, image, note, options, "
            "question, tag, type, units, wrong_feedback)" in reply.text
        )
        assert (
            "• net.yaml:7: প্রশ্নব্যাংকে সমস্যা: প্রশ্ন ১ (id q1): correct: ৩ সীমার বাইরে (১ থেকে ২)"
            in reply.text
        )
        assert "out of range" not in reply.text and "unknown key" not in reply.text
        reply = await upload(tg, en, "net.yaml", BROKEN_YAML.encode(), "nothing was saved")
        assert (
            "• net.yaml:7: bank problem: question 1 (id q1): correct: 3 is out of range (1 to 2)"
            in reply.text
        )
        # a question of another format that the validator refuses: skipped, said in Bengali;
        # an explanation too long for the alert: moved to the note, said as a note
        gift = "::a::Fine?{=yes ~no}\n\n::b::Twice?{=ok ~ok}\n\n"
        gift += f"::c::Long?{{=ok#{'because ' * 30} ~no}}\n"
        reply = await upload(tg, bn, "long.gift", gift.encode(), "সংরক্ষিত")
        assert (
            "সমস্যা (১টি, এগুলো বাদ পড়েছে):\n"
            "• long.gift:3: প্রশ্নটি বাদ গেছে: options[2]: বিকল্প ১-এর সঙ্গে হুবহু এক\n\n"
            "লক্ষ করুন (১টি):\n"
            "• long.gift:5: ব্যাখ্যাটি (২৩৯ অক্ষর) উত্তরের অ্যালার্টের জন্য বেশি লম্বা (সর্বোচ্চ ১৪৩); "
            "তাই উত্তর প্রকাশের সময় দেখানো নোটে সরানো হয়েছে।" in reply.text
        )
        assert len(await bot.services.store.authored_by(bn.id)) == 1


async def test_a_long_general_feedback_is_kept_and_shown_whole_in_practice(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A GIFT question whose general feedback is far over 1,000 characters is saved, not
    skipped; practised, its reveal keeps the question's message and the whole feedback comes
    as a message of its own."""
    teacher = tg.add_user(61, "Farhana")
    why = " ".join(f"reason{n}" for n in range(350))  # about 3,100 characters
    context = " ".join(f"context{n}" for n in range(100))  # the question: 900 characters
    gift = f"::long::{context}: which protocol resolves names?{{=DNS ~ARP ~NTP ####{why}}}\n"
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, teacher, "long.gift", gift.encode(), "saved as")
        assert "1 question" in reply.text and "skipped" not in reply.text
        [row] = await bot.services.store.authored_by(teacher.id)
        tg.user_says(teacher.id, teacher, f"/quiz {row.name}")
        asked = await tg.wait_for(lambda: open_question(tg, teacher.id, 1))
        right = next(label for label, text in options_shown(asked).items() if text == "DNS")
        before = len(tg.messages(teacher.id))
        tg.tap(teacher.id, teacher, asked.message_id, button_data(asked, right))
        aside = await tg.wait_for(
            lambda: next(
                (m for m in tg.messages(teacher.id)[before:] if m.text.startswith("📖")), None
            ),
            what="the note",
        )
        assert aside.text == f"📖 {why}"
        revealed = next(m for m in tg.messages(teacher.id) if m.message_id == asked.message_id)
        assert "DNS" in revealed.text and why[:40] not in revealed.text
    assert_quiet(caplog)
