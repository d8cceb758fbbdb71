"""A deadline that several seats missed (simultaneous orders): the referee plays for every
one of them, and only for them, in one order."""

from __future__ import annotations

import datetime as dt

import pytest

from referee import scheduling, services
from referee.models import DueWork, Event
from tests.factories import GameFactory, SeatFactory
from tests.integration.test_scheduling import T0, now  # noqa: F401  (the injected clock fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_deadline_command_receives_every_seat_that_missed_and_no_other(now):  # noqa: F811
    game = GameFactory(ruleset="lggwg", settings={}, turn_limit_seconds=3600)
    seats = [SeatFactory(game=game) for _ in range(3)]
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))
    row = DueWork.objects.get(game=game, kind="deadline", status="pending")
    assert sorted(row.seats) == [1, 2, 3]
    services.command_handle(game_id=str(game.pk), user=seats[0].user, command_type="SubmitOrders",
                            payload={"orders": [{"kind": "hold", "unit": "", "target": ""}]})
    now.set(T0 + dt.timedelta(hours=1, seconds=1))
    scheduling.sweep()
    notice = Event.objects.get(game=game, type="DeadlineExpired")
    assert notice.payload["seats"] == [2, 3]
    order = Event.objects.get(game=game, kind="command", type="ResolveAtDeadline")
    assert order.payload["missed"] == [2, 3] and order.actor_kind == "referee"
    assert services.referee_get().verify(str(game.pk)).ok
