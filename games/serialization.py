"""Frozen dataclasses <-> plain JSON data, driven by type hints.

Rulesets declare states, commands and events as frozen dataclasses with tuple fields;
this module turns them into dicts/lists/str/int for the log and back, strictly: a missing
field, an unknown field or a value of the wrong type raises ``DataError`` naming the path.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin


class DataError(ValueError):
    """Data that does not fit the declared shape; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or 'top'}: {message}")
        self.path = path
        self.message = message


def to_data(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [to_data(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(to_data(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(cls: Any, data: Any, path: str = "") -> Any:
    origin = get_origin(cls)
    if cls is Any:
        return data
    if origin in (Union, types.UnionType):
        options = get_args(cls)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_data(option, data, path)
            except DataError as exc:
                errors.append(exc.message)
        raise DataError(path, "; ".join(errors) or "no option fits")
    if origin is Literal:
        if data not in get_args(cls):
            raise DataError(path, f"expected one of {get_args(cls)}, got {data!r}")
        return data
    if origin is tuple:
        args = get_args(cls)
        if not isinstance(data, (list, tuple)):
            raise DataError(path, f"expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise DataError(path, f"expected {len(args)} items, got {len(data)}")
        return tuple(from_data(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin is frozenset:
        if not isinstance(data, (list, tuple)):
            raise DataError(path, f"expected a list, got {type(data).__name__}")
        return frozenset(from_data(get_args(cls)[0], v, f"{path}[]") for v in data)
    if origin in (dict, Mapping) or cls is dict:
        if not isinstance(data, Mapping):
            raise DataError(path, f"expected an object, got {type(data).__name__}")
        args = get_args(cls) or (str, Any)
        return {from_data(args[0], k, path): from_data(args[1], v, f"{path}.{k}") for k, v in data.items()}
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        if not isinstance(data, Mapping):
            raise DataError(path, f"expected an object for {cls.__name__}, got {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        unknown = set(data) - set(fields)
        if unknown:
            raise DataError(path, f"unknown field(s) {', '.join(sorted(unknown))} for {cls.__name__}")
        hints = _hints(cls)
        kwargs = {}
        for name, f in fields.items():
            if name in data:
                kwargs[name] = from_data(hints[name], data[name], f"{path}.{name}" if path else name)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise DataError(f"{path}.{name}" if path else name, "is required")
        return cls(**kwargs)
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        try:
            return cls(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in cls)
            raise DataError(path, f"expected one of {allowed}, got {data!r}") from None
    if cls is bool:
        if not isinstance(data, bool):
            raise DataError(path, f"expected true or false, got {data!r}")
        return data
    if cls is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise DataError(path, f"expected a whole number, got {data!r}")
        return data
    if cls is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise DataError(path, f"expected a number, got {data!r}")
        return float(data)
    if cls is str:
        if not isinstance(data, str):
            raise DataError(path, f"expected text, got {data!r}")
        return data
    if cls is type(None):
        if data is not None:
            raise DataError(path, f"expected null, got {data!r}")
        return None
    raise DataError(path, f"cannot read values of type {cls!r}")
