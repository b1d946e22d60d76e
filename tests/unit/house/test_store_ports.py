"""Each feature reaches storage through a narrow Protocol of its own (``store.py``): every method
it names is a method of ``Store`` with the same signature, it names every query of the feature's
own ``queries.py`` and no kernel query the feature does not call, and the feature's modules reach
the store only through it (use cases take the Protocol, routes call ``store_of``; the composition
root passes the real one and mypy checks it fits)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pytest

from bot.app.store import Store

BOT = Path(__file__).resolve().parents[3] / "bot"


def ports() -> list[type]:
    """Every Protocol of a feature's ``store.py`` and the kernel's narrow views of the store."""
    names = [f"bot.features.{p.parent.name}.store" for p in sorted(BOT.glob("features/*/store.py"))]
    found = []
    for name in [*names, *KERNEL_PORTS]:
        module = importlib.import_module(name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and value.__module__ == name
            and getattr(value, "_is_protocol", False)
            and value.__name__.endswith("Store")  # not keyfix's Rekeyed, say
        ]
    return found


#: the kernel's narrow views of the store, which features' Protocols extend
KERNEL_PORTS = ("bot.services.runstore", "bot.services.analysis", "bot.services.keyfix")
PORTS = ports()
FEATURES = sorted(p.name for p in (BOT / "features").iterdir() if (p / "__init__.py").exists())
#: a feature that never reaches the store (it reloads banks and reports; no query of its own)
NO_STORE = {"admin"}

#: modules that may name ``Store``: handlers read it from ``bot_data``, wiring passes the real one
ROUTES_AND_WIRING = ("routes.py", "wiring.py")


def members(port: type) -> dict[str, Callable[..., object]]:
    """The methods a Protocol names, its bases' included."""
    out: dict[str, Callable[..., object]] = {}
    for cls in reversed(port.__mro__):
        if cls in (object, Protocol) or Protocol not in cls.__mro__:
            continue
        out.update(
            (name, value)
            for name, value in vars(cls).items()
            if not name.startswith("_") and inspect.isfunction(value)
        )
    return out


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.__name__)
def test_a_port_names_store_methods_with_their_signatures(port: type) -> None:
    named = members(port)
    assert named, f"{port.__name__} names no method"
    for name, method in named.items():
        real = getattr(Store, name, None)
        assert real is not None, f"{port.__name__}.{name} is no method of Store"
        assert inspect.iscoroutinefunction(method) == inspect.iscoroutinefunction(real), name
        mine = inspect.signature(method, eval_str=True)
        theirs = inspect.signature(real, eval_str=True)
        assert mine == theirs, f"{port.__name__}.{name}{mine} differs from Store.{name}{theirs}"


def use_case_modules() -> list[Path]:
    """Every feature module but its routes and wiring, and the kernel's run driver and helpers."""
    features = [
        path
        for path in sorted((BOT / "features").glob("*/*.py"))
        if not path.name.endswith(ROUTES_AND_WIRING)
    ]
    return [*features, *(BOT / "services" / n for n in ("driver.py", "progress.py", "pictures.py"))]


def imports_store(tree: ast.AST) -> bool:
    """Whether a module imports ``Store`` (or the module defining it) from ``bot.storage``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = {a.name for a in node.names}
            if node.module == "bot.storage.store" or (
                node.module == "bot.storage" and "Store" in names
            ):
                return True
        if isinstance(node, ast.Import) and any(a.name == "bot.storage.store" for a in node.names):
            return True
    return False


@pytest.mark.parametrize(
    "path", use_case_modules(), ids=lambda p: p.relative_to(BOT.parent).as_posix()
)
def test_use_cases_reach_storage_through_their_port(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not imports_store(tree), f"{path.name} imports Store: type its store with its Protocol"


def test_the_house_has_its_eight_features() -> None:
    assert FEATURES == [
        "admin",
        "authoring",
        "homework",
        "practice",
        "quiz",
        "review",
        "stats",
        "teacher",
    ]


def feature_port(feature: str) -> type:
    """The one Protocol a feature's ``store.py`` defines."""
    name = f"bot.features.{feature}.store"
    [port] = [p for p in PORTS if p.__module__ == name]
    return port


def own_queries(feature: str) -> set[str]:
    """The public methods of the mixin in a feature's ``queries.py`` (none if it has none)."""
    path = BOT / "features" / feature / "queries.py"
    if not path.exists():
        return set()
    module = importlib.import_module(f"bot.features.{feature}.queries")
    [mixin] = [
        v
        for n, v in vars(module).items()
        if isinstance(v, type) and n.endswith("Queries") and v.__module__ == module.__name__
    ]
    return {n for n, v in vars(mixin).items() if not n.startswith("_") and inspect.isfunction(v)}


def called(feature: str) -> set[str]:
    """The ``Store`` methods a feature's modules call on something named like a store."""
    public = {n for n in dir(Store) if not n.startswith("_")}
    found: set[str] = set()
    for path in (BOT / "features" / feature).glob("*.py"):
        if path.name in ("store.py", "queries.py"):
            continue
        text = path.read_text(encoding="utf-8")
        found |= {m[1] for m in re.findall(r"(\w*store\w*)(?:\([\w.]*\))?\.(\w+)\b", text)}
    return found & public


def kernel_members(port: type) -> set[str]:
    """What a feature's Protocol takes from the kernel's narrow views (its bases)."""
    return {
        n for base in port.__mro__[1:] for n in members(base) if base.__module__ in KERNEL_PORTS
    }


@pytest.mark.parametrize("feature", FEATURES)
def test_a_feature_reaches_the_store_only_through_its_port(feature: str) -> None:
    for path in sorted((BOT / "features" / feature).glob("*.py")):
        if path.name == "store.py":
            continue
        text = path.read_text(encoding="utf-8")
        reads = re.findall(r"\b(?:svc|bot_data|services)\.store\b", text)
        assert not reads, f"{feature}/{path.name} reads the container's store: call store_of(svc)"
    has_port = (BOT / "features" / feature / "store.py").exists()
    if feature in NO_STORE:
        assert not has_port and not called(feature) and not own_queries(feature)
    else:
        assert has_port, f"{feature} reaches the store with no store.py Protocol"


@pytest.mark.parametrize("feature", sorted(set(FEATURES) - NO_STORE))
def test_a_port_names_its_features_queries_and_only_the_kernel_ones_it_calls(
    feature: str,
) -> None:
    port = feature_port(feature)
    named = set(members(port))
    mine = own_queries(feature)
    assert mine <= named, f"{port.__name__} lacks its own queries {sorted(mine - named)}"
    extra = named - kernel_members(port) - mine - called(feature)
    assert not extra, f"{port.__name__} names {sorted(extra)}, which {feature} never calls"
    missing = called(feature) - named
    assert not missing, f"{feature} calls {sorted(missing)}, which {port.__name__} lacks"


def test_the_composed_store_has_the_kernels_part_and_every_features_queries() -> None:
    from bot.storage import StoreBase

    mixins = {
        v
        for feature in FEATURES
        if (BOT / "features" / feature / "queries.py").exists()
        for n, v in vars(importlib.import_module(f"bot.features.{feature}.queries")).items()
        if isinstance(v, type) and n.endswith("Queries") and v.__module__.endswith(".queries")
    }
    assert mixins, "no feature has queries of its own"
    assert set(Store.__bases__) == {StoreBase, *mixins}
    assert not set(StoreBase.__mro__) & mixins, "the kernel's part names a feature's queries"
