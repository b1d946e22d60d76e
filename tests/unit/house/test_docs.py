"""The documentation holds together: README.md is a front page of at most 250 lines linking
each audience's page, and every relative link in README.md and docs/ leads to a file (and to a
heading, when it names one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docskit import DOCS, PAGES, ROOT, anchors, links, read, slug

FRONT_PAGE_LINES = 250


def relative_links(path: Path) -> list[tuple[str, Path, str]]:
    """``(link, the file it names, its anchor)`` for each relative link of ``path``."""
    out = []
    for link in links(path.read_text(encoding="utf-8")):
        if "://" in link or link.startswith("mailto:"):
            continue
        target, _, anchor = link.partition("#")
        out.append((link, (path.parent / target).resolve() if target else path, anchor))
    return out


def test_the_front_page_is_short_and_links_every_audience() -> None:
    readme = read("README.md")
    assert len(readme.splitlines()) <= FRONT_PAGE_LINES
    named = {target for _, target, _ in relative_links(ROOT / "README.md")}
    for page in (*PAGES[1:], "docs/translators.md", "docs/reliability.md"):
        assert (ROOT / page).is_file(), page
        assert (ROOT / page).resolve() in named, f"README.md does not link {page}"


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", *sorted(DOCS.glob("*.md"))],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_every_relative_link_resolves(path: Path) -> None:
    for link, target, anchor in relative_links(path):
        assert target.exists(), f"{path.name}: {link} names no file"
        if anchor and target.suffix == ".md":
            made = anchors(target.read_text(encoding="utf-8"))
            assert anchor in made, f"{path.name}: {link} names no heading of {target.name}"


def test_each_audience_page_is_in_both_languages() -> None:
    """English first, then Bengali: each page has a heading in Bengali script."""
    for page in (*PAGES[1:], "docs/translators.md"):
        bengali = [a for a in anchors(read(page)) if any("\u0980" <= c <= "\u09ff" for c in a)]
        assert len(bengali) >= 2, f"{page} has no Bengali part"


def test_headings_make_githubs_anchors() -> None:
    assert slug("After the quiz: recaps, review, streaks") == "after-the-quiz-recaps-review-streaks"
    assert slug("Create the bot with @BotFather") == "create-the-bot-with-botfather"
    assert slug("কুইজের পরে: সারসংক্ষেপ, রিভিউ, স্ট্রিক") == "কুইজের-পরে-সারসংক্ষেপ-রিভিউ-স্ট্রিক"
