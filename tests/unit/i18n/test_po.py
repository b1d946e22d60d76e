"""The gettext catalogs: valid for translators' tools, read by the bot as Babel reads them, and
checked (``python -m bot.i18n.check``, a step of ./scripts/test.sh) for a missing translation,
a placeholder mismatch and a duplicate key: each failure shown caught on a broken copy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po as babel_read_po

from bot.i18n import check as po_check
from bot.i18n.messages import LOCALE_DIR, CatalogError, load, plural_index, po_path, read_po


@pytest.fixture
def locale(tmp_path: Path) -> Path:
    """A copy of the shipped catalogs, to break."""
    return Path(shutil.copytree(LOCALE_DIR, tmp_path / "locale"))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_shipped_catalogs_pass() -> None:
    assert po_check.check() == []
    assert po_check.msgfmt() == []


def test_the_check_runs_as_a_command_and_fails_on_a_problem(locale: Path) -> None:
    args = [sys.executable, "-m", "bot.i18n.check", "--locale-dir", str(locale)]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "keys in bn, en: 0 problems" in done.stderr
    edit(po_path("en", locale), 'msgstr "Nobody answered."', 'msgstr ""')
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "results_nobody: no en translation (empty)" in done.stderr


def test_a_missing_translation_is_caught(locale: Path) -> None:
    edit(po_path("bn", locale), 'msgstr "কেউ উত্তর দেননি।"', 'msgstr ""')
    edit(
        po_path("bn", locale),
        'msgctxt "review"\nmsgid "when_day"',
        '#, fuzzy\nmsgctxt "review"\nmsgid "when_day"',
    )
    # an entry present in English only
    edit(
        po_path("en", locale),
        'msgctxt "quiz"\nmsgid "quiz_none"',
        'msgctxt "quiz"\nmsgid "quiz_none2"',
    )
    problems = po_check.check(locale)
    assert "results_nobody: no bn translation (empty)" in problems
    assert "quiz_none2: no bn translation (missing)" in problems
    assert "quiz_none: no en translation (missing)" in problems
    assert any(p.startswith("when_day: no bn translation (fuzzy)") for p in problems), problems


def test_a_placeholder_mismatch_is_caught(locale: Path) -> None:
    edit(po_path("bn", locale), "{rank} নম্বরে, {points} পয়েন্ট", "{rank} নম্বরে, {point} পয়েন্ট")
    edit(po_path("en", locale), 'msgstr[1] "{n} days"', 'msgstr[1] "{count} days"')
    edit(po_path("en", locale), "{asked} of {total:n_questions} asked", "{asked} of {total:n_qs}")
    problems = po_check.check(locale)
    assert any(p.startswith("lb_private_line: placeholders differ") for p in problems), problems
    assert any(p.startswith("n_days: placeholders differ") for p in problems), problems
    assert "results_stopped [en]: {total:n_qs} names no plural entry" in problems


def test_a_duplicate_key_is_caught(locale: Path) -> None:
    en = po_path("en", locale)
    # twice with the same context (Babel's reader would keep one of them silently) ...
    en.write_text(
        en.read_text(encoding="utf-8")
        + '\nmsgctxt "help"\nmsgid "cmd_reload"\nmsgstr "Re-read the questions folder (admins)"\n',
        encoding="utf-8",
    )
    # ... and one key in two contexts
    bn = po_path("bn", locale)
    bn.write_text(
        bn.read_text(encoding="utf-8") + '\nmsgctxt "stats"\nmsgid "quiz_none"\nmsgstr "নেই।"\n',
        encoding="utf-8",
    )
    problems = po_check.check(locale)
    assert "en: quizbot.po: cmd_reload (msgctxt help) defined 2 times" in problems
    assert "bn: quizbot.po: quiz_none defined in contexts quiz, stats" in problems
    with pytest.raises(CatalogError, match="quiz_none: in two message contexts"):
        load(locale)


def test_a_stale_template_or_a_plural_rule_not_cldr_s_is_caught(locale: Path) -> None:
    edit(po_path("en", locale), 'msgstr "Nobody answered."', 'msgstr "No one answered."')
    edit(po_path("bn", locale), "plural=((((n == 0)) || ((n == 1))) ? 0 : 1)", "plural=(n > 1)")
    problems = po_check.check(locale)
    assert "quizbot.pot is not up to date: python -m bot.i18n.check --write" in problems
    assert any(p.startswith("bn: Plural-Forms") for p in problems), problems
    edit(po_path("bn", locale), "plural=(n > 1)", "plural=((((n == 0)) || ((n == 1))) ? 0 : 1)")
    po_check.write_template(locale)
    assert po_check.check(locale) == []
    assert "English:\n#. No one answered." in po_path("bn", locale).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [po_path("bn"), po_path("en"), po_check.template_path()])
def test_the_files_are_as_babel_writes_them_and_read_as_babel_reads_them(path: Path) -> None:
    """Babel's read_po/write_po round trip gives the file back byte for byte (valid gettext,
    what Poedit, Weblate and Crowdin read), and the bot's own fast reader finds exactly the
    entries Babel finds."""
    with path.open("rb") as file:
        catalog = babel_read_po(file)
    assert po_check.po_bytes(catalog) == path.read_bytes()
    ours = [(e.context, e.key, e.string, e.fuzzy) for e in read_po(path.read_text("utf-8"))]
    theirs = [
        (
            m.context or "",
            m.id[0] if isinstance(m.id, tuple) else m.id,
            tuple(m.string) if isinstance(m.string, tuple) else m.string,
            m.fuzzy,
        )
        for m in catalog
    ]
    assert ours[1:] == theirs[1:]  # Babel gives the header as its own, parsed


def test_the_reader_handles_what_editors_write() -> None:
    """Comments, flags, wrapped strings, escapes, obsolete entries, an entry with no context."""
    text = (
        '# translator\nmsgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#. note\n#, fuzzy, python-brace-format\nmsgctxt "a"\nmsgid "k1"\n'
        'msgstr ""\n"line \\"one\\"\\n"\n"tab\\there \\\\ end"\n\n'
        'msgid "k2"\nmsgid_plural "k2"\nmsgstr[0] "{n} x"\nmsgstr[1] "{n} xs"\n\n'
        '#~ msgid "old"\n#~ msgstr "gone"\n'
    )
    entries = list(read_po(text))
    assert [(e.context, e.key, e.string, e.fuzzy) for e in entries[1:]] == [
        ("a", "k1", 'line "one"\ntab\there \\ end', True),
        ("", "k2", ("{n} x", "{n} xs"), False),
    ]


def test_the_plural_forms_are_cldr_s() -> None:
    """The header the bot reads gives, for every n, the form Babel's CLDR rule names."""
    for lang in ("bn", "en"):
        header = str(next(read_po(po_path(lang).read_text("utf-8"))).string)
        index = plural_index(header)
        rule = Locale.parse(lang).plural_form
        tags = [t for t in ("zero", "one", "two", "few", "many", "other") if t in rule.tags]
        tags.append("other")
        for n in range(0, 200):
            assert tags[index(n)] == rule(n), (lang, n)
