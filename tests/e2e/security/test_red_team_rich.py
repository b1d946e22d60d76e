"""Red team: a question holding math is always shown, within Telegram's limits of rich messages
(blocks, characters, depth; the fake Bot API refuses past them as Telegram does), and its
formulas are balanced per option, never across options."""

from __future__ import annotations

from pathlib import Path

from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env

from bot.i18n.markup import Safe
from bot.render import rich_html

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
