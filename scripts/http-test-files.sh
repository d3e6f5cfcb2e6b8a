#!/usr/bin/env bash
# The HTTP suites' test files (package.json, test:http), in the order they start: the longest
# first, so that none of them starts late and runs on alone at the end while the other slots
# are idle; the rest after them. The heavy ones are those the suites' own "Time by file" table
# (scripts/file-times.mjs) puts on top, on either engine; a file a suite skips (SQLite only)
# costs it nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
HEAVY=(
  bff/test/authorization.test.ts
  bff/test/fuzz.test.ts
  bff/src/api/merge-trains.test.ts
  bff/src/api/merge-request-merge.test.ts
  bff/test/git-http.test.ts
  bff/test/large-blobs.test.ts
  bff/test/large-reports.test.ts
  bff/test/route-checks.test.ts
  bff/src/api/events.test.ts
  bff/test/git-push-rules.test.ts
  bff/test/train-durability.test.ts
  bff/test/shared-storage.test.ts
  bff/src/api/repository-files.test.ts
  bff/test/proxy.test.ts
  bff/test/conformance-python.test.ts
  bff/test/conformance-gitbeaker.test.ts
  bff/test/hook-durability.test.ts
)
for f in "${HEAVY[@]}"; do
  [ -f "$f" ] || { echo "scripts/http-test-files.sh names $f, which does not exist" >&2; exit 1; }
  echo "$f"
done
ls bff/test/*.test.ts bff/src/api/*.test.ts | grep -vxF -f <(printf '%s\n' "${HEAVY[@]}")
