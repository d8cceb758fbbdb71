"""Forgeries by someone who can write the database (a superuser): verify recomputes every
recorded draw from the game's seed, so rewriting a draw, the event it decided and every
hash after it is still caught, at the seq of the order that drew it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from referee import services
from referee.lobby import game_join
from referee.models import Event, Seat
from referee.store.hashing import GENESIS
from tests.factories import GameFactory, UserFactory, acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

WIND = "wind ("
SHOPPING = {"type": "SubmitShoppingList", "payload": {
    "team_weapon": "minigun", "items": [{"item": "bazooka", "count": 2}, {"item": "mine", "count": 2}]}}


def _worms_game():
    """A two-team Worms game past its sign-up, so the first turn has drawn its wind."""
    game = GameFactory(ruleset="worms", settings={}, seats=2)
    for name in ("ann", "bob"):
        game_join(game_id=str(game.pk), user=UserFactory(username=name), name=name.title(), signup_order=SHOPPING)
    services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    return game


def _rehash_from(game, seq: int) -> None:
    """What a forger does after changing rows: recompute every hash from ``seq`` on."""
    store = services.referee_get().store
    records = store.read(str(game.pk))
    prev = records[seq - 2].hash if seq > 1 else GENESIS
    with connection.cursor() as c:
        for r in records[seq - 1:]:
            fixed = replace(r, prev_hash=prev)
            new_hash = fixed.computed_hash()
            c.execute("UPDATE referee_event SET prev_hash = %s, hash = %s WHERE game_id = %s AND seq = %s",
                      [prev, new_hash, game.pk, r.seq])
            prev = new_hash


def _as_superuser(sql: str, params: list) -> None:
    with connection.cursor() as c:
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c.execute("ALTER TABLE referee_event DISABLE TRIGGER referee_event_no_update_delete")
        c.execute(sql, params)


def _enable_trigger() -> None:
    with connection.cursor() as c:
        c.execute("ALTER TABLE referee_event ENABLE TRIGGER referee_event_no_update_delete")


def test_a_forged_wind_draw_with_its_wind_changed_and_a_rehashed_chain_is_caught():
    game = _worms_game()
    wind = Event.objects.filter(game=game, type="WindChanged").order_by("seq").first()
    assert wind is not None, "a started Worms game has drawn its wind"
    order = Event.objects.get(game=game, seq=wind.cause_seq)
    index = next(i for i, d in enumerate(order.draws) if d["purpose"].startswith(WIND))
    honest = order.draws[index]["value"]
    forged_value = 0 if honest != 0 else 5
    draws = [dict(d, value=forged_value) if i == index else d for i, d in enumerate(order.draws)]
    forged_wind = {"direction": None, "strength": 0} if forged_value == 0 else {"direction": "E", "strength": 2}
    assert set(forged_wind) == set(wind.payload), wind.payload
    _as_superuser("UPDATE referee_event SET draws = %s WHERE id = %s", [json.dumps(draws), order.id])
    _as_superuser("UPDATE referee_event SET payload = %s WHERE id = %s", [json.dumps(forged_wind), wind.id])
    _rehash_from(game, order.seq)
    _enable_trigger()
    report = services.referee_get().verify(str(game.pk))
    assert not {p.check for p in report.problems} & {"hash", "chain", "sequence"}, report.problems
    assert report.first_problem is not None and report.first_problem.seq == order.seq
    assert report.first_problem.check == "dice"
    with pytest.raises(CommandError, match=rf"game {game.pk} is broken at seq {order.seq} \(dice\)"):
        call_command("verify_log", str(game.pk))


def test_an_honest_worms_log_verifies():
    game = _worms_game()
    assert services.referee_get().verify(str(game.pk)).ok


def _break_a_roll(game) -> int:
    """A Pig die roll changed behind the store's back (hash not recomputed)."""
    seat = acting_seat(game, Seat.objects.filter(game=game).order_by("number"))
    services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Roll", payload={})
    target = Event.objects.get(game=game, type="DieRolled")
    forged = json.dumps({**target.payload, "value": target.payload["value"] % 6 + 1})
    _as_superuser("UPDATE referee_event SET payload = %s WHERE id = %s", [forged, target.id])
    _enable_trigger()
    return target.seq


def test_verify_log_without_arguments_checks_every_game_and_names_every_broken_one(capsys):
    first, _ = started_game()
    healthy, _ = started_game()
    last, _ = started_game()
    broken = {first.pk: _break_a_roll(first), last.pk: _break_a_roll(last)}
    with pytest.raises(CommandError) as failure:
        call_command("verify_log")
    out = capsys.readouterr().out
    for game_id, seq in broken.items():
        assert f"game {game_id} is broken at seq {seq}" in str(failure.value)
        assert f"game {game_id}: seq {seq}: hash" in out
    assert f"game {healthy.pk}: ok" in out
    assert "2 of 3 games broken" in str(failure.value)


def _a_snapshot(game):
    from referee.models import Snapshot as SnapshotRow
    from referee.store.base import Snapshot
    from referee.store.hashing import digest

    referee = services.referee_get()
    state, seq = referee.current(str(game.pk))
    rules = referee.ruleset_for(referee.store.get_game(str(game.pk)))
    data = rules.state_to_data(state)
    referee.store.save_snapshot(Snapshot(str(game.pk), seq, rules.version, data, digest(data)))
    return SnapshotRow.objects.get(game=game, seq=seq)


def test_a_plain_update_of_a_snapshot_is_refused():
    from django.db import DatabaseError, transaction

    game, _ = started_game()
    row = _a_snapshot(game)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as c:
        c.execute("UPDATE referee_snapshot SET state = '{}'::jsonb WHERE id = %s", [row.id])


def test_a_snapshot_may_still_be_dropped():
    """Snapshots are disposable caches: verify drops one that disagrees with the log."""
    from referee.models import Snapshot as SnapshotRow

    game, _ = started_game()
    row = _a_snapshot(game)
    services.referee_get().store.drop_snapshot(str(game.pk), row.seq)
    assert not SnapshotRow.objects.filter(pk=row.pk).exists()
