#!/usr/bin/env bash
# Installs, in one apt-get run, the Debian packages the suites need when any is missing:
# chromium-headless-shell (Playwright; Debian's build of the headless Chromium that Playwright
# itself runs headless tests in), python3-gitlab and python3-sentry-sdk (client conformance, imported by
# /usr/bin/python3) and
# git (repositories are served by `git http-backend` and driven by the git client in the tests) and
# nginx (the two-instance setup behind deploy/nginx.conf, bff/test/proxy.test.ts) and
# docker-registry and skopeo (a real container registry using Gatehouse's token service, and
# the client that pushes to it: bff/test/container-registry.test.ts) and
# maven (a real Maven build resolving through a virtual registry: bff/test/maven.test.ts).
# test.sh runs it in the background while the type check and lint run.
set -euo pipefail
missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
/usr/bin/python3 -c 'import gitlab' >/dev/null 2>&1 || missing+=(python3-gitlab)
/usr/bin/python3 -c 'import sentry_sdk' >/dev/null 2>&1 || missing+=(python3-sentry-sdk)
command -v git >/dev/null 2>&1 || missing+=(git)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/bin/docker-registry ] || missing+=(docker-registry)
[ -x /usr/bin/skopeo ] || missing+=(skopeo)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
[ ${#missing[@]} -eq 0 ] && { echo "Debian packages: all present"; exit 0; }
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "Missing Debian packages (${missing[*]}) and no root apt-get to install them: install them and re-run."
  exit 1
fi
echo "Installing Debian packages: ${missing[*]} (apt-get)…"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "Installed: ${missing[*]}"
