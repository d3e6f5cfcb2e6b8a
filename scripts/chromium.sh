# Sourced by test.sh: finds Debian's Chromium for Playwright, installing it when missing. The
# headless shell is Chromium's own headless build, the one Playwright runs headless tests in:
# the same Blink and V8 as the browser, without its windowing layers, at less than half the
# browser's CPU for the same tests (32 against 69 core-s for the groups and members files).
# CHROMIUM_PATH chooses another (the full browser: /usr/bin/chromium).
CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium-headless-shell || true)}"
if [ -z "$CHROMIUM_PATH" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium-headless-shell (apt-get)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
    CHROMIUM_PATH="$(command -v chromium-headless-shell)"
  else
    echo "Chromium's headless shell is not installed and cannot be installed here (need root and apt-get): install 'chromium-headless-shell' (or set CHROMIUM_PATH to a Chromium) and re-run."
    exit 1
  fi
fi
export CHROMIUM_PATH
