"""JSON Schema (OpenAPI 3 flavour) of a ruleset's dataclasses, read from their type hints,
so the API documents every ruleset's orders without a hand-written word. It mirrors what
``games.serialization.from_data`` accepts: the same types, the same required fields."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union, get_args, get_origin

#: Fields the referee fills in itself; a client never sends them.
STAMPED = frozenset({"actor", "at_ms"})

Ref = Callable[[type], dict[str, Any]]


def dataclass_schema(cls: type, ref: Ref, *, skip: frozenset[str] = STAMPED) -> dict[str, Any]:
    """An object schema for ``cls``; nested dataclasses become ``ref(nested)``."""
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        if not f.init or f.name in skip:
            continue
        schema = type_schema(hints[f.name], ref)
        if f.default is not dataclasses.MISSING and _is_plain(f.default):
            schema = {**schema, "default": f.default.value if isinstance(f.default, enum.Enum) else f.default}
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
        props[f.name] = schema
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(f"{cls.__name__}("):  # not the dataclass's generated signature
        out["description"] = doc
    return out


def type_schema(tp: Any, ref: Ref) -> dict[str, Any]:
    origin = get_origin(tp)
    if tp is Any:
        return {}
    if origin in (Union, types.UnionType):
        options = [o for o in get_args(tp) if o is not type(None)]
        inner = type_schema(options[0], ref) if len(options) == 1 else {"anyOf": [type_schema(o, ref) for o in options]}
        return {**inner, "nullable": True} if type(None) in get_args(tp) else inner
    if origin is Literal:
        values = list(get_args(tp))
        return {"enum": values, **_primitive(type(values[0]))}
    if origin in (tuple, frozenset):
        args = get_args(tp)
        if origin is frozenset or (len(args) == 2 and args[1] is Ellipsis):
            return {"type": "array", "items": type_schema(args[0], ref)}
        return {"type": "array", "items": {"anyOf": [type_schema(a, ref) for a in args]} if len(set(args)) > 1
                else type_schema(args[0], ref), "minItems": len(args), "maxItems": len(args)}
    if origin in (dict, Mapping) or tp is dict:
        args = get_args(tp)
        return {"type": "object", "additionalProperties": type_schema(args[1], ref) if args else {}}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        return {"enum": values, **_primitive(type(values[0]))}
    if dataclasses.is_dataclass(tp):
        return ref(tp)
    return _primitive(tp)


def _primitive(tp: Any) -> dict[str, Any]:
    return {bool: {"type": "boolean"}, int: {"type": "integer"}, float: {"type": "number"},
            str: {"type": "string"}}.get(tp, {})


def _is_plain(value: Any) -> bool:
    """Whether a default can be written in the schema as it is (documentation only)."""
    return value is None or isinstance(value, (bool, int, float, str, enum.Enum))
