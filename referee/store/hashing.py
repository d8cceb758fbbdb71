"""Canonical JSON and the hash chain. One definition (``games.record.hashing``, where the
offline verifier finds it without Django), used by every store and by verify."""

from games.record.hashing import GENESIS, canonical, digest, hash_body, record_hash

__all__ = ["GENESIS", "canonical", "digest", "hash_body", "record_hash"]
