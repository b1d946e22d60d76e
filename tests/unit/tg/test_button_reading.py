"""Button data read once per text: every tap carrying the same data gets the same frozen value,
malformed data are never kept, and what is kept stays bounded whatever a client sends."""

from __future__ import annotations

from bot.render.callbacks import AnswerData
from bot.tg import callbackdata
from bot.tg.callbackdata import unpack


def test_the_same_text_is_read_once() -> None:
    raw = AnswerData(7, 2, 1).pack()
    first = unpack(raw)
    assert first == AnswerData(7, 2, 1)
    assert unpack(raw) is first  # the value kept, not read again
    assert unpack(str(raw)) is first


def test_malformed_data_are_not_kept() -> None:
    for raw in ("a:x:y:z", "zz:1", "a:" + "9" * 70, "", None):
        assert unpack(raw) is None
        assert raw not in callbackdata._READ


def test_what_is_kept_stays_bounded() -> None:
    for run_id in range(1, callbackdata._READ_MAX * 2 + 2):
        assert unpack(AnswerData(run_id, 0, 0).pack()) == AnswerData(run_id, 0, 0)
    assert 0 < len(callbackdata._READ) <= callbackdata._READ_MAX
