# shellcheck shell=bash
# Sourced by run.sh and test.sh (from the repository root): ensure_venv SPEC STAMP creates .venv
# if needed and runs `pip install -e SPEC` when STAMP is missing or older than pyproject.toml.

ensure_venv() {
    local spec=$1 stamp=$2 python=${PYTHON:-python3}
    if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c '' 2>/dev/null; then
        if ! command -v "$python" >/dev/null; then
            echo "quizbot: $python not found; install Python 3.11 or newer" >&2
            exit 2
        fi
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            echo "quizbot: needs Python 3.11 or newer, $python is $("$python" -V 2>&1)" >&2
            exit 2
        fi
        echo "Creating .venv with $("$python" -V 2>&1)" >&2
        rm -rf .venv
        "$python" -m venv .venv
    fi
    if [[ ! -e $stamp || pyproject.toml -nt $stamp ]]; then
        echo "Installing quizbot ($spec) into .venv" >&2
        PIP_ROOT_USER_ACTION=ignore .venv/bin/python -m pip install --quiet \
            --disable-pip-version-check --no-input -e "$spec" >&2
        touch "$stamp"
    fi
}
