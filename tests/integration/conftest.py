from __future__ import annotations

import pytest


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    """Writes that really commit, for tests that involve other processes. The event log
    cannot be truncated (the trigger), so these tests use fresh games and never clean up;
    the test database is dropped at the end of the run."""
    with django_db_blocker.unblock():
        yield
