# shellcheck shell=bash
# Sourced by run.sh, test.sh and lock.sh (from the repository root): ensure_venv WHAT STAMP
# creates .venv if needed and, when STAMP is missing or older than pyproject.toml, setup.py or
# the lock file, installs the pinned versions of the lock file, then quizbot itself (editable).
# WHAT is `dev` (requirements-dev.lock: runtime + the dev group) or `runtime` (requirements.lock);
# the older spellings '.[dev]' and '.' mean the same.

ensure_venv() {
    local what=$1 stamp=$2 python=${PYTHON:-python3} lock
    case $what in
        dev | '.[dev]') lock=requirements-dev.lock ;;
        runtime | .) lock=requirements.lock ;;
        *) echo "ensure_venv: dev or runtime, not $what" >&2; return 2 ;;
    esac
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
    if [[ ! -e $stamp || pyproject.toml -nt $stamp || setup.py -nt $stamp || $lock -nt $stamp ]]
    then
        echo "Installing quizbot ($what, pinned in $lock) into .venv" >&2
        local pip=(.venv/bin/python -m pip --quiet --disable-pip-version-check --no-input)
        PIP_ROOT_USER_ACTION=ignore "${pip[@]}" install --require-hashes -r "$lock" >&2
        PIP_ROOT_USER_ACTION=ignore "${pip[@]}" install --no-deps -e . >&2
        touch "$stamp"
    fi
}
