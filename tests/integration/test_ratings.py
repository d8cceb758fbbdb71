"""Ratings as a projection of rated results: counted once when a game ends, rebuilt the
same bit for bit, a voided game taken back, casual games ignored, concurrent ends."""

from __future__ import annotations

import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee import ratings, ratings_admin, services
from referee.errors import GameNotActive, SeatError
from referee.models import Event, Game, RatedGame, Rating, RatingChange, Seat
from referee.rating_model import rate
from tests import game_filter
from tests.factories import ModeratorFactory, UserFactory
from tests.rated_games import new_game, play_out, to_the_brink

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db
def test_a_rated_game_changes_its_players_ratings_as_the_model_says():
    alice, bob = UserFactory(), UserFactory()
    game, seats = new_game([alice, bob])
    play_out(game, seats)
    rated = RatedGame.objects.get(game=game)
    assert rated.ruleset == "pig" and rated.ladder == "players" and len(rated.standing) == 2
    winner, loser = rated.standing[0][0], rated.standing[1][0]
    expected = rate([[winner], [loser]], {})
    for user in (winner, loser):
        row = Rating.objects.get(user_id=user, ruleset="pig")
        assert (row.mu, row.sigma, row.games) == (expected[user].mu, expected[user].sigma, 1)
    assert RatingChange.objects.filter(rated_game=rated).count() == 2


@pytest.mark.django_db
def test_a_casual_game_changes_nothing():
    game, seats = new_game([UserFactory(), UserFactory()], rated=False)
    play_out(game, seats)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RatedGame.objects.exists() and not Rating.objects.exists()


@pytest.mark.django_db
def test_incremental_ratings_equal_the_rebuild_from_the_logs_after_hundreds_of_games():
    players = [UserFactory() for _ in range(10)]
    pick = random.Random(7)
    for _ in range(200):
        game, seats = new_game(pick.sample(players, pick.choice([2, 3, 4])))
        play_out(game, seats)
    counted = ratings.ratings_snapshot()
    changes = list(RatingChange.objects.order_by("rated_game_id", "user_id").values_list(
        "rated_game_id", "user_id", "mu_after", "sigma_after"))
    assert sum(games for _, _, games in counted.values()) == RatingChange.objects.count()
    assert ratings_admin.ratings_rebuild_from_logs() == 200
    assert ratings.ratings_snapshot() == counted  # floats compared exactly
    assert list(RatingChange.objects.order_by("rated_game_id", "user_id").values_list(
        "rated_game_id", "user_id", "mu_after", "sigma_after")) == changes


@pytest.mark.django_db
def test_the_rebuild_command_reports_no_change_after_counting():
    game, seats = new_game([UserFactory(), UserFactory(), UserFactory()])
    play_out(game, seats)
    call_command("ratings", "--rebuild", "--check")


@pytest.mark.django_db
def test_a_voided_game_takes_its_points_back_and_says_why_in_its_log():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    first, first_seats = new_game([alice, bob])
    play_out(first, first_seats)
    before = ratings.ratings_snapshot()
    voided, voided_seats = new_game([alice, bob, carol])
    play_out(voided, voided_seats)
    later, later_seats = new_game([alice, carol])
    play_out(later, later_seats)
    assert ratings.ratings_snapshot() != before

    moderator = ModeratorFactory()
    ratings_admin.game_void(game_id=str(voided.pk), moderator=moderator, reason="Collusion found by a report.")
    notice = Event.objects.filter(game=voided, type="GameVoided").get()
    assert notice.kind == "notice" and notice.payload["reason"] == "Collusion found by a report."
    assert notice.audience_kind == "everyone"

    # As if the voided game had never been played: the first and the later game, in order.
    ladder = {k: v for k, v in ratings.ratings_snapshot().items()}
    standings = [RatedGame.objects.get(game=g).standing for g in (first, later)]
    skills: dict = {}
    for standing in standings:
        skills.update(rate(standing, skills))
    assert {u: (mu, sigma) for (u, _, _), (mu, sigma, _) in ladder.items()} == {
        u: (s.mu, s.sigma) for u, s in skills.items()}
    assert ladder[(carol.pk, "pig", "players")][2] == 1
    assert not RatingChange.objects.filter(rated_game__game=voided).exists()
    assert services.referee_get().verify(str(voided.pk)).ok


@pytest.mark.django_db
def test_voiding_writes_its_rated_game_by_the_game_as_well_as_the_id():
    game, seats = new_game([UserFactory(), UserFactory()])
    play_out(game, seats)
    with CaptureQueriesContext(connection) as queries:
        ratings_admin.game_void(game_id=str(game.pk), moderator=ModeratorFactory(), reason="A report.")
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "referee_ratedgame"')]
    assert writes, "the rated game was not written"
    assert all(not game_filter.problems(sql) for sql in writes), writes
    assert RatedGame.objects.get(game=game).voided_reason == "A report."


@pytest.mark.django_db
def test_only_a_moderator_voids_and_only_a_finished_game():
    game, seats = new_game([UserFactory(), UserFactory()])
    with pytest.raises(SeatError):
        ratings_admin.game_void(game_id=str(game.pk), moderator=seats[0].user, reason="no")
    with pytest.raises(GameNotActive):
        ratings_admin.game_void(game_id=str(game.pk), moderator=ModeratorFactory(), reason="not over")
    assert not Event.objects.filter(game=game, type="GameVoided").exists()


def test_two_games_ending_at_the_same_moment_are_each_counted_once(committed):
    shared, left, right = UserFactory(), UserFactory(), UserFactory()
    games = [new_game([shared, left]), new_game([shared, right])]
    brink = [(game, to_the_brink(game, seats)) for game, seats in games]
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def end(game: Game, seat: Seat) -> None:
        try:
            barrier.wait()
            services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Hold", payload={})
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=pair) for pair in brink]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    ids = sorted(RatedGame.objects.filter(game__in=[g for g, _ in games]).values_list("id", flat=True))
    assert len(ids) == 2
    assert Rating.objects.get(user=shared, ruleset="pig").games == 2
    counted = ratings.ratings_snapshot()
    ratings_admin.ratings_rebuild_from_logs()
    assert ratings.ratings_snapshot() == counted


#: The order that ends a casual Pig game: its own statements (as any order: the seat and the
#: game locked, the log's tail, the append in one statement with the due rows ...), the game
#: marked finished, and the ratings' one question, which finds no rated seat.
CASUAL_END = 7
#: A rated end adds, however many players: creating the missing ratings, locking the
#: players' rows, numbering the end, writing the changes, updating the ratings.
RATED_END = CASUAL_END + 5


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 4])
def test_a_rated_games_end_costs_five_statements_more_than_a_casual_ones_whatever_its_size(players):
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for rated in (False, True):
        game, seats = new_game([UserFactory() for _ in range(players)], rated=rated)
        seat = to_the_brink(game, seats)
        with CaptureQueriesContext(connection) as queries:
            services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Hold", payload={})
        assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
        counts[rated] = len(queries.captured_queries)
    assert RatingChange.objects.filter(rated_game__game=game).count() == players
    assert counts == {False: CASUAL_END, True: RATED_END}, counts
