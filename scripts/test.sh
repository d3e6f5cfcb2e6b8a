#!/usr/bin/env bash
# `npm test`: everything a change can break, on a possibly fresh machine.
#   1. type check and lint (side by side)
#   2. unit and service tests
#   3. the HTTP suite on a real server, each file on a SQLite file and on PostgreSQL (the local cluster,
#      started when installed; SQLite only, and said so, when not), in one pool of test processes:
#      API tests, client conformance (python-gitlab, gitbeaker), fuzz and authorisation tests
#      generated from the route table
#   4. the Playwright suite in Chromium; 3 and 4 side by side
# Test files run bundled into plain JavaScript (scripts/run-tests.mjs: no loader hooks per process).
# Debian's chromium and python3-gitlab are installed with apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's heading says how long the run has taken so far (CI must stay under 30 minutes), and
# the last lines printed, pass or fail, say when each step and suite started and ended.
mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
TIMES=()
step() { printf '\n\033[1m== %s\033[0m (at %s)\n' "$*" "$(mmss $SECONDS)"; TIMES+=("$(mmss $SECONDS)  $*"); }
# `timed NAME command…`: runs the command and writes when it ended (seconds into the run) for the summary.
START=$(date +%s)
timed() { local name=$1 rc=0; shift; "$@" || rc=$?; echo "$(( $(date +%s) - START ))" >"$LOGS/$name.end"; return $rc; }
summary() {
  local status=$?
  echo
  echo "Timeline (minutes into the run):"
  printf '  %s\n' "${TIMES[@]}"
  for name in http e2e; do
    [ -f "$LOGS/$name.end" ] && printf '  %s  %s suite ended\n' "$(mmss "$(cat "$LOGS/$name.end")")" "$name"
  done
  printf '  %s  end (exit %d)\n' "$(mmss $SECONDS)" "$status"
  rm -rf "$LOGS"
}
[ -d node_modules ] || npm ci --no-audit --no-fund

LOGS=$(mktemp -d)
trap summary EXIT
# Debian packages (chromium, python3-gitlab) install in the background while the checks run.
bash scripts/debian-packages.sh >"$LOGS/packages.log" 2>&1 &
PACKAGES=$!

# Each is single-threaded: on 2 cores they run side by side.
step "Type check and lint, side by side"
npx tsc --noEmit -p tsconfig.json >"$LOGS/tsc.log" 2>&1 &
TSC=$!
npx eslint . >"$LOGS/eslint.log" 2>&1 &
ESLINT=$!
checks=0
wait "$TSC" || checks=1
wait "$ESLINT" || checks=1
cat "$LOGS/tsc.log" "$LOGS/eslint.log"
[ "$checks" = 0 ] || { echo "The type check or the lint failed (see above)."; exit 1; }

# The console's build (for the Playwright step) runs beside the unit tests; no HTTP test reads it.
npx vite build --logLevel warn >"$LOGS/vite.log" 2>&1 &
VITE=$!

# One unit file per core, not node's default of one fewer: beside the short build, a single file at a
# time left a core idle for most of this step (about 40 of its 75 s on 2 cores).
step "Unit and service tests"
npm run --silent test:unit -- --test-concurrency="$(nproc)"

step "Debian packages"
if ! wait "$PACKAGES"; then cat "$LOGS/packages.log"; exit 1; fi
cat "$LOGS/packages.log"
source scripts/python-gitlab.sh
source scripts/chromium.sh

# The HTTP suite and the Playwright suite share no port (each HTTP test server listens on port 0,
# Playwright's on E2E_PORT) and no database (a SQLite file each, throwaway PostgreSQL databases,
# the console's own data directory), so they run side by side; each prints when done. The HTTP
# suite runs two test files at a time per engine (scripts/test-http.sh), the longest first, both
# engines in one pool so that neither runs its last files alone: a file spends most of its time
# waiting (on git, its server's jobs, timers). The console suite drives one browser and mostly
# waits on it, so it runs at the normal priority and the HTTP suite, which fills both cores, a
# step below it (nice): its pages render as fast as alone.
step "Console build"
if ! wait "$VITE"; then cat "$LOGS/vite.log"; echo "The console's build failed."; exit 1; fi
cat "$LOGS/vite.log"

step "HTTP suite on SQLite and on PostgreSQL, and the console in Chromium, side by side"
if source scripts/postgres.sh; then
  GATEHOUSE_TEST_PG="$PG_ADMIN_URL" timed http nice -n 5 npm run --silent test:http -- --engines=sqlite,postgres >"$LOGS/http.log" 2>&1 &
else
  echo "SKIPPED: no PostgreSQL server could be started on this machine (see above); the HTTP suite runs on SQLite only."
  timed http nice -n 5 npm run --silent test:http >"$LOGS/http.log" 2>&1 &
fi
HTTP=$!
# Without traces: a trace records the page's DOM before and after every action of every test (a
# ninth of the suite's CPU: 42 against 48 CPU-s for groups.spec.ts), to keep only a failed test's,
# in test-results/, which a CI log does not show. A failure is read from the log, and rerun with
# `npx playwright test <file>` (traces on) to be looked into.
CHROMIUM_PATH="$CHROMIUM_PATH" timed e2e npx playwright test --trace off >"$LOGS/e2e.log" 2>&1 &
E2E=$!
failed=0
step "HTTP suite on SQLite and on PostgreSQL"
wait "$HTTP" || failed=1
cat "$LOGS/http.log"
step "Console in Chromium (Playwright)"
wait "$E2E" || failed=1
cat "$LOGS/e2e.log"
[ "$failed" = 0 ] || { echo "A suite failed (see above)."; exit 1; }

step "All suites passed"
