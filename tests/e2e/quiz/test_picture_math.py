"""A question holding both a picture and math, in a group run, end to end.

A rich message cannot be a photo's caption, so the photo goes first (no caption, no keyboard),
then the question as a rich message (``sendRichMessage`` with ``<tg-math>``) carrying the answer
keyboard; taps are answered with the option's own feedback, the "N answered" count and the
reveal edit the rich message (``editMessageText`` with ``rich_message``), never the photo; and
the same holds after a restart in the middle of the question. The fake Bot API checks every
request against the Bot API 10.1 spec.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from fakebot import FakeTelegram, StoredMessage
from harness import BotHarness
from picturekit import PICTURE
from quizkit import button_data, open_question, populate

BANK = textwrap.dedent(
    r"""
    title: Graphs
    language: en
    settings:
      shuffle: false
    questions:
      - id: parabola
        question: 'This graph shows \(y = x^{2} - 4\). Where does it cross the x-axis?'
        image: pics/parabola.png
        options:
          - text: At x = 4
            feedback: 'No: \(4^{2} - 4 = 12\), not 0.'
          - text: At x = ±2
            feedback: 'Right: \(x^{2} = 4\).'
          - Nowhere
        correct: 2
        explanation: 'Solve \(x^{2} - 4 = 0\).'
      - id: plain
        question: What is shown?
        image: pics/parabola.png
        options: [A parabola, A line]
        correct: 1
    """
)


def bank_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "banks"
    (folder / "pics").mkdir(parents=True)
    (folder / "pics" / "parabola.png").write_bytes(PICTURE)
    (folder / "graphs.yaml").write_text(BANK, encoding="utf-8")
    return folder


def all_valid(tg: FakeTelegram) -> None:
    # (a restart's getUpdates meets the previous poll: the fake's Conflict, not a bot request)
    bad = [(c.method, c.description) for c in tg.calls if c.status != 200]
    bad = [(method, why) for method, why in bad if method != "getUpdates"]
    assert not bad, bad


async def test_a_picture_and_math_go_as_a_photo_then_a_rich_question_edited_as_rich(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    env = {"QUIZBOT_QUESTIONS": str(bank_folder(tmp_path))}
    wrong_one, right_one, late = cls.students
    async with BotHarness(tg, db_path, env=env):
        tg.user_says(chat, cls.creator, "/quiz graphs 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), what="question 1")
        # the photo first, alone: no caption, no keyboard
        [photo] = [m for m in tg.messages(chat) if m.photo is not None]
        assert photo.text == "" and not photo.buttons and photo.rich is None
        assert photo.message_id < q1.message_id
        between = [m for m in tg.messages(chat) if photo.message_id < m.message_id < q1.message_id]
        assert between == []
        # then the question: a rich message with its formula and the answer keyboard
        assert q1.photo is None and q1.rich is not None
        assert q1.math == [r"y = x^{2} - 4"]
        assert "<tg-math>y = x^{2} - 4</tg-math>" in q1.rich.markup
        assert [t for row in q1.buttons for t, _ in row] == ["A", "B", "C"]
        assert [c.params["chat_id"] for c in tg.calls_to("sendRichMessage")] == [chat]
        assert len(tg.calls_to("sendPhoto")) == 1

        wrong = await tg.wait_answered(tg.tap(chat, wrong_one, q1.message_id, button_data(q1, "A")))
        right = await tg.wait_answered(tg.tap(chat, right_one, q1.message_id, button_data(q1, "B")))
        assert wrong.text == "❌ Wrong. 0 points\n\nNo: 4² − 4 = 12, not 0."
        assert right.text is not None and right.text.startswith("✅")
        assert right.text.endswith("Right: x² = 4.")

        # the count is an edit of the rich message, which stays rich with its keyboard
        def counted_now() -> StoredMessage | None:
            message = tg.stored_message(chat, q1.message_id)
            return message if message is not None and "2 answered" in message.text else None

        counted = await tg.wait_for(counted_now, what="the count edited into the rich question")
        assert counted.rich is not None and counted.buttons and counted.math == q1.math
        # each tapper's explanation goes once the burst of taps is over
        await tg.wait_for(
            lambda: all(tg.ephemeral_for(chat, s) for s in (wrong_one, right_one)),
            what="the two explanations",
        )

    # restarted in the middle of the question: its edits still go to the rich message
    async with BotHarness(tg, db_path, env=env):
        tap = tg.tap(chat, late, q1.message_id, button_data(q1, "C"))
        late_answer = await tg.wait_answered(tap)
        assert late_answer.text == "❌ Wrong. 0 points\n\nSolve x² − 4 = 0."
        await tg.wait_for(lambda: tg.ephemeral_for(chat, late), what="the late one's explanation")
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2), what="question 2")

        def revealed_now() -> StoredMessage | None:
            message = tg.stored_message(chat, q1.message_id)
            return message if message is not None and not message.buttons else None

        revealed = await tg.wait_for(revealed_now, what="question 1 revealed")
        assert revealed.rich is not None and "Right answer: B" in revealed.text
        assert revealed.math[0] == r"y = x^{2} - 4"
        # the photo was never edited; every edit of question 1 was a rich one
        kept = tg.stored_message(chat, photo.message_id)
        assert kept is not None and kept.edits == [] and kept.photo is not None
        edits = [
            c for c in tg.calls_to("editMessageText") if c.params.get("message_id") == q1.message_id
        ]
        assert len(edits) >= 2
        assert all("rich_message" in c.params and "text" not in c.params for c in edits)
        assert not [
            c
            for c in tg.calls_to("editMessageCaption")
            if c.params.get("message_id") in (photo.message_id, q1.message_id)
        ]
        # question 2 has no math: its picture carries it as the caption, as before
        assert q2.photo is not None and q2.rich is None and "What is shown?" in q2.text
        assert photo.photo is not None and q2.photo.file_id == photo.photo.file_id
    visible = [
        c for c in tg.calls_to("sendRichMessage") if "ephemeral_message_parameters" not in c.params
    ]
    assert len(visible) == 1
    # each tapper read the whole explanation alone: formulas rendered, and the picture, sent
    # by the file_id of the group's photo (never uploaded again)
    assert photo.photo is not None
    for student in cls.students:
        (seen,) = tg.ephemeral_for(chat, student)
        assert seen.message.rich is not None and seen.message.math
        assert seen.message.rich.photos == [f"tg://photo?id={photo.photo.file_id}"]
    assert tg.api.photos.uploads == 1
    all_valid(tg)
