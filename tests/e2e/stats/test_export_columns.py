"""``/export`` keys its question columns by the bank's questions: a live quiz that left the
typed questions out writes each answer under its own question's column, the same column the
homework rows of that quiz use."""

from __future__ import annotations

from pathlib import Path

from analysiskit import export_to
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate
from teacherkit import hw_question

BANK = """\
title:
  bn: মিশ্র
  en: Mixed
language: en
settings:
  shuffle: false
  seconds: 600
questions:
  - id: one
    question: {bn: এক?, en: One?}
    options: [{bn: ক, en: Alpha}, {bn: খ, en: Beta}]
    correct: 1
  - id: typed
    type: short
    question: {bn: নাম?, en: Name?}
    answers: [Skin]
  - id: three
    question: {bn: তিন?, en: Three?}
    options: [{bn: গ, en: Gamma}, {bn: ঘ, en: Delta}]
    correct: 2
"""


async def test_a_live_run_without_typed_questions_writes_under_the_banks_columns(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=2)
    chat, mod = cls.chat_id, cls.creator
    home, live = cls.students  # home reads English
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "mixed", BANK)):
        tg.user_says(mod.id, mod, "/start")
        await tg.wait_for(lambda: tg.messages(mod.id))
        tg.user_says(chat, mod, "/lang en")
        await tg.wait_for(lambda: tg.messages(chat))
        tg.user_says(chat, mod, "/quiz mixed 600")  # asks "One?" and "Three?" only
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        await tg.wait_answered(tg.tap(chat, live, q1.message_id, button_data(q1, "A")))
        tg.user_says(chat, mod, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        assert "Three?" in q2.text
        await tg.wait_answered(tg.tap(chat, live, q2.message_id, button_data(q2, "B")))
        tg.user_says(chat, mod, "/next")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁"))

        tg.user_says(chat, mod, "/homework mixed 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "hw-1") or tg.find_message(chat, "📚"))
        private = tg.private_chat(home)
        tg.user_says(private, home, "/start hw-1")
        h1 = await tg.wait_for(lambda: hw_question(tg, home, 0))
        await tg.wait_answered(tg.tap(private.id, home, h1.message_id, button_data(h1, "A")))
        await tg.wait_for(lambda: tg.find_message(home.id, "Name?"))
        tg.user_says(private, home, "skin")
        h3 = await tg.wait_for(lambda: hw_question(tg, home, 2))
        await tg.wait_answered(tg.tap(private.id, home, h3.message_id, button_data(h3, "B")))
        await tg.wait_for(lambda: tg.find_message(home.id, "Homework done"))
        (_, results), _ = await export_to(tg, chat, mod)

    rows = {row["name"]: row for row in results}
    at_home, in_group = rows[home.first_name], rows[live.first_name]
    assert [at_home[f"q{k}_options"] for k in (1, 2, 3)] == ["Alpha", "", "Delta"]
    assert at_home["q2"] == "skin"
    # the live run asked "Three?" second: its answer is still under q3, not q2
    assert [in_group[f"q{k}_options"] for k in (1, 2, 3)] == ["Alpha", "", "Delta"]
    assert in_group["q2"] == "" and in_group["q2_credit"] == ""
