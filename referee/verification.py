"""Verification: a game's log checked against itself and against its rules. The hash chain
and the sequence, every recorded draw against the game's seed, every recorded order
re-decided with its recorded dice, and every snapshot against the fold of the log.

Reads only: it never appends, and a corrupt record is a finding, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import Event, Ruleset, RuleViolation, SeatInfo
from games.dice import Dice, Draw, RecordedDice, seeded_value
from referee.positions import events_of
from referee.store.base import EventStore, GameInfo, RecordKind, StoredRecord
from referee.store.hashing import GENESIS, digest
from referee.visibility import SETUP


@dataclass(frozen=True)
class Problem:
    seq: int
    check: str  # sequence | chain | hash | readjudication | snapshot
    message: str

    def __str__(self) -> str:
        return f"seq {self.seq}: {self.check}: {self.message}"


@dataclass
class VerifyReport:
    game_id: str
    records: int = 0
    commands: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_problem(self) -> Problem | None:
        return min(self.problems, key=lambda p: p.seq, default=None)


def verify(store: EventStore, game_id: str, info: GameInfo, rules: Ruleset) -> VerifyReport:
    """Hash chain intact, sequence contiguous, snapshots true to the log, every recorded
    draw the one the game's seed gives at its place, and every recorded order re-decided
    with its recorded dice reproduces its recorded events (``info`` is game ``game_id``'s row)."""
    records = store.read(game_id)
    report = VerifyReport(game_id, records=len(records))
    prev = GENESIS
    for i, r in enumerate(records, start=1):
        if r.seq != i:
            report.problems.append(Problem(r.seq, "sequence", f"expected seq {i}, found {r.seq}"))
            break
        if r.prev_hash != prev:
            report.problems.append(Problem(r.seq, "chain", "does not point at its predecessor's hash"))
        if r.computed_hash() != r.hash:
            report.problems.append(Problem(r.seq, "hash", "content does not match its stored hash"))
        prev = r.hash
    _readjudicate(info, rules, records, report)
    _check_snapshots(store, info, rules, records, report)
    return report


def _readjudicate(info: GameInfo, rules: Ruleset, records: list[StoredRecord], report: VerifyReport) -> None:
    state = rules.initial_state()
    by_cause: dict[int, list[StoredRecord]] = {}
    for r in records:
        if r.kind is RecordKind.EVENT:
            by_cause.setdefault(r.cause_seq or 0, []).append(r)
    orders = {r.seq for r in records if r.kind is RecordKind.COMMAND}
    for r in records:
        if r.kind not in (RecordKind.COMMAND, RecordKind.REJECTION):
            if r.kind is RecordKind.EVENT and r.cause_seq not in orders:
                report.problems.append(Problem(r.seq, "readjudication", "event without a recorded order"))
                return
            continue
        report.commands += 1
        forged = _unseeded_draw(info, r)
        if forged is not None:
            report.problems.append(Problem(r.seq, "dice", forged))
            return
        dice = RecordedDice([Draw.from_data(d) for d in r.draws])
        try:
            produced = _redecide(rules, state, r, dice)
        except RuleViolation as violation:
            if r.kind is RecordKind.REJECTION and violation.rule == r.payload.get("rule"):
                continue
            report.problems.append(Problem(r.seq, "readjudication", f"the order is now refused: {violation}"))
            return
        except Exception as exc:  # a corrupt payload must be reported, not crash the audit
            report.problems.append(Problem(r.seq, "readjudication", f"cannot re-decide: {exc}"))
            return
        if r.kind is RecordKind.REJECTION:
            report.problems.append(Problem(r.seq, "readjudication", "a refused order is now accepted"))
            return
        recorded = by_cause.get(r.seq, [])
        want = [(e.type, e.payload, e.audience) for e in recorded]
        got = []
        for e in produced:
            a = rules.event_audience(e)
            got.append((rules.event_type_name(e), rules.event_to_data(e), (str(a.kind), tuple(sorted(a.seats)))))
        if got != want:
            at = next(
                (w_seq for w_seq, w, g in zip((e.seq for e in recorded), want, got, strict=False) if w != g),
                recorded[len(got)].seq if len(recorded) > len(got) else r.seq,
            )
            report.problems.append(
                Problem(at, "readjudication", f"re-deciding order {r.seq} ({r.type}) gives different events")
            )
            return
        if dice.unused:
            report.problems.append(Problem(r.seq, "readjudication", f"{dice.unused} recorded draw(s) unused"))
            return
        state = rules.fold(state, produced)


def _redecide(rules: Ruleset, state: Any, r: StoredRecord, dice: Dice) -> tuple[Event, ...]:
    if r.type == SETUP:
        seats = tuple(SeatInfo(int(s["number"]), str(s["name"])) for s in r.payload["seats"])
        return rules.setup(rules.parse_settings(r.payload["settings"]), seats, dice)
    order = r.payload.get("order", r.type) if r.kind is RecordKind.REJECTION else r.type
    data = r.payload if r.kind is RecordKind.COMMAND else r.payload.get("command", None)
    if data is None:  # refusals without the stamped order cannot be re-decided; trust the record
        raise RuleViolation(r.payload.get("rule", ""), r.payload.get("message", ""))
    command = rules.command_from_data(order, data)
    return rules.decide(state, command, dice)


def _check_snapshots(
    store: EventStore, info: GameInfo, rules: Ruleset, records: list[StoredRecord], report: VerifyReport
) -> None:
    for snap in store.snapshots(info.id):
        if snap.ruleset_version != rules.version:
            continue
        if digest(snap.state) != snap.state_hash:
            report.problems.append(Problem(snap.seq, "snapshot", "snapshot content does not match its hash"))
            continue
        try:
            truth = rules.state_to_data(
                rules.fold(rules.initial_state(), events_of(rules, [r for r in records if r.seq <= snap.seq]))
            )
        except Exception as exc:
            report.problems.append(Problem(snap.seq, "snapshot", f"cannot fold the log: {exc}"))
            continue
        if digest(truth) != snap.state_hash:
            report.problems.append(Problem(snap.seq, "snapshot", "snapshot differs from the fold of the log"))


def _unseeded_draw(info: GameInfo, record: StoredRecord) -> str | None:
    """Why a recorded draw is not the one the game's seed gives (``games.dice``' recipe:
    draw ``i`` of the order at ``seq``), or None. Without this a forger who rewrites a draw,
    the events it decided and every hash after them re-adjudicates cleanly."""
    for i, data in enumerate(record.draws):
        try:
            draw = Draw.from_data(data)
            expected = seeded_value(info.seed, info.id, record.seq, i, draw.low, draw.high)
        except Exception as exc:  # a mangled draw is a finding, not a crash of the audit
            return f"draw {i} cannot be recomputed from the seed: {exc}"
        if draw.value != expected:
            return (
                f"draw {i} ({draw.purpose!r} {draw.low}..{draw.high}) is recorded as {draw.value}; "
                f"the game's seed gives {expected}"
            )
    return None
