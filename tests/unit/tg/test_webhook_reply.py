"""The webhook's request handler (bot/tg/webhook.py) in process: a tap's alert in the reply when
it comes in time, else an empty reply and the tap answered by its own request."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import orjson
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.tg.updates import QuizBot
from bot.tg.webhook import SECRET_HEADER, WebhookReplies, _handler

SECRET = "webhook-reply-secret"
GROUP = -1001234


def tap(query_id: str) -> bytes:
    return orjson.dumps(
        {
            "update_id": 1,
            "callback_query": {
                "id": query_id,
                "from": {"id": 5, "is_bot": False, "first_name": "Rumi"},
                "message": {
                    "message_id": 9,
                    "date": 1_700_000_000,
                    "chat": {"id": GROUP, "type": "supergroup", "title": "G"},
                    "text": "Question 1",
                },
                "chat_instance": "-1",
                "data": "a:r:0:1",
            },
        }
    )


async def client_for(reply_wait: float) -> tuple[TestClient[Any, Any], WebhookReplies, Any]:
    replies = WebhookReplies()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    app = SimpleNamespace(bot=QuizBot("4242:webhook-reply-token"), update_queue=queue)
    server = web.Application()
    server.router.add_post("/hook", _handler(app, SECRET, replies, reply_wait))  # type: ignore[arg-type]
    client: TestClient[Any, Any] = TestClient(TestServer(server, host="127.0.0.1"))
    await client.start_server()
    return client, replies, queue


async def test_an_alert_ready_in_time_goes_in_the_reply() -> None:
    client, replies, queue = await client_for(reply_wait=30)
    try:
        posted = asyncio.ensure_future(
            client.post("/hook", data=tap("q1"), headers={SECRET_HEADER: SECRET})
        )
        update = await queue.get()  # the tap reached the bot; its handler answers now
        assert update.callback_query.id == "q1"
        assert replies.offer("q1", "✅ Right! <b>&", True)
        response = await posted
        assert response.status == 200
        assert await response.json() == {
            "method": "answerCallbackQuery",
            "callback_query_id": "q1",
            "text": "✅ Right! <b>&",
            "show_alert": True,
        }
    finally:
        await client.close()


async def test_a_late_alert_is_sent_by_its_own_request() -> None:
    """No alert within the wait: Telegram gets an empty reply, and the handler's offer is
    refused, so it answers with a request of its own (bot/routing/replies.answer_query)."""
    client, replies, queue = await client_for(reply_wait=0)
    try:
        response = await client.post("/hook", data=tap("q2"), headers={SECRET_HEADER: SECRET})
        assert response.status == 200 and await response.read() == b""
        update = queue.get_nowait()
        assert update.callback_query.id == "q2"
        assert not replies.offer("q2", "✅ Right!", True)
        refused = await client.post("/hook", data=tap("q3"), headers={SECRET_HEADER: "wrong"})
        assert refused.status == 403 and queue.empty()
        garbage = await client.post("/hook", data=b"{not json", headers={SECRET_HEADER: SECRET})
        assert garbage.status == 400 and queue.empty()
    finally:
        await client.close()


async def test_a_bad_secret_is_403_whatever_its_bytes() -> None:
    """Non-UTF-8 bytes in the secret header (or any wrong secret): 403, before anything else;
    sent on a raw socket, since HTTP clients re-encode header values."""
    client, _, queue = await client_for(reply_wait=1)
    try:
        body = tap("q9")
        for raw in (b"\xff\xfe\x80", b"caf\xe9", b"wrong", SECRET.encode() + b"\x80"):
            reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
            writer.write(
                b"POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + SECRET_HEADER.encode()
                + b": "
                + raw
                + b"\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            await writer.drain()
            status = (await reader.readline()).split()[1]
            writer.close()
            await writer.wait_closed()
            assert status == b"403", (raw, status)
        assert queue.empty()
    finally:
        await client.close()
