"""Operations: the ``quizbot`` command as an operator runs it, in a separate process.

Logs are one line per event with a level, the token never shows in them at any level, SIGTERM
and SIGINT stop the bot cleanly and a restart carries the quiz on, and a missing or rejected
token ends the bot with a clear one-line message.
"""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from docskit import read, section
from fakebot import FakeTelegram
from quizkit import button_data, correct_label, open_question, populate
from shipkit import LOCALE, ROOT, TOKEN, QuizbotProcess, healthcheck, quizbot_env

from bot import __version__
from bot.cli import _parser, operator_language

LOG_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} "
    r"(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: "
)


def quizbot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=tmp_path,
        env=quizbot_env(None, None, **env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def token_variants() -> list[str]:
    return [TOKEN, quote(TOKEN, safe=""), quote(TOKEN), TOKEN.split(":", 1)[1]]


def stored_answers(db: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT q_index, user_id FROM answers ORDER BY user_id").fetchall()


def wal_exists(db: Path) -> bool:
    return Path(f"{db}-wal").exists()


def test_version(tmp_path: Path) -> None:
    done = quizbot(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"quizbot {__version__}"


def test_help_lists_every_subcommand(tmp_path: Path) -> None:
    done = quizbot(tmp_path, "--help")
    assert done.returncode == 0
    subcommands = next(a for a in _parser("en")._actions if a.dest == "command").choices
    assert subcommands is not None
    names = set(subcommands)
    assert {"run", "validate", "play", "backup"} <= names
    for name in names:
        assert re.search(rf"^\s+{name}\s+\S", done.stdout, re.MULTILINE), (name, done.stdout)


@pytest.mark.parametrize("chats", ["bn", "en"])
def test_validate_speaks_the_operator_s_locale(tmp_path: Path, chats: str) -> None:
    """``quizbot validate`` prints English with LANG=C.UTF-8 and Bengali with
    LANG=bn_BD.UTF-8, whatever QUIZBOT_LANGUAGE (the chats' default) says."""
    english = quizbot(tmp_path, "validate", LANG="C.UTF-8", QUIZBOT_LANGUAGE=chats)
    assert english.returncode == 0, english.stderr
    assert english.stderr.endswith("zero.yaml: zero (8 questions, bilingual)\n"), english.stderr
    bengali = quizbot(tmp_path, "validate", LANG="bn_BD.UTF-8", QUIZBOT_LANGUAGE=chats)
    assert bengali.returncode == 0, bengali.stderr
    assert bengali.stderr.startswith("ঠিক আছে: ") and bengali.stderr.endswith(
        "zero.yaml: zero (৮টি প্রশ্ন, বাংলা ও ইংরেজি)\n"
    ), bengali.stderr


def test_help_speaks_the_operator_s_locale(tmp_path: Path) -> None:
    """--help, a subcommand's --help and argparse's own error line follow the locale too."""
    bengali = quizbot(tmp_path, "--help", LANG="bn_BD.UTF-8", QUIZBOT_LANGUAGE="en")
    assert bengali.returncode == 0
    assert bengali.stdout.startswith("ব্যবহার: quizbot [-h] [--version] COMMAND ...")
    for line in ("স্টাডি গ্রুপে বহুনির্বাচনী কুইজ চালানোর একটি টেলিগ্রাম বট।", "অপশন:", "কমান্ড:"):
        assert f"\n{line}\n" in bengali.stdout, bengali.stdout
    assert "টার্মিনালে একটি কুইজ খেলুন" in bengali.stdout
    assert "usage" not in bengali.stdout and "options" not in bengali.stdout
    sub = quizbot(tmp_path, "validate", "--help", LC_ALL="bn_BD.UTF-8", LANG="C.UTF-8")
    assert sub.stdout.startswith("ব্যবহার: quizbot validate [-h] [PATH ...]")
    assert "আর্গুমেন্ট:" in sub.stdout and "এই সাহায্য দেখিয়ে বের হন" in sub.stdout
    english = quizbot(tmp_path, "validate", "--help", LANG="C.UTF-8", QUIZBOT_LANGUAGE="bn")
    assert english.stdout.startswith("usage: quizbot validate [-h] [PATH ...]")
    assert "positional arguments:" in english.stdout
    assert "check question banks; exit 1 on any problem" in english.stdout
    wrong = quizbot(tmp_path, "nope", LANG="bn_BD.UTF-8")
    assert wrong.returncode == 2
    assert wrong.stderr.startswith("ব্যবহার: quizbot")
    assert "\nquizbot: ত্রুটি: argument COMMAND: invalid choice: 'nope'" in wrong.stderr


def test_the_operator_s_language_is_the_first_locale_variable_set() -> None:
    """LC_ALL, then LC_MESSAGES, then LANG (the first non-empty): bn* is Bengali, anything
    else English."""
    cases = [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "bn_BD.UTF-8"}, "bn"),
        ({"LANG": "bn_IN"}, "bn"),
        ({"LANG": "bn"}, "bn"),
        ({"LANG": "C.UTF-8", "LC_MESSAGES": "bn_BD.UTF-8"}, "bn"),
        ({"LANG": "bn_BD.UTF-8", "LC_MESSAGES": "C"}, "en"),
        ({"LC_ALL": "bn_BD.UTF-8", "LC_MESSAGES": "C", "LANG": "C"}, "bn"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "bn_BD.UTF-8"}, "bn"),
        ({"LANG": "C.UTF-8", "QUIZBOT_LANGUAGE": "bn"}, "en"),
    ]
    for env, lang in cases:
        assert operator_language(env) == lang, env


@pytest.mark.parametrize(
    ("locale", "chats", "said"),
    [
        ("C.UTF-8", "bn", "quizbot: TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather"),
        ("bn_BD.UTF-8", "en", "quizbot: TELEGRAM_BOT_TOKEN সেট করা নেই: @BotFather থেকে একটি"),
        ("", "", "quizbot: TELEGRAM_BOT_TOKEN is not set"),  # no locale: English
    ],
)
def test_run_without_token_is_a_one_line_error(
    tmp_path: Path, locale: str, chats: str, said: str
) -> None:
    """The command speaks the operator's locale (LANG), not the chats' QUIZBOT_LANGUAGE."""
    db = str(tmp_path / "q.sqlite3")
    done = quizbot(tmp_path, "run", QUIZBOT_DB=db, LANG=locale, QUIZBOT_LANGUAGE=chats)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(said)
    assert not (tmp_path / "q.sqlite3").exists()


def test_token_from_dotenv_file_is_used(tmp_path: Path) -> None:
    """A .env file in the working directory is read: with a bad setting in it, run says so."""
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nQUIZBOT_LANGUAGE=fr\n")
    done = quizbot(tmp_path, "run")
    assert done.returncode == 2
    assert done.stderr.strip() == "quizbot: QUIZBOT_LANGUAGE must be bn or en, got 'fr'"


BN_REASONS = {
    "missing": "প্রশ্নের ফোল্ডার {folder} পাওয়া যায়নি; QUIZBOT_QUESTIONS-এ",
    "empty": "প্রশ্নের ফোল্ডারে ({folder}) কোনো বৈধ কুইজ নেই (কারণ দেখতে চালান: "
    "`quizbot validate {folder}`)",
}


@pytest.mark.parametrize("folder", ["missing", "empty", "broken"])
@pytest.mark.parametrize("lang", ["en", "bn"])
def test_run_without_a_valid_quiz_is_a_one_line_error(
    tmp_path: Path, folder: str, lang: str
) -> None:
    """No questions folder, or none valid in it: `quizbot run` stops at once instead of serving
    nothing."""
    questions = tmp_path / folder
    if folder != "missing":
        questions.mkdir()
    if folder == "broken":
        (questions / "zero.yaml").write_text("id: zero\nquestions: []\n")
    done = quizbot(
        tmp_path,
        "run",
        TELEGRAM_BOT_TOKEN=TOKEN,
        QUIZBOT_QUESTIONS=str(questions),
        QUIZBOT_API_URL="http://127.0.0.1:9/bot",
        QUIZBOT_DB=str(tmp_path / "q.db"),
        LANG=LOCALE[lang],
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    if lang == "en":
        reason = "does not exist" if folder == "missing" else "has no valid quiz"
        assert lines[0].startswith(f"quizbot: the questions folder {questions} {reason}")
    else:
        reason = BN_REASONS["missing" if folder == "missing" else "empty"]
        assert lines[0].startswith("quizbot: " + reason.format(folder=questions))
    assert not (tmp_path / "q.db").exists()


async def test_debug_logs_never_show_the_token(tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    db = tmp_path / "quizbot.sqlite3"
    bot = await QuizbotProcess(quizbot_env(tg, db, QUIZBOT_LOG_LEVEL="DEBUG"), tmp_path).start()
    try:
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=30)
        label = correct_label(q1)
        answer = await tg.wait_answered(
            tg.tap(chat, cls.students[0], q1.message_id, button_data(q1, label)), timeout=20
        )
        assert answer.text is not None
        assert answer.text.startswith("✅")
        tg.user_says(chat, cls.creator, "/stop")
        await tg.wait_for(lambda: tg.find_message(chat, "results"), timeout=20)
        assert all(token == TOKEN for token in tg.tokens_seen)  # the bot did use the token
        assert await bot.stop(signal.SIGINT) == 0
    finally:
        await bot.close()
    logs = bot.stderr
    for variant in token_variants():
        assert variant not in logs
    assert bot.stdout == ""
    lines = logs.splitlines()
    assert len(lines) > 50
    assert [line for line in lines if not LOG_LINE.match(line)] == []  # one line per event
    # The transport logged every request URL, the token in it replaced.
    assert re.search(
        r" bot.tg.transport: HTTP Request: POST http://\S+/bot<token>/sendMessage 200", logs
    )
    assert " DEBUG telegram.ext.ExtBot: Calling Bot API endpoint `sendMessage`" in logs
    assert "aiosqlite" not in logs  # every statement, twice: kept out even at DEBUG
    assert "INFO bot.app.application: database closed" in logs
    assert lines[-1].endswith("INFO bot.app.application: stopped")


async def test_rejected_token_is_a_clear_error_and_never_shown(tmp_path: Path) -> None:
    server = FakeTelegram(token="4242:the-token-telegram-knows")
    await server.start()
    bot = QuizbotProcess(
        quizbot_env(server, tmp_path / "q.sqlite3", QUIZBOT_LOG_LEVEL="DEBUG"), tmp_path
    )
    try:
        await bot.start()
        code = await bot.wait(timeout=30)
    finally:
        await bot.close()
        await server.stop()
    assert code == 2
    logs = bot.stderr
    for variant in token_variants():
        assert variant not in logs
    lines = logs.splitlines()
    assert [line for line in lines if not LOG_LINE.match(line)] == []  # no raw traceback
    assert lines[-1].endswith(
        " CRITICAL bot.app.application: TELEGRAM_BOT_TOKEN was rejected by Telegram:"
        " check it with @BotFather"
    )


async def test_sigterm_mid_quiz_stops_cleanly_and_restart_resumes(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    db = tmp_path / "quizbot.sqlite3"
    env = quizbot_env(tg, db)
    code, err = await healthcheck(env, tmp_path)
    assert (code, err.strip()) == (1, f"unhealthy: no database at {db}")
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        tg.user_says(chat, cls.creator, "/quiz zero 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1), timeout=30)
        assert await healthcheck(env, tmp_path) == (0, "")  # the container's HEALTHCHECK
        right = correct_label(q1)
        wrong = next(label for label in "ABCD" if label != right)
        data = {label: button_data(q1, label) for label in "ABCD"}
        await tg.wait_answered(
            tg.tap(chat, cls.students[0], q1.message_id, data[right]), timeout=20
        )
        assert await bot.stop(signal.SIGTERM, timeout=10) == 0
    finally:
        await bot.close()
    assert "database closed" in bot.stderr
    assert "Traceback" not in bot.stderr
    # Closed cleanly: the last connection checkpointed the WAL and removed it.
    assert not wal_exists(db)
    assert len(stored_answers(db)) == 1

    # A tap while the bot is down waits in Telegram's queue.
    late = tg.tap(chat, cls.students[1], q1.message_id, data[wrong])
    bot = await QuizbotProcess(env, tmp_path).start()
    try:
        answer = await tg.wait_answered(late, timeout=30)
        assert answer.text is not None
        assert answer.text.startswith("❌"), answer.text
        tg.user_says(chat, cls.admin, "/next")
        await tg.wait_for(lambda: open_question(tg, chat, 2), timeout=20)
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None
        assert f"Right answer: {right}" in revealed.text
        assert "2 answered, 1 right" in revealed.text
        assert await bot.stop(signal.SIGTERM, timeout=10) == 0
    finally:
        await bot.close()


def test_readme_commands_exist() -> None:
    """The README's two set-up commands and CI's entry point are there and executable."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[: readme.index("\n## ")]
    assert "./scripts/run.sh" in head
    assert "./scripts/test.sh" in head
    for script in ("scripts/run.sh", "scripts/test.sh", ".ci/run"):
        path = ROOT / script
        assert path.is_file(), script
        assert path.stat().st_mode & 0o111, f"{script} is not executable"
    assert "./scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_every_setting_is_documented() -> None:
    """The settings tables of docs/operators.md (English and Bengali) and deploy/.env.example
    name every setting the code reads (the commands: tests/e2e/house/test_registry.py)."""
    page = read("docs/operators.md")
    tables = {"Settings": section(page, "Settings"), "সেটিং": section(page, "সেটিং")}
    example = (ROOT / "deploy" / ".env.example").read_text(encoding="utf-8")
    code = (ROOT / "bot" / "core" / "settings.py").read_text(encoding="utf-8")
    settings = set(re.findall(r"\b(?:QUIZBOT_[A-Z_]+|TELEGRAM_BOT_TOKEN)\b", code))
    assert "QUIZBOT_WEBHOOK_SECRET" in settings
    for name in sorted(settings):
        for title, table in tables.items():
            rows = re.findall(r"^\| (.*?) \|", table, re.MULTILINE)
            assert any(f"`{name}`" in row for row in rows), f"{name}: not in operators.md's {title}"
        assert name in example, f"{name} is not in deploy/.env.example"
