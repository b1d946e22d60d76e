"""Packaging metadata: the SPDX license, the dev tools in a dependency group, and lock files
that pin (with hashes) every dependency pyproject.toml names, installed as pinned."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from shipkit import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)(?: ; ([^\\]+?))? *\\?$")


def pins(lock: str) -> dict[str, tuple[str, str | None, int]]:
    """name -> (version, marker, number of hashes) of a lock file written by scripts/lock.sh."""
    found: dict[str, tuple[str, str | None, int]] = {}
    name = ""
    for line in (ROOT / lock).read_text(encoding="utf-8").splitlines():
        if match := PIN.match(line):
            name = canonicalize_name(match[1])
            found[name] = (match[2], match[3], 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, marker, hashes = found[name]
            found[name] = (version, marker, hashes + 1)
    return found


def test_license_is_an_spdx_expression_with_its_file() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    (backend,) = PYPROJECT["build-system"]["requires"]
    assert Requirement(backend).specifier.contains("77") and not Requirement(
        backend
    ).specifier.contains("76.9")


def test_dev_tools_are_a_dependency_group_not_a_published_extra() -> None:
    assert "optional-dependencies" not in PYPROJECT["project"]
    dev = {Requirement(r).name for r in PYPROJECT["dependency-groups"]["dev"]}
    assert {"pytest", "pytest-xdist", "mypy", "ruff", "setuptools"} <= dev


@pytest.mark.parametrize(
    ("lock", "groups"), [("requirements.lock", ()), ("requirements-dev.lock", ("dev",))]
)
def test_the_lock_pins_every_dependency_with_hashes(lock: str, groups: tuple[str, ...]) -> None:
    locked = pins(lock)
    wanted = [
        *PYPROJECT["project"]["dependencies"],
        *(r for g in groups for r in PYPROJECT["dependency-groups"][g]),
    ]
    for raw in wanted:
        requirement = Requirement(raw)
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is not in {lock}: run ./scripts/lock.sh"
        version = locked[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock} pins {name}=={version}, pyproject.toml wants {raw}: run ./scripts/lock.sh"
        )
    assert all(hashes for _, _, hashes in locked.values()), "a pin without --hash"
    if not groups:
        assert "pytest" not in locked and "mypy" not in locked


def test_this_environment_is_installed_from_the_dev_lock() -> None:
    """./scripts/test.sh installs requirements-dev.lock: the versions here are its pins."""
    for name, (version, marker, _) in pins("requirements-dev.lock").items():
        if marker and not Marker(marker).evaluate():  # for this interpreter and platform
            continue
        assert metadata.version(name) == version, name
