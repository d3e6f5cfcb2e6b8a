# Sourced by test.sh: makes sure Debian's python3 can import python-gitlab (python3-gitlab) for
# the client-conformance suite, installing it when missing. The suite runs /usr/bin/python3,
# not whatever python3 is first on PATH, so that is the interpreter checked here.
GATEHOUSE_PYTHON="${GATEHOUSE_PYTHON:-/usr/bin/python3}"
if ! "$GATEHOUSE_PYTHON" -c 'import gitlab' >/dev/null 2>&1; then
  if [ "$GATEHOUSE_PYTHON" = /usr/bin/python3 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's python3-gitlab (apt-get)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-gitlab >/dev/null
    if ! "$GATEHOUSE_PYTHON" -c 'import gitlab' >/dev/null 2>&1; then
      echo "python3-gitlab was installed but $GATEHOUSE_PYTHON still cannot import gitlab."
      exit 1
    fi
  else
    echo "python-gitlab is not importable by $GATEHOUSE_PYTHON and cannot be installed here (need root, apt-get and Debian's /usr/bin/python3): install 'python3-gitlab' and re-run."
    exit 1
  fi
fi
echo "python-gitlab $("$GATEHOUSE_PYTHON" -c 'import gitlab; print(gitlab.__version__)') for the client-conformance suite ($GATEHOUSE_PYTHON)"
export GATEHOUSE_PYTHON
