"""Tests of the fake Telegram server, driven by the real python-telegram-bot client."""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from fakebot import ANONYMOUS_ADMIN_ID, FakeTelegram, parse_html
from fakebot.fixtures import fake_tg
from fakebot.html_check import EntityParseError
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)
from telegram.request import HTTPXRequest

__all__ = ["fake_tg"]

TOKEN = "123456:TEST-token"


@pytest.fixture(autouse=True)
def _ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    """PTB 22.x warns (PTBDeprecationWarning -> error here) when a RetryAfter is built unless
    PTB_TIMEDELTA is set; opt in to the future behaviour (retry_after is a timedelta)."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def bot(fake_tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=fake_tg.base_url) as b:
        yield b


def _keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d)] for t, d in pairs])


# ---------------------------------------------------------------- basics / protocol
async def test_get_me_and_token_recorded(fake_tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == fake_tg.bot.id
    assert me.username == fake_tg.bot.username
    assert TOKEN in fake_tg.tokens_seen
    assert fake_tg.calls[-1].method == "getMe"
    assert fake_tg.calls[-1].status == 200


async def test_required_token() -> None:
    async with FakeTelegram(token="1:right") as server:
        async with Bot("1:right", base_url=server.base_url) as ok:
            assert (await ok.get_me()).is_bot
        wrong = Bot("2:wrong", base_url=server.base_url)
        with pytest.raises(InvalidToken):
            await wrong.initialize()
        await wrong.shutdown()


async def test_json_form_and_unknown_method(fake_tg: FakeTelegram) -> None:
    alice = fake_tg.add_user(101, "Alice")
    fake_tg.start_bot(alice)
    url = f"{fake_tg.base_url}{TOKEN}"
    async with httpx.AsyncClient() as client:
        resp = await client.post(f"{url}/sendMessage", json={"chat_id": 101, "text": "json"})
        assert resp.status_code == 200
        assert resp.json()["result"]["text"] == "json"
        resp = await client.post(
            f"{url}/sendMessage",
            data={"chat_id": "101", "text": "123", "reply_markup": '{"inline_keyboard": []}'},
        )
        assert resp.json()["result"]["text"] == "123"  # a numeric text stays a string
        resp = await client.post(f"{url}/noSuchMethod", json={})
        assert resp.status_code == 404
        assert resp.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        resp = await client.post(f"{url}/sendMessage", json={"chat_id": 999, "text": "x"})
        assert resp.status_code == 400
        assert resp.json()["description"] == "Bad Request: chat not found"
    assert [m.text for m in fake_tg.messages(101)] == ["json", "123"]


# ---------------------------------------------------------------- long polling
async def test_long_polling_offsets(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study", creator=alice)
    first = fake_tg.user_says(grp, alice, "/quiz zero")
    fake_tg.user_says(grp, alice, "hello")
    assert first["entities"] == [{"type": "bot_command", "offset": 0, "length": 5}]

    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates if u.message] == ["/quiz zero", "hello"]
    assert fake_tg.updates_pending() == 2  # delivered but not confirmed yet
    again = await bot.get_updates(offset=updates[0].update_id + 1, timeout=0)
    assert [u.update_id for u in again] == [updates[1].update_id]
    assert await bot.get_updates(offset=updates[1].update_id + 1, timeout=0) == ()
    assert fake_tg.all_updates_consumed()

    # limit
    for n in range(3):
        fake_tg.user_says(grp, alice, f"m{n}")
    limited = await bot.get_updates(limit=2, timeout=0)
    assert len(limited) == 2

    # a held long poll returns as soon as an update is queued
    rest = await bot.get_updates(offset=limited[-1].update_id + 1, timeout=0)
    assert [u.message.text for u in rest if u.message] == ["m2"]
    start_offset = rest[-1].update_id + 1
    poll = asyncio.create_task(bot.get_updates(offset=start_offset, timeout=20))
    await fake_tg.wait_for(lambda: fake_tg.pollers_waiting == 1)
    fake_tg.user_says(grp, alice, "wake up")
    got = await asyncio.wait_for(poll, 10)
    assert [u.message.text for u in got if u.message] == ["wake up"]


async def test_long_poll_times_out_empty(fake_tg: FakeTelegram, bot: Bot) -> None:
    started = time.monotonic()
    assert await bot.get_updates(timeout=1) == ()
    assert time.monotonic() - started >= 0.9


async def test_allowed_updates_filter(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study", members=[alice])
    fake_tg.user_says(grp, alice, "text")
    msg = await _bot_message(fake_tg, bot, grp.id, "quiz", _keyboard(("A", "a")))
    fake_tg.tap(grp, alice, msg.message_id, "a")
    updates = await bot.get_updates(timeout=0, allowed_updates=["callback_query"])
    assert [u.callback_query.data for u in updates if u.callback_query] == ["a"]
    assert len(updates) == 1


# ---------------------------------------------------------------- error mapping
async def _bot_message(
    server: FakeTelegram,
    bot: Bot,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
) -> Message:
    sent = await bot.send_message(chat_id, text, reply_markup=markup)
    stored = server.last_message(chat_id)
    assert stored is not None
    assert stored.message_id == sent.message_id
    return sent


async def test_send_errors_map_to_ptb(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    bob = fake_tg.add_user(102, "Bob")
    grp = fake_tg.add_group(-1001, "Study", creator=alice)
    old = fake_tg.add_group(-55, "Old group", creator=alice)

    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-424242, "x")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(bob.id, "hi")
    fake_tg.start_bot(bob)
    assert (await bot.send_message(bob.id, "hi")).chat.type == "private"
    fake_tg.block_bot(bob)
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(bob.id, "hi")

    fake_tg.kick_bot(grp)
    with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the supergroup chat"):
        await bot.send_message(grp.id, "x")
    fake_tg.kick_bot(old)
    with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the group chat"):
        await bot.send_message(old.id, "x")
    fake_tg.add_bot(old)

    new = fake_tg.migrate_group(old, -1009)
    with pytest.raises(ChatMigrated) as info:
        await bot.send_message(old.id, "x")
    assert info.value.new_chat_id == new.id == -1009
    updates = await bot.get_updates(timeout=0)
    kinds = [
        (u.effective_chat.id, u.message.migrate_to_chat_id, u.message.migrate_from_chat_id)
        for u in updates
        if u.message and u.effective_chat
    ]
    assert kinds == [(-55, -1009, None), (-1009, None, -55)]
    assert (await bot.send_message(new.id, "moved")).chat.id == -1009


async def test_topics(fake_tg: FakeTelegram, bot: Bot) -> None:
    mod = fake_tg.add_user(1, "Mod")
    forum = fake_tg.add_group(-1002, "Forum", creator=mod, forum=True)
    fake_tg.add_topic(forum, 10, "Quiz")
    sent = await bot.send_message(forum.id, "in topic", message_thread_id=10)
    assert sent.message_thread_id == 10
    assert sent.is_topic_message
    assert [m.text for m in fake_tg.messages(forum.id, thread_id=10)] == ["in topic"]
    assert fake_tg.messages(forum.id, thread_id=None) == []
    said = fake_tg.user_says(forum, mod, "/quiz", thread_id=10)
    assert said["reply_to_message"]["forum_topic_created"]["name"] == "Quiz"
    fake_tg.close_topic(forum, 10)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_CLOSED"):
        await bot.send_message(forum.id, "x", message_thread_id=10)
    fake_tg.delete_topic(forum, 10)
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=10)


async def test_enforced_group_limit_gives_retry_after() -> None:
    async with FakeTelegram(window=60.0, group_limit=3, enforce_limit=True) as server:
        grp = server.add_group(-1001, "Study")
        async with Bot(TOKEN, base_url=server.base_url) as bot:
            for n in range(3):
                await bot.send_message(grp.id, f"m{n}")
            with pytest.raises(RetryAfter) as info:
                await bot.send_message(grp.id, "one too many")
            assert info.value.retry_after == dt.timedelta(seconds=60)
            assert server.calls[-1].status == 429
            assert server.max_in_window(grp.id) == 3


async def test_injected_faults(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    fake_tg.fail("sendMessage", retry_after=7)
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(grp.id, "x")
    assert info.value.retry_after == dt.timedelta(seconds=7)
    fake_tg.fail(
        "sendMessage",
        error_code=400,
        description="Bad Request: custom",
        match=lambda p: p.get("text") == "target",
    )
    await bot.send_message(grp.id, "other")
    with pytest.raises(BadRequest, match=r"(?i)custom"):
        await bot.send_message(grp.id, "target")
    fake_tg.fail("sendMessage", migrate_to_chat_id=-100777)
    with pytest.raises(ChatMigrated):
        await bot.send_message(grp.id, "x")
    fake_tg.fail("sendMessage", error_code=502, description="Bad Gateway")
    with pytest.raises(NetworkError):
        await bot.send_message(grp.id, "x")
    assert [c.fault for c in fake_tg.calls_to("sendMessage")] == [
        "error",
        None,
        "error",
        "error",
        "error",
    ]
    assert [m.text for m in fake_tg.messages(grp.id)] == ["other"]


async def test_dropped_connection_is_network_error(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    fake_tg.fail("sendMessage", drop_connection=True)
    with pytest.raises(NetworkError):
        await bot.send_message(grp.id, "lost")
    assert fake_tg.messages(grp.id) == []
    fake_tg.fail("sendMessage", drop_connection=True, perform=True)
    with pytest.raises(NetworkError):
        await bot.send_message(grp.id, "performed")
    assert [m.text for m in fake_tg.messages(grp.id)] == ["performed"]
    assert (await bot.send_message(grp.id, "after")).text == "after"
    assert [c.status for c in fake_tg.calls_to("sendMessage")] == [0, 0, 200]


async def test_delay_with_client_timeout_is_ambiguous(fake_tg: FakeTelegram) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    request = HTTPXRequest(read_timeout=0.2)
    async with Bot(TOKEN, base_url=fake_tg.base_url, request=request) as bot:
        fake_tg.fail("sendMessage", delay=0.6)
        with pytest.raises(TimedOut):
            await bot.send_message(grp.id, "slow")
        # the server still performs the call after the delay
        await fake_tg.wait_for(lambda: fake_tg.find_message(grp.id, "slow"))
        fake_tg.fail("sendMessage", delay=0.05)
        assert (await bot.send_message(grp.id, "slow but fine")).text == "slow but fine"


# ---------------------------------------------------------------- edits / callbacks
async def test_edit_semantics(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    kb = _keyboard(("A", "q1:a"), ("B", "q1:b"))
    sent = await bot.send_message(grp.id, "Question 1", reply_markup=kb)
    with pytest.raises(BadRequest, match=r"(?i)message is not modified: specified new message"):
        await bot.edit_message_text("Question 1", grp.id, sent.message_id, reply_markup=kb)
    await bot.edit_message_text("Question 1 (closed)", grp.id, sent.message_id)
    stored = fake_tg.last_message(grp.id)
    assert stored is not None
    assert stored.reply_markup is None  # no reply_markup in the edit removes the keyboard
    assert [v.text for v in stored.edits] == ["Question 1"]
    assert fake_tg.buttons(stored) == []
    assert stored.edits[0].reply_markup == kb.to_dict()
    await bot.edit_message_reply_markup(grp.id, sent.message_id, reply_markup=kb)
    assert fake_tg.buttons(fake_tg.last_message(grp.id)) == [[("A", "q1:a")], [("B", "q1:b")]]
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(grp.id, sent.message_id, reply_markup=kb)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", grp.id, 9999)
    assert await bot.delete_message(grp.id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", grp.id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(grp.id, sent.message_id)
    assert fake_tg.messages(grp.id)[0].deleted
    assert fake_tg.last_message(grp.id) is None
    assert fake_tg.max_in_window(grp.id) == 3  # send + 2 successful edits


async def test_callback_answers(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study", members=[alice])
    sent = await bot.send_message(grp.id, "Q", reply_markup=_keyboard(("A", "a")))
    qid = fake_tg.tap(grp, alice, sent.message_id, "forged:" + "x" * 80)
    (update,) = await bot.get_updates(timeout=0)
    assert update.callback_query is not None
    assert update.callback_query.id == qid
    assert update.callback_query.message is not None
    assert update.callback_query.message.message_id == sent.message_id
    with pytest.raises(BadRequest, match=r"(?i)MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(qid, text="x" * 201)
    assert await bot.answer_callback_query(qid, text="Wrong!", show_alert=True)
    answer = await fake_tg.wait_answered(qid)
    assert (answer.text, answer.show_alert, answer.user_id) == ("Wrong!", True, alice.id)
    assert fake_tg.alerts_for(alice) == [answer]
    with pytest.raises(BadRequest, match=r"(?i)query is too old and response timeout expired"):
        await bot.answer_callback_query(qid)
    with pytest.raises(BadRequest, match=r"(?i)query ID is invalid"):
        await bot.answer_callback_query("123")


async def test_button_data_limit(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    await bot.send_message(grp.id, "ok", reply_markup=_keyboard(("A", "ক" * 21)))  # 63 bytes
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(grp.id, "no", reply_markup=_keyboard(("A", "ক" * 22)))


# ---------------------------------------------------------------- HTML
async def test_html_validation(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    html = '<b>Q1</b> &lt;x&gt; &amp; <a href="https://e.x/?a=1&amp;b=2">link</a> <i>সময়</i>'
    await bot.send_message(grp.id, html, parse_mode=ParseMode.HTML)
    stored = fake_tg.last_message(grp.id)
    assert stored is not None
    assert stored.html == html
    assert stored.text == "Q1 <x> & link সময়"
    for bad, reason in [
        ("a < b", "Unsupported start tag"),
        ("AT&T", "unescaped"),
        ("<b>open", "Can't find end tag"),
        ("<b><i>x</b></i>", "Unmatched end tag"),
        ("<div>x</div>", 'Unsupported start tag "div"'),
        ("</b>", "Unexpected end tag"),
        ('<span class="x">s</span>', "tg-spoiler"),
    ]:
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities") as info:
            await bot.send_message(grp.id, bad, parse_mode=ParseMode.HTML)
        assert reason.lower() in str(info.value).lower()  # PTB lower-cases the description
    assert len(fake_tg.messages(grp.id)) == 1

    long_html = "<b>" + "&amp;" * 4096 + "</b>"  # 4096 visible characters
    await bot.send_message(grp.id, long_html, parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(grp.id, "x" * 4097)


def test_parse_html_entities() -> None:
    parsed = parse_html(
        '<pre><code class="language-python">x=1</code></pre><tg-spoiler>s</tg-spoiler>'
        '<blockquote expandable>q</blockquote><tg-emoji emoji-id="5368324170671202286">👍'
        "</tg-emoji>&#128077;&#x41;"
    )
    assert parsed.text == "x=1sq👍👍A"
    kinds = [(e["type"], e["offset"], e["length"]) for e in parsed.entities]
    assert kinds == [
        ("pre", 0, 3),
        ("spoiler", 3, 1),
        ("expandable_blockquote", 4, 1),
        ("custom_emoji", 5, 2),
    ]
    assert parsed.entities[0]["language"] == "python"
    with pytest.raises(EntityParseError):
        parse_html("&bogus;")


# ---------------------------------------------------------------- members / commands / files
async def test_admin_lookups(fake_tg: FakeTelegram, bot: Bot) -> None:
    owner = fake_tg.add_user(1, "Owner")
    mod = fake_tg.add_user(2, "Mod")
    anon = fake_tg.add_user(3, "Anon")
    student = fake_tg.add_user(4, "Student")
    grp = fake_tg.add_group(
        -1001, "Study", creator=owner, admins=[mod], anonymous_admins=[anon], members=[student]
    )
    admins = await bot.get_chat_administrators(grp.id)
    assert isinstance(admins[0], ChatMemberOwner)
    assert admins[0].user.id == owner.id
    anonymity = {
        a.user.id: a.is_anonymous
        for a in admins
        if isinstance(a, ChatMemberOwner | ChatMemberAdministrator)
    }
    assert anonymity == {1: False, 2: False, 3: True}
    assert all(isinstance(a, ChatMemberAdministrator) for a in admins[1:])
    assert (await bot.get_chat_member(grp.id, student.id)).status == "member"
    fake_tg.set_member(grp, student, "kicked")
    assert (await bot.get_chat_member(grp.id, student.id)).status == "kicked"
    assert (await bot.get_chat_member(grp.id, owner.id)).status == "creator"
    assert fake_tg.admin_lookups(grp.id) == 4
    chat = await bot.get_chat(grp.id)
    assert (chat.id, chat.type, chat.title) == (grp.id, "supergroup", "Study")


async def test_commands_per_scope_and_language(fake_tg: FakeTelegram, bot: Bot) -> None:
    await bot.set_my_commands([BotCommand("quiz", "Start a quiz")])
    await bot.set_my_commands([BotCommand("quiz", "কুইজ শুরু")], language_code="bn")
    await bot.set_my_commands(
        [BotCommand("next", "Next question")], scope=BotCommandScopeChat(-1001)
    )
    assert fake_tg.commands() == [{"command": "quiz", "description": "Start a quiz"}]
    assert fake_tg.commands(language_code="bn") == [{"command": "quiz", "description": "কুইজ শুরু"}]
    assert fake_tg.commands("chat", chat_id=-1001) == [
        {"command": "next", "description": "Next question"}
    ]
    got = await bot.get_my_commands(language_code="bn")
    assert [c.description for c in got] == ["কুইজ শুরু"]
    await bot.delete_my_commands(language_code="bn")
    assert fake_tg.commands(language_code="bn") is None
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("Bad-Name", "x")])


async def test_send_document_multipart(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    fake_tg.start_bot(alice)
    data = "q,a\n১,২\n".encode()
    sent = await bot.send_document(
        alice.id,
        data,
        filename="results.csv",
        caption="<b>Results</b>",
        parse_mode=ParseMode.HTML,
    )
    assert sent.document is not None
    assert sent.document.file_name == "results.csv"
    stored = fake_tg.last_message(alice.id)
    assert stored is not None
    assert stored.document is not None
    assert stored.document.data == data
    assert stored.document.filename == "results.csv"
    assert stored.text == "Results"


async def test_reply_parameters(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study")
    said = fake_tg.user_says(grp, alice, "question?")
    sent = await bot.send_message(
        grp.id, "answer", reply_parameters=ReplyParameters(said["message_id"])
    )
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.text == "question?"
    assert sent.message_id == said["message_id"] + 1  # user messages consume ids too
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(grp.id, "x", reply_parameters=ReplyParameters(999))


def test_max_in_window_sliding() -> None:
    server = FakeTelegram(window=10.0)
    server.traffic[-1] = [0.0, 1.0, 2.0, 9.9, 10.0, 10.5, 30.0]
    assert server.max_in_window(-1) == 5  # 1.0 .. 10.5
    assert server.max_in_window(-1, window=1.0) == 3  # 9.9, 10.0, 10.5
    assert server.max_in_window(-1, window=0.5) == 2
    assert server.max_in_window(-2) == 0


# ---------------------------------------------------------------- full Application
async def _quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(
        "<b>Q1</b>: 2+2?",
        parse_mode=ParseMode.HTML,
        reply_markup=_keyboard(("3", "q1:3"), ("4", "q1:4")),
    )


async def _answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    correct = query.data == "q1:4"
    await query.answer("Correct!" if correct else "Wrong", show_alert=not correct)
    if correct:
        await query.edit_message_text("Q1 closed")


def _build_app(server: FakeTelegram) -> Application:  # type: ignore[type-arg]
    app = ApplicationBuilder().token(TOKEN).base_url(server.base_url).build()
    app.add_handler(CommandHandler("quiz", _quiz))
    app.add_handler(CallbackQueryHandler(_answer))
    return app


async def test_application_polling_end_to_end(fake_tg: FakeTelegram) -> None:
    alice = fake_tg.add_user(101, "Alice", username="alice")
    bob = fake_tg.add_user(102, "Bob")
    grp = fake_tg.add_group(-1001, "Study group", members=[alice, bob])
    app = _build_app(fake_tg)
    async with app:
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        await app.start()
        try:
            fake_tg.user_says(grp, alice, f"/quiz@{fake_tg.bot.username}")
            question = await fake_tg.wait_for(lambda: fake_tg.find_message(grp.id, "2+2"))
            assert question.html == "<b>Q1</b>: 2+2?"
            wrong = fake_tg.tap(grp, bob, question.message_id, "q1:3")
            assert (await fake_tg.wait_answered(wrong)).show_alert
            right = fake_tg.tap(grp, alice, question.message_id, "q1:4")
            assert (await fake_tg.wait_answered(right)).text == "Correct!"
            await fake_tg.wait_for(lambda: question.text == "Q1 closed")
            fake_tg.user_says_as_anonymous_admin(grp, "/quiz")
            await fake_tg.wait_for(lambda: len(fake_tg.messages(grp.id)) == 2)
            await fake_tg.wait_consumed()
        finally:
            await app.stop()
            await app.updater.stop()
    assert fake_tg.alerts_for(bob)[0].text == "Wrong"
    assert fake_tg.all_updates_consumed()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_webhook_delivery_with_secret(fake_tg: FakeTelegram) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study group", members=[alice])
    port = _free_port()
    app = _build_app(fake_tg)
    async with app:
        assert app.updater is not None
        await app.updater.start_webhook(
            listen="127.0.0.1",
            port=port,
            url_path="hook",
            secret_token="s3cret",
            webhook_url=f"http://127.0.0.1:{port}/hook",
        )
        await app.start()
        try:
            assert fake_tg.webhook_url == f"http://127.0.0.1:{port}/hook"
            assert fake_tg.webhook_secret == "s3cret"
            fake_tg.user_says(grp, alice, "/quiz")
            await fake_tg.wait_for(lambda: fake_tg.find_message(grp.id, "2+2"))
            assert fake_tg.webhook_deliveries[-1].status == 200
            async with Bot(TOKEN, base_url=fake_tg.base_url) as other:
                with pytest.raises(Conflict, match=r"(?i)webhook is active"):
                    await other.get_updates(timeout=0)
                info = await other.get_webhook_info()
                assert info.url == fake_tg.webhook_url
            update = {"message": fake_tg.user_says(grp, alice, "/quiz")}
            await fake_tg.wait_consumed()
            assert await fake_tg.post_update_raw(update, secret="wrong") == 403
            assert await fake_tg.post_update_raw(update) == 403
            assert await fake_tg.post_update_raw(update, secret="s3cret") == 200
            await fake_tg.wait_for(lambda: len(fake_tg.messages(grp.id)) == 3)
        finally:
            await app.stop()
            await app.updater.stop()


async def test_anonymous_admin_and_hostile_updates(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    fake_tg.user_says_as_anonymous_admin(grp, "/next")
    fake_tg.message_without_sender(grp, "ghost")
    fake_tg.channel_post(-100500, "news")
    alice = fake_tg.add_user(101, "Alice")
    said = fake_tg.user_says(grp, alice, "typo")
    fake_tg.edit_user_message(grp, said, "/quiz")
    forged = {"id": "77", "from": alice.to_dict(), "chat_instance": "1", "data": "evil"}
    fake_tg.raw_update({"callback_query": forged})
    updates = await bot.get_updates(timeout=0)
    first = updates[0].message
    assert first is not None
    assert first.from_user is not None
    assert first.from_user.id == ANONYMOUS_ADMIN_ID
    assert first.sender_chat is not None
    assert first.sender_chat.id == grp.id
    assert updates[1].message is not None
    assert updates[1].message.from_user is None
    assert updates[2].channel_post is not None
    assert updates[4].edited_message is not None
    assert updates[4].edited_message.text == "/quiz"
    assert updates[5].callback_query is not None
    assert updates[5].callback_query.message is None
    assert len(updates) == 6


async def test_users_polls_and_documents_through_ptb() -> None:
    """A user's quiz poll and document parse as PTB objects; getFile and the file route serve the
    bytes under the token only; unknown ids and paths are errors, as in Telegram."""
    server = FakeTelegram(token=TOKEN)
    await server.start()
    try:
        user = server.add_user(301, "Poller")
        server.user_sends_poll(user, "Q?", ["a", "b"], correct=[1], explanation="why")
        server.user_sends_poll(user, "Fwd?", ["a", "b"], forwarded_from=user)
        server.user_sends_poll(user, "Two?", ["a", "b", "c"], correct=[0, 2])
        for wrong in ([2, 0], [0, 0], [3], []):  # Telegram wants increasing ids of its options
            with pytest.raises(ValueError, match="increasing right option ids"):
                server.user_sends_poll(user, "Bad?", ["a", "b", "c"], correct=wrong)
        server.user_sends_document(user, "q.gift", b"::t::Q{=a ~b}", announced_size=None)
        async with Bot(
            TOKEN,
            base_url=server.base_url,
            base_file_url=server.base_url.replace("/bot", "/file/bot"),
        ) as bot:
            updates = await bot.get_updates()
            own, fwd, two, doc = (u.message for u in updates)
            assert two is not None and two.poll is not None
            assert two.poll.correct_option_ids == (0, 2) and two.poll.allows_multiple_answers
            assert own is not None and own.poll is not None and own.poll.type == "quiz"
            assert own.poll.correct_option_ids == (1,) and own.poll.explanation == "why"
            assert not own.poll.allows_multiple_answers
            assert fwd is not None and fwd.poll is not None and fwd.forward_origin is not None
            assert fwd.poll.correct_option_ids == ()  # hidden from the bot
            assert doc is not None and doc.document is not None
            assert doc.document.file_size is None
            file = await doc.document.get_file()
            assert file.file_size == 13 and file.file_path == (
                f"http://127.0.0.1:{server.port}/file/bot{TOKEN}/documents/file_1"
            )
            assert bytes(await file.download_as_bytearray()) == b"::t::Q{=a ~b}"
            with pytest.raises(BadRequest, match="nvalid file_id"):
                await bot.get_file("nope")
        async with httpx.AsyncClient() as client:
            base = f"http://127.0.0.1:{server.port}/file/bot"
            assert (await client.get(f"{base}wrong/documents/file_1")).status_code == 401
            assert (await client.get(f"{base}{TOKEN}/documents/none")).status_code == 404
        assert server.files.downloads == ["documents/file_1"]
    finally:
        await server.stop()
