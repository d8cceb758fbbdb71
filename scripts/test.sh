#!/usr/bin/env bash
# The whole test suite with real PostgreSQL and Redis on loopback. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/with_servers.sh .venv/bin/python -m pytest "$@"
