"""A turn the referee plays for a seat whose worm is invisible, at a deadline (policy
``bot``) or during a vacation (policy ``referee``), through the real scheduler and
PostgreSQL: two games that differ only in where the referee walked the invisible worm look
the same to the other seat and the public through the API (feed, each resumed feed, the
state at each record, the replay and each step, the inbox) and the pages (forum export,
replay). So do two games whose referee's turn was recorded public, as the referee of
old recorded it, and stays so in their logs."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.db import transaction
from django.test import Client

from games.base import Actor, ActorKind
from games.worms.board import name, orthogonal_neighbours
from games.worms.commands import EndTurn, MoveWorm, SubmitTurn
from games.worms.movement import step_problem
from games.worms.rules import RULESET
from referee import lobby, scheduling, services
from tests.factories import ModeratorFactory, UserFactory, api_client
from tests.fixtures import OldOrdersReferee

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
LIST = {"team_weapon": "minigun", "items": [{"item": "invisibility", "count": 1}, {"item": "bazooka", "count": 2}]}


class Rollback(Exception):
    pass


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9
    from referee.clock import set_fake_now

    set_fake_now(path, T0)
    return lambda instant: set_fake_now(path, instant)


def _plain_steps(state, worm_id: str) -> list[str]:
    worm = state.worm(worm_id)
    return [name(s) for s in orthogonal_neighbours(worm.square)
            if step_problem(state, worm.square, s) is None and state.empty(s)
            and state.height(worm.square) - state.height(s) <= 2]


def _a_game_where_a_worm_can_walk_two_ways(**policies):
    """A new game whose acting seat has a worm with two plain squares to walk to (the start is
    dealt by the game's dice: a worm may be boxed in; another game is dealt then)."""
    for _ in range(10):
        users = [UserFactory(), UserFactory()]
        game = services.game_create(name="Hidden", ruleset="worms", seats=2, created_by=ModeratorFactory(),
                                    **policies)
        game_id = str(game.pk)
        seats = [lobby.game_join(game_id=game_id, user=u, name=f"P{i}",
                                 signup_order={"type": "SubmitShoppingList", "payload": LIST})
                 for i, u in enumerate(users, start=1)]
        services.game_run_pending(game_id=game_id)
        state, _ = services.referee_get().current(game_id)
        acting = next(s for s in seats if s.number == state.seat)
        other = next(s for s in seats if s is not acting)
        worm = next((w.id for w in state.worms_of(acting.number) if len(_plain_steps(state, w.id)) >= 2), None)
        if worm is not None:
            return game_id, acting, other, worm
    raise AssertionError("ten games dealt, none with a worm free to walk two ways")


def _reads(game_id: str, client, page_client: Client) -> dict[str, str]:
    base = f"/api/games/{game_id}"
    feed = client.get(f"{base}/events/?limit=500").json()
    count = len(feed["events"])
    answers = {
        "feed": feed,
        "resumed": [client.get(f"{base}/events/?after={k}&limit=500").json() for k in range(count)],
        "states": [client.get(f"{base}/state/?at={k}").json() for k in range(1, count + 1)],
        "replay": client.get(f"{base}/replay/").json(),
        "steps": [client.get(f"{base}/replay/?seq={k}").json() for k in range(1, count + 1)],
        "inbox": client.get(f"{base}/inbox/").json(),
    }
    out = {path: json.dumps(answer, sort_keys=True) for path, answer in answers.items()}
    for page in ("forum/?format=txt", "replay/"):
        html = page_client.get(f"/games/{game_id}/{page}").content.decode()
        out[page] = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return out


def _crate_fell_on(game_id: str, squares: list[str]) -> bool:
    """A crate fell on one of the squares: the others see it fall and vanish where the
    invisible worm stands (ruling W-R50), so that walk is told by the rules, not leaked."""
    return any(name((r.payload["x"], r.payload["y"])) in squares
               for r in services.referee_get().store.read(game_id) if r.type == "CrateDropped")


def _the_referees_turn_both_ways(now, monkeypatch, why: str) -> tuple[list[dict], bool]:
    game_id, acting, other, worm = _a_game_where_a_worm_can_walk_two_ways(deadline_policy="bot",
                                                                         vacation_policy="referee")
    services.command_handle(game_id=game_id, user=acting.user, command_type="UseUtility",
                            payload={"worm": worm, "utility": "invisibility"})
    squares = _plain_steps(services.referee_get().current(game_id)[0], worm)[:2]
    reads, told = [], False
    for square in squares:
        def walk(state, seats_, policy, _square=square):
            return SubmitTurn(steps=(MoveWorm(worm=worm, path=(_square,)), EndTurn()))

        monkeypatch.setattr(RULESET, "deadline_command", walk)
        try:
            with transaction.atomic():
                when = T0 + dt.timedelta(minutes=1) if why == "vacation" else T0 + dt.timedelta(days=3)
                if why == "vacation":
                    services.vacation_declare(game_id=game_id, user=acting.user, starts_at=T0,
                                              ends_at=T0 + dt.timedelta(days=2))
                now(when)
                assert scheduling.sweep(now=when) >= 1
                told = told or _crate_fell_on(game_id, squares)
                reads.append({
                    "other": _reads(game_id, api_client(other.user), _signed_in(other.user)),
                    "public": _reads(game_id, api_client(), Client()),
                    "owner": _reads(game_id, api_client(acting.user), _signed_in(acting.user)),
                })
                raise Rollback
        except Rollback:
            pass
        now(T0)
    return reads, told


@pytest.mark.parametrize("why", ["deadline", "vacation"])
def test_the_referees_turn_for_an_invisible_worm_is_the_same_to_the_others_wherever_it_walked(now, monkeypatch, why):
    for _ in range(5):  # a game where no crate falls on either square (which the rules tell)
        reads, told = _the_referees_turn_both_ways(now, monkeypatch, why)
        if not told:
            break
    assert not told, "five games dealt, a crate fell on the worm in each"
    a, b = reads
    for who in ("other", "public"):
        assert [p for p in a[who] if a[who][p] != b[who][p]] == [], who
    assert a["owner"]["feed"] != b["owner"]["feed"]  # the walk was the referee's, and it differs
    assert '"kind": "referee"' in a["other"]["feed"] and "SubmitTurn" not in a["other"]["feed"]


def _an_old_public_referees_turn_both_ways() -> tuple[list[dict], list[str], bool]:
    game_id, acting, other, worm = _a_game_where_a_worm_can_walk_two_ways(deadline_policy="bot")
    referee = services.referee_get()
    services.command_handle(game_id=game_id, user=acting.user, command_type="UseUtility",
                            payload={"worm": worm, "utility": "invisibility"})
    squares = _plain_steps(referee.current(game_id)[0], worm)[:2]
    old = OldOrdersReferee(referee.store, referee.registry, referee.clock)
    reads, told = [], False
    for square in squares:
        try:
            with transaction.atomic():
                old.handle(game_id, command_type="SubmitTurn", actor=Actor(ActorKind.REFEREE, acting.number),
                           payload={"steps": [{"worm": worm, "path": [square]}, {}]})
                (turn,) = [r for r in referee.store.read(game_id) if r.type == "SubmitTurn"]
                assert turn.audience == ("everyone", ())
                told = told or _crate_fell_on(game_id, squares)
                reads.append({
                    "other": _reads(game_id, api_client(other.user), _signed_in(other.user)),
                    "public": _reads(game_id, api_client(), Client()),
                    "owner": _reads(game_id, api_client(acting.user), _signed_in(acting.user)),
                })
                raise Rollback
        except Rollback:
            pass
    return reads, squares, told


def test_a_referees_turn_recorded_public_in_an_old_log_is_the_same_to_the_others_wherever_it_walked(now):
    for _ in range(5):  # a game where no crate falls on either square (which the rules tell)
        reads, squares, told = _an_old_public_referees_turn_both_ways()
        if not told:
            break
    assert not told, "five games dealt, a crate fell on the worm in each"
    a, b = reads
    for who in ("other", "public"):
        assert [p for p in a[who] if a[who][p] != b[who][p]] == [], who
    assert a["owner"]["feed"] != b["owner"]["feed"] and squares[0] in a["owner"]["feed"]
    assert '"kind": "referee"' in a["other"]["feed"] and "SubmitTurn" not in a["other"]["feed"]


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
