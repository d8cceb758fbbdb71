"""Ratings, the reads: ladders, a player's ratings and their history, ratings beside names,
and what a game's end did to each seat's rating. Every number shown is ``rating_model.shown``
of the stored mean and deviation; nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F

from games.base import RuleViolation
from referee.errors import InvalidSetting, RefereeError
from referee.models import Event, Game, RatedGame, Rating, RatingChange, Seat
from referee.rating_model import PLAYERS, Skill, closest_together, ladder_of, shown
from referee.rulesets import get_registry

PAGE_SIZE = 50


class NotFound(RefereeError):
    code = "not_found"
    status = 404


def ladder_for(ruleset: str) -> str:
    """The ladder a ruleset's games are rated on (bots have their own)."""
    try:
        return ladder_of(get_registry().get(ruleset))
    except RuleViolation as exc:
        raise NotFound(exc.message) from None


def _entry(row: Rating) -> dict[str, Any]:
    skill = Skill(row.mu, row.sigma)
    return {
        "rating": skill.shown, "provisional": skill.provisional, "games": row.games,
        "last_played_at": row.last_played_at.isoformat() if row.last_played_at else None,
        "mu": row.mu, "sigma": row.sigma,
    }


def ladder_get(*, ruleset: str, page: int = 1, page_size: int = PAGE_SIZE) -> dict[str, Any]:
    """One page of a ruleset's ladder, best first: by the conservative estimate, then by
    name (the order is total, so pages neither repeat nor skip anyone)."""
    ladder = ladder_for(ruleset)
    if page < 1:
        raise InvalidSetting("'page' starts at 1.")
    rows = (Rating.objects.filter(ruleset=ruleset, ladder=ladder).select_related("user")
            .annotate(estimate=F("mu") - 3 * F("sigma")).order_by("-estimate", "user__username"))
    count = rows.count()
    start = (page - 1) * page_size
    results = [
        {"rank": start + i, "username": r.user.get_username(), **_entry(r)}
        for i, r in enumerate(rows[start:start + page_size], start=1)
    ]
    return {"ruleset": ruleset, "ladder": ladder, "page": page, "pages": max(1, -(-count // page_size)),
            "count": count, "results": results}


def player_ratings_get(*, username: str) -> dict[str, Any]:
    """A player's rating on each ladder they are on, with its history game by game."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound(f"There is no player called {username!r}.")
    history: dict[tuple[str, str], list[dict[str, Any]]] = {}
    changes = (RatingChange.objects.filter(user=user).select_related("rated_game")
               .order_by("rated_game_id"))
    for c in changes:
        g = c.rated_game
        history.setdefault((g.ruleset, g.ladder), []).append({
            "game": str(g.game_id), "ended_at": g.ended_at.isoformat(), "place": c.place,
            "rating": shown(c.mu_after, c.sigma_after),
            "change": shown(c.mu_after, c.sigma_after) - shown(c.mu_before, c.sigma_before),
        })
    ratings = [
        {"ruleset": r.ruleset, "ladder": r.ladder, **_entry(r), "history": history.get((r.ruleset, r.ladder), [])}
        for r in Rating.objects.filter(user=user).order_by("ruleset", "ladder")
    ]
    return {"username": user.get_username(), "ratings": ratings}


def ratings_beside(*, games: Iterable[Game]) -> dict[int, dict[str, Any]]:
    """Per seat (its ``pk``) of these games: the rating of its player on the ladder of the
    game's ruleset, to show beside the name, for every seat of every game in one statement
    (the seats themselves come from ``game.seats.all()``: prefetch them for a list). A seat
    with no player, or one not rated yet there, has no entry."""
    seats = [(seat, game.ruleset) for game in games for seat in game.seats.all() if seat.user_id is not None]
    if not seats:
        return {}
    rows = Rating.objects.filter(user_id__in={s.user_id for s, _ in seats}, ruleset__in={r for _, r in seats})
    skills = {(r.user_id, r.ruleset, r.ladder): Skill(r.mu, r.sigma)
              for r in rows.only("user_id", "ruleset", "ladder", "mu", "sigma")}
    out = {}
    for seat, ruleset in seats:
        skill = skills.get((seat.user_id, ruleset, _ladder_or_players(ruleset)))
        if skill is not None:
            out[seat.pk] = {"rating": skill.shown, "provisional": skill.provisional}
    return out


def _ladder_or_players(ruleset: str) -> str:
    try:
        return ladder_of(get_registry().get(ruleset))
    except RuleViolation:  # a ruleset no longer installed: its games were people's
        return PLAYERS


def rating_label(entry: dict[str, Any] | None) -> str:
    """"1042", or "1042?" while provisional; "" for a player not rated yet."""
    if not entry:
        return ""
    return f"{entry['rating']}{'?' if entry['provisional'] else ''}"


def game_rating_changes(*, game_id: str) -> dict[int, dict[str, Any]]:
    """Per seat number: the rating before and after this game and the change, once a rated
    game has been counted (nothing for a casual, unfinished or voided game)."""
    rated = RatedGame.objects.filter(game_id=game_id, voided_reason="").first()
    if rated is None:
        return {}
    seats = dict(Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("user_id", "number"))
    out = {}
    for c in rated.changes.all():
        before, after = shown(c.mu_before, c.sigma_before), shown(c.mu_after, c.sigma_after)
        if c.user_id in seats:
            out[seats[c.user_id]] = {"before": before, "after": after, "change": after - before,
                                     "provisional": Skill(c.mu_after, c.sigma_after).provisional}
    return out


def voided_reason(*, game_id: str) -> str | None:
    """The public reason a game was voided, from its log (a casual game can be voided too:
    its result then stands nowhere); None while it has not been."""
    notice = Event.objects.filter(game_id=game_id, kind="notice", type="GameVoided").only("payload").first()
    return None if notice is None else str(notice.payload.get("reason", ""))


def change_text(change: int) -> str:
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"


def seated_by_rating(*, ruleset: str, queue: Sequence[int], seats: int) -> list[int]:
    """A league's queue (user ids, in its order) reordered for a game that seats players by
    rating (``rating_model.closest_together``), their means read in one statement."""
    if len(queue) <= seats:
        return list(queue)
    mu = Rating.objects.filter(ruleset=ruleset, ladder=_ladder_or_players(ruleset), user_id__in=queue)
    return closest_together(queue, dict(mu.values_list("user_id", "mu")), seats)
