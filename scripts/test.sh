#!/usr/bin/env bash
# Install the package with its test tools into .venv and run every check CI runs.
# The test tools include Ray (the tournament test starts a local Ray) and Playwright, which
# drives the system's Chromium (/usr/bin/chromium; .ci/run installs it; `playwright install` is
# never needed). Without Chromium the browser tests
# (tests/e2e) are skipped, unless CI is set: then they fail. `-m "not e2e"` leaves them out.
# The PostgreSQL tests run on a cluster this script starts in a temporary folder
# (scripts/postgres.sh); without PostgreSQL's server binaries they are skipped, unless CI is set.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,ray,rl]'
.venv/bin/python -m ruff check src tests benchmarks examples
.venv/bin/python -m mypy
# A throwaway PostgreSQL cluster for the PostgreSQL tests (stopped and removed on exit).
source scripts/postgres.sh
trap pg_stop EXIT
pg_start
.venv/bin/python -m pytest "$@"
