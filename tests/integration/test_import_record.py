"""manage.py import_record FILE: a finished game's whole record, from another referee, comes
in as a read-only game, verified before it is accepted; a forged, partial or repeated file
is refused and writes nothing."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command

from games.base import PUBLIC, Actor
from games.registry import default_registry
from referee import selectors, services
from referee.core import Referee
from referee.errors import GameNotActive
from referee.models import Event, Game
from referee.records import record_file
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock
from tests.record_games import play_out, start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(scope="module")
def elsewhere() -> tuple[dict, dict]:
    """A finished LGGWG game's whole record from another referee, and one seat's view of a running one."""
    clock = FakeClock()
    referee = Referee(InMemoryEventStore(), default_registry(), clock, backoff=lambda attempt: None)
    game = start(referee, "lggwg", "6f1c8a4e-0000-4000-8000-000000000001")
    play_out(referee, game, clock)
    running = start(referee, "lggwg", "6f1c8a4e-0000-4000-8000-000000000002")
    from games.base import Viewer

    return record_file(referee, game, PUBLIC, name="From elsewhere"), record_file(referee, running, Viewer.for_seat(1))


def write(tmp_path, data: dict, name: str = "game.record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_a_finished_record_comes_in_read_only_and_verified(elsewhere, tmp_path):
    whole, _ = elsewhere
    call_command("import_record", write(tmp_path, whole))
    game = Game.objects.get(pk=whole["game"]["id"])
    assert game.status == Game.Status.FINISHED and game.name == "From elsewhere"
    assert [s.name for s in game.seats.order_by("number")] == ["p1", "p2"]
    call_command("verify_log", str(game.pk))
    # the same file comes out again
    again = selectors.game_record_get(game=game, viewer=PUBLIC)
    assert again["records"] == whole["records"] and again["dice"] == whole["dice"]
    with pytest.raises(GameNotActive):
        services.referee_get().handle(str(game.pk), command_type="SubmitOrders", payload={}, actor=Actor.player(1))


def test_a_record_already_here_is_refused(elsewhere, tmp_path):
    path = write(tmp_path, elsewhere[0])
    call_command("import_record", path)
    with pytest.raises(CommandError, match="already here"):
        call_command("import_record", path)


def test_a_forged_record_is_refused_and_writes_nothing(elsewhere, tmp_path):
    forged = copy.deepcopy(elsewhere[0])
    event = next(r for r in forged["records"] if r["kind"] == "event" and r["seq"] > 2)
    event["payload"]["forged"] = 1
    with pytest.raises(CommandError, match=f"step {event['seq']}: hash"):
        call_command("import_record", write(tmp_path, forged))
    assert not Game.objects.filter(pk=forged["game"]["id"]).exists()
    assert not Event.objects.filter(game_id=forged["game"]["id"]).exists()


def test_one_viewers_record_and_a_file_that_is_no_record_are_refused(elsewhere, tmp_path):
    with pytest.raises(CommandError, match="one viewer's record"):
        call_command("import_record", write(tmp_path, elsewhere[1]))
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_record", str(tmp_path / "junk.json"))
    assert not Game.objects.exists()
