from __future__ import annotations

import pytest


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    """Writes that really commit, for tests that involve other processes. The event log
    cannot be truncated (the trigger), so these tests use fresh games and never clean up;
    the test database is dropped at the end of the run."""
    from django.db import connection

    if not connection.settings_dict["NAME"].startswith("test_"):
        pytest.fail(
            "no test database was set up: pytest-django creates it only when a collected test "
            "uses the django_db mark; keep one in the module (see test_concurrency.py)"
        )
    with django_db_blocker.unblock():
        yield
