"""Frozen dataclasses <-> plain JSON data, driven by type hints.

Rulesets declare states, commands and events as frozen dataclasses with tuple fields;
this module turns them into dicts/lists/str/int for the log and back, strictly: a missing
field, an unknown field or a value of the wrong type raises ``DataError`` naming the path.
Reading is a fast reader (``games.fast_readers``) in front of the checking reader
(``games.checking_readers``), which has the last word.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any

from games.checking_readers import DataError, _decoder
from games.fast_readers import FAST as _FAST
from games.fast_readers import fast_reader as _fast

__all__ = ["DataError", "from_data", "reader", "to_data"]


#: Each class's dataclass field names (None: not a dataclass instance's class), found once:
#: ``dataclasses.fields`` and ``is_dataclass`` on every value cost more than the rest of
#: ``to_data`` (a deadline job writes its command and events through it several times).
_FIELDS: dict[type, tuple[str, ...] | None] = {}
_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_data(value: Any) -> Any:
    cls = value.__class__
    if cls in _PLAIN:
        return value
    names = _FIELDS.get(cls, ())
    if names == ():
        names = _FIELDS[cls] = (tuple(f.name for f in dataclasses.fields(value))
                                if dataclasses.is_dataclass(value) and not isinstance(value, type) else None)
    if names is not None:
        return {name: to_data(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [to_data(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(to_data(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


def from_data(cls: Any, data: Any, path: str = "") -> Any:
    """Read ``data`` as a value of type ``cls``; raises ``DataError`` naming the path.

    Data that fits goes through a fast reader that builds no paths or messages (replay
    decodes tens of thousands of events); anything it does not take, or that fails in it
    however, is read again by the checking reader, which raises what it always raised."""
    fast = _FAST.get(cls)
    if fast is None:
        fast = _fast(cls)
    try:
        return fast(data)
    except Exception:
        return _decoder(cls)(data, path)


def reader(cls: Any) -> Callable[[Any], Any]:
    """``from_data(cls, data)`` as a function of ``data``, with the type's readers looked up
    once: for reading many values of one type (a replay's events)."""
    fast = _FAST.get(cls) or _fast(cls)
    checking = _decoder(cls)

    def read(data: Any) -> Any:
        try:
            return fast(data)
        except Exception:
            return checking(data, "")

    return read
