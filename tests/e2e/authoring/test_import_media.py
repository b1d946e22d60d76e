"""Every picture and sound of an import kept or named: pictures given as ``data:`` URIs decoded
and kept (checked as every picture is), the pictures Moodle's GIFT export links by
``@@PLUGINFILE@@`` (its tags' ``=`` escaped) found or named with how to bring them, pictures of
answers and feedback named as such, sound and attachments named; no report line ever holds
base64 or a data URI."""

from __future__ import annotations

import base64
from pathlib import Path

from fakebot import FakeTelegram
from harness import BotHarness
from picturekit import PICTURE, png, run_picture_question
from quizkit import populate
from uploadkit import upload
from zipkit import zip_of

from bot.banks.importers import import_bytes
from bot.banks.importers.build import ImportReport
from bot.core.images import check

DATA = Path(__file__).resolve().parents[2] / "data" / "import"
CHART = png(300, 200, colour=7)
URI = "data:image/png;base64," + base64.b64encode(CHART).decode()
ESCAPED = URI.replace("=", "\\=").replace(":", "\\:")  # as GIFT writes it


def report(name: str, data: bytes) -> ImportReport:
    return import_bytes(name, data, quiz_id="media")


def lines(found: ImportReport, lang: str = "en") -> list[str]:
    texts = [p.text(lang) for p in found.lines()]
    if found.fatal is not None:
        texts.append(found.fatal.text(lang))
    return texts


def assert_no_data(found: ImportReport) -> None:
    """No report line (in either language) holds a data URI or a run of base64."""
    for lang in ("en", "bn"):
        for line in lines(found, lang):
            assert "data:" not in line and "base64," not in line, line
            assert "iVBORw0KGgo" not in line, line  # a PNG's first bytes in base64
            assert len(line) <= 600, line


def moodle(question_html: str, extra: str = "") -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="multichoice"><name><text>chart</text></name>
  <questiontext format="html"><text><![CDATA[{question_html}]]></text></questiontext>
  <answer fraction="100"><text>42</text></answer>
  <answer fraction="0"><text>7</text></answer>
  {extra}
</question></quiz>""".encode()


def test_a_data_uri_picture_is_decoded_and_kept_in_gift_and_moodle_xml() -> None:
    gift = f'::Chart:: [html]<p>What does the chart show?</p><img src="{URI}"> {{=42 ~7}}'
    escaped = gift.replace("src=", "src\\=").replace("data:", "data\\:")  # as Moodle escapes
    for name, data in (
        ("chart.gift", gift.encode()),
        ("moodle-export.gift", escaped.encode()),
        ("chart.xml", moodle(f'<p>What does the chart show?</p><img src="{URI}">')),
    ):
        found = report(name, data)
        assert found.quiz is not None and found.problems == (), lines(found)
        [question] = found.quiz.questions
        assert question.text.en == "What does the chart show?"
        assert question.image is not None and question.image.sha256 == check(CHART).sha256
        assert found.pictures[question.image.file].data == CHART
        assert_no_data(found)


def test_a_data_uri_that_cannot_be_used_is_named_never_printed() -> None:
    thin = "data:image/png;base64," + base64.b64encode(png(400, 10)).decode()
    cases = {
        # not base64: named as unreadable
        f'::Q1::[html]Look: <img src="data:image/png,{"%41" * 500}"> {{=a ~b}}': (
            "picture embedded-1.png could not be read"
        ),
        # base64, but not a picture we take
        f'::Q2::[html]Look: <img src="data:image/png;base64,{"QUJD" * 900}"> {{=a ~b}}': (
            "picture embedded-1.png not used (not a JPEG, PNG, GIF or WebP picture)"
        ),
        # a picture out of Telegram's proportions
        f'::Q3::[html]Look: <img src="{thin}"> {{=a ~b}}': "picture embedded-1.png not used (",
        # in an answer and a second one in the text: named, and as what they are
        f'::Q4::[html]Look: <img src="{URI}"> and <img src="{URI}"> '
        f'{{=a <img src\\="{ESCAPED}"> ~b}}': ("picture embedded-2.png dropped"),
        f'::Q5::Listen: <audio src="data:audio/mpeg;base64,{"SUQz" * 900}"></audio> {{=a ~b}}': (
            "sound or video embedded-1.mp3 dropped"
        ),
    }
    for text, said in cases.items():
        found = report("pasted.gift", text.encode())
        assert found.quiz is not None, lines(found)
        assert any(said in line for line in lines(found)), (said, lines(found))
        assert_no_data(found)
    found = report("pasted.gift", list(cases)[3].encode())
    assert "pasted.gift:1: picture embedded-3.png of an answer or a feedback dropped" in " ".join(
        lines(found)
    )


MOODLE_GIFT = r"""// question: 41  name: chart
::chart::[html]<p>Look at the chart\: <img src\="@@PLUGINFILE@@/chart%20one.png" alt\=""
 width\="300" role\="presentation" class\="img-responsive"></p>{
	=<p>42</p>
	~<p>7 <img src\="@@PLUGINFILE@@/seven.png" alt\="seven"></p>
	####<p>See <img src\="@@PLUGINFILE@@/answer.png"></p>
}
"""


def test_pictures_moodles_gift_export_links_are_named_or_brought_in_a_zip() -> None:
    """Moodle's GIFT export escapes every ``=`` of a tag (``src\\=``) and brings no picture:
    each one is named by its file name, the question's own with how to bring it."""
    found = report("chart.gift", MOODLE_GIFT.encode())
    assert found.quiz is not None and found.quiz.questions[0].image is None
    assert lines(found) == [
        "chart.gift:2: picture seven.png of an answer or a feedback dropped (only the question's "
        "text can show a picture).",
        "chart.gift:2: picture answer.png of an answer or a feedback dropped (only the "
        "question's text can show a picture).",
        "chart.gift:2: picture chart one.png was not found (give its file beside the question "
        "file, or send a .zip with both); the question is imported without it.",
    ]
    zipped = zip_of({"chart.gift": MOODLE_GIFT.encode(), "chart one.png": CHART})
    found = report("chart.zip", zipped)
    assert found.quiz is not None
    image = found.quiz.questions[0].image
    assert image is not None and image.sha256 == check(CHART).sha256
    said = [line.split(": ", 1)[1][:20] for line in lines(found)]
    assert said == ["picture seven.png of", "picture answer.png o"]


def test_moodle_xml_attachments_that_are_no_picture_are_named() -> None:
    pdf = base64.b64encode(b"%PDF-1.4 worksheet").decode()
    sound = base64.b64encode(b"ID3\x04 a sound").decode()
    extra = (
        f'<file name="worksheet.pdf" path="/" encoding="base64">{pdf}</file>'
        f'<file name="intro.mp3" path="/" encoding="base64">{sound}</file>'
    )
    found = report("sheet.xml", moodle("<p>Fill in the sheet.</p>", extra))
    assert found.quiz is not None
    said = lines(found)
    assert (
        "sheet.xml question #1: attached file worksheet.pdf dropped (a question can carry only "
        "a picture)." in said
    )
    assert any("sound or video intro.mp3 dropped" in line for line in said)


def test_a_zip_whose_question_links_a_sound_and_whose_options_are_pictures_says_so() -> None:
    gift = (
        "::Listen:: [html]<p>Which animal makes this sound?</p>"
        '<audio controls><source src\\="sound.mp3" type\\="audio/mpeg"></audio> {'
        '=cat <img src\\="pics/cat.png"> ~dog <img src\\="pics/dog.png">}'
    )
    zipped = zip_of(
        {
            "animals.gift": gift.encode(),
            "pics/cat.png": PICTURE,
            "pics/dog.png": png(5, 5),
            "sound.mp3": b"ID3 a sound",
        }
    )
    found = report("animals.zip", zipped)
    assert found.quiz is not None and found.imported == 1
    said = " ".join(lines(found))
    assert "sound or video sound.mp3 dropped" in said
    assert "picture pics/cat.png of an answer" in said and "picture pics/dog.png of an" in said
    assert found.skipped == 3


async def test_a_pasted_chart_uploaded_in_the_chat_is_posted_with_its_question(
    tg: FakeTelegram, db_path: Path
) -> None:
    """The upload's reply names nothing of the picture's data, and the chart is posted."""
    cls = populate(tg, students=2)
    gift = (
        f'::Chart:: [html]<p>Which layout does this figure show?</p><img src="{URI}"> '
        "{=Tensor parallel ~Pipeline parallel}"
    )
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, cls.creator, "chart.gift", gift.encode(), "saved as")
        assert "base64" not in reply.text and "data:" not in reply.text
        assert len(reply.text.splitlines()) < 10
        [row] = await bot.services.store.authored_by(cls.creator.id)
        await run_picture_question(tg, cls, row.name)
    [send] = tg.calls_to("sendPhoto")
    assert send.files and next(iter(send.files.values()))[1] == len(CHART)


def test_moodles_own_fixture_with_a_moodle_19_picture_keeps_it() -> None:
    """Moodle's ``<image>``/``<image_base64>`` (Moodle 1.9), which its import still shows
    after the question's text."""
    data = (DATA / "moodle-old-image.xml").read_bytes()
    found = report("moodle-old-image.xml", data)
    assert found.quiz is not None and found.imported == 1
    encoded = data.decode().split("<image_base64>")[2].split("</image_base64>")[0]
    picture = base64.b64decode("".join(encoded.split()))
    [question] = found.quiz.questions
    assert question.image is not None and question.image.sha256 == check(picture).sha256
    assert lines(found) == [
        "moodle-old-image.xml question #2: a type of question the bot does not ask (cloze); "
        "skipped."
    ]
    assert_no_data(found)
    # the question's text shows a picture already: the old one is named
    both = data.replace(b"Moodle 1.9]]>", b'Moodle 1.9 <img src="' + URI.encode() + b'">]]>')
    found = report("moodle-old-image.xml", both)
    assert found.quiz is not None
    assert "question #3: picture moodle.png dropped" in " ".join(lines(found))


def moodle_formatted(fmt: str, question: str, option: str, feedback: str, files: str) -> bytes:
    """A Moodle XML question whose texts are all of format ``fmt``."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="multichoice"><name><text>auto</text></name>
  <questiontext format="{fmt}"><text><![CDATA[{question}]]></text>{files}</questiontext>
  <generalfeedback format="{fmt}"><text><![CDATA[{feedback}]]></text></generalfeedback>
  <single>true</single>
  <answer fraction="100" format="{fmt}"><text><![CDATA[{option}]]></text></answer>
  <answer fraction="0" format="{fmt}"><text>7</text></answer>
</question></quiz>""".encode()


def test_pictures_of_moodle_auto_format_and_markdown_texts_are_kept_or_named() -> None:
    """Moodle shows ``<img>`` in its own format (HTML with line breaks) and in Markdown (with
    ``![alt](x.png)`` too): the question's first picture is kept, every other one named."""
    chart = base64.b64encode(CHART).decode()
    files = f'<file name="chart.png" path="/" encoding="base64">{chart}</file>'
    for fmt, picture in (
        ("moodle_auto_format", '<img src="@@PLUGINFILE@@/{}">'),
        ("markdown", "![a chart](@@PLUGINFILE@@/{})"),
        ("markdown", '<img src="@@PLUGINFILE@@/{}">'),
    ):
        found = report(
            "auto.xml",
            moodle_formatted(
                fmt,
                f"What does it show? {picture.format('chart.png')} {picture.format('two.png')}",
                f"42 {picture.format('option.png')}",
                f"See {picture.format('why.png')}",
                files,
            ),
        )
        assert found.quiz is not None, lines(found)
        [question] = found.quiz.questions
        assert question.image is not None and question.image.sha256 == check(CHART).sha256, fmt
        assert "chart.png" not in question.text.en and "PLUGINFILE" not in question.text.en
        assert question.options[0].en == "42"
        assert lines(found) == [
            "auto.xml question #1: picture two.png dropped (a question shows one picture, the "
            "first of its text).",
            "auto.xml question #1: picture why.png of an answer or a feedback dropped (only the "
            "question's text can show a picture).",
            "auto.xml question #1: picture option.png of an answer or a feedback dropped (only "
            "the question's text can show a picture).",
        ], fmt
        assert_no_data(found)


def test_a_moodle_auto_format_text_without_pictures_stays_as_written() -> None:
    """Moodle's own format without a picture is read as written (a ``<tag>`` kept), and a
    ``plain_text`` text shows no picture (Moodle escapes its ``<``): nothing to name."""
    found = report(
        "auto.xml",
        moodle_formatted("moodle_auto_format", "Is it <FSDP>?", "42", "", ""),
    )
    assert found.quiz is not None and found.quiz.questions[0].text.en == "Is it <FSDP>?"
    assert lines(found) == []
    found = report(
        "plain.xml",
        moodle_formatted("plain_text", 'Is it <img src="a.png">?', "42", "", ""),
    )
    assert found.quiz is not None and lines(found) == []
    assert found.quiz.questions[0].text.en == 'Is it <img src="a.png">?'


def test_markdown_pictures_in_gift_are_named_or_kept_from_a_zip() -> None:
    """``![alt](x.png)`` in a GIFT ``[markdown]`` text is a picture as ``<img>`` is: the
    question's own kept when the zip brings it, else named with how to bring it; an option's
    named."""
    gift = (
        "::Chart::[markdown]What does **this** show? ![the chart](chart.png)"
        " {=42 ![seven](seven.png) ~7}"
    )
    found = report("md.gift", gift.encode())
    assert found.quiz is not None
    [question] = found.quiz.questions
    assert question.text.en == "What does this show?" and question.image is None
    assert [o.en for o in question.options] == ["42", "7"]
    assert lines(found) == [
        "md.gift:1: picture seven.png of an answer or a feedback dropped (only the question's "
        "text can show a picture).",
        "md.gift:1: picture chart.png was not found (give its file beside the question file, "
        "or send a .zip with both); the question is imported without it.",
    ]
    found = report("md.zip", zip_of({"md.gift": gift.encode(), "chart.png": CHART}))
    assert found.quiz is not None
    image = found.quiz.questions[0].image
    assert image is not None and image.sha256 == check(CHART).sha256
    assert [line.split(": ", 1)[1][:20] for line in lines(found)] == ["picture seven.png of"]
    plain = report("plain.gift", b"What does it show? ![the chart](chart.png) {=42 ~7}")
    assert plain.quiz is not None and lines(plain) == []  # Moodle's own format: no picture
