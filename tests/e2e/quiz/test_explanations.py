"""The whole explanation after a tap in a group, for the tapper alone: an ephemeral message
(Bot API 10.3) sent with the tap's callback query, after its alert.

End to end over the fake Bot API (every request checked against the 10.3 spec; ephemeral
messages kept in each receiver's own view, never in the group's log or its 20-a-minute
traffic), in English and Bengali: a single answer with math in its feedback, a several-answers
Submit and a true/false whose explanations are too long for an alert; a question whose alert
says everything gets nothing more; at most one per student and question; a class's burst
within the group's budget; and a kill -9 between the alert and the explanation, after which
nothing is sent twice and the recap carries the text.
"""

from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

import pytest
from botproc import BotProcess
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate

SIDES_EN = "A shape with four straight sides is a quadrilateral; a triangle has three."
SIDES_BN = "চারটি সরল বাহুবিশিষ্ট আকৃতি চতুর্ভুজ; ত্রিভুজের বাহু তিনটি।"
SUN_EN = r"Its light takes \(t = d / c \approx 500\) s to reach us."
SUN_BN = r"এর আলো আমাদের কাছে আসতে \(t = d / c \approx 500\) সেকেন্ড লাগে।"

BANK = rf"""
title:
  bn: বৃত্ত ও আকৃতি
  en: Circles and shapes
language: en
settings:
  shuffle: false
questions:
  - id: area
    question:
      bn: ব্যাসার্ধ ২ হলে বৃত্তের ক্ষেত্রফল কত?
      en: The area of a circle of radius 2?
    options:
      - text: {{bn: "৪π", en: "4π"}}
        feedback:
          bn: 'ঠিক: \(A = \pi r^2 = 4\pi\).'
          en: 'Right: \(A = \pi r^2 = 4\pi\).'
      - text: {{bn: "২π", en: "2π"}}
        feedback:
          bn: 'এটি পরিধির অর্ধেক: \(C = 2\pi r\).'
          en: 'That is half the circumference: \(C = 2\pi r\).'
      - {{bn: "৮π", en: "8π"}}
    correct: 1
    explanation:
      bn: 'ক্ষেত্রফল ব্যাসার্ধের বর্গের সাথে বাড়ে: \(A = \pi r^2\).'
      en: 'The area grows with the square of the radius: \(A = \pi r^2\).'
  - id: sides
    question:
      bn: কোনগুলোর চারটি বাহু?
      en: Which have four sides?
    options:
      - text: {{bn: বর্গ, en: Square}}
        feedback: {{bn: চারটি সমান বাহু।, en: Four equal sides.}}
      - {{bn: ত্রিভুজ, en: Triangle}}
      - text: {{bn: আয়ত, en: Rectangle}}
        feedback: {{bn: চারটি সমকোণ।, en: Four right angles.}}
    correct: [1, 3]
    explanation:
      bn: "{SIDES_BN}"
      en: "{SIDES_EN}"
  - id: sun
    type: truefalse
    question:
      bn: সূর্য একটি তারা।
      en: The Sun is a star.
    correct: true
    explanation:
      bn: '{SUN_BN}'
      en: '{SUN_EN}'
  - id: sum
    question:
      bn: ২ + ২ = ?
      en: 2 + 2 = ?
    options:
      - {{bn: "৪", en: "4"}}
      - {{bn: "৫", en: "5"}}
    correct: 1
    explanation:
      bn: সহজ যোগ।
      en: Simple addition.
"""

WORDS = {
    "en": {"right": "✅ Right!", "yours": "Your answer: A", "explained": "Explained in full"},
    "bn": {"right": "✅ সঠিক!", "yours": "আপনার উত্তর:", "explained": "পূর্ণ ব্যাখ্যা"},
}


def _env(tmp_path: Path, lang: str) -> dict[str, str]:
    return {**bank_env(tmp_path, "shapes", BANK), "QUIZBOT_LANGUAGE": lang}


async def _tap(
    tg: FakeTelegram, chat: int, student: User, message: StoredMessage, label: str
) -> str:
    answer = await tg.wait_answered(
        tg.tap(chat, student, message.message_id, button_data(message, label))
    )
    assert answer.text is not None and len(answer.text) <= 200
    return answer.text


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_the_tapper_alone_reads_the_whole_explanation(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    ann, ben, cy, dee = cls.students
    words = WORDS[lang]
    async with BotHarness(tg, tmp_path / "db.sqlite3", env=_env(tmp_path, lang)):
        tg.user_says(chat, cls.creator, "/quiz shapes 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        before = [m.message_id for m in tg.messages(chat)]

        # a tap: the alert at once (formulas as Unicode), then the whole text for Ann alone
        alert = await _tap(tg, chat, ann, q1, "A")
        assert alert.startswith(words["right"]) and "\\(" not in alert
        (seen,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, ann) or None)
        assert seen.query_id is not None and seen.message.rich is not None
        assert seen.message.math == [r"A = \pi r^2 = 4\pi", r"A = \pi r^2"]
        assert words["right"] in seen.text and words["yours"] in seen.text
        # the others see nothing new: no message in the group, nothing in their own view
        assert [m.message_id for m in tg.messages(chat)] == before
        assert all(tg.ephemeral_for(chat, s) == [] for s in (ben, cy, dee))

        # a wrong pick: its own feedback and the explanation; a second tap sends nothing more
        await _tap(tg, chat, ben, q1, "B")
        (wrong,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, ben) or None)
        assert wrong.message.math == [r"C = 2\pi r", r"A = \pi r^2"]
        again = await _tap(tg, chat, ben, q1, "A")
        assert not again.startswith(("✅", "❌"))  # "you already chose", not a verdict
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        assert len(tg.ephemeral_for(chat, ben)) == 1

        # a several-answers Submit whose explanation is too long for its alert
        await _tap(tg, chat, cy, q2, "A")
        await _tap(tg, chat, cy, q2, "C")
        submitted = await _tap(tg, chat, cy, q2, shown_labels(q2)[-1])
        assert submitted.startswith(words["right"])
        (several,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, cy) or None)
        assert several.message.rich is None  # no math: a plain HTML message
        assert (SIDES_EN if lang == "en" else SIDES_BN) in several.text
        feedback = ("Four equal sides.", "Four right angles.")
        if lang == "bn":
            feedback = ("চারটি সমান বাহু।", "চারটি সমকোণ।")
        assert all(f in several.text for f in feedback)  # both picks' own feedback
        tg.user_says(chat, cls.creator, "/next")
        q3 = await tg.wait_for(lambda: open_question(tg, chat, 3))

        # true/false, in the chat's own words
        await _tap(tg, chat, dee, q3, shown_labels(q3)[0])
        (tf,) = await tg.wait_for(lambda: tg.ephemeral_for(chat, dee) or None)
        assert tf.message.math == [r"t = d / c \approx 500"]
        tg.user_says(chat, cls.creator, "/next")
        q4 = await tg.wait_for(lambda: open_question(tg, chat, 4))

        # where the alert says everything, nothing more is sent
        short = await _tap(tg, chat, ann, q4, "A")
        assert ("Simple addition." if lang == "en" else "সহজ যোগ।") in short
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁"))
        assert len(tg.ephemeral_for(chat, ann)) == 1
        assert len(tg.ephemeral) == 4  # one per student and question, never more
        assert all(e.message.message_id == 0 for e in tg.ephemeral)
        assert all(c.status == 200 for c in tg.calls), [
            (c.method, c.description) for c in tg.calls if c.status != 200
        ]


def shown_labels(message: StoredMessage) -> list[str]:
    """The labels of a question's buttons, as shown (Submit last; true first)."""
    return [text for row in message.buttons for text, _ in row]


async def test_a_class_burst_stays_within_the_groups_budget(
    tmp_path: Path,
) -> None:
    """Thirty students tap at once: every alert, and every explanation beside them, without one
    send or edit more in the group's window than the quiz itself needs."""
    async with FakeTelegram(
        window=BotHarness.WINDOW, group_limit=20, enforce_limit=True, overall_limit=30
    ) as tg:
        cls = populate(tg, students=30)
        chat = cls.chat_id
        async with BotHarness(tg, tmp_path / "db.sqlite3", env=_env(tmp_path, "en")) as bot:
            tg.user_says(chat, cls.creator, "/quiz shapes 600")
            q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
            queries = [
                tg.tap(chat, s, q1.message_id, button_data(q1, "AB"[n % 2]))
                for n, s in enumerate(cls.students)
            ]
            for qid in queries:
                await tg.wait_answered(qid)
            explained = bot.services.groups.explanations
            await tg.wait_for(lambda: explained.sent + explained.skipped == 30 or None)
            await explained.wait_idle()
            assert explained.sent >= 25  # the reserve of the bot's budget may skip a few
            assert len(tg.ephemeral_in(chat)) == explained.sent
            assert all(len(tg.ephemeral_for(chat, s)) <= 1 for s in cls.students)
            # none of them is in the group's window: only the question and its count edits
            assert tg.max_in_window(chat) <= 20
            assert len(tg.group_traffic(chat)) <= 4
        assert tg.overall.refused == 0


async def test_kill_between_the_alert_and_the_explanation_sends_nothing_twice(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    ann, ben = cls.students
    tg.user_says(tg.private_chat(ann), ann, "/start")  # so the recap may come privately
    env = _env(tmp_path, "en")
    bot = await BotProcess(tg, db_path, **env).start()
    try:
        tg.user_says(chat, cls.creator, "/quiz shapes 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=20)
        # the explanation's request is held on its way, then its connection dropped unanswered
        held = tg.fail(
            "sendRichMessage",
            delay=30,
            drop_connection=True,
            match=lambda params: "ephemeral_message_parameters" in params,
        )
        qid = tg.tap(chat, ann, q1.message_id, button_data(q1, "A"))
        alert = await tg.wait_answered(qid, timeout=20)
        assert alert.text is not None and alert.text.startswith("✅")
        await tg.wait_for(lambda: held.hits == 1 or None, timeout=20)
        await bot.kill()  # between the alert and the explanation
        assert tg.ephemeral == []

        bot = await BotProcess(tg, db_path, **env).start()
        again = await tg.wait_answered(tg.tap(chat, ann, q1.message_id, button_data(q1, "A")), 20)
        assert again.text is not None and again.text.startswith("You already chose A")
        # the feature goes on after the restart: Ben's tap is explained
        await tg.wait_answered(tg.tap(chat, ben, q1.message_id, button_data(q1, "B")), 20)
        await tg.wait_for(lambda: tg.ephemeral_for(chat, ben) or None, timeout=20)
        for number in (1, 2, 3, 4):
            await tg.wait_for(partial(open_question, tg, chat, number), timeout=20)
            tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: tg.find_message(chat, "🏁"), timeout=20)
        # Ann never got it (nothing twice, nothing late): her recap carries the whole text
        assert tg.ephemeral_for(chat, ann) == []
        recap = await tg.wait_for(lambda: tg.find_message(ann.id, "Explained in full"), 20)
        assert "The area grows with the square of the radius" in recap.text
        with sqlite3.connect(db_path) as conn:
            rows = conn.execute("SELECT user_id, q_index FROM explained").fetchall()
        assert rows == [(ben.id, 0)]
    finally:
        await bot.close()
