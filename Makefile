.PHONY: run test lint bench

run:            ## the service on the embedded default (SQLite, no broker server), demo game included
	scripts/run.sh

test:           ## every test, with real PostgreSQL and Redis started on loopback
	scripts/test.sh

lint:
	.venv/bin/ruff check .

bench:          ## benchmarks against a real PostgreSQL; they print figures
	scripts/with_servers.sh .venv/bin/python bench/event_store.py
