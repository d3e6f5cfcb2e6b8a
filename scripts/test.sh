#!/usr/bin/env bash
# `npm test`: everything a change can break, on a possibly fresh machine.
#   1. type check and lint (side by side)
#   2. unit and service tests
#   3. the HTTP suite on a real server and a SQLite file: API tests, client conformance (python-gitlab,
#      gitbeaker), fuzz and authorisation tests generated from the route table
#   4. the same HTTP suite on PostgreSQL, side by side with 3 (local cluster started when installed; skipped, and said so, when not)
#   5. the Playwright suite in Chromium
# Debian's chromium and python3-gitlab are installed with apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's heading says how long the run has taken so far (CI must stay under 30 minutes).
step() { printf '\n\033[1m== %s\033[0m (at %dm%02ds)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
[ -d node_modules ] || npm ci --no-audit --no-fund

LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
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

step "Unit and service tests"
npm run --silent test:unit

step "Debian packages"
if ! wait "$PACKAGES"; then cat "$LOGS/packages.log"; exit 1; fi
cat "$LOGS/packages.log"
source scripts/python-gitlab.sh
source scripts/chromium.sh

# The two HTTP suites share no port (each server listens on port 0) and no database (a SQLite
# file each, throwaway PostgreSQL databases), so they run side by side; each prints when done.
# Each runs two test files at a time (package.json, test:http), the longest first: a file spends
# most of its time waiting (on git, its server's jobs, timers), so on 2 cores four files keep
# both busy where two left one idle.
step "HTTP suites on SQLite and on PostgreSQL, side by side"
npm run --silent test:http >"$LOGS/sqlite.log" 2>&1 &
SQLITE=$!
PG_PID=""
if source scripts/postgres.sh; then
  GATEHOUSE_TEST_PG="$PG_ADMIN_URL" npm run --silent test:http >"$LOGS/postgres.log" 2>&1 &
  PG_PID=$!
else
  echo "SKIPPED: no PostgreSQL server could be started on this machine (see above); the HTTP suite runs on SQLite only."
fi
failed=0
step "HTTP suite on SQLite"
wait "$SQLITE" || failed=1
cat "$LOGS/sqlite.log"
if [ -n "$PG_PID" ]; then
  step "HTTP suite on PostgreSQL"
  wait "$PG_PID" || failed=1
  cat "$LOGS/postgres.log"
fi
[ "$failed" = 0 ] || { echo "An HTTP suite failed (see above)."; exit 1; }

step "Console in Chromium (Playwright)"
if ! wait "$VITE"; then cat "$LOGS/vite.log"; echo "The console's build failed."; exit 1; fi
cat "$LOGS/vite.log"
CHROMIUM_PATH="$CHROMIUM_PATH" npx playwright test

step "All suites passed"
