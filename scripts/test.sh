#!/usr/bin/env bash
# The full check, as CI runs it: ruff, the i18n catalog's check, mypy, import-linter, then pytest
# (last, so its summary ends the output).
# Creates .venv and installs quizbot with its dev tools (pinned: requirements-dev.lock) when missing
# or older than pyproject.toml or the lock file.
# pytest runs on two workers (pytest-xdist; every test is independent: own server, ports, files),
# which steal work from each other, so a long test near the end does not leave one idle.
# Extra arguments go to pytest, e.g. ./scripts/test.sh -k webhook (-n 0: one process).
# ./scripts/test.sh --fast: only the unit tier (tests/unit), in seconds.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# --fast: the unit tier alone (tests/unit, no bot running), for the edit-test loop
if [[ ${1:-} == --fast ]]; then
    shift
    # shellcheck source=scripts/venv.sh
    source scripts/venv.sh
    ensure_venv dev .venv/.quizbot-dev-installed
    exec .venv/bin/python -m pytest -n 2 --dist worksteal -q -m "unit and not slow" tests/unit "$@"
fi
# shellcheck source=scripts/venv.sh
source scripts/venv.sh
ensure_venv dev .venv/.quizbot-dev-installed

failed=()
lint_dirs=()
for dir in bot tests bench deploy; do
    [[ -d $dir ]] && lint_dirs+=("$dir")
done
echo "== ruff check ${lint_dirs[*]}"
.venv/bin/ruff check "${lint_dirs[@]}" || failed+=(ruff)
echo "== ruff format --check ${lint_dirs[*]}"
.venv/bin/ruff format --check "${lint_dirs[@]}" || failed+=(ruff-format)
echo "== i18n catalog (every key in every language, same placeholders, no duplicates)"
.venv/bin/python -m bot.i18n.check || failed+=(i18n)
echo "== mypy (bot, tests)"
.venv/bin/mypy || failed+=(mypy)
echo "== import-linter (the layers of ARCHITECTURE.md, .importlinter)"
.venv/bin/lint-imports --no-cache || failed+=(import-linter)
if ((${#failed[@]})); then
    echo "test.sh: ${failed[*]} failed (see above); running pytest anyway" >&2
fi
echo "== pytest"
.venv/bin/python -m pytest -n 2 --dist worksteal "$@" || failed+=(pytest)
if ((${#failed[@]})); then
    exit 1
fi
