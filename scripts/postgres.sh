# Sourced by test.sh and bench: makes a local PostgreSQL reachable and exports PG_ADMIN_URL.
# Returns non-zero (and says why) when no PostgreSQL can be had on this machine.
pg_ready() { psql "$1" -Atqc 'select 1' >/dev/null 2>&1; }

if [ -n "${GATEHOUSE_TEST_PG:-}" ] && pg_ready "$GATEHOUSE_TEST_PG"; then
  export PG_ADMIN_URL="$GATEHOUSE_TEST_PG"
  return 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
  echo "No PostgreSQL cluster is installed (pg_ctlcluster not found)."
  return 1
fi
PG_VERSION=$(ls /etc/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h 2>/dev/null | awk '{print $4}' | grep -q online; then
  pg_ctlcluster "$PG_VERSION" main start || { echo "Could not start PostgreSQL $PG_VERSION."; return 1; }
fi
PG_SOCKET_URL="postgresql:///postgres?host=/var/run/postgresql"
if ! pg_ready "$PG_SOCKET_URL"; then
  # The socket uses peer authentication: give the current OS user a superuser role once.
  if [ "$(id -u)" = 0 ]; then
    su postgres -c "createuser -s $(id -un)" 2>/dev/null || true
  fi
fi
if ! pg_ready "$PG_SOCKET_URL"; then
  echo "PostgreSQL is running but refuses connections as $(id -un)."
  return 1
fi
export PG_ADMIN_URL="$PG_SOCKET_URL"
return 0
