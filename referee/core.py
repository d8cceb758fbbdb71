"""The referee: load a position, ask the ruleset, append what it decided, replay, verify.

Framework-free on purpose: it talks to an ``EventStore`` and a ``Registry`` and is given a
clock, so unit tests run it on the in-memory store and the Django services run it on the
database inside ``transaction.atomic``.

Play (orders, refusals, scheduled work) is here; the rest is delegated by job: the append of
an order (deciding at the head of the log, retrying after a lost race) to
``referee.appending``, positions to ``referee.positions``, what each viewer reads to
``referee.reading``, the audit of a log to ``referee.verification``, the stamping and
refusals of orders to ``referee.orders``. The names callers know stay importable from here.
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.base import (
    SCHEDULER,
    Actor,
    ActorKind,
    Event,
    Registry,
    Ruleset,
    RuleViolation,
    SeatInfo,
    Viewer,
    work_key_text,
)
from games.dice import Dice
from games.serialization import DataError, to_data
from referee.appending import Appended, append_decided, jittered_sleep
from referee.errors import GameFrozen, GameNotActive, SeatError
from referee.orders import (
    MAX_RECORDED_REFUSALS,
    check_same_order,
    command_record,
    stamp,
)
from referee.positions import (
    _PINNED,
    POSITIONS,
    RECENT_RECORDS,
    SNAPSHOT_EVERY,
    Position,
    PositionCache,
    Positions,
)
from referee.reading import _NUMBERINGS, Reader, effective
from referee.store.base import (
    EventStore,
    GameInfo,
    NewRecord,
    StoredRecord,
)
from referee.verification import Problem, VerifyReport, verify
from referee.visibility import SETUP, Numbering, NumberingCache

__all__ = [
    "MAX_RECORDED_REFUSALS", "POSITIONS", "RECENT_RECORDS", "SETUP", "SNAPSHOT_EVERY", "_NUMBERINGS", "_PINNED",
    "Clock", "Appended", "Position", "PositionCache", "Problem", "Referee", "VerifyReport", "utc_now",
]

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Referee:
    def __init__(
        self,
        store: EventStore,
        registry: Registry,
        clock: Clock = utc_now,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        max_retries: int = 10,
        backoff: Callable[[int], None] | None = None,
        on_game_end: Callable[[GameInfo, Ruleset, Any], None] | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self.lost_races = 0  # appends that lost to another writer and were retried
        self.backoff = backoff or jittered_sleep
        self.positions = Positions(store, registry)
        self.reader = Reader(store, registry, _NUMBERINGS)
        #: Told (game, rules, final state) in the unit of work that records a game's end by
        #: an order: the ratings' projection (``referee.ratings.game_ended``).
        self.on_game_end = on_game_end

    @property
    def store_numberings(self) -> NumberingCache:
        """The per-viewer numberings this referee's reader keeps (per process by default)."""
        return self.reader.numberings

    @store_numberings.setter
    def store_numberings(self, numberings: NumberingCache) -> None:
        self.reader.numberings = numberings

    # --- games --------------------------------------------------------------------------

    def ruleset_for(self, info: GameInfo) -> Ruleset:
        return self.registry.get(info.ruleset, info.ruleset_version)

    def create_game(
        self, *, ruleset: str, version: str | None = None, settings: Mapping[str, Any] | None = None,
        game_id: str | None = None, seed: str | None = None, private_log: bool = False,
    ) -> GameInfo:
        rules = self.registry.get(ruleset, version)
        parsed = rules.parse_settings(dict(settings or {}))
        info = GameInfo(
            id=game_id or str(uuid.uuid4()),
            ruleset=rules.name,
            ruleset_version=rules.version,
            settings=to_data(parsed),
            seed=seed or secrets.token_hex(32),
            private_log=private_log,
        )
        self.store.create_game(info)
        return info

    def start_game(self, game_id: str, seats: Sequence[SeatInfo]) -> Appended:
        """Record the ``Setup`` order (settings and seats) and the events it produces."""
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        if info.status != "open":
            raise GameNotActive("The game has already started.", game=game_id)
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise SeatError(
                f"{rules.name} needs {rules.min_seats} to {rules.max_seats} seats; this game has {len(seats)}."
            )
        payload = {"settings": info.settings, "seats": [to_data(s) for s in seats]}
        outcome = append_decided(
            self, info, rules, SETUP, payload, Actor(ActorKind.REFEREE), None,
            lambda state, dice: rules.setup(rules.parse_settings(info.settings), tuple(seats), dice),
        )
        self.store.update_game(game_id, status="finished" if rules.is_finished(outcome.state) else "active")
        return outcome

    # --- orders -------------------------------------------------------------------------

    def handle(
        self,
        game_id: str,
        *,
        command_type: str,
        payload: Mapping[str, Any],
        actor: Actor,
        idempotency_key: str | None = None,
        game: GameInfo | None = None,
        position: Position | None = None,
        preface: Sequence[NewRecord] = (),
    ) -> Appended:
        """Decide one order and append what happened. Raises RuleViolation (nothing changed,
        except a private record of the refusal where the ruleset wants one).

        The unit of work: ``game`` is the game as the caller just read it under its row
        lock (saves reading it again), ``position`` where the caller's previous order left
        it (saves reading the log), ``preface`` referee notices appended just before the
        order in the same append (a deadline's expiry). The idempotency key is looked up
        only when the append collides with it (or the order is refused), not on every order:
        the unique (game, key) index refuses a second use either way."""
        info = game or self.store.get_game(game_id)
        if info.frozen_reason:
            # The reason names the log's own seq: for moderators. Players number the log
            # their own way (referee/visibility.py) and are told only that it is frozen.
            detail = f": {info.frozen_reason}" if actor.kind is not ActorKind.PLAYER else (
                ". Orders wait until a moderator has checked it; the game page says when it is open again.")
            raise GameFrozen("This game is frozen while a moderator looks into its log" + detail, game=game_id)
        if idempotency_key and info.status != "active":
            earlier = self.find_key(game_id, idempotency_key, actor)
            if earlier is not None:
                return self.replay_idempotent(info, earlier, command_type, payload, actor)
        if info.status == "open":
            raise GameNotActive("The game has not started yet.", game=game_id)
        if info.status == "finished":
            raise GameNotActive("The game is over; no more orders are taken.", game=game_id)
        rules = self.ruleset_for(info)
        body = {k: v for k, v in payload.items() if k not in ("actor", "at_ms")}
        try:
            command = rules.command_from_data(command_type, body)
        except DataError as exc:
            raise RuleViolation("order", f"The order {command_type} is malformed: {exc}.") from None
        stamped = stamp(rules, command_type, command, actor, int(self.clock().timestamp() * 1000))
        outcome = append_decided(
            self, info, rules, command_type, rules.command_to_data(stamped), actor, idempotency_key,
            lambda state, dice: rules.decide(state, stamped, dice), position=position, preface=preface,
        )
        if not outcome.replayed and rules.is_finished(outcome.state):
            self.store.update_game(game_id, status="finished")
            info = replace(info, status="finished")
            if self.on_game_end is not None:
                self.on_game_end(info, rules, outcome.state)
        return replace(outcome, game=info)

    def _command_record(
        self, rules: Ruleset, command_type: str, payload: dict[str, Any], actor: Actor, key: str | None, dice: Dice,
        events: Sequence[Event],
    ) -> NewRecord:
        # The override point for how an order is recorded (a test keeps the old audiences);
        # ``appending`` asks it for every order it appends.
        return command_record(rules, command_type, payload, actor, key, dice, events)

    def find_key(self, game_id: str, key: str, actor: Actor) -> StoredRecord | None:
        return self.store.find_key(game_id, key, actor_kind=str(actor.kind), actor_seat=actor.seat)

    def replay_idempotent(
        self, info: GameInfo, earlier: StoredRecord, command_type: str, payload: Mapping[str, Any], actor: Actor
    ) -> Appended:
        check_same_order(self.ruleset_for(info), earlier, command_type, payload, actor)
        records = (earlier, *self.store.caused_by(info.id, earlier.seq))
        state, last = self.current(info.id)
        return Appended(records, state, last, replayed=True)

    # --- positions ------------------------------------------------------------------------

    def current(self, game_id: str) -> tuple[Any, int]:
        return self.state_at(game_id, None)

    def state_at(self, game_id: str, seq: int | None) -> tuple[Any, int]:
        """The position after record ``seq`` (the latest if None): snapshot + later events,
        read in one round trip (``EventStore.load``)."""
        position = self.positions.at(game_id, self.positions.rules_of(game_id), seq)
        return position.state, position.last_seq

    def position(self, game_id: str, rules: Ruleset | None = None) -> Position:
        """The latest position with the head of the log (what an order starts from). A
        caller that has read the game row passes its ``rules`` (no read of the row)."""
        return self.positions.at(game_id, rules if rules is not None else self.positions.rules_of(game_id))

    def replay(self, game_id: str, upto: int | None = None) -> Any:
        """The fold from the first record, ignoring snapshots (what verify trusts)."""
        return self.positions.replay(game_id, upto)

    def _maybe_snapshot(
        self, info: GameInfo, rules: Ruleset, state: Any, seq: int, latest_seq: int | None = None
    ) -> int:
        """Save a snapshot if ``snapshot_every`` records have passed since the latest one
        (``latest_seq`` when the caller knows it); returns the latest snapshot's seq."""
        return self.positions.save_snapshot_if_due(info, rules, state, seq, latest_seq, self.snapshot_every)

    # --- what players may see (``referee.reading``) ------------------------------------------

    def view(self, game_id: str, viewer: Viewer, seq: int | None = None) -> dict[str, Any]:
        """The position after the viewer's record ``seq`` (the latest if None), numbered in
        the viewer's own sequence (see ``referee.visibility``)."""
        return self.reader.view(game_id, viewer, seq, self.state_at)

    def view_at_real(self, game_id: str, viewer: Viewer, real_seq: int | None) -> dict[str, Any]:
        return self.reader.view_at_real(game_id, viewer, real_seq, self.state_at)

    @staticmethod
    def _effective(info: GameInfo, viewer: Viewer) -> Viewer:
        """When a game ends its whole log becomes public, unless its settings keep it private."""
        return effective(info, viewer)

    def numbering(
        self, game_id: str, viewer: Viewer, info: GameInfo | None = None, known: Sequence[StoredRecord] = (),
    ) -> Numbering:
        return self.reader.numbering(game_id, viewer, info, known)

    def order_answer(
        self, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], info: GameInfo | None = None,
        position: Position | None = None,
    ) -> tuple[list[dict[str, Any]], int]:
        return self.reader.order_answer(game_id, viewer, records, info, position)

    def feed_of(
        self, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], info: GameInfo,
    ) -> tuple[list[dict[str, Any]], Numbering]:
        return self.reader.feed_of(game_id, viewer, records, info)

    def feed(self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        return self.reader.feed(game_id, viewer, after, upto)

    def feed_between(
        self, game_id: str, viewer: Viewer, real_after: int, real_upto: int | None,
        numbering: Numbering | None = None,
    ) -> list[dict[str, Any]]:
        return self.reader.feed_between(game_id, viewer, real_after, real_upto, numbering)

    # --- scheduled work ----------------------------------------------------------------------

    def run_due(
        self, game_id: str, key: str, *, game: GameInfo | None = None, position: Position | None = None
    ) -> Appended | None:
        """Run the ``now``/``at`` work named ``key`` if the position still makes it due.
        The key is the idempotency key, so a second delivery changes nothing (None).
        ``game`` and ``position`` as for ``handle``."""
        info = game or self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        if (info.status != "active" or info.frozen_reason) and self.find_key(game_id, key, SCHEDULER) is not None:
            return None
        if position is None:
            position = self.positions.at(game_id, rules)
        work = next((w for w in rules.scheduled_work(position.state) if work_key_text(w.key) == key), None)
        if work is None or work.command is None:
            return None
        if work.when == "at" and work.at_ms is not None and work.at_ms > self.clock().timestamp() * 1000:
            return None
        data = rules.command_to_data(work.command)
        outcome = self.handle(
            game_id, command_type=type(work.command).__name__, payload=data,
            actor=SCHEDULER, idempotency_key=key, game=info, position=position,
        )
        return None if outcome.replayed else outcome

    # --- audit (``referee.verification``) ----------------------------------------------------

    def verify(self, game_id: str) -> VerifyReport:
        """Hash chain intact, sequence contiguous, snapshots true to the log, every recorded
        draw the one the game's seed gives at its place, and every recorded order re-decided
        with its recorded dice reproduces its recorded events."""
        info = self.store.get_game(game_id)
        return verify(self.store, game_id, info, self.ruleset_for(info))
