"""The referee core on the in-memory store, with the Pig test ruleset."""

from __future__ import annotations

import pytest

from games.base import MODERATOR, MODERATOR_VIEW, PUBLIC, Actor, RuleViolation, SeatInfo, Viewer
from games.dice import DiceError
from referee.core import SETUP, Referee
from referee.errors import (
    ConcurrencyError,
    GameFrozen,
    GameNotActive,
    IdempotencyConflict,
    SeatError,
)
from referee.store.base import RecordKind
from tests.unit.referee.conftest import first_player


def roll(referee: Referee, game: str, seat: int, key: str | None = None):
    return referee.handle(game, command_type="Roll", payload={}, actor=Actor.player(seat), idempotency_key=key)


def play_until_finished(referee: Referee, game: str) -> None:
    for _ in range(500):
        state, _ = referee.current(game)
        if state.winner is not None:
            return
        if not state.turn_started:
            referee.run_due(game, f"turn:{state.turn}:start")
            continue
        seat = state.order[state.to_move]
        command = "Hold" if state.turn_total >= 8 else "Roll"
        referee.handle(game, command_type=command, payload={}, actor=Actor.player(seat))
    raise AssertionError("no winner after 500 orders")


def test_setup_is_recorded_as_an_order_with_its_dice(referee, store, game):
    first = store.read(game)[0]
    assert (first.seq, first.kind, first.type) == (1, RecordKind.COMMAND, SETUP)
    assert first.payload["seats"] == [{"number": 1, "name": "Ann"}, {"number": 2, "name": "Bob"}]
    assert [d["purpose"] for d in first.draws] == ["turn order"]


def test_an_order_appends_the_order_then_its_events(referee, store, game):
    seat = first_player(referee, game)
    outcome = roll(referee, game, seat)
    command, *events = outcome.records
    assert command.kind is RecordKind.COMMAND and command.type == "Roll"
    assert command.payload["actor"] == {"kind": "player", "seat": seat}
    assert command.draws[0]["purpose"] == "pig die"
    assert all(e.cause_seq == command.seq for e in events)
    assert events[0].type == "DieRolled"


def test_an_order_out_of_turn_is_refused_and_leaves_no_record(referee, store, game):
    other = 3 - first_player(referee, game)
    state_before = referee.current(game)[0]
    last = store.last_seq(game)
    with pytest.raises(RuleViolation) as refused:
        roll(referee, game, other)
    assert refused.value.rule == "turn"
    assert referee.current(game)[0] == state_before
    assert store.last_seq(game) == last  # answered, not recorded: no one grows the log out of turn


def test_a_refusal_in_turn_is_recorded_compactly_and_only_ten_times_between_orders(referee, store, game):
    seat = first_player(referee, game)
    huge = "x" * 100_000
    for _ in range(12):
        with pytest.raises(RuleViolation):
            referee.handle(game, command_type="StartTurn", payload={"turn": 99}, actor=Actor.player(seat))
    with pytest.raises(RuleViolation):
        referee.handle(game, command_type="WriteNote", payload={"text": huge, "bogus": 1}, actor=Actor.player(seat))
    refusals = [r for r in store.read(game) if r.kind is RecordKind.REJECTION]
    assert len(refusals) == 10
    assert refusals[0].audience == ("seats", (seat,))
    assert set(refusals[0].payload) == {"order", "digest", "rule", "message"}
    assert all(len(str(r.payload)) < 1000 for r in refusals)
    referee.handle(game, command_type="WriteNote", payload={"text": "ok"}, actor=Actor.player(seat))
    # an accepted order (that keeps the turn): the next refusals are recorded again
    with pytest.raises(RuleViolation):
        referee.handle(game, command_type="StartTurn", payload={"turn": 99}, actor=Actor.player(seat))
    assert store.read(game)[-1].kind is RecordKind.REJECTION
    assert referee.verify(game).ok


def test_a_malformed_order_is_refused_with_a_sentence(referee, game):
    seat = first_player(referee, game)
    with pytest.raises(RuleViolation) as refused:
        referee.handle(game, command_type="WriteNote", payload={"text": 5}, actor=Actor.player(seat))
    assert "expected text" in refused.value.message
    with pytest.raises(RuleViolation) as unknown:
        referee.handle(game, command_type="Fly", payload={}, actor=Actor.player(seat))
    assert "not an order" in unknown.value.message


def test_the_client_cannot_forge_its_actor(referee, store, game):
    seat = first_player(referee, game)
    other = 3 - seat
    referee.handle(game, command_type="WriteNote", payload={"text": "hi", "actor": {"kind": "player", "seat": other}},
                   actor=Actor.player(seat))
    assert store.read(game)[-2].payload["actor"]["seat"] == seat


def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing(referee, store, game):
    seat = first_player(referee, game)
    first = roll(referee, game, seat, key="abc")
    length = store.last_seq(game)
    again = roll(referee, game, seat, key="abc")
    assert again.replayed
    assert [r.seq for r in again.records] == [r.seq for r in first.records]
    assert store.last_seq(game) == length


def test_a_retried_refusal_is_refused_again_without_a_new_record(referee, store, game):
    other = 3 - first_player(referee, game)
    with pytest.raises(RuleViolation):
        roll(referee, game, other, key="k")
    length = store.last_seq(game)
    with pytest.raises(RuleViolation):
        roll(referee, game, other, key="k")
    assert store.last_seq(game) == length


def test_an_idempotency_key_reused_for_another_order_is_a_conflict(referee, game):
    seat = first_player(referee, game)
    roll(referee, game, seat, key="k")
    with pytest.raises(IdempotencyConflict):
        referee.handle(game, command_type="WriteNote", payload={"text": "x"}, actor=Actor.player(seat), idempotency_key="k")


def test_a_lost_race_is_retried_on_fresh_state(referee, store, game):
    seat = first_player(referee, game)
    real_append = store.append
    raced = []

    def append_after_a_rival(game_id, expected_seq, records, now):
        if not raced:  # another writer lands first, exactly at our position
            raced.append(True)
            real_append(game_id, expected_seq, [records[0].__class__(
                kind=RecordKind.NOTICE, type="Rival", payload={})], now)
        return real_append(game_id, expected_seq, records, now)

    store.append = append_after_a_rival
    outcome = roll(referee, game, seat)
    types = [r.type for r in store.read(game)]
    assert types.index("Rival") < types.index("Roll")
    assert outcome.records[0].seq == types.index("Roll") + 1


def test_a_game_always_busy_gives_up_with_a_concurrency_error(referee, store, game):
    seat = first_player(referee, game)

    def always_lose(*args, **kwargs):
        raise ConcurrencyError("lost")

    store.append = always_lose
    with pytest.raises(ConcurrencyError):
        roll(referee, game, seat)


def test_replayed_state_equals_live_state_with_and_without_snapshots(referee, store, game):
    play_until_finished(referee, game)
    live, last = referee.current(game)
    assert store.snapshots(game), "snapshot_every=5 should have left snapshots"
    assert referee.replay(game) == live
    for seq in range(1, last + 1, 7):
        assert referee.state_at(game, seq)[0] == referee.replay(game, upto=seq)


def test_a_finished_game_refuses_orders(referee, store, game):
    play_until_finished(referee, game)
    assert store.get_game(game).status == "finished"
    with pytest.raises(GameNotActive):
        roll(referee, game, 1)


def test_orders_before_the_start_are_refused(referee):
    info = referee.create_game(ruleset="pig")
    with pytest.raises(GameNotActive):
        roll(referee, info.id, 1)


def test_a_game_needs_enough_seats(referee):
    info = referee.create_game(ruleset="pig")
    with pytest.raises(SeatError):
        referee.start_game(info.id, [SeatInfo(1, "Solo")])


def test_unknown_rulesets_and_versions_are_refused(referee):
    with pytest.raises(RuleViolation, match="no ruleset called 'chess'"):
        referee.create_game(ruleset="chess")
    with pytest.raises(RuleViolation, match="no version '9'"):
        referee.create_game(ruleset="pig", version="9")
    with pytest.raises(RuleViolation, match="target"):
        referee.create_game(ruleset="pig", settings={"target": -1})


def test_due_work_runs_once_however_often_it_is_delivered(referee, store, game):
    seat = first_player(referee, game)
    referee.handle(game, command_type="Hold", payload={}, actor=Actor.player(seat))
    first = referee.run_due(game, "turn:1:start")
    length = store.last_seq(game)
    assert first is not None
    assert referee.run_due(game, "turn:1:start") is None
    assert referee.run_due(game, "turn:0:start") is None
    assert store.last_seq(game) == length


def test_verify_passes_on_an_honest_log(referee, game):
    play_until_finished(referee, game)
    report = referee.verify(game)
    assert report.ok, report.problems
    assert report.commands > 3


def test_verify_finds_a_changed_payload_by_its_seq(referee, store, game):
    seat = first_player(referee, game)
    roll(referee, game, seat)
    target = next(r for r in store.read(game) if r.type == "DieRolled")
    store.tamper(game, target.seq, payload={**target.payload, "value": target.payload["value"] % 6 + 1})
    report = referee.verify(game)
    assert not report.ok
    assert report.first_problem.seq == target.seq
    assert {p.check for p in report.problems} >= {"hash"}


def test_verify_finds_a_rewritten_chain_by_readjudication(referee, store, game):
    """A forger who recomputes every hash still cannot change what the dice decided."""
    seat = first_player(referee, game)
    outcome = roll(referee, game, seat)
    event = outcome.records[1]
    value = event.payload["value"]
    forged = {**event.payload, "value": 6 if value != 6 else 5}
    store.tamper(game, event.seq, payload=forged)
    rec = store.read(game)[event.seq - 1]
    store.tamper(game, event.seq, hash=rec.computed_hash())
    for later in store.read(game, after=event.seq):
        prev = store.read(game)[later.seq - 2].hash
        store.tamper(game, later.seq, prev_hash=prev)
        store.tamper(game, later.seq, hash=store.read(game)[later.seq - 1].computed_hash())
    report = referee.verify(game)
    checks = {p.check for p in report.problems}
    assert "readjudication" in checks and not checks & {"hash", "chain", "sequence"}
    assert report.first_problem.seq == event.seq


def test_verify_finds_a_snapshot_that_disagrees_with_the_log(referee, store, game):
    play_until_finished(referee, game)
    snap = store.snapshots(game)[0]
    store._snapshots[game][snap.seq] = snap.__class__(game, snap.seq, snap.ruleset_version,
                                                        {**snap.state, "turn": 999}, snap.state_hash)
    report = referee.verify(game)
    assert [(p.seq, p.check) for p in report.problems] == [(snap.seq, "snapshot")]


def test_other_seats_never_see_a_private_note(referee, game):
    seat = first_player(referee, game)
    other = 3 - seat
    referee.handle(game, command_type="WriteNote", payload={"text": "bluff"}, actor=Actor.player(seat))
    mine = referee.feed(game, Viewer.for_seat(seat))
    theirs = referee.feed(game, Viewer.for_seat(other))
    assert any(e["type"] == "NoteWritten" for e in mine)
    assert not any("bluff" in str(e) for e in theirs)
    assert "bluff" not in str(referee.view(game, Viewer.for_seat(other)))
    assert "bluff" in str(referee.view(game, MODERATOR_VIEW))


def test_two_logs_differing_only_in_a_secret_look_identical_to_others(clock):
    from games.registry import default_registry
    from referee.store.memory import InMemoryEventStore
    from tests.rulesets.pig import RULESET as PIG

    seen = []
    for text in ("sheep", "bazooka"):
        referee = Referee(InMemoryEventStore(), default_registry().register(PIG), clock)
        info = referee.create_game(ruleset="pig", seed="22" * 32, game_id="same-game")
        referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
        referee.run_due(info.id, "turn:0:start")
        referee.handle(info.id, command_type="WriteNote", payload={"text": text}, actor=Actor.player(1))
        seen.append((referee.feed(info.id, Viewer.for_seat(2)), referee.view(info.id, Viewer.for_seat(2))))
    assert seen[0] == seen[1]
    # set-up order and event, turn start order and event, and that seat 1 gave *an* order
    assert len(seen[0][0]) == 5 and seen[0][0][-1]["redacted"] and seen[0][0][-1]["payload"] == {}


def test_dice_draws_are_shown_to_moderators_only_until_the_end(referee, game):
    assert all("draws" not in e for e in referee.feed(game, PUBLIC))
    assert any(e.get("draws") for e in referee.feed(game, MODERATOR_VIEW))
    play_until_finished(referee, game)
    assert any(e.get("draws") for e in referee.feed(game, PUBLIC))


def test_recorded_dice_refuse_a_different_question(referee, store, game):
    from games.dice import Draw, RecordedDice

    dice = RecordedDice([Draw("pig die", 1, 6, 4)])
    with pytest.raises(DiceError, match="recorded 'pig die'"):
        dice.roll("sheep jump", 1, 100)


def test_a_record_the_ruleset_cannot_read_is_reported_not_a_crash(referee, store, game):
    from referee.errors import LogCorrupt

    setup_event = store.read(game)[1]
    store.tamper(game, setup_event.seq, payload={"nonsense": True})
    with pytest.raises(LogCorrupt, match=f"Record {setup_event.seq}"):
        referee.view(game, PUBLIC)
    with pytest.raises(LogCorrupt, match=f"Record {setup_event.seq}"):
        referee.replay(game)
    report = referee.verify(game)
    assert report.first_problem.seq == setup_event.seq


def test_an_old_schema_version_is_upcast_when_read(referee, store, game):
    from tests.rulesets.pig import RULESET as PIG

    class PigWithUpcaster(type(PIG)):
        def upcast(self, type_name, schema_version, data):
            assert (type_name, schema_version) == ("GameSetUp", 0)
            return {"order": data["seats_in_order"], "target": data["target"]}

    rules = PigWithUpcaster()
    old = rules.event_from_data("GameSetUp", {"seats_in_order": [2, 1], "target": 9}, schema_version=0)
    assert (old.order, old.target) == ((2, 1), 9)
    with pytest.raises(ValueError, match="no upcaster"):
        PIG.event_from_data("GameSetUp", {"seats_in_order": [2, 1]}, schema_version=0)


def test_records_a_player_cannot_see_leave_no_gap_in_their_numbering(clock):
    """A refused order is private: the other seat must not notice it, not even by a
    missing sequence number."""
    from games.registry import default_registry
    from referee.store.memory import InMemoryEventStore
    from tests.rulesets.pig import RULESET as PIG

    seen = []
    for refusals in (0, 2):
        referee = Referee(InMemoryEventStore(), default_registry().register(PIG), clock)
        info = referee.create_game(ruleset="pig", seed="33" * 32, game_id="same-game")
        referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
        referee.run_due(info.id, "turn:0:start")
        state, _ = referee.current(info.id)
        mover = state.order[state.to_move]
        waiting = 3 - mover
        for _ in range(refusals):
            with pytest.raises(RuleViolation):
                roll(referee, info.id, waiting)
        roll(referee, info.id, mover)
        watcher = Viewer.for_seat(mover)
        feed = referee.feed(info.id, watcher)
        seen.append((feed, referee.view(info.id, watcher), referee.feed(info.id, watcher, after=3)))
        assert [e["seq"] for e in feed] == list(range(1, len(feed) + 1))
    assert seen[0] == seen[1]


def test_an_idempotency_key_reused_with_a_different_body_is_a_conflict(referee, game):
    seat = first_player(referee, game)
    first = referee.handle(game, command_type="WriteNote", payload={"text": "attack at dawn"},
                           actor=Actor.player(seat), idempotency_key="note-1")
    again = referee.handle(game, command_type="WriteNote", payload={"text": "attack at dawn"},
                           actor=Actor.player(seat), idempotency_key="note-1")
    assert again.replayed and again.records[0].seq == first.records[0].seq
    with pytest.raises(IdempotencyConflict):
        referee.handle(game, command_type="WriteNote", payload={"text": "retreat"},
                       actor=Actor.player(seat), idempotency_key="note-1")


def test_a_frozen_game_tells_players_it_is_frozen_without_the_logs_own_numbers(referee, store, game):
    seat = first_player(referee, game)
    store.update_game(game, frozen_reason="verification failed at seq 7: chain: a hash does not match")
    with pytest.raises(GameFrozen) as frozen:
        roll(referee, game, seat)
    assert "seq 7" not in frozen.value.message and "frozen" in frozen.value.message
    with pytest.raises(GameFrozen) as for_moderator:
        referee.handle(game, command_type="Roll", payload={}, actor=MODERATOR)
    assert "seq 7" in for_moderator.value.message


def test_a_snapshot_that_does_not_match_its_hash_is_never_played_from(referee, store, game, caplog):
    from referee.core import POSITIONS

    for _ in range(6):  # enough records for a snapshot (every 5)
        referee.handle(game, command_type="WriteNote", payload={"text": "n"}, actor=Actor.player(first_player(referee, game)))
    snap = store.snapshots(game)[-1]
    forged = {**snap.state, "scores": [[1, 99], [2, 99]]}
    store._snapshots[game][snap.seq] = snap.__class__(game, snap.seq, snap.ruleset_version, forged, snap.state_hash)
    POSITIONS.clear()
    state, _ = referee.current(game)
    assert state == referee.replay(game)
    assert "does not match its hash" in caplog.text
