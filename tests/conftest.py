from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _real_servers_for_marked_tests(request: pytest.FixtureRequest) -> None:
    """Tests marked ``postgres``/``redis`` need the servers `make test` starts; without
    them they fail loudly rather than pass on the wrong database."""
    if request.node.get_closest_marker("postgres"):
        from django.db import connection

        if connection.vendor != "postgresql":
            pytest.fail("this test needs PostgreSQL: run it through `make test` (scripts/test.sh)")
    if request.node.get_closest_marker("redis") and not os.environ.get("REDIS_URL"):
        pytest.fail("this test needs Redis: run it through `make test` (scripts/test.sh)")
