"""Streaks: consecutive right answers in a group quiz earn a bonus, shown in alerts and results."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ZERO, button_data, correct_label, open_question, populate, right_shown

from bot.core.engine import Answer, QuizEngine, make_plan, streak_bonus, streaks
from bot.render import bank_limits, tap_alert

T0 = 1_700_000_000.0


def test_bonus_and_streak_counting() -> None:
    assert [streak_bonus(s) for s in range(9)] == [0, 0, 100, 200, 300, 400, 500, 500, 500]
    assert streaks([True, True, False, True, None, True, True, True]) == [1, 2, 0, 1, 0, 1, 2, 3]
    assert streaks([]) == []


def test_engine_streaks_reset_on_wrong_and_missed() -> None:
    e = QuizEngine(ZERO, make_plan(ZERO, random.Random(1)), 30)
    # user 1: right ×3, wrong, right; user 2: right, (misses question 2), right
    seen: dict[int, list[Answer]] = {1: [], 2: []}
    plan: dict[int, list[bool | None]] = {
        1: [True, True, True, False, True],
        2: [True, None, True, True, True],
    }
    for q in range(5):
        e.open(T0 + 100 * q)
        for user, choices in plan.items():
            if choices[q] is None:
                continue
            shown = right_shown(e) if choices[q] else (right_shown(e) + 1) % 4
            v = e.answer(user, q, shown, T0 + 100 * q)  # at once: 1000 time points
            assert v.answer is not None
            seen[user].append(v.answer)
        e.close()
        e.advance()
    assert [a.streak for a in seen[1]] == [1, 2, 3, 0, 1]
    assert [a.points for a in seen[1]] == [1000, 1100, 1200, 0, 1000]
    assert [a.streak for a in seen[2]] == [1, 1, 2, 3]
    assert [a.points for a in seen[2]] == [1000, 1000, 1100, 1200]
    scores = {s.user_id: s for s in e.standings()}
    assert scores[1].best_streak == 3
    assert scores[2].best_streak == 3

    # Rebuilt after a restart from stored answers (which keep points, not streaks).
    again = QuizEngine(ZERO, e.plan, 30, current=5, phase="posting")
    again.restore(
        Answer(a.q_index, a.user_id, a.option, a.correct, a.points, a.at)
        for user in seen
        for a in seen[user]
    )
    assert [a.streak for a in again.answers_of(1).values()] == [1, 2, 3, 0, 1]
    assert again.standings() == e.standings()
    again.open(T0 + 600)
    v = again.answer(2, 5, right_shown(again), T0 + 600)
    assert v.answer is not None
    assert v.answer.streak == 4
    assert v.answer.points == 1300


def test_bonus_is_capped_and_alerts_fit() -> None:
    e = QuizEngine(ZERO, make_plan(ZERO, random.Random(2)), 30)
    for q in range(8):
        e.open(T0)
        v = e.answer(7, q, right_shown(e), T0 + 30)  # at the deadline: 500 time points
        assert v.answer is not None
        assert v.answer.points == 500 + min(100 * q, 500)
        alert = tap_alert("en", v, e.question, e.permutation)
        first = alert.split("\n")[0]
        assert first.startswith(f"✅ Right! +{v.answer.points} points")
        if q:
            assert first.endswith(f" · 🔥 streak {q + 1} (+{min(100 * q, 500)})")
        assert len(alert) <= 200
        bn = tap_alert("bn", v, e.question, e.permutation)
        assert len(bn) <= 200
        assert not bn.endswith("…")  # the explanation still fits whole
        e.close()
        e.advance()
    limits = bank_limits()
    assert limits.alert_prefix is not None
    assert all(200 - limits.alert_prefix[lang] >= 140 for lang in ("bn", "en"))


async def test_streaks_in_alerts_and_results(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    hero, other = cls.students
    async with BotHarness(tg, db_path) as bot:
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        alerts = []
        for n in (1, 2, 3):
            q = await tg.wait_for(partial(open_question, tg, chat, n))
            right = correct_label(q)
            run_id = int(button_data(q, right).split(":")[1])
            wrong = next(x for x in "ABCD" if x != right)
            answer = await tg.wait_answered(tg.tap(chat, hero, q.message_id, button_data(q, right)))
            assert answer.text is not None
            alerts.append(answer.text.split("\n")[0])
            # the other student is right, then wrong, then right: no streak above 1
            await tg.wait_answered(
                tg.tap(chat, other, q.message_id, button_data(q, right if n != 2 else wrong))
            )
            tg.user_says(chat, cls.creator, "/next" if n < 3 else "/stop")
        points = [int(a.split("+")[1].split()[0]) for a in alerts]
        assert "streak" not in alerts[0]
        # the bot's clock stands still (tests/support/clockkit.py): each tap is "at once", 1000
        # points
        assert points == [1000, 1100, 1200]
        assert alerts[1].endswith(" · 🔥 streak 2 (+100)")
        assert alerts[2].endswith(" · 🔥 streak 3 (+200)")
        results = await tg.wait_for(lambda: tg.find_message(chat, "results"))
        text = results.text.replace("\u2068", "").replace("\u2069", "")
        assert "🔥 Longest streak: Student0, 3 right in a row" in text
        assert f"Student0 — {sum(points)} points, 3/3 right" in text  # 3 asked, then /stop
        assert "Student1 — " in text
        # The bonus is part of the stored points, so leaderboards count it too.
        stored = await bot.services.store.run_results(run_id)
        assert stored[0].user_id == hero.id
        assert stored[0].points == sum(points)
