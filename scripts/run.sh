#!/usr/bin/env bash
# Run the bot: ./scripts/run.sh [ARGS...] is `quizbot run ARGS...` in a virtual environment of its
# own (.venv), created and (re)installed here (pinned: requirements.lock) when missing or older than
# pyproject.toml or the lock file.
# Settings come from the environment and from a .env file in the working directory
# (docs/operators.md, "Settings").
# PYTHON=python3.12 ./scripts/run.sh picks the interpreter used to create .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
source scripts/venv.sh
ensure_venv runtime .venv/.quizbot-installed
exec .venv/bin/quizbot run "$@"
