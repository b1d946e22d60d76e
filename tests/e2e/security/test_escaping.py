"""HTML escaping by default: hostile names, group titles and bank texts reach every kind of
message as the text they are, never as markup, end to end over the fake Bot API server (which
rejects invalid HTML as Telegram does); pre-escaped values are caught; and no handler escapes
or marks text safe by itself."""

from __future__ import annotations

import re
import time
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml
from fakebot import FakeTelegram, StoredMessage, User
from harness import BotHarness
from quizkit import ROOT, assert_quiet, button_data, open_question, populate

from bot.i18n import markup, t
from bot.i18n.markup import DoubleEscape, Safe

TITLE = 'Tricky <b>title</b> & "co" \u202eevil'
QUESTION = 'Is 2 < 3 && 5 > 4? </code><a href="tg://user?id=1">click</a>'
RIGHT = "yes <i>sure</i> & more"
WRONG = "&amp; &lt;b&gt; literally"  # entities typed as text must show as typed
OTHER = "</b></i></pre> ' \u200f"
EXPLAIN = 'Because 2<3 & "quotes" \u200f—'
NOTE = "<pre>note</pre> & </b> " + "long " * 60
GROUP_TITLE = '<b>Group</b> & "co" </code>'
NAMES = ["<b>Boss</b> & <i>co", "</code><a href='tg://x'>", "\u202eRTL\u202c \u200fمرحبا"]
DAY = 86_400.0


def hostile_bank(folder: Path) -> Path:
    def both(text: str) -> dict[str, str]:
        return {"bn": text, "en": text}

    questions = [
        {
            "id": f"q{i}",
            "question": both(f"{QUESTION} #{i}"),
            "options": [both(RIGHT), both(WRONG), both(OTHER)],
            "correct": 1,
            "explanation": both(EXPLAIN),
            "note": both(NOTE),
        }
        for i in range(1, 3)
    ]
    bank = {
        "title": both(TITLE),
        "language": "en",
        "settings": {"shuffle": False},
        "questions": questions,
    }
    folder.mkdir()
    (folder / "hostile.yaml").write_text(yaml.safe_dump(bank, allow_unicode=True), encoding="utf-8")
    return folder


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def shown(message: StoredMessage, *texts: str) -> None:
    """Each text is in the message as a user reads it, and the message is well-formed HTML
    (the fake server refused it otherwise)."""
    for text in texts:
        assert text in message.text, (text, message.text)
    assert message.html is not None


async def says(tg: FakeTelegram, chat: int, user: User, text: str) -> StoredMessage:
    before = len(tg.messages(chat))
    tg.user_says(chat, user, text, ephemeral=False)  # a visible command: its reply in the chat
    await tg.wait_for(lambda: len(tg.messages(chat)) > before)
    return tg.messages(chat)[before]


async def test_hostile_texts_show_as_text_in_every_message(
    tg: FakeTelegram, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=0)
    chat = cls.chat_id
    tg.chat(chat).title = GROUP_TITLE
    players = [tg.add_user(7100 + i, name) for i, name in enumerate(NAMES)]
    for player in players:
        tg.set_member(chat, player, "member")
    boss = players[0]
    clock = Clock()
    bot = BotHarness(tg, db_path, env={"QUIZBOT_QUESTIONS": str(hostile_bank(tmp_path / "q"))})
    bot.services.clock = clock
    async with bot:
        await says(tg, boss.id, boss, "/start")  # the bot may now write to them first
        # The list of quizzes, and a "which quiz?" list's button (a plain-text label).
        listing = await says(tg, chat, cls.creator, "/quiz")
        shown(listing, TITLE)
        picks = await says(tg, chat, cls.creator, "/quiz nosuchquiz")
        shown(picks, TITLE)
        assert picks.buttons[0][0][0].endswith('<b>title</b> & "co" \u202eevil\u2069')  # isolated

        # Announcement, question, alerts (plain text), reveal with note, results.
        tg.user_says(chat, cls.creator, "/quiz hostile")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        shown(tg.find_message(chat, "questions ·") or q1, TITLE)
        shown(q1, f"{QUESTION} #1", f"A) {RIGHT}", f"B) {WRONG}", f"C) {OTHER}")
        for i, player in enumerate(players):
            alert = await tg.wait_answered(
                tg.tap(chat, player, q1.message_id, button_data(q1, "AB"[i % 2]))
            )
            assert alert.text is not None and EXPLAIN in alert.text, alert.text
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        reveal = tg.stored_message(chat, q1.message_id)
        assert reveal is not None
        shown(reveal, f"{QUESTION} #1", RIGHT, WRONG, OTHER, f"💡 {EXPLAIN}", NOTE.strip())
        tg.user_says(chat, cls.creator, "/stop")
        results = await tg.wait_for_message(chat, "results")
        shown(results, TITLE, *NAMES[:2], "RTL")

        # Rankings and stats in the group.
        shown(await says(tg, chat, boss, "/leaderboard"), NAMES[0])
        shown(await says(tg, chat, players[1], "/me"), NAMES[1])  # (one reply per 20 s each)

        # The private recap (sent directly), /leaderboard and /me in private.
        recap = await tg.wait_for_message(boss.id, "your recap")
        shown(recap, TITLE, f"{QUESTION} #2", RIGHT, EXPLAIN)
        shown(await says(tg, boss.id, boss, "/leaderboard"), GROUP_TITLE)

        # Private practice: question, answered, score.
        question = await says(tg, boss.id, boss, "/quiz hostile")
        shown(question, f"{QUESTION} #1", WRONG)
        for _ in range(2):
            current = tg.messages(boss.id)[-1]
            before = len(tg.messages(boss.id))
            await tg.wait_answered(
                tg.tap(boss.id, boss, current.message_id, button_data(current, "B"))
            )
            await tg.wait_for(lambda b=before: len(tg.messages(boss.id)) > b)  # type: ignore[misc]
            answered = tg.stored_message(boss.id, current.message_id)
            assert answered is not None
            shown(answered, RIGHT, WRONG, EXPLAIN, NOTE.strip())
        shown(await tg.wait_for_message(boss.id, "Practice finished"), "/quiz hostile")
        shown(await says(tg, boss.id, boss, "/me"), GROUP_TITLE, f"{QUESTION} #")

        # Spaced review a day later: the question, then its answer.
        clock.offset += DAY + 60
        review = await says(tg, boss.id, boss, "/review")
        shown(review, TITLE, QUESTION, RIGHT, WRONG)
        await tg.wait_answered(tg.tap(boss.id, boss, review.message_id, button_data(review, "A")))
        await tg.wait_for(
            lambda: "💡" in (tg.stored_message(boss.id, review.message_id) or review).text
        )
        answered = tg.stored_message(boss.id, review.message_id)
        assert answered is not None
        shown(answered, TITLE, QUESTION, RIGHT, WRONG, EXPLAIN)
    assert_quiet(caplog)


def test_t_escapes_values_unless_safe_and_catches_double_escaping() -> None:
    assert t("en", "results_head", title="<b>&") == "🏁 <b>&lt;b&gt;&amp;</b> — results"
    assert t("en", "results_head", title=Safe("<i>x</i>")) == "🏁 <b><i>x</i></b> — results"
    assert markup.looks_escaped("Tom &amp; Jerry")
    assert not markup.looks_escaped("AT&T &amp; co")  # a raw & too: not escaped text
    assert not markup.looks_escaped("<b>&amp;</b>")
    assert markup.STRICT  # tests run strict (conftest)
    with pytest.raises(DoubleEscape, match="looks HTML-escaped already"):
        t("en", "results_head", title="Tom &amp; Jerry")  # what html.escape() would hand in


_ALLOWED = ("bot/i18n/markup.py", "bot/i18n/__init__.py", "bot/render/", "bot/features/*/*views.py")


def test_only_the_rendering_layer_escapes_or_marks_text_safe() -> None:
    """Handlers pass raw text: no ``html.escape`` and no ``Safe(...)`` outside the rendering
    layer, so there is one path for user text and nothing is escaped twice."""
    offenders = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if any(fnmatch(name, a + ("*" if a.endswith("/") else "")) for a in _ALLOWED):
            continue
        source = path.read_text(encoding="utf-8")
        if re.search(r"\bhtml\.escape\(|(?<!re\.)\bescape\(|\bSafe\(|import html\b", source):
            offenders.append(name)
    assert offenders == []
