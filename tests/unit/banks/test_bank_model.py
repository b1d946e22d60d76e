"""The bank model: every reader builds it, one validator checks it, one writer writes it.

An upload is parsed once (no YAML is dumped and read again per question), what the writer
writes reads back to the same model, and ``to_dict``/``to_json`` give it with stable field names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.banks import yaml_writer
from bot.banks.images import StoredImages
from bot.banks.importers import import_bytes
from bot.banks.yaml_reader import load_quiz, parse_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core import validator
from bot.core.bank import Option, Question, Quiz, Text
from bot.core.problems import BankError, Place, SourceMap
from bot.features.authoring import drafts
from bot.render import bank_limits

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "questions").glob("*.yaml"))
IMPORTS = sorted((ROOT / "tests" / "data" / "import").iterdir())

BILINGUAL = """\
title:
  bn: পরীক্ষা
  en: Test
language: bn
settings:
  seconds: 20
  shuffle: false
  pick: 1
questions:
  - id: q1
    question:
      bn: "প্রশ্ন: এক?"
      en: "Question #1: yes or no?"
    options:
      - bn: হ্যাঁ
        en: "yes"
      - bn: না
        en: "- no"
    correct: 2
    explanation:
      bn: কারণ।
      en: "Because: 'no'."
    note:
      bn: |
        দুই লাইন
        এখানে
      en: "two lines\\nhere"
    tag: basics/one
"""
ONE_LANGUAGE = """\
title: Networks
language: en
questions:
  - id: a
    question: "1.50?"
    options: ["on", "off", "null", "~"]
    correct: 4
"""


def read(text: str, quiz_id: str = "demo") -> Quiz:
    return parse_quiz(text, "demo.yaml", quiz_id, bank_limits())


def reads_back(text: str | None, quiz: Quiz) -> bool:
    """Whether ``text``, read as a bank file, is ``quiz`` (its pictures named by content, as
    an import names them)."""
    if text is None:
        return False
    return parse_quiz(text, quiz.source, quiz.id, bank_limits(), StoredImages()) == quiz


# --- parsed once ---------------------------------------------------------------------------


def gift(n: int) -> bytes:
    return "\n\n".join(
        f"::q{i}:: What is {i} plus one? {{={i + 1}#Because. ~{i + 2} ~{i + 3} ~{i + 4}}}"
        for i in range(n)
    ).encode()


def aiken(n: int) -> bytes:
    return "\n\n".join(
        f"What is {i} plus one?\nA. {i + 1}\nB. {i + 2}\nC. {i + 3}\nANSWER: A" for i in range(n)
    ).encode()


def csv(n: int) -> bytes:
    head = "question,A,B,C,D,answer,explanation\n"
    return (
        head + "\n".join(f"{i} plus one?,{i + 1},{i + 2},{i},x,A,Because" for i in range(n))
    ).encode()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the YAML parser, the validator and the YAML writer run."""
    counted: Counter[str] = Counter()

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(yaml, "compose", counting("parse", yaml.compose))
    monkeypatch.setattr(yaml, "dump", counting("write", yaml.dump))
    checker = validator._Checker
    monkeypatch.setattr(checker, "check", counting("validate", checker.check))
    return counted


@pytest.mark.parametrize(
    ("name", "data"), [("q.gift", gift(200)), ("q.txt", aiken(200)), ("q.csv", csv(200))]
)
def test_a_200_question_upload_is_parsed_once(name: str, data: bytes, calls: Counter[str]) -> None:
    """No YAML read for a GIFT, Aiken or CSV file (it was dumped and re-read ~400 times): one
    validation of the whole bank, one YAML text written for storing it."""
    report = import_bytes(name, data, quiz_id="upload")
    assert report.imported == 200 and report.quiz is not None and not report.problems
    assert calls == {"validate": 1, "write": 1}
    assert reads_back(report.yaml_text, report.quiz)  # and the text stored is that bank


def test_a_200_question_draft_is_checked_once(calls: Counter[str]) -> None:
    questions = [
        drafts.DraftQuestion(f"Q{i}?", (f"{i}", f"{i + 1}", f"{i + 2}"), 0, "Because.")
        for i in range(200)
    ]
    built = drafts.bank("Title", "en", questions)
    assert built.imported == 200 and built.quiz is not None
    assert calls == {"validate": 1, "write": 1}


def test_a_yaml_upload_is_read_once(calls: Counter[str]) -> None:
    report = import_bytes("own.yaml", BILINGUAL.encode(), quiz_id="own")
    assert report.quiz is not None and report.yaml_text == BILINGUAL
    assert calls == {"parse": 1, "validate": 1}


def test_refused_drafts_are_named_at_their_place_after_one_validation(
    calls: Counter[str],
) -> None:
    """The validator's first problem with each refused question, at the line or row its reader
    recorded, in source order; the others imported."""
    rows = ["question,A,B,answer,explanation", "Fine?,a,b,A,", "Twice?,x, x ,A,", "Ok?,a,b,B,"]
    rows.append("Long?,a,b,A," + "because " * 30)
    report = import_bytes("sheet.csv", "\n".join(rows).encode(), quiz_id="sheet")
    assert calls["validate"] == 1
    assert [p.text("en") for p in report.problems] == [
        "sheet.csv row 3: question skipped: options[2]: duplicate of option 1",
    ]
    assert [p.text("en") for p in report.notes] == [
        "sheet.csv row 5: the explanation (239 characters) is too long for the tap alert "
        "(at most 143); moved to the note shown at the reveal.",
    ]
    assert report.quiz is not None
    assert [(q.number, q.id, q.text.en) for q in report.quiz.questions] == [
        (1, "q1", "Fine?"),
        (2, "q3", "Ok?"),
        (3, "q4", "Long?"),
    ]


# --- the validator on the model ------------------------------------------------------------


def test_the_validator_names_the_place_each_reader_recorded() -> None:
    row = Place("sheet.csv", "row", 7)
    question = Question("q1", 1, Text("Q?", "Q?"), (Option("a", "a"), Option("a ", "a ")), 5, None)
    quiz = Quiz("x", Text("T", "T"), "en", (question,), bilingual=False)
    found = validator.validate(quiz, bank_limits(), SourceMap("sheet.csv", places={1: row}))
    assert [(p.place, p.line, p.detail("en")) for p in found] == [
        (row, None, "question 1 (id q1): options[2]: duplicate of option 1"),
    ]
    lines = SourceMap("b.yaml", lines={(1, ""): 9, (1, "options"): 12, (1, "options[2]"): 14})
    found = validator.validate(quiz, bank_limits(), lines)
    assert [str(p) for p in found] == [
        "b.yaml:14: question 1 (id q1): options[2]: duplicate of option 1"
    ]
    fixed = replace(
        quiz, questions=(replace(question, options=(Option("a", "a"), Option("b", "b"))),)
    )
    assert [str(p) for p in validator.validate(fixed, bank_limits(), lines)] == [
        "b.yaml:9: question 1 (id q1): correct: 6 is out of range (1 to 2)"
    ]


def test_a_bank_file_is_refused_with_its_problems_in_the_banks_order() -> None:
    """Shape problems (the reader's) and content problems (the validator's) interleave in the
    order of the bank, not the order they were found in."""
    broken = BILINGUAL.replace("  pick: 1\n", "  pick: 0\n").replace(
        "    tag: basics/one\n", "    tag: ''\n    colour: red\n"
    )
    broken = broken.replace('      en: "- no"', '      en: " yes"').replace(
        "correct: 2", "correct: x"
    )
    with pytest.raises(BankError) as refused:
        read(broken)
    assert [str(p) for p in refused.value.problems] == [
        "demo.yaml:8: settings.pick: 0 is out of range (1 to 200)",
        "demo.yaml:29: question 1 (id q1): unknown key 'colour' (allowed: answers, "
        "case_sensitive, correct, explanation, fractions, id, image, note, options, question, "
        "tag, type, units, wrong_feedback)",
        "demo.yaml:17: question 1 (id q1): options[2].en: duplicate of option 1",
        "demo.yaml:28: question 1 (id q1): tag: must not be empty",
    ]  # ``correct: x`` is not reported while the options it counts on are not good
    fixed = broken.replace('en: " yes"', 'en: "no"')
    with pytest.raises(BankError) as refused:
        read(fixed)
    assert "demo.yaml:19: question 1 (id q1): correct: must be a whole number from 1 to 2" in [
        str(p) for p in refused.value.problems
    ]


# --- one writer, stable round trips --------------------------------------------------------


@pytest.fixture(params=["libyaml", "pure-python"])
def dumper(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Banks written by libyaml's emitter (as PyYAML's wheels ship it) or PyYAML's own."""
    if request.param == "pure-python":
        monkeypatch.setattr(yaml_writer, "_FAST_DUMPER", None)
    else:
        assert yaml_writer._FAST_DUMPER is not None, "PyYAML without libyaml"
    return str(request.param)


def round_trip(quiz: Quiz) -> Quiz:
    return parse_quiz(write_yaml(quiz), quiz.source, quiz.id, bank_limits())


@pytest.mark.parametrize("text", [BILINGUAL, ONE_LANGUAGE], ids=["bilingual", "one-language"])
def test_yaml_to_model_to_yaml_is_stable(text: str, dumper: str) -> None:
    quiz = read(text)
    assert round_trip(quiz) == quiz
    assert write_yaml(round_trip(quiz)) == write_yaml(quiz)
    assert quiz.questions[0].options[-1] in (Option("না", "- no"), Option("~", "~"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_bank_round_trips(path: Path, dumper: str) -> None:
    quiz = load_quiz(path, bank_limits())
    assert round_trip(quiz) == quiz


@pytest.mark.parametrize("path", IMPORTS, ids=[p.name for p in IMPORTS])
def test_every_import_reads_back_to_the_model_it_built(path: Path) -> None:
    report = import_bytes(path.name, path.read_bytes(), quiz_id="imported")
    assert (report.quiz is None) == (report.yaml_text is None) == (report.fatal is not None)
    if report.quiz is not None:
        assert reads_back(report.yaml_text, report.quiz)
        assert validator.validate(report.quiz, bank_limits(), SourceMap(path.name)) == []


_TEXT = (
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1)
    .map(str.strip)
    .filter(bool)
)


@given(
    texts=st.lists(_TEXT, min_size=4, max_size=4, unique_by=str.casefold),
    bilingual=st.booleans(),
    tag=st.none() | _TEXT.map(lambda s: s[:100]),
)
@settings(max_examples=300, deadline=None)
def test_any_text_the_model_holds_reads_back_the_same(
    texts: list[str], bilingual: bool, tag: str | None
) -> None:
    """Whatever an importer puts in the model (quotes, colons, marks YAML reads as syntax,
    line breaks, any script), the written bank reads back to it."""
    if bilingual:
        text, one, two, note = (Text(t, t[::-1] or t) for t in texts)
    else:
        text, one, two, note = (Text(t, t) for t in texts)
    options = (Option(one.bn[:300], one.en[:300]), Option(two.bn[:300], two.en[:300]))
    question = Question("q1", 1, text, options, 1, None, Text(note.bn[:900], note.en[:900]), tag)
    quiz = Quiz("x", Text("T", "T"), "en", (question,), source="x.yaml", bilingual=bilingual)
    if validator.validate(quiz, bank_limits(), SourceMap("x.yaml")):  # e.g. a too long message
        with pytest.raises(BankError):
            round_trip(quiz)
    else:
        assert round_trip(quiz) == quiz


# --- plain data for storing ----------------------------------------------------------------


def test_to_dict_uses_the_bank_formats_field_names() -> None:
    assert read(ONE_LANGUAGE).to_dict() == {
        "title": "Networks",
        "language": "en",
        "questions": [
            {"id": "a", "question": "1.50?", "options": ["on", "off", "null", "~"], "correct": 4}
        ],
    }
    assert read(BILINGUAL).to_dict() == {
        "title": {"bn": "পরীক্ষা", "en": "Test"},
        "language": "bn",
        "settings": {"seconds": 20, "shuffle": False, "pick": 1},
        "questions": [
            {
                "id": "q1",
                "question": {"bn": "প্রশ্ন: এক?", "en": "Question #1: yes or no?"},
                "options": [{"bn": "হ্যাঁ", "en": "yes"}, {"bn": "না", "en": "- no"}],
                "correct": 2,
                "explanation": {"bn": "কারণ।", "en": "Because: 'no'."},
                "note": {"bn": "দুই লাইন\nএখানে", "en": "two lines\nhere"},
                "tag": "basics/one",
            }
        ],
    }


@pytest.mark.parametrize("path", [*SHIPPED, *IMPORTS], ids=[p.name for p in [*SHIPPED, *IMPORTS]])
def test_json_round_trip(path: Path) -> None:
    if path in SHIPPED:
        quiz: Quiz | None = load_quiz(path, bank_limits())
    else:
        quiz = import_bytes(path.name, path.read_bytes(), quiz_id="imported").quiz
    if quiz is None:
        return
    raw = quiz.to_json()
    assert Quiz.from_json(raw, quiz.id, quiz.source) == quiz
    assert Quiz.from_dict(quiz.to_dict(), "u.7").id == "u.7"


@pytest.mark.parametrize(
    "raw", ["[]", "{}", '{"title": "T", "language": "xx", "questions": []}', '{"title": 1}', "x"]
)
def test_from_json_refuses_what_is_not_a_quiz(raw: str) -> None:
    with pytest.raises(ValueError, match=r"not a quiz|unknown language|Expecting value"):
        Quiz.from_json(raw, "u.1")
