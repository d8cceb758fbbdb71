"""Ratings: a projection of rated results (see docs/ratings.md).

A rated game's end is counted in the unit of work that records it (``game_ended``, which
the referee calls when an order ends a game, under the game's row lock): who finished
where comes from ``Ruleset.result``; the players' rating rows are locked in user order (so
two games ending at once with a player in common wait for each other, never deadlock), the
game gets its number in the order of ends (``RatedGame.id``, taken under those locks) and
each player's change is stored. ``ratings_rebuild`` replays the counted games in that order
through the same ``_apply`` and writes the same floats."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection, transaction

from games.base import Result, Ruleset
from referee import clock
from referee.models import RatedGame, Rating, RatingChange, Seat, save_by_key
from referee.rating_model import NEW, Skill, ladder_of, rate
from referee.store.base import GameInfo

Standing = list[list[int]]
Key = tuple[int, str, str]  # user, ruleset, ladder


def standing_of(result: Result, users_by_seat: Mapping[int, int]) -> Standing:
    """Places best first, as lists of user ids, from the ruleset's own result: its ranking,
    else its winners ahead of everyone else, a draw being one shared place. Seats without
    a user (nobody to rate) are left out, and so are places left empty."""
    seats = sorted(users_by_seat)
    if result.ranking:
        places = [list(place) for place in result.ranking]
    elif result.draw:
        places = [seats]
    elif result.winners:
        places = [list(result.winners), [s for s in seats if s not in result.winners]]
    else:
        places = []
    standing = [sorted(users_by_seat[s] for s in place if s in users_by_seat) for place in places]
    return [place for place in standing if place]


def game_ended(info: GameInfo, rules: Ruleset, state: Any) -> None:
    """The referee's hook: count a rated game that an order has just ended by the rules."""
    result = rules.result(state)
    if not result.finished:
        return
    # one statement for both questions: no seat comes back from a casual game
    users = dict(Seat.objects.filter(game_id=info.id, game__rated=True, user__isnull=False)
                 .values_list("number", "user_id"))
    if not users:
        return
    record(game_id=info.id, ruleset=rules.name, ladder=ladder_of(rules), standing=standing_of(result, users),
           ended_at=clock.now())


# No savepoint inside the referee's unit of work: a failure here fails the order's whole
# transaction anyway, and the pair of statements would be paid at every rated end.
@transaction.atomic(savepoint=False)
def record(*, game_id: str, ruleset: str, ladder: str, standing: Standing, ended_at: dt.datetime) -> RatedGame | None:
    """Count one game's end: lock its players' ratings, number the end, apply and store."""
    users = sorted({u for place in standing for u in place})
    if len(users) < 2:
        return None
    Rating.objects.bulk_create(
        [Rating(user_id=u, ruleset=ruleset, ladder=ladder, mu=NEW.mu, sigma=NEW.sigma) for u in users],
        ignore_conflicts=True,
    )
    rows = {r.user_id: r for r in Rating.objects.select_for_update()
            .filter(user_id__in=users, ruleset=ruleset, ladder=ladder).order_by("user_id")}
    rated = RatedGame.objects.create(game_id=game_id, ruleset=ruleset, ladder=ladder, standing=standing,
                                     ended_at=ended_at)
    skills = {(u, ruleset, ladder): Skill(r.mu, r.sigma) for u, r in rows.items()}
    changes = _apply(rated, skills)
    RatingChange.objects.bulk_create(changes)
    for change in changes:
        row = rows[change.user_id]
        row.mu, row.sigma = change.mu_after, change.sigma_after
        row.games += 1
        row.last_played_at = ended_at
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "games", "last_played_at"])
    return rated


def _apply(rated: RatedGame, skills: dict[Key, Skill]) -> list[RatingChange]:
    """One game through the model: updates ``skills`` and returns the changes. The one
    path both counting and rebuilding take."""
    before = {u: skills.get((u, rated.ruleset, rated.ladder), NEW) for place in rated.standing for u in place}
    after = rate(rated.standing, before)
    changes = []
    for place, players in enumerate(rated.standing, start=1):
        for user in players:
            if user not in after:
                continue
            skills[(user, rated.ruleset, rated.ladder)] = after[user]
            changes.append(RatingChange(
                rated_game=rated, game_id=rated.game_id, user_id=user, place=place, mu_before=before[user].mu,
                sigma_before=before[user].sigma, mu_after=after[user].mu, sigma_after=after[user].sigma,
            ))
    return changes


def replay(rated_games: Iterable[RatedGame]) -> tuple[dict[Key, Rating], list[RatingChange]]:
    """Every counted game in order, from nobody rated: the ratings and the changes."""
    skills: dict[Key, Skill] = {}
    ratings: dict[Key, Rating] = {}
    changes: list[RatingChange] = []
    for rated in rated_games:
        if rated.voided_reason:
            continue
        made = _apply(rated, skills)
        changes.extend(made)
        for change in made:
            key = (change.user_id, rated.ruleset, rated.ladder)
            row = ratings.setdefault(key, Rating(user_id=key[0], ruleset=key[1], ladder=key[2], games=0))
            row.mu, row.sigma = change.mu_after, change.sigma_after
            row.games += 1
            row.last_played_at = rated.ended_at
    return ratings, changes


@transaction.atomic
def ratings_rebuild(*, standings: Mapping[int, Standing] | None = None) -> int:
    """Recompute every rating from the counted games in the order of their ends (with
    ``standings``, per ``RatedGame.id``, replacing the stored ones: what the log says).
    Game ends wait meanwhile (the rating table is locked against writers; reads go on).
    Returns the number of games that count."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("LOCK TABLE referee_rating IN EXCLUSIVE MODE")
    games = list(RatedGame.objects.order_by("id"))
    for rated in games:
        fresh = (standings or {}).get(rated.id)
        if fresh is not None and fresh != rated.standing:
            rated.standing = fresh
            save_by_key(rated, "standing")
    ratings, changes = replay(games)
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Rating.objects.bulk_create(list(ratings.values()), batch_size=1000)
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    return sum(1 for g in games if not g.voided_reason)


def ratings_snapshot() -> dict[Key, tuple[float, float, int]]:
    """Every rating as stored (for comparing a rebuild with what was counted)."""
    return {(r.user_id, r.ruleset, r.ladder): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
