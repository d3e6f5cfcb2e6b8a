#!/usr/bin/env bash
# `npm run test:http [-- --engines=sqlite,postgres]`: the HTTP suite (scripts/http-test-files.sh
# orders its files) on the engine the environment names (SQLite, or PostgreSQL when
# GATEHOUSE_TEST_PG is set), or on each engine named, in one pool (scripts/run-tests.mjs). Two
# files at a time per engine: a file spends much of its time waiting (on git, its server's jobs,
# timers), and three at a time per engine was measured slower on 2 cores. The API's files run three
# to a process (run-tests --group): loading the server's code costs a process about 2 s of CPU,
# more than most API files spend testing (12 files: 1.4 → 0.9 CPU-minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(bash scripts/http-test-files.sh)
engines=1
for a in "$@"; do
  case $a in --engines=*) engines=$(tr ',' '\n' <<<"${a#--engines=}" | wc -l) ;; esac
done
# shellcheck disable=SC2086 # one path a word
exec node scripts/run-tests.mjs --test-concurrency=$((2 * engines)) --group=bff/src/api/:3 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./scripts/file-times.mjs --test-reporter-destination=stdout "$@" $files
