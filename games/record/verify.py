"""The offline check of a whole record: chain, dice, re-adjudication.

1. The chain: records numbered 1, 2, 3 ... without gaps, each pointing at its
   predecessor's hash, each hash recomputed from the record's fields
   (``games.record.hashing``).
2. The dice: the revealed seed matches the commitment published when the game was created,
   and every recorded draw is the one the seed gives at its place (``games.dice``' recipe).
3. Re-adjudication: every order is decided again by the ruleset on the position the
   recorded events before it make, with its recorded draws (``RecordedDice``); it must
   give exactly the recorded events, audiences included, and use every draw. A recorded
   refusal must still be refused for the same clause.

The first disagreement is reported with its step (the record's seq).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import Registry, RuleViolation, SeatInfo
from games.dice import Draw, RecordedDice, seed_commitment, seeded_value
from games.record import FORMAT, FORMAT_VERSION, SETUP
from games.record.hashing import GENESIS, hash_body, record_hash

ORDER_KINDS = ("command", "rejection")
FIELDS = ("seq", "kind", "type", "schema_version", "payload", "audience", "actor", "idempotency_key",
          "cause_seq", "draws", "created_at", "record_version", "prev_hash", "hash")


class RecordFileError(ValueError):
    """The file is not a record this verifier can read (not JSON, another format, a field
    missing): nothing was checked."""


class PartialRecord(RecordFileError):
    """One viewer's record: it carries no hashes (they would reveal what it hides), so its
    chain and orders can be checked only on the whole record."""


@dataclass(frozen=True)
class Disagreement:
    step: int  # the record's seq (0: the file's header)
    check: str  # format | sequence | chain | hash | dice | readjudication | result
    message: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.check}: {self.message}"


@dataclass
class Report:
    records: int = 0
    orders: int = 0
    draws: int = 0  # recomputed from the seed
    problem: Disagreement | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.problem is None


def load(text: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordFileError(f"The file is not JSON: {exc}.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordFileError(f"The file is not a game record (its \"format\" is not {FORMAT!r}).")
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordFileError(f"Record format version {data.get('format_version')!r} is not {FORMAT_VERSION}.")
    for key in ("game", "dice", "view", "records"):
        if key not in data:
            raise RecordFileError(f"The record has no {key!r}.")
    return data


def record_body(game_id: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The fields one record's hash covers, read from its entry in a whole record."""
    missing = [f for f in FIELDS if f not in entry]
    if missing:
        raise RecordFileError(f"record {entry.get('seq', '?')} has no {', '.join(missing)}")
    version = int(entry["record_version"])
    audience_kind, seats = entry["audience"]
    actor_kind, actor_seat = entry["actor"]
    return hash_body(
        record_version=version, game=game_id, seq=entry["seq"], kind=entry["kind"], type=entry["type"],
        schema_version=entry["schema_version"], payload=entry["payload"], audience_kind=audience_kind,
        audience_seat=None if version >= 2 else seats, audience_seats=seats if version >= 2 else (),
        actor_kind=actor_kind, actor_seat=actor_seat, idempotency_key=entry["idempotency_key"],
        cause_seq=entry["cause_seq"], draws=entry["draws"], created_at=entry["created_at"],
    )


def audience_seats(entry: Mapping[str, Any]) -> tuple[str, tuple[int, ...]]:
    """A record's audience in version 2's words (a version-1 "seat" is a set of one)."""
    kind, seats = entry["audience"]
    if int(entry["record_version"]) >= 2:
        return kind, tuple(seats)
    if kind == "seat":
        return "seats", (() if seats is None else (seats,))
    return kind, ()


def verify_record(data: Mapping[str, Any], registry: Registry | None = None) -> Report:
    """Check a loaded whole record; the report names the first disagreement, if any."""
    view = data["view"]
    if not (isinstance(view, Mapping) and view.get("whole")):
        raise PartialRecord(
            "This is one viewer's record: it carries no hashes, so its chain and orders cannot be "
            "checked from it. Fetch the whole record (everyone may once the game's log is public)."
        )
    if registry is None:
        from games.registry import default_registry

        registry = default_registry()
    game, dice = data["game"], data["dice"]
    records: Sequence[Mapping[str, Any]] = data["records"]
    if not (isinstance(game, Mapping) and isinstance(dice, Mapping) and isinstance(records, list)
            and {"id", "ruleset", "ruleset_version"} <= set(game)):
        raise RecordFileError("The record's header is incomplete (game id, ruleset and version, dice, records).")
    report = Report(records=len(records))
    try:
        rules = registry.get(str(game["ruleset"]), str(game["ruleset_version"]))
    except RuleViolation as exc:
        report.problem = Disagreement(0, "format", exc.message)
        return report
    seed = dice.get("seed")
    if seed is not None and _commitment(seed) != dice.get("seed_commitment"):
        report.problem = Disagreement(0, "dice", "the revealed seed does not match the seed's commitment")
        return report
    if seed is None:
        report.notes.append("The seed is not revealed yet: draws were replayed as recorded, not recomputed.")
    report.problem = _chain(str(game["id"]), records) or _readjudicate(rules, game, seed, records, report)
    return report


def _commitment(seed: str) -> str | None:
    try:
        return seed_commitment(seed)
    except (TypeError, ValueError):
        return None


def _chain(game_id: str, records: Sequence[Mapping[str, Any]]) -> Disagreement | None:
    prev = GENESIS
    for i, entry in enumerate(records, start=1):
        seq = entry.get("seq") if isinstance(entry, Mapping) else None
        if seq != i:
            return Disagreement(i, "sequence", f"record {i} of the file is numbered {seq!r}")
        if entry.get("prev_hash") != prev:
            return Disagreement(i, "chain", "it does not point at its predecessor's hash")
        try:
            body = record_body(game_id, entry)
        except (RecordFileError, TypeError, ValueError) as exc:
            return Disagreement(i, "format", str(exc))
        if record_hash(prev, body) != entry["hash"]:
            return Disagreement(i, "hash", "its content does not match its hash")
        prev = entry["hash"]
    return None


def _readjudicate(
    rules: Any, game: Mapping[str, Any], seed: str | None, records: Sequence[Mapping[str, Any]], report: Report,
) -> Disagreement | None:
    state = rules.initial_state()
    caused: dict[int, list[Mapping[str, Any]]] = {}
    orders = {r["seq"] for r in records if r["kind"] == "command"}
    for r in records:
        if r["kind"] == "event":
            if r["cause_seq"] not in orders:
                return Disagreement(r["seq"], "readjudication", "an event without a recorded order")
            caused.setdefault(r["cause_seq"], []).append(r)
    for r in records:
        if r["kind"] not in ORDER_KINDS:
            continue
        report.orders += 1
        seq = r["seq"]
        try:
            draws = [Draw.from_data(d) for d in r["draws"]]
        except (KeyError, TypeError, ValueError) as exc:
            return Disagreement(seq, "dice", f"a draw cannot be read: {exc}")
        if seed is not None:
            for i, draw in enumerate(draws):
                expected = seeded_value(seed, str(game["id"]), seq, i, draw.low, draw.high)
                report.draws += 1
                if draw.value != expected:
                    return Disagreement(seq, "dice", f"draw {i} ({draw.purpose!r} {draw.low}..{draw.high}) is "
                                                     f"recorded as {draw.value}; the seed gives {expected}")
        dice = RecordedDice(draws)
        try:
            produced = _redecide(rules, state, r, dice)
        except RuleViolation as violation:
            if r["kind"] == "rejection" and violation.rule == r["payload"].get("rule"):
                continue
            return Disagreement(seq, "readjudication", f"the order ({r['type']}) is now refused: {violation}")
        except Exception as exc:  # a mangled order is a finding of the check, not a crash of it
            return Disagreement(seq, "readjudication", f"the order ({r['type']}) cannot be decided again: {exc}")
        if r["kind"] == "rejection":
            return Disagreement(seq, "readjudication", f"the refused order ({r['payload'].get('order')}) is "
                                                       "now accepted")
        recorded = caused.get(seq, [])
        got = [(rules.event_type_name(e), rules.event_to_data(e), _audience(rules, e)) for e in produced]
        for i, want in enumerate(recorded):
            if i >= len(got):
                return Disagreement(want["seq"], "readjudication",
                                    f"order {seq} ({r['type']}) decided again gives no event {want['type']}")
            if got[i] != (want["type"], want["payload"], audience_seats(want)):
                return Disagreement(want["seq"], "readjudication",
                                    f"order {seq} ({r['type']}) decided again gives {got[i][0]} {got[i][1]} "
                                    f"for {got[i][2]}, not the recorded {want['type']} {want['payload']}")
        if len(got) > len(recorded):
            return Disagreement(seq, "readjudication",
                                f"order {seq} ({r['type']}) decided again gives {len(got) - len(recorded)} more "
                                f"event(s), the first {got[len(recorded)][0]}")
        if dice.unused:
            return Disagreement(seq, "readjudication", f"{dice.unused} recorded draw(s) were not used")
        state = rules.fold(state, produced)
    if game.get("status") == "finished" and not rules.is_finished(state):
        return Disagreement(len(records), "result", "the record says the game is over; its orders do not end it")
    return None


def _audience(rules: Any, event: Any) -> tuple[str, tuple[int, ...]]:
    a = rules.event_audience(event)
    return str(a.kind), tuple(sorted(a.seats))


def _redecide(rules: Any, state: Any, r: Mapping[str, Any], dice: RecordedDice) -> tuple[Any, ...]:
    payload = r["payload"]
    if r["type"] == SETUP:
        seats = tuple(SeatInfo(int(s["number"]), str(s["name"])) for s in payload["seats"])
        return rules.setup(rules.parse_settings(payload["settings"]), seats, dice)
    if r["kind"] == "rejection":
        if payload.get("command") is None:  # a compact refusal keeps no order to decide again
            raise RuleViolation(payload.get("rule", ""), payload.get("message", ""))
        return rules.decide(state, rules.command_from_data(payload.get("order", r["type"]), payload["command"]), dice)
    return rules.decide(state, rules.command_from_data(r["type"], payload), dice)
