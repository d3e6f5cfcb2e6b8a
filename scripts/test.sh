#!/usr/bin/env bash
# `npm test`: everything a change can break, on a possibly fresh machine.
#   1. type check and lint
#   2. unit and service tests
#   3. the HTTP suite against a real server on a SQLite file, client-conformance suites included
#      (Debian's python3-gitlab installed with apt-get when missing and running as root)
#   4. the same HTTP suite against PostgreSQL (local cluster started when installed; skipped, and said so, when not)
#   5. the Playwright suite in Chromium (Debian's chromium installed with apt-get when missing and running as root)
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
[ -d node_modules ] || npm ci --no-audit --no-fund

step "Type check"
npx tsc --noEmit -p tsconfig.json
step "Lint"
npx eslint .

step "Unit and service tests"
npm run --silent test:unit

step "HTTP suite on SQLite"
source scripts/python-gitlab.sh
npm run --silent test:http

step "HTTP suite on PostgreSQL"
if source scripts/postgres.sh; then
  GATEHOUSE_TEST_PG="$PG_ADMIN_URL" npm run --silent test:http
else
  echo "SKIPPED: no PostgreSQL server could be started on this machine (see above); the HTTP suite ran on SQLite only."
fi

step "Console in Chromium (Playwright)"
source scripts/chromium.sh
npx vite build --logLevel warn
CHROMIUM_PATH="$CHROMIUM_PATH" npx playwright test

step "All suites passed"
