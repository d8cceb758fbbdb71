"""Ratings against a real PostgreSQL. Prints figures; asserts no timings.

    scripts/with_servers.sh .venv/bin/python bench/ratings.py      (part of make bench)

1. The rebuild rate: ``referee.ratings.ratings_rebuild`` (what ``manage.py ratings
   --rebuild`` and a moderator's void run after reading the standings) over BENCH_RATED_GAMES
   (default 10,000) counted games of every registered ruleset, 2 to 8 seats as each allows,
   among 500 players: it reads every ``RatedGame`` in order of its end, replays each through
   the model, deletes and rewrites every ``Rating`` and ``RatingChange``, in one transaction.
   The results are synthetic (random places, seeded), stored as the live path stores them;
   the games have no logs, so the step before it in ``--rebuild`` (each standing read again
   from its log, one replay per game: the cost of ``Referee.current``, bench/event_store.py)
   is not in this figure. Beside it, the peer: the same games through openskill alone, in
   memory (``rating_model.rate``). Every rebuild must give the same floats as the first.
2. What one game's end costs in SQL statements (CaptureQueriesContext): the order that ends
   a Pig game, rated and casual, with 2 and with 4 players, through ``services.command_handle``
   (what tests/integration/test_ratings.py asserts).

See bench/README.md.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402

harness.django_environment()

GAMES = int(os.environ.get("BENCH_RATED_GAMES", "10000"))
PLAYERS = 500


def setup() -> None:
    harness.postgres_url("bench/ratings.py")
    harness.start_django(api=False)


def counted_games(users: list[int]) -> dict[str, int]:
    """GAMES counted games of every registered ruleset, as the live path stores them (a game
    row finished and rated, its ``RatedGame`` with random places, numbered in order of end).
    Returns how many of each ruleset."""
    from referee.models import Game, RatedGame
    from referee.rating_model import ladder_of
    from referee.rulesets import get_registry

    registry = get_registry()
    rulesets = [registry.get(name) for name in sorted({name for name, _ in registry.names()})]
    pick = random.Random(16)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    games, rated, mix = [], [], {}
    for n in range(GAMES):
        rules = rulesets[n % len(rulesets)]
        size = pick.randint(max(2, rules.min_seats), min(8, rules.max_seats))
        players = pick.sample(users, size)
        places: list[list[int]] = []
        for player in players:  # now and then two share a place (a tie)
            if places and pick.random() < 0.1:
                places[-1].append(player)
            else:
                places.append([player])
        game = Game(name=f"bench {n}", ruleset=rules.name, ruleset_version=rules.version, seed="0" * 64,
                    seed_hash="0" * 64, status=Game.Status.FINISHED, rated=True)
        games.append(game)
        rated.append(RatedGame(game=game, ruleset=rules.name, ladder=ladder_of(rules),
                               standing=[sorted(p) for p in places], ended_at=start + dt.timedelta(minutes=n)))
        mix[rules.name] = mix.get(rules.name, 0) + 1
    Game.objects.bulk_create(games, batch_size=1000)
    RatedGame.objects.bulk_create(rated, batch_size=1000)
    return mix


def model_alone(standings: list[tuple[str, str, list[list[int]]]]) -> float:
    """The peer: the same games through openskill in memory, no database. Seconds."""
    from referee.rating_model import rate

    t0 = time.perf_counter()
    skills: dict[tuple[str, str], dict] = {}
    for ruleset, ladder, standing in standings:
        board = skills.setdefault((ruleset, ladder), {})
        board.update(rate(standing, board))
    return time.perf_counter() - t0


def end_statements() -> dict[tuple[bool, int], int]:
    """Statements of the order that ends a Pig game (target 1), rated and casual, 2 and 4 seats."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from referee import services
    from tests.factories import UserFactory
    from tests.rated_games import new_game, to_the_brink

    counts = {}
    for rated in (False, True):
        for size in (2, 4):
            game, seats = new_game([UserFactory() for _ in range(size)], rated=rated)
            seat = to_the_brink(game, seats)
            with CaptureQueriesContext(connection) as queries:
                services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Hold", payload={})
            counts[(rated, size)] = len(queries.captured_queries)
    return counts


def main() -> None:
    setup()
    from django.contrib.auth import get_user_model

    from bench import results
    from bench.event_store import Table
    from referee import ratings
    from referee.models import RatedGame

    User = get_user_model()
    User.objects.bulk_create([User(username=f"rater{os.getpid()}-{i}", password="!") for i in range(PLAYERS)])
    users = list(User.objects.filter(username__startswith=f"rater{os.getpid()}-").values_list("id", flat=True))
    print(f"storing {GAMES} counted games ...", file=sys.stderr, flush=True)
    mix = counted_games(users)
    standings = [(g.ruleset, g.ladder, g.standing) for g in RatedGame.objects.order_by("id")]
    seats = sum(len(p) for _, _, s in standings for p in s)

    print(f"measuring {harness.ROUNDS} rounds ...", file=sys.stderr, flush=True)
    rebuild_rate, model_rate, ratio = [], [], []
    first = None
    for _ in range(harness.ROUNDS):
        t0 = time.perf_counter()
        counted = ratings.ratings_rebuild()
        rebuild = time.perf_counter() - t0
        assert counted == GAMES, counted
        snapshot = ratings.ratings_snapshot()
        first = first or snapshot
        assert snapshot == first, "a rebuild gave other floats than the first"
        alone = model_alone(standings)
        rebuild_rate.append(GAMES / rebuild)
        model_rate.append(GAMES / alone)
        ratio.append(rebuild / alone)
    statements = end_statements()

    spread = results.spread
    print(f"load average {os.getloadavg()[0]:.1f}; {harness.ROUNDS} rounds, min / median / max")
    t = Table()
    t.section(f"1. rebuilding every rating: {GAMES} counted games, {seats} seats, {len(first)} ratings",
              "games per second", "ratio")
    t.row("openskill alone, in memory (rating_model.rate)", spread(model_rate, "{:.0f}"), "1")
    t.row("ratings.ratings_rebuild (read, replay, rewrite; one transaction)", spread(rebuild_rate, "{:.0f}"),
          spread(ratio))
    t.row("the games: " + ", ".join(f"{name} {n}" for name, n in sorted(mix.items())), "", "")
    t.section("2. SQL statements of the order that ends a Pig game", "statements", "rated / casual")
    for size in (2, 4):
        t.row(f"{size} players: casual; rated", f"{statements[(False, size)]}; {statements[(True, size)]}",
              f"{statements[(True, size)] / statements[(False, size)]:.2f}")
    t.print()
    results.record("ratings.rebuild_games_per_second", rebuild_rate)
    results.record("ratings.rebuild_vs_model", ratio)
    results.record("statements.game_end", [statements[(False, 2)], statements[(True, 2)]])


if __name__ == "__main__":
    main()
