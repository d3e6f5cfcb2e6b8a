#!/usr/bin/env bash
# The HTTP suites' test files (package.json, test:http), in the order they start: the longest
# first, so that none of them starts late and runs on alone at the end while the other slot is
# idle; the rest after them: bff/test's, then the API's, by name. Tried and measured worse: every
# heavy file first (merge trains, merge, git, large files…) at three files a time: all of them
# doing git work at once beside the console suite, the SQLite suite was at its 12th file after
# 25 minutes. A missing file fails test:http rather than leaving it out.
set -euo pipefail
cd "$(dirname "$0")/.."
HEAVY=(
  bff/test/authorization.test.ts
  bff/test/fuzz.test.ts
  bff/test/route-checks.test.ts
)
for f in "${HEAVY[@]}"; do
  [ -f "$f" ] || { echo "scripts/http-test-files.sh names $f, which does not exist" >&2; exit 1; }
  echo "$f"
done
# bff/test's files (several servers, git, crashes) before the API's (one server each).
ls bff/test/*.test.ts | grep -vxF -f <(printf '%s\n' "${HEAVY[@]}")
ls bff/src/api/*.test.ts
