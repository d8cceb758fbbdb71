"""The checking reader behind ``games.serialization.from_data``: JSON data read as a value of
a declared type, strictly, with a ``DataError`` that names the path of what does not fit.
Compiled once per type; ``games.fast_readers`` is the fast path in front of it."""

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


Decoder = Any  # Callable[[Any, str], Any]


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


@cache
def _decoder(cls: Any) -> Decoder:
    """A reader compiled once per type: replay decodes thousands of events of a few types."""
    origin = get_origin(cls)
    if cls is Any:
        return lambda data, path: data
    if origin in (Union, types.UnionType):
        return _union_decoder(get_args(cls))
    if origin is Literal:
        allowed = get_args(cls)

        def literal(data: Any, path: str) -> Any:
            if data not in allowed:
                raise DataError(path, f"expected one of {allowed}, got {data!r}")
            return data

        return literal
    if origin is tuple:
        return _tuple_decoder(get_args(cls))
    if origin is frozenset:
        item = _decoder(get_args(cls)[0])

        def frozen(data: Any, path: str) -> Any:
            if not isinstance(data, (list, tuple)):
                raise DataError(path, f"expected a list, got {type(data).__name__}")
            return frozenset(item(v, f"{path}[]") for v in data)

        return frozen
    if origin in (dict, Mapping) or cls is dict:
        key_cls, value_cls = get_args(cls) or (str, Any)
        key, value = _decoder(key_cls), _decoder(value_cls)

        def mapping(data: Any, path: str) -> Any:
            if not isinstance(data, Mapping):
                raise DataError(path, f"expected an object, got {type(data).__name__}")
            return {key(k, path): value(v, f"{path}.{k}") for k, v in data.items()}

        return mapping
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        return _dataclass_decoder(cls)
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return _enum_decoder(cls)
    if cls in _PRIMITIVES:
        return _PRIMITIVES[cls]
    raise DataError("", f"cannot read values of type {cls!r}")


def _union_decoder(options: tuple[Any, ...]) -> Decoder:
    optional = type(None) in options
    decoders = [_decoder(o) for o in options if o is not type(None)]

    def union(data: Any, path: str) -> Any:
        if data is None and optional:
            return None
        errors = []
        for decode in decoders:
            try:
                return decode(data, path)
            except DataError as exc:
                errors.append(exc.message)
        raise DataError(path, "; ".join(errors) or "no option fits")

    return union


def _tuple_decoder(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def homogeneous(data: Any, path: str) -> Any:
            if not isinstance(data, (list, tuple)):
                raise DataError(path, f"expected a list, got {type(data).__name__}")
            return tuple(item(v, f"{path}[{i}]") for i, v in enumerate(data))

        return homogeneous
    items = [_decoder(a) for a in args]

    def fixed(data: Any, path: str) -> Any:
        if not isinstance(data, (list, tuple)):
            raise DataError(path, f"expected a list, got {type(data).__name__}")
        if len(items) != len(data):
            raise DataError(path, f"expected {len(items)} items, got {len(data)}")
        return tuple(d(v, f"{path}[{i}]") for i, (d, v) in enumerate(zip(items, data, strict=True)))

    return fixed


def _dataclass_decoder(cls: type) -> Decoder:
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    names = frozenset(f.name for f in fields)
    required = [
        f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    decoders: dict[str, Decoder] = {}

    def record(data: Any, path: str) -> Any:
        if not isinstance(data, Mapping):
            raise DataError(path, f"expected an object for {cls.__name__}, got {type(data).__name__}")
        if not decoders:  # filled lazily: dataclasses may refer to each other
            decoders.update({f.name: _decoder(hints[f.name]) for f in fields})
        if not names.issuperset(data):
            unknown = sorted(set(data) - names)
            raise DataError(path, f"unknown field(s) {', '.join(unknown)} for {cls.__name__}")
        for name in required:
            if name not in data:
                raise DataError(_join(path, name), "is required")
        return cls(**{k: decoders[k](v, _join(path, k)) for k, v in data.items()})

    return record


def _enum_decoder(cls: type[enum.Enum]) -> Decoder:
    def member(data: Any, path: str) -> Any:
        try:
            return cls(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in cls)
            raise DataError(path, f"expected one of {allowed}, got {data!r}") from None

    return member


def _bool(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise DataError(path, f"expected true or false, got {data!r}")
    return data


def _int(data: Any, path: str) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise DataError(path, f"expected a whole number, got {data!r}")
    return data


def _float(data: Any, path: str) -> float:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise DataError(path, f"expected a number, got {data!r}")
    return float(data)


def _str(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise DataError(path, f"expected text, got {data!r}")
    return data


def _none(data: Any, path: str) -> None:
    if data is not None:
        raise DataError(path, f"expected null, got {data!r}")
    return None


_PRIMITIVES: dict[Any, Decoder] = {bool: _bool, int: _int, float: _float, str: _str, type(None): _none}
