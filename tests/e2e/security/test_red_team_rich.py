"""Red team: a question holding math is always shown, within Telegram's limits of rich messages
(blocks, characters, depth; the fake Bot API refuses past them as Telegram does), and its
formulas are balanced per option, never across options. A rich message Telegram refuses all the
same goes as text with a note in the chat's language, kept through its edits, and the question
is still answered."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate

from bot.core import spacing
from bot.core.bank import utf16_len
from bot.core.engine import DAY
from bot.i18n.markup import Safe
from bot.render import rich_html
from bot.render.rich import plain_fallback
from bot.render.text import plain_text

PARAGRAPHS = 1150

MANY = (
    r"""title: Long
language: en
settings: {shuffle: false}
questions:
  - id: long
    question: |-
      Given \(a^2\), read on:

"""
    + "      x\n\n" * (PARAGRAPHS - 2)
    + """      last
    options: ['yes', 'no']
    correct: 1
"""
)

ACROSS = r"""title: Across
language: en
settings: {shuffle: false}
questions:
  - id: across
    question: 'Which is \(x^2\)?'
    options: ['\(x', 'y\)', 'z']
    correct: 2
"""


async def practice(tg: FakeTelegram, user: User, name: str, head: str) -> StoredMessage:
    tg.user_says(tg.private_chat(user), user, f"/quiz {name}")
    return await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id) if m.text.startswith(head)), None),
        what=head,
    )


async def test_a_question_of_1150_paragraphs_is_shown_whole(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    student = tg.add_user(801, "Rina", language_code="en")
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "long", MANY)):
        shown = await practice(tg, student, "long", "❓ Question 1/1")
        assert shown.rich is not None and shown.math == ["a^2"]
        assert "read on" in shown.text and "last" in shown.text
        assert shown.text.count("x") >= PARAGRAPHS - 2
        assert shown.rich.markup.count("<p>") <= 500
        assert [label for row in shown.buttons for label, _ in row] == ["A", "B"]


async def test_a_formula_never_spans_two_options(tg: FakeTelegram, tmp_path: Path) -> None:
    student = tg.add_user(802, "Rafi", language_code="en")
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "across", ACROSS)):
        shown = await practice(tg, student, "across", "❓ Question 1/1")
        assert shown.math == ["x^2"]  # the question's own formula only
        assert "B" in shown.text.split("y\\)")[0].splitlines()[-1]  # option B's label shown


def test_rich_html_keeps_each_line_s_formulas_to_itself() -> None:
    html = rich_html(Safe("Pick:\nA) \\(x\nB) y\\)\nC) \\(z\\)"))
    assert html == "<p>Pick:<br>A) \\(x<br>B) y\\)<br>C) <tg-math>z</tg-math></p>"


def test_rich_html_packs_paragraphs_past_the_blocks_allowed() -> None:
    text = "\n\n".join(f"p{n}" for n in range(PARAGRAPHS)) + "\n\n\\[x\\]"
    html = str(rich_html(Safe(text)))
    assert html.count("<p>") <= 400 and "<tg-math-block>" not in html
    assert all(f"p{n}<" in html or f"p{n}<br>" in html for n in range(PARAGRAPHS))
    assert "<tg-math>x</tg-math>" in html


async def test_a_refused_rich_question_is_shown_as_text_and_answered(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """A limit of rich messages the bot did not foresee: Telegram refuses the question's rich
    message; it goes as a text message, and its answer edits it as text."""
    student = tg.add_user(803, "Mitu", language_code="en")
    tg.fail("sendRichMessage", times=99, error_code=400, description="Bad Request: RICH_UNFORESEEN")
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "across", ACROSS)):
        shown = await practice(tg, student, "across", "❓ Question 1/1")
        assert shown.rich is None and "Which is \\(x^2\\)?" in shown.text
        right = next(d for row in shown.buttons for label, d in row if label == "B")
        tg.tap(student.id, student, shown.message_id, right or "")
        await tg.wait_for(lambda: tg.find_message(student.id, "Score: 1/1"))
        answered = tg.stored_message(student.id, shown.message_id)
        assert answered is not None and "✅" in answered.text and not answered.buttons


#: the note a refused rich message carries as text, in each language
NOTE = {
    "en": "(The formulas are shown as plain text.)",
    "bn": "(সূত্রগুলো সাধারণ লেখা হিসেবে দেখানো হয়েছে।)",
}

EXPLAINED = (
    ACROSS
    + r"    explanation: 'Only \(z\) squared is \(x^2\) here, by the rule \(z = x^2\) given in "
    + "class.'\n"
)
"""ACROSS with an explanation that splits no formula."""


def edited(
    tg: FakeTelegram, chat_id: int, message_id: int, done: Callable[[StoredMessage], bool]
) -> Callable[[], StoredMessage | None]:
    """A condition to wait on: the message as it is once ``done`` holds of it."""

    def now() -> StoredMessage | None:
        message = tg.stored_message(chat_id, message_id)
        return message if message is not None and done(message) else None

    return now


def refuse_rich(tg: FakeTelegram) -> None:
    """Telegram refuses every rich message: sent, ephemeral, and as an edit."""
    tg.fail(
        "sendRichMessage", times=999, error_code=400, description="Bad Request: RICH_UNFORESEEN"
    )
    tg.fail(
        "editMessageText",
        times=999,
        error_code=400,
        description="Bad Request: RICH_UNFORESEEN",
        match=lambda params: "rich_message" in params,
    )


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_refused_rich_practice_question_carries_the_note_through_its_answer(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    student = tg.add_user(804, "Mitu", language_code=lang)
    refuse_rich(tg)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=bank_env(tmp_path, "across", ACROSS)):
        tg.user_says(tg.private_chat(student), student, "/quiz across")
        shown = await tg.wait_for(
            lambda: next((m for m in tg.messages(student.id) if m.buttons), None), what="question"
        )
        assert shown.rich is None and "Which is \\(x^2\\)?" in shown.text
        assert shown.text.endswith(NOTE[lang])
        assert [label for row in shown.buttons for label, _ in row] == ["A", "B", "C"]
        tg.tap(student.id, student, shown.message_id, button_data(shown, "C"))
        answered = await tg.wait_for(
            edited(tg, student.id, shown.message_id, lambda m: not m.buttons),
            what="the answer's edit",
        )
        assert "✅" in answered.text and answered.text.endswith(NOTE[lang])


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_refused_rich_group_question_keeps_its_note_and_its_explanation_has_one(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    cls = populate(tg, students=2)
    chat, student = cls.chat_id, cls.students[0]
    refuse_rich(tg)
    env = bank_env(tmp_path, "across", EXPLAINED)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env):
        tg.user_says(chat, cls.creator, f"/lang {lang}")
        await tg.wait_for(lambda: len(tg.messages(chat)) >= 1, what="/lang answered")
        tg.user_says(chat, cls.creator, "/quiz across 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), what="question")
        assert q1.rich is None and q1.text.endswith(NOTE[lang])
        asked = q1.text
        assert [label for row in q1.buttons for label, _ in row] == ["A", "B", "C"]
        answer = await tg.wait_answered(tg.tap(chat, student, q1.message_id, button_data(q1, "A")))
        assert answer.text  # answered: an alert
        # the explanation, for the tapper alone, as text with its note
        (seen,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, student) or None)
        assert seen.message.rich is None and seen.text.endswith(NOTE[lang])
        assert "z = x^2" in seen.text
        # the count's edit, then the reveal's, keep the note
        counted = await tg.wait_for(
            edited(tg, chat, q1.message_id, lambda m: m.text != asked),
            what="the count's edit",
        )
        assert counted.text.endswith(NOTE[lang])
        tg.user_says(chat, cls.creator, "/stop")
        revealed = await tg.wait_for(
            edited(tg, chat, q1.message_id, lambda m: not m.buttons),
            what="the reveal",
        )
        assert revealed.text.endswith(NOTE[lang]) and "Which is" in revealed.text


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_refused_rich_review_question_carries_the_note_through_its_answer(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    student = tg.add_user(805, "Rina", language_code=lang)
    clock = ManualClock(time.time())
    refuse_rich(tg)
    env = bank_env(tmp_path, "across", ACROSS)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env, clock=clock) as bot:
        missed = [(student.id, "across", "across")]
        await bot.services.store.add_missed(missed, *spacing.first_review(clock()))
        clock.advance(DAY + 60)
        tg.user_says(tg.private_chat(student), student, "/review")
        asked = await tg.wait_for(
            lambda: next((m for m in tg.messages(student.id) if m.buttons), None), what="review"
        )
        assert asked.rich is None and "Which is \\(x^2\\)?" in asked.text
        assert asked.text.endswith(NOTE[lang])
        assert [label for row in asked.buttons for label, _ in row][:3] == ["A", "B", "C"]
        tg.tap(student.id, student, asked.message_id, button_data(asked, "C"))
        answered = await tg.wait_for(
            edited(tg, student.id, asked.message_id, lambda m: "✅" in m.text),
            what="the answer's edit",
        )
        assert answered.text.endswith(NOTE[lang])


async def test_a_refused_explanation_longer_than_a_text_message_is_cut_to_fit_its_note(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """An explanation past a text message's 4,096 characters goes as a rich message; refused,
    it is cut to fit as text, the note whole."""
    cls = populate(tg, students=2)
    chat, student = cls.chat_id, cls.students[0]
    refuse_rich(tg)
    long_note = "    note: '" + "Read \\(z\\) on. " * 265 + "The end.'\n"
    env = bank_env(tmp_path, "across", EXPLAINED + long_note)
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=env):
        tg.user_says(chat, cls.creator, "/quiz across 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), what="question")
        await tg.wait_answered(tg.tap(chat, student, q1.message_id, button_data(q1, "A")))
        (seen,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, student) or None)
        assert seen.message.rich is None and seen.text.endswith(NOTE["en"])
        assert utf16_len(seen.text) <= 4096 and "…" in seen.text and "The end." not in seen.text
        assert "z = x^2" in seen.text  # the explanation before the long note is whole


def test_the_note_fits_a_full_text_message_and_the_body_is_cut_not_the_options() -> None:
    long = "𝑥 " * 2000  # beyond the BMP: two UTF-16 units each
    text = Safe(f"<b>❓ Question 1/1</b>\n\nIs \\(x\\) &amp; {long}?\n\nA) yes\nB) no")
    for lang, note in NOTE.items():
        shown = plain_text(plain_fallback(text, lang))  # as Telegram counts it
        assert utf16_len(shown) <= 4096 and shown.endswith(note)
        assert "❓ Question 1/1" in shown and "\nA) yes\nB) no\n" in shown
        assert "Is \\(x\\) & 𝑥" in shown and "…" in shown
