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
from collections.abc import Callable, Mapping
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


# --- the fast readers -----------------------------------------------------------------------
#
# One per type, ``reader(data) -> value``: no paths, no messages. A reader returns exactly
# what the checking reader would, or raises (anything; ``_Miss`` where the data does not
# fit); ``from_data`` then runs the checking reader, whose result or DataError is the answer.
# Readers take only the common shapes (a dict, a list, a plain int ...): the rest, such as
# a subclass of int, is left to the checking reader, which is never wrong, only slower.

FastReader = Callable[[Any], Any]


class _Miss(Exception):
    """Data a fast reader does not take; the checking reader decides what it is."""


_FAST: dict[Any, FastReader] = {}
_INLINE_CHECKS = {int: "int", str: "str", bool: "bool"}  # types checked by their exact class


def _fast(cls: Any) -> FastReader:
    """The fast reader of ``cls``, built once per type."""
    reader = _FAST.get(cls)
    if reader is None:
        try:
            reader = _build_fast(cls)
        except Exception:  # a type the checking reader refuses, or hints that do not resolve yet
            return _miss
        _FAST[cls] = reader
    return reader


def _miss(data: Any) -> Any:
    raise _Miss


def _build_fast(cls: Any) -> FastReader:
    origin = get_origin(cls)
    if cls is Any:
        return _same
    if origin in (Union, types.UnionType):
        return _fast_union(get_args(cls))
    if origin is Literal:
        allowed = get_args(cls)

        def literal(data: Any) -> Any:
            if data not in allowed:
                raise _Miss
            return data

        return literal
    if origin is tuple:
        args = get_args(cls)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _fast(args[0])
            return lambda data: tuple([item(v) for v in _list(data)])
        items = [_fast(a) for a in args]

        def fixed(data: Any) -> Any:
            if len(_list(data)) != len(items):
                raise _Miss
            return tuple([read(v) for read, v in zip(items, data, strict=True)])

        return fixed
    if origin is frozenset:
        element = _fast(get_args(cls)[0])
        return lambda data: frozenset([element(v) for v in _list(data)])
    if origin in (dict, Mapping) or cls is dict:
        key_cls, value_cls = get_args(cls) or (str, Any)
        key, value = _fast(key_cls), _fast(value_cls)

        def mapping(data: Any) -> Any:
            if data.__class__ is not dict:
                raise _Miss
            return {key(k): value(v) for k, v in data.items()}

        return mapping
    if isinstance(cls, type) and dataclasses.is_dataclass(cls):
        return _fast_dataclass(cls)
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return cls  # cls(value) is the checking reader's own call
    if cls in _PRIMITIVES:
        check = _PRIMITIVES[cls]
        return lambda data: check(data, "")
    raise _Miss


def _same(data: Any) -> Any:
    return data


def _list(data: Any) -> list[Any] | tuple[Any, ...]:
    if data.__class__ is not list and data.__class__ is not tuple:
        raise _Miss
    return data


def _fast_union(options: tuple[Any, ...]) -> FastReader:
    optional = type(None) in options
    pairs = [(_fast(o), _decoder(o)) for o in options if o is not type(None)]

    def union(data: Any) -> Any:
        if data is None and optional:
            return None
        for fast, checking in pairs:
            try:
                return fast(data)
            except Exception:
                # Whether the next option is tried is the checking reader's call (a fast
                # reader's miss is not always a misfit): the first option it takes wins.
                try:
                    return checking(data, "")
                except DataError:
                    continue
        raise _Miss

    return union


def _fast_dataclass(cls: type) -> FastReader:
    """A reader written out for ``cls``: fields of plain types are checked inline, and the
    unknown and missing fields by comparing the dict's keys with the fields' names."""
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    required = [f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    optional = [f for f in fields if f not in required]
    ns: dict[str, Any] = {"_Miss": _Miss, "_cls": cls, "_names": frozenset(f.name for f in fields),
                          "_required": frozenset(f.name for f in required)}
    parts: dict[str, Any] = {}  # name in the code -> type whose reader it calls, filled in below
    lines = ["def read(data):"]
    if optional:
        lines.append("    if data.__class__ is not dict or not data.keys() <= _names or not data.keys() >= _required:")
    else:
        lines.append("    if data.__class__ is not dict or data.keys() != _names:")
    lines.append("        raise _Miss")
    args = []
    for i, f in enumerate(required):
        lines.append(f"    v{i} = data[{f.name!r}]")
        lines += _field_code(f"v{i}", hints[f.name], parts, "    ")
        args.append(f"{f.name}=v{i}")
    if optional:
        lines.append("    kw = {}")
        for j, f in enumerate(optional):
            v = f"o{j}"
            lines.append(f"    if {f.name!r} in data:")
            lines.append(f"        {v} = data[{f.name!r}]")
            lines += _field_code(v, hints[f.name], parts, "        ")
            lines.append(f"        kw[{f.name!r}] = {v}")
        args.append("**kw")
    lines.append(f"    return _cls({', '.join(args)})")
    exec("\n".join(lines), ns)  # noqa: S102 (code built above from the dataclass's own field names)
    reader: FastReader = ns["read"]
    _FAST[cls] = reader  # before its parts: dataclasses may refer to each other
    for name, part in parts.items():
        ns[name] = _fast(part)
    return reader


def _field_code(v: str, hint: Any, parts: dict[str, Any], indent: str) -> list[str]:
    """Lines that check (and convert) the value in variable ``v`` in place, or raise."""
    args = get_args(hint)
    if hint is Any:
        return []
    if hint in _INLINE_CHECKS:
        return [f"{indent}if {v}.__class__ is not {_INLINE_CHECKS[hint]}:", f"{indent}    raise _Miss"]
    if get_origin(hint) in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        (other,) = [a for a in args if a is not type(None)]
        return [f"{indent}if {v} is not None:", *_field_code(v, other, parts, indent + "    ")] \
            if other in _INLINE_CHECKS else _call(v, hint, parts, indent)
    if get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] in _INLINE_CHECKS:
        return [f"{indent}if {v}.__class__ is not list and {v}.__class__ is not tuple:", f"{indent}    raise _Miss",
                f"{indent}for x in {v}:", f"{indent}    if x.__class__ is not {_INLINE_CHECKS[args[0]]}:",
                f"{indent}        raise _Miss", f"{indent}{v} = tuple({v})"]
    return _call(v, hint, parts, indent)


def _call(v: str, hint: Any, parts: dict[str, Any], indent: str) -> list[str]:
    name = f"_r{len(parts)}"
    parts[name] = hint
    return [f"{indent}{v} = {name}({v})"]

