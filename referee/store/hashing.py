"""Canonical JSON and the hash chain. One definition, used by every store and by verify."""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def record_hash(prev_hash: str, body: dict[str, Any]) -> str:
    """The hash of one record: its predecessor's hash and every field that matters."""
    return hashlib.sha256((prev_hash + canonical(body)).encode()).hexdigest()
