#!/usr/bin/env bash
# Install the package with its test tools into .venv and run every check CI runs.
# The test tools include Ray (the tournament test starts a local Ray) and Playwright, which
# drives the system's Chromium (/usr/bin/chromium; .ci/run installs it; `playwright install` is
# never needed). Without Chromium the browser tests
# (tests/e2e) are skipped, unless CI is set: then they fail. `-m "not e2e"` leaves them out.
# The PostgreSQL tests run on a cluster this script starts in a temporary folder
# (scripts/postgres.sh); without PostgreSQL's server binaries they are skipped, unless CI is set.
# The web client's unit tests (tests/server/static/test_web_client.py) run its modules in
# Node.js (`node`; .ci/run installs Debian's nodejs): skipped without it, unless CI is set.
# The accessibility audits (tests/e2e/test_accessibility.py) inject axe-core, pinned in
# tools/axe/package-lock.json and installed here with npm (`npm ci`; .ci/run installs Debian's
# npm): without it they are skipped with a message, unless CI is set: then they fail.
#
# Both builds are tested (issue #13): the whole suite on pure Python (the editable install in
# .venv), then the engine's tests on the mypyc-compiled build, installed as a user would
# (`pip install .`, not editable) into .venv-compiled. The compiled run is skipped with a
# message when no C compiler or Python headers are present (the install would be pure Python),
# unless CI is set: then it fails. ORIFLAMME_SKIP_COMPILED=1 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
ORIFLAMME_PURE=1 .venv/bin/python -m pip install --quiet -e '.[test,ray,rl]'
.venv/bin/python -m ruff check src tests benchmarks tools examples setup.py
.venv/bin/python -m mypy
# The layer map of docs/architecture.md (pyproject.toml's import-linter contracts).
.venv/bin/lint-imports --no-cache
if command -v npm >/dev/null 2>&1; then
  npm ci --prefix tools/axe --no-audit --no-fund --loglevel=error
else
  echo "npm not found: the accessibility audits (axe-core) will not run (apt-get install npm)" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
fi
# A throwaway PostgreSQL cluster for the PostgreSQL tests (stopped and removed on exit).
source scripts/postgres.sh
trap pg_stop EXIT
pg_start
# Four test processes (pytest-xdist; a file's tests stay in one process, which keeps its
# module fixtures): most tests wait on servers, databases and browsers rather than compute
# (with three, the suite kept 1.2 of two cores busy; docs/benchmarks.md, "The test suite").
# ORIFLAMME_TEST_WORKERS=N runs N instead; ORIFLAMME_TEST_WORKERS=0 runs them in this process.
WORKERS=(-n "${ORIFLAMME_TEST_WORKERS:-4}" --dist loadfile)
# The 20 slowest tests are listed at the end: the suite stays well under 15 minutes.
ORIFLAMME_EXPECT_BUILD=pure .venv/bin/python -m pytest "${WORKERS[@]}" --durations=20 "$@"

# The compiled build: the rules, records, API, bots, adapters and command-line tests.
COMPILED_TESTS=(
  tests/test_build.py tests/test_api.py tests/test_docs.py
  tests/rules/test_rules_base.py tests/rules/test_rules_embrasement.py
  tests/rules/test_rules_general.py tests/rules/test_rules_own_ambush.py
  tests/rules/test_rules_two_players.py tests/rules/test_perft.py tests/rules/test_properties.py
  tests/rules/test_deal.py tests/rules/test_determinize.py tests/rules/test_records.py
  tests/rules/test_labels.py tests/rules/test_texts.py tests/rules/test_card_tally.py
  tests/rules/test_draws.py
  tests/bots/test_bots.py tests/bots/test_greedy.py tests/bots/test_ismcts.py
  tests/bots/test_halving.py tests/bots/test_value.py tests/bots/test_policy_bot.py
  tests/bots/test_learned.py
  tests/envs/test_envs_encoding.py tests/envs/test_envs_openspiel.py
  tests/envs/test_envs_pettingzoo.py
  tests/cli/test_cli.py tests/tournament/test_tournament.py
)
if [ "${ORIFLAMME_SKIP_COMPILED:-0}" = 1 ]; then
  echo "compiled build: skipped (ORIFLAMME_SKIP_COMPILED=1)"
elif ! .venv/bin/python -c 'import shutil, sys, sysconfig, pathlib
cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
headers = pathlib.Path(sysconfig.get_paths()["include"], "Python.h")
sys.exit(0 if shutil.which(cc) and headers.is_file() else 1)'; then
  echo "compiled build: no C compiler or Python headers (install gcc and python3-dev)" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
else
  python3 -m venv .venv-compiled
  .venv-compiled/bin/python -m pip install --quiet --upgrade pip
  # Uninstalled first, so that a second run builds the current sources again.
  .venv-compiled/bin/python -m pip uninstall --quiet --yes oriflamme 2>/dev/null || true
  env -u ORIFLAMME_PURE .venv-compiled/bin/python -m pip install --quiet '.[test,rl]'
  # src/ is not on this venv's path: the tests import the installed, compiled package.
  ORIFLAMME_EXPECT_BUILD=compiled .venv-compiled/bin/python -m pytest -p no:cacheprovider \
    "${WORKERS[@]}" "${COMPILED_TESTS[@]}"
fi
