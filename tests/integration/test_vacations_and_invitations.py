"""Vacations and other out-of-game writes cannot grow the log at will, nor touch a finished
or frozen game; private games are joined by invitation."""

from __future__ import annotations

import datetime as dt

import pytest

from referee import lobby, lobby_selectors, services
from referee.errors import GameFrozen, GameNotActive, GameNotFound, InvalidSetting, SeatError
from referee.models import Event, Game
from tests.factories import (
    GameFactory,
    ModeratorFactory,
    UserFactory,
    acting_seat,
    api_client,
    started_game,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    """The injected clock (as in test_scheduling): ``now.set(t)`` moves it."""
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


def declare(game, seat, starts_at, length):
    return services.vacation_declare(game_id=str(game.pk), user=seat.user, starts_at=starts_at,
                                     ends_at=starts_at + length)


def notices(game, type_):
    return Event.objects.filter(game=game, type=type_).count()


# --- vacations ------------------------------------------------------------------------------------


def test_a_vacation_shorter_than_an_hour_is_refused(now):
    game, seats = started_game()
    for length in (dt.timedelta(microseconds=1), dt.timedelta(seconds=1), dt.timedelta(minutes=59)):
        with pytest.raises(InvalidSetting, match="at least 1 hour"):
            declare(game, seats[0], T0 + HOUR, length)
    assert notices(game, "VacationDeclared") == 0
    declare(game, seats[0], T0 + HOUR, HOUR)
    assert notices(game, "VacationDeclared") == 1


def test_three_hundred_one_second_vacations_make_no_records(now):
    game, seats = started_game()
    for i in range(300):
        with pytest.raises(InvalidSetting):
            declare(game, seats[0], T0 + dt.timedelta(seconds=i + 1), dt.timedelta(seconds=1))
    assert notices(game, "VacationDeclared") == 0


def test_at_most_three_vacations_a_day(now):
    game, seats = started_game()
    for i in range(3):
        declare(game, seats[0], T0 + dt.timedelta(days=i + 1), HOUR)
    with pytest.raises(InvalidSetting, match="3 vacations a day"):
        declare(game, seats[0], T0 + dt.timedelta(days=5), HOUR)
    declare(game, seats[1], T0 + dt.timedelta(days=5), HOUR)  # the limit is per seat
    now.set(T0 + dt.timedelta(hours=24, seconds=1))
    declare(game, seats[0], T0 + dt.timedelta(days=5), HOUR)
    assert notices(game, "VacationDeclared") == 5


def test_vacations_count_against_the_allowance(now, settings):
    settings.REFEREE_VACATION_DAYS = 1
    game, seats = started_game()
    declare(game, seats[0], T0 + HOUR, dt.timedelta(hours=20))
    with pytest.raises(InvalidSetting, match="1 days per game"):
        declare(game, seats[0], T0 + dt.timedelta(days=2), dt.timedelta(hours=5))
    declare(game, seats[0], T0 + dt.timedelta(days=2), dt.timedelta(hours=4))


# --- no writes on a finished or frozen game ----------------------------------------------------------


def _finish(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()


def _freeze(game):
    Game.objects.filter(pk=game.pk).update(frozen_reason="verification failed at seq 4")
    game.refresh_from_db()


@pytest.mark.parametrize("stop", [_finish, _freeze], ids=["finished", "frozen"])
def test_no_vacation_or_reminder_change_on_a_stopped_game(now, stop):
    game, seats = started_game()
    stop(game)
    records = Event.objects.filter(game=game).count()
    with pytest.raises((GameNotActive, GameFrozen)):
        declare(game, seats[0], T0 + HOUR, dt.timedelta(days=1))
    with pytest.raises((GameNotActive, GameFrozen)):
        services.reminders_set(game_id=str(game.pk), user=seats[0].user, enabled=False)
    seats[0].refresh_from_db()
    assert seats[0].reminders is True
    assert Event.objects.filter(game=game).count() == records


@pytest.mark.parametrize("stop", [_finish, _freeze], ids=["finished", "frozen"])
def test_no_moderator_extension_pause_or_resume_on_a_stopped_game(now, stop):
    game, seats = started_game()
    moderator = ModeratorFactory()
    services.game_pause(game_id=str(game.pk), moderator=moderator, reason="holiday")
    stop(game)
    records = Event.objects.filter(game=game).count()
    with pytest.raises((GameNotActive, GameFrozen)):
        services.deadline_extend(game_id=str(game.pk), moderator=moderator, hours=5, reason="storm")
    with pytest.raises((GameNotActive, GameFrozen)):
        services.game_resume(game_id=str(game.pk), moderator=moderator, reason="back")
    Game.objects.filter(pk=game.pk).update(paused_at=None)
    with pytest.raises((GameNotActive, GameFrozen)):
        services.game_pause(game_id=str(game.pk), moderator=moderator, reason="again")
    assert Event.objects.filter(game=game).count() == records


def test_a_frozen_games_extension_is_refused_with_the_reason(now):
    game, seats = started_game()
    _freeze(game)
    with pytest.raises(GameFrozen, match="verification failed at seq 4"):
        services.deadline_extend(game_id=str(game.pk), moderator=ModeratorFactory(), hours=5, reason="storm")


def test_a_running_game_still_takes_vacations_reminders_and_extensions(now):
    game, seats = started_game()
    seat = acting_seat(game, seats)
    declare(game, seat, T0 + HOUR, dt.timedelta(days=1))
    services.reminders_set(game_id=str(game.pk), user=seat.user, enabled=False)
    services.deadline_extend(game_id=str(game.pk), moderator=ModeratorFactory(), hours=5, reason="storm")
    assert notices(game, "VacationDeclared") == 1 and notices(game, "DeadlineExtended") == 1


# --- invitations to private games ---------------------------------------------------------------


def _private_game(creator):
    return GameFactory(created_by=creator, is_private=True, seats=2)


def test_a_private_game_is_hidden_from_and_closed_to_the_uninvited():
    creator, stranger = UserFactory(), UserFactory()
    game = _private_game(creator)
    assert not lobby_selectors.games_visible_to(stranger).filter(pk=game.pk).exists()
    with pytest.raises(GameNotFound):
        lobby.game_join(game_id=str(game.pk), user=stranger, name="Stranger")


def test_an_invited_user_sees_and_joins_the_private_game():
    creator, guest = UserFactory(), UserFactory()
    game = _private_game(creator)
    lobby.invitation_create(game_id=str(game.pk), user=creator, username=guest.username)
    assert lobby_selectors.games_visible_to(guest).filter(pk=game.pk).exists()
    assert [i.user for i in lobby_selectors.invitations_of(game_id=str(game.pk), user=creator)] == [guest]
    seat = lobby.game_join(game_id=str(game.pk), user=guest, name="Guest")
    assert seat.user == guest


def test_a_moderator_may_invite_but_another_player_may_not():
    creator, guest, other = UserFactory(), UserFactory(), UserFactory()
    game = _private_game(creator)
    lobby.invitation_create(game_id=str(game.pk), user=creator, username=other.username)
    with pytest.raises(SeatError, match="creator or a moderator"):
        lobby.invitation_create(game_id=str(game.pk), user=other, username=guest.username)
    lobby.invitation_create(game_id=str(game.pk), user=ModeratorFactory(), username=guest.username)
    assert lobby_selectors.games_visible_to(guest).filter(pk=game.pk).exists()


def test_inviting_twice_or_inviting_nobody_is_refused_clearly():
    creator, guest = UserFactory(), UserFactory()
    game = _private_game(creator)
    lobby.invitation_create(game_id=str(game.pk), user=creator, username=guest.username)
    with pytest.raises(InvalidSetting, match="already invited"):
        lobby.invitation_create(game_id=str(game.pk), user=creator, username=guest.username)
    with pytest.raises(InvalidSetting, match="no user"):
        lobby.invitation_create(game_id=str(game.pk), user=creator, username="nobody-by-that-name")


def test_a_withdrawn_invitation_closes_the_game_again():
    creator, guest = UserFactory(), UserFactory()
    game = _private_game(creator)
    lobby.invitation_create(game_id=str(game.pk), user=creator, username=guest.username)
    lobby.invitation_withdraw(game_id=str(game.pk), user=creator, username=guest.username)
    assert not lobby_selectors.games_visible_to(guest).filter(pk=game.pk).exists()


def test_no_invitations_once_the_game_has_started():
    creator, guest = UserFactory(), UserFactory()
    game, _ = started_game(created_by=creator, is_private=True)
    with pytest.raises(GameNotActive):
        lobby.invitation_create(game_id=str(game.pk), user=creator, username=guest.username)


def test_invitations_through_the_api():
    creator, guest, stranger = UserFactory(), UserFactory(), UserFactory()
    game = _private_game(creator)
    url = f"/api/games/{game.pk}/invitations/"
    assert api_client(stranger).post(url, {"username": guest.username}, format="json").status_code == 404
    made = api_client(creator).post(url, {"username": guest.username}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["username"] == guest.username
    listed = api_client(creator).get(url).json()
    assert [i["username"] for i in listed] == [guest.username]
    assert api_client(guest).get(f"/api/games/{game.pk}/").status_code == 200
    joined = api_client(guest).post(f"/api/games/{game.pk}/join/", {"name": "Guest"}, format="json")
    assert joined.status_code == 201, joined.content
    refused = api_client(creator).post(url, {"username": "nobody-by-that-name"}, format="json")
    assert refused.status_code == 400 and refused["Content-Type"].startswith("application/problem+json")


def test_withdrawing_with_a_hostile_username_is_a_clear_400():
    creator = UserFactory()
    game = _private_game(creator)
    url = f"/api/games/{game.pk}/invitations/"
    for name in ("%00", "", "nobody"):
        answer = api_client(creator).delete(f"{url}?username={name}")
        assert answer.status_code == 400, answer.content
        assert answer["Content-Type"].startswith("application/problem+json")
