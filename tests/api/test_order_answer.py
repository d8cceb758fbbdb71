"""The answer to an order: what the player sees of the records it appended, numbered in the
player's own sequence, and that sequence's length. It is built from the records in hand
to save a read; it must be what reading the log would have given, whoever wrote in between."""

from __future__ import annotations

import pytest

from referee import scheduling, services
from referee.core import _NUMBERINGS, POSITIONS
from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]


def _feed(client, game) -> list[dict]:
    response = client.get(f"/api/games/{game.pk}/events/")
    assert response.status_code == 200, response.json()
    return response.json()["events"]


def _order(client, game, kind: str, payload: dict | None = None) -> dict:
    response = client.post(f"/api/games/{game.pk}/commands/", {"type": kind, "payload": payload or {}}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _check(client, game, answer: dict) -> None:
    feed = _feed(client, game)
    assert answer["seq"] == len(feed) == feed[-1]["seq"]
    assert answer["events"] == feed[-len(answer["events"]):]


@pytest.mark.parametrize("forget", ["nothing", "positions", "numberings", "both"])
def test_the_answer_to_an_order_is_what_reading_the_log_gives(forget):
    game, seats = started_game(settings={"target": 1000})
    clients = {s.number: api_client(s.user) for s in seats}
    for round_ in range(4):
        seat = acting_seat(game, seats)
        other = next(s for s in seats if s is not seat)
        _check(clients[seat.number], game, _order(clients[seat.number], game, "WriteNote", {"text": f"n{round_}"}))
        # Another writer appends behind this process's caches: a referee notice everyone sees.
        scheduling.notice_append(game_id=str(game.pk), type_="GamePaused", payload={"reason": "test"})
        if forget in ("positions", "both"):
            POSITIONS.clear()
        if forget in ("numberings", "both"):
            _NUMBERINGS.clear()
        # The other seat's numbering is behind by records it sees and records it does not.
        _check(clients[other.number], game, _order(clients[other.number], game, "WriteNote", {"text": "o"}))
        _check(clients[seat.number], game, _order(clients[seat.number], game, "Hold"))
        services.game_run_pending(game_id=str(game.pk))  # the next turn starts
