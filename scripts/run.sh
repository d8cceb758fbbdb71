#!/usr/bin/env bash
# The service on the embedded default: SQLite, kombu's filesystem broker, web + Celery
# worker + beat, a demo game. Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec .venv/bin/python manage.py run_embedded "$@"
