"""The fake's Bot API 10.1 parts: rich messages, photos, reactions, the overall limit and the
spec check, driven by the real python-telegram-bot client (raw calls where PTB 22.8 has none)."""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram
from fakebot.fixtures import fake_tg
from fakebot.spec import SPEC
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Update
from telegram.error import BadRequest, RetryAfter
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, ContextTypes
from telegram.warnings import PTBUserWarning

__all__ = ["fake_tg"]

TOKEN = "123456:TEST-token"
KB = {"inline_keyboard": [[{"text": "A", "callback_data": "q1:a"}]]}
QUESTION = (
    "<h3>Q1</h3><p>Solve <tg-math>x^2 = 4</tg-math> for x &gt; 0</p>"
    "<tg-math-block>\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}</tg-math-block>"
    "<table><tr><th>n</th><th>n²</th></tr><tr><td>2</td><td>4</td></tr></table>"
    '<figure><img src="https://example.com/q1.png"/><figcaption>graph</figcaption></figure>'
)


@pytest.fixture
async def bot(fake_tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=fake_tg.base_url) as b:
        yield b


async def _raw(bot: Bot, method: str, **params: Any) -> Any:
    """A raw call: PTB 22.8 has no rich_message (and warns on do_api_request of a method it
    knows, e.g. editMessageText)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBUserWarning)
        return await bot.do_api_request(method, api_kwargs=params)


# ---------------------------------------------------------------- rich messages
async def test_send_rich_message_stores_math_tables_photos(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    sent = await _raw(
        bot, "sendRichMessage", chat_id=grp.id, rich_message={"html": QUESTION}, reply_markup=KB
    )
    assert sent["rich_message"]["blocks"][0] == {"type": "heading", "text": "Q1", "size": 3}
    stored = fake_tg.last_message(grp.id)
    assert stored is not None and stored.rich is not None
    assert stored.math == ["x^2 = 4", "\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}"]
    assert stored.rich.tables == [[["n", "n²"], ["2", "4"]]]
    assert stored.rich.photos == ["https://example.com/q1.png"]
    assert "Solve x^2 = 4 for x > 0" in stored.text  # plain text: LaTeX kept as its source
    assert fake_tg.buttons(stored) == [[("A", "q1:a")]]
    assert fake_tg.rich_messages(grp) == [stored]
    assert await fake_tg.wait_for_message(grp, "Solve") is stored


@pytest.mark.parametrize(
    ("rich", "description"),
    [
        ({"html": "<div>x</div>"}, "RICH_MESSAGE_INVALID"),
        ({"html": "<p>AT&T</p>"}, "RICH_MESSAGE_INVALID"),
        ({"html": "<p>open"}, "RICH_MESSAGE_INVALID"),
        ({"html": "<tg-math>x<b>2</b></tg-math>"}, "RICH_MESSAGE_INVALID"),
        ({"html": "<table><tr><td><p>x</p></td></tr></table>"}, "RICH_MESSAGE_INVALID"),
        ({"html": '<p>see <img src="https://e.x/a.png"/></p>'}, "RICH_MESSAGE_INVALID"),
        ({"html": '<img src="ftp://e.x/a.png"/>'}, "RICH_MESSAGE_URL_INVALID"),
        ({"html": '<img src="tg://photo?id=nope"/>'}, "wrong file identifier/HTTP URL"),
        # Telegram's page: tg://video, tg://document, tg://audio links name files too (the
        # fake holds none of those); any other tg:// link is not a media link at all
        ({"html": '<video src="tg://video?id=nope"></video>'}, "wrong file identifier/HTTP URL"),
        ({"html": '<audio src="tg://audio?id=nope"></audio>'}, "wrong file identifier/HTTP URL"),
        ({"html": '<img src="tg://sticker?id=nope"/>'}, "RICH_MESSAGE_URL_INVALID"),
        ({"html": "<p>x</p>", "markdown": "x"}, "RICH_MESSAGE_INVALID"),
        ({"html": "  "}, "RICH_MESSAGE_EMPTY"),
        ({"is_rtl": True}, "RICH_MESSAGE_EMPTY"),
        ({"html": "<p>" + "x" * 32769 + "</p>"}, "RICH_MESSAGE_TOO_LONG"),
        ({"html": "<hr/>" * 501}, "RICH_MESSAGE_BLOCKS_TOO_MANY"),
        ({"html": "<table><tr>" + "<td>c</td>" * 21 + "</tr></table>"}, "RICH_MESSAGE_TABLE"),
        # Bot API 10.3: exactly one of html, markdown or blocks
        ({"html": "<p>x</p>", "blocks": []}, "RICH_MESSAGE_INVALID"),
        ({"blocks": []}, "RICH_MESSAGE_EMPTY"),
        ({"blocks": [{"type": "paragraph"}]}, 'field "text" is required'),
        ({"blocks": [{"type": "nope"}]}, 'unsupported type "nope"'),
        (
            {
                "html": "<p>x</p>",
                "media": [{"id": "a b", "media": {"type": "photo", "media": "x"}}],
            },
            "RICH_MESSAGE_MEDIA_INVALID",
        ),
        (
            {
                "html": '<img src="tg://photo?id=p"/>',
                "media": [{"id": "p", "media": {"type": "photo", "media": "nope"}}],
            },
            "wrong file identifier/HTTP URL",
        ),
        ({"html": "<p>x</p>", "media": [{"id": "p"}]}, 'field "media" is required'),
        ({"html": 5}, 'field "html" must be of type String'),
    ],
)
async def test_rich_message_refusals(
    fake_tg: FakeTelegram, bot: Bot, rich: dict[str, Any], description: str
) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    with pytest.raises(BadRequest) as info:
        await _raw(bot, "sendRichMessage", chat_id=grp.id, rich_message=rich)
    assert description.lower() in str(info.value).lower()
    assert fake_tg.messages(grp) == []
    assert fake_tg.calls[-1].status == 400


async def test_rich_markdown_and_photo_by_file_id(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    photo = await bot.send_photo(grp.id, "https://example.com/p.png")
    file_id = photo.photo[-1].file_id
    html = f'<p>look</p><img src="tg://photo?id={file_id}"/>'
    await _raw(bot, "sendRichMessage", chat_id=grp.id, rich_message={"html": html})
    md = "Area $\\pi r^2$\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n$$e^{i\\pi}+1=0$$"
    await _raw(bot, "sendRichMessage", chat_id=grp.id, rich_message={"markdown": md})
    first, second = fake_tg.rich_messages(grp)
    assert first.rich is not None and first.rich.photos == [f"tg://photo?id={file_id}"]
    assert second.math == ["\\pi r^2", "e^{i\\pi}+1=0"]
    assert second.rich is not None and second.rich.tables == [[["a", "b"], ["1", "2"]]]


async def test_rich_blocks_and_media_list(fake_tg: FakeTelegram, bot: Bot) -> None:
    """Bot API 10.3: a rich message as explicit blocks, and a picture named through ``media``."""
    grp = fake_tg.add_group(-1001, "Study")
    photo = await bot.send_photo(grp.id, "https://example.com/p.png")
    file_id = photo.photo[-1].file_id
    blocks = [
        {"type": "paragraph", "text": {"type": "plain", "text": "Area"}},
        {"type": "mathematical_expression", "expression": "\\pi r^2"},
    ]
    await _raw(bot, "sendRichMessage", chat_id=grp.id, rich_message={"blocks": blocks})
    media = [{"id": "pic", "media": {"type": "photo", "media": file_id}}]
    html = '<p>look</p><img src="tg://photo?id=pic"/>'
    await _raw(bot, "sendRichMessage", chat_id=grp.id, rich_message={"html": html, "media": media})
    first, second = fake_tg.rich_messages(grp)
    assert first.math == ["\\pi r^2"] and "Area" in first.text
    assert second.rich is not None and second.rich.photos == [f"tg://photo?id={file_id}"]


async def test_edit_rich_message_text_and_markup(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    sent = await _raw(
        bot, "sendRichMessage", chat_id=grp.id, rich_message={"html": QUESTION}, reply_markup=KB
    )
    mid = sent["message_id"]
    reveal = {"html": "<p>Answer: <tg-math>x = 2</tg-math></p>"}
    await _raw(bot, "editMessageText", chat_id=grp.id, message_id=mid, rich_message=reveal)
    stored = fake_tg.last_message(grp.id)
    assert stored is not None
    assert stored.math == ["x = 2"] and stored.reply_markup is None
    assert stored.edits[0].rich is not None and "x^2 = 4" in stored.edits[0].rich.math
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await _raw(bot, "editMessageText", chat_id=grp.id, message_id=mid, rich_message=reveal)
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):  # {}: no keyboard
        await bot.edit_message_reply_markup(grp.id, mid, reply_markup=InlineKeyboardMarkup([]))
    await bot.edit_message_reply_markup(
        grp.id,
        mid,
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("B", callback_data="b")]]),
    )
    assert fake_tg.buttons(fake_tg.last_message(grp.id)) == [[("B", "b")]]
    assert stored.math == ["x = 2"]  # a markup edit keeps the rich content
    with pytest.raises(BadRequest, match=r"(?i)can't be used together"):
        await _raw(
            bot, "editMessageText", chat_id=grp.id, message_id=mid, text="t", rich_message=reveal
        )
    await bot.edit_message_text("plain now", grp.id, mid)
    assert stored.rich is None and stored.text == "plain now"
    assert fake_tg.max_in_window(grp.id) == 4  # send + 3 successful edits


async def _answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    await query.answer("Correct!")
    await _raw(
        context.bot,
        "editMessageText",
        chat_id=query.message.chat.id,
        message_id=query.message.message_id,
        rich_message={"html": f"<p>closed by {query.from_user.first_name}</p>"},
    )


async def test_tap_on_rich_message_through_application(fake_tg: FakeTelegram) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study", members=[alice])
    app = ApplicationBuilder().token(TOKEN).base_url(fake_tg.base_url).build()
    app.add_handler(CallbackQueryHandler(_answer))
    async with app:
        sent = await _raw(
            app.bot,
            "sendRichMessage",
            chat_id=grp.id,
            rich_message={"html": QUESTION},
            reply_markup=KB,
        )
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=1)
        qid = fake_tg.tap(grp, alice, sent["message_id"], "q1:a")
        answer = await fake_tg.wait_answered(qid)
        await fake_tg.wait_for_message(grp, "closed by Alice")
        await app.updater.stop()
        await app.stop()
    assert answer.text == "Correct!" and answer.message_id == sent["message_id"]


# ---------------------------------------------------------------- photos, lengths
async def test_send_photo_caption_keyboard_and_reveal_by_edit(
    fake_tg: FakeTelegram, bot: Bot
) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    kb = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_photo(
        grp.id, b"\x89PNG fake", caption="<b>Q1</b> which?", parse_mode="HTML", reply_markup=kb
    )
    assert sent.caption == "Q1 which?" and sent.photo
    again = await bot.send_photo(grp.id, sent.photo[-1].file_id, caption="again")
    assert again.photo[-1].file_id == sent.photo[-1].file_id
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(grp.id, "AgACnot-a-known-id")
    await bot.edit_message_caption(grp.id, sent.message_id, caption="Q1: answer A")
    stored = fake_tg.messages(grp)[0]
    assert stored.text == "Q1: answer A" and stored.reply_markup is None
    with pytest.raises(BadRequest, match=r"(?i)there is no text in the message to edit"):
        await bot.edit_message_text("x", grp.id, sent.message_id)
    await bot.edit_message_media(
        InputMediaPhoto("https://example.com/solution.png", caption="solution"),
        grp.id,
        sent.message_id,
    )
    assert stored.photo is not None and stored.photo.url == "https://example.com/solution.png"
    assert stored.text == "solution" and len(stored.edits) == 2
    text = await bot.send_message(grp.id, "plain")
    with pytest.raises(BadRequest, match=r"(?i)there is no caption in the message to edit"):
        await bot.edit_message_caption(grp.id, text.message_id, caption="x")


async def test_lengths_in_utf16_units(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    emoji = "😀"  # 1 code point, 2 UTF-16 units
    await bot.send_message(grp.id, emoji * 2048)
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(grp.id, emoji * 2048 + "x")
    await bot.send_photo(grp.id, "https://example.com/p.png", caption=emoji * 512)
    with pytest.raises(BadRequest, match=r"(?i)message caption is too long"):
        await bot.send_photo(grp.id, "https://example.com/p.png", caption=emoji * 512 + "x")
    assert len(fake_tg.messages(grp)) == 2


# ---------------------------------------------------------------- reactions
async def test_set_message_reaction(fake_tg: FakeTelegram, bot: Bot) -> None:
    alice = fake_tg.add_user(101, "Alice")
    grp = fake_tg.add_group(-1001, "Study", members=[alice])
    said = fake_tg.user_says(grp, alice, "42")
    assert await bot.set_message_reaction(grp.id, said["message_id"], "👍")
    assert fake_tg.reaction_on(grp, said["message_id"]) == ["👍"]
    for bad in ["🦖", "x"]:
        with pytest.raises(BadRequest, match=r"(?i)REACTION_INVALID"):
            await bot.set_message_reaction(grp.id, said["message_id"], bad)
    with pytest.raises(BadRequest, match=r"(?i)REACTIONS_TOO_MANY"):
        await bot.set_message_reaction(grp.id, said["message_id"], ["👍", "🔥"])
    with pytest.raises(BadRequest, match=r"(?i)MESSAGE_ID_INVALID"):
        await bot.set_message_reaction(grp.id, 999, "👍")
    assert fake_tg.reaction_on(grp, said["message_id"]) == ["👍"]
    assert await bot.set_message_reaction(grp.id, said["message_id"])
    assert fake_tg.reaction_on(grp, said["message_id"]) == []


# ---------------------------------------------------------------- overall limit
async def test_overall_limit_sliding_second_counted_on_arrival() -> None:
    clock = ManualClock(100.0)
    async with FakeTelegram(overall_limit=3, clock=clock) as server:
        a, b = server.add_group(-1001, "A"), server.add_group(-1002, "B")
        async with Bot(TOKEN, base_url=server.base_url) as bot:
            sent = await bot.send_message(a.id, "1")
            await bot.send_message(b.id, "2")
            clock.advance(0.5)
            await bot.edit_message_text("1 edited", a.id, sent.message_id)
            with pytest.raises(RetryAfter) as info:
                await bot.send_message(b.id, "4")
            assert info.value.retry_after == dt.timedelta(seconds=1)
            server.tap(a, server.add_user(7, "U"), sent.message_id, "x")
            (update,) = await bot.get_updates(timeout=0)
            assert update.callback_query is not None
            await update.callback_query.answer()  # callback answers never count
            clock.now = 100.999
            with pytest.raises(RetryAfter):
                await bot.send_message(a.id, "5")
            clock.now = 101.0  # the first two left the window
            await bot.send_message(a.id, "6")
            await bot.send_message(b.id, "7")
    assert server.overall.refused == 2
    assert server.overall.refused_by_chat == {a.id: 1, b.id: 1}
    assert server.overall.max_in_window() == 3
    assert [m.text for m in server.messages(b)] == ["2", "7"]


async def test_overall_limit_off_by_default_and_switchable(fake_tg: FakeTelegram, bot: Bot) -> None:
    grp = fake_tg.add_group(-1001, "Study")
    for n in range(35):
        await bot.send_message(grp.id, f"m{n}")
    assert fake_tg.overall.refused == 0
    fake_tg.limit_overall(30)
    results = [await _send_or_none(bot, grp.id, f"n{n}") for n in range(31)]
    assert results.count(None) == 1 and results[-1] is None
    assert fake_tg.overall.refused == 1


async def _send_or_none(bot: Bot, chat_id: int, text: str) -> int | None:
    try:
        return (await bot.send_message(chat_id, text)).message_id
    except RetryAfter:
        return None


# ---------------------------------------------------------------- spec check
@pytest.mark.skipif(SPEC is None, reason="shared/reference/botapi_spec.json not beside the clone")
async def test_spec_check_refuses_unknown_missing_and_mistyped(fake_tg: FakeTelegram) -> None:
    alice = fake_tg.add_user(101, "Alice")
    fake_tg.start_bot(alice)
    url = f"{fake_tg.base_url}{TOKEN}"
    cases = [
        (
            "sendMessage",
            {"chat_id": 101, "text": "x", "colour": "red"},
            'unknown parameter "colour"',
        ),
        ("sendMessage", {"chat_id": 101}, "message text is empty"),
        ("sendRichMessage", {"chat_id": 101}, "rich_message is empty"),
        ("sendMessage", {"chat_id": 101, "text": "x", "disable_notification": "loud"}, "Boolean"),
        ("answerCallbackQuery", {"text": "x"}, "callback_query_id is empty"),
        (
            "sendMessage",
            {"chat_id": 101, "text": "x", "reply_markup": {"inline_keyboard": [[{"txt": "A"}]]}},
            'unknown field "txt"',
        ),
        (
            "setMessageReaction",
            {"chat_id": 101, "message_id": 1, "reaction": [{"type": "paid", "x": 1}]},
            "ReactionType",
        ),
    ]
    async with httpx.AsyncClient() as client:
        for method, params, reason in cases:
            resp = await client.post(f"{url}/{method}", json=params)
            assert resp.status_code == 400, (method, params)
            assert reason in resp.json()["description"], resp.json()
    assert fake_tg.messages(101) == []
