"""The log's tail, read along with a game's lock.

An order and a deadline job lock their game in one statement that also reads the game's
pending due rows (migration 0013); they then read the log's tail (after the head a process
has cached, or the latest snapshot and the records from it) in a statement of their own.
``referee_log_tail`` gives that tail from within the lock's statement, called on the locked
row: VOLATILE, so each of its queries takes a new snapshot when it runs, after the lock is
held, and sees what the lock's last holder committed, as a statement of its own would.

Its rows are those of ``referee.store.sql.LOAD_SQL``: part 0, the snapshot (its seq, the
ruleset version in ``type``, the state in ``payload``, its hash in ``hash``; only when no
``from_seq`` is given), then part 1, the records from ``from_seq`` on (from the snapshot's
seq, else the first, when it is NULL), in order. PL/pgSQL, which keeps its queries' plans
for the session (a SQL function's are made again at every call, and over every partition
of a partitioned log: migration 0015). PostgreSQL only.
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION referee_log_tail(game uuid, from_seq int4) RETURNS TABLE (
    part int4, seq int4, kind varchar, type varchar, payload jsonb, audience_kind varchar, audience_seat int2,
    actor_kind varchar, actor_seat int2, schema_version int2, idempotency_key varchar, cause_seq int4,
    draws jsonb, created_at timestamptz, prev_hash varchar, hash varchar, audience_seats jsonb,
    record_version int2)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
    snap_seq int4;
    snap_version varchar;
    snap_state jsonb;
    snap_hash varchar;
BEGIN
    IF from_seq IS NULL THEN
        SELECT s.seq, s.ruleset_version, s.state, s.state_hash INTO snap_seq, snap_version, snap_state, snap_hash
        FROM referee_snapshot s WHERE s.game_id = game ORDER BY s.seq DESC LIMIT 1;
        IF snap_seq IS NOT NULL THEN
            RETURN QUERY SELECT 0, snap_seq, NULL::varchar, snap_version, snap_state, NULL::varchar, NULL::int2,
                NULL::varchar, NULL::int2, NULL::int2, NULL::varchar, NULL::int4, NULL::jsonb, NULL::timestamptz,
                NULL::varchar, snap_hash, NULL::jsonb, NULL::int2;
        END IF;
        from_seq := coalesce(snap_seq, 0);
    END IF;
    RETURN QUERY SELECT 1, e.seq, e.kind, e.type, e.payload, e.audience_kind, e.audience_seat, e.actor_kind,
        e.actor_seat, e.schema_version, e.idempotency_key, e.cause_seq, e.draws, e.created_at, e.prev_hash,
        e.hash, e.audience_seats, e.record_version
    FROM referee_event e WHERE e.game_id = game AND e.seq >= from_seq ORDER BY e.seq;
END
$$
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS referee_log_tail(uuid, int4)")


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0016_perf_deadline_mail_choices'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
