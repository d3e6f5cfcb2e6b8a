# Sourced by test.sh: finds Debian's Chromium for Playwright, installing it when missing.
CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || true)}"
if [ -z "$CHROMIUM_PATH" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium (apt-get)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    CHROMIUM_PATH="$(command -v chromium)"
  else
    echo "Chromium is not installed and cannot be installed here (need root and apt-get): install 'chromium' and re-run."
    exit 1
  fi
fi
export CHROMIUM_PATH
