#!/usr/bin/env bash
# The tests that touch the log's layout, on the log partitioned by hash of game (16
# partitions): the event store's contract, a whole game of each ruleset with its verify, the
# deadline storm, and the layout checks. `make test` runs it after the whole suite on plain
# tables. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export REFEREE_LOG_PARTITIONS="${REFEREE_LOG_PARTITIONS:-16}"
exec scripts/with_servers.sh .venv/bin/python -m pytest \
  tests/integration/test_log_partitions.py \
  tests/integration/test_partition_routing.py \
  tests/integration/test_statements_name_their_game.py \
  tests/integration/test_citus_layout.py \
  tests/integration/test_django_store.py \
  tests/integration/test_deadline_storm.py \
  tests/integration/test_db_roles.py \
  tests/integration/test_concurrency.py \
  tests/integration/test_due_rows.py \
  tests/integration/test_query_plans.py \
  tests/integration/test_tail_with_the_lock.py \
  tests/api/test_api_full_game.py \
  tests/api/test_wormlord_api.py::test_a_whole_timed_game_between_two_http_bots_is_played_and_verifies \
  tests/api/test_parties_api.py::test_eight_bots_play_a_whole_game_through_the_api_and_the_log_verifies \
  tests/api/test_lggwg_api.py::test_two_bots_play_a_whole_game_through_the_api_and_the_log_verifies \
  tests/api/test_any_ruleset_through_the_api.py::test_pig_plays_to_the_end_through_the_generic_order_endpoint \
  "$@"
