"""Notices to players' chat channels, game channels and bots' servers: recorded with what
causes them, sent once by the notices worker, retried, refused for private addresses, and
never carrying what the recipient may not see."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from notices import delivery, guard, services
from notices.models import Channel, Delivery
from referee import clock, lobby
from referee import services as referee_services
from referee.errors import InvalidSetting, SeatError
from tests.factories import GameFactory, ModeratorFactory, SeatFactory, UserFactory
from tests.notice_receiver import Receiver

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def game_with_channels(setup, players: int = 2):
    """A Pig game whose players set up their channels (``setup(user)``) before it starts."""
    users = [UserFactory() for _ in range(players)]
    for user in users:
        setup(user)
    game = GameFactory()
    seats = [SeatFactory(game=game, user=u) for u in users]
    referee_services.game_start(game=game)
    referee_services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    return game, seats


def play_to_the_end(game, seats) -> None:
    """Plays a game of Pig to its end (to 20: soon enough)."""
    from referee.instance import referee_get

    referee_services.game_run_pending(game_id=str(game.pk))
    for _ in range(60):
        game.refresh_from_db()
        if game.status == "finished":
            break
        state, _ = referee_get().current(str(game.pk))
        acting = next(s for s in seats if s.number == state.order[state.to_move])
        order = "Hold" if state.turn_total >= 10 else "Roll"
        referee_services.command_handle(game_id=str(game.pk), user=acting.user, command_type=order, payload={})
        referee_services.game_run_pending(game_id=str(game.pk))
    assert game.status == "finished"


def later(seconds: float) -> dt.datetime:
    return clock.now() + dt.timedelta(seconds=seconds)


def test_a_bots_turn_notice_arrives_once_signed_by_its_endpoints_secret(receiver):
    made = {}

    def setup(user):
        made[user.pk] = services.webhook_create(user=user, url=receiver.url + "/hook", wants=["turn"])

    game, seats = game_with_channels(setup)
    assert delivery.send_due() >= 1
    assert delivery.send_due() == 0  # nothing left: sent once
    to_move = [r for r in receiver.received if json.loads(r.body)["type"] == "turn.started"]
    assert len(to_move) == 1
    body = json.loads(to_move[0].body)
    seat = next(s for s in seats if s.number == body["data"]["seat"])
    _, secret = made[seat.user_id]
    verified = Webhook(secret).verify(to_move[0].body, to_move[0].headers)
    assert verified["data"]["game"]["id"] == str(game.pk)
    other_secret = next(s for uid, (_, s) in made.items() if uid != seat.user_id)
    with pytest.raises(WebhookVerificationError):
        Webhook(other_secret).verify(to_move[0].body, to_move[0].headers)


def test_a_receiver_down_for_a_while_gets_the_notice_after_recovery_once_with_the_same_id(receiver):
    receiver.status = 503
    game, _ = game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    assert delivery.send_due() == 1
    row = Delivery.objects.get()
    assert (row.status, row.attempts, row.answer) == ("pending", 1, "HTTP 503 Service Unavailable")
    assert row.channel.last_error == "HTTP 503 Service Unavailable"  # the owner sees it
    assert delivery.send_due() == 0  # backing off: not due again yet
    receiver.status = 200
    assert delivery.send_due(now=later(3600)) == 1
    assert delivery.send_due(now=later(7200)) == 0
    ids = {r.headers["webhook-id"] for r in receiver.received}
    assert len(receiver.received) == 2 and len(ids) == 1  # the retry is recognisably the same notice
    assert Delivery.objects.get().status == "sent"


def test_a_crashed_send_is_retried_after_its_lease_with_the_same_webhook_id(receiver):
    game, _ = game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    claimed = delivery._claim(clock.now(), None)  # a worker took it and died before booking
    assert claimed is not None and delivery.send_due() == 0
    assert delivery.send_due(now=later(delivery.lease().total_seconds() + 1)) == 1
    assert Delivery.objects.get().attempts == 2 and len(receiver.received) == 1


def test_each_write_of_a_delivery_names_its_channel_beside_its_id(receiver):
    """A delivery's key is ``(id, channel_id)`` and Citus distributes the table by channel
    (docs/scaling.md): the claim's lease, a failure's backoff and a success each update the
    row by both, so the statement reaches one shard."""
    receiver.status = 503
    game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    with CaptureQueriesContext(connection) as failed:
        assert delivery.send_due() == 1
    receiver.status = 200
    with CaptureQueriesContext(connection) as sent:
        assert delivery.send_due(now=later(3600)) == 1
    updates = [q["sql"] for q in failed.captured_queries + sent.captured_queries
               if q["sql"].startswith('UPDATE "notices_delivery"')]
    assert len(updates) == 4  # two leases, a backoff, a success
    assert all('"notices_delivery"."channel_id" = ' in sql for sql in updates), updates


def test_an_endpoint_failing_for_a_day_is_given_up_and_switched_off(receiver, settings):
    settings.NOTICES_MAX_ATTEMPTS = 3
    receiver.status = 500
    game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    for hours in (0, 24, 48):
        delivery.send_due(now=later(hours * 3600))
    row = Delivery.objects.get()
    assert (row.status, row.attempts) == ("failed", 3)
    channel = row.channel
    channel.refresh_from_db()
    assert not channel.enabled and "switched off" in channel.disabled_reason


def test_the_backoff_doubles_with_jitter_up_to_four_hours():
    assert delivery.backoff(1, lambda: 0.5) == dt.timedelta(seconds=30)
    assert delivery.backoff(3, lambda: 0.5) == dt.timedelta(seconds=120)
    assert delivery.backoff(2, lambda: 0.0) == dt.timedelta(seconds=48)
    assert delivery.backoff(20, lambda: 0.5) == dt.timedelta(hours=4)


def test_a_chat_channel_gets_the_turn_through_apprise(receiver):
    game, seats = game_with_channels(lambda u: services.player_notices_set(
        user=u, email=[], channels=[{"url": receiver.url.replace("http://", "json://") + "/chat", "wants": ["turn"]}]))
    delivery.send_due()
    assert len(receiver.received) == 1
    posted = json.loads(receiver.received[0].body)
    assert "it is your turn" in posted["message"] and game.name in posted["title"]
    assert Delivery.objects.get().answer == "accepted"


def test_a_games_channel_gets_the_public_forum_post_and_no_seats_secrets(receiver):
    creator = UserFactory()
    users = [UserFactory() for _ in range(2)]
    game = GameFactory(created_by=creator)
    services.game_channel_set(game_id=str(game.pk), user=creator, url=receiver.url.replace("http://", "json://"))
    with pytest.raises(SeatError):
        services.game_channel_set(game_id=str(game.pk), user=users[0], url=receiver.url.replace("http://", "json://"))
    for u in users:
        SeatFactory(game=game, user=u)
    referee_services.game_start(game=game)
    referee_services.game_run_pending(game_id=str(game.pk))
    delivery.send_due()
    assert len(receiver.received) == 1
    posted = json.loads(receiver.received[0].body)["message"]
    assert game.name in posted and "[b]" not in posted  # Markdown for a chat service
    assert Delivery.objects.get().seat is None  # the public view, not a seat's


def test_a_private_address_is_refused_at_save_and_at_delivery(receiver, settings):
    settings.NOTICES_ALLOW_PRIVATE = False
    user = UserFactory()
    for url in ("http://127.0.0.1:9/x", "https://10.0.0.1/x", "https://169.254.169.254/latest", "https://[::1]/"):
        with pytest.raises(InvalidSetting, match="not sent there"):
            services.webhook_create(user=user, url=url, wants=["turn"])
    with pytest.raises(InvalidSetting, match="not sent there"):
        services.player_notices_set(user=user, email=[], channels=[{"url": "json://127.0.0.1:9/x"}])
    # Saved while allowed (a DNS answer that has changed since, in effect): refused when sent.
    settings.NOTICES_ALLOW_PRIVATE = True
    game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    settings.NOTICES_ALLOW_PRIVATE = False
    delivery.send_due()
    assert receiver.received == []
    assert "loopback" in Delivery.objects.get().last_error


def test_a_metadata_address_is_refused_even_where_private_ones_are_allowed():
    assert "metadata" in guard.address_refusal("169.254.169.254")
    with pytest.raises(guard.Refused):
        guard.http_url_check("http://169.254.169.254/latest/meta-data/")


def test_plain_http_is_refused_unless_allowed(settings):
    settings.NOTICES_ALLOW_HTTP = False
    with pytest.raises(InvalidSetting, match="https only"):
        services.webhook_create(user=UserFactory(), url="http://example.org/hook", wants=["turn"])


def test_the_turns_transaction_never_calls_out(receiver):
    """A receiver that hangs holds up nothing: recording is a row, sending is another worker's."""
    import threading

    receiver.hang = threading.Event()
    try:
        game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
        assert Delivery.objects.count() == 1 and receiver.received == []
    finally:
        receiver.hang.set()


def test_recording_a_turns_notices_adds_no_statement_to_the_turn_start(receiver):
    def count(setup):
        users = [UserFactory() for _ in range(2)]
        for user in users:
            setup(user)
        game = GameFactory()
        for u in users:
            SeatFactory(game=game, user=u)
        referee_services.game_start(game=game)
        with CaptureQueriesContext(connection) as seen:
            referee_services.game_run_pending(game_id=str(game.pk))
        return len(seen.captured_queries)

    without = count(lambda u: None)
    with_channels = count(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
    assert with_channels == without
    assert Delivery.objects.count() == 1


def test_a_moderators_correction_and_game_over_are_recorded_for_every_seat(receiver):
    moderator = ModeratorFactory()
    game, seats = game_with_channels(lambda u: services.webhook_create(
        user=u, url=receiver.url, wants=["correction", "over"]))
    from notices import record

    record.record(notice="correction", game_id=str(game.pk), key="correction@9")
    record.record(notice="correction", game_id=str(game.pk), key="correction@9")  # twice: once
    assert sorted(Delivery.objects.values_list("seat", flat=True)) == sorted(s.number for s in seats)
    del moderator


def test_a_test_notice_shows_in_the_channels_log(receiver):
    user = UserFactory()
    services.player_notices_set(user=user, email=["turn"], channels=[
        {"url": receiver.url.replace("http://", "json://"), "wants": ["turn"]}])
    channel = Channel.objects.get(owner=user, kind="apprise")
    services.test_notice_send(user=user, channel_id=str(channel.pk))
    delivery.send_due()
    from notices.selectors import player_notices_get

    got = player_notices_get(user=user)
    assert got["email"] == ["turn"]
    assert got["channels"][0]["deliveries"][0]["status"] == "sent"
    assert len(receiver.received) == 1


def test_game_over_and_a_moderators_correction_reach_every_seat_that_wants_them_once(receiver):
    game, seats = game_with_channels(lambda u: services.webhook_create(
        user=u, url=receiver.url, wants=["correction", "over"]))
    referee_services.moderator_ruling(game_id=str(game.pk), moderator=ModeratorFactory(), reason="a die fell off",
                                      command_type="Roll", payload={})
    play_to_the_end(game, seats)
    rows = sorted(Delivery.objects.values_list("notice", "seat"))
    assert rows == sorted([("correction", s.number) for s in seats] + [("over", s.number) for s in seats])
    delivery.send_due()
    kinds = sorted(json.loads(r.body)["type"] for r in receiver.received)
    assert kinds == ["game.corrected"] * 2 + ["game.over"] * 2
    over = next(json.loads(r.body) for r in receiver.received if json.loads(r.body)["type"] == "game.over")
    assert over["data"]["result"]["finished"] is True
    corrected = next(json.loads(r.body) for r in receiver.received if json.loads(r.body)["type"] == "game.corrected")
    assert corrected["data"]["reason"] == "a die fell off"


def test_notices_are_routed_to_a_queue_of_their_own():
    from config.celery import app

    assert app.amqp.router.route({}, "notices.send_due")["queue"].name == "notices"
    assert app.amqp.router.route({}, "referee.run_due_work")["queue"].name != "notices"


def test_a_chat_service_url_turned_private_is_refused_while_apprise_sends(receiver, settings):
    game_with_channels(lambda u: services.player_notices_set(
        user=u, email=[], channels=[{"url": receiver.url.replace("http://", "json://"), "wants": ["turn"]}]))
    settings.NOTICES_ALLOW_PRIVATE = False
    delivery.send_due()
    assert receiver.received == []
    assert "not sent there" in Delivery.objects.get().last_error


def test_apprise_connections_are_checked_even_past_the_saved_url(receiver, settings):
    """What apprise itself connects to (a redirect, a second lookup) is checked too."""
    import requests

    settings.NOTICES_ALLOW_PRIVATE = False
    with guard.connections_checked(), pytest.raises(requests.exceptions.ConnectionError, match="loopback"):
        requests.post(receiver.url, timeout=2)
    assert receiver.received == []


def test_a_deadline_job_with_hanging_receivers_takes_the_same_statements_and_never_calls_out(receiver):
    """The deadline job records the next turn's notices in the statement it already makes,
    and sends nothing: a receiver that hangs is not even called."""
    import threading

    from referee import scheduling
    from referee.models import DueWork

    receiver.hang = threading.Event()

    def expire(setup):
        game, _ = game_with_channels(setup)
        row = DueWork.objects.get(game=game, kind="deadline", status="pending")
        with CaptureQueriesContext(connection) as seen:
            result = scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline",
                                             now=row.due_at + dt.timedelta(minutes=1))
        assert result.startswith("referee played"), result
        return len(seen.captured_queries)

    try:
        without = expire(lambda u: None)
        hooked = expire(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn", "remind"]))
        assert hooked == without
        assert Delivery.objects.filter(notice="turn").count() == 2  # the first turn's, and the next one's
        assert receiver.received == []
    finally:
        receiver.hang.set()


def test_a_receiver_that_hangs_is_given_up_on_at_the_timeout_and_retried(receiver):
    import threading

    receiver.hang = threading.Event()
    try:
        game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["turn"]))
        delivery.send_due()
        row = Delivery.objects.get()
        assert (row.status, row.attempts) == ("pending", 1) and "timed out" in row.last_error
    finally:
        receiver.hang.set()


def test_without_the_sql_path_notices_are_recorded_the_same(receiver, monkeypatch):
    """The embedded default runs on SQLite: the ORM path records the same rows and e-mails."""
    from notices import record
    from referee.store import sql as store_sql

    game, seats = game_with_channels(lambda u: services.webhook_create(user=u, url=receiver.url, wants=["remind"]))
    services.player_notices_set(user=seats[0].user, email=["turn"], channels=[])  # no reminder e-mails
    monkeypatch.setattr(store_sql, "enabled", lambda: False)
    numbers = [s.number for s in seats]
    to = record.recipients_recording(due_kind="remind", game_id=str(game.pk), key="k", seats=numbers)
    assert to == [(seats[1].name, seats[1].user.email)]
    record.recipients_recording(due_kind="remind", game_id=str(game.pk), key="k", seats=numbers)
    assert sorted(Delivery.objects.filter(notice="remind").values_list("seat", flat=True)) == sorted(numbers)


def league_game(league, users):
    for user in users:
        lobby.league_queue_join(league_id=league.pk, user=user)
    game = lobby.league_next_game(league_id=league.pk, moderator=ModeratorFactory())
    return game, list(game.seats.select_related("user").order_by("number"))


def test_a_leagues_channel_gets_the_turns_and_result_of_every_game_it_makes(receiver):
    moderator = ModeratorFactory()
    league = lobby.league_create(name="Sty", ruleset="pig", seats_per_game=2, moderator=moderator)
    with pytest.raises(SeatError):
        services.league_channel_set(league_id=league.pk, user=UserFactory(), url=receiver.url)
    services.league_channel_set(league_id=league.pk, user=moderator, url=receiver.url.replace("http://", "json://"),
                                markup="bbcode", wants=["turn", "over"])
    outside = GameFactory()  # not the league's: its channel hears nothing of it
    for _ in range(2):
        SeatFactory(game=outside, user=UserFactory())
    referee_services.game_start(game=outside)
    referee_services.game_run_pending(game_id=str(outside.pk))
    users = [UserFactory() for _ in range(2)]
    first, seats = league_game(league, users)
    play_to_the_end(first, seats)
    second, _ = league_game(league, users)
    referee_services.game_run_pending(game_id=str(second.pk))
    delivery.send_due()
    rows = Delivery.objects.filter(channel__league=league)
    assert set(rows.values_list("game_id", flat=True)) == {first.pk, second.pk}
    assert rows.filter(notice="over").count() == 1 and rows.filter(notice="turn", game_id=second.pk).exists()
    assert set(rows.values_list("seat", flat=True)) == {None}  # the public view
    assert set(rows.values_list("status", flat=True)) == {"sent"}
    posts = [json.loads(r.body)["message"] for r in receiver.received]
    assert len(posts) == rows.count()
    assert all("[/" in p for p in posts)  # BBCode, as asked
    assert any(second.name in p for p in posts) and any(first.name in p for p in posts)
    services.league_channel_clear(league_id=league.pk, user=moderator)
    assert not Channel.objects.filter(league=league).exists()


def test_a_players_channel_hears_of_the_end_of_each_of_their_games(receiver):
    users = [UserFactory() for _ in range(2)]
    for user in users:
        services.webhook_create(user=user, url=receiver.url, wants=["over"])
    league = lobby.league_create(name="Pen", ruleset="pig", seats_per_game=2, moderator=ModeratorFactory())
    first, seats = league_game(league, users)
    play_to_the_end(first, seats)
    second, seats = league_game(league, users)
    play_to_the_end(second, seats)
    over = Delivery.objects.filter(notice="over")
    assert sorted(str(g) for g in over.values_list("game_id", flat=True)) == sorted([str(first.pk)] * 2
                                                                                     + [str(second.pk)] * 2)
