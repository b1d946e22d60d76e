"""Uploads, in English and in Bengali: the document's caption is the quiz's title, its name keeps
the digits as written (Bengali ones too), ``/rename`` takes such a name, GIFT's TeX braces
written unescaped get a hint, and a /newquiz draft still open is mentioned."""

from __future__ import annotations

from pathlib import Path

import pytest
from authorkit import say
from fakebot import FakeTelegram
from harness import BotHarness
from uploadkit import upload

from bot.i18n import t_plain
from bot.i18n.lang import Lang

GIFT = (
    b"::frac::What is $\\frac{a}{b}$ for a = 1, b = 2? {=0.5 ~2 ~1}\n\n"
    b"::ok::Is water wet? {=yes ~no}\n\n"
    b"::sq::What is 3^{2}? {=9 ~6}\n"
)

CAPTION = {"en": "Light week 3", "bn": "আলো-সপ্তাহ৩"}
NAME = {"en": "light-week-3", "bn": "আলো-সপ্তাহ৩"}
TWIN = {"en": "light-week-3-2", "bn": "আলো-সপ্তাহ৩-২"}
RENAMED = {"en": "light-3", "bn": "আলো-৩"}
SAVED = {"en": "saved as", "bn": "নামে সংরক্ষিত"}


@pytest.mark.parametrize("lang", ["en", "bn"])
async def test_caption_title_digits_tex_hint_and_draft_note(
    tg: FakeTelegram, db_path: Path, lang: Lang
) -> None:
    teacher = tg.add_user(61, "Farhana", language_code=lang)
    async with BotHarness(tg, db_path) as bot:
        await say(tg, teacher, f"/lang {lang}", t_plain(lang, "lang_set"))
        await say(tg, teacher, "/newquiz Optics", "Optics")  # a draft is open
        reply = await upload(tg, teacher, "upload.gift", GIFT, "\\{", caption=CAPTION[lang])
        [row] = await bot.services.store.authored_by(teacher.id)
        # the caption is the title, and the name keeps its digits as written
        assert (row.title, row.name) == (CAPTION[lang], NAME[lang])
        assert NAME[lang] in reply.text
        # both TeX questions skipped with the hint, the plain one kept
        assert row.question_count == 1
        assert reply.text.count("\\frac\\{a\\}\\{b\\}") == 2
        draft_line = t_plain(lang, "upload_draft_waiting", title="Optics")
        assert draft_line in reply.text
        # a second upload without a draft: no note; its name counts on in the same script
        await say(tg, teacher, "/cancel", "")
        # the same title again: replace that quiz, or keep both (here: both)
        ask = t_plain(lang, "upload_btn_both")
        second = await upload(tg, teacher, "upload.gift", GIFT, "\\{", caption=CAPTION[lang])
        assert draft_line not in second.text and NAME[lang] in second.text
        both = next(d for row in second.buttons for label, d in row if label == ask)
        await tg.wait_answered(tg.tap(teacher.id, teacher, second.message_id, both))
        kept = await tg.wait_for(lambda: tg.find_message(teacher.id, TWIN[lang]), what="kept both")
        assert kept is not None
        # /rename takes a name with Bengali digits
        done = await say(tg, teacher, f"/rename {TWIN[lang]} {RENAMED[lang]}", "✅")
        assert f"{TWIN[lang]}" in done.text and RENAMED[lang] in done.text
        names = {r.name for r in await bot.services.store.authored_by(teacher.id)}
        assert names == {NAME[lang], RENAMED[lang]}
