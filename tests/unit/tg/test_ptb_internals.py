"""The fence around PTB's and APScheduler's internals (bot/tg/ptb_internals.py), and its contract.

* Nothing else in ``bot/`` imports ``telegram._*`` or ``apscheduler``.
* On the PTB version the lock file pins, what the bot relies on holds: the update fast path
  (bot/tg/updates.py) decodes taps into objects equal, field by field and type by type, to PTB's
  own ``Update.de_json``; the names taken from private modules behave as the bot uses them.
* The job queue (bot/tg/jobs.py) stops in order on PTB's public API, and job data is typed.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import re
from pathlib import Path
from typing import Any

import pytest
import telegram
from apscheduler.jobstores.base import JobLookupError as APSJobLookupError
from telegram import TelegramObject, Update
from telegram.ext import ApplicationBuilder, CallbackContext, Job, JobQueue
from telegram.request import RequestData

from bot.tg import ptb_internals
from bot.tg.jobs import QuizJobQueue, job_data
from bot.tg.updates import Messages, QuizBot, decode_update

ROOT = Path(__file__).resolve().parents[3]
FENCE = ROOT / "bot" / "tg" / "ptb_internals.py"
_PRIVATE = re.compile(r"^(telegram(\.[A-Za-z0-9_]+)*\._|apscheduler(\.|$))")


# --- the fence -------------------------------------------------------------------------------


def private_imports(source: str) -> list[str]:
    """The modules ``source`` imports from PTB's private modules or APScheduler."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        found += [name for name in names if _PRIVATE.match(name)]
    return found


def test_the_checker_sees_private_imports() -> None:
    assert private_imports("from telegram._utils.types import JSONDict") != []
    assert private_imports("import telegram._message") != []
    assert private_imports("from telegram.request._requestparameter import X") != []
    assert private_imports("from telegram.ext import _jobqueue") != []
    assert private_imports("from apscheduler.jobstores.base import JobLookupError") != []
    assert private_imports("import apscheduler") != []
    assert private_imports("from telegram.ext import JobQueue\nimport telegram") == []
    assert private_imports("from . import _private") == []


def test_only_the_fence_imports_ptb_or_apscheduler_internals() -> None:
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path != FENCE and (found := private_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, f"import these from bot.tg.ptb_internals instead: {offenders}"
    assert private_imports(FENCE.read_text(encoding="utf-8"))  # the fence is where they are


def test_no_type_ignore_in_bot() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore" in line
    ]
    assert found == []


# --- the contract, on the pinned PTB ---------------------------------------------------------


def pinned_ptb() -> str:
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    found = re.search(r"^python-telegram-bot==(\S+)", lock, re.MULTILINE)
    assert found is not None
    return found[1]


def test_the_installed_ptb_is_the_pinned_one() -> None:
    """The contract below was checked on this version: a PTB upgrade runs it again."""
    assert telegram.__version__ == pinned_ptb()


GROUP = -1009876


def message(**extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "message_id": 77,
        "date": 1_700_000_123,
        "chat": {"id": GROUP, "type": "supergroup", "title": "Class 9 <b>", "is_forum": True},
        "from": {"id": 4242, "is_bot": True, "first_name": "Quiz Bot", "username": "quiz_bot"},
        "message_thread_id": 3,
        "is_topic_message": True,
        "text": "প্রশ্ন ১ / ৫\nWhich gas do plants take in?",
        "entities": [
            {"type": "bold", "offset": 0, "length": 11},
            {"type": "text_link", "offset": 12, "length": 5, "url": "https://example.org"},
        ],
        "edit_date": 1_700_000_130,
        "reply_markup": {
            "inline_keyboard": [
                [{"text": label, "callback_data": f"a:run9:0:{i}"}]
                for i, label in enumerate("ABCD")
            ]
        },
    }
    raw.update(extra)
    return raw


def tap(update_id: int, **query: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "id": f"cb{update_id}",
        "from": {
            "id": 9000 + update_id,
            "is_bot": False,
            "first_name": "রহিম",
            "last_name": "Uddin",
            "username": "rahim",
            "language_code": "bn",
            "is_premium": True,
        },
        "message": message(),
        "chat_instance": "-4242",
        "data": "a:run9:0:2",
    }
    raw.update(query)
    return {
        "update_id": update_id,
        "callback_query": {k: v for k, v in raw.items() if v is not ...},
    }


#: taps the fast path builds, and neighbours it must hand to PTB; each must come out as PTB's
SHAPES: dict[str, dict[str, Any]] = {
    "plain tap": tap(1),
    "private chat": tap(2, message=message(chat={"id": 55, "type": "private", "first_name": "R"})),
    "unknown message field": tap(3, message=message(brand_new_field={"x": 1})),
    "unknown user field": tap(4, **{"from": {"id": 5, "is_bot": False, "first_name": "A", "z": 1}}),
    "no data": tap(5, data=...),
    "game": tap(6, data=..., game_short_name="g"),
    "inline message": tap(7, message=..., inline_message_id="im1"),
    "inaccessible message": tap(
        8, message={"chat": {"id": GROUP, "type": "group"}, "date": 0, "message_id": 1}
    ),
    "unknown query field": tap(9, future_field=True),
    "no chat_instance": tap(10, chat_instance=...),
    "reply to a message": tap(11, message=message(reply_to_message=message(message_id=70))),
    "unknown update field": {**tap(12), "future_update_field": {"a": 1}},
}


def assert_same(ours: object, theirs: object, path: str = "update") -> None:
    """Equal type by type and field by field, nested objects, unknown fields and bot included."""
    assert type(ours) is type(theirs), path
    if isinstance(ours, TelegramObject):
        assert isinstance(theirs, TelegramObject)
        assert ours.api_kwargs == theirs.api_kwargs, f"{path}.api_kwargs"
        assert getattr(ours, "_bot", None) is getattr(theirs, "_bot", None), f"{path}: bot"
        slots = {s for cls in type(ours).__mro__ for s in getattr(cls, "__slots__", ())}
        for name in sorted(s for s in slots if not s.startswith("_") and s != "api_kwargs"):
            assert_same(getattr(ours, name), getattr(theirs, name), f"{path}.{name}")
        assert ours.to_dict(recursive=True) == theirs.to_dict(recursive=True), path
    elif isinstance(ours, (tuple, list)):
        assert isinstance(theirs, (tuple, list)) and len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_fast_path_decodes_as_ptb(shape: str) -> None:
    bot = QuizBot("4242:contract-token")
    raw = SHAPES[shape]
    try:
        theirs = Update.de_json(copy.deepcopy(raw), bot)
    except Exception as refused:  # PTB refuses it: so must the fast path, alike
        with pytest.raises(type(refused)):
            decode_update(copy.deepcopy(raw), bot, Messages())
        return
    ours = decode_update(copy.deepcopy(raw), bot, Messages())
    assert_same(ours, theirs)
    again = decode_update(copy.deepcopy(raw), bot, Messages())  # and with the memo warm
    assert_same(again, theirs)


def test_the_comparison_sees_a_difference() -> None:
    """The check above fails when the fast path drifts (here: a field left out)."""
    bot = QuizBot("4242:contract-token")
    raw = SHAPES["plain tap"]
    theirs = Update.de_json(copy.deepcopy(raw), bot)
    drifted = copy.deepcopy(raw)
    del drifted["callback_query"]["from"]["is_premium"]
    with pytest.raises(AssertionError):
        assert_same(decode_update(drifted, bot, Messages()), theirs)


def test_the_private_names_behave_as_used() -> None:
    assert isinstance(ptb_internals.DEFAULT_NONE, ptb_internals.DefaultValue)
    assert ptb_internals.DEFAULT_NONE.value is None
    # bot/tg/transport.py: JSON values become a request's parameters as PTB sends them
    data = RequestData(
        [
            ptb_internals.RequestParameter("chat_id", -5, None),
            ptb_internals.RequestParameter("reply_markup", {"a": [1]}, None),
        ]
    )
    assert data.json_parameters == {"chat_id": "-5", "reply_markup": '{"a": [1]}'}
    assert ptb_internals.JobLookupError is APSJobLookupError


async def test_cancelling_a_job_that_is_going_off() -> None:
    """APScheduler takes a one-off job out of its store as it fires: PTB's schedule_removal
    then raises JobLookupError, which ``remove_job`` takes for done."""
    app = ApplicationBuilder().token("4242:jobs").job_queue(QuizJobQueue()).build()
    queue = app.job_queue
    assert queue is not None
    outcomes: list[str] = []
    done = asyncio.Event()

    async def callback(context: CallbackContext[Any, Any, Any, Any]) -> None:
        assert context.job is not None
        try:
            context.job.schedule_removal()
            outcomes.append("removed")
        except APSJobLookupError:
            outcomes.append("lookup error")
        ptb_internals.remove_job(context.job)  # does not raise
        done.set()

    await queue.start()
    try:
        queue.run_once(callback, 0, name="going-off")
        await asyncio.wait_for(done.wait(), 10)
    finally:
        await queue.stop()
    assert outcomes == ["lookup error"]


# --- the job queue ---------------------------------------------------------------------------


class WatchedQueue(QuizJobQueue):
    """The bot's job queue, telling the test when each job went off (run or skipped)."""

    went_off: asyncio.Queue[str | None]

    @staticmethod
    async def job_callback(job_queue: JobQueue[Any], job: Job[Any]) -> None:
        await QuizJobQueue.job_callback(job_queue, job)
        assert isinstance(job_queue, WatchedQueue)
        job_queue.went_off.put_nowait(job.name)


async def test_the_job_queue_lets_running_jobs_finish_and_starts_no_new_one() -> None:
    queue = WatchedQueue(grace=10)
    queue.went_off = asyncio.Queue()
    app = ApplicationBuilder().token("4242:jobs").job_queue(queue).build()
    assert app.job_queue is queue
    started, release = asyncio.Event(), asyncio.Event()
    ran: list[str] = []

    async def slow(context: CallbackContext[Any, Any, Any, Any]) -> None:
        started.set()
        await release.wait()
        ran.append(job_data(context, str))

    async def late(context: CallbackContext[Any, Any, Any, Any]) -> None:
        ran.append("late")

    await queue.start()
    queue.run_once(slow, 0, data="slow finished", name="slow")
    await asyncio.wait_for(started.wait(), 10)
    draining = asyncio.create_task(queue.drain())
    await asyncio.sleep(0)
    assert queue.draining and not draining.done()  # it waits for the running job
    queue.run_once(late, 0, name="late")
    assert await asyncio.wait_for(queue.went_off.get(), 10) == "late"  # went off, skipped
    assert ran == [] and not draining.done()
    release.set()
    await asyncio.wait_for(draining, 10)
    assert await asyncio.wait_for(queue.went_off.get(), 10) == "slow"
    await queue.stop()
    assert ran == ["slow finished"]


async def test_job_data_is_typed_and_checked() -> None:
    app = ApplicationBuilder().token("4242:jobs").job_queue(QuizJobQueue()).build()
    queue = app.job_queue
    assert queue is not None
    seen: list[object] = []
    done = asyncio.Event()

    async def callback(context: CallbackContext[Any, Any, Any, Any]) -> None:
        seen.append(job_data(context, int))
        try:
            job_data(context, str)
        except TypeError as exc:
            seen.append(str(exc))
        done.set()

    await queue.start()
    try:
        queue.run_once(callback, 0, name="typed", data=41)
        await asyncio.wait_for(done.wait(), 10)
    finally:
        await queue.stop()
    assert seen == [41, "job 'typed' carries int, not str"]
