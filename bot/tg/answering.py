"""Answering callback queries: a tap's one Bot API call, sent straight to the transport.

Every tap costs one ``answerCallbackQuery``. PTB's way to it (``CallbackQuery.answer``, then
``ExtBot``, ``Bot``, the rate limiter and ``RequestData``) took an eighth of the bot's main
thread in a burst (bench/README.md). :class:`Answers` sends the same request, with the same
parameters, through the same transport, with PTB's errors (``BaseRequest.post`` maps them) and
the pacer's retry rules, as a JSON body built in one call.
"""

from __future__ import annotations

from typing import Any

from bot.tg.pacing import GroupPacer
from bot.tg.transport import AiohttpRequest

METHOD = "answerCallbackQuery"


class Answers:
    """Answers callback queries through ``request``, the bot's transport for Bot API calls."""

    __slots__ = ("_pacer", "_request", "_url")

    def __init__(self, base_url: str, request: AiohttpRequest, pacer: GroupPacer) -> None:
        self._url = f"{base_url}/{METHOD}"
        self._request, self._pacer = request, pacer

    async def answer(self, query_id: str, text: str | None, show_alert: bool) -> None:
        """Answer the query (:func:`parameters`). Raises PTB's ``TelegramError`` as
        ``query.answer`` would."""
        params = parameters(query_id, text, show_alert)
        await self._pacer.unthrottled(METHOD, lambda: self._request.post_json(self._url, params))


def parameters(query_id: str, text: str | None, show_alert: bool) -> dict[str, Any]:
    """The answer's parameters, sent by :class:`Answers` or in a webhook reply: ``text`` as a
    toast, or as an alert (``show_alert``); nothing shown when ``text`` is empty."""
    params: dict[str, Any] = {"callback_query_id": query_id}
    if text:
        params["text"] = text
        if show_alert:
            params["show_alert"] = True
    return params
