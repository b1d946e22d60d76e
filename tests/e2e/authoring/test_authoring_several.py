"""End to end: a quiz poll with several right options (``correct_option_ids``, Bot
API 9.6+) written in /newquiz becomes a several-answers question; /done saves it and the saved
quiz runs in a group, students ticking options and tapping ✔ Submit, the podium following the
credit each Submit earned."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import assert_quiet, button_data, open_question, options_shown, populate

from bot.features.authoring import drafts


async def _reply(
    tg: FakeTelegram, user: User, expect: str, send: Callable[[], object]
) -> StoredMessage:
    """Send something privately (``send`` does); wait for the bot's reply containing
    ``expect``."""
    before = len(tg.messages(user.id))
    send()
    return await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id)[before:] if expect in m.text), None),
        what=expect,
    )


async def test_a_quiz_poll_with_several_right_options_runs_with_ticks_and_submit(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=3)
    teacher, chat = cls.creator, cls.chat_id
    one, two, three = cls.students
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await _reply(
            tg, teacher, "First send", lambda: tg.user_says(teacher.id, teacher, "/newquiz")
        )
        await _reply(tg, teacher, "Now send", lambda: tg.user_says(teacher.id, teacher, "Primes"))
        sent: list[dict[str, object]] = []
        added = await _reply(
            tg,
            teacher,
            "Question 1 added",
            lambda: sent.append(
                tg.user_sends_poll(
                    teacher,
                    "Which are prime?",
                    ["2", "4", "3", "6"],
                    correct=[0, 2],
                    explanation="2 and 3 have no other divisors.",
                )
            ),
        )
        poll = sent[0]["poll"]  # as Telegram delivers it: every right id, several answers
        assert isinstance(poll, dict) and poll["correct_option_ids"] == [0, 2]
        assert poll["allows_multiple_answers"] is True
        assert "several right answers" in added.text
        assert "Right answers: A) 2, C) 3" in added.text
        found = await store.draft(teacher.id)
        assert found is not None
        [draft] = drafts.from_json(found.questions)
        assert (draft.correct, draft.rights) == (0, (0, 2))
        second = await _reply(
            tg,
            teacher,
            "Question 2 added",
            lambda: tg.user_sends_poll(teacher, "Is 9 prime?", ["yes", "no"], correct=[1]),
        )
        assert "Right answer: B) no" in second.text and "several" not in second.text

        await _reply(tg, teacher, "saved as", lambda: tg.user_says(teacher.id, teacher, "/done"))
        [row] = await store.authored_by(teacher.id)
        quiz = bot.services.authored.quiz(row.quiz_id)
        assert quiz is not None
        assert [(q.kind, q.right_options) for q in quiz.questions] == [
            ("multiple", (0, 2)),
            ("single", (1,)),
        ]

        tg.user_says(chat, teacher, f"/quiz {row.name} 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        assert "Select all that apply" in q1.text
        assert [t for r in q1.buttons for t, _ in r] == ["A", "B", "C", "D", "✔ Submit"]
        by_text = {text: label for label, text in options_shown(q1).items()}
        data = {text: button_data(q1, by_text[text]) for text in ("2", "3", "4", "6")}
        data["submit"] = button_data(q1, "✔ Submit")

        async def tap(student: User, which: str) -> str:
            answer = await tg.wait_answered(tg.tap(chat, student, q1.message_id, data[which]))
            assert answer.text is not None and len(answer.text) <= 200
            return answer.text

        await tap(one, "2")  # both right options: full marks
        assert "tap ✔ Submit" in await tap(one, "3")
        assert (await tap(one, "submit")).startswith("✅ Right!")
        await tap(two, "3")  # one of the two: half
        assert (await tap(two, "submit")).startswith("🟡 Partly right (50%)")
        await tap(three, "2")  # a right one and a wrong one: nothing
        await tap(three, "4")
        assert (await tap(three, "submit")).startswith("❌ Wrong")

        tg.user_says(chat, teacher, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None and revealed.buttons == []
        assert "1 right, 1 partly right" in revealed.text
        no = button_data(q2, next(lb for lb, text in options_shown(q2).items() if text == "no"))
        await tg.wait_answered(tg.tap(chat, three, q2.message_id, no))
        tg.user_says(chat, teacher, "/next")
        results = await tg.wait_for_message(chat, "🏁")
        podium = [line for line in results.text.split("\n") if line and line[0] in "🥇🥈🥉"]
        names = [line.split(". ")[1].split(" —")[0].strip("\u2068\u2069") for line in podium]
        # one: full marks on Q1 (1000); three: Q2 right (1000), answered later; two: half of Q1
        assert names == ["Student0", "Student2", "Student1"]
        assert "1000 points, 1/2 right" in podium[0] and "500 points, 0/2 right" in podium[2]
    assert_quiet(caplog)


def test_drafts_keep_every_right_option_and_read_older_drafts() -> None:
    """A stored draft keeps a question's right options; one stored before it did reads as a
    single right one; a poll's hidden or impossible ids are refused as before."""
    several = drafts.DraftQuestion("Q?", ("a", "b", "c"), 0, rights=(0, 2))
    assert drafts.from_json(drafts.to_json([several])) == [several]
    old = '[["Q?", ["a", "b"], 1, null, null, null]]'
    assert drafts.from_json(old) == [drafts.DraftQuestion("Q?", ("a", "b"), 1)]
    facts = drafts.PollFacts("quiz", "Q?", ("a", "b", "c"), (2, 0), True, None, False)
    assert drafts.from_poll(facts) == drafts.DraftQuestion("Q?", ("a", "b", "c"), 0, rights=(0, 2))
    out_of_range = drafts.PollFacts("quiz", "Q?", ("a", "b"), (0, 5), True, None, False)
    assert drafts.from_poll(out_of_range) == "author_poll_hidden"
    regular = drafts.PollFacts("regular", "Q?", ("a", "b"), (), True, None, False)
    assert drafts.from_poll(regular) == "author_poll_not_quiz"
