"""The checker of statements that name their game (tests/game_filter.py): what it accepts,
what it reports, on the shapes the store writes and the ORM emits."""

from __future__ import annotations

import pytest

from tests.game_filter import problems

GAME = "'c4efb74a2b5c473b9f06abc4c11abe24'::uuid"
OTHER = "'0f3c5a8e9d2b4c1aa1b2c3d4e5f60718'::uuid"

NAMES_ITS_GAME = {
    "a placeholder": "SELECT seq FROM referee_event WHERE game_id = %s::uuid AND seq > %s::int4 ORDER BY seq",
    "a named placeholder": "SELECT seq FROM referee_event WHERE game_id = %(game)s::uuid",
    "the ORM's quoted literal": f'SELECT "referee_seat"."id" FROM "referee_seat" WHERE ("referee_seat"."game_id" = {GAME}'
                                ' AND "referee_seat"."user_id" = 2) LIMIT 1',
    "IN with one value": f'SELECT "referee_duework"."id" FROM "referee_duework" WHERE ("referee_duework"."game_id" IN ({GAME}))',
    "the game row by its id": "SELECT ruleset FROM referee_game WHERE id = %s::uuid",
    "a join on the game": "SELECT s.number FROM referee_seat s JOIN referee_game g ON g.id = s.game_id "
                          "WHERE s.game_id = %s::uuid AND s.user_id = %s FOR NO KEY UPDATE OF g",
    "a derived table and a lateral join on it": (
        "SELECT l.*, d.id FROM (SELECT g.id FROM referee_game g WHERE g.id = %s::uuid FOR NO KEY UPDATE) AS l "
        "LEFT JOIN LATERAL (SELECT x.id FROM referee_duework x WHERE x.game_id = l.id AND x.status = 'pending') AS d ON true"),
    "a CTE and a union": (
        "WITH snap AS (SELECT seq FROM referee_snapshot WHERE game_id = %(game)s::uuid ORDER BY seq DESC LIMIT 1) "
        "SELECT 1 AS part, seq FROM referee_event WHERE game_id = %(game)s::uuid AND seq >= COALESCE((SELECT seq FROM snap), 0) "
        "UNION ALL SELECT 0, seq FROM snap ORDER BY part, seq"),
    "an insert guarded by an exists": (
        "WITH first AS (INSERT INTO referee_event (game_id, seq, hash) SELECT %s::uuid, %s::int4, %s::varchar "
        "WHERE EXISTS (SELECT 1 FROM referee_event WHERE game_id = %s::uuid AND seq = %s::int4) "
        "ON CONFLICT DO NOTHING RETURNING seq) SELECT seq FROM first"),
    "the ORM's insert of rows of one game": (
        f'INSERT INTO "referee_duework" ("game_id", "key") VALUES ({GAME}, \'a\'), ({GAME}, \'b\') RETURNING "id"'),
    "a correlated subquery": (
        "SELECT g.id FROM referee_game g WHERE g.id = %s AND EXISTS (SELECT 1 FROM referee_seat s WHERE s.game_id = g.id)"),
    "an update by the game": "UPDATE referee_duework d SET status = 'done' WHERE d.game_id = %s::uuid AND d.id = ANY(%s)",
    "a table that is not the game's": "SELECT * FROM auth_user WHERE id = 3",
    "a savepoint": 'SAVEPOINT "s1_x2"',
}

DOES_NOT = {
    "no filter": ("SELECT seq FROM referee_event ORDER BY seq", "referee_event"),
    "an array of games": ("SELECT s.number FROM referee_seat s WHERE s.game_id = ANY(%s::uuid[])", "referee_seat"),
    "IN with two games": (f'SELECT 1 FROM "referee_seat" WHERE "referee_seat"."game_id" IN ({GAME}, {OTHER})',
                          "referee_seat"),
    "a filter under an OR": ("SELECT 1 FROM referee_duework WHERE game_id = %s OR status = 'pending'",
                             "referee_duework"),
    "an update by ids alone": ("UPDATE referee_duework d SET status = e->>1 FROM jsonb_array_elements(%s::jsonb) AS e "
                               "WHERE d.id = ANY(%s::int8[]) AND d.id = (e->>0)::int8", "referee_duework"),
    "a subquery over every game": (
        'SELECT "referee_game"."id" FROM "referee_game" WHERE "referee_game"."id" IN (SELECT U0."game_id" '
        'FROM "referee_duework" U0 WHERE U0."status" = \'pending\' LIMIT 80) FOR NO KEY UPDATE SKIP LOCKED',
        "referee_duework"),
    "a join whose other side is not filtered": (
        "SELECT 1 FROM referee_seat s JOIN referee_game g ON g.id = s.game_id WHERE s.user_id = %s", "referee_seat"),
    "two games' literals": (f'SELECT 1 FROM "referee_seat" WHERE "referee_seat"."game_id" = {GAME} '
                            f'AND "referee_seat"."id" IN (SELECT "game_id" FROM "referee_event" WHERE "game_id" = {OTHER})',
                            "2 games"),
    "an insert of rows of two games": (
        f'INSERT INTO "referee_duework" ("game_id", "key") VALUES ({GAME}, \'a\'), ({OTHER}, \'b\')', "2 games"),
    "an insert whose game comes from a column": (
        "INSERT INTO referee_duework (game_id, key) SELECT d.game_id, d.key FROM referee_duework d WHERE d.status = 'x'",
        "referee_duework"),
    "a delete of a table": ("DELETE FROM referee_snapshot WHERE seq > 3", "referee_snapshot"),
}


@pytest.mark.parametrize("sql", NAMES_ITS_GAME.values(), ids=NAMES_ITS_GAME.keys())
def test_a_statement_that_names_one_game_passes(sql):
    assert problems(sql) == []


@pytest.mark.parametrize(("sql", "named"), DOES_NOT.values(), ids=DOES_NOT.keys())
def test_a_statement_that_does_not_name_one_game_is_reported_with_its_table(sql, named):
    found = problems(sql)
    assert found and any(named in p for p in found), found
