"""The game record (.tak): one portable file per game that replays offline, without a
database, and verifies (hash chain, dice from the seed, re-adjudication); a tampered file
fails naming the record."""

from __future__ import annotations

import json
import random

import pytest

from game_pages.lggwg import account, record
from games.base import PUBLIC, Actor, SeatInfo, Viewer
from games.dice import Dice
from games.lggwg.bot import bot_orders_from_view
from games.registry import default_registry
from referee.core import Referee
from referee.store.memory import InMemoryEventStore

SEATS = [{"number": 1, "name": "Ann"}, {"number": 2, "name": "Bob"}]


class BotDice(Dice):
    """The bots' own choices (not the referee's dice)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _next(self, purpose: str, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def played(turns: int = 3, finish: bool = True) -> tuple[Referee, str]:
    referee = Referee(InMemoryEventStore(), default_registry())
    info = referee.create_game(ruleset="lggwg", settings={"map": "duel", "max_turns": turns},
                                seed="5eed" * 16)
    referee.start_game(info.id, (SeatInfo(1, "Ann"), SeatInfo(2, "Bob")))
    rng = random.Random(5)
    for _ in range(turns if finish else turns - 1):
        for seat in (1, 2):
            position = referee.view(info.id, Viewer.for_seat(seat))["position"]
            if position["phase"] != "orders":
                break
            orders = bot_orders_from_view(position, BotDice(rng))
            referee.handle(info.id, command_type="SubmitOrders", payload={"orders": orders},
                           actor=Actor.player(seat))
    return referee, info.id


def complete_text(referee: Referee, game_id: str) -> str:
    info = referee.store.get_game(game_id)
    return record.complete_file(info, "Test game", SEATS, referee.store.read(game_id))


def test_a_finished_game_record_replays_offline_and_verifies():
    referee, gid = played()
    text = complete_text(referee, gid)
    game = record.loads(text)
    assert game.complete and game.game["seed"] == referee.store.get_game(gid).seed
    assert len(game.records) == referee.store.last_seq(gid)
    replay = record.replay(game, default_registry())
    assert replay.ok, replay.problems
    words = account.account(game, replay)
    assert any(line.startswith("Result: finished") for line in words)
    assert any(line.strip().startswith("Step 1:") for line in words)
    assert any("Turn 2 begins" in line for line in words)


def test_the_file_is_one_canonical_json_object_a_line_with_every_hash():
    referee, gid = played(turns=1)
    lines = complete_text(referee, gid).splitlines()
    head = json.loads(lines[0])
    assert head["format"] == "lggwg-record" and head["version"] == 1 and head["records"] == len(lines) - 1
    first, last = json.loads(lines[1]), json.loads(lines[-1])
    assert first["seq"] == 1 and first["prev_hash"] == "0" * 64 and first["type"] == "Setup"
    assert head["head"] == last["hash"]
    assert all(line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
               for line in lines)


def tampered(text: str, seq: int, change) -> str:  # noqa: ANN001
    lines = text.splitlines()
    data = json.loads(lines[seq])
    change(data)
    lines[seq] = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "\n".join(lines) + "\n"


def test_a_tampered_record_fails_naming_its_seq():
    referee, gid = played()
    text = complete_text(referee, gid)
    lines = [json.loads(line) for line in text.splitlines()[1:]]
    damaged = next(r for r in lines if r["type"] == "OrderResolved")

    def more_damage(data: dict) -> None:
        data["payload"]["record"]["note"] = "it was not me"

    replay = record.replay(record.loads(tampered(text, damaged["seq"], more_damage)), default_registry())
    assert not replay.ok
    assert replay.problems[0].startswith(f"seq {damaged['seq']}: hash")


def test_a_forged_record_with_its_hashes_redone_fails_at_re_adjudication():
    referee, gid = played()
    info = referee.store.get_game(gid)
    records = referee.store.read(gid)
    damaged = next(r for r in records if r.type == "OrderResolved")
    forged = InMemoryEventStore()
    forged.create_game(info)
    from referee.store.base import NewRecord, RecordKind

    for r in records:  # re-append every record: fresh hashes that chain, one payload changed
        payload = r.payload
        if r.seq == damaged.seq:
            payload = dict(r.payload, record=dict(r.payload["record"], note="it was not me"))
        forged.append(gid, r.seq, [NewRecord(
            kind=RecordKind(r.kind), type=r.type, payload=payload, audience_kind=r.audience_kind,
            audience_seats=r.audience_seats, actor_kind=r.actor_kind, actor_seat=r.actor_seat,
            schema_version=r.schema_version, idempotency_key=r.idempotency_key,
            cause_offset=None if r.cause_seq is None else r.cause_seq - r.seq, draws=r.draws,
        )], r.created_at)
    text = record.complete_file(info, "Forged", SEATS, forged.read(gid))
    replay = record.replay(record.loads(text), default_registry())
    assert not replay.ok
    assert replay.problems[0].startswith(f"seq {damaged.seq}: readjudication")


def test_a_public_record_of_a_game_in_play_has_no_seed_and_cannot_be_verified():
    referee, gid = played(turns=3, finish=False)
    info = referee.store.get_game(gid)
    text = record.public_file(info, "Test game", SEATS, referee.feed(gid, PUBLIC))
    game = record.loads(text)
    assert not game.complete and game.game["seed"] is None
    assert info.seed not in text
    assert not any(r["type"] == "OrdersSubmitted" for r in game.records)
    with pytest.raises(record.RecordFileError, match="cannot be verified"):
        record.replay(game, default_registry())


def test_a_file_that_is_not_a_record_is_refused_with_its_line():
    with pytest.raises(record.RecordFileError, match="line 1"):
        record.loads('{"format": "worms"}\n')
    with pytest.raises(record.RecordFileError, match="line 2: not JSON"):
        record.loads('{"format": "lggwg-record", "version": 1, "game": {}, "seats": []}\nnot json\n')


def test_every_event_of_a_played_game_is_told_in_words_for_every_viewer():
    from game_pages.lggwg.narrate import narrate
    from games.base import MODERATOR_VIEW

    referee, gid = played(turns=6, finish=False)  # in play: the teams see their parts only
    names = {1: "Ann", 2: "Bob"}
    told = set()
    for viewer in (MODERATOR_VIEW, Viewer.for_seat(1), Viewer.for_seat(2), PUBLIC):
        for item in referee.feed(gid, viewer):
            if item["kind"] == "event":
                line = narrate(item, names)
                assert line and "{" not in line and "None" not in line, (item, line)
                told.add(item["type"])
    assert {"UnitMoved", "OrderResolved", "TurnStarted", "TeamSubmitted", "OrdersSubmitted"} <= told
