"""The game record (the rulebook's ``.tak`` file): one portable file per game, and its
offline check. Django-free: the download view writes it from the store's records, the
``replay_record`` command reads it back into an in-memory store and lets
``referee.core.Referee`` verify it (format in docs/notation-lggwg.md, "The game record").

A file is JSON Lines in UTF-8: a header line, then one line per record.

* A **complete** record (a finished game whose log is public, or a moderator's download)
  holds every record with every hashed field, its ``prev_hash`` and ``hash``, and the
  game's seed: anyone can recompute the hash chain, every die from the seed, and every
  ruling by re-adjudication.
* A **public** record (a game in play) holds the public log only, as the public feed
  numbers and redacts it: no seed, no hashes (a redacted record's hash could not be
  recomputed, and the real sequence numbers would tell how many secret records lie
  between), so it can be read but not verified until the game ends.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import Registry
from referee.core import Referee, VerifyReport
from referee.store.base import GameInfo, RecordKind, StoredRecord
from referee.store.memory import InMemoryEventStore

FORMAT = "lggwg-record"
VERSION = 1


class RecordFileError(ValueError):
    """The file is not a game record this program can read (line number and reason)."""


@dataclass(frozen=True)
class GameRecord:
    header: dict[str, Any]
    #: complete: full stored records; public: the public feed's items
    records: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    @property
    def complete(self) -> bool:
        return bool(self.header.get("complete"))

    @property
    def game(self) -> dict[str, Any]:
        return dict(self.header.get("game") or {})


# --- writing ---------------------------------------------------------------------------------


def record_line(r: StoredRecord) -> dict[str, Any]:
    """Every field the hash covers (both record versions), plus the chain."""
    return {
        "seq": r.seq, "kind": str(r.kind), "type": r.type, "schema_version": r.schema_version,
        "payload": r.payload, "record_version": r.record_version,
        "audience": [r.audience_kind, list(r.audience_seats)], "audience_seat": r.audience_seat,
        "actor": [r.actor_kind, r.actor_seat], "idempotency_key": r.idempotency_key, "cause_seq": r.cause_seq,
        "draws": list(r.draws), "created_at": r.created_at.isoformat(), "prev_hash": r.prev_hash, "hash": r.hash,
    }


def header(
    *, info: GameInfo, name: str, seats: Sequence[Mapping[str, Any]], complete: bool, records: int,
    extra: Mapping[str, Any] | None = None, head: str | None = None,
) -> dict[str, Any]:
    game: dict[str, Any] = {
        "id": info.id, "name": name, "ruleset": info.ruleset, "ruleset_version": info.ruleset_version,
        "settings": info.settings, "status": info.status, "private_log": info.private_log,
        "seed": info.seed if complete else None, **dict(extra or {}),
    }
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "complete": complete, "game": game,
        "seats": [{"number": int(s["number"]), "name": str(s["name"])} for s in seats], "records": records,
    }
    if complete and head is not None:
        data["head"] = head
    return data


def dumps(head: Mapping[str, Any], lines: Iterable[Mapping[str, Any]]) -> str:
    """The file's text: one canonical JSON object a line (keys sorted, no spaces)."""
    return "".join(json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                   for x in (head, *lines))


def complete_file(info: GameInfo, name: str, seats: Sequence[Mapping[str, Any]], records: Sequence[StoredRecord],
                  extra: Mapping[str, Any] | None = None) -> str:
    head = header(info=info, name=name, seats=seats, complete=True, records=len(records), extra=extra,
                  head=records[-1].hash if records else None)
    return dumps(head, (record_line(r) for r in records))


def public_file(info: GameInfo, name: str, seats: Sequence[Mapping[str, Any]], items: Sequence[Mapping[str, Any]],
                extra: Mapping[str, Any] | None = None) -> str:
    head = header(info=info, name=name, seats=seats, complete=False, records=len(items), extra=extra)
    return dumps(head, items)


# --- reading ---------------------------------------------------------------------------------


def loads(text: str) -> GameRecord:
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise RecordFileError("line 1: the file is empty")
    parsed: list[dict[str, Any]] = []
    for n, line in lines:
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise RecordFileError(f"line {n}: not JSON ({exc})") from None
        if not isinstance(value, dict):
            raise RecordFileError(f"line {n}: a line must be a JSON object")
        parsed.append(value)
    head = parsed[0]
    if head.get("format") != FORMAT:
        raise RecordFileError(f"line {lines[0][0]}: not an LGGWG game record (format {head.get('format')!r})")
    if head.get("version") != VERSION:
        raise RecordFileError(f"line {lines[0][0]}: record format version {head.get('version')!r}; "
                              f"this program reads version {VERSION}")
    if not isinstance(head.get("game"), dict) or not isinstance(head.get("seats"), list):
        raise RecordFileError(f"line {lines[0][0]}: the header needs 'game' and 'seats'")
    return GameRecord(head, tuple(parsed[1:]))


def stored(game_id: str, line: Mapping[str, Any]) -> StoredRecord:
    audience = line["audience"]
    actor = line["actor"]
    return StoredRecord(
        game_id=game_id, seq=int(line["seq"]), kind=RecordKind(line["kind"]), type=str(line["type"]),
        payload=line["payload"], audience_kind=str(audience[0]), audience_seat=line.get("audience_seat"),
        audience_seats=tuple(audience[1] or ()), record_version=int(line.get("record_version") or 1),
        actor_kind=str(actor[0]), actor_seat=actor[1], schema_version=int(line["schema_version"]),
        idempotency_key=line.get("idempotency_key"), cause_seq=line.get("cause_seq"),
        draws=tuple(line.get("draws") or ()), created_at=dt.datetime.fromisoformat(line["created_at"]),
        prev_hash=str(line["prev_hash"]), hash=str(line["hash"]),
    )


class RecordStore(InMemoryEventStore):
    """An in-memory store holding a record file's log exactly as written (hashes unchanged)."""

    def load_records(self, game_id: str, records: Sequence[StoredRecord]) -> None:
        self.get_game(game_id)
        self._logs[game_id] = list(records)


@dataclass
class Replay:
    """What replaying a complete record found."""

    referee: Referee
    game_id: str
    report: VerifyReport
    problems: list[str] = field(default_factory=list)  # "seq N: ..." lines, the report's and the file's

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(record: GameRecord, registry: Registry) -> Replay:
    """Load a complete record into an in-memory referee and verify it: the hash chain, every
    draw against the seed, every ruling by re-adjudication."""
    if not record.complete:
        raise RecordFileError("a public record (a game in play) holds no hashes or seed: it cannot be verified; "
                              "download the record again once the game is over")
    game = record.game
    try:
        info = GameInfo(id=str(game["id"]), ruleset=str(game["ruleset"]),
                        ruleset_version=str(game["ruleset_version"]), settings=dict(game["settings"]),
                        seed=str(game["seed"]), status=str(game.get("status") or "active"),
                        private_log=bool(game.get("private_log")))
    except (KeyError, TypeError) as exc:
        raise RecordFileError(f"line 1: the header's game lacks {exc}") from None
    registry.get(info.ruleset, info.ruleset_version)  # an unknown ruleset fails here, plainly
    store = RecordStore()
    store.create_game(info)
    records: list[StoredRecord] = []
    problems: list[str] = []
    for n, line in enumerate(record.records, start=2):
        try:
            records.append(stored(info.id, line))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            problems.append(f"seq {line.get('seq', '?')}: line {n} cannot be read ({exc})")
            break
    store.load_records(info.id, records)
    referee = Referee(store, registry)
    report = referee.verify(info.id)
    problems += [str(p) for p in sorted(report.problems, key=lambda p: p.seq)]
    declared = record.header.get("records")
    if declared is not None and declared != len(record.records):
        problems.append(f"seq {len(record.records)}: the header promises {declared} records, the file holds "
                        f"{len(record.records)}")
    head = record.header.get("head")
    if head is not None and records and records[-1].hash != head:
        problems.append(f"seq {records[-1].seq}: the last record's hash is not the header's head")
    return Replay(referee, info.id, report, problems)
