"""Callback data as small classes that pack and parse themselves: the wire format of buttons
already sent keeps its meaning, every kind fits Telegram's 64 bytes at its largest, a prefix is
declared once, and every kind the bot declares has its button in the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

import pytest

from bot.app.registry import REGISTRY
from bot.features.authoring.buttons import DeleteData, QuizCardData, UndoData
from bot.features.homework.buttons import HomeworkAnswerData, HomeworkDurationData, HomeworkStopData
from bot.features.review.buttons import ReviewData, TimezoneData
from bot.features.stats.buttons import ResetData
from bot.features.teacher.buttons import RegradeData, RunRegradeData
from bot.render import callbacks
from bot.render.callbacks import SUBMIT, AnswerData, CardReportData, PickData, ReportData, StartData
from bot.tg.callbackdata import MAX_BYTES, CallbackData, kinds, unpack

#: data as the bot wrote it before its kinds were classes (buttons in chats today), and what
#: each means: a tap on any of them after the upgrade does what it did
SENT: list[tuple[str, CallbackData]] = [
    ("a:12:3:1", AnswerData(12, 3, 1)),
    ("a:12:0:s", AnswerData(12, 0, SUBMIT)),
    ("a:9007199254740991:999:9", AnswerData(2**53 - 1, 999, 9)),
    ("s:zero", StartData("zero")),
    ("s:physics_1-b", StartData("physics_1-b")),
    ("s:u.17", StartData("u.17")),
    ("r:3:y", ResetData(3, True)),
    ("r:999999:n", ResetData(999_999, False)),
    ("v:7:2103:1:4:2", ReviewData(7, (2, 1, 0, 3), 1, 4, 2)),
    ("v:7:10:s:1:0", ReviewData(7, (1, 0), SUBMIT, 1, 0)),
    ("tz:-720", TimezoneData(-720)),
    ("tz:0", TimezoneData(0)),
    ("tz:330", TimezoneData(330)),
    ("nu:5:3735928559", UndoData(5, 3_735_928_559)),
    ("nu:1:0", UndoData(1, 0)),
    ("dq:9:y", DeleteData(9, True)),
    ("dq:9:n", DeleteData(9, False)),
    ("h:4:1:0", HomeworkAnswerData(4, 1, 0)),
    ("h:4:7:s", HomeworkAnswerData(4, 7, SUBMIT)),
    ("hs:8", HomeworkStopData(8)),
    ("p:3:2", ReportData(3, 2)),
    ("p:3:2:k", ReportData(3, 2, "key")),
    ("p:3:0:u", ReportData(3, 0, "unclear")),
    ("p:3:0:t", ReportData(3, 0, "typo")),
    ("pc:41", CardReportData(41)),
    ("k:quiz:u.3", PickData("quiz", "u.3")),
    ("k:analysis:zero", PickData("analysis", "zero")),
    ("g:u.1:s", QuizCardData("u.1", "s")),
    ("g:u.1:h", QuizCardData("u.1", "h")),
    ("rg:zero:1:2:y", RegradeData("zero", 1, "2", True)),
    ("rg:u.2:3:02:n", RegradeData("u.2", 3, "02", False)),
    ("rg:zero:0:0:y", RegradeData("zero", 0, "0", True)),
    ("rg:zero:4:#-3.5:0.25:y", RegradeData("zero", 4, "#-3.5:0.25", True)),
    ("rg:zero:5:+0123456789:y", RegradeData("zero", 5, "+0123456789", True)),
    ("hd:u.3:2:77", HomeworkDurationData("u.3", 2, 77)),
    ("rr:5:2:1:p", RunRegradeData(5, 2, "1", "p")),
    ("rr:5:2:#1e+20:0:y", RunRegradeData(5, 2, "#1e+20:0", "y")),
    ("rr:5:2:+abcdef0123:n", RunRegradeData(5, 2, "+abcdef0123", "n")),
]

#: data no button of the bot carries: refused as a whole (no kind reads a part of it)
MALFORMED = [
    "",
    "a",
    "a:",
    "a:0:1:1",  # run ids start at 1
    "a:012:1:1",  # one spelling per number
    "a:9007199254740992:0:0",  # past the largest id
    "a:1:1000:0",
    "a:1:1:10",
    "s:",
    "s:../../etc/passwd",
    "s:u.0",
    "r:0:y",
    "r:1:x",
    "v:7:2213:0:4:2",  # not an order
    "v:7:2103:4:4:2",  # option out of the order
    "v:7:2103:0:2:3",  # more right than asked
    "tz:841",
    "tz:-0",
    "dq:1:",
    "p:3:2:x",
    "p:3:2:",
    "rg:zero:1:20:y",  # options in increasing order
    "rg:zero:1:22:y",  # each once
    "rr:5:0:1:p",  # report questions are 1-based
    "hd:u.3:4:77",  # no fifth duration
    "hd:zero:1:77",  # a stored quiz only
    "k:Quiz:zero",
    "g:u.1:x",
    "x:1",
    "A:1:1:1",
    "a:1:1:1" + " ",
]


@pytest.mark.parametrize(("raw", "value"), SENT, ids=[raw for raw, _ in SENT])
def test_todays_buttons_parse_to_the_same_values(raw: str, value: CallbackData) -> None:
    assert callbacks.parse(raw) == value
    assert unpack(raw) == value
    assert type(value).parse(raw) == value
    assert callbacks.encode(value) == value.pack() == raw


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_data_means_nothing(raw: str) -> None:
    assert callbacks.parse(raw) is None


@pytest.mark.parametrize("kind", kinds(), ids=lambda k: k.__name__)
def test_every_kind_fits_a_button_at_its_largest(kind: type[CallbackData]) -> None:
    """Each kind's longest value (every number at its bound, the longest ids and keys it
    carries) packs within 64 bytes and reads back the same."""
    largest = kind.largest()
    packed = largest.pack()
    assert len(packed.encode()) <= MAX_BYTES, (packed, len(packed.encode()))
    assert unpack(packed) == largest
    assert kind.parse(packed) == largest


def test_a_value_too_long_for_a_button_is_refused_when_packed() -> None:
    """A numeric re-grade key with a long bank id may not fit: packing raises (``/regrade``
    then says the number is too long), it is never cut."""
    with pytest.raises(ValueError, match="cannot encode"):
        RegradeData("q" * 32, 999, "#-1.234567891e-100:1.234567891e-100", True).pack()
    with pytest.raises(ValueError, match="cannot encode"):
        ReportData(1, 1, "rude").pack()  # not a reason the data can carry


def test_every_kind_the_bot_declares_has_its_button() -> None:
    declared = {k for k in kinds() if k.__module__.startswith("bot.")}
    assert declared == set(REGISTRY.buttons)
    assert len({k.prefix for k in declared}) == len(declared)


def test_a_prefix_is_declared_once() -> None:
    with pytest.raises(TypeError, match="prefix 'a' is AnswerData's already"):

        @dataclass(frozen=True)
        class Again(CallbackData):
            prefix: ClassVar[str] = "a"
            pattern: ClassVar[re.Pattern[str]] = re.compile("x")

    with pytest.raises(TypeError, match="a prefix of 1 to 4 small letters is required"):

        class Unnamed(CallbackData):
            pattern: ClassVar[re.Pattern[str]] = re.compile("x")

            @classmethod
            def largest(cls) -> Self:
                return cls()

    assert not [k for k in kinds() if k.__name__ in ("Again", "Unnamed")]
