"""The service's database role owns nothing: it reads and appends to the log but cannot
change it, nor alter, disable or drop the append-only trigger."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from referee.db_roles import app_role, grants_apply
from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=False)]


@pytest.fixture
def as_app(django_db_blocker):
    """A connection to the test database as the service's role (created by the test
    servers' set-up; created here if a test run started without it)."""
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_role()])
        if cur.fetchone() is None:
            cur.execute(f"CREATE ROLE {app_role()} LOGIN")
    assert grants_apply()
    s = connection.settings_dict
    conn = psycopg.connect(host=s["HOST"], port=s["PORT"], dbname=s["NAME"], user=app_role(), autocommit=True)
    yield conn
    conn.close()


def _refused(conn: psycopg.Connection, sql: str) -> str:
    with pytest.raises(psycopg.Error) as exc:
        conn.execute(sql)
    return str(exc.value)


def test_the_service_role_reads_and_appends_but_cannot_change_the_log_or_its_trigger(as_app):
    game, _ = started_game()
    # the test's own transaction is not committed: the role sees the table, not these rows
    assert as_app.execute("SELECT count(*) FROM referee_event").fetchone() is not None  # SELECT is allowed
    privileges = as_app.execute(
        "SELECT has_table_privilege('referee_event', 'INSERT'), has_table_privilege('referee_event', 'UPDATE'), "
        "has_table_privilege('referee_event', 'DELETE'), has_table_privilege('referee_event', 'TRUNCATE'), "
        "has_table_privilege('referee_game', 'UPDATE'), has_table_privilege('referee_snapshot', 'UPDATE')"
    ).fetchone()
    assert privileges == (True, False, False, False, True, False)
    assert "must be owner" in _refused(as_app, "ALTER TABLE referee_event DISABLE TRIGGER ALL")
    assert "must be owner" in _refused(as_app, "DROP TRIGGER referee_event_no_update_delete ON referee_event")
    assert "must be owner" in _refused(as_app, "DROP TABLE referee_event")
    assert "permission denied" in _refused(as_app, "UPDATE referee_event SET type = 'forged'")
    assert "permission denied" in _refused(as_app, "TRUNCATE referee_event")
    assert "permission denied" in _refused(as_app, "CREATE TABLE referee_shadow (id int)")
