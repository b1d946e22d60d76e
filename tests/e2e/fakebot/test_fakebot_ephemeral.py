"""The fake's ephemeral messages (Bot API 10.2/10.3), driven by the real PTB client through
raw calls (PTB 22.8 predates them): seen by their receiver alone, never in the group's log or
its traffic, and every refusal the spec's texts imply."""

from __future__ import annotations

import re
import warnings
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clockkit import ManualClock
from fakebot import FakeTelegram
from fakebot.ephemeral import (
    NEEDS_QUERY,
    NOT_FOUND,
    NOT_IN_GROUP,
    NOT_MEMBER,
    OTHER_CHAT,
    OTHER_USER,
    QUERY_INVALID,
    REPLY_NOT_EPHEMERAL,
    REPLY_NOT_FOUND,
    REPLY_TOO_OLD,
)
from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import Defaults, ExtBot
from telegram.warnings import PTBUserWarning

from bot.i18n.markup import Safe
from bot.tg import outbox
from bot.tg.pacing import GroupPacer

TOKEN = "123456:TEST-token"
KB = {"inline_keyboard": [[{"text": "A", "callback_data": "q1:a"}]]}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
async def server(clock: ManualClock) -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(clock=clock, enforce_limit=True) as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url) as b:
        yield b


def _says(description: str) -> str:
    """A pattern for ``description`` as PTB shows it (first letter capitalised)."""
    return "(?i)" + re.escape(description)


async def _raw(bot: Bot, method: str, **params: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBUserWarning)
        return await bot.do_api_request(method, api_kwargs=params)


def _class(server: FakeTelegram) -> tuple[int, int, int]:
    """A group with two students: (group, ann, ben)."""
    ann, ben = server.add_user(7, "Ann"), server.add_user(8, "Ben")
    grp = server.add_group(-1001, "Study", members=[ann, ben])
    return grp.id, ann.id, ben.id


async def test_ephemeral_send_seen_by_receiver_only(server: FakeTelegram, bot: Bot) -> None:
    grp, ann, ben = _class(server)
    question = await bot.send_message(grp, "Q1", reply_markup=None)
    qid = server.tap(grp, ann, question.message_id, "q1:a", queue=False)
    options = {"receiver_user_id": ann, "callback_query_id": qid}
    sent = await _raw(
        bot,
        "sendMessage",
        chat_id=grp,
        text="<b>Right</b>",
        parse_mode="HTML",
        ephemeral_message_parameters=options,
    )
    assert sent["message_id"] == 0 and sent["ephemeral_message_id"] >= 1
    assert sent["receiver_user"]["id"] == ann
    (seen,) = server.ephemeral_for(grp, ann)
    assert seen.text == "Right" and seen.query_id == qid
    assert server.ephemeral_for(grp, ben) == []
    assert [m.text for m in server.messages(grp)] == ["Q1"]  # not in the group's log
    assert len(server.group_traffic(grp)) == 1  # nor in its visible traffic
    rich = {"html": "<p>x = <tg-math>\\frac{1}{2}</tg-math></p>"}
    await _raw(
        bot,
        "sendRichMessage",
        chat_id=grp,
        rich_message=rich,
        ephemeral_message_parameters={"receiver_user_id": ben},
    )
    photo = await bot.send_photo(grp, "https://example.com/p.png")
    await _raw(
        bot,
        "sendPhoto",
        chat_id=grp,
        photo=photo.photo[-1].file_id,
        caption="pic",
        ephemeral_message_parameters={"receiver_user_id": ben},
    )
    first, second = server.ephemeral_for(grp, ben)
    assert first.message.math == ["\\frac{1}{2}"]
    assert second.message.photo is not None and second.text == "pic"
    assert server.ephemeral_for(grp, ann) == [seen]


async def test_edit_and_delete_ephemeral(server: FakeTelegram, bot: Bot) -> None:
    grp, ann, ben = _class(server)
    sent = await _raw(
        bot,
        "sendMessage",
        chat_id=grp,
        text="first",
        reply_markup=KB,
        ephemeral_message_parameters={"receiver_user_id": ann},
    )
    ident = sent["ephemeral_message_id"]
    named = {"chat_id": grp, "receiver_user_id": ann, "ephemeral_message_id": ident}
    assert await _raw(bot, "editEphemeralMessageText", text="second", **named) is True
    rich = {"html": "<p><tg-math>x^2</tg-math></p>"}
    assert await _raw(bot, "editEphemeralMessageText", rich_message=rich, **named) is True
    assert await _raw(bot, "editEphemeralMessageReplyMarkup", reply_markup=KB, **named) is True
    (seen,) = server.ephemeral_for(grp, ann)
    assert seen.message.math == ["x^2"] and seen.message.reply_markup == KB
    assert [v.text for v in seen.message.edits][:2] == ["first", "second"]
    with pytest.raises(BadRequest, match=_says(NOT_FOUND)):
        await _raw(bot, "editEphemeralMessageText", text="x", **{**named, "receiver_user_id": ben})
    assert await _raw(bot, "deleteEphemeralMessage", **named) is True
    assert server.ephemeral_for(grp, ann) == []
    with pytest.raises(BadRequest, match=_says(NOT_FOUND)):
        await _raw(bot, "deleteEphemeralMessage", **named)
    assert server.group_traffic(grp) == []


@pytest.mark.parametrize(
    ("case", "description"),
    [
        ("other user", OTHER_USER),
        ("other chat", OTHER_CHAT),
        ("too old", QUERY_INVALID),
        ("unknown", QUERY_INVALID),
        ("private", NOT_IN_GROUP),
        ("not member", NOT_MEMBER),
        ("replace without query", NEEDS_QUERY),
        ("no receiver", 'field "receiver_user_id" is required'),
    ],
)
async def test_ephemeral_refusals(
    server: FakeTelegram, bot: Bot, clock: ManualClock, case: str, description: str
) -> None:
    grp, ann, ben = _class(server)
    other = server.add_group(-1002, "Other", members=[server.user(ann)])
    question = await bot.send_message(grp, "Q1")
    qid = server.tap(grp, ann, question.message_id, "q1:a", queue=False)
    chat: int = grp
    options: dict[str, Any] = {"receiver_user_id": ann, "callback_query_id": qid}
    if case == "other user":
        options["receiver_user_id"] = ben
    elif case == "other chat":
        chat = other.id
    elif case == "too old":
        clock.advance(15.5)
    elif case == "unknown":
        options["callback_query_id"] = "123"
    elif case == "private":
        server.start_bot(ann)
        chat = ann
        del options["callback_query_id"]
    elif case == "not member":
        options = {"receiver_user_id": server.add_user(9, "Cy").id}
    elif case == "replace without query":
        options = {"receiver_user_id": ann, "replace_callback_query_message": True}
    else:
        options = {"callback_query_id": qid}
    with pytest.raises(BadRequest) as info:
        await _raw(bot, "sendMessage", chat_id=chat, text="x", ephemeral_message_parameters=options)
    assert description.lower() in str(info.value).lower()
    assert server.ephemeral == []


async def test_callback_window_is_on_the_fakes_clock(
    server: FakeTelegram, bot: Bot, clock: ManualClock
) -> None:
    grp, ann, _ = _class(server)
    question = await bot.send_message(grp, "Q1")
    qid = server.tap(grp, ann, question.message_id, "q1:a", queue=False)
    clock.advance(14.5)
    options = {"receiver_user_id": ann, "callback_query_id": qid}
    await _raw(
        bot, "sendMessage", chat_id=grp, text="in time", ephemeral_message_parameters=options
    )
    assert [e.text for e in server.ephemeral_for(grp, ann)] == ["in time"]


async def test_ephemeral_command_and_reply(
    server: FakeTelegram, bot: Bot, clock: ManualClock
) -> None:
    grp, ann, ben = _class(server)
    commands = [
        {"command": "me", "description": "Your score", "is_ephemeral": True},
        {"command": "quiz", "description": "Start a quiz"},
    ]
    await _raw(bot, "setMyCommands", commands=commands, scope={"type": "all_group_chats"})
    assert server.commands("all_group_chats")[0]["is_ephemeral"] is True  # type: ignore[index]
    said = server.user_says(grp, ann, "/me")
    visible = server.user_says(grp, ann, "/quiz")
    assert said["message_id"] == 0 and said["ephemeral_message_id"] >= 1
    assert visible["message_id"] >= 1 and "ephemeral_message_id" not in visible
    (update, _) = await bot.get_updates(timeout=0)
    assert update.message is not None and update.message.api_kwargs["ephemeral_message_id"]
    reply = {"ephemeral_message_id": said["ephemeral_message_id"]}
    with pytest.raises(BadRequest, match=_says(REPLY_NOT_EPHEMERAL)):
        await _raw(bot, "sendMessage", chat_id=grp, text="x", reply_parameters=reply)
    with pytest.raises(BadRequest, match=_says(REPLY_NOT_FOUND)):
        await _raw(
            bot,
            "sendMessage",
            chat_id=grp,
            text="x",
            reply_parameters=reply,
            ephemeral_message_parameters={"receiver_user_id": ben},
        )
    sent = await _raw(
        bot,
        "sendMessage",
        chat_id=grp,
        text="Your score",
        reply_parameters=reply,
        ephemeral_message_parameters={"receiver_user_id": ann},
    )
    assert sent["reply_to_message"]["ephemeral_message_id"] == said["ephemeral_message_id"]
    clock.advance(15.5)
    with pytest.raises(BadRequest, match=_says(REPLY_TOO_OLD)):
        await _raw(
            bot,
            "sendMessage",
            chat_id=grp,
            text="late",
            reply_parameters=reply,
            ephemeral_message_parameters={"receiver_user_id": ann},
        )
    assert [m.text for m in server.messages(grp)] == []
    assert [e.text for e in server.ephemeral_for(grp, ann)] == ["Your score"]


async def test_edit_an_ephemeral_photos_caption_and_media(server: FakeTelegram, bot: Bot) -> None:
    grp, ann, _ = _class(server)
    first = await bot.send_photo(grp, "https://example.com/a.png")
    second = await bot.send_photo(grp, "https://example.com/b.png")
    sent = await _raw(
        bot,
        "sendPhoto",
        chat_id=grp,
        photo=first.photo[-1].file_id,
        caption="a",
        ephemeral_message_parameters={"receiver_user_id": ann},
    )
    named = {
        "chat_id": grp,
        "receiver_user_id": ann,
        "ephemeral_message_id": sent["ephemeral_message_id"],
    }
    assert await _raw(
        bot, "editEphemeralMessageCaption", caption="<b>b</b>", parse_mode="HTML", **named
    )
    media = {"type": "photo", "media": second.photo[-1].file_id, "caption": "c"}
    assert await _raw(bot, "editEphemeralMessageMedia", media=media, **named)
    (seen,) = server.ephemeral_for(grp, ann)
    assert seen.text == "c" and seen.message.photo is not None
    assert [v.text for v in seen.message.edits] == ["a", "b"]
    assert len(server.group_traffic(grp)) == 2  # the two visible photos only


async def test_the_bots_transport_sends_edits_and_deletes_ephemeral_messages(
    server: FakeTelegram,
) -> None:
    """bot/tg/outbox.py through PTB's ExtBot and the bot's pacer, as the bot runs them."""
    grp, ann, ben = _class(server)
    pacer = GroupPacer()
    defaults = Defaults(parse_mode=ParseMode.HTML)  # as the bot's Application has them
    async with ExtBot(
        TOKEN, base_url=server.base_url, rate_limiter=pacer, defaults=defaults
    ) as ext:
        to = outbox.Ephemeral(ann, max_wait=5.0)
        sent = await outbox.send_ephemeral(ext, grp, to, Safe("<b>one</b>"))
        assert sent.ok and sent.message_id is not None
        rich = Safe(f'<p><tg-math>x^2</tg-math></p><img src="tg://photo?id={outbox.PICTURE_ID}"/>')
        photo = await ext.send_photo(grp, "https://example.com/p.png")
        shown = await outbox.send_ephemeral(
            ext,
            grp,
            outbox.Ephemeral(ben, max_wait=5.0),
            rich,
            rich=True,
            photo_id=photo.photo[-1].file_id,
        )
        assert shown.ok
        edited = await outbox.edit_ephemeral(ext, grp, ann, sent.message_id, Safe("two"))
        assert edited.ok
        (seen,) = server.ephemeral_for(grp, ann)
        assert seen.text == "two" and [v.text for v in seen.message.edits] == ["one"]
        (picture,) = server.ephemeral_for(grp, ben)
        assert picture.message.math == ["x^2"]
        assert picture.message.rich is not None and picture.message.rich.photos == [
            f"tg://photo?id={photo.photo[-1].file_id}"
        ]
        assert (await outbox.delete_ephemeral(ext, grp, ann, sent.message_id)).ok
        assert server.ephemeral_for(grp, ann) == []
        missing = await outbox.delete_ephemeral(ext, grp, ann, sent.message_id)
        assert missing.status == "missing"  # as a deleted message is
        assert len(server.group_traffic(grp)) == 1  # the visible photo only
