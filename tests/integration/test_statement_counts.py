"""SQL statements per order, counted with ``CaptureQueriesContext`` (a count is stable, a
time is not): an order costs at most 5 statements however long the game has run, because
the referee reads the game (its pending due work and the log's tail along) once and touches
only pending due work; a deadline job (the expiry, the next turn's start and its notice)
costs 4."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clients.example_bot import STEPS, is_my_turn, safe_step, square
from games.base import Viewer
from referee import services
from referee.instance import referee_get
from tests.factories import GameFactory, SeatFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: the savepoint pair, the seat and the game locked (with the game's pending due rows and the
#: log's tail), the append, and (when the order changes what is due) one write of the due rows
MOST_PER_ORDER = 5
#: the transaction's pair, the game locked (its pending due rows, vacations, e-mail recipients
#: and the log's tail read along), and one write of the expiry's and the turn start's records
#: (held until then), every due-row change and the turn's notices
DEADLINE_JOB = 4
SHOPPING = {"team_weapon": "minigun", "items": [{"item": "bazooka", "count": 2}, {"item": "mine", "count": 2}]}


def _worms_game() -> tuple[str, dict[int, Any]]:
    # sudden death after the fourth round: not within the eight turns counted, where rising
    # water could end the game (and refuse the next order) before the count is done
    game = GameFactory(ruleset="worms", settings={"sudden_death_after": 4}, name="counted")
    seats = {s.number: s for s in (SeatFactory(game=game) for _ in range(2))}
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))
    return str(game.pk), seats


def _position(game_id: str, seat: int) -> dict[str, Any]:
    return referee_get().view(game_id, Viewer.for_seat(seat))["position"]


def _acting(game_id: str, seats: dict[int, Any]) -> int:
    for number in seats:
        if is_my_turn(_position(game_id, number), number):
            return number
    for seat in seats.values():  # the shopping lists, where the game starts with them
        services.command_handle(game_id=game_id, user=seat.user, command_type="SubmitShoppingList",
                                payload=SHOPPING)
    services.game_run_pending(game_id=game_id)
    return next(n for n in seats if is_my_turn(_position(game_id, n), n))


def _walk(game_id: str, seat: int) -> tuple[str, list[str]]:
    """A one-square walk of one of the seat's worms onto a free, safe square."""
    position = _position(game_id, seat)
    on_board = [w for w in position["worms"] if w.get("x") is not None]
    blocked = {(w["x"], w["y"]) for w in on_board} | {(d["x"], d["y"]) for d in position["drums"]}
    blocked |= {(m["x"], m["y"]) for m in position["mines"]}
    for worm in on_board:
        if worm["seat"] != seat:
            continue
        for dx, dy in STEPS:
            to = (worm["x"] + dx, worm["y"] + dy)
            if safe_step(position, (worm["x"], worm["y"]), to, blocked):
                return worm["id"], [square(*to)]
    raise AssertionError("no worm of the acting seat can walk")


def _count(game_id: str, user: Any, command_type: str, payload: dict[str, Any]) -> int:
    with CaptureQueriesContext(connection) as queries:
        outcome = services.command_handle(game_id=game_id, user=user, command_type=command_type, payload=payload)
    assert outcome.records and not outcome.replayed
    return len(queries.captured_queries)


def _turn(game_id: str, seats: dict[int, Any]) -> tuple[int, int]:
    seat = _acting(game_id, seats)
    worm, path = _walk(game_id, seat)
    walk = _count(game_id, seats[seat].user, "MoveWorm", {"worm": worm, "path": path})
    end = _count(game_id, seats[seat].user, "EndTurn", {})
    services.game_run_pending(game_id=game_id)  # the next turn's start, as a worker would
    return walk, end


def test_a_walk_and_an_end_of_turn_each_take_at_most_five_statements():
    game_id, seats = _worms_game()
    walk, end = _turn(game_id, seats)
    assert walk <= MOST_PER_ORDER, f"a walk took {walk} SQL statements"
    assert end <= MOST_PER_ORDER, f"an end of turn took {end} SQL statements"


def test_an_order_costs_no_more_statements_late_in_a_game_than_early():
    """Due work piles up as history and the log grows; an order reads neither. The one
    statement allowed to come and go is a snapshot, written every ``snapshot_every`` records."""
    game_id, seats = _worms_game()
    counts = [_turn(game_id, seats) for _ in range(8)]
    walks, ends = [w for w, _ in counts], [e for _, e in counts]
    assert max(walks + ends) <= MOST_PER_ORDER, counts
    assert max(walks) - min(walks) <= 1 and max(ends) - min(ends) <= 1, counts


def forget_every_game() -> None:
    from referee import core

    core._PINNED.clear()
    core.POSITIONS.clear()


def test_a_deadline_job_with_the_turn_start_and_notice_it_makes_due_takes_four_statements(settings):
    import datetime as dt

    from referee import scheduling
    from referee.models import DueWork
    from tests.factories import started_game

    counts = []
    for _ in range(3):
        game, _seats = started_game(settings={"target": 1000})
        row = DueWork.objects.get(game=game, kind="deadline", status="pending")
        forget_every_game()  # as a worker that has never seen the game: no cached rules or position
        with CaptureQueriesContext(connection) as queries:
            result = scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline",
                                             now=row.due_at + dt.timedelta(minutes=1))
        assert result.startswith("referee played Hold"), result
        started = DueWork.objects.get(game=game, kind="now", key__startswith="turn:1", status="done")
        assert started.result == "ran"
        assert DueWork.objects.get(game=game, kind="notify", key__startswith="turn:1", status="done")
        counts.append(len(queries.captured_queries))
        for query in queries.captured_queries:  # each names its game: the lock's by id, the rest by game_id
            sql = query["sql"]
            assert sql.startswith(("SAVEPOINT", "RELEASE")) or "game_id = %" in sql or (
                "FROM referee_game WHERE id = %" in sql), sql[:200]
    assert counts == [DEADLINE_JOB] * 3, counts


#: a game's position and one write of its records, due rows and notices, each sent with the
#: batch's others (one round trip for all positions, one for all writes): its lock, due rows,
#: vacations and recipients come with the batch's (one claim, one read)
SWEEP_PER_GAME = 2


def test_a_sweep_runs_each_games_deadline_turn_start_and_notice_in_two_statements_of_its_own_sent_together(settings):
    import datetime as dt

    from referee import scheduling
    from referee.models import DueWork
    from tests.factories import started_game

    settings.REFEREE_OUTAGE_SECONDS = 10**9  # the clock's jumps here are not an outage

    def sweep_of(n: int) -> tuple[int, int]:
        games = [started_game(settings={"target": 1000})[0] for _ in range(n)]
        due_at = max(DueWork.objects.get(game=g, kind="deadline", status="pending").due_at for g in games)
        scheduling.sweep(now=due_at - dt.timedelta(hours=7))  # the heartbeat; nothing is due yet
        forget_every_game()
        with CaptureQueriesContext(connection) as queries:
            scheduling.sweep(now=due_at + dt.timedelta(minutes=1))
        for game in games:
            assert DueWork.objects.get(game=game, kind="notify", key__startswith="turn:1", status="done")
        trips = len({q.get("together", n) for n, q in enumerate(queries.captured_queries)})
        return len(queries.captured_queries), trips

    (few, few_trips), (more, more_trips) = sweep_of(2), sweep_of(5)
    assert more - few == 3 * SWEEP_PER_GAME, (few, more)
    assert more_trips == few_trips, (few_trips, more_trips)
