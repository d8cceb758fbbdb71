"""The schema obeys Citus's rules for the layout docs/scaling.md gives (referee/distribution.py):
every table is distributed or a reference table; a distributed table's distribution column is
never null and is in each of its primary keys, unique constraints and unique indexes; a
foreign key between distributed tables joins co-located tables on their distribution
columns; no reference table points into a distributed one; and the calls' order creates
what a foreign key points to before the table that holds it."""

from __future__ import annotations

import pytest
from django.db import connection

from referee.distribution import DISTRIBUTED, REFERENCE, citus_calls, layout_problems

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_schema_can_be_distributed_by_game_as_documented():
    assert layout_problems(connection) == []


def test_every_table_of_a_game_is_co_located_with_the_game():
    game_tables = {d.table for d in DISTRIBUTED if d.column == "game_id"}
    assert {"referee_event", "referee_snapshot", "referee_duework", "referee_seat", "referee_vacation",
            "referee_invitation", "referee_ratedgame", "referee_ratingchange"} <= game_tables
    assert all(d.colocate_with == "referee_game" for d in DISTRIBUTED if d.column == "game_id")
    assert {"auth_user", "referee_league", "authtoken_token"} <= set(REFERENCE)


def test_the_documented_calls_are_the_ones_the_check_reads():
    with open("docs/scaling.md", encoding="utf-8") as doc:
        text = doc.read()
    assert all(call in text for call in citus_calls())


def test_a_unique_constraint_without_the_game_is_found():
    with connection.cursor() as cur:
        cur.execute("SAVEPOINT citus_check")
        try:
            cur.execute("ALTER TABLE referee_seat ADD CONSTRAINT seat_name_unique UNIQUE (name)")
            problems = layout_problems(connection)
        finally:
            cur.execute("ROLLBACK TO SAVEPOINT citus_check")
    assert problems == ["referee_seat: unique seat_name_unique (name) lacks game_id"]
