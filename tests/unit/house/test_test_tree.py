"""The tests mirror the house: every area folder under ``tests/unit`` and ``tests/e2e`` is named
after a feature or kernel package of ``bot/``, or is one of the few areas that cut across them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Areas that test the bot as a whole rather than one package: the house's own rules, attacks,
# faults and restarts, the fake Bot API server itself, and the stored-quiz catalog at scale.
ACROSS = frozenset({"house", "security", "reliability", "fakebot", "catalog"})


def packages() -> set[str]:
    """The names of ``bot/``'s kernel packages and of its features."""
    bot = ROOT / "bot"
    kernel = {p.name for p in bot.iterdir() if (p / "__init__.py").is_file()}
    features = {p.name for p in (bot / "features").iterdir() if (p / "__init__.py").is_file()}
    return (kernel - {"features"}) | features


def misplaced(areas: set[str], known: set[str]) -> list[str]:
    """The area folders that name neither a package nor a cross-cutting area."""
    return sorted(areas - known - ACROSS)


def test_every_area_names_a_package_or_a_cross_cutting_area() -> None:
    known = packages()
    assert {"quiz", "homework", "storage", "tg"} <= known
    for tier in ("unit", "e2e"):
        folder = ROOT / "tests" / tier
        areas = {p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"}
        assert misplaced(areas, known) == [], f"tests/{tier}: an area that mirrors nothing"


def test_a_stray_area_is_named() -> None:
    assert misplaced({"quiz", "odds_and_ends", "house"}, {"quiz"}) == ["odds_and_ends"]
