"""Hostile question banks: broken, huge, or playing YAML tricks. Each is refused with a clear
error naming the file, no Python object is ever built from it, and the bot keeps serving the
good banks next to it."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, populate

from bot.banks import yaml_nodes, yaml_reader
from bot.banks.yaml_reader import load_folder, load_quiz
from bot.core.bank import MAX_FILE_BYTES, MAX_QUESTIONS
from bot.core.problems import BankError
from bot.render import bank_limits

QUESTION = """\
  - id: q{n}
    question:
      bn: প্রশ্ন {n}?
      en: Question {n}?
    options:
      - bn: হ্যাঁ
        en: yes
      - bn: না
        en: no
    correct: 1
    explanation:
      bn: কারণ।
      en: Because.
"""
HEAD = """\
title:
  bn: পরীক্ষা
  en: Test
language: en
questions:
"""


def bank(questions: int = 1) -> str:
    return HEAD + "".join(QUESTION.format(n=n) for n in range(1, questions + 1))


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""

# The bomb placed where the loader does look: every option is the same aliased mapping tree.
ALIAS_IN_QUESTIONS = bank(1).replace(
    "    options:\n      - bn: হ্যাঁ\n        en: yes\n      - bn: না\n        en: no\n",
    "    options: &o\n      - &y\n        bn: হ্যাঁ\n        en: yes\n      - *y\n      - *y\n",
)


def hostile_files(tmp: Path, canary: Path) -> dict[str, bytes | str]:
    """File name → content of every hostile bank, with the problem it must be refused for."""
    return {
        "laughs.yaml": BILLION_LAUGHS + bank(1),
        "aliases.yaml": ALIAS_IN_QUESTIONS,
        "pyobject.yaml": bank(1).replace(
            "      en: Question 1?", f'      en: !!python/object/apply:os.system ["touch {canary}"]'
        ),
        "pyname.yaml": bank(1).replace("language: en", "language: !!python/name:os.system"),
        "custom-tag.yaml": bank(1).replace("en: Because.", "en: !include /etc/passwd"),
        "merge.yaml": bank(1).replace("    correct: 1\n", "    <<: {correct: 1}\n"),
        "deep.yaml": "title: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "deep-map.yaml": "title: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n",
        # deeper than MAX_DEPTH, within libyaml's own cap of 1,000
        "deep-100.yaml": bank(1).replace("language: en", "language: " + "[" * 100 + "]" * 100),
        "huge.yaml": bank(1) + "#" + "x" * MAX_FILE_BYTES + "\n",
        "many.yaml": bank(MAX_QUESTIONS + 1),
        "latin1.yaml": bank(1).replace("পরীক্ষা", "caf\u00e9").encode("latin-1", "replace"),
        "nul.yaml": bank(1).replace("Because.", "Be\x00cause."),
        "two-docs.yaml": bank(1) + "---\n" + bank(1),
        "empty.yaml": "",
        "scalar.yaml": "just a string\n",
        "broken.yaml": "title: [unclosed\n",
    }


EXPECTED = {
    "laughs.yaml": "unknown key 'a'",
    "aliases.yaml": "anchors and aliases (&, *) are not allowed",
    "pyobject.yaml": "tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
    "pyname.yaml": "tag 'tag:yaml.org,2002:python/name:os.system' is not allowed",
    "custom-tag.yaml": "tag '!include' is not allowed",
    "merge.yaml": "merge keys (<<) are not allowed",
    "deep.yaml": "not valid YAML: nested too deeply",
    "deep-map.yaml": "not valid YAML: nested too deeply",
    "deep-100.yaml": "not valid YAML: nested too deeply",
    "huge.yaml": f"at most {MAX_FILE_BYTES} allowed",
    "many.yaml": f"{MAX_QUESTIONS + 1} questions, at most {MAX_QUESTIONS}",
    "latin1.yaml": "file is not UTF-8 text",
    "nul.yaml": "not valid YAML",
    "two-docs.yaml": "not valid YAML",
    "empty.yaml": "file is empty",
    "scalar.yaml": "must be a mapping",
    "broken.yaml": "not valid YAML",
}


def write_all(folder: Path, canary: Path) -> None:
    for name, content in hostile_files(folder, canary).items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.fixture(params=["libyaml", "pure-python"])
def yaml_parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Banks composed by libyaml (as PyYAML's wheels ship it) or PyYAML's own Python parser."""
    if request.param == "pure-python":
        monkeypatch.setattr(yaml_nodes, "_FAST_LOADER", None)
    else:
        assert yaml_nodes._FAST_LOADER is not None, "PyYAML without libyaml"
    return str(request.param)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_hostile_bank_is_refused_with_a_clear_error(
    tmp_path: Path, name: str, yaml_parser: str
) -> None:
    canary = tmp_path / "pwned"
    content = hostile_files(tmp_path, canary)[name]
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(BankError) as refused:  # at once: the pytest timeout catches a hang
        load_quiz(path, bank_limits())
    problems = [str(p) for p in refused.value.problems]
    assert problems, name
    assert all(p.startswith(str(path)) for p in problems), problems  # names the file
    assert any(EXPECTED[name] in p for p in problems), problems
    assert not canary.exists(), "a tag constructed a Python object"


def test_a_good_bank_of_the_maximum_size_loads(tmp_path: Path, yaml_parser: str) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(bank(MAX_QUESTIONS), encoding="utf-8")
    assert len(load_quiz(path, bank_limits()).questions) == MAX_QUESTIONS


def test_both_parsers_read_the_shipped_banks_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same quiz, field for field, and the same problems, line numbers included."""
    shipped = sorted((ROOT / "questions").glob("*.yaml"))
    assert shipped
    broken = bank(2).replace("    correct: 1\n", "    correct: 7\n").replace("en: no", "en: [no]")
    fast = [load_quiz(p, bank_limits()) for p in shipped]
    with pytest.raises(BankError) as fast_refusal:
        yaml_reader.parse_quiz(broken, "broken.yaml", "broken")
    monkeypatch.setattr(yaml_nodes, "_FAST_LOADER", None)
    assert [load_quiz(p, bank_limits()) for p in shipped] == fast
    with pytest.raises(BankError) as slow_refusal:
        yaml_reader.parse_quiz(broken, "broken.yaml", "broken")
    assert slow_refusal.value.problems == fast_refusal.value.problems
    assert len(fast_refusal.value.problems) >= 2


def test_hostile_banks_beside_a_good_one(tmp_path: Path) -> None:
    canary = tmp_path / "pwned"
    write_all(tmp_path, canary)
    shutil.copy(ROOT / "questions" / "zero.yaml", tmp_path / "zero.yaml")
    quizzes, problems = load_folder([tmp_path], bank_limits())
    assert list(quizzes) == ["zero"]
    refused = {Path(p.file).name for p in problems}
    assert refused == set(EXPECTED)
    assert not canary.exists()


async def test_the_bot_serves_the_good_bank_and_logs_the_others(
    tg: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "questions"
    folder.mkdir()
    canary = tmp_path / "pwned"
    write_all(folder, canary)
    shutil.copy(ROOT / "questions" / "zero.yaml", folder / "zero.yaml")
    cls = populate(tg, students=2)
    caplog.set_level(logging.INFO, logger="bot")
    async with BotHarness(
        tg, tmp_path / "db.sqlite3", env={"QUIZBOT_QUESTIONS": str(folder)}
    ) as bot:
        assert list(bot.services.catalog) == ["zero"]
        skipped = [
            r.getMessage()
            for r in caplog.records
            if r.name == "bot.app.application" and r.levelno == logging.ERROR
        ]
        for name in EXPECTED:
            assert any(f"{folder / name}" in m and "file skipped" in m for m in skipped), name
        assert not any(r.exc_info for r in caplog.records), "refusals are not tracebacks"
        tg.user_says(cls.chat_id, cls.creator, "/quiz")
        listing = await tg.wait_for_message(cls.chat_id, "Quizzes")
        assert listing.buttons == [] and "1. zero — \u2068ZeRO" in listing.text
        tg.user_says(cls.chat_id, cls.creator, "/quiz laughs")
        await tg.wait_for_message(cls.chat_id, "There is no quiz by that name")
        tg.user_says(cls.chat_id, cls.creator, "/quiz zero 30")
        await tg.wait_for_message(cls.chat_id, "Question 1/8")
    assert not canary.exists()
