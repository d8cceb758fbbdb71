.PHONY: run test lint bench bench-scheduling bench-timers bench-fanout bench-ratings bench-notices

run:            ## the service on the embedded default (SQLite, no broker server), demo game included
	scripts/run.sh

test:           ## every test, with real PostgreSQL and Redis started on loopback; then the log's tests on 16 partitions
	scripts/test.sh
	scripts/test_partitioned.sh -q

lint:
	.venv/bin/ruff check .

bench:          ## every performance figure in one run, each a ratio to its peer, beside its goal (a few minutes; bench/README.md)
	scripts/with_servers.sh sh -c 'export BENCH_RESULTS="$$REFEREE_VAR_DIR/bench-results.json"; \
	  .venv/bin/python bench/event_store.py && .venv/bin/python bench/orders.py && .venv/bin/python bench/plans.py && \
	  BENCH_GAMES=$${BENCH_GAMES:-2000} BENCH_ACTIVE_SECONDS=$${BENCH_ACTIVE_SECONDS:-15} .venv/bin/python bench/scheduling.py && \
	  .venv/bin/python bench/fanout.py && \
	  .venv/bin/python bench/ratings.py && \
	  .venv/bin/python bench/notices.py && \
	  .venv/bin/python bench/partitions.py && \
	  .venv/bin/python bench/summary.py'

bench-scheduling: ## 10,000 deadlines expiring at once on 2 Celery workers, then 1,000 active games
	scripts/with_servers.sh .venv/bin/python bench/scheduling.py

bench-fanout:   ## orders on a game with 500 event streams and 100 long-polls open on it, against none (a few minutes)
	scripts/with_servers.sh .venv/bin/python bench/fanout.py

bench-ratings:  ## rebuilding every rating from 10,000 counted games, and the statements of a rated game's end
	scripts/with_servers.sh .venv/bin/python bench/ratings.py

bench-notices:  ## deadlines of games with a webhook answering after 10 s, against games without (3 rounds)
	scripts/with_servers.sh .venv/bin/python bench/notices.py

bench-timers:   ## how late a round clock ends: 3 rounds of 100 timers on 2 workers, ETA against a 1 s sweeper
	scripts/with_servers.sh .venv/bin/python bench/timers.py

bench-wormlord: ## Wormlord through the real server: 4 then 8 HTTP bots for whole rounds; p99 accepted -> seen by all
	scripts/with_servers.sh .venv/bin/python bench/wormlord_load.py
