"""A deadline job as one unit of work: its appends held and written in one statement, its
due rows read with the game's lock, its turn e-mails sent from the recipients read there.
Every guarantee of the unwritten form holds: reads in the unit see what it appended, the
log stays chained and numbered, a held append that no longer fits the log is not written
(the job runs again, each append written as it comes), and the e-mail choices count."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from notices import services as notice_services
from referee import due_jobs, scheduling
from referee.instance import referee_get
from referee.models import DueWork, Event
from referee.store.base import NewRecord, RecordKind, stamp
from tests.factories import acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _deadline(game) -> DueWork:
    return DueWork.objects.get(game=game, kind="deadline", status="pending")


def _notice(text: str) -> NewRecord:
    return NewRecord(kind=RecordKind.NOTICE, type="Note", payload={"text": text})


def test_records_held_in_a_unit_are_read_back_in_it_and_written_once_chained():
    game, _ = started_game()
    store = referee_get().store
    game_id = str(game.pk)
    before = store.read(game_id)
    with store.holding(game_id):
        first = store.append_at_tail(game_id, before[-1].seq + 1, [_notice("one")], dt.datetime.now(dt.UTC),
                                     prev_hash=before[-1].hash)
        assert Event.objects.filter(game=game).count() == len(before)  # held, not written yet
        assert [r.seq for r in store.read(game_id, after=before[-1].seq)] == [first[0].seq]  # a read writes them
        second = store.append_at_tail(game_id, first[-1].seq + 1, [_notice("two")], dt.datetime.now(dt.UTC),
                                      prev_hash=first[-1].hash)
        assert Event.objects.filter(game=game).count() == len(before) + 1
    assert [r.seq for r in store.read(game_id, after=before[-1].seq)] == [first[0].seq, second[0].seq]
    assert referee_get().verify(game_id).ok


def test_a_unit_that_fails_writes_none_of_its_held_records():
    game, _ = started_game()
    store = referee_get().store
    game_id = str(game.pk)
    before = store.read(game_id)
    with pytest.raises(RuntimeError), store.holding(game_id):
        store.append_at_tail(game_id, before[-1].seq + 1, [_notice("lost")], dt.datetime.now(dt.UTC),
                             prev_hash=before[-1].hash)
        raise RuntimeError("the job failed")
    assert len(store.read(game_id)) == len(before)


def test_a_held_expiry_that_no_longer_fits_the_log_is_not_written_and_the_job_runs_again(monkeypatch):
    """A writer that skipped the game's lock takes the seq the held expiry was given: the
    held append is refused as a whole (expected seq and predecessor's hash), the unit
    rolls back, and the job runs again with each append written as it is decided."""
    game, _ = started_game(settings={"target": 1000})
    row = _deadline(game)
    store = referee_get().store
    game_id = str(game.pk)
    run_rows, intruded = due_jobs._run_rows, []

    def intruding(unit, rows, now, *args):
        if not intruded:  # once, between the held expiry and the turn start it makes due
            tail = store.read(game_id)[-1]  # writes the held expiry, as any read in the unit does
            intruded.append(store._write(game_id, tail.seq + 1, tail.hash, stamp(
                game_id, tail.seq + 1, tail.hash, [_notice("intruder")], now), None))
        return run_rows(unit, rows, now, *args)

    monkeypatch.setattr(due_jobs, "_run_rows", intruding)
    result = scheduling.due_work_run(game_id=game_id, key=row.key, kind="deadline",
                                     now=row.due_at + dt.timedelta(minutes=1))
    assert result.startswith("referee played"), result
    assert intruded
    assert referee_get().verify(game_id).ok
    assert Event.objects.filter(game=game, type="DeadlineExpired").count() == 1


def test_the_turn_email_of_a_deadline_job_goes_to_the_seats_whose_email_choices_want_it():
    for next_wants in (True, False):  # the seat whose turn comes next wants turn e-mails, then not
        game, seats = started_game(settings={"target": 1000})
        now_acting = acting_seat(game, seats)
        for seat in seats:  # the seat that misses the deadline wants the opposite
            wants = next_wants if seat.pk != now_acting.pk else not next_wants
            notice_services.player_notices_set(user=seat.user, email=["turn"] if wants else [], channels=[])
        row = _deadline(game)
        mail.outbox.clear()
        scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline",
                                now=row.due_at + dt.timedelta(minutes=1))
        notified = DueWork.objects.get(game=game, kind="notify", key__startswith="turn:1", status="done")
        next_seat = acting_seat(game, seats)
        assert notified.seats == [next_seat.number] and next_seat.pk != now_acting.pk
        assert [m.to for m in mail.outbox] == ([[next_seat.user.email]] if next_wants else [])
        assert notified.result == f"notified {1 if next_wants else 0}"
