"""The fast readers behind ``games.serialization.from_data`` (replay decodes tens
of thousands of events).

One per type, ``reader(data) -> value``: no paths, no messages. A reader returns exactly
what the checking reader (``games.checking_readers``) would, or raises (anything; ``_Miss``
where the data does not fit); ``from_data`` then runs the checking reader, whose result or
DataError is the answer. Readers take only the common shapes (a dict, a list, a plain int
...): the rest, such as a subclass of int, is left to the checking reader, which is never
wrong, only slower.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union, get_args, get_origin

from games.checking_readers import _PRIMITIVES, DataError, _decoder

FastReader = Callable[[Any], Any]


class _Miss(Exception):
    """Data a fast reader does not take; the checking reader decides what it is."""


FAST: dict[Any, FastReader] = {}
_INLINE_CHECKS = {int: "int", str: "str", bool: "bool"}  # types checked by their exact class


def fast_reader(cls: Any) -> FastReader:
    """The fast reader of ``cls``, built once per type."""
    reader = FAST.get(cls)
    if reader is None:
        try:
            reader = _build_fast(cls)
        except Exception:  # a type the checking reader refuses, or hints that do not resolve yet
            return _miss
        FAST[cls] = reader
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
            item = fast_reader(args[0])
            return lambda data: tuple([item(v) for v in _list(data)])
        items = [fast_reader(a) for a in args]

        def fixed(data: Any) -> Any:
            if len(_list(data)) != len(items):
                raise _Miss
            return tuple([read(v) for read, v in zip(items, data, strict=True)])

        return fixed
    if origin is frozenset:
        element = fast_reader(get_args(cls)[0])
        return lambda data: frozenset([element(v) for v in _list(data)])
    if origin in (dict, Mapping) or cls is dict:
        key_cls, value_cls = get_args(cls) or (str, Any)
        key, value = fast_reader(key_cls), fast_reader(value_cls)

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
    pairs = [(fast_reader(o), _decoder(o)) for o in options if o is not type(None)]

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
    if _plain_init(cls, fields):
        # Fill the instance's attributes as its __init__ would, without the call: a frozen
        # dataclass's __init__ sets each field through object.__setattr__, which cost as
        # much as the rest of reading a small event (a replay reads tens of thousands).
        names = {f.name: f"v{required.index(f)}" if f in required else f"o{optional.index(f)}" for f in fields}
        for j, f in enumerate(optional):
            ns[f"_d{j}"] = f.default
            lines.append(f"    if {f.name!r} in data:")
            lines.append(f"        o{j} = data[{f.name!r}]")
            lines += _field_code(f"o{j}", hints[f.name], parts, "        ")
            lines.append("    else:")
            lines.append(f"        o{j} = _d{j}")
        ns["_new"] = object.__new__
        lines.append("    o = _new(_cls)")
        lines.append(f"    o.__dict__.update({{{', '.join(f'{n!r}: {v}' for n, v in names.items())}}})")
        lines.append("    return o")
        optional = []
    elif optional:
        lines.append("    kw = {}")
        for j, f in enumerate(optional):
            v = f"o{j}"
            lines.append(f"    if {f.name!r} in data:")
            lines.append(f"        {v} = data[{f.name!r}]")
            lines += _field_code(v, hints[f.name], parts, "        ")
            lines.append(f"        kw[{f.name!r}] = {v}")
        args.append("**kw")
    if lines[-1] != "    return o":
        lines.append(f"    return _cls({', '.join(args)})")
    exec("\n".join(lines), ns)  # noqa: S102 (code built above from the dataclass's own field names)
    reader: FastReader = ns["read"]
    FAST[cls] = reader  # before its parts: dataclasses may refer to each other
    for name, part in parts.items():
        ns[name] = fast_reader(part)
    return reader


def _plain_init(cls: type, fields: list[dataclasses.Field[Any]]) -> bool:
    """Whether ``cls``'s ``__init__`` is the one ``dataclass`` wrote and does nothing but set
    every field, from its argument or a plain default: no ``__post_init__``, no ``InitVar``,
    no field left out of ``__init__`` or made by a factory, no slots, no ``__new__``."""
    init = cls.__dict__.get("__init__")
    return (
        init is not None and getattr(getattr(init, "__code__", None), "co_filename", "") == "<string>"
        and not hasattr(cls, "__post_init__") and cls.__new__ is object.__new__
        and all(f.init and f.default_factory is dataclasses.MISSING for f in fields)
        and len(fields) == len(dataclasses.fields(cls))
        and not any(getattr(f, "_field_type", None) is dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
                    for f in cls.__dataclass_fields__.values())  # type: ignore[attr-defined]
        and not any("__slots__" in k.__dict__ for k in cls.__mro__[:-1])
    )


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

