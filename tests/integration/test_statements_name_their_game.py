"""Every statement names its game: what an order through the API, a feed read, a replay, a
verify, a deadline job and a sweep send to PostgreSQL, for a game of each shipped ruleset,
filters every game-keyed table by one game (``tests/game_filter.py`` reads the statements),
so each touches one partition of a log partitioned by game and one Citus shard. The sweep's
claim, which finds due work across games, and the search after an outage for the games with
deadlines in the gap are the documented exceptions (docs/scaling.md).

Statements are captured as ``CaptureQueriesContext`` records them: the store's plain SQL is
logged there too (``referee/store/sql.py``), and the SQL functions a statement calls are
not (they are given the game by the statement that calls them)."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.base import Viewer
from notices.models import Channel
from referee import core, lobby, scheduling, services
from referee.clock import set_fake_now
from referee.instance import referee_get
from referee.models import DueWork, Event, Game, SchedulerHeartbeat
from referee.visibility import NumberingCache
from tests.factories import ModeratorFactory, UserFactory
from tests.game_filter import partitions_named, problems

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("worms", "wormlord", "parties", "lggwg")
SEATS = {"worms": 2, "wormlord": 3, "parties": 3, "lggwg": 2}
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

#: The statements of the sweep that read across games by design, as docs/scaling.md names
#: them (the doc must): the claim of the games with the oldest due rows (``SKIP LOCKED``),
#: run per partition or per shard; and, after an outage of the scheduler, the search for the
#: games with deadlines in the gap (each then locked and moved on by its id). Each is
#: identified by fragments that must all be in it.
CROSS_GAME: dict[tuple[str, ...], str] = {
    ("SKIP LOCKED", 'FROM "referee_duework" U0 WHERE'): "the sweeper's claim",
    ('SELECT DISTINCT "referee_duework"."game_id" AS "game_id" FROM "referee_duework" WHERE',):
        "the outage check's search",
}

#: Statements of the scheduler (the modules referee/scheduling.py gathers) that do not name
#: their game yet (being rewritten for its statement count): (a fragment that identifies the
#: statement, where it is sent and what it reads). Fixing one removes it here (the test says so when one is fixed);
#: ``MOST_PENDING`` keeps the list from growing.
PENDING_IN_SCHEDULING: tuple[tuple[str, str], ...] = ()
#: How many there are: the list may only get shorter.
MOST_PENDING = 0
SCHEDULING_PATHS = ("deadline job", "sweep", "sweep after an outage")


def shape(sql: str) -> str:
    """The statement with its literals blanked and its spaces collapsed, for messages."""
    return re.sub(r"\s+", " ", re.sub(r"'(?:[^']|'')*'", "?", sql)).strip()


@pytest.fixture
def fake_clock(tmp_path, monkeypatch) -> Callable[[dt.datetime], None]:
    path = tmp_path / "clock"
    set_fake_now(path, T0)
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    return lambda instant: set_fake_now(path, instant)


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def _forget_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a process that has never served the game: nothing of it cached."""
    core.POSITIONS.clear()
    monkeypatch.setattr(referee_get(), "store_numberings", NumberingCache())


class Played:
    """A started game of one ruleset, rated and private, whose players want every notice on
    a webhook, with its invited onlooker: each game-keyed table has rows to read."""

    def __init__(self, ruleset: str) -> None:
        users = [UserFactory() for _ in range(SEATS[ruleset])]
        self.onlooker = UserFactory()
        self.game = services.game_create(name=f"named {ruleset}", ruleset=ruleset, created_by=users[0],
                                         seats=SEATS[ruleset], rated=True, is_private=True)
        self.id = str(self.game.pk)
        lobby.invitation_create(game_id=self.id, user=users[0], username=self.onlooker.username)
        self.seats = {s.number: s for s in (services.seat_add(game=self.game, user=u, name=u.username) for u in users)}
        for user in users:
            Channel.objects.create(owner=user, kind=Channel.Kind.WEBHOOK, url="http://127.0.0.1:9/hook",
                                   wants=["turn", "remind", "over", "correction"])
        services.game_start(game=self.game)
        services.game_run_pending(game_id=self.id)
        referee = referee_get()
        self.rules = referee.ruleset_for(referee.store.get_game(self.id))
        state, _ = referee.current(self.id)
        for number, seat in self.seats.items():  # Worms' shopping lists
            for command in self.rules.demo_orders(state, number):
                services.command_handle(game_id=self.id, user=seat.user, command_type=type(command).__name__,
                                        payload=self._body(command))
        services.game_run_pending(game_id=self.id)

    def _body(self, command: Any) -> dict[str, Any]:
        return {k: v for k, v in self.rules.command_to_data(command).items() if k not in ("actor", "at_ms")}

    def orders(self, set_now: Callable[[dt.datetime], None]) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """Orders to try, best first: (seat, type, payload). A real-time game's clock is moved
        on until its round has begun (its countdown run out)."""
        state, _ = referee_get().current(self.id)
        acting = sorted(self.rules.to_act(state)) or sorted(self.seats)
        ruleset = self.game.ruleset
        if ruleset == "worms":
            yield acting[0], "EndTurn", {}
        elif ruleset == "wormlord":
            from games.wormlord import bot
            from tests.unit.games.wormlord.wormlord_helpers import RandomDice

            for _ in range(40):
                now = referee_get().clock()
                for seat in sorted(self.seats):
                    command = bot.choose(state, seat, RandomDice(random.Random(seat)), int(now.timestamp() * 1000))
                    if command is not None:
                        yield seat, type(command).__name__, self._body(command)
                set_now(now + dt.timedelta(milliseconds=500))
                services.game_run_pending(game_id=self.id)
                state, _ = referee_get().current(self.id)
        elif ruleset == "parties":
            yield acting[0], "Move", {"direction": "stay"}
        else:
            yield acting[0], "SubmitOrders", {"orders": []}

    def due_row(self) -> DueWork:
        rows = DueWork.objects.filter(game_id=self.id, status=DueWork.Status.PENDING).order_by("due_at")
        return next((r for r in rows if r.kind == DueWork.Kind.DEADLINE), None) or rows.first()


def _captured(run: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        run()
    return [q["sql"] for q in queries.captured_queries]


def exercise(game: Played, moderator: Any, set_now: Callable[[dt.datetime], None],
             monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The statements of each path, for one game: a deadline job (its first due row, the
    clock put just past it), then an order through the API, a feed read, a replay and a
    verify, each in a process with nothing of the game cached."""
    out: dict[str, list[str]] = {}
    row = game.due_row()
    assert row is not None and row.due_at is not None, f"{game.game.ruleset}: nothing is due"
    set_now(row.due_at + dt.timedelta(seconds=1))
    _forget_the_process(monkeypatch)
    out["deadline job"] = _captured(lambda: scheduling.due_work_run(game_id=game.id, key=row.key, kind=row.kind))
    out["order"] = []
    for seat, kind, payload in game.orders(set_now):
        _forget_the_process(monkeypatch)
        client = _client(game.seats[seat].user)
        answers: list[Any] = []
        out["order"] += _captured(lambda c=client, k=kind, p=payload, a=answers: a.append(
            c.post(f"/api/games/{game.id}/commands/", {"type": k, "payload": p}, format="json")))
        if answers[0].status_code == 201:
            break
    else:
        pytest.fail(f"{game.game.ruleset}: no order was accepted")
    for viewer in (game.seats[1].user, game.onlooker):
        _forget_the_process(monkeypatch)
        out["feed"] = out.get("feed", []) + _captured(lambda v=viewer: _ok(_client(v).get(
            f"/api/games/{game.id}/events/?limit=50")))
    _forget_the_process(monkeypatch)
    out["replay"] = _captured(lambda: _ok(_client(game.seats[1].user).get(f"/api/games/{game.id}/replay/")))
    _forget_the_process(monkeypatch)
    out["verify"] = _captured(lambda: _ok(_client(moderator).post(f"/api/games/{game.id}/verify/")))
    assert referee_get().view(game.id, Viewer.for_seat(1))  # still readable after it all
    return out


def _ok(response: Any) -> None:
    assert response.status_code == 200, getattr(response, "data", response)


def offenders(statements: list[str]) -> list[tuple[str, list[str]]]:
    return [(sql, found) for sql in statements if (found := problems(sql))]


def own_partition(game_id: str) -> str:
    """PostgreSQL's answer to where the game's records are: its partition's ``_p<remainder>``
    ("" on plain tables)."""
    with connection.cursor() as cur:
        cur.execute("SELECT tableoid::regclass::text FROM referee_event WHERE game_id = %s LIMIT 1", [game_id])
        return cur.fetchone()[0].removeprefix("referee_event")


def elsewhere(statements: list[str], games: set[str]) -> list[tuple[str, list[str]]]:
    """The statements that name a partition not of these games' own, or more than one."""
    return [(sql, [f"names the partitions {sorted(named)}, the games' are {sorted(games)}"])
            for sql in statements if (named := partitions_named(sql)) and (named - games or len(named) > 1)]


def assert_routed(statements: list[str], games: set[str], path: str) -> None:
    """On a partitioned log, the path's statements on the log name its game's partition (and
    no other's); on plain tables, none names a partition."""
    found = elsewhere(statements, games)
    assert not found, f"{path}:\n{_described(found)}"
    named = set().union(*(partitions_named(sql) for sql in statements))
    assert bool(named) == bool(settings.REFEREE_LOG_PARTITIONS), f"{path}: partitions named: {named}"


def _is_claim(sql: str) -> bool:
    return any(all(fragment in sql for fragment in fragments) for fragments in CROSS_GAME)


def _pending(sql: str) -> list[str]:
    return [fragment for fragment, _ in PENDING_IN_SCHEDULING if fragment in sql]


def _described(found: list[tuple[str, list[str]]]) -> str:
    return "\n\n".join(f"{'; '.join(why)}:\n  {shape(sql)[:1500]}" for sql, why in found)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_statement_of_an_order_a_feed_a_replay_and_a_verify_names_its_game(ruleset, fake_clock, monkeypatch):
    game = Played(ruleset)
    paths = exercise(game, ModeratorFactory(), fake_clock, monkeypatch)
    for path in ("order", "feed", "replay", "verify"):
        assert paths[path], f"{path}: no statement captured"
        found = offenders(paths[path])
        assert not found, f"{ruleset}, {path}:\n{_described(found)}"
        assert_routed(paths[path], {own_partition(game.id)}, f"{ruleset}, {path}")


def _scheduling_statements(set_now: Callable[[dt.datetime], None],
                           monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """A deadline job of a game of each ruleset; a sweep that claims them all in one batch;
    and a sweep after an outage of the scheduler (deadlines moved on, not played)."""
    moderator = ModeratorFactory()
    games = [Played(ruleset) for ruleset in RULESETS]
    out: dict[str, list[str]] = {"deadline job": []}
    for game in games:
        job = exercise(game, moderator, set_now, monkeypatch)["deadline job"]
        assert_routed(job, {own_partition(game.id)}, f"{game.game.ruleset}, deadline job")
        out["deadline job"] += job
    latest = max(r.due_at for g in games for r in DueWork.objects.filter(game_id=g.id, status="pending") if r.due_at)
    set_now(latest + dt.timedelta(seconds=1))
    SchedulerHeartbeat.objects.update_or_create(name=scheduling.SWEEPER, defaults={"last_run_at": latest})
    _forget_the_process(monkeypatch)
    out["sweep"] = _captured(lambda: scheduling.sweep(limit=len(games) * 3))
    assert_routed(out["sweep"], {own_partition(g.id) for g in games}, "sweep")
    assert sum(1 for sql in out["sweep"] if '"referee_duework"."game_id" IN (' in sql) <= 1
    # The scheduler stopped: the next sweep comes after the games' deadlines, which move on.
    later = max(r.due_at for g in games for r in DueWork.objects.filter(game_id=g.id, status="pending") if r.due_at)
    set_now(later + scheduling.outage_threshold() + dt.timedelta(days=1))
    missed = {g.id for g in games if DueWork.objects.filter(game_id=g.id, status="pending", kind="deadline",
                                                             due_at__gt=latest).exists()}
    assert missed, "no deadline fell in the outage"
    _forget_the_process(monkeypatch)
    out["sweep after an outage"] = _captured(lambda: scheduling.sweep(limit=1))
    assert {str(g) for g in Event.objects.filter(type="DeadlinesExtendedForOutage")
            .values_list("game_id", flat=True)} == missed
    return out


def test_every_statement_of_a_deadline_job_and_a_sweep_names_its_game_but_the_pending_ones(fake_clock, monkeypatch):
    """The scheduler's paths, with the statements of referee/scheduling.py still pending
    listed; once that list is empty this is the same rule as for the other paths."""
    paths = _scheduling_statements(fake_clock, monkeypatch)
    unexpected, seen = [], set()
    for path in SCHEDULING_PATHS:
        assert paths[path], f"{path}: no statement captured"
        for sql, why in offenders(paths[path]):
            if path.startswith("sweep") and _is_claim(sql):
                continue
            if _pending(sql):
                seen.update(_pending(sql))
                continue
            unexpected.append((sql, [f"{path}: {w}" for w in why]))
    assert not unexpected, _described(unexpected)
    stale = [f for f, _ in PENDING_IN_SCHEDULING if f not in seen]
    assert not stale, f"these pending statements now name their game: remove them from PENDING_IN_SCHEDULING: {stale}"


def test_the_pending_list_only_shrinks_and_the_claim_is_documented():
    assert len(PENDING_IN_SCHEDULING) <= MOST_PENDING
    scaling = (ROOT / "docs" / "scaling.md").read_text()
    assert "One statement reads across games by design: **the sweeper's claim**" in scaling
    assert "one index scan per partition" in scaling
    for name in CROSS_GAME.values():
        assert f"**{name}**" in scaling, f"docs/scaling.md does not name {name}"
    assert all(fragment and why for fragment, why in PENDING_IN_SCHEDULING)


def test_a_moderators_pause_resume_and_extension_a_vacation_and_a_reminders_switch_name_their_game(fake_clock):
    """The writes of due rows and seats outside an order, by id and by game (their key is
    ``(id, game_id)``): each reaches one partition, one shard."""
    played = Played("worms")
    moderator = ModeratorFactory()
    seat = played.seats[1]
    captured = _captured(lambda: (
        services.game_pause(game_id=played.id, moderator=moderator, reason="a look"),
        services.game_resume(game_id=played.id, moderator=moderator, reason="looked"),
        services.deadline_extend(game_id=played.id, moderator=moderator, hours=2, reason="a holiday"),
        services.vacation_declare(game_id=played.id, user=seat.user, starts_at=T0,
                                  ends_at=T0 + dt.timedelta(days=1)),
        services.reminders_set(game_id=played.id, user=seat.user, enabled=False),
    ))
    writes = [sql for sql in captured if sql.startswith(('UPDATE "referee_duework"', 'UPDATE "referee_seat"'))]
    assert len(writes) >= 4, writes
    found = offenders(captured)
    assert not found, _described(found)


def test_a_game_row_is_read_by_its_id_on_the_hot_path():
    """(A check of the checker on a real statement: the store's read of a game row.)"""
    assert problems("SELECT ruleset FROM referee_game WHERE id = %s::uuid") == []
    assert problems("SELECT ruleset FROM referee_game WHERE status = %s") != []
    assert Game._meta.db_table == "referee_game"


def test_every_statement_of_an_order_that_ends_a_rated_game_names_its_game(fake_clock, monkeypatch):
    """The end of a rated game writes its ratings in the order's transaction (the game's
    rated result by its game; the players' ratings are theirs, not the game's)."""
    game = Played("worms")
    _forget_the_process(monkeypatch)
    answers: list[Any] = []
    statements = _captured(lambda: answers.append(_client(game.seats[1].user).post(
        f"/api/games/{game.id}/commands/", {"type": "Surrender", "payload": {}}, format="json")))
    assert answers[0].status_code == 201, answers[0].json()
    assert Game.objects.get(pk=game.id).status == Game.Status.FINISHED
    assert any("referee_ratedgame" in sql for sql in statements), "no rated result was written"
    found = offenders(statements)
    assert not found, _described(found)
