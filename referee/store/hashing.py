"""Canonical JSON and the hash chain. One definition (``games.record.hashing``, where the
offline verifier finds it without Django), used by every store and by verify."""

from games.record.hashing import (
    GENESIS,
    canonical,
    chain_hash,
    digest,
    hash_body,
    record_hash,
    v2_body_json,
)

__all__ = ["GENESIS", "canonical", "chain_hash", "digest", "hash_body", "record_hash", "v2_body_json"]
