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
from collections.abc import Callable, Mapping, Sequence
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

GENESIS = "0" * 64


def compact_encoder(*, sort_keys: bool, ensure_ascii: bool) -> Callable[[Any], str]:
    """``json.dumps(value, separators=(",", ":"), sort_keys=..., ensure_ascii=...)``, the
    same text, with the C encoder built once: ``json.dumps`` builds an encoder object and
    its C scanner on every call, which cost as much as encoding a record's small body (and
    every append encodes several). No circular-reference check: log data are trees."""
    options: dict[str, Any] = {"sort_keys": sort_keys, "ensure_ascii": ensure_ascii, "separators": (",", ":")}
    if c_make_encoder is None:  # an interpreter without json's C accelerator
        return lambda value: json.dumps(value, **options)
    make = c_make_encoder(None, json.JSONEncoder().default,
                          encode_basestring_ascii if ensure_ascii else encode_basestring,
                          None, ":", ",", sort_keys, False, True)
    join = "".join
    return lambda value: join(make(value, 0))


#: The canonical JSON of a value: sorted keys, no spaces, non-ASCII as is.
canonical: Callable[[Any], str] = compact_encoder(sort_keys=True, ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def record_hash(prev_hash: str, body: dict[str, Any]) -> str:
    """The hash of one record: its predecessor's hash and every field that matters."""
    return hashlib.sha256((prev_hash + canonical(body)).encode()).hexdigest()


def chain_hash(prev_hash: str, body_json: str) -> str:
    """``record_hash`` of a body already written as canonical JSON (``v2_body_json``)."""
    return hashlib.sha256((prev_hash + body_json).encode()).hexdigest()


def v2_body_json(
    *, game: str, seq: int, kind: str, type: str, schema_version: int, payload: Mapping[str, Any],
    audience_kind: str, audience_seats: Sequence[int], actor_kind: str, actor_seat: int | None,
    idempotency_key: str | None, cause_seq: int | None, draws: Sequence[Mapping[str, Any]], created_at: str,
) -> str:
    """``canonical(hash_body(record_version=2, ...))``, the same text, written into its
    fixed frame (keys in sorted order) with only the payload and the draws encoded as
    values: building the body and sorting its keys cost more than hashing it, on every
    append. Fields of any but the plain types (a bool for an int, a str subclass) take
    the general path, whose text this must equal."""
    if not (seq.__class__ is int and schema_version.__class__ is int and type.__class__ is str
            and kind.__class__ is str and audience_kind.__class__ is str and actor_kind.__class__ is str
            and game.__class__ is str and created_at.__class__ is str
            and (actor_seat is None or actor_seat.__class__ is int)
            and (cause_seq is None or cause_seq.__class__ is int)
            and (idempotency_key is None or idempotency_key.__class__ is str)
            and all(s.__class__ is int for s in audience_seats)):
        return canonical(hash_body(
            record_version=2, game=game, seq=seq, kind=kind, type=type, schema_version=schema_version,
            payload=payload, audience_kind=audience_kind, audience_seat=None, audience_seats=audience_seats,
            actor_kind=actor_kind, actor_seat=actor_seat, idempotency_key=idempotency_key, cause_seq=cause_seq,
            draws=draws, created_at=created_at,
        ))
    text = encode_basestring
    return (
        f'{{"actor":[{text(actor_kind)},{"null" if actor_seat is None else actor_seat}],'
        f'"audience":[{text(audience_kind)},[{",".join([str(s) for s in audience_seats])}]],'
        f'"cause_seq":{"null" if cause_seq is None else cause_seq},"created_at":{text(created_at)},'
        f'"draws":{canonical(list(draws)) if draws else "[]"},"game":{text(game)},'
        f'"idempotency_key":{"null" if idempotency_key is None else text(idempotency_key)},"kind":{text(kind)},'
        f'"payload":{canonical(payload)},"record_version":2,"schema_version":{schema_version},"seq":{seq},'
        f'"type":{text(type)}}}'
    )


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
