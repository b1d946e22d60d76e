"""Question banks: every shipped bank loads, and every rejection names file, line and field."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from shipkit import LOCALE

from bot.banks.yaml_reader import load_folder, load_quiz
from bot.core.bank import Quiz
from bot.core.problems import BankError
from bot.render import bank_limits

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "questions").glob("*.y*ml"))

GOOD = """\
title:
  bn: পরীক্ষা
  en: Test
language: en
settings:
  seconds: 20
  shuffle: false
questions:
  - id: q1
    question:
      bn: প্রশ্ন এক?
      en: Question one?
    options:
      - bn: হ্যাঁ
        en: yes
      - bn: না
        en: no
    correct: 1
    explanation:
      bn: কারণ এটাই ঠিক।
      en: Because it is right.
  - id: q2
    question:
      bn: প্রশ্ন দুই?
      en: Question two?
    options:
      - bn: এক
        en: "on"
      - bn: দুই
        en: off
      - bn: তিন
        en: 1.50
    correct: 3
    explanation:
      bn: তিনই ঠিক।
      en: Three is right.
    note:
      bn: আরও কথা।
      en: More words.
"""


def write(tmp_path: Path, text: str, name: str = "demo.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str, name: str = "demo.yaml") -> list[str]:
    with pytest.raises(BankError) as info:
        load_quiz(write(tmp_path, text, name), bank_limits())
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_bank_loads(path: Path) -> None:
    quiz = load_quiz(path, bank_limits())
    assert quiz.id == path.stem
    assert quiz.questions


def test_zero_quiz_is_complete() -> None:
    quiz = load_quiz(ROOT / "questions" / "zero.yaml", bank_limits())
    assert len(quiz.questions) == 8
    assert all(len(q.options) == 4 for q in quiz.questions)
    assert [q.correct for q in quiz.questions] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert quiz.title.en == "ZeRO and Sharded Optimizers"
    limits = bank_limits()  # each alert fits with the longest verdict line before it
    assert limits.alert_prefix is not None
    for q in quiz.questions:
        for lang in ("bn", "en"):
            assert q.explanation is not None
            assert limits.alert_prefix[lang] + len(q.explanation(lang)) <= limits.alert
    bengali = " ".join(q.text.bn + " ".join(o.bn for o in q.options) for q in quiz.questions)
    for mistake in ("রাষ্ট্র", "আদম", "recomputes", "স্ক্র্যাচ"):
        assert mistake not in bengali


def test_good_bank_and_boolean_trap(tmp_path: Path) -> None:
    quiz = load_quiz(write(tmp_path, GOOD), bank_limits())
    assert isinstance(quiz, Quiz)
    assert quiz.seconds == 20
    assert quiz.shuffle is False
    assert [o.en for o in quiz.questions[0].options] == ["yes", "no"]
    assert [o.en for o in quiz.questions[1].options] == ["on", "off", "1.50"]
    assert quiz.questions[1].correct == 2
    assert quiz.questions[1].note is not None


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  shuffle: false",
            "  shuffle: false\n  colour: red",
            "demo.yaml:8: settings: unknown key 'colour'",
        ),
        (
            "    correct: 1\n",
            "    correct: 1\n    hint: no\n",
            "demo.yaml:19: question 1 (id q1): unknown key 'hint'",
        ),
        (
            "      en: Question one?\n",
            "",
            "demo.yaml:11: question 1 (id q1): question: missing key 'en'",
        ),
        (
            "      - bn: না\n        en: no\n",
            "",
            "demo.yaml:14: question 1 (id q1): options: 1 option, need 2 to 10",
        ),
        (
            "      - bn: না\n        en: no\n",
            '      - bn: না\n        en: "yes "\n',
            "demo.yaml:16: question 1 (id q1): options[2].en: duplicate of option 1",
        ),
        (
            "    correct: 3\n",
            "    correct: 4\n",
            "demo.yaml:33: question 2 (id q2): correct: 4 is out of range (1 to 3)",
        ),
        ("    correct: 1\n", "", "demo.yaml:9: question 1 (id q1): missing key 'correct'"),
        (
            "  - id: q2\n",
            "  - id: q1\n",
            "demo.yaml:22: question 2 (id q1): id: duplicate of question 1",
        ),
        (
            "  shuffle: false",
            "  shuffle: yes",
            "demo.yaml:7: settings.shuffle: must be true or false",
        ),
        (
            "  seconds: 20",
            "  seconds: 2",
            "demo.yaml:6: settings.seconds: 2 is out of range (5 to 600)",
        ),
        ("language: en", "language: fr", "demo.yaml:4: language: 'fr' is not one of bn, en"),
        (
            "      en: Because it is right.",
            "      en: " + "word " * 40,
            "demo.yaml:20: question 1 (id q1): explanation.en: 199 characters; with the verdict",
        ),
        (
            "      en: Question one?",
            "      en: " + "x" * 4000,
            "demo.yaml:11: question 1 (id q1): question.en: the question message would be",
        ),
        (
            "      - bn: না\n        en: no\n",
            "".join(f"      - bn: উত্তর {i}\n        en: answer {i}\n" for i in range(10)),
            "question 1 (id q1): options: 11 options, need 2 to 10",
        ),
    ],
)
def test_rejections_name_file_line_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    assert old in GOOD
    found = problems(tmp_path, GOOD.replace(old, new, 1))
    assert any(expected in p for p in found), found


def test_yaml_errors_and_tricks(tmp_path: Path) -> None:
    assert "/demo.yaml:2: not valid YAML" in problems(tmp_path, "title: [unclosed\n")[0]
    bomb = GOOD.replace(
        "title:\n  bn: পরীক্ষা\n  en: Test", "title: &t\n  bn: পরীক্ষা\n  en: Test\nx: *t"
    )
    assert any("unknown key 'x'" in p for p in problems(tmp_path, bomb))
    alias = GOOD.replace("      - bn: না\n        en: no\n", "      - *a\n").replace(
        "      - bn: হ্যাঁ\n", "      - &a\n        bn: হ্যাঁ\n"
    )
    assert any("anchors and aliases" in p for p in problems(tmp_path, alias))
    tagged = GOOD.replace("      en: Question one?", "      en: !!python/object:os.system x")
    assert any(
        "tag 'tag:yaml.org,2002:python/object:os.system' is not allowed" in p
        for p in problems(tmp_path, tagged)
    )
    assert problems(tmp_path, GOOD, "Bad Name.yaml")[0].endswith(
        "Bad Name.yaml: file name must be a quiz id: lowercase letters, digits, - and _, "
        "at most 32 characters"
    )


def test_a_broken_bank_does_not_hide_the_others(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "good.yaml")
    write(tmp_path, GOOD.replace("    correct: 1\n", ""), "broken.yaml")
    quizzes, found = load_folder([tmp_path], bank_limits())
    assert list(quizzes) == ["good"]
    assert len(found) == 1
    assert "broken.yaml" in str(found[0])


def run_cli(
    *args: str, stdin: str = "", say: str = "en", **env: str
) -> subprocess.CompletedProcess[str]:
    """``quizbot ARGS``, the tool speaking ``say`` (the operator's locale: LANG), ``env``
    added."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PTB_TIMEDELTA": "1", "LANG": LOCALE[say], **env},
        check=False,
    )


def test_validate_command(tmp_path: Path) -> None:
    ok = run_cli("validate", "questions/")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout == ""
    write(tmp_path, GOOD.replace("    correct: 1\n", "    correct: 0\n"), "bad.yaml")
    bad = run_cli("validate", str(tmp_path))
    assert bad.returncode == 1
    assert bad.stdout.strip().endswith(
        "bad.yaml:18: question 1 (id q1): correct: 0 is out of range (1 to 2)"
    )
    assert "ok: questions/zero.yaml: zero (8 questions, bilingual)" in ok.stderr.splitlines()


def test_validate_speaks_bengali(tmp_path: Path) -> None:
    """LANG=bn_BD.UTF-8: the tool's own lines in Bengali (Bengali digits), paths as they are."""
    write(
        tmp_path, GOOD.replace("  shuffle: false\n", "  shuffle: false\n  pick: 1\n"), "good.yaml"
    )
    ok = run_cli("validate", "questions/zero.yaml", str(tmp_path), say="bn")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stderr.splitlines() == [
        "ঠিক আছে: questions/zero.yaml: zero (৮টি প্রশ্ন, বাংলা ও ইংরেজি)",
        f"ঠিক আছে: {tmp_path / 'good.yaml'}: good (২টি প্রশ্ন, প্রতিবার ১টি বেছে নেওয়া হয়, "
        "বাংলা ও ইংরেজি)",
    ]


def test_validate_and_play_say_the_problems_in_bengali(tmp_path: Path) -> None:
    """LANG=bn_BD.UTF-8: each problem of a bank in Bengali (place and message, Bengali
    digits), keys and paths as written, PyYAML's own words as PyYAML wrote them."""
    bad = GOOD.replace("    correct: 1\n", "    correct: 0\n").replace(
        "shuffle: false", "shuffle: on"
    )
    write(tmp_path, bad, "bad.yaml")
    write(tmp_path, "title: [unclosed\n", "broken.yaml")
    expected = [
        f"{tmp_path / 'bad.yaml'}:7: settings.shuffle: true অথবা false দিন",
        f"{tmp_path / 'bad.yaml'}:18: প্রশ্ন ১ (id q1): correct: ০ সীমার বাইরে (১ থেকে ২)",
        f"{tmp_path / 'broken.yaml'}:2: বৈধ YAML নয়: did not find expected ',' or ']'",
    ]
    checked = run_cli("validate", str(tmp_path), say="bn")
    assert checked.returncode == 1
    assert checked.stdout.splitlines() == expected
    assert run_cli("validate", str(tmp_path)).stdout.splitlines() == [
        f"{tmp_path / 'bad.yaml'}:7: settings.shuffle: must be true or false",
        f"{tmp_path / 'bad.yaml'}:18: question 1 (id q1): correct: 0 is out of range (1 to 2)",
        f"{tmp_path / 'broken.yaml'}:2: not valid YAML: did not find expected ',' or ']'",
    ]
    refused = run_cli("play", "bad", say="bn", QUIZBOT_QUESTIONS=str(tmp_path))
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        *expected,
        "quizbot: 'bad' নামে কোনো বৈধ কুইজ নেই (যেগুলো আছে: একটিও নেই)",
    ]


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_play_with_right_answers_scores_full_marks(lang: str) -> None:
    quiz = load_quiz(ROOT / "questions" / "zero.yaml", bank_limits())
    # The shuffle is seeded, so the right labels are known: replay the same plan here.
    import random

    from bot.core.engine import make_plan

    plan = make_plan(quiz, random.Random(5))
    answers = "".join(
        "ABCD"[perm.index(q.correct)] + "\n"
        for q, perm in zip(quiz.questions, plan.permutations, strict=True)
    )
    result = run_cli("play", "zero", "--lang", lang, "--seed", "5", stdin="x\n" + answers)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("Score: 8/8" if lang == "en" else "স্কোর: ৮/৮")
    assert "Type one of: A, B, C, D" in result.stdout or "এগুলোর মধ্যে একটি লিখুন" in result.stdout
    assert ("A) " in result.stdout) and ("D) " in result.stdout)


def test_play_ends_at_end_of_input_with_the_score_so_far() -> None:
    result = run_cli("play", "zero", "--lang", "en", "--seed", "1", stdin="A\nB\n")
    assert result.returncode == 0
    last = result.stdout.rstrip().splitlines()[-1]
    assert last.startswith("Score: ")
    assert last.endswith("/2")


def test_play_speaks_the_operator_s_language() -> None:
    """Without --lang a bilingual quiz is played in the operator's language (the locale); a
    missing quiz is refused in it."""
    result = run_cli("play", "zero", "--seed", "1", stdin="A\n", say="en")
    assert "Question 1/8" in result.stdout and result.stdout.rstrip().endswith("/1")
    assert result.stdout.rstrip().splitlines()[-1].startswith("Score: ")
    result = run_cli("play", "zero", "--seed", "1", stdin="A\n", say="bn")
    assert result.stdout.rstrip().splitlines()[-1] in ("স্কোর: ০/১", "স্কোর: ১/১")
    for say, said in [
        ("en", "quizbot: no valid quiz 'nope' (available: "),
        ("bn", "quizbot: 'nope' নামে কোনো বৈধ কুইজ নেই (যেগুলো আছে: "),
    ]:
        missing = run_cli("play", "nope", say=say)
        assert missing.returncode == 2 and missing.stdout == ""
        assert missing.stderr.startswith(said) and "zero" in missing.stderr
