"""The ``quizbot`` command: run the bot, check and play question banks, back up the database."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot import __version__
from bot.banks.export import export_quiz
from bot.banks.yaml_reader import load_folder
from bot.core.bank import Quiz
from bot.core.settings import Settings, SettingsError, load_settings, read_env_file
from bot.i18n import parse_lang, t_plain
from bot.i18n.lang import LANGS, Lang


def _environment() -> dict[str, str]:
    """The process environment over a ``.env`` file in the working directory, if any."""
    env = read_env_file(Path(".env"))
    env.update(os.environ)
    return env


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbot",
        description="A Telegram bot that runs multiple-choice quizzes in study groups.",
    )
    parser.add_argument("--version", action="version", version=f"quizbot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sub.add_parser(
        "run",
        help="run the bot (long polling, or a webhook with "
        "QUIZBOT_WEBHOOK_URL); settings from the environment",
    )
    validate = sub.add_parser("validate", help="check question banks; exit 1 on any problem")
    validate.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="files or folders (default: the configured questions folder)",
    )
    play = sub.add_parser("play", help="play a quiz in the terminal (answers from stdin)")
    play.add_argument("quiz", metavar="QUIZ", help="quiz id, e.g. zero")
    play.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="the game's language (default: QUIZBOT_LANGUAGE for a bilingual quiz, "
        "else the quiz's own)",
    )
    play.add_argument("--seed", type=int, default=None, help="shuffle seed, for repeatable runs")
    imp = sub.add_parser(
        "import",
        help="turn GIFT, Aiken, Moodle XML, CSV or Open Trivia DB "
        "files into question banks; exit 1 if something was "
        "skipped, 2 if nothing could be imported",
    )
    imp.add_argument("files", nargs="+", type=Path, metavar="FILE", help="files to import")
    imp.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where to write the banks (default: the configured questions folder)",
    )
    imp.add_argument(
        "--id",
        default=None,
        metavar="NAME",
        help="quiz id (with one FILE; default: from the file name)",
    )
    imp.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="the questions' language (default: guessed from the text)",
    )
    imp.add_argument("--title", default=None, help="the quiz's title (default: from the file)")
    imp.add_argument("--force", action="store_true", help="replace an existing bank file")
    backup = sub.add_parser("backup", help="write a consistent copy of the live database")
    backup.add_argument("path", type=Path, metavar="PATH", help="where to write the copy")
    export = sub.add_parser(
        "export-quiz",
        help="write a quiz (a folder bank, or one written in Telegram) as a YAML bank file",
    )
    export.add_argument("quiz", metavar="NAME", help="its name, or a stored quiz's id u.N")
    export.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="PATH",
        help="file to write (default: NAME.yaml here; - for stdout)",
    )
    return parser


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Entry point; returns the exit code."""
    # PTB 22 warns on every RetryAfter unless it may use timedelta (the future default).
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    args = _parser().parse_args(argv)
    env = dict(env) if env is not None else _environment()
    try:
        settings = load_settings(env, require_token=False)
    except SettingsError as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 2
    lang = settings.language  # QUIZBOT_LANGUAGE: the language of everything printed
    if args.command == "run":
        return _run(settings)
    if args.command == "validate":
        return _validate(args.paths or [settings.questions], lang)
    if args.command == "play":
        return _play(settings.questions, args.quiz, args.lang, args.seed, lang)
    if args.command == "export-quiz":
        return export_quiz(settings.questions, settings.db_path, args.quiz, args.out, lang)
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
    key = "cli_kind_bilingual" if quiz.bilingual else f"cli_kind_{quiz.language}_only"
    return t_plain(lang, key)


def _validate(paths: list[Path], lang: Lang) -> int:
    from bot.render import bank_limits

    quizzes, problems = load_folder(paths, bank_limits())
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

    # The game speaks --lang, else QUIZBOT_LANGUAGE if the quiz has it, else the quiz's own.
    game = parse_lang(chosen) or (lang if quiz.bilingual else quiz.language)
    play(quiz, game, read, sys.stdout, random.Random(seed), time.time)
    return 0


def _backup(db: Path, dest: Path, lang: Lang) -> int:
    from bot.storage import Store

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


def _run(settings: Settings) -> int:
    lang = settings.language
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
