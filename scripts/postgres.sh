# A throwaway PostgreSQL cluster for the tests and benchmarks (sourced by scripts/test.sh).
#
#   source scripts/postgres.sh
#   pg_start   # (unless ORIFLAMME_TEST_PG is already set) initdb + pg_ctl in a temporary folder, on a free loopback port; exports
#              # ORIFLAMME_TEST_PG=postgresql://oriflamme@127.0.0.1:PORT/postgres
#   pg_stop    # stops the cluster and removes its folder
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` system user
# (created by Debian's postgresql package). Nothing outside the temporary folder is touched.

pg_bindir() {
  # The newest installed server's binaries (Debian: /usr/lib/postgresql/<version>/bin).
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$found" ] && [ -x "$found/initdb" ]; then
    echo "$found"
  elif command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

pg_start() {
  local bindir port run
  if [ -n "${ORIFLAMME_TEST_PG:-}" ]; then
    echo "PostgreSQL for the tests: $ORIFLAMME_TEST_PG (ORIFLAMME_TEST_PG, already set)" >&2
    return 0
  fi
  bindir=$(pg_bindir)
  if [ -z "$bindir" ]; then
    echo "PostgreSQL server binaries not found: the PostgreSQL tests will be skipped" >&2
    return 0
  fi
  PG_TMP=$(mktemp -d -t oriflamme-pg.XXXXXX)
  run=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$PG_TMP"
    run=(runuser -u postgres --)
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${run[@]}" "$bindir/initdb" -D "$PG_TMP/data" -U oriflamme -A trust -E UTF8 --no-sync \
    >"$PG_TMP/initdb.log" 2>&1 || { cat "$PG_TMP/initdb.log" >&2; return 1; }
  # Durability is the tests' subject, not the disk's speed: fsync stays on (the default).
  "${run[@]}" "$bindir/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 \
    -o "-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c max_connections=400" start \
    >/dev/null || { cat "$PG_TMP/server.log" >&2; return 1; }
  PG_RUN=("${run[@]}")
  PG_BINDIR=$bindir
  export ORIFLAMME_TEST_PG="postgresql://oriflamme@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') for the tests on port $port" >&2
}

pg_stop() {
  if [ -n "${PG_TMP:-}" ] && [ -d "$PG_TMP" ]; then
    "${PG_RUN[@]}" "$PG_BINDIR/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_TMP"
  fi
  PG_TMP=
}
