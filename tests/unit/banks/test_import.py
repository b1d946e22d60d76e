"""``quizbot import`` and the importers: realistic files of every format, and hostile ones.

Every file ends in a clear, located message per thing left out, and a bank is written whole
(validated by the bank loader) or not at all.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from importkit import run_import
from shipkit import LOCALE

from bot.banks.importers import MAX_IMPORT_BYTES, detect_format, import_bytes, quiz_id_for
from bot.banks.yaml_reader import load_quiz
from bot.cli import main
from bot.core.bank import MAX_OPTION_CHARS
from bot.i18n import num
from bot.render import bank_limits

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "import"


def bank(tmp_path: Path, name: str):  # type: ignore[no-untyped-def]
    return load_quiz(tmp_path / "out" / f"{name}.yaml", bank_limits())


def written(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "out").iterdir())


# --- every format, realistic files -----------------------------------------------------------


def test_gift_every_feature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, summary = run_import(tmp_path, capsys, str(DATA / "networking.gift"))
    assert code == 1  # essays and matching questions are not asked
    assert lines == [
        "networking.gift:38: a type of question the bot does not ask (essay); skipped.",
        "networking.gift:44: a type of question the bot does not ask (matching); skipped.",
    ]
    assert "11 questions into 1 bank; 2 problems" in summary
    quiz = bank(tmp_path, "networking")
    assert not quiz.bilingual and quiz.language == "en" and quiz.kind == "en only"
    assert quiz.title.en == "Networking"  # from the file name, not the first $CATEGORY
    q = {x.id: x for x in quiz.questions}
    # multi-line answers, each answer's own feedback, general feedback, category
    assert q["q1"].options[q["q1"].correct].en == "Three"
    assert q["q1"].explanation is None  # =right#why and ~wrong#why are the options' own
    assert [o.feedback.en if o.feedback else None for o in q["q1"].options] == [
        "SYN, SYN-ACK, ACK.",
        "That would leave the server unsure the client heard it.",
        None,
    ]
    assert q["q1"].note is not None and q["q1"].note.en.startswith("The three-way handshake")
    assert q["q1"].tag == "Networking basics"
    assert q["q2"].text.en == "Which protocol usually listens on port 443?"  # [markdown]
    # escapes \: \{ \} \= \~ \# are plain characters
    assert q["q3"].text.en == (
        "Which of these is a valid CIDR block: 10.0.0.0/8 or 10.0.0.0/33 {pick one}?"
    )
    assert [o.en for o in q["q3"].options] == [
        "10.0.0.0/8 = a class A sized block",
        "10.0.0.0/33 ~ invalid prefix",
        "Both # neither",
    ]
    assert q["q4"].text.en == "What does DNS translate names into?"  # [html], &nbsp;
    assert q["q4"].options[0].en == "IP addresses"  # [html] applies to the answers too
    right4 = q["q4"].options[0].feedback
    assert right4 is not None and right4.en == "Names → addresses."
    # {F#wrong feedback#right feedback}: a true/false question, false right, both feedbacks
    assert q["q5"].kind == "truefalse" and q["q5"].correct == 1
    assert [o.en for o in q["q5"].options] == ["True", "False"]
    assert q["q5"].explanation is not None
    assert q["q5"].explanation.en == "Right: UDP is best effort."
    assert q["q5"].wrong_feedback is not None
    assert q["q5"].wrong_feedback.en == "It does not: no retransmission."
    # ~%100% right, ~%-50% negative credit and no "=": Moodle lets students tick several
    assert q["q6"].kind == "multiple" and q["q6"].options[q["q6"].correct].en == "Network layer"
    assert q["q6"].fractions == (1.0, -0.5, 0.0)
    # {#32}: a number; {=DNS =Domain Name System}: a short answer with two accepted texts
    assert q["q8"].kind == "numeric"
    assert [(a.value, a.tolerance) for a in q["q8"].accepted] == [(32, 0)]
    assert q["q9"].kind == "short"
    assert [a.text for a in q["q9"].accepted] == ["DNS", "Domain Name System"]
    # ~%50% ~%50% ~%-100%: several right answers with partial and negative credit
    assert q["q10"].kind == "multiple" and q["q10"].rights == (0, 1)
    assert q["q10"].fractions == (0.5, 0.5, -1.0)
    # {=A =B ~C}: Moodle's one-answer question, either "=" option worth full marks alone
    assert q["q11"].kind == "single" and q["q11"].rights == (0, 1)
    assert q["q11"].fractions == ()
    assert q["q7"].text.en == "The _____ forwards packets between different networks."
    assert q["q7"].options[q["q7"].correct].en == "router"


def test_aiken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run_import(
        tmp_path, capsys, str(DATA / "networking-aiken.txt"), "--id", "aiken"
    )
    assert code == 1
    assert lines == [
        "networking-aiken.txt:20: ANSWER: E names no option (A, B); skipped.",
        "networking-aiken.txt:25: no ANSWER: line; skipped.",
        "networking-aiken.txt:31: option C where B was expected; skipped.",
    ]
    quiz = bank(tmp_path, "aiken")
    assert [q.options[q.correct].en for q in quiz.questions] == ["Switch", "22", "Network"]
    assert quiz.questions[2].text.en == "Which layer of the OSI model\ndoes IP belong to?"


def test_moodle_xml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run_import(tmp_path, capsys, str(DATA / "moodle.xml"))
    assert code == 1
    assert lines == [  # in the file's order, those found when the bank is built too
        "moodle.xml question #4: picture layout.png not used (not a JPEG, PNG, GIF or WebP "
        "picture); the question is imported without it.",
        "moodle.xml question #7: a type of question the bot does not ask (essay); skipped.",
        "moodle.xml question #8: 0 right answers, at least one needed; skipped.",
    ]
    quiz = bank(tmp_path, "moodle")
    q1, q2, q3, q4, q5 = quiz.questions
    # CDATA HTML: entities decoded, tags dropped, line breaks kept
    assert q1.text.en == "What does ZeRO stage 3 shard that stages 1 & 2 do not?"
    right = q1.options[q1.correct].feedback
    assert right is not None and right.en == "Right: only stage 3 shards the weights themselves."
    assert q1.note is not None
    assert q1.note.en == "Stage 1: optimizer states.\nStage 2: + gradients.\nStage 3: + parameters."
    assert q1.tag == "Distributed training"
    assert [o.en for o in q2.options] == ["True", "False"] and q2.correct == 0
    assert q2.kind == "truefalse"
    assert "<FullyShardedDataParallel>" in q2.text.en  # plain text, not HTML: kept
    assert q3.text.en == "Which GPU layout does this figure show?"
    # <single>false</single> with fractions 50, 50, -100; a shortanswer
    assert q4.kind == "multiple" and q4.rights == (0, 1) and q4.fractions == (0.5, 0.5, -1.0)
    assert q5.kind == "short" and [a.text for a in q5.accepted] == ["FSDP"]


def test_spreadsheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run_import(
        tmp_path, capsys, *(str(DATA / n) for n in ("kahoot.csv", "quizizz.csv", "zero-bn.csv"))
    )
    assert code == 1
    assert lines == [
        'zero-bn.csv row 5: the right answer "F" matches no option; skipped.',
    ]
    kahoot = bank(tmp_path, "kahoot")  # Excel's BOM, instruction rows above the header
    assert [q.options[q.correct].en for q in kahoot.questions] == [
        "Graphics Processing Unit",
        "NVIDIA",
        "fp16",
        "Yes",
    ]
    assert kahoot.questions[2].kind == "multiple" and kahoot.questions[2].rights == (0, 1)
    assert len(kahoot.questions[3].options) == 2  # empty answer columns are not options
    assert kahoot.seconds == 20
    quizizz = bank(tmp_path, "quizizz")
    assert [len(q.options) for q in quizizz.questions] == [4, 4, 0, 5]
    checkbox, blank = quizizz.questions[1:3]
    assert checkbox.kind == "multiple" and checkbox.rights == (0, 1)
    assert blank.kind == "short" and [a.text for a in blank.accepted] == ["Padma"]
    assert quizizz.questions[0].explanation is not None
    assert quizizz.seconds == 30
    bengali = bank(tmp_path, "zero-bn")  # semicolons, a quoted ';', Bengali digit ১, text key
    assert bengali.language == "bn" and not bengali.bilingual
    assert [q.options[q.correct].bn for q in bengali.questions] == [
        "অপটিমাইজার স্টেট",
        "গ্রেডিয়েন্ট",
        "FSDP",
    ]
    assert bengali.questions[2].text.bn == "কোনটি PyTorch-এর নিজস্ব শার্ডিং; বলুন তো?"
    # Excel's "Unicode text": UTF-16 with a BOM, tab separated
    unicode_text = "question\tA\tB\tanswer\nপ্রশ্ন?\tহ্যাঁ\tনা\tB\n".encode("utf-16")
    report = import_bytes("sheet.csv", unicode_text, quiz_id="sheet")
    assert report.imported == 1 and report.yaml_text is not None
    assert "correct: 2" in report.yaml_text and "language: bn" in report.yaml_text


def test_open_trivia_db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run_import(tmp_path, capsys, str(DATA / "trivia.json"))
    assert code == 1
    assert lines == ["trivia.json result #4: 1 option, 2 to 10 needed; skipped."]
    quiz = bank(tmp_path, "trivia")
    assert quiz.title.en == "Trivia"  # the file's name, not its one category
    assert quiz.questions[0].text.en == 'What does "CPU" stand for?'
    assert quiz.questions[2].text.en == 'In "C", what\'s the <stdio.h> function that prints?'
    assert [o.en for o in quiz.questions[1].options] == ["True", "False"]
    assert quiz.questions[1].correct == 1


def test_a_clean_file_exits_0_and_the_bank_validates_and_plays(tmp_path: Path) -> None:
    src = tmp_path / "Intro Quiz (v2).gift"
    src.write_text(
        "::a::2 + 2 = ?{=4 ~3 ~5}\n\n::b::Capital of Bangladesh?{~Khulna =Dhaka}\n",
        encoding="utf-8",
    )
    out = tmp_path / "banks"
    out.mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "PTB_TIMEDELTA": "1",
        "QUIZBOT_QUESTIONS": str(out),
        "LANG": LOCALE["en"],
    }

    def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
            env={**env, "PYTHONPATH": str(ROOT)},
            check=False,
        )

    done = cli("import", str(src))  # default: into the questions folder, id from the name
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "intro-quiz-v2.yaml").exists()
    check = cli("validate")
    assert check.returncode == 0 and "intro-quiz-v2 (2 questions, en only)" in check.stderr
    played = cli("play", "intro-quiz-v2", "--seed", "3", stdin="A\nA\n")
    assert played.returncode == 0 and "Score: " in played.stdout
    assert "Question 1/2" in played.stdout


# --- hostile files: a clear message, nothing half-way ----------------------------------------


def test_hostile_gift_imports_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, summary = run_import(tmp_path, capsys, str(DATA / "hostile.gift"))
    assert code == 2
    assert lines == [
        "hostile.gift:3: a { is never closed by }; skipped.",
        "hostile.gift:5: a { is never closed by }; skipped.",  # the } is escaped
        "hostile.gift:7: a lone \\ at the end (bad escape); skipped.",
        "hostile.gift:9: the ::title:: is not closed; skipped.",
        "hostile.gift:11: a type of question the bot does not ask (several { } blocks — "
        "for LaTeX braces write \\{ \\}); skipped.",
        "hostile.gift: no question could be imported.",
    ]
    assert "0 banks" in summary
    assert written(tmp_path) == []


def test_entity_bomb_is_refused_unexpanded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines, _ = run_import(tmp_path, capsys, str(DATA / "bomb.xml"))
    assert code == 2
    assert lines == [
        "bomb.xml: the XML declares a DTD or entities, refused for safety; nothing imported."
    ]
    assert written(tmp_path) == []
    external = (
        b'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<quiz>&x;</quiz>"
    )
    report = import_bytes("x.xml", external, quiz_id="x")
    assert report.fatal is not None and report.fatal.key == "imp_xml_forbidden"


def test_a_50_mb_file_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tmp_path / "huge.gift"
    with huge.open("wb") as f:  # sparse: 50 MB on paper, nothing on disk
        f.truncate(50 * 1024 * 1024)
    code, lines, _ = run_import(tmp_path, capsys, str(huge))
    assert code == 2
    assert lines == [
        f"{huge}: the file is {50 * 1024 * 1024} bytes, at most "
        f"{MAX_IMPORT_BYTES} allowed; nothing imported."
    ]
    assert written(tmp_path) == []
    report = import_bytes("huge.csv", b"x" * (MAX_IMPORT_BYTES + 1), quiz_id="huge")
    assert report.fatal is not None and report.fatal.key == "imp_too_big"


def test_mixed_encodings_are_refused_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed = tmp_path / "mixed.csv"
    mixed.write_bytes(
        "question,A,B,answer\nপ্রশ্ন?,হ্যাঁ,না,A\n".encode() + "Café?,oui,non,A\n".encode("latin-1")
    )
    code, lines, _ = run_import(tmp_path, capsys, str(mixed))
    assert code == 2
    assert lines == [
        "mixed.csv: line 3 holds bytes that are not UTF-8 (mixed encodings?); "
        "save the file as UTF-8. Nothing imported."
    ]
    assert written(tmp_path) == []


def test_texts_over_the_limits_are_reported_not_cut() -> None:
    long_option = "x" * 301
    gift = (
        f"::a::Fine?{{=yes ~no}}\n\n::b::Long option?{{=ok ~{long_option}}}\n\n"
        f"::c::Long feedback?{{=ok#{'because ' * 30} ~no}}\n"
    ).encode()
    report = import_bytes("limits.gift", gift, quiz_id="limits")
    assert report.imported == 2
    assert [p.text("en") for p in report.problems] == [
        "limits.gift:3: option 2 is 301 characters, at most 300; skipped rather than cut.",
    ]
    assert [p.text("en") for p in report.notes] == [
        "limits.gift:5: the explanation (239 characters) is too long for the tap alert "
        "(at most 143); moved to the note shown at the reveal.",
    ]
    assert report.yaml_text is not None and long_option not in report.yaml_text
    titled = import_bytes("t.gift", b"Q? {=a ~b}", quiz_id="t", title="T" * 250)
    assert [p.text("en") for p in titled.problems] == [
        "t.gift: the title is 250 characters, at most 200; the file name is used instead."
    ]
    many_options = (
        "question,A,B,C,D,E,F,G,H,I,J,K,answer\n" + "Q?," + ",".join("abcdefghijk") + ",A\n"
    )
    too_many = import_bytes("wide.csv", many_options.encode(), quiz_id="wide")
    assert too_many.fatal is not None
    assert [p.text("en") for p in too_many.problems] == [
        "wide.csv row 2: 11 options, 2 to 10 needed; skipped."
    ]


def test_existing_banks_are_not_overwritten_and_writes_are_atomic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "trivia.yaml").write_text("keep me", encoding="utf-8")
    code, lines, _ = run_import(tmp_path, capsys, str(DATA / "trivia.json"))
    assert code == 2
    assert lines[-1].endswith(
        "trivia.yaml: exists; nothing imported (use --force to replace it, or --id)."
    )
    assert (out / "trivia.yaml").read_text(encoding="utf-8") == "keep me"
    code, _, _ = run_import(tmp_path, capsys, str(DATA / "trivia.json"), "--force")
    assert code == 1
    assert written(tmp_path) == ["trivia.yaml"]  # no temporary file left beside it
    code, _, summary = run_import(
        tmp_path, capsys, str(DATA / "trivia.json"), str(DATA / "kahoot.csv"), "--id", "x"
    )
    assert code == 2 and "--id names one quiz" in summary


def test_the_tool_speaks_bengali(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """LANG=bn_BD.UTF-8: problems, per-file results, the summary and every refusal in
    Bengali (Bengali digits in prose), on the same streams and with the same exit codes."""
    trivia, kahoot = str(DATA / "trivia.json"), str(DATA / "kahoot.csv")
    code, lines, summary = run_import(tmp_path, capsys, trivia, say="bn")
    assert code == 1
    assert lines == ["trivia.json, প্রশ্ন ৪: ১টি বিকল্প, দরকার ২ থেকে ১০টি; বাদ গেছে।"]
    target = tmp_path / "out" / "trivia.yaml"
    assert summary.splitlines() == [
        f"{trivia} -> {target}: ৩টি প্রশ্ন আনা হয়েছে, ১টি সমস্যা (opentdb)",
        "মোট ৩টি প্রশ্ন ১টি প্রশ্নব্যাংকে আনা হয়েছে; ১টি সমস্যা; ০টি ফাইল আনা যায়নি",
    ]
    code, lines, summary = run_import(tmp_path, capsys, trivia, say="bn")
    assert code == 2
    assert lines[-1] == (
        f"{target}: ফাইলটি আগে থেকেই আছে; কিছুই আনা হয়নি (বদলাতে চাইলে --force দিন, "
        "অথবা --id দিয়ে অন্য নাম দিন)।"
    )
    assert summary.endswith("০টি প্রশ্নব্যাংকে আনা হয়েছে; ১টি সমস্যা; ১টি ফাইল আনা যায়নি\n")
    code, lines, _ = run_import(tmp_path, capsys, trivia, trivia, "--force", say="bn")
    assert code == 1 and lines[-1] == (
        "trivia.yaml: কুইজ আইডি 'trivia' এবার আনা ফাইলগুলোর আগের একটি থেকেই লেখা হয়ে "
        "গেছে; কিছুই আনা হয়নি (--id দিয়ে অন্য নাম দিন)।"
    )
    refusals = [
        (
            [trivia, kahoot, "--id", "x"],
            "--id দিয়ে একটিই কুইজের নাম দেওয়া যায়: এর সঙ্গে একটিমাত্র ফাইল দিন",
        ),
        (
            [trivia, "--id", "Bad!"],
            "--id 'Bad!': শুধু ছোট হাতের ইংরেজি অক্ষর, অঙ্ক, - আর _ ব্যবহার করুন (সর্বোচ্চ ৩২ অক্ষর)",
        ),
    ]
    for args, said in refusals:
        code, lines, summary = run_import(tmp_path, capsys, *args, say="bn")
        assert (code, lines) == (2, []) and summary == f"quizbot: {said}\n", summary
    none = tmp_path / "none"
    assert main(["import", trivia, "--out", str(none)], env={"LANG": LOCALE["bn"]}) == 2
    assert capsys.readouterr().err == f"quizbot: {none}: এই নামে কোনো ফোল্ডার নেই\n"
    huge = tmp_path / "huge.gift"
    with huge.open("wb") as f:
        f.truncate(MAX_IMPORT_BYTES + 1)
    code, lines, _ = run_import(tmp_path, capsys, str(huge), str(tmp_path), say="bn")
    size, limit = (num("bn", n) for n in (MAX_IMPORT_BYTES + 1, MAX_IMPORT_BYTES))
    assert code == 2 and lines == [
        f"{huge}: ফাইলটি {size} বাইট, সর্বোচ্চ {limit} বাইট চলে; কিছুই আনা হয়নি।",
        f"{tmp_path}: এটি কোনো ফাইল নয়",
    ]


def test_problems_read_in_bengali_and_formats_are_detected_by_content() -> None:
    report = import_bytes("q.txt", b"Which?\nA. x\nB. y\nANSWER: Q\n", quiz_id="q")
    assert report.format == "aiken" and report.fatal is not None
    assert report.problems[0].text("bn") == "q.txt:1: ANSWER: Q কোনো বিকল্প নয় (A, B); বাদ গেছে।"
    assert report.fatal.text("bn") == "q.txt: আনার মতো কোনো প্রশ্ন পাওয়া যায়নি।"
    assert (
        import_bytes("big.txt", b"x" * 20, quiz_id="b", max_bytes=10).fatal.text(  # type: ignore[union-attr]
            "bn"
        )
        == "big.txt: ফাইলটি ২০ বাইট, সর্বোচ্চ ১০ বাইট চলে; কিছুই আনা হয়নি।"
    )
    assert detect_format("x.txt", b"::t:: Q {=a ~b}") == "gift"
    assert detect_format("x", b'<?xml version="1.0"?><quiz/>') == "moodle-xml"
    assert detect_format("x", b'{"response_code":0,"results":[]}') == "opentdb"
    assert detect_format("x", b"\x00\x01") is None
    assert quiz_id_for("Intro Quiz (v2).GIFT") == "intro-quiz-v2"
    assert quiz_id_for("***.csv") == "imported"


def test_true_false_is_its_own_type_worded_in_each_chat() -> None:
    bengali = import_bytes(
        "tf.gift", "ZeRO কি মেমরি বাঁচায়? {T}\n\nএটা কি ঠিক? {FALSE}".encode(), quiz_id="tf"
    )
    assert bengali.yaml_text is not None and "language: bn" in bengali.yaml_text
    assert "type: truefalse\n  question: এটা কি ঠিক?\n  correct: false" in bengali.yaml_text
    forced = import_bytes("tf.gift", b"Is ZeRO useful? {T}", quiz_id="tf", lang="bn")
    assert forced.quiz is not None and forced.quiz.language == "bn"
    assert forced.quiz.questions[0].kind == "truefalse"


def test_our_own_yaml_passes_through_the_validator() -> None:
    own = (ROOT / "questions" / "zero.yaml").read_bytes()
    report = import_bytes("zero.yaml", own, quiz_id="zero")
    assert report.format == "yaml" and report.imported == 8 and report.fatal is None
    broken = import_bytes("z.yaml", own.replace(b"correct: 1", b"correct: 9"), quiz_id="z")
    assert broken.yaml_text is None and broken.fatal is not None
    assert "correct: 9 is out of range (1 to 4)" in broken.fatal.text("en")


def test_importers_and_catalog_are_pure() -> None:
    """No Telegram, no database: chat uploads and the CLI share the same code."""
    code = (
        "import sys, bot.banks.importers, bot.banks.catalog, bot.banks.reload; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('telegram', 'aiosqlite', 'sqlite3')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert found.stdout.strip() == "[]"


_SEEDS = [
    b"::t:: Q {=a ~b}",
    b"Q?\nA. x\nB. y\nANSWER: A\n",
    b"question,A,B,answer\nq,x,y,A\n",
    b'{"results":[{"question":"q","correct_answer":"a","incorrect_answers":["b"]}]}',
    b'<?xml version="1.0"?><quiz><question type="multichoice"><single>true</single>'
    b'<answer fraction="100"><text>a</text></answer></question></quiz>',
]


@given(
    seed=st.sampled_from(_SEEDS),
    cut=st.integers(0, 200),
    noise=st.binary(max_size=40),
    ext=st.sampled_from([".gift", ".txt", ".csv", ".json", ".xml", ".yaml", ""]),
)
@settings(max_examples=300, deadline=None)
def test_no_input_makes_an_importer_raise(seed: bytes, cut: int, noise: bytes, ext: str) -> None:
    data = seed[:cut] + noise + seed[cut:]
    report = import_bytes(f"f{ext}", data, quiz_id="f")
    assert (report.yaml_text is None) == (report.fatal is not None)
    for problem in (*report.problems, *([report.fatal] if report.fatal else [])):
        assert problem.text("en").startswith("f") and problem.text("bn")


def test_places_without_a_line_are_worded_in_the_readers_language() -> None:
    """A spreadsheet's row and an over-long option, as a Bengali or English teacher reads
    them (uploads in Telegram show ``text(lang)``)."""
    long = "x" * (MAX_OPTION_CHARS + 1)
    sheet = f"question,A,B,answer\nOk?,yes,no,A\nToo long?,{long},no,A\nBad?,yes,no,F\n"
    report = import_bytes("class.csv", sheet.encode(), quiz_id="class")
    assert report.imported == 1
    problems = sorted(report.problems, key=lambda p: str(p))  # the row's own check comes first
    assert [p.text("en") for p in problems] == [
        f"class.csv row 3: option 1 is {MAX_OPTION_CHARS + 1} characters, at most "
        f"{MAX_OPTION_CHARS}; skipped rather than cut.",
        'class.csv row 4: the right answer "F" matches no option; skipped.',
    ]
    bengali = [p.text("bn") for p in problems]
    assert bengali[0].startswith("class.csv, সারি ৩: বিকল্প ১ ৩০১ অক্ষরের, সর্বোচ্চ ৩০০")
    assert bengali[1].startswith("class.csv, সারি ৪: ")
    assert "row" not in " ".join(bengali)


def test_bengali_answer_letters_and_kinds_in_bengali() -> None:
    """ক/খ/গ/ঘ work as answer letters (Aiken options and ANSWER, CSV answers); a skipped
    question's kind is named in the reader's language."""
    from bot.banks.importers import aiken, csvsheet, gift

    both = aiken.parse(
        "f.txt",
        "কোন অঙ্গাণু ATP তৈরি করে?\nক) রাইবোজোম\nখ) মাইটোকন্ড্রিয়া\nগ) নিউক্লিয়াস\nANSWER: খ\n\n"
        "Which?\nA) x\nB) y\nANSWER: b\n",
    )
    assert [(d.options[0], d.correct) for d in both.drafts] == [("রাইবোজোম", 1), ("x", 1)]
    assert not both.problems
    sheet = csvsheet.parse("f.csv", "question,A,B,C,answer\nকোনটি?,এক,দুই,তিন,গ\n")
    assert [d.correct for d in sheet.drafts] == [2]
    essay = gift.parse("f.gift", "::E:: Explain ATP. {}\n")
    assert [p.key for p in essay.problems] == ["imp_not_mcq"]
    assert "(রচনামূলক)" in essay.problems[0].text("bn")
    assert "essay" not in essay.problems[0].text("bn")
    assert "(essay)" in essay.problems[0].text("en")
