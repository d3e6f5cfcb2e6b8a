"""Client conformance: python-gitlab drives a real Gatehouse server as its users would.

Run by bff/test/conformance-python.test.ts with Debian's python3 and python3-gitlab (3.12):

    GATEHOUSE_URL=http://127.0.0.1:PORT GATEHOUSE_TOKEN=<administrator token> \\
        /usr/bin/python3 bff/test/conformance/python_gitlab.py [scenario ...]

Every scenario (in scenarios_*.py, registered with @scenario from support.py) is a small
named function that builds what it needs (its own groups, users and tokens) so that one
failure does not hide the others; a new area adds its scenarios in a module of its own. Each prints PASS or FAIL with the
reason; the last line is `RESULTS <json>` for the wrapper. Exit status 0 only when all pass.

Calls that python-gitlab 3.12 has no manager method for (getting or rotating a group access
token, triggering a hook test) go through `gl.http_get` / `gl.http_post`, as a user of that
version would write them.
"""

import json
import sys
import time
import traceback

import gitlab

# Importing the scenario modules registers their scenarios.
import scenarios_commits  # noqa: F401
import scenarios_events  # noqa: F401
import scenarios_features  # noqa: F401
import scenarios_files  # noqa: F401
import scenarios_groups  # noqa: F401
import scenarios_merge_trains  # noqa: F401
import scenarios_milestones  # noqa: F401
import scenarios_namespaces  # noqa: F401
import scenarios_pipelines  # noqa: F401
import scenarios_protection  # noqa: F401
import scenarios_repository  # noqa: F401
import scenarios_settings  # noqa: F401
import scenarios_social  # noqa: F401
import scenarios_tokens  # noqa: F401
import scenarios_transfer  # noqa: F401
import scenarios_variables  # noqa: F401
import scenarios_wire  # noqa: F401
import scenarios_work_items  # noqa: F401
from support import SCENARIOS, URL, Receiver, admin


def main(argv):
    wanted = set(argv[1:])
    unknown = wanted - {s.__name__ for s in SCENARIOS}
    if unknown:
        print(f"unknown scenarios: {', '.join(sorted(unknown))}")
        return 2
    print(f"python-gitlab {gitlab.__version__} against {URL}")
    ctx = {"gl": admin(), "receiver": Receiver()}
    results = []
    try:
        for fn in SCENARIOS:
            if wanted and fn.__name__ not in wanted:
                continue
            started = time.monotonic()
            try:
                fn(ctx)
                ok, detail = True, ""
            except Exception:  # every failure, assertion or SDK error, is reported with its trace
                ok, detail = False, traceback.format_exc()
            ms = round((time.monotonic() - started) * 1000)
            results.append({"name": fn.__name__, "ok": ok, "ms": ms, "detail": detail})
            print(f"{'PASS' if ok else 'FAIL'} {fn.__name__} ({ms} ms)")
            if not ok:
                print("    " + detail.rstrip().replace("\n", "\n    "))
    finally:
        ctx["receiver"].close()
    failed = [r["name"] for r in results if not r["ok"]]
    print(f"{len(results) - len(failed)} of {len(results)} scenarios passed" + (f"; failed: {', '.join(failed)}" if failed else ""))
    print("RESULTS " + json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
