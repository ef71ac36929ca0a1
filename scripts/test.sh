#!/usr/bin/env bash
# Install the package with its test tools into .venv and run every check CI runs.
# The test tools include Ray (the tournament test starts a local Ray) and Playwright, which
# drives the system's Chromium (/usr/bin/chromium; .ci/run installs it; `playwright install` is
# never needed). Without Chromium the browser tests
# (tests/e2e) are skipped, unless CI is set: then they fail. `-m "not e2e"` leaves them out.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,ray,rl]'
.venv/bin/python -m ruff check src tests benchmarks examples
.venv/bin/python -m mypy
.venv/bin/python -m pytest "$@"
