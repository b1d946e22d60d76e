"""The fake Bot API HTTP server (aiohttp) on 127.0.0.1, plus waits and fault injection."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
from aiohttp import web

from .api import BotApi, Files, _as_bool, _as_int
from .faults import Fault, FaultPlan
from .models import (
    ANY,
    BOT_ID,
    BOT_USERNAME,
    JSON,
    AnyType,
    ApiError,
    Call,
    CallbackAnswer,
    Chat,
    StoredMessage,
    bad_request,
)
from .spec import check_call
from .world import World

__all__ = ["FakeTelegram", "WebhookDelivery"]

T = TypeVar("T")

_SERVER_METHODS = ("getUpdates", "setWebhook", "deleteWebhook", "getWebhookInfo")
#: Form fields that are plain strings (PTB sends every non-str value JSON-encoded).
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "url",
        "secret_token",
        "language_code",
        "inline_message_id",
        "document",
        "photo",
        "custom_title",
        "title",
        "name",
        "description",
        "short_description",
        "message_effect_id",
        "action",
        "business_connection_id",
        "ip_address",
        "emoji",
        "query_id",
        "certificate",
    }
)
_DEFAULT_EXCLUDED = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")


@dataclass
class WebhookDelivery:
    at: float
    update_id: int
    status: int  # 0 = connection error
    error: str | None = None


def _decode_form_value(name: str, value: str) -> Any:
    if name in _STRING_PARAMS:
        return value
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    return value if isinstance(decoded, str) else decoded


class FakeTelegram(World):
    """A fake Telegram Bot API server. See the package docstring for the full API."""

    def __init__(
        self,
        *,
        window: float = 60.0,
        group_limit: int = 20,
        enforce_limit: bool = False,
        token: str | None = None,
        bot_id: int = BOT_ID,
        bot_username: str = BOT_USERNAME,
        bot_name: str = "Quiz Bot",
        webhook_retry_delay: float = 0.2,
        overall_limit: int | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """``overall_limit=30`` enforces Telegram's per-bot sends+edits per second (see
        limits.py); ``clock`` replaces the monotonic clock behind every window and timestamp."""
        super().__init__(
            window=window,
            group_limit=group_limit,
            enforce_limit=enforce_limit,
            bot_id=bot_id,
            bot_username=bot_username,
            bot_name=bot_name,
            overall_limit=overall_limit,
            clock=clock,
        )
        self.required_token = token
        self.tokens_seen: list[str] = []
        self.api = BotApi(self)
        self.faults = FaultPlan()
        self.allowed_updates: list[str] | None = None
        self.webhook_url: str | None = None
        self.webhook_secret: str | None = None
        self.webhook_last_error: str | None = None
        self.webhook_last_error_date = 0
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_retry_delay = webhook_retry_delay
        self.port = 0
        self._waiters: set[asyncio.Future[None]] = set()
        self._wake = asyncio.Event()
        self._poll_generation = 0
        #: number of getUpdates requests currently held open (long polling)
        self.pollers_waiting = 0
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._webhook_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        """What to pass to ``ApplicationBuilder().base_url(...)`` / ``Bot(base_url=...)``."""
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self) -> FakeTelegram:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._stopping = False
        return self

    async def stop(self) -> None:
        self._stopping = True
        self._trigger_pollers()
        await self._stop_webhook_sender()
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ hooks
    def _changed(self) -> None:
        for fut in self._waiters:
            if not fut.done():
                fut.set_result(None)

    def _update_queued(self) -> None:
        self._trigger_pollers()

    def _trigger_pollers(self) -> None:
        old, self._wake = self._wake, asyncio.Event()
        old.set()

    # ------------------------------------------------------------ test API
    def fail(
        self,
        method: str,
        *,
        times: int = 1,
        error_code: int | None = None,
        description: str | None = None,
        retry_after: int | None = None,
        drop_connection: bool = False,
        delay: float | None = None,
        delay_then_process: bool = True,
        migrate_to_chat_id: int | None = None,
        perform: bool = False,
        match: Callable[[JSON], bool] = lambda params: True,
    ) -> Fault:
        """Script the next ``times`` matching calls of ``method`` ("*" = any method).

        * default: an error answer (``error_code`` default 429 / ``description``; 429 gets
          ``retry_after``, default 1; ``migrate_to_chat_id`` gives a ChatMigrated answer).
        * ``drop_connection=True``: the connection is closed without an answer (PTB raises
          NetworkError); with ``perform=True`` the call is carried out first (ambiguous outcome).
        * ``delay=s`` alone: a normal answer after ``s`` seconds; the call is performed after the
          delay (``delay_then_process=True``) or before it (``False``). Either way it is performed
          even if the client gave up. Combined with an error/drop, the delay comes first.
        """
        is_delay_only = (
            delay is not None
            and not drop_connection
            and error_code is None
            and (retry_after is None and description is None and migrate_to_chat_id is None)
        )
        if error_code is None:
            error_code = 200 if is_delay_only else 429
        fault = Fault(
            method=method,
            times=times,
            error_code=error_code,
            description=description,
            retry_after=retry_after,
            drop_connection=drop_connection,
            delay=delay,
            delay_then_process=delay_then_process,
            migrate_to_chat_id=migrate_to_chat_id,
            perform=perform,
            match=match,
        )
        return self.faults.add(fault)

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 10.0,  # noqa: ASYNC109
        what: str | None = None,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked after every API call, queued update and state change; never sleeps blindly.
        Raises TimeoutError with the last calls and the pending updates.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                label = what or getattr(predicate, "__name__", "condition")
                raise TimeoutError(f"fakebot: {label} not met within {timeout}s\n{self.describe()}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait_for(fut, remaining)
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(fut)

    async def wait_answered(
        self,
        query_id: str,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> CallbackAnswer:
        """Wait until the bot answered callback query ``query_id``."""
        return await self.wait_for(
            lambda: self.answer_for(query_id), timeout, what=f"answer to callback {query_id}"
        )

    async def wait_for_message(
        self,
        chat: Chat | int,
        contains: str,
        thread_id: int | AnyType | None = ANY,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> StoredMessage:
        """Wait until the bot has a (not deleted) message in ``chat`` containing ``contains``."""
        return await self.wait_for(
            lambda: self.find_message(chat, contains, thread_id),
            timeout,
            what=f"bot message containing {contains!r} in chat {chat}",
        )

    async def wait_consumed(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until every queued update was confirmed (polling) or accepted (webhook)."""
        await self.wait_for(self.all_updates_consumed, timeout, what="all updates consumed")

    async def post_update_raw(
        self, update: JSON, secret: str | None = None, *, url: str | None = None
    ) -> int:
        """POST one update to the webhook URL (or ``url``) with the given secret header (none if
        ``secret`` is None); return the HTTP status. The update is not queued."""
        target = url or self.webhook_url
        if not target:
            raise RuntimeError("no webhook url set (call setWebhook or pass url=)")
        if "update_id" not in update:
            update = {"update_id": self.next_update_id, **update}
            self.next_update_id += 1
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
        async with self._client().post(target, json=update, headers=headers) as resp:
            await resp.read()
            return resp.status

    async def webhook_reply(self, content_type: str, body: bytes) -> None:
        """Carry out the method a bot may put in its answer to a webhook request, as Telegram
        does (its result is not reported back; a malformed one is ignored)."""
        if content_type != "application/json" or not body:
            return
        try:
            payload = json.loads(body)
        except ValueError:
            return
        if not isinstance(payload, dict) or not isinstance(payload.get("method"), str):
            return
        params = {k: v for k, v in payload.items() if k != "method"}
        call = Call(
            at=self.now(),
            method=str(payload["method"]),
            params=params,
            status=0,
            token=self.required_token or "",
            in_webhook_reply=True,
        )
        method = self._canonical(call.method)
        if method is None or method in _SERVER_METHODS:
            self._respond(call, ApiError(404, "Not Found"))
            return
        call.method = method
        try:
            self.overall.admit(method, params, call.at)
        except ApiError as exc:
            self._respond(call, exc)
            return
        self._respond(call, await self._execute(method, params, {}))

    # ------------------------------------------------------------ HTTP
    async def _read_params(self, request: web.Request) -> tuple[JSON, Files]:
        params: JSON = {k: _decode_form_value(k, v) for k, v in request.query.items()}
        files: Files = {}
        if not request.can_read_body:
            return params, files
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON object") from None
            if not isinstance(body, dict):
                raise bad_request("can't parse JSON object")
            params.update(body)
        elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    with value.file as handle:
                        files[key] = (value.filename, handle.read(), value.content_type)
                else:
                    params[key] = _decode_form_value(key, str(value))
        return params, files

    def _record(self, call: Call) -> None:
        self.calls.append(call)
        self._changed()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        name = request.match_info["method"]
        self.tokens_seen.append(token)
        call = Call(at=self.now(), method=name, params={}, status=0, token=token)
        if self.required_token is not None and token != self.required_token:
            return self._respond(call, ApiError(401, "Unauthorized"))
        try:
            call.params, files = await self._read_params(request)
        except ApiError as exc:
            return self._respond(call, exc)
        call.files = {key: (f[0], len(f[1])) for key, f in files.items()}
        method = self._canonical(name)
        if method is None:
            return self._respond(call, ApiError(404, "Not Found"))
        call.method = method
        try:
            self.overall.admit(method, call.params, call.at)
        except ApiError as exc:
            return self._respond(call, exc)
        fault = self.faults.take(method, call.params)
        if fault is None:
            return self._respond(call, await self._execute(method, call.params, files))
        call.fault = fault.kind
        if fault.delay is not None and (fault.delay_then_process or fault.kind != "delay"):
            await asyncio.sleep(fault.delay)
        if fault.kind == "delay":
            outcome = await self._execute(method, call.params, files)
            if not fault.delay_then_process:
                await asyncio.sleep(fault.delay or 0)
            return self._respond(call, outcome)
        if fault.perform:
            call.result = await self._execute(method, call.params, files)
        if fault.kind == "drop":
            call.status = 0
            call.description = "connection dropped"
            self._record(call)
            transport = request.transport
            if transport is not None:
                transport.abort()
            raise asyncio.CancelledError  # aiohttp closes the dead connection quietly
        return self._respond(call, fault.error())

    async def _download(self, request: web.Request) -> web.StreamResponse:
        """A file of a user's document, as ``getFile`` named it."""
        token = request.match_info["token"]
        self.tokens_seen.append(token)
        if self.required_token is not None and token != self.required_token:
            return web.json_response(ApiError(401, "Unauthorized").payload(), status=401)
        stored = self.files.by_path.get(request.match_info["path"])
        if stored is None:
            return web.json_response(ApiError(404, "Not Found").payload(), status=404)
        self.files.downloads.append(stored.file_path)
        self._changed()
        # streamed in pieces, as Telegram's file server does: a client that stops reading
        # (a bot refusing a file over its limit) leaves the download unfinished
        response = web.StreamResponse(headers={"Content-Type": "application/octet-stream"})
        if stored.size_known:
            response.content_length = len(stored.data)
        await response.prepare(request)
        piece = 64 * 1024
        try:
            for start in range(0, len(stored.data), piece):
                await response.write(stored.data[start : start + piece])
            await response.write_eof()
        except (ConnectionError, RuntimeError):  # the client closed the connection
            self.files.unfinished.append(stored.file_path)
            self._changed()
            return response
        self.files.finished.append(stored.file_path)
        self._changed()
        return response

    def _canonical(self, name: str) -> str | None:
        lowered = name.lower()
        for method in (*self.api.handlers, *_SERVER_METHODS):
            if method.lower() == lowered:
                return method
        return None

    async def _execute(self, method: str, params: JSON, files: Files) -> Any:
        try:
            check_call(method, params, set(files))
            if method == "getUpdates":
                return await self._get_updates(params)
            if method == "setWebhook":
                return await self._set_webhook(params)
            if method == "deleteWebhook":
                return await self._delete_webhook(params)
            if method == "getWebhookInfo":
                return self._webhook_info()
            return self.api.handlers[method](params, files)
        except ApiError as exc:
            return exc

    def _respond(self, call: Call, outcome: Any) -> web.Response:
        if isinstance(outcome, ApiError):
            call.status = outcome.error_code
            call.description = outcome.description
            call.detail = outcome.detail
            body: JSON = outcome.payload()
        else:
            call.status = 200
            call.result = outcome
            body = {"ok": True, "result": outcome}
        self._record(call)
        return web.json_response(body, status=call.status)

    # ------------------------------------------------------------ polling
    def _allowed(self, kind: str) -> bool:
        if self.allowed_updates:
            return kind in self.allowed_updates
        return kind not in _DEFAULT_EXCLUDED

    async def _get_updates(self, params: JSON) -> list[JSON]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = _as_int(params, "offset", required=False)
        limit = min(max(_as_int(params, "limit", required=False) or 100, 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self.allowed_updates = [str(a) for a in allowed]
        self._poll_generation += 1
        generation = self._poll_generation
        self._trigger_pollers()  # an older long poll is terminated with 409
        if offset:
            if offset > 0:
                self.updates = [u for u in self.updates if u.update_id >= offset]
            else:
                self.updates = self.updates[offset:]
            self._changed()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            dropped = [u for u in self.updates if not self._allowed(u.kind)]
            if dropped:
                self.updates = [u for u in self.updates if self._allowed(u.kind)]
            batch = self.updates[:limit]
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self._stopping:
                break
            if self.webhook_url:
                raise ApiError(409, "Conflict: terminated by setWebhook request")
            wake = self._wake
            self.pollers_waiting += 1
            self._changed()
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), remaining)
            finally:
                self.pollers_waiting -= 1
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one "
                    "bot instance is running",
                )
        for item in batch:
            item.delivered = True
        return [item.data for item in batch]

    # ------------------------------------------------------------ webhook
    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        return self._session

    async def _set_webhook(self, params: JSON) -> bool:
        url = params.get("url") or ""
        if not url:
            return await self._delete_webhook(params)
        if not str(url).startswith(("http://", "https://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET_RE.fullmatch(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self.allowed_updates = [str(a) for a in allowed]
        if _as_bool(params.get("drop_pending_updates")):
            self.updates.clear()
        await self._stop_webhook_sender()
        self.webhook_url = str(url)
        self.webhook_secret = None if secret is None else str(secret)
        self._webhook_task = asyncio.get_running_loop().create_task(self._webhook_loop())
        self._trigger_pollers()  # a pending long poll now gets the 409 on its next call
        return True

    async def _delete_webhook(self, params: JSON) -> bool:
        if _as_bool(params.get("drop_pending_updates")):
            self.updates.clear()
        await self._stop_webhook_sender()
        self.webhook_url = None
        self.webhook_secret = None
        return True

    async def _stop_webhook_sender(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _webhook_info(self) -> JSON:
        info: JSON = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates),
        }
        if self.webhook_url:
            info["max_connections"] = 40
        if self.allowed_updates:
            info["allowed_updates"] = list(self.allowed_updates)
        if self.webhook_last_error:
            info["last_error_date"] = self.webhook_last_error_date
            info["last_error_message"] = self.webhook_last_error
        return info

    async def _webhook_loop(self) -> None:
        session = self._client()
        while self.webhook_url and not self._stopping:
            self.updates = [u for u in self.updates if self._allowed(u.kind)]
            if not self.updates:
                await self._wake.wait()
                continue
            item = self.updates[0]
            headers = {}
            if self.webhook_secret is not None:
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
            error: str | None = None
            try:
                async with session.post(self.webhook_url, json=item.data, headers=headers) as resp:
                    body = await resp.read()
                    status = resp.status
                if 200 <= status < 300:
                    await self.webhook_reply(resp.content_type, body)
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                status, error = 0, f"Connection error: {exc!r}"
            self.webhook_deliveries.append(
                WebhookDelivery(self.now(), item.update_id, status, error)
            )
            if 200 <= status < 300:
                item.delivered = True
                if item in self.updates:
                    self.updates.remove(item)
                self.webhook_last_error = None
                self._changed()
                continue
            self.webhook_last_error = error or f"Wrong response from the webhook: {status}"
            self.webhook_last_error_date = int(time.time())
            self._changed()
            await asyncio.sleep(self.webhook_retry_delay)
