"""The validator's problems in both languages: every key the bank reader and validator report is
in the catalog in Bengali and English, filled in with exactly the values its templates name, and a
problem reads the same in English as it always did (logs, ``str()``) and in Bengali to a teacher."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.banks.importers import import_bytes
from bot.banks.yaml_reader import parse_quiz
from bot.core.problems import BankError
from bot.i18n import CONTEXTS, MESSAGES
from bot.i18n.lang import Lang
from bot.render import bank_limits

BOT = Path(__file__).resolve().parents[3] / "bot"
#: every module that reports a bank problem: the YAML reader, the validator, their places
BANK = [
    BOT / "banks" / "yaml_reader.py",
    BOT / "banks" / "yaml_nodes.py",
    BOT / "core" / "validator.py",
    BOT / "core" / "problems.py",
    BOT / "core" / "images.py",
    BOT / "banks" / "images.py",
]


def placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def uses() -> list[tuple[str, set[str]]]:
    """Each call naming a problem key (``"bank_..."``), with its keyword values."""
    found = []
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in BANK]
    for node in (node for tree in trees for node in ast.walk(tree)):
        if not isinstance(node, ast.Call):
            continue
        keys = [
            a.value
            for a in node.args
            if isinstance(a, ast.Constant)
            and isinstance(a.value, str)
            and a.value.startswith("bank_")
        ]
        if keys:
            assert all(k.arg is not None for k in node.keywords), ast.unparse(node)
            found.append((keys[0], {str(k.arg) for k in node.keywords}))
    return found


def test_every_problem_key_is_worded_in_both_languages_with_its_values() -> None:
    used = uses()
    assert len(used) > 40  # every fail(), whole() and place
    for key, values in used:
        assert set(MESSAGES[key]) == {"bn", "en"}, key
        for lang in ("bn", "en"):
            assert placeholders(MESSAGES[key][lang]) == values, (key, lang)
    # and nothing of the catalog's "bank" context is left unused
    assert {key for key, _ in used} == {key for key, ctxt in CONTEXTS.items() if ctxt == "bank"}


BAD = """\
title:
  bn: পরীক্ষা
  en: Test
language: en
settings:
  pick: 2
questions:
  - id: q1
    question:
      bn: প্রশ্ন?
      en: Question?
    options:
      - bn: হ্যাঁ
        en: "Yes"
      - bn: না
        en: "Yes "
    correct: 1
    colour: red
  - id: q2
    question:
      bn: দুই?
      en: Two?
    options: [{bn: এক, en: one}, {bn: দুই, en: two}]
    correct: 2
"""


def test_a_problem_in_each_language() -> None:
    with pytest.raises(BankError) as refused:
        parse_quiz(BAD, "bad.yaml", "bad", bank_limits())
    problems = refused.value.problems

    def lines(lang: Lang) -> list[str]:
        return [p.text(lang) for p in problems]

    assert (
        lines("en")
        == [str(p) for p in problems]
        == [
            "bad.yaml:18: question 1 (id q1): unknown key 'colour' (allowed: answers, "
            "case_sensitive, correct, explanation, fractions, id, image, note, options, question, "
            "tag, type, units, wrong_feedback)",
            "bad.yaml:15: question 1 (id q1): options[2].en: duplicate of option 1",
            "bad.yaml:6: settings.pick: 2 is more than the 1 question of the bank",
        ]
    )
    assert lines("bn") == [
        "bad.yaml:18: প্রশ্ন ১ (id q1): অজানা key 'colour' (যেগুলো চলে: answers, "
        "case_sensitive, correct, explanation, fractions, id, image, note, options, question, "
        "tag, type, units, wrong_feedback)",
        "bad.yaml:15: প্রশ্ন ১ (id q1): options[2].en: বিকল্প ১-এর সঙ্গে হুবহু এক",
        "bad.yaml:6: settings.pick: ২টি বেছে নেওয়া যাবে না: প্রশ্নব্যাংকে প্রশ্ন আছে মোট ১টি",
    ]


def test_imported_files_carry_the_validators_words_in_each_language() -> None:
    own = import_bytes("own.yaml", BAD.encode(), quiz_id="own")
    assert own.fatal is not None
    assert own.fatal.text("en") == (
        "own.yaml:18: bank problem: question 1 (id q1): unknown key 'colour' "
        "(allowed: answers, case_sensitive, correct, explanation, fractions, id, image, note, "
        "options, question, tag, type, units, wrong_feedback)"
    )
    assert own.fatal.text("bn").startswith(
        "own.yaml:18: প্রশ্নব্যাংকে সমস্যা: প্রশ্ন ১ (id q1): অজানা key 'colour'"
    )
    # a question another format brings, refused by the validator: no "question 1" of the
    # one-question bank it was checked as
    gift = b"::a::Fine?{=yes ~no}\n\n::b::Twice?{=ok ~ok}\n"
    [skipped] = import_bytes("twice.gift", gift, quiz_id="twice").problems
    assert skipped.text("bn") == (
        "twice.gift:3: প্রশ্নটি বাদ গেছে: options[2]: বিকল্প ১-এর সঙ্গে হুবহু এক"
    )


def test_a_one_language_bank_names_its_fields_without_a_language() -> None:
    one = "title: T\nlanguage: bn\nquestions:\n  - id: a\n    question: Q?\n"
    one += "    options: [হ্যাঁ, হ্যাঁ]\n    correct: 1\n"
    with pytest.raises(BankError) as refused:
        parse_quiz(one, "one.yaml", "one", bank_limits())
    assert [p.text("bn") for p in refused.value.problems] == [
        "one.yaml:6: প্রশ্ন ১ (id a): options[2]: বিকল্প ১-এর সঙ্গে হুবহু এক"
    ]
