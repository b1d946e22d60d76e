"""End to end, parsing: hostile uploads while another group's quiz runs, a download
stopped at the limit, and a worker that has to be killed.

How "taps are answered while a file is read" is shown without timing anything: each hostile
file's job is held in its worker (``parsekit.gated``) until the test has seen another group's
tap answered, then let go and read as usual. With the file read on the event loop (before issue
23: in a thread holding the GIL, for minutes) the tap could only be answered after the read
ended: the held job would hold the loop, the test could not open it, the job would go on by
itself after ``GATE_SECONDS`` and mark that it did, and the test fails on that mark (and on the
reply to the file coming before the tap's answer).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from authorkit import say
from botproc import BotProcess
from fakebot import FakeTelegram, User
from harness import BotHarness
from parsekit import AIKEN, HeldJobs, moodle_html, spin
from quizkit import assert_quiet, button_data, populate, start_quiz
from uploadkit import MB, say_slowly, upload, wait_file

from bot.banks.importers.sandbox import Failed, ParsePool

T = TypeVar("T")

HOSTILE = {
    "braces.txt": b"x" + b"{" * 200_000,
    "spaces.txt": AIKEN + b"Q?\nA." + b" " * 200_000,
    "broken-html.xml": moodle_html("<a‹a".encode() * 40_000),
}


async def test_hostile_uploads_leave_another_groups_taps_answered(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=len(HOSTILE))
    mallory = tg.add_user(66, "Mallory")
    async with BotHarness(tg, db_path) as bot:
        await bot.services.parsing.close()
        bot.services.parsing = pool = HeldJobs()
        q1 = await start_quiz(tg, cls)
        await tg.wait_consumed()
        for student, (name, data) in zip(cls.students, HOSTILE.items(), strict=True):
            gate = db_path.parent / f"gate-{name}"
            gate.mkdir()
            pool.gate = str(gate)
            before = len(tg.messages(mallory.id))
            tg.user_sends_document(mallory, name, data)
            await wait_file(gate / "started")  # the file is being read, in a worker
            query = tg.tap(cls.chat_id, student, q1.message_id, button_data(q1, "A"))
            answer = await tg.wait_answered(query, timeout=60)
            assert answer.text is not None and answer.text.startswith(("✅", "❌"))
            # answered while the file's job was still held: the read never held the loop
            assert not (gate / "gave_up").exists(), name
            assert len(tg.messages(mallory.id)) == before, name
            (gate / "open").touch()
            reply = await tg.wait_for(
                lambda: next(iter(tg.messages(mallory.id)[before:]), None),  # noqa: B023
                timeout=60,
                what=name,
            )
            assert "saved" in reply.text, name  # the one good Aiken question, or nothing
    assert_quiet(caplog)


async def test_a_download_stops_at_the_limit(tg: FakeTelegram, db_path: Path) -> None:
    mallory = tg.add_user(66, "Mallory")
    async with BotHarness(tg, db_path):
        huge = b"x" * (20 * MB)  # the most Telegram lets a bot download
        await upload(
            tg, mallory, "huge.gift", huge, "too big", announced_size=None, size_known=False
        )
        # the bot stopped reading after the first megabyte: the server never sent it all
        await tg.wait_for(lambda: tg.files.unfinished == ["documents/file_1"])
        assert tg.files.finished == []
        # a file that fits is still read whole
        await upload(tg, mallory, "ok.gift", b"Fine? {=yes ~no}\n", "saved as", size_known=False)
        assert tg.files.finished == ["documents/file_2"]


class FirstJobSpins(ParsePool):
    """The first job is replaced by one that never ends: its worker is killed at the CPU
    limit (1 s), as a file that still read too slowly would be."""

    spun = False

    async def run(self, fn: Callable[..., T], *args: object) -> T | Failed:
        if not self.spun:
            self.spun = True
            await super().run(spin)
            return Failed("too_long")
        return await super().run(fn, *args)


async def test_a_killed_worker_is_a_clear_reply_and_the_next_read_works(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ann: User = tg.add_user(71, "Ann")
    imran: User = tg.add_user(72, "Imran", language_code="bn")
    async with BotHarness(tg, db_path) as bot:
        await bot.services.parsing.close()
        bot.services.parsing = pool = FirstJobSpins(1, cpu_seconds=1)
        gift = b"Fine? {=yes ~no}\n"
        # (the job is tried twice, each time in a new worker: a generous deadline for both)
        await say_slowly(tg, ann, lambda: tg.user_sends_document(ann, "a.gift", gift), "too long")
        assert pool.failures == 1
        await upload(tg, ann, "a.gift", gift, "saved as")
        # a question typed into a draft is read by the workers too
        pool.spun = False
        await say(tg, imran, "/newquiz নেটওয়ার্ক", "এবার প্রশ্ন পাঠান")
        typed = "Which?\nA. x\nB. y\nANSWER: B"
        await say_slowly(tg, imran, lambda: tg.user_says(imran.id, imran, typed), "অনেক বেশি সময়")
        await say(tg, imran, typed, "প্রশ্ন ১ যোগ হলো")
    assert_quiet(caplog)


async def test_the_real_process_reads_uploads_in_workers_and_stops_cleanly(
    tg: FakeTelegram, db_path: Path
) -> None:
    """``quizbot run`` as a process: an upload is read by a spawned worker (which imports the
    bot's modules on its own), and SIGTERM ends the bot and its workers."""
    ann = tg.add_user(71, "Ann")
    bot = await BotProcess(tg, db_path).start()
    try:
        tg.user_sends_document(ann, "a.gift", b"Fine? {=yes ~no}\n")
        await tg.wait_for(
            lambda: next((m for m in tg.messages(ann.id) if "saved as" in m.text), None),
            timeout=30,
        )
        assert await bot.terminate(within=20) == 0
    finally:
        await bot.close()
    assert "Traceback" not in bot.stderr
