"""Many groups at once under Telegram's overall limit (30 sends+edits in any sliding second,
enforced by the fake server as requests arrive): few 429s, full question times, fairness."""

from __future__ import annotations

import asyncio
import statistics
from pathlib import Path

import yaml
from clockkit import ManualClock
from fakebot import FakeTelegram, User
from harness import BotHarness
from quizkit import ROOT, populate

GROUPS = 36
SECONDS = 5


def short_zero(folder: Path) -> Path:
    """The zero quiz cut to two questions, so 36 groups finish in seconds."""
    bank = yaml.safe_load((ROOT / "questions" / "zero.yaml").read_text(encoding="utf-8"))
    bank["questions"] = bank["questions"][:2]
    folder.mkdir()
    (folder / "zero.yaml").write_text(yaml.safe_dump(bank, allow_unicode=True), encoding="utf-8")
    return folder


async def test_many_groups_at_once_stay_under_the_overall_limit(tmp_path: Path) -> None:
    async with FakeTelegram(
        window=BotHarness.WINDOW, group_limit=20, enforce_limit=True, overall_limit=30
    ) as tg:
        classes = [
            populate(tg, students=2, chat_id=-100_000 - g, base=10_000 * (g + 1))
            for g in range(GROUPS)
        ]
        # The first sends reach Telegram late (a slow network): a pacer that counts from when it
        # started them lets the next second's requests arrive together with these.
        tg.fail("sendMessage", delay=0.4, times=20)
        env = {"QUIZBOT_QUESTIONS": str(short_zero(tmp_path / "questions"))}
        async with BotHarness(tg, tmp_path / "db.sqlite3", env=env, clock=ManualClock(1e9)):
            started = {}
            for cls in classes:
                tg.user_says(cls.chat_id, cls.creator, f"/quiz zero {SECONDS}")
                started[cls.chat_id] = tg.now()
            finished: dict[int, float] = {}
            tapped: set[tuple[int, int]] = set()

            def all_done() -> bool:
                for cls in classes:
                    if cls.chat_id not in finished:
                        results = tg.find_message(cls.chat_id, "🏁")
                        if results is not None:
                            finished[cls.chat_id] = results.sent_at
                        else:
                            tap_open_questions(tg, cls.chat_id, cls.students, tapped)
                return len(finished) == len(classes)

            await tg.wait_for(all_done, timeout=90)
            await asyncio.sleep(0)

        sends = len(tg.overall.arrivals)
        assert tg.overall.refused <= 0.005 * sends, (tg.overall.refused, sends)
        assert tg.overall.max_in_window() <= 30
        for cls in classes:
            assert tg.max_in_window(cls.chat_id) <= 20
            questions = [m for m in tg.messages(cls.chat_id) if "Question" in m.text]
            assert len(questions) == 2
            for message in questions:  # each open its full time: posted, then revealed
                assert message.edits, "revealed by an edit"
                assert message.edits[-1].at - message.sent_at >= SECONDS - 0.1
        durations = [finished[c.chat_id] - started[c.chat_id] for c in classes]
        assert max(durations) <= 1.5 * statistics.median(durations), durations


def tap_open_questions(
    tg: FakeTelegram, chat_id: int, students: list[User], tapped: set[tuple[int, int]]
) -> None:
    """Each student taps the first option once on each question that is open."""
    for message in tg.messages(chat_id):
        if not message.buttons or "Question" not in message.text:
            continue
        if (chat_id, message.message_id) in tapped:
            continue
        tapped.add((chat_id, message.message_id))
        for student in students:
            tg.tap(chat_id, student, message.message_id, message.buttons[0][0][1])
