"""Exports that round-trip: any quiz of every kind quizbot holds, written as GIFT (a .zip with
its pictures) or Moodle XML (pictures inside) and imported again, gives the same questions,
keys, fractions, penalties, feedbacks and pictures; and what Moodle expects of the files (a
picture as ``@@PLUGINFILE@@`` with its ``<file encoding="base64">``, a literal ``*`` escaped,
several-answer weights written out)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsekit import as_exported
from picturekit import png, run_picture_question
from quizkit import populate
from shipkit import LOCALE
from uploadkit import upload

from bot.banks.export import gift_zip
from bot.banks.export_files import picture_names
from bot.banks.gift_writer import write_gift
from bot.banks.importers import import_bytes
from bot.banks.moodle_writer import write_moodle_xml
from bot.cli import main
from bot.core.bank import TRUE_FALSE, Accepted, Option, Question, Quiz, Text
from bot.core.images import check
from bot.core.scoring import option_credit

ROOT = Path(__file__).resolve().parents[3]
PICTURES = [png(4 + n, 3, colour=n * 40) for n in range(3)]

# -- what a question carries, compared -------------------------------------------------------


def _credit(values: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(round(v, 6) for v in values)


def carried(quiz: Quiz) -> list[tuple[object, ...]]:
    """Every question as a teacher means it: texts, options and their feedback, the kind, the
    right options, each option's credit (penalties included), typed answers with their credit
    and feedback, units, letter case, feedbacks, tag and the picture's content."""
    return [
        (
            q.text,
            q.options,
            q.kind,
            q.right_options,
            _credit(option_credit(q)) if q.options else (),
            q.explanation,
            q.note,
            q.tag,
            tuple(replace(a, fraction=round(a.fraction, 6)) for a in q.accepted),
            q.units,
            q.case_sensitive,
            q.wrong_feedback,
            q.image.sha256 if q.image is not None else None,
        )
        for q in quiz.questions
    ]


def gift_carries(quiz: Quiz) -> Quiz:
    """What GIFT has no place for: units, and letter case mattering in a short answer."""
    return replace(
        quiz,
        questions=tuple(replace(q, units=(), case_sensitive=False) for q in quiz.questions),
    )


def imported(name: str, data: bytes) -> Quiz:
    report = import_bytes(name, data, quiz_id="again", title="Round trip")
    assert report.fatal is None and report.problems == (), [p.text("en") for p in report.lines()]
    assert report.quiz is not None
    return report.quiz


def pictures_of(quiz: Quiz) -> dict[str, bytes]:
    by_hash = {check(p).sha256: p for p in PICTURES}
    return {q.image.file: by_hash[q.image.sha256] for q in quiz.questions if q.image is not None}


def via_gift(quiz: Quiz, pictures: Mapping[str, bytes]) -> tuple[str, Quiz]:
    text = write_gift(quiz, quiz.language, pictures)
    names = picture_names(quiz, pictures)
    if not names:
        return text, imported("roundtrip.gift", text.encode("utf-8"))
    files = {names[f]: pictures[f] for f in names}
    return text, imported("roundtrip.zip", gift_zip("roundtrip.gift", text, files))


def via_moodle(quiz: Quiz, pictures: Mapping[str, bytes]) -> tuple[str, Quiz]:
    text = write_moodle_xml(quiz, quiz.language, pictures)
    return text, imported("roundtrip.xml", text.encode("utf-8"))


# -- any quiz of every kind --------------------------------------------------------------------

ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "অআকখগজতদনমরলসহািীু"  # Bengali letters and signs
    "~=#{}:*%<>&\"'/[]()!?.,;-_\\@+^|"
)
_MATH = re.compile(r"\\[()\[\]]|->|^\s*\[(html|markdown|plain|moodle)\]", re.IGNORECASE)
word = st.text(ALPHABET, min_size=1, max_size=7)
line = st.lists(word, min_size=1, max_size=5).map(" ".join).filter(lambda s: not _MATH.search(s))
several_lines = st.lists(line, min_size=1, max_size=3).map("\n".join)


def text_of(value: str) -> Text:
    return Text(value, value)


maybe_text = st.none() | line.map(text_of)
tag = st.none() | st.sampled_from(["Networking", "week 1/part {a}", "জীববিজ্ঞান"])
#: credits Moodle's question editor offers (its import refuses others), penalties too
PARTIAL = [0.5, 0.3333333, 0.25, 0.2, 0.1, 0.0, -0.1, -0.25, -0.3333333, -0.5, -1.0]


@st.composite
def options(draw: st.DrawFn, low: int = 2) -> tuple[Option, ...]:
    texts = draw(st.lists(line, min_size=low, max_size=5, unique_by=lambda s: " ".join(s.split())))
    return tuple(Option(t, t, draw(maybe_text)) for t in texts)


@st.composite
def question(draw: st.DrawFn, kind: str, *, one_right_multiple: bool = True) -> Question:
    text = text_of(draw(several_lines))
    common = {
        "explanation": draw(maybe_text),
        "note": draw(st.none() | several_lines.map(text_of)),
        "tag": draw(tag),
    }
    if kind == "single":
        opts = draw(options())
        correct = draw(st.integers(0, len(opts) - 1))
        fractions: tuple[float, ...] = ()
        if draw(st.booleans()):
            others = [draw(st.sampled_from(PARTIAL)) for _ in opts]
            fractions = tuple(1.0 if i == correct else f for i, f in enumerate(others))
        return Question("q", 1, text, opts, correct, fractions=fractions, **common)  # type: ignore[arg-type]
    if kind == "multiple":
        opts = draw(options(3))
        low = 1 if one_right_multiple else 2
        rights = tuple(
            sorted(
                draw(
                    st.lists(
                        st.integers(0, len(opts) - 1),
                        min_size=low,
                        max_size=len(opts) - 1,
                        unique=True,
                    )
                )
            )
        )
        fractions = ()
        if draw(st.booleans()) and len(rights) in (1, 2, 3, 4):
            share = {1: 1.0, 2: 0.5, 3: 0.3333333, 4: 0.25}[len(rights)]
            penalty = [f for f in PARTIAL if f <= 0]
            fractions = tuple(
                share if i in rights else draw(st.sampled_from(penalty)) for i in range(len(opts))
            )
        return Question(
            "q",
            1,
            text,
            opts,
            rights[0],
            kind="multiple",
            rights=rights,
            fractions=fractions,
            **common,  # type: ignore[arg-type]
        )
    if kind == "truefalse":
        return Question(
            "q",
            1,
            text,
            TRUE_FALSE,
            draw(st.integers(0, 1)),
            kind="truefalse",
            wrong_feedback=draw(maybe_text),
            **common,  # type: ignore[arg-type]
        )
    if kind == "numeric":
        count = draw(st.integers(1, 3))
        values = draw(
            st.lists(st.integers(-(10**6), 10**6), min_size=count, max_size=count, unique=True)
        )
        accepted = tuple(
            Accepted(
                value=v / 100,
                tolerance=draw(st.integers(0, 1000)) / 1000,
                fraction=1.0 if n == 0 else draw(st.sampled_from([0.5, 0.25, 0.1, 0.0])),
                feedback=draw(maybe_text),
            )
            for n, v in enumerate(values)
        )
        units = tuple(draw(st.lists(st.sampled_from(["kg", "m/s", "°C"]), unique=True)))
        return Question(
            "q",
            1,
            text,
            (),
            0,
            kind="numeric",
            accepted=accepted,
            units=units,
            wrong_feedback=draw(maybe_text),
            **common,  # type: ignore[arg-type]
        )
    answers = draw(st.lists(line, min_size=1, max_size=3, unique_by=lambda s: s.casefold()))
    accepted = tuple(
        Accepted(
            text=a,
            fraction=1.0 if n == 0 else draw(st.sampled_from([0.5, 0.25, 0.0])),
            feedback=draw(maybe_text),
        )
        for n, a in enumerate(answers)
    )
    return Question(
        "q",
        1,
        text,
        (),
        0,
        kind="short",
        accepted=accepted,
        case_sensitive=draw(st.booleans()),
        **common,  # type: ignore[arg-type]
    )


@st.composite
def quizzes(draw: st.DrawFn, *, gift: bool = False) -> Quiz:
    kinds = draw(
        st.lists(
            st.sampled_from(["single", "multiple", "truefalse", "numeric", "short"]),
            min_size=1,
            max_size=5,
        )
    )
    questions = []
    for n, kind in enumerate(kinds, start=1):
        q = draw(question(kind, one_right_multiple=not gift))
        picture = draw(st.none() | st.sampled_from(PICTURES))
        image = (
            None
            if picture is None
            else check(picture).image(f"pictures/{check(picture).stored_name}")
        )
        questions.append(replace(q, id=f"q{n}", number=n, image=image))
    return Quiz("rt", Text("Round trip", "Round trip"), "en", tuple(questions), bilingual=False)


# -- the properties ----------------------------------------------------------------------------

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(quizzes())
def test_any_quiz_round_trips_through_moodle_xml(quiz: Quiz) -> None:
    pictures = pictures_of(quiz)
    text, again = via_moodle(quiz, pictures)
    assert carried(again) == carried(as_exported(quiz))
    # and the file written from what came back is the same file
    assert via_moodle(again, pictures_of(again))[0] == text


@SETTINGS
@given(quizzes(gift=True))
def test_any_quiz_round_trips_through_gift(quiz: Quiz) -> None:
    pictures = pictures_of(quiz)
    text, again = via_gift(quiz, pictures)
    assert carried(again) == carried(gift_carries(as_exported(quiz)))
    assert via_gift(again, pictures_of(again))[0] == text


# -- what Moodle expects of the files, and the defects the round trips found ------------------

LAYOUT = """\
title: Layouts
language: en
settings:
  shuffle: false
questions:
  - id: layout
    question: Which layout does this figure show?
    options: [Tensor parallel, Pipeline parallel, Data parallel]
    correct: 1
    image: pics/lay out.png
  - id: other
    question: And this other figure?
    options: [Tensor parallel, Pipeline parallel]
    correct: 2
    image: more/lay out.png
  - id: plain
    question: Which one needs no picture?
    options: [Ring, Star]
    correct: 1
"""


def layout_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "banks"
    (folder / "pics").mkdir(parents=True)
    (folder / "more").mkdir()
    (folder / "pics" / "lay out.png").write_bytes(PICTURES[0])
    (folder / "more" / "lay out.png").write_bytes(PICTURES[1])  # the same name, other content
    (folder / "layouts.yaml").write_text(LAYOUT, encoding="utf-8")
    return folder


def test_export_quiz_carries_pictures_in_moodle_xml_and_in_a_gift_zip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = layout_folder(tmp_path)
    env = {"LANG": LOCALE["en"], "QUIZBOT_QUESTIONS": str(folder)}
    out = tmp_path / "out"
    out.mkdir()
    xml = out / "layouts.xml"
    assert main(["export-quiz", "layouts", "--format", "moodle-xml", "--out", str(xml)], env) == 0
    written = xml.read_text(encoding="utf-8")
    # as Moodle exports a picture: linked from the text, carried in it, nothing beside the file
    assert '<img src="@@PLUGINFILE@@/lay%20out.png" alt="">' in written
    assert '<file name="lay out.png" path="/" encoding="base64">' in written
    assert f'<file name="{check(PICTURES[1]).stored_name}" path="/" encoding="base64">' in written
    assert sorted(p.name for p in out.iterdir()) == ["layouts.xml"]
    shas = [check(PICTURES[0]).sha256, check(PICTURES[1]).sha256, None]
    again = imported("layouts.xml", xml.read_bytes())
    assert [q.image.sha256 if q.image else None for q in again.questions] == shas

    capsys.readouterr()
    gift = out / "layouts.gift"
    assert main(["export-quiz", "layouts", "--format", "gift", "--out", str(gift)], env) == 0
    target = out / "layouts.zip"
    assert capsys.readouterr().err == (
        f"quiz layouts written to {target}: the GIFT file with 2 images beside it\n"
    )
    assert not gift.exists()
    with zipfile.ZipFile(io.BytesIO(target.read_bytes())) as archive:
        names = sorted(archive.namelist())
        text = archive.read("layouts.gift").decode("utf-8")
    assert names == sorted(["layouts.gift", "lay out.png", check(PICTURES[1]).stored_name])
    assert (
        '[html]Which layout does this figure show?<br><img src\\="@@PLUGINFILE@@/lay%20out.png"'
        in text
    )
    assert "=[plain]Pipeline parallel" in text
    again = imported("layouts.zip", target.read_bytes())
    assert [q.image.sha256 if q.image else None for q in again.questions] == shas
    # a quiz without pictures is still one GIFT file Moodle imports as it is
    (folder / "layouts.yaml").write_text(
        LAYOUT.replace("    image: pics/lay out.png\n", "").replace(
            "    image: more/lay out.png\n", ""
        ),
        encoding="utf-8",
    )
    plain = out / "plain.gift"
    assert main(["export-quiz", "layouts", "--format", "gift", "--out", str(plain)], env) == 0
    assert plain.read_text(encoding="utf-8").startswith("// Layouts")


async def test_an_exported_gift_zip_sent_in_the_chat_brings_its_picture(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    folder = layout_folder(tmp_path)
    env = {"LANG": LOCALE["en"], "QUIZBOT_QUESTIONS": str(folder)}
    target = tmp_path / "week1.zip"
    assert main(["export-quiz", "layouts", "--format", "gift", "--out", str(target)], env) == 0
    cls = populate(tg, students=2)
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, cls.creator, "week1.zip", target.read_bytes(), "saved as")
        assert "picture" not in reply.text  # every picture came along
        [row] = await bot.services.store.authored_by(cls.creator.id)
        await run_picture_question(tg, cls, row.name)
    send = tg.calls_to("sendPhoto")[0]  # the first question's; /next may post the second's too
    assert send.files and next(iter(send.files.values()))[1] == len(PICTURES[0])


def _short(answers: list[str], case: bool = False) -> Quiz:
    accepted = tuple(Accepted(text=a) for a in answers)
    q = Question("q1", 1, Text("Type it", "Type it"), (), 0, None, kind="short", accepted=accepted)
    return Quiz("s", Text("S", "S"), "en", (replace(q, case_sensitive=case),), bilingual=False)


STARS = [f"{n}*{n + 1}" for n in range(40)] + [
    "*",
    "**",
    "a*",
    "*b",
    "\\*",
    "a\\*b",
    "x * y",
    "2*3*4",
    "%*%",
]


def test_short_answers_with_a_literal_star_come_back_as_written_from_both_formats() -> None:
    """Moodle reads an unescaped ``*`` as its wildcard: each one is written ``\\*``."""
    groups = [STARS[n : n + 17] for n in range(0, len(STARS), 17)]  # 49 answers, 3 questions
    quiz = replace(
        _short([]),
        questions=tuple(
            replace(_short(g, case=True).questions[0], id=f"q{n}", number=n)
            for n, g in enumerate(groups, start=1)
        ),
    )
    xml = write_moodle_xml(quiz, "en")
    assert "<![CDATA[1\\*2]]>" in xml and 'format="moodle_auto_format"' in xml
    back = imported("stars.xml", xml.encode("utf-8"))
    assert [a.text for q in back.questions for a in q.accepted] == STARS  # 49, not 14
    gift = write_gift(quiz, "en")
    assert "=1\\\\*2" in gift  # GIFT's escaped backslash before the star: Moodle reads \*
    back = imported("stars.gift", gift.encode("utf-8"))
    assert [a.text for q in back.questions for a in q.accepted] == STARS


def _several(fractions: tuple[float, ...]) -> Quiz:
    opts = tuple(Option(t, t) for t in ("yellow", "red", "blue"))
    q = Question(
        "q1",
        1,
        Text("Colour?", "Colour?"),
        opts,
        0,
        None,
        kind="multiple",
        rights=(0,),
        fractions=fractions,
    )
    return Quiz("m", Text("M", "M"), "en", (q,), bilingual=False)


def test_a_several_answer_question_with_one_right_option_is_written_with_its_penalties() -> None:
    """No ``=`` (Moodle would make it a one-answer question) and every weight written out."""
    for fractions in ((), (1.0, -0.5, -0.5)):
        gift = write_gift(_several(fractions), "en")
        weights = re.findall(r"\t(~%-?\d+%)", gift)
        assert weights == (
            ["~%100%", "~%-100%", "~%-100%"] if not fractions else ["~%100%", "~%-50%", "~%-50%"]
        )
        assert "\t=" not in gift
        xml = write_moodle_xml(_several(fractions), "en")
        assert "<single>false</single>" in xml
        back = imported("m.xml", xml.encode("utf-8"))
        assert carried(back) == carried(_several(fractions))


def test_a_several_answer_question_with_one_right_option_comes_back_from_gift() -> None:
    for fractions in ((), (1.0, -0.5, -0.5)):
        quiz = _several(fractions)
        back = imported("m.gift", write_gift(quiz, "en").encode("utf-8"))
        assert carried(back) == carried(quiz)


def test_a_several_answer_question_whose_wrong_options_cost_nothing_comes_back_from_xml() -> None:
    quiz = _several((1.0, 0.0, 0.0))
    back = imported("m.xml", write_moodle_xml(quiz, "en").encode("utf-8"))
    assert carried(back) == carried(quiz)


def test_a_short_answers_wrong_answer_feedback_comes_back_from_gift() -> None:
    quiz = _short(["Paris"])
    q = replace(quiz.questions[0], wrong_feedback=Text("No: Paris.", "No: Paris."))
    quiz = replace(quiz, questions=(q,))
    gift = write_gift(quiz, "en")
    assert "=%0%*#No\\: Paris." in gift  # Moodle's "any other answer"
    back = imported("s.gift", gift.encode("utf-8"))
    assert carried(back) == carried(quiz)


DATA = ROOT / "tests" / "data" / "import"
REAL = sorted(
    p.name for p in DATA.iterdir() if p.suffix in (".gift", ".xml", ".txt", ".csv", ".json")
)


@pytest.mark.parametrize("source", REAL)
def test_every_real_file_round_trips_through_both_formats(source: str) -> None:
    """The files of tests/data/import (teachers' own, Moodle's, Kahoot's, Quizizz's...), read,
    exported and read again: the same questions, pictures included."""
    report = import_bytes(source, (DATA / source).read_bytes(), quiz_id="real")
    if report.quiz is None:  # the hostile ones: nothing to export
        assert source in ("bomb.xml", "broken.xml", "hostile.gift")
        return
    pictures = {name: picture.data for name, picture in report.pictures.items()}
    _, again = via_moodle(report.quiz, pictures)
    assert carried(again) == carried(as_exported(report.quiz))
    _, again = via_gift(report.quiz, pictures)
    assert carried(again) == carried(gift_carries(as_exported(report.quiz)))
