"""One form per order type, generated from a ruleset's command dataclasses, and the way
back from a posted form to (command_type, payload).

Fields come from ``dataclasses.fields`` (``actor`` and ``at_ms`` are the referee's to
fill): a whole number is a number input, a yes/no a checkbox, text a text input, an enum
or a literal a select; anything else (tuples, nested dataclasses, mappings) a JSON
textarea. The referee checks the payload strictly (``games.serialization``), so this
module only turns form text into JSON values; it decides nothing."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from frontend_templates.generic_board import words
from games.base import Command, Ruleset

#: Filled by the referee, never by a form.
REFEREE_FIELDS = frozenset({"actor", "at_ms"})
#: Form fields are named ``field-<name>`` so a command field can never clash with ours.
PREFIX = "field-"


class OrderFormError(ValueError):
    """A posted form that does not make an order (a missing field, JSON that does not
    parse); shown to the player like a refusal, without a rule."""


@dataclass(frozen=True)
class FieldSpec:
    name: str
    label: str
    kind: Literal["number", "float", "checkbox", "text", "select", "json"]
    required: bool
    initial: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False  # may be left empty to mean "none"


@dataclass(frozen=True)
class OrderForm:
    type: str
    title: str
    help: str
    fields: tuple[FieldSpec, ...]


def order_forms(rules: Ruleset) -> list[OrderForm]:
    """A form for each order a player gives (not the referee's phases or a moderator's
    corrections: ``Command.given_by``)."""
    return [order_form(cls) for cls in rules.command_types if cls.given_by == "player"]


def order_form(cls: type[Command]) -> OrderForm:
    hints = typing.get_type_hints(cls)
    specs = tuple(_spec(f, hints[f.name]) for f in dataclasses.fields(cls) if f.init and f.name not in REFEREE_FIELDS)
    doc = (cls.__doc__ or "").strip()
    help_text = doc.split("\n\n")[0].replace("\n", " ") if doc and not doc.startswith(cls.__name__ + "(") else ""
    return OrderForm(cls.__name__, words(cls.__name__).capitalize(), help_text, specs)


def _spec(f: dataclasses.Field[Any], hint: Any) -> FieldSpec:
    has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    default = f.default if f.default is not dataclasses.MISSING else (
        f.default_factory() if f.default_factory is not dataclasses.MISSING else None
    )
    inner, optional = _unwrap_optional(hint)
    label = words(f.name).capitalize()
    required = not has_default
    if inner is bool:
        return FieldSpec(f.name, label, "checkbox", False, "on" if default else "")
    if inner is int:
        return FieldSpec(f.name, label, "number", required and not optional, _initial(default), optional=optional)
    if inner is float:
        return FieldSpec(f.name, label, "float", required and not optional, _initial(default), optional=optional)
    if inner is str:
        return FieldSpec(f.name, label, "text", required and not optional, _initial(default), optional=optional)
    if isinstance(inner, type) and issubclass(inner, enum.Enum):
        values = tuple(str(m.value) for m in inner)
        initial = str(default.value) if isinstance(default, enum.Enum) else ""
        return FieldSpec(f.name, label, "select", required and not optional, initial, values, optional)
    if get_origin(inner) is Literal and all(isinstance(a, str) for a in get_args(inner)):
        return FieldSpec(f.name, label, "select", required and not optional, _initial(default),
                         tuple(get_args(inner)), optional)
    initial = json.dumps(_jsonable(default)) if has_default else ""
    return FieldSpec(f.name, label, "json", required, initial, optional=optional)


def _unwrap_optional(hint: Any) -> tuple[Any, bool]:
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(get_args(hint)) == 2:
            return args[0], True
    return hint, False


def _initial(default: Any) -> str:
    return "" if default is None else str(default)


def _jsonable(value: Any) -> Any:
    from games.serialization import to_data

    return to_data(value)


def order_from_post(rules: Ruleset, data: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    command_type = data.get("command_type", "")
    cls = next((c for c in rules.command_types if c.__name__ == command_type), None)
    if cls is None:
        raise OrderFormError(f"There is no order called {command_type!r} in this game.")
    payload: dict[str, Any] = {}
    for spec in order_form(cls).fields:
        raw = data.get(PREFIX + spec.name, "")
        raw = raw.strip() if isinstance(raw, str) else raw
        if spec.kind == "checkbox":
            payload[spec.name] = raw in ("on", "true", "1", "yes")
            continue
        if raw == "":
            if spec.optional:
                payload[spec.name] = None
            elif spec.kind == "text":
                payload[spec.name] = ""  # the ruleset says whether empty text will do
            elif spec.required:
                raise OrderFormError(f"{spec.label} needs a value.")
            continue  # otherwise the command's default stands
        payload[spec.name] = _read(spec, raw)
    return command_type, payload


def _read(spec: FieldSpec, raw: str) -> Any:
    if spec.kind == "number":
        try:
            return int(raw)
        except ValueError:
            raise OrderFormError(f"{spec.label} must be a whole number.") from None
    if spec.kind == "float":
        try:
            return float(raw)
        except ValueError:
            raise OrderFormError(f"{spec.label} must be a number.") from None
    if spec.kind == "json":
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise OrderFormError(f"{spec.label} is not JSON: {exc.msg}.") from None
    return raw
