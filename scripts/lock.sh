#!/usr/bin/env bash
# Regenerate the lock files from pyproject.toml; run it after changing a dependency there:
#   ./scripts/lock.sh                              # keeps every pin that still fits
#   ./scripts/lock.sh --upgrade                    # newest versions that fit (extra args go to uv)
# requirements.lock: the runtime dependencies (deploy/Dockerfile, the systemd recipe,
# ./scripts/run.sh); requirements-dev.lock: those plus the dev group (./scripts/test.sh and CI).
# Both pinned with hashes, for every platform and Python 3.11 or newer (uv's universal mode).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
source scripts/venv.sh
ensure_venv dev .venv/.quizbot-dev-installed
UV_VERSION=0.13.8
if [[ "$(.venv/bin/uv --version 2>/dev/null)" != "uv $UV_VERSION"* ]]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2
fi
common=(--universal --python-version 3.11 --generate-hashes --quiet
        --custom-compile-command ./scripts/lock.sh)
.venv/bin/uv pip compile pyproject.toml "${common[@]}" -o requirements.lock "$@"
.venv/bin/uv pip compile pyproject.toml --group dev "${common[@]}" -o requirements-dev.lock "$@"
echo "requirements.lock and requirements-dev.lock written" >&2
