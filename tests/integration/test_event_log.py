"""The event log on real PostgreSQL: append-only, tamper-evident, replayable, idempotent."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from games.base import Viewer
from referee import services
from referee.errors import GameFrozen
from referee.models import Event
from tests.factories import ModeratorFactory, acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def roll(game, seat, key=None):
    return services.command_handle(
        game_id=str(game.pk), user=seat.user, command_type="Roll", payload={}, idempotency_key=key
    )



def test_the_trigger_refuses_update():
    game, seats = started_game()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game=game).update(payload={})


def test_the_trigger_refuses_delete():
    game, seats = started_game()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game=game, seq=1).delete()


def test_the_trigger_refuses_truncate():
    started_game()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as c:
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")  # flush Django's deferred FK checks first
        c.execute("TRUNCATE referee_event CASCADE")


def test_a_payload_changed_behind_the_stores_back_is_caught_with_its_seq(capsys):
    game, seats = started_game()
    roll(game, acting_seat(game, seats))
    target = Event.objects.filter(game=game, type="DieRolled").get()
    forged = json.dumps({**target.payload, "value": target.payload["value"] % 6 + 1})
    with connection.cursor() as c:
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c.execute("ALTER TABLE referee_event DISABLE TRIGGER referee_event_no_update_delete")
        c.execute("UPDATE referee_event SET payload = %s WHERE id = %s", [forged, target.id])
        c.execute("ALTER TABLE referee_event ENABLE TRIGGER referee_event_no_update_delete")
    with pytest.raises(CommandError, match=rf"game {game.pk} is broken at seq {target.seq}"):
        call_command("verify_log", str(game.pk))
    game.refresh_from_db()
    assert f"seq {target.seq}" in game.frozen_reason
    with pytest.raises(GameFrozen):
        roll(game, acting_seat(game, seats))


def test_a_moderator_unfreezes_a_game_with_a_reason_everyone_sees():
    game, seats = started_game()
    services.referee_get().store.update_game(str(game.pk), frozen_reason="broken at seq 3")
    services.game_unfreeze(game_id=str(game.pk), moderator=ModeratorFactory(), reason="checked by hand")
    feed = services.referee_get().feed(str(game.pk), Viewer.for_seat(seats[0].number))
    assert feed[-1]["type"] == "GameUnfrozen" and feed[-1]["payload"]["reason"] == "checked by hand"
    roll(game, acting_seat(game, seats))


def test_verify_log_reports_every_healthy_game(capsys):
    game, seats = started_game()
    roll(game, acting_seat(game, seats))
    call_command("verify_log", str(game.pk))
    assert f"game {game.pk}: ok" in capsys.readouterr().out


def test_replayed_state_equals_the_live_state():
    game, seats = started_game()
    referee = services.referee_get()
    for _ in range(40):
        state, _ = referee.current(str(game.pk))
        if state.winner is not None:
            break
        seat = acting_seat(game, seats)
        command = "Hold" if state.turn_total >= 6 else "Roll"
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type=command, payload={})
        services.game_run_pending(game_id=str(game.pk))
    live, _ = referee.current(str(game.pk))
    assert referee.replay(str(game.pk)) == live
    assert referee.verify(str(game.pk)).ok


def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing():
    game, seats = started_game()
    seat = acting_seat(game, seats)
    first = roll(game, seat, key="req-1")
    count = Event.objects.filter(game=game).count()
    again = roll(game, seat, key="req-1")
    assert again.replayed and [r.seq for r in again.records] == [r.seq for r in first.records]
    assert Event.objects.filter(game=game).count() == count
