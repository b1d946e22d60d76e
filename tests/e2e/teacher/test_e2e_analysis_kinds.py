"""End to end (issues 21, 22): ``/analysis`` and ``/export`` for every kind of question, read
in the moderator's private chat after simulated students answered differently.

A live group quiz in English (several right answers ticked and submitted, true/false, one right
answer whose options are math), options shuffled: the CSV gives each answer as the letters
that student saw and the options' text, with the credit scored; the analysis names options by
their text and gives each option's pick rate. Homework in Bengali with a typed number and a
short answer (partial credit, Bengali digits, other letter case): the analysis lists the
common wrong answers, normalised; the CSV the text typed, safe in a spreadsheet.
"""

from __future__ import annotations

import re
import sqlite3
from functools import partial
from pathlib import Path

from analysiskit import export_to
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, options_shown, populate
from typeskit import BUTTONS

GROUP_BANK = (
    """\
title:
  bn: ধরনের বিশ্লেষণ
  en: Kinds analysed
language: en
settings:
  seconds: 600
questions:
"""
    + BUTTONS
    + """\
  - id: square
    question: {bn: '\\(x \\cdot x\\) কত?', en: 'What is \\(x \\cdot x\\)?'}
    options:
      - {bn: '\\(x^{2}\\)', en: '\\(x^{2}\\)'}
      - {bn: '\\(2x\\)', en: '\\(2x\\)'}
      - {bn: '\\(x+2\\)', en: '\\(x+2\\)'}
      - {bn: x, en: x}
    correct: 1
"""
)
"""typeskit's two button questions, then one whose options are math."""

TYPED_BANK = """\
title:
  bn: টাইপ করা উত্তর
  en: Typed answers
language: en
settings:
  shuffle: false
  seconds: 300
questions:
  - id: pi
    type: numeric
    question: {bn: পাই কত?, en: Pi to two places?}
    answers:
      - {answer: 3.14, tolerance: 0.01}
      - {answer: 3, fraction: 0.5}
  - id: organ
    type: short
    question: {bn: বৃহত্তম অঙ্গ?, en: The largest organ?}
    answers:
      - Skin
      - {answer: Epidermis, fraction: 0.5}
"""


def banks_env(tmp_path: Path) -> dict[str, str]:
    """Both banks in the bot's questions folder."""
    return bank_env(tmp_path, "kinds", GROUP_BANK) | bank_env(tmp_path, "typed", TYPED_BANK)


def private_texts(tg: FakeTelegram, user: User, since: int) -> str:
    return "\n".join(m.text for m in tg.messages(user.id)[since:])


def no_internal_id(files: list[tuple[str, list[dict[str, str]]]], group: str) -> None:
    for name, rows in files:
        assert group in name and name.endswith(".csv")  # the group's title, never its id
        for row in rows:
            for cell in row.values():
                assert not re.search(r"\bu\.[0-9]+", cell or ""), cell
                assert "\\(" not in (cell or ""), cell  # math readable, never TeX


async def test_group_quiz_analysis_and_export(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=5)
    chat, mod = cls.chat_id, cls.creator  # the moderator reads English
    s = cls.students
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=banks_env(tmp_path)):
        tg.user_says(mod.id, mod, "/start")  # the reports come privately
        await tg.wait_for(lambda: tg.messages(mod.id), what="the moderator's /start")
        tg.user_says(chat, cls.creator, "/quiz kinds")
        # 1. several right answers: ticks, then Submit; the letters are the shuffled ones
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        letter = {text: label for label, text in options_shown(q1).items()}
        ticks = {0: ["2", "3"], 1: ["2"], 2: ["2", "4"], 3: ["3"], 4: ["4", "6"]}
        for i, options in ticks.items():
            for option in options:
                data = button_data(q1, letter[option])
                await tg.wait_answered(tg.tap(chat, s[i], q1.message_id, data))
            await tg.wait_answered(tg.tap(chat, s[i], q1.message_id, button_data(q1, "✔ Submit")))
        tg.user_says(chat, cls.creator, "/next")
        # 2. true/false (the sky is not green): three right
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        for i in range(5):
            side = "False" if i < 3 else "True"
            await tg.wait_answered(tg.tap(chat, s[i], q2.message_id, button_data(q2, side)))
        tg.user_says(chat, cls.creator, "/next")
        # 3. one right answer among formulas: x² twice, 2x twice, x + 2 once
        q3 = await tg.wait_for(lambda: open_question(tg, chat, 3))
        # (posted as a rich message: its formulas as LaTeX, which Telegram renders)
        latex = {"x^{2}": "x²", "x+2": "x + 2"}
        shown = {latex.get(text, text): label for label, text in options_shown(q3).items()}
        assert set(shown) == {"x²", "2x", "x + 2", "x"}, shown
        for i, text in enumerate(["x²", "x²", "2x", "2x", "x + 2"]):
            await tg.wait_answered(tg.tap(chat, s[i], q3.message_id, button_data(q3, shown[text])))
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁"))

        # /analysis, privately: pick rates by option text, wrong answers by their text
        before = len(tg.messages(mod.id))
        tg.user_says(chat, mod, "/analysis kinds")
        await tg.wait_for(lambda: tg.find_message(chat, "📬"), what="sent privately")
        await tg.wait_for(lambda: "Options picked" in private_texts(tg, mod, before))
        report = private_texts(tg, mod, before)
        assert "Options picked: 2 60%, 4 40%, 3 40%, 6 20%" in report
        # one full marks, two halves: 40 % of the marks, (1 + ½ + 0 + ½ + 0) / 5
        assert "5 answered · ✅ 1 fully right · 🟡 2 partly right · 40% of the marks" in report
        assert "5 answered · ✅ 3 got it right (60%)" in report  # true/false: no partial credit
        assert "most chosen wrong answer: “True” (40%)" in report
        assert "most chosen wrong answer: “2x” (40%)" in report
        assert "\\(" not in report

        files = await export_to(tg, chat, mod)
    (results_name, results), (_, questions) = files
    assert results_name.startswith("quizbot-results-ZeRO-study-group")
    no_internal_id(files, "ZeRO-study-group")
    by_name = {row["name"]: row for row in results}
    assert len(by_name) == 5 and {row["run"] for row in results} == {"1"}
    assert all(row["quiz"] == "kinds (Kinds analysed)" for row in results)
    for i, options in ticks.items():
        row = by_name[s[i].first_name]
        # the letters this student saw, as they saw them; the options by their text
        assert row["q1"] == ",".join(sorted(letter[o] for o in options)), (row, letter)
        assert row["q1_options"] == " | ".join(sorted(options, key=["2", "4", "3", "6"].index))
    credits = [by_name[s[i].first_name]["q1_credit"] for i in range(5)]
    assert credits == ["1", "0.5", "0", "0.5", "0"]
    assert [by_name[s[i].first_name]["q2"] for i in range(5)] == ["False"] * 3 + ["True"] * 2
    assert by_name[s[4].first_name]["q3_options"] == "x + 2"
    assert by_name[s[4].first_name]["q3"] == shown["x + 2"]
    assert [by_name[s[i].first_name]["credit"] for i in range(5)] == ["3", "2.5", "1", "0.5", "0"]
    assert [by_name[s[i].first_name]["correct"] for i in range(5)] == ["3", "2", "1", "0", "0"]

    rows = {row["question_id"]: row for row in questions}
    assert rows["primes"]["pick_rates"] == "2: 0.600 | 4: 0.400 | 3: 0.400 | 6: 0.200"
    assert rows["primes"]["right_share"] == "0.400"
    assert rows["sky"]["top_wrong_option"] == "True"
    assert rows["square"]["top_wrong_option"] == "2x"  # its text, not a letter
    assert rows["square"]["text"] == "What is x · x?"


async def typed_homework(
    tg: FakeTelegram, student: User, homework: str, answers: list[str], db: Path
) -> None:
    """``student`` opens the homework link in private and types ``answers``, one a question."""
    chat = tg.private_chat(student)
    tg.user_says(chat, student, f"/start {homework}")
    for n, text in enumerate(answers, start=1):
        asked = await tg.wait_for(
            partial(_asked, tg, student, n), what=f"question {n} for {student.first_name}"
        )
        assert asked.buttons == []  # typed: no keyboard
        tg.user_says(chat, student, text)
        await tg.wait_for(
            partial(_answered, db, student, n), what=f"answer {n} of {student.first_name}"
        )


def _asked(tg: FakeTelegram, student: User, n: int) -> StoredMessage | None:
    """Question ``n`` as posted in the student's private chat."""
    return next(
        (m for m in tg.messages(student.id) if m.text.startswith("❓") and _numbered(m, n)), None
    )


def _numbered(message: StoredMessage, n: int) -> bool:
    head = message.text.split("\n")[0]
    return f" {n}/" in head or f" {'০১২৩৪৫৬৭৮৯'[n]}/" in head


def _answered(db: Path, student: User, count: int) -> bool:
    """Whether the store holds ``count`` answers of the student."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM answers WHERE user_id = ?", (student.id,)
        ).fetchone()
    return int(row[0]) >= count


async def test_typed_homework_analysis_and_export_in_bengali(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=5)
    chat, mod = cls.chat_id, cls.admin  # the moderator reads Bengali
    tg.chats[chat].title = "নবম শ্রেণি: পদার্থবিজ্ঞান"
    db = tmp_path / "db.sqlite3"
    typed = [
        ["৩.১৪", "SKIN"],  # Bengali digits, other case: both right
        ["3", "the  skin"],  # half the credit; a wrong answer
        ["10.5", "The Skin"],  # the same wrong answer, once normalised
        ["১০.৫", "epidermis"],  # the same wrong number in Bengali digits; half the credit
        ["-2", "LIVER"],  # a cell starting with "-" is made safe in the CSV
    ]
    async with BotHarness(tg, db, env=banks_env(tmp_path)):
        tg.user_says(mod.id, mod, "/start")
        await tg.wait_for(lambda: tg.messages(mod.id), what="the moderator's /start")
        tg.user_says(chat, cls.creator, "/lang bn")
        await tg.wait_for(lambda: tg.messages(chat), what="/lang bn")
        tg.user_says(chat, cls.creator, "/homework typed 1d")
        await tg.wait_for(lambda: tg.find_message(chat, "টাইপ করা উত্তর"), what="the card")
        for student, answers in zip(cls.students, typed, strict=True):
            await typed_homework(tg, student, "hw-1", answers, db)

        before = len(tg.messages(mod.id))
        tg.user_says(chat, mod, "/analysis typed")
        await tg.wait_for(lambda: tg.find_message(chat, "📬"), what="sent privately")
        await tg.wait_for(lambda: "বারবার আসা ভুল উত্তর" in private_texts(tg, mod, before))
        report = private_texts(tg, mod, before)
        # an answer given part of the marks is not listed as wrong, but as partly right
        assert "বারবার আসা ভুল উত্তর: “10.5” × ২; “-2” × ১\n" in report
        assert "আংশিক সঠিক উত্তর (নম্বরের কিছু অংশ পেয়েছে): “3” × ১" in report
        assert "বারবার আসা ভুল উত্তর: “the skin” × ২; “liver” × ১\n" in report
        assert "আংশিক সঠিক উত্তর (নম্বরের কিছু অংশ পেয়েছে): “epidermis” × ১" in report
        # both: one full marks and one half, (1 + ½) / 5
        partly = "✅ ১ জন পুরো সঠিক · 🟡 ১ জন আংশিক সঠিক · মোট নম্বরের ৩০% পেয়েছেন"
        assert report.count(partly) == 2
        assert "🔴 খুব কঠিন" in report  # at most 30 % right, five students

        files = await export_to(tg, chat, mod)
    (_, results), (_, questions) = files
    no_internal_id(files, "নবম-শ্রেণি-পদার্থবিজ্ঞান")  # vowel signs kept
    assert len(results) == 5 and len({row["run"] for row in results}) == 5  # one per attempt
    by_name = {row["name"]: row for row in results}
    cells = [
        [by_name[s.first_name][f"q{k}"] for k in (1, 2)]
        + [by_name[s.first_name][f"q{k}_credit"] for k in (1, 2)]
        for s in cls.students
    ]
    assert cells == [
        ["৩.১৪", "SKIN", "1", "1"],
        ["3", "the  skin", "0.5", "0"],
        ["10.5", "The Skin", "0", "0"],
        ["১০.৫", "epidermis", "0", "0.5"],
        ["'-2", "LIVER", "0", "0"],
    ]
    assert [by_name[s.first_name]["credit"] for s in cls.students] == ["2", "0.5", "0", "0.5", "0"]
    assert all(row["q1_options"] == "" for row in results)
    rows = {row["question_id"]: row for row in questions}
    assert rows["pi"]["right_share"] == "0.300" and rows["pi"]["flag"] == "too_hard"
    assert rows["pi"]["common_wrong_answers"] == "10.5: 2 | -2: 1"
    assert rows["pi"]["partly_right_answers"] == "3: 1"
    assert rows["organ"]["common_wrong_answers"] == "the skin: 2 | liver: 1"
    assert rows["organ"]["partly_right_answers"] == "epidermis: 1"
    assert rows["organ"]["right_share"] == "0.300"
