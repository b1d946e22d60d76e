"""Hostile users: no path leaks a live answer or someone else's quiz or session.

Each test reproduces one finding of the attack over the fake Bot API first, then shows it holds.
"""

from __future__ import annotations

from pathlib import Path

from authorkit import draft_count, say, write_quiz
from botproc import BotProcess
from fakebot import FakeTelegram, StoredMessage
from harness import BotHarness
from quizkit import (
    ZERO,
    button_data,
    correct_label,
    open_question,
    populate,
    question_messages,
    run_of,
    start_quiz,
    until,
)
from securitykit import AIKEN
from teacherkit import FrozenClock, harness, start_hw

INVALID = "This button is no longer valid."


async def test_recap_link_during_a_run_reveals_nothing(tg: FakeTelegram, db_path: Path) -> None:
    """``/start recap_<run>`` while the run is going: no right answer of the open question."""
    cls = populate(tg, students=2)
    student = cls.students[0]
    async with BotHarness(tg, db_path):
        q1 = await start_quiz(tg, cls)
        run_id = run_of(q1)
        label = correct_label(q1)
        wrong = next(x for x in "ABCD" if x != label)
        await tg.wait_answered(tg.tap(cls.chat_id, student, q1.message_id, button_data(q1, wrong)))
        tg.user_says(cls.chat_id, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, cls.chat_id, 2))
        chat = tg.private_chat(student)
        tg.user_says(chat, student, f"/start recap_{run_id}")
        reply = await tg.wait_for(lambda: tg.last_message(chat.id))
        bank = {q.text.en: q for q in ZERO.questions}
        for question_text, question in bank.items():
            if question_text in q2.text:
                assert question.options[question.correct].en not in reply.text
                assert question_text not in reply.text
        assert "Right answer" not in reply.text
        assert "recap" in reply.text.casefold() or "ended" in reply.text.casefold()


async def test_forged_practice_tap_is_refused(tg: FakeTelegram, db_path: Path) -> None:
    """A tap ``a:<victim's run>:0:0`` under one's own message neither answers nor moves the
    victim's practice on."""
    cls = populate(tg, students=3)
    victim, _, attacker = cls.students
    async with BotHarness(tg, db_path) as bot:
        vchat, achat = tg.private_chat(victim), tg.private_chat(attacker)
        tg.user_says(vchat, victim, "/quiz zero")
        vq = await tg.wait_for(lambda: open_question(tg, vchat.id, 1))
        tg.user_says(achat, attacker, "/quiz zero")
        aq = await tg.wait_for(lambda: open_question(tg, achat.id, 1))
        victim_run = run_of(vq)
        assert bot.services.practice is not None
        answer = await tg.wait_answered(
            tg.tap(achat, attacker, aq.message_id, f"a:{victim_run}:0:0")
        )
        assert answer.text == INVALID
        assert len(question_messages(tg, vchat.id)) == 1  # the victim's session did not move
        assert open_question(tg, vchat.id, 1) is not None
        assert await bot.services.store.answers(victim_run) == []


async def test_homework_membership_fails_closed(tg: FakeTelegram, db_path: Path) -> None:
    """getChatMember failing admits nobody (with a clear reply); a restricted user who left is
    not a member; a restricted member still is."""
    cls = populate(tg, students=5)
    s0, _, s1, _, s2 = cls.students  # Telegram in English
    clock = FrozenClock()
    async with harness(tg, db_path, clock):
        tg.user_says(cls.chat_id, cls.creator, "/homework zero 3d")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "Homework: ZeRO"))
        tg.fail("getChatMember", times=1, error_code=400, description="Bad Request: boom")
        refused = await start_hw(tg, s0, 1)
        assert refused.text == (
            "I could not check that you are in the homework's group. Please try again later."
        )
        tg.set_member(cls.chat_id, s1, "restricted_left")
        gone = await start_hw(tg, s1, 1)
        assert gone.text == "This homework is for the members of its group only."
        tg.set_member(cls.chat_id, s2, "restricted")
        first = await start_hw(tg, s2, 1)
        assert first.text.startswith("📚 Homework: ZeRO")
        again = await start_hw(tg, s0, 1)  # Telegram answers again: s0 may start now
        assert again.text.startswith("📚 Homework: ZeRO")


async def test_analysis_and_regrade_of_another_users_quiz_are_refused(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``/analysis u.N`` and ``/regrade u.N …`` of an unshared quiz of someone else, in a group
    the attacker created: the same answer as for an unknown name, nothing of the quiz shown."""
    cls = populate(tg, students=1)
    author = tg.add_user(4444, "Author")
    attacker = tg.add_user(4445, "Mallory")
    tg.add_group(-1005555, "Mallory's group", creator=attacker, supergroup=True)
    async with BotHarness(tg, db_path):
        name = await write_quiz(tg, author, "Secret exam", count=3)
        assert name
        tg.start_bot(attacker)
        tg.user_says(-1005555, attacker, "/analysis u.1")
        said = await tg.wait_for(lambda: tg.last_message(-1005555) or tg.last_message(attacker.id))
        assert all("Secret exam" not in m.text for m in tg.messages(attacker.id))
        assert "no quiz by that name" in said.text
        tg.user_says(-1005555, attacker, "/regrade u.1 9 A")
        await tg.wait_for(lambda: len(tg.messages(-1005555)) == 2)
        regrade = tg.messages(-1005555)[-1]
        # the resolver's "no quiz by that name" and its list of the quizzes one may name here
        assert "questions 1 to" not in regrade.text and "no quiz by that name" in regrade.text
        assert "Secret exam" not in regrade.text
        # the author's own group may analyse it (own quiz), and it names it
        tg.add_group(-1006666, "Author's group", creator=author, supergroup=True)
        tg.user_says(-1006666, author, "/regrade u.1 9 A")
        own = await tg.wait_for(lambda: tg.last_message(-1006666))
        assert "questions 1 to 3" in own.text
    del cls


async def test_report_button_needs_participation(tg: FakeTelegram, db_path: Path) -> None:
    """``p:<run>:<q>`` of a run the tapper never answered in: refused, no quiz title shown."""
    cls = populate(tg, students=3)
    player, _, stranger = cls.students
    async with BotHarness(tg, db_path):
        q1 = await start_quiz(tg, cls)
        run_id = run_of(q1)
        await tg.wait_answered(tg.tap(cls.chat_id, player, q1.message_id, button_data(q1, "A")))
        tg.user_says(cls.chat_id, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "results"))
        chat = tg.private_chat(stranger)
        tg.user_says(chat, stranger, "/start")
        greeting = await tg.wait_for(lambda: tg.last_message(chat.id))
        answer = await tg.wait_answered(
            tg.tap(chat, stranger, greeting.message_id, f"p:{run_id}:0")
        )
        assert answer.text == INVALID
        assert all("what is wrong" not in m.text for m in tg.messages(chat.id))
        pchat = tg.private_chat(player)
        tg.user_says(pchat, player, "/start")
        hello = await tg.wait_for(
            lambda: tg.find_message(pchat.id, "") and tg.last_message(pchat.id)
        )
        await tg.wait_answered(tg.tap(pchat, player, hello.message_id, f"p:{run_id}:0"))
        await tg.wait_for(lambda: tg.find_message(pchat.id, "what is wrong"))


async def test_practice_waits_while_the_quiz_is_live_in_ones_group(
    tg: FakeTelegram, db_path: Path
) -> None:
    """Private practice of the quiz running in the student's group waits, and says so (both
    languages); a stranger to that group may practise it."""
    cls = populate(tg, students=2)
    en, bn = cls.students
    stranger = tg.add_user(4446, "Stranger")
    async with BotHarness(tg, db_path) as bot:
        await start_quiz(tg, cls)
        for student, text in (
            (en, "is running in one of your groups"),
            (bn, "এখন আপনার একটি গ্রুপে চলছে"),
        ):
            chat = tg.private_chat(student)
            tg.user_says(chat, student, "/quiz zero")
            said = await tg.wait_for(lambda c=chat: tg.last_message(c.id))  # type: ignore[misc]
            assert text in said.text
            assert question_messages(tg, chat.id) == []
        # the /quiz list's start button waits too
        chat = tg.private_chat(en)
        answer = await tg.wait_answered(tg.tap(chat, en, said.message_id, "s:zero"))
        assert answer.text is not None and "is running in one of your groups" in answer.text
        schat = tg.private_chat(stranger)
        tg.user_says(schat, stranger, "/quiz zero")
        await tg.wait_for(lambda: open_question(tg, schat.id, 1))
        tg.user_says(cls.chat_id, cls.creator, "/stop")
        await until(lambda: not bot.services.groups.active())
        tg.user_says(chat, en, "/quiz zero")
        await tg.wait_for(lambda: open_question(tg, chat.id, 1))


async def test_questions_sent_together_all_join_the_draft(tg: FakeTelegram, db_path: Path) -> None:
    """Five quiz polls in one getUpdates batch give five questions; five Aiken texts too."""
    cls = populate(tg, students=1)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, "/newquiz Burst", "Now send")
        for n in range(5):  # queued at once: the bot's next getUpdates takes all five
            tg.user_sends_poll(teacher, f"Poll question {n}?", ["right", "wrong"], correct=[0])
        await tg.wait_for(
            lambda: sum("added" in m.text for m in tg.messages(teacher.id)) >= 5, what="5 acks"
        )
        assert await draft_count(bot.services.store, teacher) == 5
        for n in range(5):
            tg.user_says(teacher.id, teacher, f"Aiken question {n}?\nA. right\nB. wrong\nANSWER: A")
        await tg.wait_for(
            lambda: sum("added" in m.text for m in tg.messages(teacher.id)) >= 10, what="10 acks"
        )
        assert await draft_count(bot.services.store, teacher) == 10
        saved = await say(tg, teacher, "/done", "saved as")
        assert "10" in saved.text or "১০" in saved.text


async def test_a_redelivered_update_is_handled_once(tg: FakeTelegram, db_path: Path) -> None:
    """Telegram hands out again an upload and a /homework after a restart: one quiz, one
    homework."""
    cls = populate(tg, students=1)
    teacher = cls.creator
    clock = FrozenClock()
    async with harness(tg, db_path, clock) as bot:
        upload = tg.user_sends_document(teacher, "layers.txt", AIKEN)
        upload_id = tg.next_update_id - 1
        await tg.wait_for(lambda: tg.find_message(teacher.id, "saved as"))
        command = tg.user_says(cls.chat_id, cls.creator, "/homework zero 3d")
        command_id = tg.next_update_id - 1
        await tg.wait_for(lambda: tg.find_message(cls.chat_id, "Homework: ZeRO"))
        assert len(bot.services.authored.of_author(teacher.id)) == 1
    async with harness(tg, db_path, clock) as bot:
        before = len(tg.messages(teacher.id)), len(tg.messages(cls.chat_id))
        tg.raw_update({"update_id": upload_id, "message": upload})
        tg.raw_update({"update_id": command_id, "message": command})
        await tg.wait_for(tg.all_updates_consumed)
        tg.user_says(teacher.id, teacher, "/myquizzes")  # a later update, handled after them
        await tg.wait_for(lambda: len(tg.messages(teacher.id)) > before[0])
        assert len(bot.services.authored.of_author(teacher.id)) == 1
        assert len(await bot.services.store.open_homework(cls.chat_id)) == 1
        assert len(tg.messages(cls.chat_id)) == before[1]


async def test_an_upload_in_flight_at_kill_9_is_answered_after_the_restart(
    tg: FakeTelegram, db_path: Path
) -> None:
    """The bot dies (SIGKILL) while downloading an upload: after the restart its sender is told
    to send it again, once; the next upload goes through."""
    teacher = tg.add_user(4242, "Teacher", language_code="en")
    bot = await BotProcess(tg, db_path).start()
    try:
        tg.fail("getFile", delay=60)  # the download hangs: the upload is in flight
        tg.user_sends_document(teacher, "layers.txt", AIKEN)
        await tg.wait_for(lambda: tg.calls_to("getFile"), timeout=20)
        await bot.kill()
        tg.faults.clear()
        bot = await BotProcess(tg, db_path).start()
        told = await tg.wait_for(
            lambda: tg.find_message(teacher.id, "Please send it again"), timeout=20
        )
        assert "restarted while working on the file" in told.text
        tg.user_sends_document(teacher, "layers.txt", AIKEN)
        await tg.wait_for(lambda: tg.find_message(teacher.id, "saved as"), timeout=20)
        assert sum("send it again" in m.text for m in tg.messages(teacher.id)) == 1
    finally:
        await bot.close()


async def test_uploads_per_user_per_day_are_limited(tg: FakeTelegram, db_path: Path) -> None:
    """Past QUIZBOT_UPLOADS_PER_DAY a user's files get a clear reply and are not downloaded;
    a day later they go through again; others are not affected."""
    teacher = tg.add_user(4242, "Teacher", language_code="en")
    other = tg.add_user(4243, "Other", language_code="en")
    clock = FrozenClock()
    async with harness(tg, db_path, clock, QUIZBOT_UPLOADS_PER_DAY="2") as bot:
        for n in range(2):
            tg.user_sends_document(teacher, f"layers{n}.txt", AIKEN)
            await tg.wait_for(lambda n=n: len(tg.messages(teacher.id)) == n + 1)  # type: ignore[misc]
        downloads = len(tg.calls_to("getFile"))
        tg.user_sends_document(teacher, "layers2.txt", AIKEN)
        said = await tg.wait_for(lambda: tg.find_message(teacher.id, "enough files for today"))
        assert "up to 2 files, 5 MB in all, in 24 hours" in said.text
        assert len(tg.calls_to("getFile")) == downloads
        assert len(bot.services.authored.of_author(teacher.id)) == 2
        tg.user_sends_document(other, "layers.txt", AIKEN)
        await tg.wait_for(lambda: tg.find_message(other.id, "saved as"))
        clock.advance(86_401)
        tg.user_sends_document(teacher, "layers3.txt", AIKEN)
        await tg.wait_for(lambda: len(tg.messages(teacher.id)) == 4)
        assert len(bot.services.authored.of_author(teacher.id)) == 3


EMOJI_QUESTION = "Which one? " + "🧠" * 1500  # 1,511 code points, 3,011 UTF-16 units
LONG_NOTE = "📖" * 600  # 600 code points, 1,200 UTF-16 units


def test_the_validator_counts_utf16_and_the_whole_reveal() -> None:
    """A question whose reveal fits in code points but not in UTF-16 units is refused, with the
    reveal's real size."""
    from bot.banks.yaml_reader import parse_quiz
    from bot.core.problems import BankError
    from bot.render import bank_limits

    # 1,911 code points, 3,811 UTF-16 units: the note is not counted (a reveal it does not
    # fit sends it alone), the question and its frame are
    longer = "Which one? " + "🧠" * 1900
    bank = (
        "title: {bn: Emoji, en: Emoji}\nlanguage: en\nquestions:\n"
        f"  - id: q1\n    question: {{bn: '{longer}', en: '{longer}'}}\n"
        "    options:\n      - {bn: ক, en: A}\n      - {bn: খ, en: B}\n    correct: 1\n"
        f"    note: {{bn: '{LONG_NOTE[:400]}', en: '{LONG_NOTE[:400]}'}}\n"
    )
    try:
        parse_quiz(bank, "emoji.yaml", "emoji", bank_limits())
    except BankError as exc:
        keys = [p.key for p in exc.problems]
    else:
        keys = []
    assert keys and set(keys) == {"bank_reveal_long"}


async def test_an_emoji_heavy_question_with_a_long_note_is_revealed(
    tg: FakeTelegram, db_path: Path
) -> None:
    """A stored question over Telegram's UTF-16 limit once revealed with its note: the reveal
    is still sent, the note whole as a message of its own; no MESSAGE_TOO_LONG."""
    from dataclasses import replace

    from bot.core.bank import Text

    student = tg.add_user(4242, "Student", language_code="en")
    first = ZERO.questions[0]
    heavy = replace(
        first, text=Text(EMOJI_QUESTION, EMOJI_QUESTION), note=Text(LONG_NOTE, LONG_NOTE)
    )
    quiz = replace(ZERO, id="emoji", questions=(heavy,), pick=None, shuffle=False)
    async with BotHarness(tg, db_path) as bot:
        bot.services.catalog.add(quiz)
        chat = tg.private_chat(student)
        tg.user_says(chat, student, "/quiz emoji")
        question = await tg.wait_for(lambda: open_question(tg, chat.id, 1))
        await tg.wait_answered(
            tg.tap(chat, student, question.message_id, button_data(question, "A"))
        )

        def aside() -> StoredMessage | None:
            return next((m for m in tg.messages(chat.id) if m.text.startswith("📖 ")), None)

        note = await tg.wait_for(aside)
        assert note.text == f"📖 {LONG_NOTE}"  # whole, in a message of its own
        revealed = tg.stored_message(chat.id, question.message_id)
        assert revealed is not None and "🧠" * 1500 in revealed.text
        assert "📖" not in revealed.text
        assert all(c.status == 200 for c in tg.calls_to("editMessageText")), [
            c.description for c in tg.calls_to("editMessageText")
        ]
