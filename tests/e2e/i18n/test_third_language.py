"""A third language added exactly as the translators' page says: the page's commands run on a
copy of the locale folder, a stub Hindi catalog is written (a few entries in Hindi, the rest the
English text behind a marker), then the real bot runs in its own process on that copy against
the fake server: ``/lang hi``, ``/help``, a quiz and a homework deadline, all in Hindi."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from botproc import BotProcess
from fakebot import FakeTelegram
from quizkit import ROOT, ZERO, button_data, correct_label, populate

from bot.i18n.messages import LOCALE_DIR, po_path

#: where the steps are: the translators' page, or the text waiting to become it
PAGES = (ROOT / "docs" / "translators.md", ROOT / "docs" / "pending" / "lang3.md")
BEGIN, END = "<!-- adding-a-language:begin -->", "<!-- adding-a-language:end -->"
CODE = "hi"
MARK = "⟦hi⟧ "  # an entry the stub did not translate: the English text behind this mark
#: the stub's translations (the rest is marked English)
HINDI = {
    "lang_set": "ठीक है, अब से मैं हिंदी में लिखूँगा।",
    "help_students": "<b>छात्रों के लिए आदेश</b>",
    "help_lang": "/lang hi — भाषा (निजी चैट में)",
    "question_head": "❓ <b>प्रश्न {n}/{total}</b>",
    "alert_right": "✅ सही! +{points:n_points}",
    "hw_card_head": "📚 <b>गृहकार्य: {title}</b>",
    "hw_card_deadline": "⏰ अंतिम समय: {when}",
    "date_pattern": "EEEE, d MMMM, HH:mm",
}
#: the English each translated entry would have shown
ENGLISH_GONE = (
    "I'll write in English",
    "Commands for students",
    "❓ Question",
    "Right!",
    "Homework:",
    "Deadline:",
)
DEVANAGARI = re.compile("[\u0900-\u097f]")


def page_steps() -> list[str]:
    """The commands of the translators' page, in order (a ``#`` line: the translator's turn)."""
    for page in PAGES:
        text = page.read_text("utf-8") if page.exists() else ""
        if BEGIN in text:
            block = text.split(BEGIN, 1)[1].split(END, 1)[0]
            return [line for line in block.splitlines() if line and not line.startswith("```")]
    raise AssertionError(f"no adding-a-language steps in {PAGES}")


def run(line: str, locale: Path) -> subprocess.CompletedProcess[str]:
    """One command of the page, on the copy ``locale`` of the locale folder, with this venv."""
    args = shlex.split(line.replace("bot/i18n/locale", str(locale)))
    args[0] = str(Path(sys.executable).parent / Path(args[0]).name)  # .venv/bin/...
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)


def translate(path: Path) -> None:
    """The translator's turn: every msgstr filled, a few in Hindi, the others marked English."""
    english = {m.id: m for m in _catalog(po_path("en", LOCALE_DIR))}
    catalog = _catalog(path)
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        source = english[message.id].string
        if key in HINDI:
            message.string = HINDI[key]
        elif isinstance(source, tuple):  # Hindi has English's two plural forms (CLDR)
            message.string = tuple(MARK + form for form in source)
        else:
            message.string = MARK + str(source)
    with path.open("wb") as file:
        write_po(file, catalog, no_location=True)


def _catalog(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def in_hindi(text: str) -> bool:
    return bool(DEVANAGARI.search(text)) or MARK.strip() in text


async def test_a_third_language_as_the_translators_page_says(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    locale = Path(shutil.copytree(LOCALE_DIR, tmp_path / "locale"))
    done = []
    for line in page_steps():
        if line.startswith("#"):
            translate(po_path(CODE, locale))
            continue
        done.append(run(line, locale))
    untranslated, final = done[-2], done[-1]
    assert untranslated.returncode == 1  # before the translation, every key is missing in Hindi
    assert f"help_students: no {CODE} translation (empty)" in untranslated.stderr
    assert final.returncode == 0, final.stderr
    assert f"in bn, en, {CODE}: 0 problems" in final.stderr

    cls = populate(tg, students=2)
    chat, student = cls.chat_id, cls.students[0]
    proc = BotProcess(tg, db_path, QUIZBOT_LOCALE_DIR=str(locale))
    await proc.start()
    try:
        tg.user_says(chat, cls.creator, f"/lang {CODE}")
        try:  # the process starts first
            await tg.wait_for_message(chat, HINDI["lang_set"], timeout=90)
        except TimeoutError as exc:
            raise AssertionError(f"the bot did not answer: {proc.stderr}") from exc
        since = len(tg.messages(chat)) - 1
        tg.user_says(chat, cls.creator, "/help", ephemeral=False)  # a visible one: in the log
        await tg.wait_for_message(chat, "छात्रों के लिए आदेश")

        tg.user_says(chat, cls.creator, "/quiz zero 600")
        question = await tg.wait_for_message(chat, "प्रश्न 1/")
        # the bank has no Hindi: its English is shown, the bot's own words in Hindi
        right = button_data(question, correct_label(question, ZERO))
        tap = tg.tap(chat, student, question.message_id, right)
        alert = await tg.wait_answered(tap)
        assert alert.text is not None and alert.text.startswith("✅ सही! +")
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: len(tg.messages(chat)) > since + 4)

        tg.user_says(chat, cls.creator, "/homework zero 3d")
        card = await tg.wait_for_message(chat, "गृहकार्य: ")
        hindi = Locale.parse(CODE)
        days = "|".join(hindi.days["format"]["wide"].values())
        months = "|".join(hindi.months["format"]["wide"].values())
        when = rf"⏰ अंतिम समय: ({days}), \d{{1,2}} ({months}), \d\d:\d\d \(UTC\+6\)"
        assert re.search(when, card.text), card.text

        shown = [m.text for m in tg.messages(chat)[since:]] + [alert.text]
        assert all(in_hindi(text) for text in shown), shown
        assert not [gone for gone in ENGLISH_GONE if any(gone in text for text in shown)]
        assert await proc.terminate() == 0
    finally:
        await proc.close()
    assert "Traceback" not in proc.stderr and "KeyError" not in proc.stderr, proc.stderr
