"""Parsing: hostile files are read in linear time, in a worker process under CPU and
memory limits, and no input makes an importer raise.

Linearity is shown without timing anything: every hostile input of 50 KB and of 200 KB is read
by a worker allowed 5 s of CPU. Read by regexes the 200 KB ones needed minutes to hours (the
quadratic blow-up), so they ran out of CPU and came back Failed; linear reading takes well
under a second for either size, so only a blow-up could miss that limit.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest_asyncio
from hypothesis import given, settings
from hypothesis import strategies as st
from parsekit import hog, hostile, moodle_html, read, spin, where

from bot.banks.importers import aiken, csvsheet, detect_format, gift, import_bytes, moodle, opentdb
from bot.banks.importers.htmltext import html_to_text
from bot.banks.importers.sandbox import Failed, ParsePool


@pytest_asyncio.fixture
async def pool() -> AsyncIterator[ParsePool]:
    workers = ParsePool(1, cpu_seconds=5, memory_bytes=1024 * 1024 * 1024)
    try:
        yield workers
    finally:
        await workers.close()


async def test_hostile_files_are_read_within_a_cpu_limit(pool: ParsePool) -> None:
    for size in (50_000, 200_000):
        for name, data in hostile(size).items():
            done = await pool.run(read, name, data)
            assert not isinstance(done, Failed), (name, size)
            assert done[1] is not None, (name, size)  # each reports a problem
    assert pool.failures == 0


async def test_jobs_run_in_a_limited_worker_which_recovers() -> None:
    pool = ParsePool(1, cpu_seconds=1, memory_bytes=1024 * 1024 * 1024)
    try:
        await _limited_and_recovering(pool)
    finally:
        await pool.close()


async def _limited_and_recovering(pool: ParsePool) -> None:
    found = await pool.run(where)
    assert not isinstance(found, Failed)
    pid, memory, cpu = found
    assert pid != os.getpid()
    assert memory == 1024 * 1024 * 1024 and cpu > 0
    # past its CPU time the worker is ended; the job is a reported failure, the pool recovers
    assert await pool.run(spin) == Failed("too_long")
    assert await pool.run(hog) == Failed("too_long")  # MemoryError under RLIMIT_AS
    assert pool.failures == 2
    after = await pool.run(read, "q.txt", b"Q?\nA. x\nB. y\nANSWER: A\n")
    assert not isinstance(after, Failed) and after[0] == "aiken"


async def test_a_full_pool_says_busy() -> None:
    workers = ParsePool(1, cpu_seconds=1, max_pending=0)
    assert await workers.run(where) == Failed("busy")
    await workers.close()


def test_malformed_input_is_a_reported_problem() -> None:
    sheet = "question,A,B,answer,time\nq,x,y,²,²\nr,x,y,1" + "9" * 5000 + ",1\n"
    report = import_bytes("s.csv", sheet.encode(), quiz_id="s")
    assert [p.key for p in report.problems] == ["imp_csv_answer", "imp_csv_answer"]
    header = "question,A,B,answer " + "9" * 5000 + ",answer\nq,x,y,z,A\n"
    assert import_bytes("h.csv", header.encode(), quiz_id="h").imported == 1
    # html.parser raised AssertionError on "<![": an unterminated declaration is text now
    broken = import_bytes("b.xml", moodle_html(b"<![ x"), quiz_id="b")
    assert broken.yaml_text is not None and "question: <![ x" in broken.yaml_text
    gifted = import_bytes("g.gift", b"[html]<![ What? {=a ~b}", quiz_id="g")
    assert gifted.imported == 1
    assert html_to_text("<p>a</p><![if x]>b<![endif]>")[0] == "a\nb"


def test_utf16_text_files_are_detected_and_imported() -> None:
    aiken_text = "প্রশ্ন?\nA. হ্যাঁ\nB. না\nANSWER: B\n"
    for codec in ("utf-16", "utf-16-be"):
        data = aiken_text.encode(codec)
        if codec == "utf-16-be":
            data = b"\xfe\xff" + data
        assert detect_format("q.txt", data) == "aiken"
        report = import_bytes("q.txt", data, quiz_id="q")
        assert report.imported == 1 and report.yaml_text is not None
        assert "correct: 2" in report.yaml_text
    sheet = "question\tA\tB\tanswer\nপ্রশ্ন?\tহ্যাঁ\tনা\tB\n".encode("utf-16")
    assert import_bytes("sheet.txt", sheet, quiz_id="s").imported == 1
    gift_text = "::a:: Ok? {=yes ~no}\n".encode("utf-16")
    assert import_bytes("g.txt", gift_text, quiz_id="g").imported == 1


_PIECES = st.sampled_from(
    [
        "{", "}", "=", "~", "#", "::", "\\", "[html]", "<![", "<a", "<!--", "-->", "]]>", "'",
        '"', "A.", "B)", "ANSWER:", "answer", "\n", "\r\n", " ", "\t", ",", ";", "²", "১",
        "9" * 30, "question", "option 1", "<quiz>", "<question type='multichoice'>", "&#",
        "&amp", "$CATEGORY:", "//", "%50%", "->", "T", "FALSE", '{"results":[', "null",
    ]
)  # fmt: skip
_TEXTS = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=60).map("".join),
)


@given(text=_TEXTS)
@settings(max_examples=400, deadline=None)
def test_no_text_makes_any_importer_raise(text: str) -> None:
    for parsed in (
        gift.parse("f", text),
        aiken.parse("f", text),
        csvsheet.parse("f", text),
        opentdb.parse("f", text),
        moodle.parse("f", text.encode("utf-8", "surrogatepass")),
    ):
        for problem in (*parsed.problems, *([parsed.fatal] if parsed.fatal else [])):
            assert problem.text("en") and problem.text("bn")
    html_to_text(text)


@given(data=st.binary(max_size=400), ext=st.sampled_from([".txt", ".gift", ".csv", ".xml", ""]))
@settings(max_examples=300, deadline=None)
def test_no_bytes_make_an_import_raise(data: bytes, ext: str) -> None:
    for raw in (data, b"\xff\xfe" + data):
        report = import_bytes(f"f{ext}", raw, quiz_id="f")
        assert (report.yaml_text is None) == (report.fatal is not None)
