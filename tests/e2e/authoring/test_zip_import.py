"""A GIFT, Moodle XML or bank file sent in a .zip with its pictures, in the chat and
with ``quizbot import``. The zip is hostile until read (bot/banks/importers/ziparchive.py):
entry count, sizes declared and real (a zip bomb is never inflated), names leading out, nested
zips, encrypted or unbounded entries are each refused whole with a clear reply in both
languages, and nothing is saved; in the chat it is read in the parsing worker."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import pytest
from fakebot import FakeTelegram
from harness import BotHarness
from importkit import run_import
from picturekit import PICTURE, run_picture_question
from quizkit import populate
from uploadkit import upload
from zipkit import (
    BOMB_BYTES,
    GIFT,
    Entry,
    bomb_payload,
    bomb_zip,
    deflated,
    raw_zip,
    teacher_zip,
    zip_of,
)

from bot.banks.importers import import_bytes
from bot.banks.importers import ziparchive as za
from bot.banks.yaml_reader import load_quiz
from bot.core.images import Refused, check
from bot.render import bank_limits

BOMB = bomb_payload()
GIFT_BYTES = GIFT.encode()


def refusal(data: bytes, max_bytes: int = 4 * 1024 * 1024) -> tuple[str, str]:
    """The English and Bengali reason a .zip is refused for, with nothing imported."""
    report = import_bytes("week1.zip", data, quiz_id="week1", max_bytes=max_bytes)
    assert report.quiz is None and report.fatal is not None, report
    return report.fatal.text("en"), report.fatal.text("bn")


# --- in the chat --------------------------------------------------------------------------


async def test_a_zip_sent_in_the_chat_brings_its_pictures_and_is_posted_with_them(
    tg: FakeTelegram, db_path: Path
) -> None:
    cls = populate(tg, students=2)
    teacher = cls.creator
    async with BotHarness(tg, db_path) as bot:
        reply = await upload(tg, teacher, "week1.zip", teacher_zip(), "saved as")
        # the picture that is not in the zip is named; the one that is came along
        assert "pics/gone.png was not found" in reply.text
        [row] = await bot.services.store.authored_by(teacher.id)
        assert row.origin == "gift" and row.question_count == 2
        text = await bot.services.store.authored_text(row.quiz_no) or ""
        assert f"pictures/{check(PICTURE).stored_name}" in text
    async with BotHarness(tg, db_path):  # restarted: the picture comes from SQLite
        await run_picture_question(tg, cls, row.name)
    [send] = tg.calls_to("sendPhoto")
    assert send.files and next(iter(send.files.values()))[1] == len(PICTURE)


async def test_hostile_zips_in_the_chat_are_refused_whole_and_save_nothing(
    tg: FakeTelegram, db_path: Path
) -> None:
    teacher = tg.add_user(62, "Nasrin")
    hostile = {
        # a zip bomb, honest about its size: refused on the declared size, never inflated
        "bomb.zip": (bomb_zip(BOMB, declared=BOMB_BYTES), "more than 5242880 bytes"),
        # the same bomb lying (4 KB declared): reading stops there, and the bytes do not check
        "liar.zip": (bomb_zip(BOMB, declared=4096), "pics/lay out.png cannot be read"),
        "escape.zip": (
            zip_of({"layouts.gift": GIFT_BYTES, "../../pics/lay out.png": PICTURE}),
            "outside its own folders (../../pics/lay out.png)",
        ),
        "nested.zip": (
            zip_of({"layouts.gift": GIFT_BYTES, "more.zip": teacher_zip()}),
            "the .zip holds another .zip (more.zip), which is not opened",
        ),
    }
    async with BotHarness(tg, db_path) as bot:
        for name, (data, said) in hostile.items():
            reply = await upload(tg, teacher, name, data, "nothing imported")
            assert said in reply.text, (name, reply.text)
            assert "Traceback" not in reply.text
        # too big for a chat even as a .zip: said before it is downloaded
        await upload(tg, teacher, "big.zip", b"PK" * (3 * 1024 * 1024), "at most 5 MB")
        assert await bot.services.store.authored_by(teacher.id) == []
        assert bot.services.parsing.failures == 0  # every one refused, none ran out of limits
    assert all(c.status == 200 for c in tg.calls if c.method != "getUpdates")


# --- quizbot import -------------------------------------------------------------------------


def test_quizbot_import_reads_a_zip_and_writes_its_pictures_beside_the_bank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "week1.zip"
    source.write_bytes(teacher_zip())
    code, lines, _ = run_import(tmp_path, capsys, str(source))
    assert lines == [
        "layouts.gift:4: picture pics/gone.png was not found (give its file beside the question "
        "file, or send a .zip with both); the question is imported without it."
    ]
    assert code == 1
    quiz = load_quiz(tmp_path / "out" / "week1.yaml", bank_limits())
    layout, gone = quiz.questions
    assert layout.image is not None and layout.image.sha256 == check(PICTURE).sha256
    assert (tmp_path / "out" / layout.image.file).read_bytes() == PICTURE
    assert gone.image is None
    assert not (tmp_path / "out" / "README.md").exists()  # nothing else of the zip written

    (tmp_path / "escape.zip").write_bytes(zip_of({"/etc/layouts.gift": GIFT_BYTES}))
    code, lines, _ = run_import(tmp_path, capsys, str(tmp_path / "escape.zip"))
    assert code == 2
    assert lines == [
        "escape.zip: the .zip names a file outside its own folders (/etc/layouts.gift); "
        "nothing imported."
    ]


# --- what is refused, and why ---------------------------------------------------------------


def test_every_refusal_is_worded_in_both_languages() -> None:
    gift = GIFT_BYTES
    crc = zlib.crc32(gift)
    cases = {
        "not a zip": (b"PK\x03\x04 but nothing more", "not a .zip file that can be read"),
        "declared count": (
            raw_zip([Entry("layouts.gift", deflated(gift), len(gift), crc)], declared_count=60000),
            "holds 60000 files and folders, at most 200",
        ),
        "real count": (
            zip_of({"layouts.gift": gift, **{f"n/{i}.txt": b"" for i in range(200)}}),
            "holds 201 files and folders",
        ),
        "absolute": (zip_of({"/abs/layouts.gift": gift}), "outside its own folders"),
        "backslash": (zip_of({"..\\layouts.gift": gift}), "outside its own folders"),
        "drive": (zip_of({"C:/layouts.gift": gift}), "outside its own folders"),
        "dot-dot folder": (zip_of({"a/../../layouts.gift": gift}), "outside its own folders"),
        "nested": (zip_of({"layouts.gift": gift, "deep/x.ZIP": b"PK"}), "(deep/x.ZIP)"),
        "no bank": (zip_of({"pics/a.png": PICTURE, "notes.md": b"x"}), "holds no question file"),
        "two banks": (
            zip_of({"a.gift": gift, "b/quiz.xml": b"<quiz/>"}),
            "several question files (a.gift, b/quiz.xml)",
        ),
        "encrypted": (
            raw_zip([Entry("layouts.gift", gift, len(gift), crc, zipfile.ZIP_STORED, 0x1)]),
            "layouts.gift is protected by a password",
        ),
        "bzip2": (
            zip_of({"layouts.gift": gift}, method=zipfile.ZIP_BZIP2),
            "layouts.gift cannot be read",
        ),
        "bad crc": (
            raw_zip([Entry("layouts.gift", deflated(gift), len(gift), crc ^ 1)]),
            "layouts.gift cannot be read",
        ),
        "bank too big": (
            zip_of({"layouts.gift": gift + b"x" * 2048}),
            "layouts.gift comes to more than 2048 bytes once unpacked",
        ),
    }
    for case, (data, said) in cases.items():
        en, bn = refusal(data, max_bytes=2048)
        assert en.startswith("week1.zip: ") and said in en, (case, en)
        assert bn.startswith("week1.zip: ") and en != bn, (case, bn)
        assert "nothing imported" in en and "কিছুই আনা হয়নি" in bn, (case, bn)


def test_the_total_unpacked_is_capped_on_declared_sizes_before_anything_is_inflated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(za, "MAX_UNPACKED", len(GIFT_BYTES) + len(PICTURE) + 10)
    fits = zip_of({"layouts.gift": GIFT_BYTES, "pics/lay out.png": PICTURE})
    assert import_bytes("w.zip", fits, quiz_id="w").quiz is not None
    more = zip_of({"layouts.gift": GIFT_BYTES, "pics/lay out.png": PICTURE, "pics/b.png": PICTURE})
    en, _ = refusal(more)
    assert "come to more than" in en and "once unpacked" in en


def test_a_zip_bomb_is_never_inflated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Honest about its size, the bomb is refused before a byte of it is inflated; lying, it
    is read no further than it says (and then its bytes do not check)."""
    inflated: dict[str, int] = {}
    check_crc = vars(zipfile.ZipExtFile)["_update_crc"]  # sees every inflated chunk

    def counted(self: zipfile.ZipExtFile, data: bytes) -> None:
        inflated[self.name] = inflated.get(self.name, 0) + len(data)
        check_crc(self, data)

    monkeypatch.setattr(zipfile.ZipExtFile, "_update_crc", counted)
    refusal(bomb_zip(BOMB, declared=BOMB_BYTES))
    assert inflated == {}  # refused on the declared size: nothing read at all
    for declared in (4096, 1):
        inflated.clear()
        en, _ = refusal(bomb_zip(BOMB, declared=declared))
        assert "pics/lay out.png cannot be read" in en
        assert inflated == {"layouts.gift": len(GIFT_BYTES), "pics/lay out.png": declared}


def test_pictures_are_found_beside_the_question_file_inside_the_zip() -> None:
    pictures = za.ZipPictures("week1/layouts.gift", {"week1/pics/a b.png": PICTURE})
    assert pictures.read("pics/a b.png").sha256 == check(PICTURE).sha256
    assert pictures.read("pics/a%20b.png").sha256 == check(PICTURE).sha256  # as HTML writes it
    assert pictures.read("./pics/a b.png").sha256 == check(PICTURE).sha256
    for name, key in (
        ("../week1/pics/a b.png", "bank_image_outside"),
        ("/week1/pics/a b.png", "bank_image_outside"),
        ("pics/none.png", "bank_image_missing"),
        ("a b.png", "bank_image_missing"),  # not beside the file: in its own folder only
    ):
        with pytest.raises(Refused) as caught:
            pictures.read(name)
        assert caught.value.key == key, name


def test_a_yaml_bank_and_a_moodle_file_come_in_a_zip_too() -> None:
    bank = (
        "title: Pets\nlanguage: en\nquestions:\n  - id: q1\n    question: What is shown?\n"
        "    options: [A cat, A dog]\n    correct: 1\n    image: pics/q1.png\n"
    )
    report = import_bytes(
        "pets.zip", zip_of({"pets.yaml": bank.encode(), "pics/q1.png": PICTURE}), quiz_id="p"
    )
    assert report.quiz is not None and report.problems == ()
    image = report.quiz.questions[0].image
    assert image is not None and image.sha256 == check(PICTURE).sha256
    assert list(report.pictures) == [f"pictures/{check(PICTURE).stored_name}"]
