"""End to end: an author keeps at most ``MAX_QUIZZES_PER_AUTHOR`` quizzes. The last free place
is taken by an upload; after it a file is refused before it is downloaded, /newquiz begins no
draft, and nothing is stored; another author is not held by it."""

from __future__ import annotations

from pathlib import Path

from authorkit import draft_count, say
from fakebot import FakeTelegram
from harness import BotHarness
from storedkit import ZERO_YAML
from uploadkit import upload

from bot.app.store import Store
from bot.banks.yaml_reader import parse_quiz
from bot.features.authoring.drafts import MAX_QUIZZES_PER_AUTHOR
from bot.features.authoring.queries import NewAuthored

FULL = "the most one author can keep"


async def keep(db_path: Path, author: int, count: int) -> None:
    """``count`` stored quizzes of ``author``, in the file before the bot starts."""
    body = parse_quiz(ZERO_YAML, "zero", "zero").to_json()
    async with await Store.open(db_path) as store:
        for n in range(count):
            row = NewAuthored(
                author, f"kept-{n}", f"Kept {n}", "bn", ZERO_YAML, 8, "yaml", 1.0, bank_json=body
            )
            assert await store.add_authored(row, limit=count) is not None


async def test_the_limit_is_held_on_every_way_in(tg: FakeTelegram, db_path: Path) -> None:
    teacher = tg.add_user(61, "Farhana")
    await keep(db_path, teacher.id, MAX_QUIZZES_PER_AUTHOR - 1)
    async with BotHarness(tg, db_path) as bot:
        store = bot.services.store
        await upload(tg, teacher, "last.yaml", ZERO_YAML.encode(), "saved as")
        assert len(await store.authored_by(teacher.id)) == MAX_QUIZZES_PER_AUTHOR
        fetched = len(tg.files.downloads)

        refused = await upload(tg, teacher, "more.yaml", ZERO_YAML.encode(), FULL)
        assert f"{MAX_QUIZZES_PER_AUTHOR} quizzes" in refused.text
        assert len(tg.files.downloads) == fetched  # refused before the download
        await say(tg, teacher, "/newquiz Another", FULL)
        assert await draft_count(store, teacher) == -1  # no draft begun
        assert len(await store.authored_by(teacher.id)) == MAX_QUIZZES_PER_AUTHOR

        # another author is not held by this one's limit
        other = tg.add_user(62, "Karim")
        await upload(tg, other, "theirs.yaml", ZERO_YAML.encode(), "saved as")
