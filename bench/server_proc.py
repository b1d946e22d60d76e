"""The fake Bot API server of the benchmark, in its own process.

``python -m bench.server_proc`` starts :class:`BenchTelegram` (the tests' FakeTelegram plus
per-tap timestamps and simulated students) on 127.0.0.1 and a small JSON control endpoint on a
second port, prints ``READY <api_port> <control_port>`` and serves until SIGTERM or ``/ctl/quit``.

Timestamps are ``time.monotonic()`` of this process: a tap is *offered* when a getUpdates response
first hands its update to the bot, and *answered* when the bot's answerCallbackQuery arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).absolute().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))

from fakebot import ApiError, FakeTelegram  # noqa: E402

JSON = dict[str, Any]
ACCEPTED_PREFIXES = ("✅", "❌ Wrong", "🟡")  # English alerts of a stored answer (🟡: partly right)
RESULTS_PREFIX = "🏁"  # the results message that ends a quiz
WEBHOOK_CONNECTIONS = 40  # Telegram's default max_connections for a webhook


class BenchTelegram(FakeTelegram):
    """FakeTelegram that timestamps deliveries and can play a class of students."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.offered: dict[str, float] = {}  # callback query id -> first delivery
        self.tapped: dict[str, float] = {}  # callback query id -> when it was queued
        self.tap_chat: dict[str, int] = {}
        self.students: dict[int, list[int]] = {}  # chat -> student ids (autopilot)
        self.autopilot: JSON | None = None
        self.timeline: list[tuple[float, int, int, int]] = []  # offset, chat, user, option
        self.t0 = self.now()
        self.seen_questions: set[tuple[int, int]] = set()
        self.questions_posted = 0
        self.finished: set[int] = set()  # chats whose quiz posted its results
        self.rng = random.Random(1)
        self.rtt = 0.0  # simulated network round trip of every call but getUpdates
        self.asked: dict[int, float] = {}  # chat -> when a timed command was queued
        self.reply_latency: list[float] = []  # seconds from a timed command to the bot's reply

    # ------------------------------------------------------------------ hooks
    async def _webhook_loop(self) -> None:
        """Push updates as Telegram does: up to ``WEBHOOK_CONNECTIONS`` requests at a time
        (its default ``max_connections``), each update once, retried on failure."""
        session = self._client()
        inflight: set[int] = set()
        slots = asyncio.Semaphore(WEBHOOK_CONNECTIONS)
        tasks: set[asyncio.Task[None]] = set()

        async def push(item: Any) -> None:
            headers = {}
            if self.webhook_secret is not None:
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
            assert self.webhook_url is not None
            try:
                query = item.data.get("callback_query")
                if query is not None:
                    self.offered.setdefault(query["id"], self.now())
                try:
                    async with session.post(
                        self.webhook_url, json=item.data, headers=headers
                    ) as resp:
                        body = await resp.read()
                        ok = 200 <= resp.status < 300
                    if ok:
                        await self.webhook_reply(resp.content_type, body)
                except (OSError, TimeoutError, aiohttp.ClientError):
                    ok = False
                if ok:
                    item.delivered = True
                    if item in self.updates:
                        self.updates.remove(item)
                    self._changed()
                else:
                    await asyncio.sleep(self.webhook_retry_delay)
            finally:
                self._trigger_pollers()  # the loop looks again (a failed one is retried)
                inflight.discard(item.update_id)
                slots.release()

        while self.webhook_url and not self._stopping:
            waiting = [u for u in self.updates if u.update_id not in inflight]
            if not waiting:
                await self._wake.wait()
                continue
            for item in waiting:
                await slots.acquire()
                inflight.add(item.update_id)
                task = asyncio.create_task(push(item))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

    async def _get_updates(self, params: JSON) -> list[JSON]:
        batch = await super()._get_updates(params)
        now = self.now()
        for data in batch:
            query = data.get("callback_query")
            if query is not None:
                self.offered.setdefault(query["id"], now)
        return batch

    async def _execute(self, method: str, params: JSON, files: Any) -> Any:
        if self.rtt and method != "getUpdates":
            await asyncio.sleep(self.rtt / 2)  # the request travelling to Telegram
        outcome = await super()._execute(method, params, files)
        if self.rtt and method != "getUpdates":
            await asyncio.sleep(self.rtt / 2)  # the response travelling back
        if method == "sendMessage" and not isinstance(outcome, ApiError):
            asked = self.asked.pop(int(outcome["chat"]["id"]), None)
            if asked is not None:
                self.reply_latency.append(self.now() - asked)
        if (
            self.autopilot is not None
            and method in ("sendMessage", "sendRichMessage")
            and not isinstance(outcome, ApiError)
        ):
            self._on_bot_message(outcome)
        return outcome

    def _on_bot_message(self, message: JSON) -> None:
        """A question went out in an autopiloted group: each student taps once, at random."""
        assert self.autopilot is not None
        chat_id = int(message["chat"]["id"])
        if str(message.get("text", "")).startswith(RESULTS_PREFIX):
            self.finished.add(chat_id)
        students = self.students.get(chat_id)
        rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
        data = [b.get("callback_data") for row in rows for b in row]
        answers = [d for d in data if isinstance(d, str) and d.startswith("a:")]
        if not students or not answers:
            return
        self.questions_posted += 1
        lo, hi = self.autopilot["answer_window"]
        loop = asyncio.get_running_loop()
        mid = int(message["message_id"])
        for user_id in students:
            option = self.rng.randrange(len(answers))
            delay = self.rng.uniform(lo, hi)
            loop.call_later(delay, self._auto_tap, chat_id, user_id, mid, answers[option], option)

    def _auto_tap(self, chat_id: int, user_id: int, mid: int, data: str, option: int) -> None:
        self.timeline.append((self.now() - self.t0, chat_id, user_id, option))
        self._tap(chat_id, user_id, mid, data)

    def _tap(self, chat_id: int, user_id: int, mid: int, data: str) -> None:
        qid = self.tap(chat_id, user_id, mid, data)
        self.tapped[qid] = self.now()
        self.tap_chat[qid] = chat_id

    # ------------------------------------------------------------------ control
    def setup(self, body: JSON) -> JSON:
        for group in body["groups"]:
            chat_id = int(group["chat_id"])
            creator = self.add_user(int(group["creator"]), "Teacher", username=None)
            members = [
                self.add_user(int(uid), f"Student {uid}", f"S{uid % 97}", username=f"s{uid}")
                for uid in group["students"]
            ]
            self.add_group(
                chat_id,
                group.get("title", f"Group {chat_id}"),
                creator=creator,
                members=members,
                supergroup=True,
            )
            self.students[chat_id] = [int(uid) for uid in group["students"]]
        return {"ok": True}

    def say(self, body: JSON) -> JSON:
        for chat_id, user_id, text in body["messages"]:
            self.user_says(int(chat_id), int(user_id), str(text))
        return {"ok": True}

    def timed_say(self, body: JSON) -> JSON:
        """One command whose reply is timed: from queued to the bot's sendMessage there."""
        chat_id, user_id, text = body["message"]
        self.asked[int(chat_id)] = self.now()
        self.user_says(int(chat_id), int(user_id), str(text))
        return {"ok": True}

    def latencies(self, body: JSON) -> JSON:
        out, self.reply_latency = self.reply_latency, []
        return {"latencies": out}

    def overall_report(self, body: JSON) -> JSON:
        """Many groups under the overall limit: 429s, open time per question, finish times."""
        chats = [int(c) for c in body["chats"]]
        open_times, finish, per_minute = [], {}, []
        for chat_id in chats:
            for m in self.messages(chat_id):
                if m.text.startswith(RESULTS_PREFIX):
                    finish[chat_id] = m.sent_at
                elif "Question" in m.text and m.edits:
                    open_times.append(m.edits[-1].at - m.sent_at)
            per_minute.append(self.max_in_window(chat_id, 60.0))
        return {
            "sends_edits": len(self.overall.arrivals),
            "refused": self.overall.refused,
            "max_per_second": self.overall.max_in_window(),
            "open_times": open_times,
            "finish": {str(k): v for k, v in finish.items()},
            "max_per_group_minute": max(per_minute or [0]),
            # explanations each tapper read alone (ephemeral messages), and the taps answered
            "ephemeral": len(self.ephemeral),
            "taps": len(self.answers),
        }

    def open_question(self, body: JSON) -> JSON:
        """The newest bot message in each chat that still has answer buttons."""
        found: JSON = {}
        for chat_id in body["chats"]:
            for message in reversed(self.messages(int(chat_id))):
                buttons = [
                    d
                    for row in message.buttons
                    for _, d in row
                    if d is not None and d.startswith("a:")
                ]
                if buttons:
                    found[str(chat_id)] = {
                        "message_id": message.message_id,
                        "buttons": buttons,
                        "text": message.text,
                    }
                    break
        return {"open": found}

    def post_static(self, body: JSON) -> JSON:
        """Bot messages with answer-like buttons, posted without the bot (for the baseline)."""
        markup = {
            "inline_keyboard": [
                [{"text": label, "callback_data": data}] for label, data in body["buttons"]
            ]
        }
        posted = {}
        for chat_id in body["chats"]:
            message = self.api.send_message(
                {"chat_id": int(chat_id), "text": body["text"], "reply_markup": markup}, {}
            )
            posted[str(chat_id)] = message["message_id"]
        return {"message_ids": posted}

    def burst(self, body: JSON) -> JSON:
        """Queue ``taps`` [[chat, user, message_id, data]] spread evenly over ``spread`` s."""
        taps = body["taps"]
        batches = max(1, int(body.get("batches", 20)))
        spread = float(body.get("spread", 1.0))
        loop = asyncio.get_running_loop()
        size = -(-len(taps) // batches)
        for i in range(batches):
            chunk = taps[i * size : (i + 1) * size]
            if chunk:
                loop.call_later(spread * i / batches, self._tap_many, chunk)
        return {"ok": True, "taps": len(taps)}

    def _tap_many(self, chunk: list[list[Any]]) -> None:
        for chat_id, user_id, mid, data in chunk:
            self._tap(int(chat_id), int(user_id), int(mid), str(data))

    def start_autopilot(self, body: JSON) -> JSON:
        self.autopilot = {"answer_window": body.get("answer_window", [0.5, 5.0])}
        self.rng = random.Random(int(body.get("seed", 1)))
        self.t0 = self.now()
        return {"ok": True}

    def stop_autopilot(self, body: JSON) -> JSON:
        """No taps for questions posted from now on (taps already scheduled still happen)."""
        self.autopilot = None
        return {"ok": True}

    def replay(self, body: JSON) -> JSON:
        """Replay a recorded autopilot timeline onto static messages (baseline load)."""
        loop = asyncio.get_running_loop()
        targets: dict[str, Any] = body["targets"]  # chat -> [message_id, [data...]]
        for offset, chat_id, user_id, option in body["timeline"]:
            mid, datas = targets[str(chat_id)]
            loop.call_later(
                float(offset),
                self._tap,
                int(chat_id),
                int(user_id),
                int(mid),
                datas[int(option) % len(datas)],
            )
        return {"ok": True}

    def progress(self, body: JSON) -> JSON:
        answered = sum(1 for qid in self.tapped if self._answered_at(qid) is not None)
        return {
            "tapped": len(self.tapped),
            "answered": answered,
            "pollers": self.pollers_waiting,
            "webhook": bool(self.webhook_url),
            "questions": self.questions_posted,
            "finished": len(self.finished),
            "get_updates": sum(1 for c in self.calls[-50:] if c.method == "getUpdates"),
            "calls": len(self.calls),
            "awaiting_replies": len(self.asked),
        }

    def _answered_at(self, qid: str) -> float | None:
        query = self.queries.get(qid)
        return query.answer.at if query is not None and query.answer is not None else None

    def report(self, body: JSON) -> JSON:
        """Every tap: queued, offered, answered times; whether the alert says it was stored."""
        taps = []
        for qid, tapped in self.tapped.items():
            query = self.queries[qid]
            answer = query.answer
            text = answer.text if answer is not None else None
            taps.append(
                {
                    "chat": self.tap_chat[qid],
                    "user": query.user_id,
                    "tapped": tapped,
                    "offered": self.offered.get(qid),
                    "answered": answer.at if answer is not None else None,
                    "accepted": bool(text and text.startswith(ACCEPTED_PREFIXES)),
                }
            )
        windows = {
            str(chat_id): self.max_in_window(chat_id, float(body.get("window", 60.0)))
            for chat_id in self.students
        }
        traffic = {str(chat_id): len(self.group_traffic(chat_id)) for chat_id in self.students}
        return {
            "taps": taps,
            "max_in_window": windows,
            "traffic": traffic,
            "timeline": self.timeline,
            "questions": self.questions_posted,
        }


async def serve() -> None:
    window = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    overall = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    tg = BenchTelegram(window=window, overall_limit=overall or None)
    tg.rtt = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    await tg.start()
    done = asyncio.Event()
    ops: dict[str, Callable[[JSON], JSON]] = {
        "setup": tg.setup,
        "say": tg.say,
        "open_question": tg.open_question,
        "post_static": tg.post_static,
        "burst": tg.burst,
        "autopilot": tg.start_autopilot,
        "autopilot_off": tg.stop_autopilot,
        "replay": tg.replay,
        "progress": tg.progress,
        "report": tg.report,
        "timed_say": tg.timed_say,
        "latencies": tg.latencies,
        "overall_report": tg.overall_report,
    }

    async def control(request: web.Request) -> web.Response:
        op = request.match_info["op"]
        body = await request.json() if request.can_read_body else {}
        if op == "quit":
            done.set()
            return web.json_response({"ok": True})
        return web.json_response(ops[op](body))

    ctl = web.Application(client_max_size=256 * 1024 * 1024)
    ctl.router.add_post("/ctl/{op}", control)
    runner = web.AppRunner(ctl, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    ctl_port = int(runner.addresses[0][1])
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, done.set)
    print(f"READY {tg.port} {ctl_port}", flush=True)
    await done.wait()
    with contextlib.suppress(Exception):
        await tg.stop()
    await runner.cleanup()


def main() -> None:
    asyncio.run(serve())


if __name__ == "__main__":
    main()
