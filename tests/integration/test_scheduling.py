"""Deadlines, phases, pauses, vacations and outages on PostgreSQL, with an injected clock."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.management import call_command

from referee import scheduling, selectors, services
from referee.errors import GameNotActive, InvalidSetting
from referee.models import DueWork, Event
from tests.factories import GameFactory, ModeratorFactory, UserFactory, acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    """The injected clock: ``now.set(t)`` moves it; services and jobs read it. Jumps of
    hours would look like a scheduler outage, so outside the outage test the threshold is
    out of reach."""
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9

    class Clock:
        def set(self, instant: dt.datetime) -> dt.datetime:
            from referee.clock import set_fake_now

            set_fake_now(path, instant)
            return instant

    clock = Clock()
    clock.set(T0)
    return clock



def referee_orders(game):
    return list(Event.objects.filter(game=game, kind="command", actor_kind="referee").values_list("type", flat=True))


def deadline(game) -> DueWork:
    return DueWork.objects.get(game=game, kind="deadline", status="pending")


def test_the_turn_limit_is_within_the_rulesets_own_bounds():
    for hours in (23, 49):
        with pytest.raises(InvalidSetting, match="§7: The turn limit must be between 24 and 48 hours"):
            GameFactory(ruleset="worms", settings={}, turn_limit_seconds=hours * 3600)
    assert GameFactory(ruleset="worms", settings={}, turn_limit_seconds=24 * 3600).turn_limit_seconds == 24 * 3600
    with pytest.raises(InvalidSetting, match="between 1 and 10080 minutes"):
        GameFactory(turn_limit_seconds=59)
    assert GameFactory(turn_limit_seconds=60).turn_limit_text == "1 minute"
    assert GameFactory().turn_limit_seconds == 36 * 3600  # the ruleset's default


def test_an_unknown_deadline_policy_is_refused():
    with pytest.raises(InvalidSetting, match="hold"):
        GameFactory(deadline_policy="panic")


def test_the_deadline_is_part_of_every_view(now):
    game, seats = started_game(turn_limit_seconds=30 * 3600)
    for user in (None, seats[0].user):
        viewer = selectors.viewer_for(game_id=str(game.pk), user=user)
        clock = selectors.game_state_get(game_id=str(game.pk), viewer=viewer)["clock"]
        assert clock["deadline"] == (T0 + dt.timedelta(hours=30)).isoformat()
        assert clock["waiting_for"] == [acting_seat(game, seats).number]


def test_expiry_produces_exactly_one_auto_turn_saying_why(now):
    game, seats = started_game()
    due = deadline(game).due_at
    assert due == T0 + dt.timedelta(hours=36)
    now.set(due - dt.timedelta(seconds=1))
    scheduling.sweep()
    assert referee_orders(game) == ["Setup"]
    now.set(due + dt.timedelta(minutes=5))
    scheduling.sweep()
    scheduling.sweep()
    scheduling.due_work_run(game_id=str(game.pk), key="turn:0:deadline", kind="deadline")
    assert referee_orders(game) == ["Setup", "Hold"]
    notice = Event.objects.get(game=game, type="DeadlineExpired")
    assert notice.payload["reason"] == "the deadline passed" and notice.payload["policy"] == "hold"
    assert Event.objects.filter(game=game, type="TurnStarted").count() == 2  # the next turn began


def test_a_valid_order_before_the_deadline_wins_even_if_the_job_runs_late(now):
    game, seats = started_game()
    now.set(T0 + dt.timedelta(hours=35))
    services.command_handle(game_id=str(game.pk), user=acting_seat(game, seats).user, command_type="Hold", payload={})
    now.set(T0 + dt.timedelta(hours=40))
    scheduling.due_work_run(game_id=str(game.pk), key="turn:0:deadline", kind="deadline")  # the late job
    scheduling.sweep()
    assert not Event.objects.filter(game=game, type="DeadlineExpired").exists()
    assert DueWork.objects.get(game=game, key="turn:0:deadline", kind="deadline").status == "cancelled"


def test_an_invalid_submission_does_not_stop_the_clock(now):
    game, seats = started_game()
    other = next(s for s in seats if s != acting_seat(game, seats))
    with pytest.raises(Exception, match="not your turn"):
        services.command_handle(game_id=str(game.pk), user=other.user, command_type="Roll", payload={})
    assert deadline(game).due_at == T0 + dt.timedelta(hours=36)
    now.set(T0 + dt.timedelta(hours=37))
    scheduling.sweep()
    assert referee_orders(game) == ["Setup", "Hold"]


def test_the_turn_start_phase_runs_once_however_often_it_is_delivered(now):
    game = GameFactory()
    for _ in range(2):
        services.seat_add(game=game, user=UserFactory(), name=f"P{_}")
    services.game_start(game=game)  # inside the test transaction on_commit never fires
    assert not Event.objects.filter(game=game, type="TurnStarted").exists()
    for _ in range(3):
        scheduling.due_work_run(game_id=str(game.pk), key="turn:0:start")
    scheduling.sweep()
    assert Event.objects.filter(game=game, type="TurnStarted").count() == 1


def test_orders_wait_for_the_turn_start_phase(now):
    game = GameFactory()
    seats = [services.seat_add(game=game, user=UserFactory(), name=f"P{i}") for i in range(2)]
    services.game_start(game=game)
    with pytest.raises(Exception, match="not started"):
        services.command_handle(game_id=str(game.pk), user=acting_seat(game, seats).user, command_type="Roll", payload={})


def test_a_pause_stops_the_clock_and_a_resume_gives_back_what_was_left(now):
    game, seats = started_game()
    moderator = ModeratorFactory()
    now.set(T0 + dt.timedelta(hours=10))
    services.game_pause(game_id=str(game.pk), moderator=moderator, reason="server move")
    with pytest.raises(GameNotActive, match="paused"):
        services.command_handle(game_id=str(game.pk), user=acting_seat(game, seats).user, command_type="Roll", payload={})
    now.set(T0 + dt.timedelta(days=5))
    scheduling.sweep()
    assert referee_orders(game) == ["Setup"]
    services.game_resume(game_id=str(game.pk), moderator=moderator, reason="back")
    assert deadline(game).due_at == T0 + dt.timedelta(days=5, hours=26)
    types = list(Event.objects.filter(game=game, kind="notice").values_list("type", flat=True))
    assert types == ["GamePaused", "GameResumed"]


def test_a_moderator_extends_one_deadline_with_a_reason(now):
    game, _ = started_game()
    with pytest.raises(Exception, match="Only moderators"):
        services.deadline_extend(game_id=str(game.pk), moderator=UserFactory(), hours=5, reason="x")
    with pytest.raises(InvalidSetting, match="reason"):
        services.deadline_extend(game_id=str(game.pk), moderator=ModeratorFactory(), hours=5, reason=" ")
    services.deadline_extend(game_id=str(game.pk), moderator=ModeratorFactory(), hours=5, reason="holiday")
    assert deadline(game).due_at == T0 + dt.timedelta(hours=41)
    assert Event.objects.get(game=game, type="DeadlineExtended").payload["reason"] == "holiday"


def test_deadlines_that_fell_in_our_outage_are_extended_never_auto_played(now, settings):
    settings.REFEREE_OUTAGE_SECONDS = 300
    game, _ = started_game()
    scheduling.sweep()  # the sweeper's heartbeat at T0
    now.set(T0 + dt.timedelta(hours=40))  # it was down for 40 hours; the deadline fell inside
    scheduling.sweep()
    assert referee_orders(game) == ["Setup"]
    assert deadline(game).due_at == T0 + dt.timedelta(hours=76)
    notice = Event.objects.get(game=game, type="DeadlinesExtendedForOutage")
    assert notice.payload["extended_by_seconds"] == 40 * 3600


def test_a_vacation_with_the_pause_policy_moves_the_deadline_past_its_end(now):
    game, seats = started_game()
    seat = acting_seat(game, seats)
    services.vacation_declare(game_id=str(game.pk), user=seat.user, starts_at=T0, ends_at=T0 + dt.timedelta(days=3))
    assert deadline(game).due_at == T0 + dt.timedelta(days=3, hours=36)
    with pytest.raises(InvalidSetting, match="14 days"):
        services.vacation_declare(game_id=str(game.pk), user=seat.user, starts_at=T0 + dt.timedelta(days=4),
                                  ends_at=T0 + dt.timedelta(days=20))


def test_a_vacation_with_the_referee_policy_has_the_referee_play_at_once(now):
    game, seats = started_game(vacation_policy="referee")
    seat = acting_seat(game, seats)
    services.vacation_declare(game_id=str(game.pk), user=seat.user, starts_at=T0, ends_at=T0 + dt.timedelta(days=3))
    scheduling.sweep()
    assert referee_orders(game) == ["Setup", "Hold"]
    assert "vacation" in Event.objects.get(game=game, type="DeadlineExpired").payload["reason"]


def test_the_player_is_told_when_the_turn_starts_and_before_the_deadline(now):
    game, seats = started_game()
    scheduling.sweep()
    player = acting_seat(game, seats)
    assert [m.to for m in mail.outbox] == [[player.user.email]]
    assert "Your turn" in mail.outbox[0].subject
    now.set(T0 + dt.timedelta(hours=31))
    scheduling.sweep()
    assert "ends soon" in mail.outbox[-1].subject


def test_a_player_who_opted_out_gets_no_mail(now):
    game, seats = started_game()
    for seat in seats:
        services.reminders_set(game_id=str(game.pk), user=seat.user, enabled=False)
    mail.outbox.clear()
    now.set(T0 + dt.timedelta(hours=31))
    scheduling.sweep()
    assert mail.outbox == []


def test_operators_see_overdue_work_and_its_lag(now, capsys, client):
    game, _ = started_game()
    now.set(T0 + dt.timedelta(hours=36, minutes=10))
    call_command("due_work", "--overdue")
    out = capsys.readouterr().out
    assert "turn:0:deadline" in out and "OVERDUE 600s" in out
    health = client.get("/health/").json()
    assert health["oldest_overdue_lag_seconds"] >= 600


def _other(seats, seat):
    return next(s for s in seats if s is not seat)


@pytest.mark.parametrize("runner", ["job", "sweep"])
def test_the_turn_passed_to_a_seat_on_vacation_gets_its_deadline_past_the_vacation(now, runner):
    """The turn start runs as a job (the game locked with its vacations in one statement) or in
    a sweep (a batch's vacations in one statement): either way it sees the vacation."""
    game, seats = started_game()
    seat = acting_seat(game, seats)
    other = _other(seats, seat)
    services.vacation_declare(game_id=str(game.pk), user=other.user, starts_at=T0, ends_at=T0 + dt.timedelta(days=3))
    services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Hold", payload={})
    start = DueWork.objects.get(game=game, kind="now", status="pending")
    if runner == "job":
        scheduling.due_work_run(game_id=str(game.pk), key=start.key, kind="now")
    else:
        scheduling.sweep()
    assert deadline(game).seats == [other.number]
    assert deadline(game).due_at == T0 + dt.timedelta(days=3, hours=36)


@pytest.mark.parametrize("runner", ["job", "sweep"])
def test_a_vacation_that_has_not_begun_does_not_excuse_a_missed_deadline(now, runner):
    game, seats = started_game(vacation_policy="referee")
    seat = acting_seat(game, seats)
    services.vacation_declare(game_id=str(game.pk), user=seat.user, starts_at=T0 + dt.timedelta(hours=40),
                              ends_at=T0 + dt.timedelta(days=3))
    row = deadline(game)
    now.set(T0 + dt.timedelta(hours=37))
    if runner == "job":
        scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline")
    else:
        scheduling.sweep()
    assert referee_orders(game) == ["Setup", "Hold"]
    assert Event.objects.get(game=game, type="DeadlineExpired").payload["reason"] == "the deadline passed"
