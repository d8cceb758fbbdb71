"""The rating model gives openskill's own numbers (Plackett-Luce, default parameters)."""

from __future__ import annotations

from openskill.models import PlackettLuce

from games.base import TurnMode
from referee.rating_model import (
    BOTS,
    NEW,
    PLAYERS,
    PROVISIONAL_SIGMA,
    Skill,
    ladder_of,
    rate,
    shown,
)


def openskill_rate(teams: list[Skill], ranks: list[float]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    out = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in teams], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in out]


def test_a_two_player_win_gives_openskills_numbers_exactly():
    after = rate([[1], [2]], {})
    assert [(after[p].mu, after[p].sigma) for p in (1, 2)] == openskill_rate([NEW, NEW], [1, 2])
    assert after[1].mu == 27.635389493140497 and after[2].mu == 22.364610506859503


def test_a_four_seat_game_with_a_shared_place_ties_those_seats():
    skills = {1: Skill(30.0, 5.0), 2: Skill(25.0, 8.0), 3: Skill(20.0, 3.0), 4: Skill(26.0, 7.0)}
    after = rate([[3], [1, 4], [2]], skills)
    expected = openskill_rate([skills[3], skills[1], skills[4], skills[2]], [1, 2, 2, 3])
    assert [(after[p].mu, after[p].sigma) for p in (3, 1, 4, 2)] == expected


def test_a_draw_of_everyone_is_one_place():
    after = rate([[1, 2, 3]], {})
    assert [(after[p].mu, after[p].sigma) for p in (1, 2, 3)] == openskill_rate([NEW] * 3, [1, 1, 1])
    assert after[1].mu == after[2].mu == NEW.mu


def test_one_player_alone_is_not_rated():
    assert rate([[1]], {}) == {}
    assert rate([], {}) == {}


def test_a_newcomer_shows_1000_and_is_provisional_until_sigma_narrows():
    assert shown(NEW.mu, NEW.sigma) == 1000 and NEW.provisional
    assert shown(30.0, 2.0) == round(1000 + 20 * (30.0 - 6.0))
    assert not Skill(25.0, PROVISIONAL_SIGMA).provisional and Skill(25.0, PROVISIONAL_SIGMA + 0.01).provisional


def test_two_seat_players_leave_provisional_after_twelve_games_of_alternating_results():
    a, b = NEW, NEW
    games = 0
    while a.provisional:
        out = rate([[1], [2]] if games % 2 else [[2], [1]], {1: a, 2: b})
        a, b = out[1], out[2]
        games += 1
    assert games == 12


def test_bots_have_a_ladder_of_their_own():
    class Tick:
        mode = TurnMode.TICK

    class Turns:
        mode = TurnMode.SEQUENTIAL

    assert ladder_of(Tick()) == BOTS and ladder_of(Turns()) == PLAYERS


def test_seating_by_rating_puts_the_head_of_the_queue_with_the_players_closest_together():
    from referee.rating_model import closest_together

    mu = {1: 25.0, 2: 40.0, 3: 20.0, 4: 30.0, 5: 31.0}
    # groups of three holding player 1: {3,1,4} spans 10, {1,4,5} spans 6, so 4 and 5 join 1
    assert closest_together([1, 2, 3, 4, 5], mu, 3) == [1, 4, 5, 2, 3]
    assert closest_together([2, 1, 3, 4, 5], mu, 2) == [2, 5, 1, 3, 4]  # the head plays, however far out


def test_seating_by_rating_counts_a_player_not_rated_as_average_and_prefers_who_waited_longer():
    from referee.rating_model import closest_together

    # 9 is not rated (mean 25): as close to 1 as 8 is; 8 joined the queue earlier
    assert closest_together([1, 8, 9, 7], {1: 25.0, 8: 25.0, 7: 45.0}, 2) == [1, 8, 9, 7]
    assert closest_together([1, 7, 9], {1: 26.0, 7: 45.0}, 2) == [1, 9, 7]
    assert closest_together([3, 2], {}, 2) == [3, 2]  # no more players than seats: as queued
