"""The schema of a ruleset's orders is read from its dataclasses and agrees with what the
strict decoder accepts."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.base import Command
from games.json_schema import dataclass_schema
from games.registry import default_registry


class Colour(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass(frozen=True)
class Paint(Command):
    """Paint a path."""

    path: tuple[Point, ...]
    colour: Colour = Colour.RED
    note: str | None = None
    strength: float = 1.0


def _ref(cls: type) -> dict:
    return {"$ref": f"#/components/schemas/{cls.__name__}"}


def test_an_order_schema_lists_its_fields_and_leaves_out_what_the_referee_stamps():
    schema = dataclass_schema(Paint, _ref)
    assert set(schema["properties"]) == {"path", "colour", "note", "strength"}
    assert schema["required"] == ["path"]
    assert schema["properties"]["path"] == {"type": "array", "items": {"$ref": "#/components/schemas/Point"}}
    assert schema["properties"]["colour"] == {"enum": ["red", "blue"], "type": "string", "default": "red"}
    assert schema["properties"]["note"] == {"type": "string", "nullable": True, "default": None}
    assert schema["properties"]["strength"]["type"] == "number"
    assert schema["additionalProperties"] is False and schema["description"] == "Paint a path."


def test_every_installed_order_has_a_schema():
    registry = default_registry()
    for name, version in registry.names():
        for command in registry.get(name, version).command_types:
            schema = dataclass_schema(command, _ref)
            assert schema["type"] == "object", (name, command)
            assert "actor" not in schema["properties"] and "at_ms" not in schema["properties"]
