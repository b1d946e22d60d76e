"""A non-editable install: the wheel built from this tree, installed into a fresh virtual
environment, checks, plays and runs the shipped question banks from any directory, with no
PYTHONPATH and no QUIZBOT_QUESTIONS.

The test runs offline: the wheel is built without build isolation (setuptools comes with the dev
tools) and installed with ``--no-deps --no-index``; the fresh environment borrows the already
installed runtime dependencies through a ``.pth`` line naming this environment's site-packages
(a plain path: the editable install of ``bot`` there, made by its own ``.pth`` files, is not
seen). The test checks that ``bot`` is imported from the fresh environment, not the source tree.
"""

from __future__ import annotations

import shutil
import signal
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fakebot import FakeTelegram
from quizkit import open_question, populate
from shipkit import ROOT, QuizbotProcess, quizbot_env

SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "bot", "questions")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel of this tree installed (not editable)."""
    root = tmp_path_factory.mktemp("wheel")
    tree = root / "src"
    tree.mkdir()
    for name in SOURCES:  # a copy: the build must not see (or leave) build/ in the checkout
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        elif source.exists():
            shutil.copy(source, tree / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(root / "dist"),
            str(tree),
        ]
    )
    (wheel,) = (root / "dist").glob("quizbot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "bot/_questions/zero.yaml" in names, names
    assert "bot/py.typed" in names
    assert "bot/i18n/locale/bn/LC_MESSAGES/quizbot.po" in names
    assert "bot/i18n/locale/en/LC_MESSAGES/quizbot.po" in names
    assert "bot/i18n/locale/quizbot.pot" in names
    info = next(n for n in names if n.endswith(".dist-info/METADATA"))
    metadata = zipfile.ZipFile(wheel).read(info).decode()
    assert "\nLicense-Expression: MIT\n" in metadata
    assert "\nLicense-File: LICENSE\n" in metadata
    assert info.replace("METADATA", "licenses/LICENSE") in names
    env_dir = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)])
    python = env_dir / "bin" / "python"
    run([*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)])
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    (Path(purelib.strip()) / "borrowed-deps.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n"
    )
    return env_dir


def run(args: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def clean_env(**extra: str) -> dict[str, str]:
    env = quizbot_env(None, None, **extra)
    for name in ("PYTHONPATH", "QUIZBOT_QUESTIONS", "VIRTUAL_ENV"):
        env.pop(name, None)
    for name, value in extra.items():
        env[name] = value
    return env


def test_the_installed_package_is_not_the_source_tree(venv: Path, tmp_path: Path) -> None:
    where = run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import bot, bot.core.settings as s; print(bot.__file__); print(s.SHIPPED_QUESTIONS)",
        ],
        cwd=tmp_path,
    )
    module, questions = where.splitlines()
    assert Path(module).is_relative_to(venv), module
    assert Path(questions).is_relative_to(venv) and Path(questions).name == "_questions"


def test_validate_and_play_use_the_packaged_banks(venv: Path, tmp_path: Path) -> None:
    quizbot = str(venv / "bin" / "quizbot")
    done = subprocess.run(
        [quizbot, "validate"],
        cwd=tmp_path,
        env=clean_env(LANG="C.UTF-8", QUIZBOT_LANGUAGE="bn"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "_questions/zero.yaml: zero (8 questions, bilingual)" in done.stderr
    done = subprocess.run(
        [quizbot, "play", "zero", "--lang", "en", "--seed", "1"],
        cwd=tmp_path,
        env=clean_env(),
        input="A\n" * 8,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Question 8/8" in done.stdout
    assert "Score: " in done.stdout and "/8" in done.stdout


async def test_run_serves_the_packaged_banks(venv: Path, tg: FakeTelegram, tmp_path: Path) -> None:
    cls = populate(tg, students=1)
    env = quizbot_env(tg, tmp_path / "q.sqlite3")
    env.pop("PYTHONPATH")
    env.pop("QUIZBOT_QUESTIONS")
    bot = await QuizbotProcess(
        env, tmp_path, "run", command=[str(venv / "bin" / "quizbot")]
    ).start()
    try:
        tg.user_says(cls.chat_id, cls.creator, "/quiz zero 600")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1), timeout=30)
        assert await bot.stop(signal.SIGTERM) == 0
    finally:
        await bot.close()
    assert "serving 1 quiz(zes): zero" in bot.stderr
