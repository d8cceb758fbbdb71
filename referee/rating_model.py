"""The rating model, pure: openskill's Weng-Lin Plackett-Luce model with its default
parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300), one rating per player, each seat its
own team, places from ``Ruleset.result`` (seats that share a place tie).

A rating is shown as one number, the conservative estimate scaled: ``1000 + 20 * (mu -
3 * sigma)`` (openskill's ``ordinal(z=3, alpha=20, target=1000)``): a newcomer shows 1000,
and the shown number rises only as the model becomes sure of a player. It is provisional
(shown with "?") while sigma is above ``PROVISIONAL_SIGMA``. Nothing here reads a clock,
a database or a global random: the same results in the same order give the same floats,
which is what lets ``manage.py ratings --rebuild`` reproduce the ratings bit for bit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.base import Ruleset, TurnMode

MODEL = PlackettLuce()
#: Shown = SCALE * (mu - Z * sigma) + TARGET.
Z, SCALE, TARGET = 3.0, 20.0, 1000.0
#: Provisional while the deviation is above this (it starts at 25/3 = 8.33; a player of
#: two-seat games who wins every other game passes it after 12 games; four players taking turns
#: at each place, after 18).
PROVISIONAL_SIGMA = 6.0
#: Bots (rulesets whose every seat is a program moving each tick) have a ladder of their
#: own, apart from people's.
PLAYERS, BOTS = "players", "bots"


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


NEW = Skill(MODEL.mu, MODEL.sigma)


def shown(mu: float, sigma: float) -> int:
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=Z, alpha=SCALE, target=TARGET))


def ladder_of(rules: Ruleset) -> str:
    return BOTS if rules.mode is TurnMode.TICK else PLAYERS


def rate(standing: Sequence[Sequence[int]], skills: Mapping[int, Skill]) -> dict[int, Skill]:
    """New skills of the players in ``standing`` (places best first, each a list of player
    ids; players in one place tie: a draw of all is one place), from their skills before
    (``NEW`` for one not in ``skills``). Fewer than two players: nothing changes."""
    teams, ranks, order = [], [], []
    for place, players in enumerate(standing, start=1):
        for player in players:
            before = skills.get(player, NEW)
            teams.append([MODEL.rating(mu=before.mu, sigma=before.sigma)])
            ranks.append(float(place))
            order.append(player)
    if len(teams) < 2:
        return {}
    after = MODEL.rate(teams, ranks=ranks)
    return {player: Skill(team[0].mu, team[0].sigma) for player, team in zip(order, after, strict=True)}


def closest_together(queue: Sequence[int], mu: Mapping[int, float], seats: int) -> list[int]:
    """A queue of players (in its order) for a game that seats them by rating: the first in
    the queue plays, with the ``seats - 1`` others that make the group whose ratings are
    closest together (the smallest gap between its highest and lowest mean skill ``mu``: the
    model's estimate, so a player not rated yet counts as average, 25, not as their cautious
    shown 1000); of equally close groups, the one whose players have waited longer. Then
    everyone else, in queue order. A queue no longer than ``seats`` is returned as it is."""
    if len(queue) <= seats or seats < 1:
        return list(queue)
    waited = {player: i for i, player in enumerate(queue)}
    skill = {player: mu.get(player, NEW.mu) for player in queue}
    by_skill = sorted(queue, key=lambda p: (skill[p], waited[p]))
    head = by_skill.index(queue[0])
    groups = [by_skill[start:start + seats]
              for start in range(max(0, head - seats + 1), min(head, len(queue) - seats) + 1)]
    chosen = min(groups, key=lambda g: (skill[g[-1]] - skill[g[0]], sum(waited[p] for p in g)))
    return sorted(chosen, key=waited.__getitem__) + [p for p in queue if p not in chosen]
