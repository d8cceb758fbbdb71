"""Canonical JSON and the hash chain: the one recipe, used by the referee's stores, its
audit and the offline verifier (which needs nothing but ``games/``).

A record's hash is SHA-256 over its predecessor's hash (``GENESIS`` for the first) followed
by the canonical JSON (sorted keys, no spaces, UTF-8) of its hash body. Version 1 records
(written before audiences were sets of seats) keep their original body forever; version 2
bodies name the record version and a sorted list of seats.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def record_hash(prev_hash: str, body: dict[str, Any]) -> str:
    """The hash of one record: its predecessor's hash and every field that matters."""
    return hashlib.sha256((prev_hash + canonical(body)).encode()).hexdigest()


def hash_body(
    *, record_version: int, game: str, seq: int, kind: str, type: str, schema_version: int,
    payload: Mapping[str, Any], audience_kind: str, audience_seat: int | None, audience_seats: Sequence[int],
    actor_kind: str, actor_seat: int | None, idempotency_key: str | None, cause_seq: int | None,
    draws: Sequence[Mapping[str, Any]], created_at: str,
) -> dict[str, Any]:
    """Every field of a record that its hash covers, in the shape of its record version
    (``created_at`` as an ISO 8601 string)."""
    body: dict[str, Any] = {
        "game": game, "seq": seq, "kind": kind, "type": type, "schema_version": schema_version,
        "payload": payload, "actor": [actor_kind, actor_seat], "idempotency_key": idempotency_key,
        "cause_seq": cause_seq, "draws": list(draws), "created_at": created_at,
    }
    if record_version >= 2:
        body["record_version"] = record_version
        body["audience"] = [audience_kind, list(audience_seats)]
    else:
        body["audience"] = [audience_kind, audience_seat]
    return body
