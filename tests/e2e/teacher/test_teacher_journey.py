"""End to end: a teacher's whole journey, in English and in Bengali, by the quiz's name.

Author from quiz polls, /done's card, run in the group, leaderboard, homework, analysis, regrade
(previewed, applied by a button), export (private), share link, and students' commands in the
group. Everything the fake server recorded is scanned: no internal id (``u.N``) anywhere, no
document in the group, every student command answered (a reply or a reaction) within 8 s.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from fakebot import FakeTelegram, StoredMessage, User
from quizkit import open_question, options_shown, populate
from teacherkit import FrozenClock, harness, hw_question

from bot.features.stats import views as stats_views
from bot.features.stats.queries import Leaderboard
from bot.storage import Standing

INTERNAL_ID = re.compile(r"\bu\.[0-9]+")
TITLES = {"en": "Cell Biology Basics", "bn": "কোষ জীববিজ্ঞানের মূল কথা"}
NAMES = {"en": "cell-biology-basics", "bn": "কোষ-জীববিজ্ঞানের-মূল-কথা"}
LETTER_B = {"en": "C", "bn": "গ"}
SEVERAL = "Which are inside the nucleus?"
RIGHTS = ("Chromatin", "Nucleolus")
RIGHT_MARKED_WRONG = re.compile(r"(?m)^(?:[☑☐] )?[A-J]\) (?:Chromatin|Nucleolus)\b[^\n]*❌")


async def tick_rights(tg: FakeTelegram, chat: int, user: User, question: StoredMessage) -> str:
    """Tick the right options of the several-answers question (by their text), then Submit:
    the alert."""
    shown = options_shown(question)
    for letter in [x for x, text in shown.items() if text in RIGHTS]:
        now = tg.stored_message(chat, question.message_id) or question
        data = next(d for row in now.buttons for label, d in row if label.endswith(f" {letter}"))
        await tg.wait_answered(tg.tap(chat, user, question.message_id, data))
    now = tg.stored_message(chat, question.message_id) or question
    submit = now.buttons[-1][-1][1]
    done = await tg.wait_answered(tg.tap(chat, user, question.message_id, submit))
    return done.text or ""


async def say(tg: FakeTelegram, chat: int, user: User, text: str, expect: str) -> StoredMessage:
    """``user`` writes in ``chat``; the bot's first new message there containing ``expect``."""
    before = len(tg.messages(chat))
    tg.user_says(chat, user, text, ephemeral=False)  # a visible command: its reply in the chat
    try:
        return await tg.wait_for(
            lambda: next((m for m in tg.messages(chat)[before:] if expect in m.text), None),
            what=f"{text!r} → {expect!r}",
        )
    except TimeoutError:
        raise AssertionError([m.text for m in tg.messages(chat)[before:]]) from None


def everything_sent(tg: FakeTelegram) -> list[str]:
    """Every text, caption, button label, alert and document the bot sent, as text."""
    out: list[str] = []
    for chat_id in list(tg.chats):
        for m in tg.messages(chat_id):
            out += [m.text, *(v.text for v in m.edits)]
            out += [label for row in m.buttons for label, _ in row]
            if m.document is not None and m.document.data is not None:
                out.append(m.document.data.decode("utf-8", "replace"))
    out += [a.text or "" for a in tg.answers]
    return out


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_a_teachers_quiz_works_everywhere_by_its_name(
    tg: FakeTelegram, db_path: Path, lang: str
) -> None:
    cls = populate(tg, students=4)
    teacher, group = cls.creator, cls.chat_id
    students = cls.students
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        me = teacher.id
        await say(tg, group, teacher, f"/lang {lang}", "")
        await say(tg, me, teacher, f"/lang {lang}", "")
        # --- author: quiz polls, /done's card ------------------------------------------------
        await say(tg, me, teacher, "/newquiz", "")
        await say(tg, me, teacher, TITLES[lang], "")
        for n, (question, options, correct) in enumerate(
            [
                ("Which organelle makes ATP?", ["Ribosome", "Mitochondrion", "Nucleus"], [1]),
                ("Where is DNA kept?", ["Nucleus", "Membrane", "Vacuole"], [0]),
                (SEVERAL, ["Chromatin", "Ribosome", "Nucleolus"], [0, 2]),
            ],
            start=1,
        ):
            count = len(tg.messages(me))
            tg.user_sends_poll(teacher, question, options, correct=correct)
            await tg.wait_for(lambda: len(tg.messages(me)) > count, what=f"question {n}")  # noqa: B023
        saved = await say(tg, me, teacher, "/done", NAMES[lang])
        name = NAMES[lang]
        buttons = [b for row in saved.buttons for b in row]
        assert len(buttons) >= 2, saved.buttons  # start in a group, homework, share, practise
        urls = [
            b.get("url") or ""
            for row in (saved.reply_markup or {}).get("inline_keyboard", [])
            for b in row
        ]
        started = next(re.search(r"startgroup=qs-([0-9]+)$", u) for u in urls if "qs-" in u)
        assert started is not None
        assert any(u.endswith(f"startgroup=qh-{started[1]}") for u in urls)  # set as homework
        help_text = await say(tg, me, teacher, "/help", "/newquiz")
        assert ("Commands for teachers" if lang == "en" else "শিক্ষকদের কমান্ড") in help_text.text

        # --- run in the group by name ------------------------------------------------------
        tg.user_says(group, teacher, f"/quiz {name} 600")
        q1 = await tg.wait_for(lambda: open_question(tg, group, 1))
        for student in students:
            data = next(d for row in q1.buttons for _, d in row if d)
            tg.tap(group, student, q1.message_id, data)
        tg.user_says(group, teacher, "/stop")
        await tg.wait_for(lambda: tg.find_message(group, "🏁"))

        # --- students' commands in the group: always answered within 8 s ----------------------
        await say(tg, students[0].id, students[0], "/start", "")  # may be written to privately
        commands = []
        for student in students[:2]:
            for text in ("/top", "/me", "/top"):
                # sent visibly (a client predating ephemeral commands): the cooldown's path
                commands.append(tg.user_says(group, student, text, ephemeral=False)["message_id"])

        def answered(mid: int) -> bool:
            return any(m.reply_to == mid for m in tg.messages(group)) or any(
                c.method.lower() == "setmessagereaction" and c.params.get("message_id") == mid
                for c in tg.calls
            )

        await tg.wait_for(
            lambda: all(answered(mid) for mid in commands),
            timeout=8.0,
            what="every student command answered",
        )
        # one held back from the group reaches the student who started the bot privately
        await tg.wait_for(lambda: any(m.text.startswith("✍") for m in tg.messages(students[0].id)))
        # the quiz list in the group offers no start button to anyone
        listing = await say(tg, group, students[2], "/quiz", "")
        assert not listing.buttons

        # --- leaderboard, homework, analysis by name -----------------------------------------
        board = await say(tg, group, teacher, f"/leaderboard {name}", students[0].first_name)
        assert name in board.text
        private_before = len(tg.messages(me))
        await say(tg, group, teacher, f"/analysis {name}", "📬")
        await tg.wait_for(lambda: len(tg.messages(me)) > private_before, what="analysis")

        # --- regrade: preview, then the confirm button ---------------------------------------
        preview = await say(tg, group, teacher, f"/regrade {name} 1 {LETTER_B[lang]}", "✏️")
        datas = [d for row in preview.buttons for _, d in row if d]
        assert len(datas) == 2
        tg.tap(group, teacher, preview.message_id, datas[0])
        await tg.wait_for(lambda: preview.edits, what="regrade applied")

        # --- export: private only, named after the group -------------------------------------
        private_before = len(tg.messages(me))
        await say(tg, group, teacher, "/export", "📬")
        docs = await tg.wait_for(
            lambda: [m for m in tg.messages(me)[private_before:] if m.document] or None
        )
        assert docs[0].document is not None and "ZeRO-study-group" in (
            docs[0].document.filename or ""
        )

        # --- homework by title, any case (after the re-grade: an open homework blocks it)
        before = len(tg.messages(group))
        tg.user_says(group, teacher, f"/homework {TITLES[lang].upper()} 2m")  # by title, any case
        await tg.wait_for(lambda: any(m.buttons for m in tg.messages(group)[before:]), what="card")
        # a student takes it: the several-answers question ticked right, shown right
        pupil = students[0 if lang == "en" else 1]
        tg.user_says(tg.private_chat(pupil), pupil, "/start hw-1")
        for q_index in (0, 1):
            asked = await tg.wait_for(functools.partial(hw_question, tg, pupil, q_index))
            first = next(d for row in asked.buttons for _, d in row if d)
            await tg.wait_answered(tg.tap(pupil.id, pupil, asked.message_id, first))
        asked = await tg.wait_for(functools.partial(hw_question, tg, pupil, 2))
        alert = await tick_rights(tg, pupil.id, pupil, asked)
        assert alert.startswith("✅"), alert
        closed = await tg.wait_for(
            lambda: (
                m
                if (m := tg.stored_message(pupil.id, asked.message_id)) and not m.buttons
                else None
            )
        )
        for right in RIGHTS:
            line = next(x for x in closed.text.splitlines() if f") {right}" in x)
            assert line.startswith("☑") and line.endswith("✅"), closed.text
        # --- the card's "set as homework" link, followed into the group ----------------------
        before = len(tg.messages(group))
        tg.user_says(group, teacher, f"/start qh-{started[1]}")  # asks for how long
        picker = await tg.wait_for(
            lambda: next((m for m in tg.messages(group)[before:] if m.buttons), None), what="ask"
        )
        assert len([d for row in picker.buttons for _, d in row]) == 4  # 1 h, 1, 3, 7 days
        await tg.wait_answered(tg.tap(group, teacher, picker.message_id, picker.buttons[0][0][1]))
        timer = await tg.wait_for(  # then each question's time
            lambda: (
                m
                if (m := tg.stored_message(group, picker.message_id)) and "⏱" in str(m.buttons)
                else None
            )
        )
        await tg.wait_answered(tg.tap(group, teacher, picker.message_id, timer.buttons[0][1][1]))
        await tg.wait_for(
            lambda: any(
                m.buttons and m.message_id != picker.message_id for m in tg.messages(group)[before:]
            ),
            what="card 2",
        )
        listed = await say(tg, group, teacher, "/homework", TITLES[lang])
        assert listed.text.count(TITLES[lang]) == 2  # by title, and from the card's link
        # --- share link: title, author, count; then practice ends with a working "again" ----
        link = await say(tg, me, teacher, f"/share {name}", "start=sq-")
        token = re.search(r"start=(sq-[A-Za-z0-9_-]+)", link.text)
        assert token is not None
        # a guest outside the group: a member would wait while the quiz is open as homework
        # there (security: practice never shows answers of a live quiz or open homework)
        guest = tg.add_user(1999, "Guest", language_code=lang, started=True)
        intro = await say(tg, guest.id, guest, f"/start {token[1]}", TITLES[lang])
        assert teacher.first_name in intro.text
        for n in (1, 2, 3):  # practise through: the end offers the same quiz again, which works
            shown: StoredMessage = await tg.wait_for(
                functools.partial(open_question, tg, guest.id, n)
            )
            if n == 3:  # ticks, then Submit
                await tick_rights(tg, guest.id, guest, shown)
                continue
            data = next(d for row in shown.buttons for _, d in row if d)
            await tg.wait_answered(tg.tap(guest.id, guest, shown.message_id, data))
        end = await tg.wait_for(
            lambda: next((m for m in tg.messages(guest.id) if f"/quiz {name}" in m.text), None)
        )
        again = next(d for row in end.buttons for _, d in row if d)
        before = len(tg.messages(guest.id))
        await tg.wait_answered(tg.tap(guest.id, guest, end.message_id, again))
        await tg.wait_for(
            lambda: open_question(tg, guest.id, 1) and len(tg.messages(guest.id)) > before
        )
        # the name works for the author's own commands too
        await say(tg, me, teacher, f"/deletequiz {name}", TITLES[lang])

    sent = everything_sent(tg)
    leaked = [s for s in sent if INTERNAL_ID.search(s)]
    assert not leaked, leaked[:3]
    wrongly = [s for s in sent if RIGHT_MARKED_WRONG.search(s)]
    assert not wrongly, wrongly[:3]  # a right option is never shown ❌
    assert not any(m.document for m in tg.messages(group))


def test_no_medal_at_zero_points() -> None:
    """A podium once showed "🥇 1. Arif — 0 points, 0/2 right" gave a medal for nothing."""
    rows = (
        Standing(1, 1, "Mita", None, 1200, 2, 2, 1),
        Standing(2, 2, "Arif", None, 0, 0, 2, 1),
        Standing(3, 3, "Nadia", None, 0, 0, 2, 1),
    )
    text = stats_views.leaderboard(Leaderboard(1, rows, None, 3), "en", None)
    assert "🥇" in text and "🥈" not in text and "🥉" not in text
    assert "\n2. \u2068Arif" in text
