"""End to end in a group: a several-answers question ticked, submitted, scored in
part and revealed; true/false in the chat's language; typed questions left out of the run, as
the announcement says; selections and partial credit surviving a restart."""

from __future__ import annotations

from pathlib import Path

from fakebot import FakeTelegram, User
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate
from typeskit import BANK


async def test_several_answers_and_true_false_in_a_group(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=4)
    chat = cls.chat_id
    one, two, three, four = cls.students
    db = tmp_path / "db.sqlite3"
    env = bank_env(tmp_path, "kinds", BANK)
    async with BotHarness(tg, db, env=env) as bot:
        tg.user_says(chat, cls.creator, "/quiz kinds 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        # the four typed questions are left out, and the announcement says so
        announce = tg.find_message(chat, "Kinds")
        assert announce is not None
        assert "2 questions" in announce.text
        assert "4 typed questions are for homework and practice" in announce.text
        assert q1.text.startswith("❓ Question 1/2")
        assert "Select all that apply" in q1.text
        assert [t for row in q1.buttons for t, _ in row] == ["A", "B", "C", "D", "✔ Submit"]
        data = {label: button_data(q1, label) for label in ["A", "B", "C", "D", "✔ Submit"]}
        assert all(len(d.encode()) <= 64 for d in data.values())

        async def alert(student: User, label: str) -> str:
            answer = await tg.wait_answered(tg.tap(chat, student, q1.message_id, data[label]))
            assert answer.show_alert and answer.text is not None and len(answer.text) <= 200
            return answer.text

        # student one ticks both right options: the alert tells the choice so far
        assert await alert(one, "A") == "Your choice: A (tap ✔ Submit)"
        assert await alert(one, "C") == "Your choice: A, C (tap ✔ Submit)"
        # student two ticks a right one; student three ticks one, then unticks it
        assert await alert(two, "C") == "Your choice: C (tap ✔ Submit)"
        assert await alert(three, "B") == "Your choice: B (tap ✔ Submit)"
        assert (await alert(three, "B")).startswith("Nothing chosen yet")
        # ticks are stored before their alert: a kill -9 now would keep them
        run_id = int(data["A"].split(":")[1])
        assert await bot.services.store.selections(run_id, 0) == {
            one.id: "AC",
            two.id: "C",
            three.id: "",
        }
        assert (await alert(three, "✔ Submit")).startswith("Nothing chosen yet")
        assert (await alert(one, "✔ Submit")).startswith("✅ Right! +1000")
        assert await alert(two, "✔ Submit") == "🟡 Partly right (50%). +500 points"
        # the first Submit counts: ticking or submitting again changes nothing
        assert await alert(one, "B") == "You already submitted A, C; only your first Submit counts."
        assert (await alert(one, "✔ Submit")).startswith("You already submitted A, C")
        # student four ticks a wrong option and a right one: nothing (1/2 - 1/2)
        await alert(four, "A")
        await alert(four, "D")
        assert (await alert(four, "✔ Submit")).startswith("❌ Wrong. 0 points")

        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None and revealed.buttons == []
        assert "Right answers: A, C" in revealed.text
        assert "3 answered, 1 right, 1 partly right" in revealed.text
        assert "A) 2 — 2 ✅" in revealed.text and "C) 3 — 2 ✅" in revealed.text
        assert "B) 4 — 0" in revealed.text and "D) 6 — 1" in revealed.text
        stored = {a.user_id: a for a in await bot.services.store.answers(run_id)}
        assert (stored[one.id].given, stored[one.id].credit, stored[one.id].correct) == (
            "AC",
            None,
            True,
        )
        assert (stored[two.id].given, stored[two.id].credit, stored[two.id].points) == (
            "C",
            0.5,
            500,
        )
        assert stored[four.id].points == 0 and not stored[four.id].correct

        # true/false: two buttons in the chat's language, true first
        assert [t for row in q2.buttons for t, _ in row] == ["True", "False"]
        false = button_data(q2, "False")
        answer = await tg.wait_answered(tg.tap(chat, two, q2.message_id, false))
        assert answer.text is not None and answer.text.startswith("✅ Right!")
        tg.user_says(chat, cls.creator, "/next")
        results = await tg.wait_for_message(chat, "🏁")
        assert "1500 points, 1/2 right" in results.text  # partial credit counts its points
        assert "1000 points, 1/2 right" in results.text
