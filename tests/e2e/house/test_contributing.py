"""CONTRIBUTING.md's worked example, done as it says: a new command and a new button added to
a copy of the tree, touching only one feature package and the two catalogs, then the real bot
from that copy answers them over HTTP against the fake Bot API, and the house rules still hold."""

from __future__ import annotations

import asyncio
import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

from botproc import BotProcess
from fakebot import FakeTelegram
from quizkit import ROOT, populate

#: appended to the feature's buttons.py (it has the imports the class needs but MAX_ID)
BUTTONS = '''

# --- CONTRIBUTING.md's worked example -------------------------------------------------------------

from bot.tg.callbackdata import MAX_ID  # noqa: E402


@dataclass(frozen=True)
class PingData(CallbackData):
    """``pg:CHAT``: the Pong button under /ping."""

    prefix: ClassVar[str] = "pg"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"(-?[1-9][0-9]{0,15})")
    chat_id: int

    @classmethod
    def build(cls, match: re.Match[str]) -> Self | None:
        chat_id = int(match[1])
        return cls(chat_id) if abs(chat_id) < MAX_ID else None

    @classmethod
    def largest(cls) -> Self:
        return cls(-(MAX_ID - 1))
'''

ROUTES = '''

# --- CONTRIBUTING.md's worked example -------------------------------------------------------------

from telegram import InlineKeyboardButton, InlineKeyboardMarkup  # noqa: E402

from bot.features.stats.buttons import PingData  # noqa: E402
from bot.i18n import t as _t, t_plain as _t_plain  # noqa: E402
from bot.routing.replies import reply as _reply  # noqa: E402
from bot.routing.routes import Button as _Button  # noqa: E402
from bot.routing.routes import Command as _Command, Notice as _Notice  # noqa: E402


async def ping(update: Update, context: Context) -> None:
    """``/ping``: a button to tap."""
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton(_t_plain(context.lang, "ping_button"),
                               callback_data=PingData(context.caller.chat.id).pack())]]
    )
    await _reply(update, context, _t(context.lang, "ping_text"), important=True, markup=keyboard)


async def ping_button(update: Update, context: Context, data: PingData) -> _Notice:
    """The Pong button: an alert for the student who tapped."""
    return _t_plain(context.lang, "ping_pong"), True


COMMANDS = (*COMMANDS, _Command("ping", ping, who="moderator", where="group"))
BUTTONS = (*BUTTONS, _Button(PingData, ping_button, who="participant", where="group"))
'''

STRINGS = {
    "en": {"ping_text": "Tap the button.", "ping_button": "Ping", "ping_pong": "Pong!"},
    "bn": {"ping_text": "বাটনটি চাপুন।", "ping_button": "পিং", "ping_pong": "পং!"},
}


def po_entries(lang: str) -> str:
    return "".join(
        f'\nmsgctxt "stats"\nmsgid "{key}"\nmsgstr "{text}"\n'
        for key, text in STRINGS[lang].items()
    )


def add_the_example(tree: Path) -> None:
    """CONTRIBUTING.md's three steps: the data, the handlers and entries, the strings."""
    stats = tree / "bot" / "features" / "stats"
    buttons = stats / "buttons.py"
    buttons.write_text(buttons.read_text(encoding="utf-8") + BUTTONS, encoding="utf-8")
    routes = stats / "routes.py"
    routes.write_text(routes.read_text(encoding="utf-8") + ROUTES, encoding="utf-8")
    for lang in STRINGS:
        po = tree / "bot" / "i18n" / "locale" / lang / "LC_MESSAGES" / "quizbot.po"
        po.write_text(po.read_text(encoding="utf-8") + po_entries(lang), encoding="utf-8")


def changed(before: Path, after: Path) -> set[str]:
    """Files added or changed under ``after`` (relative paths)."""
    out: set[str] = set()
    for path in after.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            rel = path.relative_to(after)
            old = before / rel
            if not old.exists() or not filecmp.cmp(old, path, shallow=False):
                out.add(rel.as_posix())
    return out


def run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=tree,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        timeout=180,
    )


class TreeBot(BotProcess):
    """``quizbot run`` from the copied tree."""

    def __init__(self, tg: FakeTelegram, db: Path, tree: Path) -> None:
        super().__init__(tg, db, QUIZBOT_QUESTIONS=str(ROOT / "questions"))
        self.tree = tree

    async def start(self) -> TreeBot:
        with self.log_path.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.command,
                cwd=self.workdir,
                env={**self.env, "PYTHONPATH": str(self.tree)},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        return self


async def test_the_worked_example_touches_one_feature_and_the_catalogs(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    before, tree = tmp_path / "before", tmp_path / "tree"
    for dest in (before, tree):
        shutil.copytree(ROOT / "bot", dest / "bot", ignore=ignore)
        shutil.copy(ROOT / ".importlinter", dest / ".importlinter")
    add_the_example(tree)
    check = run(tree, sys.executable, "-m", "bot.i18n.check", "--write")  # the .pot refreshed
    assert check.returncode == 0, check.stdout + check.stderr
    touched = changed(before, tree)
    assert touched == {
        "bot/features/stats/buttons.py",
        "bot/features/stats/routes.py",
        "bot/i18n/locale/en/LC_MESSAGES/quizbot.po",
        "bot/i18n/locale/bn/LC_MESSAGES/quizbot.po",
        "bot/i18n/locale/quizbot.pot",
    }
    lint = run(tree, str(Path(sys.executable).with_name("lint-imports")), "--no-cache")
    assert lint.returncode == 0, lint.stdout + lint.stderr

    cls = populate(tg, students=2)
    chat, teacher, student = cls.chat_id, cls.creator, cls.students[0]
    bot = await TreeBot(tg, tmp_path / "quizbot.sqlite3", tree).start()
    try:
        tg.user_says(chat, student, "/ping")  # a student: the command's rule refuses it
        await tg.wait_for(lambda: tg.find_message(chat, "moderators"), timeout=30)
        assert tg.find_message(chat, "Tap the button.") is None
        tg.user_says(chat, teacher, "/ping")
        asked = await tg.wait_for(lambda: tg.find_message(chat, "Tap the button."), timeout=30)
        [[(label, data)]] = asked.buttons
        assert label == "Ping" and data == f"pg:{chat}"
        answer = await tg.wait_answered(tg.tap(chat, student, asked.message_id, data))
        assert answer.show_alert and answer.text == "Pong!"
        # a forged one of the same kind, and one of no kind at all: refused politely
        forged = await tg.wait_answered(tg.tap(chat, student, asked.message_id, "pg:x"))
        assert forged.show_alert and forged.text == "This button is no longer valid."
    finally:
        await bot.close()
