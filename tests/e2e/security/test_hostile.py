"""Hostile and malformed input: forged buttons, junk commands, nasty names, spam.

Every forged or malformed input gets an alert (buttons) or at most one reply (commands), stores
nothing, spends none of the group's message budget, and logs nothing above WARNING.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from fakebot import BOT_USERNAME, FakeTelegram, User
from harness import BotHarness
from hypothesis import given, settings
from hypothesis import strategies as st
from quizkit import (
    ZERO,
    assert_quiet,
    button_data,
    correct_label,
    open_question,
    populate,
    question_messages,
    run_of,
    start_quiz,
)
from telegram import Update

from bot.banks.authored import AUTHORED_ID
from bot.banks.resolver import Choice, Found
from bot.core.bank import MAX_SECONDS, MIN_SECONDS, QUIZ_ID
from bot.features.authoring import buttons as authoring_buttons
from bot.features.quiz.routes import _seconds, parse_quiz_args
from bot.features.review import buttons as review_buttons
from bot.features.review.buttons import TimezoneData
from bot.features.stats.buttons import ResetData
from bot.render import NAME_LIMIT, callbacks

OTHER_GROUP = -1009876543210
INVALID = "This button is no longer valid."
OVER = "This quiz is over."
CLOSED = "⌛ This question is closed."


# --- property tests over the parsers ------------------------------------------------------


def check_parsed(raw: str) -> None:
    data = callbacks.parse(raw)
    if data is None:
        return
    assert len(raw.encode()) <= callbacks.MAX_BYTES
    if isinstance(data, callbacks.AnswerData):
        assert 1 <= data.run_id < 2**53
        assert 0 <= data.q_index <= 999
        assert 0 <= data.shown <= 9
    elif isinstance(data, callbacks.StartData):
        assert QUIZ_ID.fullmatch(data.quiz_id) or AUTHORED_ID.fullmatch(data.quiz_id)
    elif isinstance(data, authoring_buttons.UndoData):
        assert 1 <= data.number <= 999 and 0 <= data.stamp < 10**10
    elif isinstance(data, authoring_buttons.DeleteData):
        assert 1 <= data.quiz_no < 2**53
    elif isinstance(data, review_buttons.ReviewData):
        assert 1 <= data.card_id < 2**53
        assert sorted(data.order) == list(range(len(data.order)))
        assert 2 <= len(data.order) <= 10
        assert 0 <= data.shown < len(data.order) or data.shown == callbacks.SUBMIT
        assert 0 <= data.right <= data.step <= 99
        assert data.step >= 1
    elif isinstance(data, TimezoneData):
        assert -720 <= data.minutes <= 840
    else:
        assert isinstance(data, ResetData)
        assert 1 <= data.season < 1_000_000
        assert isinstance(data.confirm, bool)
    assert callbacks.encode(data) == raw  # exactly one spelling of each meaning


near_valid = st.one_of(
    st.text(max_size=120),
    st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
    st.from_regex(r"(a|s|r|v|tz|nu|dq):[\-0-9a-z:.]{0,70}", fullmatch=True),
    st.from_regex(
        r"v:-?[0-9]{1,17}:[0-9]{1,11}:(-?[0-9]{1,2}|s):[0-9]{1,3}:[0-9]{1,3}", fullmatch=True
    ),
    st.from_regex(r"tz:-?[0-9]{1,5}", fullmatch=True),
    st.from_regex(r"a:-?[0-9]{1,22}:-?[0-9]{1,5}:-?[0-9]{1,3}\n?", fullmatch=True),
    st.builds(
        lambda p, s: p + s,
        st.sampled_from(["a:1:0:", "s:", "r:1:", "a:"]),
        st.text(string.printable + "০১২৩৪৫৬৭৮৯٣", max_size=70),
    ),
)


@settings(max_examples=800, deadline=None)
@given(near_valid)
def test_callback_parse_never_raises_and_stays_in_bounds(raw: str) -> None:
    check_parsed(raw)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.builds(
            callbacks.AnswerData, st.integers(1, 2**53 - 1), st.integers(0, 999), st.integers(0, 9)
        ),
        st.builds(callbacks.StartData, st.from_regex(r"[a-z0-9][a-z0-9_-]{0,31}", fullmatch=True)),
        st.builds(ResetData, st.integers(1, 999_999), st.booleans()),
        st.integers(2, 10).flatmap(
            lambda n: st.builds(
                lambda card, order, shown, step, right: review_buttons.ReviewData(
                    card, tuple(order), shown, step, min(right, step)
                ),
                st.integers(1, 2**53 - 1),
                st.permutations(range(n)),
                st.one_of(st.integers(0, n - 1), st.just(callbacks.SUBMIT)),
                st.integers(1, 99),
                st.integers(0, 99),
            )
        ),
        st.builds(TimezoneData, st.integers(-720, 840)),
        st.builds(callbacks.StartData, st.integers(1, 2**53 - 1).map(lambda n: f"u.{n}")),
        st.builds(authoring_buttons.UndoData, st.integers(1, 999), st.integers(0, 2**32 - 1)),
        st.builds(authoring_buttons.DeleteData, st.integers(1, 2**53 - 1), st.booleans()),
    )
)
def test_callback_encode_parse_round_trip(data: callbacks.CallbackData) -> None:
    raw = callbacks.encode(data)
    assert len(raw.encode()) <= callbacks.MAX_BYTES
    assert callbacks.parse(raw) == data


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.builds(
            callbacks.AnswerData,
            st.integers(max_value=0) | st.integers(min_value=2**53),
            st.integers(0, 999),
            st.integers(0, 9),
        ),
        st.builds(
            callbacks.AnswerData,
            st.integers(1, 100),
            st.integers(min_value=1000),
            st.integers(0, 9),
        ),
        st.builds(
            callbacks.AnswerData,
            st.integers(1, 100),
            st.integers(0, 9),
            st.integers(max_value=-2) | st.integers(min_value=10),  # -1: Submit
        ),
        st.builds(
            callbacks.StartData,
            st.text(max_size=40).filter(
                lambda s: not (QUIZ_ID.fullmatch(s) or AUTHORED_ID.fullmatch(s)) or len(s) > 32
            ),
        ),
    )
)
def test_out_of_range_data_cannot_be_encoded(data: callbacks.CallbackData) -> None:
    with pytest.raises(ValueError, match="cannot encode"):
        callbacks.encode(data)


QUIZ_IDS = frozenset({"zero", "a", "net-101", "x_y"})
args_strategy = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(sorted(QUIZ_IDS | {"ZERO", "../../etc"})),
        st.integers(-(10**12), 10**12).map(str),
        st.integers(0, 9999).map(
            lambda n: str(n).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))
        ),
    ),
    min_size=1,
    max_size=4,
)


def _find_quiz(text: str) -> Found:
    """A stand-in for the resolver: a quiz by its exact name, any case and surrounding space."""
    name = text.strip().casefold()
    return Found(Choice(name, name, ZERO.title, ZERO)) if name in QUIZ_IDS else Found(None)


@settings(max_examples=800, deadline=None)
@given(args_strategy)
def test_quiz_args_never_raise_and_only_name_served_quizzes(args: list[str]) -> None:
    result = parse_quiz_args(args, _find_quiz)
    # the quiz is the longest run of leading words that names one; the rest is SECONDS at most
    named = [n for n in range(len(args), 0, -1) if _find_quiz(" ".join(args[:n])).choice]
    if result.choice is None:
        assert not named
        return
    assert named
    assert result.choice.name in QUIZ_IDS
    assert QUIZ_ID.fullmatch(result.choice.name)
    assert result.choice == _find_quiz(" ".join(args[: named[0]])).choice
    rest = args[named[0] :]
    if len(rest) > 1:
        assert result.usage
    elif result.usage:
        assert len(rest) == 1
        assert result.seconds is None
    else:
        assert result.seconds is None or MIN_SECONDS <= result.seconds <= MAX_SECONDS
        assert (result.seconds is None) == (not rest)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=30))
def test_seconds_is_zero_or_in_range(raw: str) -> None:
    value = _seconds(raw)
    assert value == 0 or MIN_SECONDS <= value <= MAX_SECONDS
    if value:
        assert raw.translate(str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")).isascii()


@given(st.integers(MIN_SECONDS, MAX_SECONDS))
def test_seconds_in_range_are_taken_in_both_digit_sets(n: int) -> None:
    assert _seconds(str(n)) == n
    assert _seconds(str(n).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))) == n


@pytest.mark.parametrize(
    "args",
    [
        ["../../etc/passwd"],
        ["zero", "-5"],
        ["zero", "99999999999"],
        ["zero", "4"],
        ["zero", "601"],
        ["zero", "30", "x"],
        ["zero", "３０"],
        ["zero", "1e3"],
        ["zero", " 30"],
        ["zero\n"],
        ["ZERO", "30"],
        ["zero", "৩০"],
        ["ড" * 5000],
    ],
)
def test_junk_quiz_arguments(args: list[str]) -> None:
    result = parse_quiz_args(args, _find_quiz)
    name = result.choice.name if result.choice is not None else None
    expected: dict[tuple[str, ...], tuple[str, int, bool]] = {
        ("ZERO", "30"): ("zero", 30, False),
        ("zero", "৩০"): ("zero", 30, False),
    }
    if tuple(args) in expected:
        assert (name, result.seconds, result.usage) == expected[tuple(args)]
    elif args[0].strip() == "zero" and len(args) > 1:
        assert name == "zero"
        assert result.usage
    else:
        assert name in (None, "zero")


# --- forged and malformed buttons, end to end -------------------------------------------


async def test_forged_buttons_get_an_alert_and_store_nothing(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=6)
    other = populate(tg, students=2, chat_id=OTHER_GROUP, base=5000)
    chat = cls.chat_id
    student = cls.students[0]
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        # An old quiz in this group, then the current one; and a quiz in another group.
        old_q1 = await start_quiz(tg, cls)
        old_run = run_of(old_q1)
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: bot.services.groups.running(chat, 0) is None)
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)
        q1_a = button_data(q1, "A")  # the reveal will take the buttons away
        other_q1 = await start_quiz(tg, other)
        other_run = run_of(other_q1)
        assert len({old_run, run, other_run}) == 3
        await tg.wait_for(lambda: not tg.faults and tg.all_updates_consumed())
        traffic = len(tg.group_traffic(chat))

        forged: list[tuple[str | None, str]] = [
            (None, INVALID),  # no data at all
            ("\x00\x01\x7f\u202e\ufffd" + "ÿ" * 20, INVALID),  # random bytes
            ("é" * 32, INVALID),  # 64 bytes of garbage
            ("Z" * 64, INVALID),
            ("a:" + "9" * 62, INVALID),  # longer than a button may carry
            ("", INVALID),
            (f"a:{run}:0", INVALID),
            (f"a:{run}:0:0:0", INVALID),
            (f"a:{run}:0:-1", INVALID),
            (f"a:{run}:0:A", INVALID),
            (f"a:0{run}:0:0", INVALID),
            (f"a:{run}:0:4", INVALID),  # option out of range (4 options: 0-3)
            (f"a:{run}:0:9", INVALID),
            (f"a:{run}:999:0", INVALID),  # question out of range
            (f"a:{run}:5:0", CLOSED),  # a question not asked yet
            (f"a:{other_run}:0:0", INVALID),  # another chat's run
            (f"a:{old_run}:0:0", OVER),  # an old quiz
            (f"a:{2**53 + 1}:0:0", INVALID),
            (f"a:{run + 1000}:0:0", OVER),  # a run that never existed
            ("s:../../etc/passwd", INVALID),
            ("s:nonexistent", "Only the group's moderators start quizzes here."),  # who, first
            ("s:zero", "Only the group's moderators start quizzes here."),  # not a moderator
            ("r:1:y", "Only the group's moderators can do that."),  # reset, not a moderator
            ("r:0:y", INVALID),
            ("v:1:3021:0:1:0", INVALID),  # a review button, but in a group
            ("v:1:3321:0:1:0", INVALID),  # and malformed
            ("tz:360", INVALID),  # a time zone button, in a group
            ("tz:9999", INVALID),
        ]
        for data, expected in forged:
            answer = await tg.wait_answered(tg.tap(chat, student, q1.message_id, data))
            assert answer.show_alert, data
            assert answer.text == expected, (data, answer.text)
        # A forged tap on a message that no longer exists (or never did).
        answer = await tg.wait_answered(tg.tap(chat, student, 987654, "x" * 10))
        assert (answer.text, answer.show_alert) == (INVALID, True)

        assert await store.answers(run) == []
        assert await store.answers(other_run) == []
        assert len(tg.group_traffic(chat)) == traffic, "forged taps spent the group's budget"

        # A closed question: after /next, question 1's buttons are stale.
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2))
        late = tg.tap(chat, student, q1.message_id, q1_a)
        assert (await tg.wait_answered(late)).text == CLOSED
        assert await store.answers(run) == []

        # The real buttons still work for everyone.
        q2 = open_question(tg, chat, 2)
        assert q2 is not None
        ok = await tg.wait_answered(
            tg.tap(chat, student, q2.message_id, button_data(q2, correct_label(q2)))
        )
        assert ok.text is not None
        assert ok.text.startswith("✅")
        assert [(a.user_id, a.q_index) for a in await store.answers(run)] == [(student.id, 1)]
    assert_quiet(caplog)


# --- junk commands ----------------------------------------------------------------------


async def test_junk_commands_are_refused_or_ignored(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=2)
    chat = cls.chat_id
    async with BotHarness(tg, db_path) as bot:
        groups = bot.services.groups
        replies = [
            ("/quiz ../../etc/passwd", "There is no quiz by that name"),
            ("/quiz zero -5", "Usage:"),
            ("/quiz zero 99999999999", "Usage:"),
            ("/quiz zero 30 extra", "Usage:"),
            ("/quiz জিরো ৩০", "There is no quiz by that name"),
            ("/quiz " + "ড" * 3000, "There is no quiz by that name"),
            ("/quiz " + "x" * 4000 + " 30", "There is no quiz by that name"),
        ]
        for text, expected in replies:
            before = len(tg.messages(chat))
            tg.user_says(chat, cls.creator, text)
            await tg.wait_for(lambda b=before: len(tg.messages(chat)) > b)  # type: ignore[misc]
            last = tg.messages(chat)[-1]
            assert expected in last.text, (text[:40], last.text)
            assert len(last.text) < 400  # the junk is never echoed back
            assert groups.running(chat, 0) is None

        # Ignored without a word: another bot's command, a message without a sender.
        before = len(tg.messages(chat))
        tg.user_says(chat, cls.creator, "/quiz@otherbot zero")
        for command in (
            "/quiz zero",
            "/next",
            "/stop",
            "/leaderboard",
            "/me",
            "/lang en",
            "/resetleaderboard",
            "/export",
            "/start",
            "/help",
            "/quiz",
        ):
            tg.message_without_sender(chat, command)
        # An edited message and a channel post: Telegram is not even asked for them ...
        said = tg.user_says(chat, cls.creator, "hello")
        tg.edit_user_message(chat, said, "/quiz zero", user=cls.creator)
        tg.channel_post(-1005555, "/quiz zero")
        await tg.wait_consumed()
        # ... and if one arrives anyway, no handler takes it.
        edited = dict(
            said,
            text="/quiz zero",
            edit_date=said["date"] + 1,
            entities=[{"type": "bot_command", "offset": 0, "length": 5}],
        )
        post = {
            "message_id": 7,
            "date": said["date"],
            "text": "/quiz zero",
            "chat": {"id": -1005555, "type": "channel", "title": "C"},
            "sender_chat": {"id": -1005555, "type": "channel", "title": "C"},
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        }
        for raw in (
            {"update_id": 900001, "edited_message": edited},
            {"update_id": 900002, "channel_post": post},
            {"update_id": 900003, "edited_channel_post": post},
        ):
            await bot.app.process_update(Update.de_json(raw, bot.app.bot))
        assert groups.running(chat, 0) is None
        assert groups.active() == []
        # Only the "admins only" refusal of /next, /stop ... without a sender may be answered.
        extra = tg.messages(chat)[before:]
        assert all("Only the group's moderators" in m.text for m in extra), [m.text for m in extra]
        assert len(extra) <= 1

        # The bot's own name works.
        tg.user_says(chat, cls.creator, f"/quiz@{BOT_USERNAME} zero 30")
        await tg.wait_for(lambda: open_question(tg, chat, 1))
    assert_quiet(caplog)


# --- names full of HTML, RTL marks, emoji, and very long --------------------------------


HOSTILE_NAMES: list[tuple[str, str | None, str | None]] = [
    ("<b>Boss</b> & <i>co", None, None),
    ("\u202eevil\u202c", "\u200fمرحبا\u200e", None),
    ("🦄" * 40, None, None),
    ("A" * 70, "B" * 10, None),
    ("</code><a href='tg://x'>", "&amp;", "attacker"),
    ("\u200b\u2066", None, "only_marks"),
]


def visible_names(text: str) -> list[str]:
    """The names on a results or leaderboard message, isolates removed."""
    found = re.findall("\u2068(.*?)\u2069", text)
    return found


async def test_hostile_names_are_escaped_and_shortened(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=0)
    chat = cls.chat_id
    users = [
        tg.add_user(7000 + i, first, last, username=username)
        for i, (first, last, username) in enumerate(HOSTILE_NAMES)
    ]
    for user in users:
        tg.set_member(chat, user, "member")
    async with BotHarness(tg, db_path):
        q1 = await start_quiz(tg, cls)
        right = button_data(q1, correct_label(q1))
        for user in users:
            answer = await tg.wait_answered(tg.tap(chat, user, q1.message_id, right))
            assert answer.text is not None
            assert answer.text.startswith("✅")
        tg.user_says(chat, cls.creator, "/stop")
        results = await tg.wait_for_message(chat, "results")
        names = visible_names(results.text)
        assert len(names) == len(users), results.text
        assert "<b>Boss</b> & <i>co" in names
        assert "</code><a href='tg://x'> &amp;" in names
        assert "?" in names  # a name made only of invisible marks
        assert "evil مرحبا" in names  # direction overrides and marks removed
        for name in names:
            assert len(name) <= NAME_LIMIT
            assert not any(ch in name for ch in "\u202e\u202c\u200f\u200e\u200b\u2066")
        long_ones = [n for n in names if n.startswith(("🦄", "AAAA"))]
        assert len(long_ones) == 2
        assert all(n.endswith("…") and len(n) == NAME_LIMIT for n in long_ones), long_ones
        assert results.html is not None
        assert "&lt;b&gt;Boss&lt;/b&gt; &amp; &lt;i&gt;co" in results.html

        # The leaderboard and /me show the same names, escaped.
        tg.user_says(chat, cls.creator, "/leaderboard", ephemeral=False)
        board = await tg.wait_for_message(chat, "Leaderboard")
        assert "<b>Boss</b> & <i>co" in board.text
        assert "</code><a href='tg://x'> &amp;" in board.text
        tg.user_says(chat, users[0], "/me", ephemeral=False)
        me = await tg.wait_for_message(chat, "Rank:")
        assert "<b>Boss</b> & <i>co" in me.text
    assert_quiet(caplog)


# --- spam -------------------------------------------------------------------------------


async def test_spamming_taps_and_commands_costs_the_spammer_not_the_group(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    spammer: User = cls.students[0]
    async with BotHarness(tg, db_path) as bot:
        q1 = await start_quiz(tg, cls)
        run = run_of(q1)
        await tg.wait_consumed()
        messages = len(tg.messages(chat))
        traffic = len(tg.group_traffic(chat))
        lookups = tg.admin_lookups(chat)

        # Fifty taps on every button: one answer counts, each tap gets its alert.
        queries = [
            tg.tap(chat, spammer, q1.message_id, button_data(q1, "ABCD"[i % 4])) for i in range(50)
        ]
        answers = [await tg.wait_answered(q) for q in queries]
        assert all(a.show_alert and a.text for a in answers)
        first = answers[0].text
        assert first is not None
        assert first.startswith(("✅", "❌"))
        assert all(
            a.text == "You already chose A; only your first tap counts." for a in answers[1:]
        )
        stored = await bot.services.store.answers(run)
        assert [(a.user_id, a.q_index) for a in stored] == [(spammer.id, 0)]

        # Ten rounds of every command a student may send.
        for _ in range(10):
            for command in (
                "/quiz",
                "/quiz zero",
                "/help",
                "/start",
                "/leaderboard",
                "/me",
                "/next",
                "/stop",
                "/lang xx",
                "/resetleaderboard",
                "/export",
            ):
                tg.user_says(chat, spammer, command)
        await tg.wait_consumed()
        await tg.wait_for(
            lambda: "1 answered" in (tg.stored_message(chat, q1.message_id) or q1).text
        )
        # Nobody waits on the spammer: the moderator's /next goes through at once.
        tg.user_says(chat, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=5)

        new = tg.messages(chat)[messages:]
        to_spammer = [
            m
            for m in new
            if not question_messages(tg, chat) or m not in question_messages(tg, chat)
        ]
        assert len(to_spammer) <= 1, [m.text for m in to_spammer]
        # Spent on the group: at most that one reply, the "1 answered" refresh, the reveal and
        # question 2 (the spam itself spent nothing).
        assert len(tg.group_traffic(chat)) - traffic <= 4
        assert tg.admin_lookups(chat) - lookups <= 1
        assert tg.max_in_window(chat) <= 20
    assert_quiet(caplog)
