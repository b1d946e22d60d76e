"""The ``quizbot`` command: run the bot, check and play question banks, back up the database."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from bot import __version__
from bot.banks.export import EXPORT_FORMATS, export_quiz
from bot.banks.yaml_reader import load_folder
from bot.core.bank import Quiz
from bot.core.settings import Settings, SettingsError, load_settings, read_env_file
from bot.i18n import parse_lang, t_plain
from bot.i18n.lang import LANGS, Lang, language_name


def _environment() -> dict[str, str]:
    """The process environment over a ``.env`` file in the working directory, if any."""
    env = read_env_file(Path(".env"))
    env.update(os.environ)
    return env


def operator_language(env: Mapping[str, str]) -> Lang:
    """The language of the operator's locale: the first non-empty of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` (as gettext reads them); ``bn*`` is Bengali, anything else
    (``C.UTF-8``, ``en_US.UTF-8``, none) English. ``QUIZBOT_LANGUAGE`` is the chats' default
    and plays no part here."""
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    return "bn" if locale.startswith("bn") else "en"


class _Parser(argparse.ArgumentParser):
    """argparse in the operator's language: our help texts from the catalog, and argparse's own
    words (usage, section titles, -h, the error prefix) too; its error details stay English."""

    def __init__(self, *, lang: Lang, **kwargs: Any) -> None:
        class Formatter(argparse.HelpFormatter):
            def add_usage(
                self,
                usage: str | None,
                actions: Iterable[argparse.Action],
                groups: Iterable[Any],
                prefix: str | None = None,
            ) -> None:
                prefix = t_plain(lang, "cli_help_usage") if prefix is None else prefix
                super().add_usage(usage, actions, groups, prefix)

        super().__init__(add_help=False, formatter_class=Formatter, **kwargs)
        self.lang = lang
        self.arguments = self.add_argument_group(t_plain(lang, "cli_help_positionals"))
        self.options = self.add_argument_group(t_plain(lang, "cli_help_options"))
        self.options.add_argument(
            "-h", "--help", action="help", help=t_plain(lang, "cli_help_help")
        )

    def error(self, message: str) -> NoReturn:
        """Usage and ``quizbot: error: ...`` (in the operator's language) on stderr; exit 2."""
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {t_plain(self.lang, 'cli_help_error', message=message)}\n")


def _parser(lang: Lang) -> _Parser:
    def say(key: str) -> str:
        return t_plain(lang, f"cli_help_{key}")

    parser = _Parser(prog="quizbot", description=say("description"), lang=lang)
    parser.options.add_argument(
        "--version", action="version", version=f"quizbot {__version__}", help=say("version")
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, title=say("commands")
    )
    sub.add_parser("run", help=say("run"), description=say("run"), lang=lang)
    validate = sub.add_parser(
        "validate", help=say("validate"), description=say("validate"), lang=lang
    )
    validate.arguments.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help=say("validate_paths")
    )
    play = sub.add_parser("play", help=say("play"), description=say("play"), lang=lang)
    play.arguments.add_argument("quiz", metavar="QUIZ", help=say("play_quiz"))
    play.options.add_argument("--lang", choices=LANGS, default=None, help=say("play_lang"))
    play.options.add_argument("--seed", type=int, default=None, help=say("play_seed"))
    imp = sub.add_parser("import", help=say("import"), description=say("import"), lang=lang)
    imp.arguments.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help=say("import_files")
    )
    imp.options.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help=say("import_out")
    )
    imp.options.add_argument("--id", default=None, metavar="NAME", help=say("import_id"))
    imp.options.add_argument("--lang", choices=LANGS, default=None, help=say("import_lang"))
    imp.options.add_argument("--title", default=None, help=say("import_title"))
    imp.options.add_argument("--force", action="store_true", help=say("import_force"))
    backup = sub.add_parser("backup", help=say("backup"), description=say("backup"), lang=lang)
    backup.arguments.add_argument("path", type=Path, metavar="PATH", help=say("backup_path"))
    export = sub.add_parser("export-quiz", help=say("export"), description=say("export"), lang=lang)
    export.arguments.add_argument("quiz", metavar="NAME", help=say("export_quiz"))
    export.options.add_argument(
        "--out", type=Path, default=None, metavar="PATH", help=say("export_out")
    )
    export.options.add_argument(
        "--format", choices=EXPORT_FORMATS, default="yaml", help=say("export_format")
    )
    export.options.add_argument("--lang", choices=LANGS, default=None, help=say("export_lang"))
    return parser


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Entry point; returns the exit code. The command speaks the operator's locale
    (:func:`operator_language`), ``--help`` included."""
    # PTB 22 warns on every RetryAfter unless it may use timedelta (the future default).
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    env = dict(env) if env is not None else _environment()
    lang = operator_language(env)
    args = _parser(lang).parse_args(argv)
    try:
        settings = load_settings(env, require_token=False)
    except SettingsError as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 2
    if args.command == "run":
        return _run(settings, lang)
    if args.command == "validate":
        return _validate(args.paths or [settings.questions], lang, settings.db_path)
    if args.command == "play":
        return _play(settings.questions, args.quiz, args.lang, args.seed, lang)
    if args.command == "export-quiz":
        return export_quiz(
            settings.questions,
            settings.db_path,
            args.quiz,
            args.out,
            lang,
            args.format,
            parse_lang(args.lang),
        )
    if args.command == "import":
        from bot.cli.importing import import_files

        return import_files(
            args.files,
            out=args.out or settings.questions,
            quiz_id=args.id,
            lang=args.lang,
            title=args.title,
            force=args.force,
            say=lang,
        )
    return _backup(settings.db_path, args.path, lang)


def _refuse(lang: Lang, key: str, **values: object) -> int:
    """Print the refusal ``key`` (``quizbot: ...``) to stderr in ``lang``; exit code 2."""
    print(f"quizbot: {t_plain(lang, key, **values)}", file=sys.stderr)
    return 2


def _kind(quiz: Quiz, lang: Lang) -> str:
    if quiz.text_language is not None:
        return t_plain(
            lang, "cli_kind_other_only", language=language_name(quiz.text_language, lang)
        )
    key = "cli_kind_bilingual" if quiz.bilingual else f"cli_kind_{quiz.language}_only"
    return t_plain(lang, key)


def _validate(paths: list[Path], lang: Lang, db: Path | None = None) -> int:
    from bot.render import bank_limits

    quizzes, problems = load_folder(paths, bank_limits())
    if db is not None:
        _print_fixes(quizzes, db, lang)
    for problem in problems:
        print(problem.text(lang))
    for quiz in quizzes.values():
        values = {"source": quiz.source, "quiz": quiz.id, "count": len(quiz.questions)}
        print(
            t_plain(lang, "cli_valid_pick", pick=quiz.pick, kind=_kind(quiz, lang), **values)
            if quiz.pick
            else t_plain(lang, "cli_valid", kind=_kind(quiz, lang), **values),
            file=sys.stderr,
        )
    return 1 if problems else 0


def _print_fixes(quizzes: Mapping[str, Quiz], db: Path, lang: Lang) -> None:
    """The keys re-grades in the bot fixed over these bank files (kept in the database ``db``:
    the files are never written), one line each."""
    from bot.core.regrade import NumberKey, OptionsKey, key_from_json
    from bot.render import label
    from bot.storage import key_fixes_in_file

    for fix in key_fixes_in_file(db):
        quiz, key = quizzes.get(fix.quiz_id), key_from_json(fix.key)
        ids = [q.id for q in quiz.questions] if quiz is not None else []
        if fix.question_id not in ids or key is None:
            continue
        number = ids.index(fix.question_id) + 1
        if isinstance(key, OptionsKey):
            shown = ", ".join(label(o) for o in key.options)
        elif isinstance(key, NumberKey):
            shown = f"{key.value:g} ± {key.tolerance:g}"
        else:
            shown = f"“{key.text}”"
        when = datetime.fromtimestamp(fix.fixed_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        print(
            t_plain(
                lang, "cli_key_fix", quiz=fix.quiz_id, question=number, answer=shown, when=when
            ),
            file=sys.stderr,
        )


def _play(folder: Path, quiz_id: str, chosen: str | None, seed: int | None, lang: Lang) -> int:
    from bot.cli.play import play
    from bot.render import bank_limits

    quizzes, problems = load_folder([folder], bank_limits())
    quiz = quizzes.get(quiz_id)
    if quiz is None:
        for problem in problems:
            print(problem.text(lang), file=sys.stderr)
        names = ", ".join(sorted(quizzes)) or t_plain(lang, "cli_none")
        return _refuse(lang, "cli_no_such_quiz", quiz=quiz_id, names=names)

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    # The game speaks --lang, else the operator's language if the quiz has it, else its own.
    # (A bank in another language is read as written; the game's own words: the operator's.)
    one = quiz.language if quiz.text_language is None else lang
    game = parse_lang(chosen) or (lang if quiz.bilingual else one)
    play(quiz, game, read, sys.stdout, random.Random(seed), time.time)
    return 0


def _backup(db: Path, dest: Path, lang: Lang) -> int:
    from bot.app.store import Store

    if not db.exists():
        return _refuse(lang, "cli_no_database", db=str(db))

    async def copy() -> None:
        store = await Store.open(db)
        try:
            await store.backup(dest)
        finally:
            await store.close()

    asyncio.run(copy())
    print(t_plain(lang, "cli_backup_written", dest=str(dest)), file=sys.stderr)
    return 0


def _run(settings: Settings, lang: Lang) -> int:
    if not settings.token:
        return _refuse(lang, "cli_no_token")
    from bot.app.application import run
    from bot.render import bank_limits

    folder = settings.questions
    quizzes, problems = load_folder([folder], bank_limits())
    if not quizzes:
        key = "cli_folder_no_quiz" if folder.exists() else "cli_folder_missing"
        return _refuse(lang, key, folder=str(folder))
    return run(settings, quizzes, problems)
