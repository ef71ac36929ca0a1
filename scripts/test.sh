#!/usr/bin/env bash
# Install the package with its test tools into .venv and run every check CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/python -m ruff check src tests benchmarks
.venv/bin/python -m mypy
.venv/bin/python -m pytest "$@"
