#!/usr/bin/env bash
# Runs a command beside real servers: PostgreSQL and Redis are started on loopback
# (installed from Debian's packages where missing), their URLs exported, then stopped.
# Usage: scripts/with_servers.sh COMMAND [ARGS...]; exit status is the command's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${need[*]} (run as root, or: sudo apt-get install ${need[*]})" >&2
    exit 2
  fi
  echo "==> installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
  # Debian starts the packaged services; the tests use their own servers.
  (service redis-server stop; service postgresql stop) >/dev/null 2>&1 || true
fi

scripts/bootstrap.sh

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
free_port() { .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
RUN=$(mktemp -d /tmp/referee-test.XXXXXX)
chmod 755 "$RUN"
PGPORT=$(free_port)
REDIS_PORT=$(free_port)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$RUN"
  as_pg=(runuser -u postgres --)
fi

cleanup() {
  "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$RUN/pg" -m immediate stop >/dev/null 2>&1 || true
  [ -f "$RUN/redis.pid" ] && kill "$(cat "$RUN/redis.pid")" 2>/dev/null || true
  rm -rf "$RUN"
}
trap cleanup EXIT

echo "==> starting PostgreSQL on 127.0.0.1:$PGPORT and Redis on 127.0.0.1:$REDIS_PORT"
"${as_pg[@]}" "$PGBIN/initdb" -D "$RUN/pg" -U postgres -A trust --no-sync >/dev/null
"${as_pg[@]}" "$PGBIN/pg_ctl" -D "$RUN/pg" -l "$RUN/pg.log" -w -o "-h 127.0.0.1 -p $PGPORT -k $RUN -F -c max_connections=200" start >/dev/null
"${as_pg[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres referee
# The service's own role owns nothing (referee/db_roles.py): migrations run as the owner.
"${as_pg[@]}" "$PGBIN/psql" -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d referee \
  -c "CREATE ROLE referee_app LOGIN" >/dev/null
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
  --daemonize yes --pidfile "$RUN/redis.pid" --logfile "$RUN/redis.log" --dir "$RUN"
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/referee"
export REFEREE_APP_DATABASE_URL="postgres://referee_app@127.0.0.1:$PGPORT/referee"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export REFEREE_TEST_SERVERS=1
export REFEREE_VAR_DIR="$RUN/var"

set +e
"$@"
status=$?
set -e
exit $status
