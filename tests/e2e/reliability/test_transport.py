"""The aiohttp transport against a real HTTP server on 127.0.0.1 that refuses, drops and stalls
connections: PTB's errors come out, with "never sent" told apart, and the pacer retries exactly
what is safe to repeat (a message is never sent twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
import pytest_asyncio
from fakebot import FakeTelegram
from telegram import Bot, InputFile
from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter, TimedOut
from telegram.ext import ExtBot

from bot.tg.answering import Answers
from bot.tg.pacing import GroupPacer
from bot.tg.transport import NEVER_SENT, AiohttpRequest, NotSent, NotSentTimeout

TOKEN = "4242:transport-test-token"
GROUP = -1001234


@dataclass
class Seen:
    method: str
    body: bytes
    headers: dict[str, str]


@dataclass
class RawServer:
    """A minimal HTTP/1.1 server. ``actions[method]`` says what to do with a request:
    ("answer", status, body), "drop" (close without answering) or "stall" (never answer);
    ``default`` for methods not listed."""

    default: Any
    actions: dict[str, Any] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None
    _stalled: list[asyncio.StreamWriter] = field(default_factory=list)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> RawServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def close(self) -> None:
        for writer in self._stalled:
            writer.transport.abort()
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def count(self, method: str) -> int:
        return sum(1 for s in self.seen if s.method == method)

    async def wait_seen(self, method: str, n: int = 1) -> None:
        while self.count(method) < n:
            self._arrived.clear()
            await asyncio.wait_for(self._arrived.wait(), 10)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split()[1]
                headers = {
                    k.lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                method = path.rsplit("/", 1)[-1]
                self.seen.append(Seen(method, body, headers))
                self._arrived.set()
                action = self.actions.get(method, self.default)
                if action == "drop":
                    writer.transport.abort()
                    return
                if action == "stall":
                    self._stalled.append(writer)
                    return
                _, status, payload = action
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                writer.write(
                    f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n".encode()
                    + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


def ok(result: Any = True) -> tuple[str, int, Any]:
    return ("answer", 200, {"ok": True, "result": result})


MESSAGE = {
    "message_id": 7,
    "date": 1_700_000_000,
    "chat": {"id": GROUP, "type": "supergroup", "title": "G"},
    "text": "hi",
}


@pytest_asyncio.fixture
async def server() -> AsyncIterator[RawServer]:
    srv = await RawServer(ok(MESSAGE)).start()
    srv.actions["getMe"] = ok(
        {"id": 4242, "is_bot": True, "first_name": "Quiz Bot", "username": "quiz_bot"}
    )
    try:
        yield srv
    finally:
        await srv.close()


def refused_url() -> str:
    """A port nobody listens on: connecting is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/bot"


@contextlib.asynccontextmanager
async def full_backlog() -> AsyncIterator[str]:
    """A port whose listen queue is full: the TCP handshake never completes (a stalled
    connect)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(4):  # the queue holds backlog + 1; the rest wait in SYN retries
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        fillers.append(sock)
    try:
        yield f"http://127.0.0.1:{port}/bot"
    finally:
        for sock in fillers:
            sock.close()
        listener.close()


class CountingRequest(AiohttpRequest):
    """The transport, counting the requests it was asked to make."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.attempts: list[str] = []

    async def do_request(self, url: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        self.attempts.append(url.rsplit("/", 1)[-1])
        return await super().do_request(url, *args, **kwargs)


def request(**kwargs: Any) -> CountingRequest:
    defaults: dict[str, Any] = {
        "connect_timeout": 0.3,
        "read_timeout": 0.3,
        "write_timeout": 0.3,
        "pool_timeout": 0.3,
    }
    return CountingRequest(kwargs.pop("pool", 4), **{**defaults, **kwargs})


def paced_bot(url: str, req: AiohttpRequest) -> ExtBot[Any]:
    return ExtBot(
        TOKEN,
        base_url=url,
        request=req,
        get_updates_request=AiohttpRequest(1),
        rate_limiter=GroupPacer(max_retries=2),
    )


# --- the transport alone: PTB's errors ------------------------------------------------------


async def test_refused_connection_is_never_sent() -> None:
    req = request()
    await req.initialize()
    try:
        with pytest.raises(NotSent) as caught:
            await req.post(f"{refused_url()}{TOKEN}/getMe")
        assert isinstance(caught.value, NetworkError) and isinstance(caught.value, NEVER_SENT)
        assert TOKEN not in str(caught.value)
    finally:
        await req.shutdown()


async def test_stalled_connect_times_out_never_sent() -> None:
    req = request(connect_timeout=0.2, pool_timeout=0.2)
    await req.initialize()
    try:
        async with full_backlog() as url:
            with pytest.raises(NotSentTimeout) as caught:
                await req.post(f"{url}{TOKEN}/sendMessage", None)
        assert isinstance(caught.value, TimedOut)
    finally:
        await req.shutdown()


async def test_dropped_and_stalled_answers_may_have_been_sent(server: RawServer) -> None:
    server.actions.update(sendMessage="drop", editMessageText="stall")
    req = request()
    async with Bot(TOKEN, base_url=server.url, request=req) as bot:
        with pytest.raises(NetworkError) as dropped:
            await bot.send_message(GROUP, "hi")
        assert not isinstance(dropped.value, NEVER_SENT)
        with pytest.raises(TimedOut) as stalled:
            await bot.edit_message_text("x", chat_id=GROUP, message_id=7)
        assert not isinstance(stalled.value, NEVER_SENT)
        assert server.count("sendMessage") == server.count("editMessageText") == 1


async def test_pool_timeout_is_never_sent(server: RawServer) -> None:
    server.actions["getChat"] = "stall"
    req = request(pool=1, read_timeout=5.0, pool_timeout=0.2)
    async with Bot(TOKEN, base_url=server.url, request=req) as bot:
        hold = asyncio.create_task(bot.get_chat(GROUP))  # takes the only connection
        await server.wait_seen("getChat")
        with pytest.raises(NotSentTimeout):
            await bot.send_message(GROUP, "hi")
        assert server.count("sendMessage") == 0
        hold.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimedOut):
            await hold


async def test_status_codes_and_bodies_pass_through(server: RawServer) -> None:
    acts = server.actions
    req = request()
    async with Bot(TOKEN, base_url=server.url, request=req) as bot:
        acts["sendMessage"] = (
            "answer",
            400,
            {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
        )
        with pytest.raises(BadRequest, match=r"(?i)chat not found"):
            await bot.send_message(GROUP, "hi")
        acts["sendMessage"] = (
            "answer",
            429,
            {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests",
                "parameters": {"retry_after": 3},
            },
        )
        with pytest.raises(RetryAfter) as limited:
            await bot.send_message(GROUP, "hi")
        assert limited.value.retry_after.total_seconds() == 3  # type: ignore[union-attr]
        acts["sendMessage"] = (
            "answer",
            400,
            {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded",
                "parameters": {"migrate_to_chat_id": -100777},
            },
        )
        with pytest.raises(ChatMigrated):
            await bot.send_message(GROUP, "hi")
        acts["sendMessage"] = ("answer", 502, b"<html>Bad Gateway</html>")
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(GROUP, "hi")
        acts["sendMessage"] = ok(MESSAGE)
        sent = await bot.send_message(GROUP, "héllo & <b>", reply_markup=None)
        assert sent.message_id == 7
        sent_as = server.seen[-1]  # parameters go as a JSON body (Telegram takes JSON or forms)
        assert sent_as.headers["content-type"] == "application/json"
        assert json.loads(sent_as.body) == {"chat_id": GROUP, "text": "héllo & <b>"}
        assert sent_as.headers["user-agent"].startswith("python-telegram-bot")


async def test_uploads_are_multipart(fake_tg: FakeTelegram) -> None:
    """A document (as /export sends it) reaches the fake Bot API whole."""
    grp = fake_tg.add_group(-1001, "Study")
    data = ("id,name\n" + "\n".join(f"{i},Student {i}" for i in range(5000))).encode()
    async with Bot(TOKEN, base_url=fake_tg.base_url, request=AiohttpRequest(2)) as bot:
        message = await bot.send_document(
            grp.id, InputFile(data, filename="export.csv"), caption="ফলাফল"
        )
    assert message.document is not None and message.document.file_name == "export.csv"
    call = fake_tg.calls_to("sendDocument")[-1]
    assert call.status == 200 and call.files["document"] == ("export.csv", len(data))
    assert call.params["caption"] == "ফলাফল"


# --- through the pacer: what is retried ----------------------------------------------------


async def test_pacer_retries_what_never_reached_telegram() -> None:
    req = request()
    bot = paced_bot(refused_url(), req)  # not initialized: getMe would be refused too
    with pytest.raises(NotSent):
        await bot.send_message(GROUP, "question")
    await req.shutdown()
    assert req.attempts.count("sendMessage") == 3  # the first try and max_retries=2 more


async def test_pacer_never_repeats_a_send_that_may_have_arrived(server: RawServer) -> None:
    acts = server.actions
    acts.update(sendMessage="drop", editMessageText="drop", answerCallbackQuery="stall")
    req = request()
    async with paced_bot(server.url, req) as bot:
        with pytest.raises(NetworkError):
            await bot.send_message(GROUP, "question")
        assert server.count("sendMessage") == 1  # never posted twice
        with pytest.raises(TimedOut):
            await bot.answer_callback_query("q1", "✅")
        assert server.count("answerCallbackQuery") == 1
        with pytest.raises(NetworkError):  # an edit is idempotent: tried 1 + 2 times
            await bot.edit_message_text("reveal", chat_id=GROUP, message_id=7)
        assert server.count("editMessageText") == 3
        acts["editMessageText"] = "stall"
        with pytest.raises(TimedOut):
            await bot.edit_message_text("reveal", chat_id=GROUP, message_id=7)
        assert server.count("editMessageText") == 6


async def test_pacer_retries_a_send_stuck_in_the_pool(server: RawServer) -> None:
    """With every connection busy, a send times out before it is written: it is retried and
    goes out once a connection is free."""
    server.actions["getChat"] = "stall"
    req = request(pool=1, connect_timeout=0.05, pool_timeout=0.15)
    async with paced_bot(server.url, req) as bot:
        hold = asyncio.create_task(req.post(f"{server.url}{TOKEN}/getChat", read_timeout=0.4))
        await server.wait_seen("getChat")
        sent = await bot.send_message(GROUP, "question")  # pool timeout, then retried
        assert sent.message_id == 7
        assert req.attempts.count("sendMessage") >= 2
        assert server.count("sendMessage") == 1
        with contextlib.suppress(TimedOut):
            await hold


# --- answers, straight to the transport (bot/tg/answering.py) ------------------------------------


async def test_answers_go_as_json_with_ptbs_errors(server: RawServer) -> None:
    """The answer's parameters as ``query.answer`` sends them; Telegram's refusal is PTB's
    BadRequest."""
    req = request()
    answers = Answers(f"{server.url}{TOKEN}", req, GroupPacer(max_retries=2))
    await answers.answer("q1", "✅ Right: <b> & more", True)
    await answers.answer("q2", None, True)  # nothing to show: no text, no alert
    await answers.answer("q3", "toast", False)
    bodies = [json.loads(s.body) for s in server.seen if s.method == "answerCallbackQuery"]
    assert bodies == [
        {"callback_query_id": "q1", "text": "✅ Right: <b> & more", "show_alert": True},
        {"callback_query_id": "q2"},
        {"callback_query_id": "q3", "text": "toast"},
    ]
    assert server.seen[-1].headers["content-type"] == "application/json"
    server.actions["answerCallbackQuery"] = (
        "answer",
        400,
        {"ok": False, "error_code": 400, "description": "Bad Request: query is too old"},
    )
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await answers.answer("q4", "late", True)
    await req.shutdown()


async def test_answers_follow_the_pacers_retry_rules(server: RawServer) -> None:
    """Retried when it surely never left; once only when it may have reached Telegram."""
    req = request()
    with pytest.raises(NotSent):
        await Answers(refused_url(), req, GroupPacer(max_retries=2)).answer("q", "x", True)
    assert req.attempts.count("answerCallbackQuery") == 3
    server.actions["answerCallbackQuery"] = "stall"
    with pytest.raises(TimedOut):
        await Answers(f"{server.url}{TOKEN}", req, GroupPacer(max_retries=2)).answer("q", "x", True)
    assert server.count("answerCallbackQuery") == 1
    await req.shutdown()


async def test_answers_decode_like_ptb(server: RawServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """orjson decodes; a body that is not valid UTF-8 is read as PTB reads it (replaced)."""
    decoded: list[bytes] = []
    orjson_loads = orjson.loads

    def spy(payload: bytes) -> Any:
        decoded.append(payload)
        return orjson_loads(payload)

    monkeypatch.setattr(orjson, "loads", spy)  # the transport looks it up at each call
    server.actions["getChat"] = ("answer", 200, b'{"ok": true, "result": {"t": "caf\xe9"}}')
    req = request()
    assert await req.post(f"{server.url}{TOKEN}/getChat") == {"t": "caf\ufffd"}
    server.actions["getChat"] = ok({"t": "ক্যুইজ", "n": [1, 2.5, None, True]})
    assert await req.post(f"{server.url}{TOKEN}/getChat") == {
        "t": "ক্যুইজ",
        "n": [1, 2.5, None, True],
    }
    assert len(decoded) == 2  # both answers went through orjson first
    await req.shutdown()
