"""The bot's HTTP transport: a ``telegram.request.BaseRequest`` on an aiohttp client session.

PTB's default transport (httpx) spends several times more CPU per request than aiohttp on
the same machine (bench/README.md); every Bot API call of the bot goes through this class
instead: getUpdates (an instance of its own), answers, sends, edits and uploads.

Errors are PTB's, so the rest of the bot sees no difference, with one refinement the pacer
relies on: a request that surely never reached Telegram raises :class:`NotSent` (the
connection could not be made) or :class:`NotSentTimeout` (no connection within the connect
or pool timeout). Any other failure (dropped connection, no answer in time) may have happened
after Telegram carried the request out: plain ``NetworkError`` or ``TimedOut``. HTTP status
codes and bodies are handed back as they came; ``BaseRequest.post`` turns them into PTB's
errors.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import aiohttp
import orjson
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.tg.ptb_internals import RequestParameter  # PTB's, not re-exported

log = logging.getLogger(__name__)

_JSON: Final = {"Content-Type": "application/json"}


class NotSent(NetworkError):
    """The connection to Telegram failed before the request was sent: safe to repeat."""


class NotSentTimeout(TimedOut):
    """No connection within the connect/pool timeout; the request was not sent: safe to
    repeat."""


#: errors after which the request surely did not reach Telegram
NEVER_SENT: Final = (NotSent, NotSentTimeout)


def _given(value: Any, default: float | None) -> float | None:
    return default if isinstance(value, type(BaseRequest.DEFAULT_NONE)) else value


class AiohttpRequest(BaseRequest):
    """A pool of up to ``connection_pool_size`` keep-alive connections to the Bot API.

    Timeouts keep PTB's meaning: ``connect_timeout`` for opening a connection,
    ``pool_timeout`` for waiting for a free one (together they bound the time before the
    request is written), ``read_timeout`` between bytes of the answer. An upload is also
    bounded as a whole by the sum of all four (with ``media_write_timeout`` for
    ``write_timeout``); a small form goes into the socket buffer at once, and each timer
    costs CPU on every call.
    """

    __slots__ = (
        "_connect",
        "_media_write",
        "_pool",
        "_pool_size",
        "_read",
        "_session",
        "_timeouts",
        "_write",
    )

    def __init__(
        self,
        connection_pool_size: int = 16,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read, self._write = read_timeout, write_timeout
        self._connect, self._pool = connect_timeout, pool_timeout
        self._media_write = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._timeouts: dict[tuple[float | bool | None, ...], aiohttp.ClientTimeout] = {}

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        """Decode a Bot API answer (with orjson: a getUpdates answer of a hundred taps decodes
        in a fraction of the standard library's time)."""
        try:
            decoded: dict[str, Any] = orjson.loads(payload)
        except orjson.JSONDecodeError:  # invalid UTF-8 replaced, or PTB's error: as PTB does
            return BaseRequest.parse_json_payload(payload)
        return decoded

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (PTB adds the long-polling timeout to it for getUpdates)."""
        return self._read

    async def initialize(self) -> None:
        """Open the session (again, after a shutdown)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self._pool_size, limit_per_host=0, keepalive_timeout=30.0
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                headers={"User-Agent": self.USER_AGENT},
                skip_auto_headers=("Accept-Encoding",),
                raise_for_status=False,
                cookie_jar=aiohttp.DummyCookieJar(),
            )  # the Bot API sets none

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

    def _timeout(
        self,
        read: float | None,
        write: float | None,
        connect: float | None,
        pool: float | None,
        files: bool,
    ) -> aiohttp.ClientTimeout:
        key = (read, write, connect, pool, files)
        found = self._timeouts.get(key)
        if found is None:
            before_sending = None if connect is None or pool is None else connect + pool
            parts = (before_sending, read, write)
            total = None
            if files and None not in parts:
                total = sum(p for p in parts if p is not None)
            found = aiohttp.ClientTimeout(
                total=total, connect=before_sending, sock_connect=connect, sock_read=read
            )
            if len(self._timeouts) < 64:
                self._timeouts[key] = found
        return found

    async def fetch(self, url: str, limit: int) -> bytes | None:
        """GET ``url`` (a file of the Bot API's file endpoint); None as soon as more than
        ``limit`` bytes came, so a huge file is never read whole. PTB's errors: TimedOut,
        NetworkError, and NetworkError for an HTTP error status."""
        if self._session is None or self._session.closed:
            await self.initialize()
        assert self._session is not None
        timeout = self._timeout(self._read, self._write, self._connect, self._pool, False)
        body = bytearray()
        try:
            async with self._session.get(url, timeout=timeout) as response:
                if response.status != 200:
                    raise NetworkError(f"download failed: HTTP {response.status}")
                if (response.content_length or 0) > limit:
                    return None
                async for chunk in response.content.iter_chunked(64 * 1024):
                    body += chunk
                    if len(body) > limit:
                        return None  # leaving the block closes the connection mid-body
        except TimeoutError as exc:
            raise TimedOut("Timed out downloading a file") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise NetworkError(f"aiohttp.{exc.__class__.__name__}: {exc}") from exc
        return bytes(body)

    async def post_json(self, url: str, parameters: dict[str, Any]) -> Any:
        """``post`` with ``parameters`` already JSON values (no files, no PTB objects to
        convert): PTB's errors, as ``post`` raises them."""
        data = RequestData(
            [RequestParameter(key, value, None) for key, value in parameters.items()]
        )
        return await self.post(url, request_data=data)

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Send one request; return the HTTP status and the body as they came."""
        if self._session is None or self._session.closed:
            await self.initialize()
        assert self._session is not None
        files = request_data is not None and request_data.contains_files
        timeout = self._timeout(
            _given(read_timeout, self._read),
            _given(write_timeout, self._media_write if files else self._write),
            _given(connect_timeout, self._connect),
            _given(pool_timeout, self._pool),
            files,
        )
        body: Any = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if files:
                # quote_fields=False: a file name goes as UTF-8, as Telegram (and httpx, PTB's
                # default) take it; aiohttp would percent-encode a Bengali name, which then shows
                form = aiohttp.FormData(request_data.json_parameters, quote_fields=False)
                for name, (filename, content, mime) in request_data.multipart_data.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                body = form
            elif parameters := request_data.parameters:
                body, headers = orjson.dumps(parameters), _JSON
        try:
            async with self._session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as response:
                payload = await response.read()
                status = response.status
        except aiohttp.ConnectionTimeoutError as exc:
            raise NotSentTimeout(
                "Timed out before sending: no connection to Telegram within the connect/pool "
                "timeout. The request was not sent."
            ) from exc
        except aiohttp.ClientConnectorError as exc:
            raise NotSent(
                f"Could not connect to Telegram, request not sent: "
                f"{exc.os_error.__class__.__name__}"
            ) from exc
        except TimeoutError as exc:
            raise TimedOut("Timed out waiting for Telegram's answer") from exc
        except (aiohttp.ClientError, OSError) as exc:
            raise NetworkError(f"aiohttp.{exc.__class__.__name__}: {exc}") from exc
        if log.isEnabledFor(logging.DEBUG):
            log.debug("HTTP Request: %s %s %s", method, url, status)
        return status, payload
