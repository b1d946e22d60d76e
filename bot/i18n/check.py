"""The catalog's check, and its upkeep: ``python -m bot.i18n.check`` (run by ``./scripts/test.sh``).

Every language is checked alike. It fails when a key lacks a translation in one of the languages
(empty or fuzzy), when the placeholders of a key differ between languages or plural forms, when a
template names a plural entry that does not exist, when a key is defined twice (twice in one
file, or in two message contexts), when a file's ``Plural-Forms`` is not the CLDR rule of its
language, when a ``date_pattern`` is not a CLDR date pattern, when a folder of the locale folder
is not a language the bot reads (a two-letter code CLDR knows, with its ``quizbot.po``), or when
the ``.pot`` template is not the one the English file gives. With ``--write`` it first rewrites
the template and the English notes (``#.``) of the other languages from the English file. With
``msgfmt`` installed (apt ``gettext``) it also runs ``msgfmt --check`` on every file.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import string
import subprocess
import sys
from collections import Counter
from pathlib import Path

from babel import Locale
from babel.dates import tokenize_pattern
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import denormalize, read_po, write_po
from babel.plural import to_gettext

from bot.i18n.lang import DOMAIN, LOCALE_DIR, languages, po_path

#: what a deadline's date pattern may name: weekday, day, month, year, hour, minute, am/pm
_DATE_LETTERS = frozenset("EcdMLyHhKkmaB")
_ENTRY = re.compile(r'^(?:msgctxt (".*"(?:\n".*")*)\n)?msgid (".*"(?:\n".*")*)', re.MULTILINE)


def template_path(locale_dir: Path = LOCALE_DIR) -> Path:
    """The ``.pot`` template: every key with its context and English notes, no translation."""
    return locale_dir / f"{DOMAIN}.pot"


def plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header of ``lang``: its CLDR plural rule, as gettext writes it."""
    return to_gettext(Locale.parse(lang).plural_form)


def read_catalog(lang: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """``lang``'s catalog, or a new empty one (with the CLDR plural rule) if it has no file."""
    path = po_path(lang, locale_dir)
    if path.exists():
        with path.open("rb") as file:
            return read_po(file, locale=lang, abort_invalid=True)
    catalog = Catalog(locale=lang, domain=DOMAIN, project="quizbot", fuzzy=False)
    catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", plural_forms(lang))]
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    """``catalog`` as Babel writes a .po file (no source locations: keys live in the code)."""
    out = io.BytesIO()
    write_po(out, catalog, no_location=True, include_previous=False)
    return out.getvalue()


def save_catalog(catalog: Catalog, lang: str, locale_dir: Path = LOCALE_DIR) -> None:
    """Write ``catalog`` as ``lang``'s .po file."""
    path = po_path(lang, locale_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(po_bytes(catalog))


def _key(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def _notes(message: Message) -> list[str]:
    """The English text of ``message`` as translators' notes, one line per ``#.``."""
    if not isinstance(message.string, tuple):
        return ["English:", *str(message.string).split("\n")]
    names = ("one", "other") if len(message.string) == 2 else range(len(message.string))
    return [
        line
        for name, form in zip(names, message.string, strict=True)
        for line in (f"English ({name}):", *str(form).split("\n"))
    ]


def template(locale_dir: Path = LOCALE_DIR) -> bytes:
    """The ``.pot`` that the English file gives."""
    english = read_catalog("en", locale_dir)
    pot = Catalog(
        domain=DOMAIN,
        project="quizbot",
        fuzzy=False,
        creation_date=english.creation_date,
        revision_date=english.creation_date,
    )
    for message in english:
        if message.id:
            empty = ("", "") if isinstance(message.id, tuple) else ""
            pot.add(message.id, empty, auto_comments=_notes(message), context=message.context)
    return po_bytes(pot)


def write_template(locale_dir: Path = LOCALE_DIR) -> None:
    """Rewrite the ``.pot`` and the English notes of every other language's file, and set each
    file's ``Plural-Forms`` to its language's CLDR rule."""
    template_path(locale_dir).write_bytes(template(locale_dir))
    english = {(_key(m), m.context): m for m in read_catalog("en", locale_dir) if m.id}
    for lang in languages(locale_dir):
        catalog = read_catalog(lang, locale_dir)
        if catalog.plural_forms != plural_forms(lang):  # pybabel init writes its own table's
            catalog.mime_headers = [("Plural-Forms", plural_forms(lang))]
            for message in catalog:
                if message.id and isinstance(message.string, tuple):
                    forms = [*message.string, "", "", "", "", "", ""][: catalog.num_plurals]
                    message.string = tuple(forms)
        if lang == "en":
            save_catalog(catalog, lang, locale_dir)
            continue
        for message in catalog:
            source = english.get((_key(message), message.context))
            if message.id and source is not None:
                message.auto_comments = _notes(source)
        save_catalog(catalog, lang, locale_dir)


def definitions(path: Path) -> list[tuple[str, str]]:
    """Every ``(msgctxt, msgid)`` written in ``path``, repeats included (Babel's reader keeps
    one of two entries with the same msgid and context, silently)."""
    text = path.read_text(encoding="utf-8")
    return [
        (denormalize(ctxt) if ctxt else "", denormalize(msgid))
        for ctxt, msgid in _ENTRY.findall(text)
    ]


def fields(template: str) -> dict[str, str]:
    """A template's placeholders: name -> format spec (``{count:n_questions}``)."""
    return {
        name: spec or ""
        for _, name, spec, _ in string.Formatter().parse(template)
        if name is not None
    }


def _duplicates(path: Path) -> list[str]:
    problems = []
    defined = definitions(path)
    for (ctxt, key), times in Counter(defined).items():
        if key and times > 1:
            problems.append(f"{path.name}: {key} (msgctxt {ctxt}) defined {times} times")
    contexts: dict[str, set[str]] = {}
    for ctxt, key in set(defined):
        if key:
            contexts.setdefault(key, set()).add(ctxt)
    for key, found in sorted(contexts.items()):
        if len(found) > 1:
            problems.append(f"{path.name}: {key} defined in contexts {', '.join(sorted(found))}")
    return problems


def _forms(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, tuple):
        return tuple(map(str, message.string))
    return (str(message.string or ""),)


def check(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """Every problem of the catalog in ``locale_dir``; empty when it is sound."""
    problems: list[str] = []
    catalogs: dict[str, dict[str, Message]] = {}
    langs = languages(locale_dir)
    for lang in langs:
        path = po_path(lang, locale_dir)
        if not path.exists():
            problems.append(f"{lang}: no file {path}")
            continue
        problems += [f"{lang}: {p}" for p in _duplicates(path)]
        try:
            catalog = read_catalog(lang, locale_dir)
        except Exception as exc:  # Babel's PoFileError, a bad header...
            problems.append(f"{lang}: {path.name} is not a valid .po file: {exc}")
            continue
        if catalog.plural_forms != plural_forms(lang):
            problems.append(
                f"{lang}: Plural-Forms {catalog.plural_forms!r}, CLDR says {plural_forms(lang)!r}"
            )
        catalogs[lang] = {_key(m): m for m in catalog if m.id}
        for key, message in catalogs[lang].items():
            if message.pluralizable and len(_forms(message)) != catalog.num_plurals:
                problems.append(
                    f"{key} [{lang}]: {len(_forms(message))} plural forms, "
                    f"Plural-Forms says {catalog.num_plurals}"
                )
    problems += _strays(locale_dir, langs)
    if len(catalogs) < len(langs):
        return problems
    problems += _date_patterns(catalogs)
    plurals = {key for key, m in catalogs["en"].items() if m.pluralizable}
    for key in sorted(set().union(*catalogs.values())):
        problems += _check_key(key, {lang: c.get(key) for lang, c in catalogs.items()}, plurals)
    pot = template_path(locale_dir)
    if not pot.exists() or pot.read_bytes() != template(locale_dir):
        problems.append(f"{DOMAIN}.pot is not up to date: python -m bot.i18n.check --write")
    return problems


def _strays(locale_dir: Path, langs: tuple[str, ...]) -> list[str]:
    """A folder the bot would pass over: a misspelt code, a regional one, a missing file."""
    return [
        f"{path.name}: not a language the bot reads (a two-letter ISO 639-1 code CLDR knows, "
        f"with {po_path(path.name, locale_dir).relative_to(locale_dir)})"
        for path in sorted(locale_dir.iterdir())
        if path.is_dir() and path.name not in langs
    ]


def _date_patterns(catalogs: dict[str, dict[str, Message]]) -> list[str]:
    """Each language's ``date_pattern`` is a CLDR date pattern of a day, a month and a time
    (Babel would pass an unknown letter through as text)."""
    problems = []
    for lang, messages in catalogs.items():
        message = messages.get("date_pattern")
        if message is None or not message.string:
            continue  # reported as missing by the key check
        try:
            letters = {
                value[0] for kind, value in tokenize_pattern(str(message.string)) if kind == "field"
            }
        except ValueError as exc:
            letters = {f"({exc})"}
        if not letters <= _DATE_LETTERS or not {"d", "m"} <= letters or not letters & {"M", "L"}:
            problems.append(
                f"date_pattern [{lang}]: {message.string!r} is not a CLDR date pattern of a day "
                f"(d, E), a month (M) and a time (HH:mm); its letters: {''.join(sorted(letters))}"
            )
    return problems


def _check_key(key: str, entries: dict[str, Message | None], plurals: set[str]) -> list[str]:
    """The problems of one key across the languages."""
    problems = []
    placeholders: dict[str, set[str]] = {}
    shapes = set()
    contexts = {m.context for m in entries.values() if m is not None}
    if len(contexts) > 1:
        problems.append(f"{key}: in contexts {', '.join(sorted(map(str, contexts)))} by language")
    for lang, message in entries.items():
        if message is None or message.fuzzy or not all(_forms(message)):
            state = "missing" if message is None else "fuzzy" if message.fuzzy else "empty"
            problems.append(f"{key}: no {lang} translation ({state})")
            continue
        shapes.add(message.pluralizable)
        for i, form in enumerate(_forms(message)):
            where = f"{key} [{lang}]" + (f" msgstr[{i}]" if message.pluralizable else "")
            try:
                found = fields(form)
            except ValueError as exc:
                problems.append(f"{where}: not a valid template ({exc})")
                continue
            placeholders[f"{lang}" + (f"[{i}]" if message.pluralizable else "")] = set(found)
            for name, spec in found.items():
                if spec and spec not in plurals:
                    problems.append(f"{where}: {{{name}:{spec}}} names no plural entry")
                if not name.isidentifier():
                    problems.append(f"{where}: placeholder {{{name}}} is not a name")
    if len(shapes) > 1:
        problems.append(f"{key}: a plural entry in one language, a single text in another")
    if len({frozenset(p) for p in placeholders.values()}) > 1:
        shown = "; ".join(f"{w}: {sorted(p)}" for w, p in placeholders.items())
        problems.append(f"{key}: placeholders differ ({shown})")
    return problems


def msgfmt(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """``msgfmt --check`` on every file, if gettext's msgfmt is installed."""
    tool = shutil.which("msgfmt")
    if tool is None:
        return []
    problems = []
    langs = languages(locale_dir)
    for path in [*(po_path(lang, locale_dir) for lang in langs), template_path(locale_dir)]:
        done = subprocess.run(
            [tool, "--check", "-o", "/dev/null", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            problems.append(f"msgfmt --check {path.name}: {done.stderr.strip()}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the catalog (``--write``: refresh the template and notes first); exit 1 on any
    problem."""
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.check", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the .pot and the notes")
    parser.add_argument("--locale-dir", type=Path, default=LOCALE_DIR)
    args = parser.parse_args(argv)
    if args.write:
        write_template(args.locale_dir)
    problems = check(args.locale_dir) + msgfmt(args.locale_dir)
    for problem in problems:
        print(problem, file=sys.stderr)
    keys = sum(1 for _, key in definitions(po_path("en", args.locale_dir)) if key)
    langs = ", ".join(languages(args.locale_dir))
    print(f"i18n: {keys} keys in {langs}: {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
